"""The pieces of a reference game: melds, seats and sides (owners of melds).

A meld is a :class:`Group` (a book of one natural rank, with wilds), or in ``house`` a
:class:`Run` (one suit in sequence) or a :class:`TwosBook` (2s only); the variations add a
:class:`WildBook` (wilds only) and a :class:`ThreesGroup` (black threes only).  Every meld
has a ``size``, ``is_clean``, ``value`` and ``counts()``; at ``book_size`` cards it is a book
(``house`` calls books canastas: clean ones red, ones with wilds black).  A wild book is
neither clean nor dirty (docs/rules.md "Variations"): :func:`count_books` counts it apart.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from handfoot_env.cards import (
    BLACK_THREE,
    CARD_KIND,
    JOKER,
    KIND_VALUES,
    NUM_KINDS,
    NUM_NATURALS,
    NUM_SUITS,
    RED_THREE,
    TWO,
    natural_kind,
    rank_of,
)
from handfoot_env.reference import rule_facts as facts
from handfoot_env.reference.rule_facts import Books
from handfoot_env.rules import Rules

DRAW_PHASE, PLAY_PHASE, GAME_OVER = "draw", "play", "game_over"  # a game's phases
# A permission question's state in the turn (docs/rules.md "Variations", permission to go out).
NOT_ASKED, ASKED, GRANTED, REFUSED = "not asked", "asked", "granted", "refused"
SEVEN = rank_of(7)  # the rank index of the 7s


@dataclass
class Group:
    """A group of one natural rank (a book once it holds ``book_size`` cards)."""

    rank: int  # natural rank index 0..10
    naturals: int = 0
    twos: int = 0
    jokers: int = 0

    @property
    def size(self) -> int:
        return self.naturals + self.twos + self.jokers

    @property
    def wilds(self) -> int:
        return self.twos + self.jokers

    @property
    def is_clean(self) -> bool:
        return self.wilds == 0

    @property
    def value(self) -> int:
        """Card values of the cards in the group (bonuses excluded)."""
        return (
            self.naturals * KIND_VALUES[natural_kind(self.rank)]
            + self.twos * KIND_VALUES[TWO]
            + self.jokers * KIND_VALUES[JOKER]
        )

    def counts(self) -> list[int]:
        """The group's cards as counts per kind."""
        out = [0] * NUM_KINDS
        out[natural_kind(self.rank)] = self.naturals
        out[TWO] = self.twos
        out[JOKER] = self.jokers
        return out

    def copy(self) -> Group:
        return Group(self.rank, self.naturals, self.twos, self.jokers)


@dataclass
class Run:
    """A run (house): ``length`` cards of ``suit`` from rank index ``low`` upward, no wilds."""

    suit: int
    low: int
    length: int = 3

    @property
    def high(self) -> int:
        return self.low + self.length - 1

    @property
    def size(self) -> int:
        return self.length

    @property
    def is_clean(self) -> bool:
        return True

    @property
    def value(self) -> int:
        return sum(KIND_VALUES[natural_kind(r)] for r in range(self.low, self.high + 1))

    def counts(self) -> list[int]:
        out = [0] * NUM_KINDS
        for r in range(self.low, self.high + 1):
            out[natural_kind(r)] += 1
        return out

    def copy(self) -> Run:
        return Run(self.suit, self.low, self.length)


@dataclass
class TwosBook:
    """A book of 2s (house): 2s only, no joker; clean (a red canasta) when complete."""

    twos: int = 3

    @property
    def size(self) -> int:
        return self.twos

    @property
    def is_clean(self) -> bool:
        return True

    @property
    def value(self) -> int:
        return self.twos * KIND_VALUES[TWO]

    def counts(self) -> list[int]:
        out = [0] * NUM_KINDS
        out[TWO] = self.twos
        return out

    def copy(self) -> TwosBook:
        return TwosBook(self.twos)


@dataclass
class WildBook:
    """A wild book (variation): 2s and jokers only; neither clean nor dirty when complete."""

    twos: int = 0
    jokers: int = 0

    @property
    def size(self) -> int:
        return self.twos + self.jokers

    @property
    def is_clean(self) -> bool:
        return False

    @property
    def value(self) -> int:
        return self.twos * KIND_VALUES[TWO] + self.jokers * KIND_VALUES[JOKER]

    def counts(self) -> list[int]:
        out = [0] * NUM_KINDS
        out[TWO] = self.twos
        out[JOKER] = self.jokers
        return out

    def copy(self) -> WildBook:
        return WildBook(self.twos, self.jokers)


