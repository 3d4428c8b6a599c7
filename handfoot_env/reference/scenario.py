"""Scenarios: set up any position by hand, in a few readable lines of YAML.

    preset: classic
    deal: 3                 # 1-based deal number (sets the minimum)
    to_move: 0
    phase: play             # draw (start of turn) or play (after the draw)
    seats:
      - hand: K K K Q Q Q 5
        foot: random 11     # that many cards from the rest of the pack, in seeded order
      - hand: random 11
        foot: random 11
    tables:                 # one per owner (player in classic, team in partnership)
      - {opened: true, red_threes: 1, groups: [K K K K K K K, Q Q 2]}
    pile: 7 8 9 K           # bottom to top
    stock: rest             # the remaining cards in seeded order (default), or a list, top first
    scores: [0, 0]          # running totals before this deal
    dealer: 1               # who dealt this deal (default: the seat before to_move)
    start: true             # the deal starts here: see below

With ``start: true`` the scenario is the moment the cards have been dealt: hands and feet
as written (red threes allowed in hands), the stock as written, no pile and nothing on the
table.  The engine then opens the deal as a real one: it turns the upcard (``classic``),
lays down and replaces the dealt red threes seat by seat from the player left of the
dealer, and begins that player's turn.

Cards are written ``4 .. 10 J Q K A``, ``2``, ``Jk`` (joker), ``3b``/``3r`` (black/red
three).  Unless the stock is listed, every card of the pack is placed exactly once.

With runs (``house``) naturals carry a suit: ``Kh``, ``10s``, ``4c``, ``Ad``; a natural
written without one takes the first suit of its rank left in the pack (clubs first).  On a
table, ``4h 5h 6h`` (one suit, ranks in sequence) is a run and ``2 2 2`` a book of 2s.  Where
the variations allow them, ``2 Jk 2`` on a table is a wild book and ``3b 3b 3b`` a group of
black threes.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from handfoot_env.cards import (
    BLACK_THREE,
    CARD_KIND,
    CARD_SUIT,
    JOKER,
    NUM_CARD_IDS,
    NUM_SUITS,
    RED_THREE,
    TWO,
    card_id_counts,
    card_name,
    check_seed,
    is_natural,
    parse_card,
    rank_of,
    suited_id,
)
from handfoot_env.errors import ScenarioError
from handfoot_env.reference import rule_facts as facts
from handfoot_env.reference.deal import add_card
from handfoot_env.reference.game import DRAW_PHASE, PLAY_PHASE, Game
from handfoot_env.reference.state import Group, Meld, Run, Seat, Side, ThreesGroup, TwosBook, WildBook
from handfoot_env.rules import Rules, require_supported
from handfoot_env.strict_yaml import load_yaml

_KEYS = {
    "preset",
    "rules",
    "seed",
    "deal",
    "to_move",
    "dealer",
    "start",
    "phase",
    "seats",
    "tables",
    "pile",
    "stock",
    "scores",
}


class _Pack:
    """The cards not yet placed, by card id; hands out the cards a scenario names."""

    def __init__(self, rules: Rules):
        self.suited = rules.runs
        self.remaining = card_id_counts(int(rules.num_decks), self.suited)

    def cards(self, value: Any, where: str) -> list[int]:
        """Card ids for a written list, taken out of the pack."""
        if value is None:
            return []
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        out = []
        for token in str(value).replace(",", " ").split():
            try:
                kind, suit = parse_card(token)
            except ValueError as exc:
                raise ScenarioError(f"{where}: {exc}") from None
            if not (self.suited and is_natural(kind)):
                card = kind
            elif suit >= 0:
                card = suited_id(suit, rank_of(kind))
            else:  # no suit given: the first suit of the rank left in the pack
                left = [s for s in range(NUM_SUITS) if self.remaining[suited_id(s, rank_of(kind))] > 0]
                card = suited_id(left[0] if left else 0, rank_of(kind))
            self.remaining[card] -= 1
            if self.remaining[card] < 0:
                raise ScenarioError(f"{where}: more {card_name(card)} than the pack holds")
            out.append(card)
        return out


def _meld(cards: list[int], rules: Rules, where: str) -> Meld:
    """A table or staged meld from its card ids: a book (group), a run or a book of 2s."""
    kinds = [int(CARD_KIND[c]) for c in cards]
    naturals = [k for k in kinds if is_natural(k)]
    if rules.books_of_twos and kinds and all(k == TWO for k in kinds):
        meld: Meld = TwosBook(len(kinds))
    elif rules.wild_books and kinds and all(k in (TWO, JOKER) for k in kinds):
        meld = WildBook(kinds.count(TWO), kinds.count(JOKER))
    elif rules.black_three_books and kinds and all(k == BLACK_THREE for k in kinds):
        meld = ThreesGroup(len(kinds))
    elif rules.runs and len(set(naturals)) > 1:
        suits = {int(CARD_SUIT[c]) for c in cards}
        ranks = sorted(rank_of(k) for k in naturals)
        if len(naturals) != len(kinds) or len(suits) != 1 or ranks != list(range(ranks[0], ranks[0] + len(ranks))):
            raise ScenarioError(
                f"{where}: a run is naturals of one suit in sequence, got {' '.join(map(card_name, cards))}"
            )
        meld = Run(suits.pop(), ranks[0], len(ranks))
    else:
        if not naturals or len(set(naturals)) != 1:
            raise ScenarioError(
                f"{where}: a group needs naturals of exactly one rank, got {' '.join(map(card_name, cards))}"
            )
        if any(not is_natural(k) and k not in (TWO, JOKER) for k in kinds):
            raise ScenarioError(f"{where}: a group holds only naturals, 2s and jokers")
        meld = Group(rank_of(naturals[0]), len(naturals), kinds.count(TWO), kinds.count(JOKER))
        if not facts.wilds_allowed(rules, meld.naturals, meld.wilds):
            raise ScenarioError(f"{where}: group of {meld.size} cards with {meld.wilds} wilds is not legal")
    if not 3 <= meld.size <= rules.book_size:
        raise ScenarioError(f"{where}: a meld holds 3 to {rules.book_size} cards, got {meld.size}")
    return meld


def _put(seat: Seat, part: str, cards: list[int]) -> None:
    for card in cards:
        add_card(seat, card, part)


def load_scenario(source: str | dict) -> Game:
    """Build a :class:`Game` positioned as the scenario says (YAML text or a dict)."""
    game, starts_deal = build_scenario(source)
    if starts_deal:
        game.open_deal()
    return game


def build_scenario(source: str | dict) -> tuple[Game, bool]:
    """The scenario's position, and whether the deal starts there (``start: true``), in
    which case the caller opens it with ``Game.open_deal`` (so both engines can)."""
    try:
        # A scenario is data (a record's may come from anywhere): no YAML aliases (strict_yaml).
        data = load_yaml(source, "the scenario", aliases=False) if isinstance(source, str) else source
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a mapping of keys such as preset, seats, tables, pile")
    try:
        return _lay_out(dict(data))
    except (TypeError, AttributeError) as exc:  # a value of the wrong kind where the layout reads it
        raise ScenarioError(f"a scenario value has the wrong type: {exc}") from None


def _whole_number(data: dict, key: str, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ScenarioError(f"{key} must be a whole number, got {value!r}")
    return int(value)


def _lay_out(data: dict) -> tuple[Game, bool]:
    unknown = set(data) - _KEYS
    if unknown:
        raise ScenarioError(f"unknown scenario keys: {', '.join(sorted(unknown))}; known: {', '.join(sorted(_KEYS))}")
    try:
        rules = Rules.from_overrides(data.get("preset", "classic"), data.get("rules") or {})
        require_supported(rules)
    except ValueError as exc:
        raise ScenarioError(f"rules: {exc}") from None
    try:
        seed = check_seed(data.get("seed", 0))
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    n = rules.num_players
    deal = _whole_number(data, "deal", 1)
    if not 1 <= deal <= rules.num_deals:
        raise ScenarioError(f"deal must be between 1 and {rules.num_deals}, got {deal}")
    start = data.get("start", False)
    if not isinstance(start, bool):
        raise ScenarioError(f"start must be true or false, got {start!r}")
    phase = data.get("phase", DRAW_PHASE if start else PLAY_PHASE)
    if phase not in (DRAW_PHASE, PLAY_PHASE):
        raise ScenarioError(f"phase must be 'draw' or 'play', got {phase!r}")
    if start and (phase != DRAW_PHASE or data.get("pile") or data.get("tables")):
        raise ScenarioError("start: true is the moment after dealing: phase draw, no pile and no tables")

    try:
        game = Game(rules, seed, start=False)  # its state declared, nothing dealt: laid out below
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    game.deal_index = deal - 1
    scores = data.get("scores") or [0] * rules.num_owners
    if len(scores) != rules.num_owners:
        raise ScenarioError(f"scores needs {rules.num_owners} totals, got {len(scores)}")
    game.totals = [int(s) for s in scores]
    to_move, dealer = data.get("to_move"), data.get("dealer")
    for key, value in (("to_move", to_move), ("dealer", dealer)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n):
            raise ScenarioError(f"{key} must be a seat from 0 to {n - 1}, got {value!r}")
    if to_move is None:
        to_move = 0 if dealer is None else (dealer + 1) % n
    if dealer is None:
        dealer = (to_move - 1) % n
    if start and to_move != (dealer + 1) % n:
        raise ScenarioError(f"a deal starts with the player left of the dealer (seat {(dealer + 1) % n})")
    game.current, game.dealer = to_move, dealer
    game.first_dealer = (dealer - game.deal_index) % n  # later deals: the dealer moves left
    game.phase, game.went_out = phase, None

    pack = _Pack(rules)

    seats_data = data.get("seats") or []
    if len(seats_data) != n:
        raise ScenarioError(f"seats needs one entry per player ({n}), got {len(seats_data)}")
    tables_data = data.get("tables") or [{} for _ in range(rules.num_owners)]
    if len(tables_data) != rules.num_owners:
        raise ScenarioError(f"tables needs one entry per owner ({rules.num_owners}), got {len(tables_data)}")

    game.sides = []
    for o, table in enumerate(tables_data):
        table = table or {}
        where = f"tables[{o}].groups"
        groups = [_meld(pack.cards(g, where), rules, where) for g in table.get("groups") or []]
        side = Side(groups, int(table.get("red_threes", 0)), bool(table.get("opened", bool(groups))))
        if side.red_threes and not rules.red_threes_laid_down:
            raise ScenarioError(f"tables[{o}].red_threes: these rules never lay red threes down")
        pack.cards(["3r"] * side.red_threes, f"tables[{o}].red_threes")
        game.sides.append(side)

    game.pile = pack.cards(data.get("pile"), "pile")

    # Explicit cards first, then the numbers drawn from what is left, in seeded order.
    game.seats = [Seat() for _ in range(n)]
    random_fills: list[tuple[Seat, str, int]] = []
    for i, seat_data in enumerate(seats_data):
        seat_data = seat_data or {}
        seat = game.seats[i]
        seat.on_foot = bool(seat_data.get("on_foot", False))
        for part in ("hand", "foot"):
            value = seat_data.get(part)
            match = re.fullmatch(r"\s*random\s+(\d+)\s*", str(value))
            if match:
                random_fills.append((seat, part, int(match.group(1))))
            else:
                _put(seat, part, pack.cards(value, f"seats[{i}].{part}"))
    rest = [k for k in range(NUM_CARD_IDS) for _ in range(int(pack.remaining[k]))]
    rest = [int(k) for k in np.random.default_rng([seed, deal - 1, 1]).permutation(np.array(rest, dtype=np.int64))]
    for seat, part, count in random_fills:
        if count > len(rest):
            raise ScenarioError(f"not enough cards left to deal {count} to a {part}")
        if part == "hand" and rules.red_threes_laid_down and not start:  # red threes are never held
            eligible = [i for i, k in enumerate(rest) if k != RED_THREE][:count]
        else:
            eligible = list(range(count))
        if len(eligible) < count:
            raise ScenarioError(f"not enough cards left to deal {count} to a {part}")
        chosen = set(eligible)
        _put(seat, part, [rest[i] for i in eligible])
        rest = [k for i, k in enumerate(rest) if i not in chosen]
    for i, seat in enumerate(game.seats):
        if seat.hand[RED_THREE] and rules.red_threes_laid_down and not start:
            raise ScenarioError(f"seats[{i}].hand: red threes are never held; put them on the table")

    stock = data.get("stock", "rest")
    if stock == "rest":
        game.stock = rest[::-1]  # top is the end of the list
    else:
        game.stock = pack.cards(stock, "stock")[::-1]
    return game, start