@dataclass
class ThreesGroup:
    """A group of black threes (variation): no wilds, a clean book when complete."""

    threes: int = 3

    @property
    def size(self) -> int:
        return self.threes

    @property
    def is_clean(self) -> bool:
        return True

    @property
    def value(self) -> int:
        return self.threes * KIND_VALUES[BLACK_THREE]

    def counts(self) -> list[int]:
        out = [0] * NUM_KINDS
        out[BLACK_THREE] = self.threes
        return out

    def copy(self) -> ThreesGroup:
        return ThreesGroup(self.threes)


Meld = Group | Run | TwosBook | WildBook | ThreesGroup


def no_suits() -> list[list[int]]:
    return [[0] * NUM_NATURALS for _ in range(NUM_SUITS)]


@dataclass
class Seat:
    """One player's cards.  ``hand`` and ``foot`` are counts per card kind.

    When runs are played (house) the naturals' suits are kept beside the kinds: ``hand_suits``
    [suit][rank] counts the naturals of ``hand`` by suit (and likewise for the foot and the
    staged cards); elsewhere they stay zero."""

    hand: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    foot: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    on_foot: bool = False  # the foot has been picked up and is now the hand
    # Cards the whole table knows this seat holds, per kind: taken from the pile face up and
    # not seen to leave the hand since (a lower bound; see transitions.show).
    known: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    staged: list[Meld] = field(default_factory=list)  # this turn's melds before opening
    hand_suits: list[list[int]] = field(default_factory=no_suits)
    foot_suits: list[list[int]] = field(default_factory=no_suits)
    staged_suits: list[list[int]] = field(default_factory=no_suits)

    @property
    def hand_size(self) -> int:
        return sum(self.hand)

    @property
    def staged_value(self) -> int:
        return sum(g.value for g in self.staged)


@dataclass
class Side:
    """An owner of groups: a player in ``classic``, a team in ``partnership``."""

    groups: list[Meld] = field(default_factory=list)  # unfinished melds and books
    red_threes: int = 0
    opened: bool = False


def unfinished_group(groups: list[Meld], rank: int, book_size: int) -> Group | None:
    """The unfinished group of ``rank`` among ``groups`` (there is at most one)."""
    for group in groups:
        if isinstance(group, Group) and group.rank == rank and group.size < book_size:
            return group
    return None


def unfinished_run(groups: list[Meld], suit: int, book_size: int) -> Run | None:
    """The unfinished run of ``suit`` (there is at most one per suit)."""
    for meld in groups:
        if isinstance(meld, Run) and meld.suit == suit and meld.size < book_size:
            return meld
    return None


def unfinished_twos_book(groups: list[Meld], book_size: int) -> TwosBook | None:
    for meld in groups:
        if isinstance(meld, TwosBook) and meld.size < book_size:
            return meld
    return None


def unfinished_wild_book(groups: list[Meld], book_size: int) -> WildBook | None:
    for meld in groups:
        if isinstance(meld, WildBook) and meld.size < book_size:
            return meld
    return None


def unfinished_threes(groups: list[Meld], book_size: int) -> ThreesGroup | None:
    for meld in groups:
        if isinstance(meld, ThreesGroup) and meld.size < book_size:
            return meld
    return None


def count_books(groups: list[Meld], book_size: int) -> Books:
    """The books among ``groups`` (``(clean, dirty, ...)``: in house, red and black canastas)."""
    clean = dirty = wild = sevens_clean = sevens_dirty = 0
    for group in groups:
        if group.size < book_size:
            continue
        seven = isinstance(group, Group) and group.rank == SEVEN
        if isinstance(group, WildBook):
            wild += 1
        elif group.is_clean:
            clean += 1
            sevens_clean += seven
        else:
            dirty += 1
            sevens_dirty += seven
    return Books(clean, dirty, wild, sevens_clean, sevens_dirty)


@dataclass(frozen=True)
class OwnerScore:
    """One owner's score for one deal, broken down as on a score sheet."""

    melded: int  # card values of every card in groups and books
    book_bonus: int
    red_threes: int  # +100 each, or -100 each for a team that never opened (partnership)
    going_out: int
    held: int  # minus the cards left in hands and unplayed feet (a negative number)

    @property
    def total(self) -> int:
        return self.melded + self.book_bonus + self.red_threes + self.going_out + self.held


# How a deal ended (docs/rules.md "The foot and going out", "When the stock runs out"): a player went out; the stock was exhausted at a turn's start;
# or the stock was emptied during a turn and the player to move had no legal action.
GOING_OUT, STOCK_EXHAUSTED, NO_LEGAL_ACTION = "going out", "stock exhausted", "no legal action"


@dataclass(frozen=True)
class DealResult:
    deal_index: int
    went_out: int | None  # the seat that went out, or None when the stock ran out
    owners: tuple[OwnerScore, ...]
    ended_by: str = GOING_OUT  # GOING_OUT, STOCK_EXHAUSTED or NO_LEGAL_ACTION
    # Where every card lay when the deal ended, for replays and for the independent recount:
    # the counts per kind of every place, each owner's melds (each as counts per kind), and
    # which owners had opened.
    final_places: dict = field(default_factory=dict, compare=False, repr=False)
    final_melds: tuple = field(default=(), compare=False, repr=False)
    final_opened: tuple = field(default=(), compare=False, repr=False)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(o.total for o in self.owners)

    def to_dict(self) -> dict:
        return {
            "deal": self.deal_index + 1,
            "went_out": self.went_out,
            "ended_by": self.ended_by,
            "owners": [dict(asdict(o), total=o.total) for o in self.owners],
        }


class GameState:
    """The whole state of one reference game: this record's attributes, and nothing else.

    ``deal.py``, ``legality.py``, ``scoring.py`` and ``transitions.py`` read and change it;
    :class:`~handfoot_env.reference.game.Game` is the public API over them.  The methods here
    only read facts that follow from the state."""

    def __init__(self, rules: Rules, seed: int):
        """A game with nothing dealt yet (``reference/deal.py`` deals)."""
        # The whole state of a game is these attributes; nothing else is ever set on it.
        self.rules = rules
        self.seed = seed  # deal d is shuffled from (seed, d): cards.shuffled_cards
        self.actions: list[int] = []  # every action applied, for the record
        self.totals: list[int] = [0] * rules.num_owners  # each owner's running total
        self.deal_results: list[DealResult] = []  # the deals finished so far
        self.deal_index = 0  # the deal in progress, 0-based
        self.first_dealer = rules.num_players - 1  # decision: seat 0 starts deal 1
        # The deal in progress: deal.start_deal deals each deal afresh into these.
        self.dealer = self.first_dealer  # the dealer moves left each deal
        self.current = (self.dealer + 1) % rules.num_players  # the seat to move
        self.phase = DRAW_PHASE  # DRAW_PHASE, PLAY_PHASE or GAME_OVER
        self.permission = NOT_ASKED  # this turn's question to the partner: NOT_ASKED, ASKED, GRANTED, REFUSED
        self.went_out: int | None = None  # the seat that went out, once one has
        self.seats: list[Seat] = [Seat() for _ in range(rules.num_players)]  # hands, feet, staged melds
        self.sides: list[Side] = [Side() for _ in range(rules.num_owners)]  # each owner's table
        self.stock: list[int] = []  # card ids, the top last
        self.pile: list[int] = []  # card ids, the top last

    @property
    def is_over(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def mover(self) -> int:
        """The seat to act: the player whose turn it is, or its partner while the question
        "may I go out?" stands (docs/rules.md "Variations")."""
        if self.permission == ASKED:
            return facts.partners_of(self.rules, self.current)[0]
        return self.current

    def owner(self, seat_index: int | None = None) -> int:
        return facts.owner_of(self.rules, self.current if seat_index is None else seat_index)

    def minimum(self, owner: int) -> int:
        """The opening minimum that ``owner`` must reach in this deal."""
        return facts.opening_minimum(self.rules, self.deal_index, self.totals[owner])

    def books_needed(self) -> tuple[int, int]:
        return self.rules.books_needed(self.deal_index)

    def meets_book_requirement(self, books) -> bool:
        """Whether an owner with ``books`` (``state.Books``) has the books to go out in this deal."""
        return facts.book_requirement_problem(self.rules, self.deal_index, books) is None

    def winners(self) -> list[int]:
        """Owners with the highest total (several on a tie)."""
        best = max(self.totals)
        return [o for o, t in enumerate(self.totals) if t == best]

    def card_counts_by_place(self) -> dict[str, list[int]]:
        """Every card's place, as counts per kind (for the conservation invariant)."""
        places: dict[str, list[int]] = {}
        places["stock"] = (
            np.bincount(CARD_KIND[self.stock], minlength=NUM_KINDS).tolist() if self.stock else [0] * NUM_KINDS
        )
        places["pile"] = (
            np.bincount(CARD_KIND[self.pile], minlength=NUM_KINDS).tolist() if self.pile else [0] * NUM_KINDS
        )
        for i, seat in enumerate(self.seats):
            places[f"hand{i}"] = list(seat.hand)
            places[f"foot{i}"] = list(seat.foot)
            staged = [0] * NUM_KINDS
            for g in seat.staged:
                for k, c in enumerate(g.counts()):
                    staged[k] += c
            places[f"staged{i}"] = staged
        for o, side in enumerate(self.sides):
            table = [0] * NUM_KINDS
            table[RED_THREE] = side.red_threes
            for g in side.groups:
                for k, c in enumerate(g.counts()):
                    table[k] += c
            places[f"table{o}"] = table
        return places
