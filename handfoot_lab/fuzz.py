"""Corner-seeking fuzzing: whole games under chosen policies, every check at every step.

Two engines of checking, each reported per configuration (preset and player count):

* ``reference``: the reference engine alone, every invariant of ``reference/invariants.py``
  checked after every action (cards conserved, melds legal, a legal action in every
  position that is not over) and every finished deal recounted independently.
* ``vector``: both engines side by side on the same seeds and actions, comparing masks,
  observations, rewards, scores and done flags at every step (``differential.py``).

Random play rarely reaches the rule's corners (a stock emptied mid-turn, a foot played down
to its last card), so the policies include corner seekers:

* any agent by name (``agents.make_agent``): the baselines, ``tuned``, ``ppo`` (the shipped
  trained agent), ``py:...`` (yours);
* ``eager``: melds whatever it can as soon as it can and draws rather than takes, so hands
  run low, stocks run out and feet are played down to the last cards;
* ``mixed``: a different policy for every seat of every game.

Failures are counted, not raised: each is kept (the first few, with a replay record) and
the game is replaced by a fresh one, so one run reports everything it found.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import numpy as np

from handfoot_env import actions as A
from handfoot_env.cards import BLACK_THREE, CARD_KIND, JOKER, RED_THREE, TWO, is_natural, is_wild, rank_of
from handfoot_env.reference import Game
from handfoot_env.reference.game import DRAW_PHASE, PLAY_PHASE
from handfoot_env.reference.invariants import InvariantError, check_position, recount_deal
from handfoot_env.reference.observe import observe
from handfoot_env.reference.rule_facts import Books, book_requirement_problem, partners_of
from handfoot_env.reference.state import (
    ASKED,
    NO_LEGAL_ACTION,
    STOCK_EXHAUSTED,
    Group,
    Meld,
    Run,
    ThreesGroup,
    TwosBook,
    WildBook,
    count_books,
)
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine
from handfoot_env.vector.sampling import random_legal_actions
from handfoot_lab.differential import DeadEnd, Divergence, compare_outcome, compare_position

MIXED_POOL = ("random", "greedy", "heuristic", "eager")  # ppo joins when it can be loaded
KEEP_FAILURES = 5  # messages kept per configuration

# The rare situations a fuzz run counts, each with what it means.
CORNERS = {
    "stock_emptied_mid_turn": "a draw or take emptied the stock and the turn went on (or could not)",
    "deal_ended_no_legal_action": (
        "docs/rules.md 'When the stock runs out', during a turn: the mover had no legal action"
    ),
    "deal_ended_stock_exhausted": "a turn began with no legal draw or take",
    "went_out_by_meld": "a player went out by melding its last cards",
    "went_out_by_discard": "a player went out by discarding its last card",
    "foot_by_meld": "a hand used up by melding: the foot picked up mid-turn",
    "foot_by_discard": "a hand used up by the discard: the foot waits for the next turn",
    "pile_taken": "the discard pile taken (top card and a pair)",
    "short_pile_taken": "a pile with fewer cards than the take count taken",
    "take_opened": "a take that opened its side (partnership)",
    "top_discard_taken": "house: one from the stock plus the top discard",
    "pile_blocked": "a turn began with a wild or black three on top of the pile",
    "pile_frozen": "house: a turn began with the top discard frozen out",
    "low_stock_take": "a turn began with too few cards to draw, but a legal take",
    "red_three_unreplaced": "a red three laid down with the stock empty (no replacement)",
    "staging_returned": "staged groups went back to the hand with the discard",
    "foot_down_to_two": "a player on its foot with at most 2 cards, after its draw",
    "threes_held_at_deal_end": "house: a deal ended with threes still held",
    "game_ended_by_target": "house: a game ended by reaching the target score",
    "tied_game": "a game ended with equal highest totals",
    # the variations (docs/rules.md "Variations")
    "wild_book_completed": "a wild book of 7 wilds completed",
    "threes_book_completed": "a book of black threes completed",
    "sevens_book_completed": "a book of 7s completed where one is needed to go out",
    "pile_taken_by_table": "the pile taken by its top card onto a group on the table (no pair)",
    "pile_taken_with_wild": "the pile taken with one natural and a wild",
    "pile_frozen_by_wild": "a turn began with a natural on top of a pile that a wild freezes",
    "permission_asked": "a player asked its partner: may I go out?",
    "permission_granted": "the partner said yes",
    "permission_refused": "the partner said no",
    "went_out_with_permission": "a player went out after its partner's yes",
    "partner_not_on_foot": "a player on its foot whose side had the books, its partner not on its foot yet",
    "six_player_teams_went_out": "a player of three teams of two went out",
}


@dataclass
class FuzzReport:
    """One configuration's fuzz run (``--json`` prints these)."""

    engine: str
    preset: str
    num_players: int
    policy: str
    label: str = ""  # the preset, the table size and the variations played (``config_label``)
    steps: int = 0  # actions whose outcome was checked (reference) or compared (vector)
    positions: int = 0  # positions checked (reference) or compared, mask and observation (vector)
    games: int = 0
    divergences: int = 0
    dead_ends: int = 0
    invariant_failures: int = 0
    corners: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CORNERS, 0))
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.divergences == 0 and self.dead_ends == 0 and self.invariant_failures == 0

    def to_dict(self) -> dict:
        return asdict(self)

    def record_failure(self, kind: str, message: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.failures) < KEEP_FAILURES:
            self.failures.append(message)


# ---------------------------------------------------------------------------- policies
class EagerAgent:
    """Corner seeker: melds whatever it can, as soon as it can; draws rather than takes;
    otherwise a random legal action.  Its hands run low and its feet run out."""

    name = "eager"
    _MELDS = np.array([A.decode(a).is_meld for a in range(A.NUM_ACTIONS)])

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)

    def act(self, observations: np.ndarray | None, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks, dtype=bool)
        priority = self.rng.random(masks.shape) + 2.0 * self._MELDS
        priority[:, A.DRAW] += 1.5
        priority[~masks] = -1.0
        return priority.argmax(axis=1)


def fuzz_player(name: str, seed: int = 0, rules: Rules | None = None):
    """A fuzz policy by name: ``eager``, or any agent's name (``mixed`` is built per
    configuration by :class:`SeatPolicies`)."""
    if name == "eager":
        return EagerAgent(seed)
    from agents import REGISTRY, agent_usage, make_agent

    if name.partition(":")[0] not in REGISTRY:
        raise ValueError(f"unknown policy {name!r}: choose eager, mixed or an agent ({agent_usage()})")
    return make_agent(name, seed=seed, rules=rules)


class SeatPolicies:
    """Which policy moves for each seat of each game: one policy, or (``mixed``) a policy
    drawn anew for every seat of every new game."""

    def __init__(self, name: str, rules: Rules, seed: int):
        num_players = rules.num_players
        self.rng = np.random.default_rng([seed, 7])
        if name == "mixed":
            pool = list(MIXED_POOL)
            try:
                self.agents = [fuzz_player(n, seed + i, rules) for i, n in enumerate(pool + ["ppo"])]
            except ValueError:  # no trained agent here (the training extras are missing)
                self.agents = [fuzz_player(n, seed + i, rules) for i, n in enumerate(pool)]
        else:
            self.agents = [fuzz_player(name, seed, rules)]
        self.num_players = num_players
        self.seat_policy = np.zeros((0, num_players), dtype=np.int64)

    def new_games(self, rows: np.ndarray, batch_size: int) -> None:
        if self.seat_policy.shape[0] != batch_size:
            self.seat_policy = np.zeros((batch_size, self.num_players), dtype=np.int64)
        self.seat_policy[rows] = self.rng.integers(0, len(self.agents), size=(len(rows), self.num_players))

    def act(self, observations: np.ndarray, masks: np.ndarray, movers: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Actions of the games at ``rows`` (their movers' policies)."""
        actions = np.zeros(len(rows), dtype=np.int64)
        chosen = self.seat_policy[rows, movers[rows]]
        for k, agent in enumerate(self.agents):
            mine = np.flatnonzero(chosen == k)
            if len(mine):
                actions[mine] = agent.act(observations[rows[mine]], masks[rows[mine]])
        return actions


# ---------------------------------------------------------------------------- corners
@dataclass
class _Before:
    """What :func:`count_corners` needs to know of a position before an action."""

    deals: int
    mover: int
    on_foot: bool
    stock: int
    pile: int
    opened: bool
    staged: int
    red_threes: int
    books: tuple[Books, int]  # the mover's side's books, and its books of black threes

    @classmethod
    def of(cls, game: Game) -> _Before:
        seat = game.seats[game.current]
        return cls(
            len(game.deal_results),
            game.current,
            seat.on_foot,
            len(game.stock),
            len(game.pile),
            game.sides[game.owner()].opened,
            len(seat.staged),
            sum(s.red_threes for s in game.sides),
            _books(game, game.owner()),
        )


def _books(game: Game, owner: int) -> tuple[Books, int]:
    groups = game.sides[owner].groups
    threes = sum(isinstance(g, ThreesGroup) and g.size >= game.rules.book_size for g in groups)
    return count_books(groups, game.rules.book_size), threes


def count_corners(game: Game, before: _Before, action: int, corners: Counter) -> None:
    """Add the rare situations that ``action`` (applied to ``game`` after ``before``) met."""
    rules = game.rules
    kind = A.decode(action).kind
    ended = game.deal_results[before.deals] if len(game.deal_results) > before.deals else None
    drew = kind in ("draw", "take_pile")
    discarded = kind in ("discard", "discard_suited")
    if kind == "take_pile":
        if rules.draw_one_plus_discard:
            corners["top_discard_taken"] += 1
        else:
            corners["pile_taken"] += 1
            take = rules.pile_take_count
            corners["short_pile_taken"] += take is not None and before.pile < take
            corners["take_opened"] += not before.opened and game.sides[rules.owner_of(before.mover)].opened
    if discarded and before.staged:
        corners["staging_returned"] += 1
    corners["pile_taken_by_table"] += kind == "take_onto_table"
    corners["pile_taken_with_wild"] += kind == "take_with_wild"
    corners["permission_asked"] += kind == "ask_to_go_out"
    corners["permission_granted"] += kind == "answer_yes"
    corners["permission_refused"] += kind == "answer_no"
    if ended is None or ended.ended_by not in (NO_LEGAL_ACTION, STOCK_EXHAUSTED):
        # the mover's side's books as they stand (or as the deal ended): which ones are new
        if ended is None:
            (books, threes) = _books(game, rules.owner_of(before.mover))
        else:
            melds = ended.final_melds[rules.owner_of(before.mover)]
            books = count_books([_meld_of(cards, rules.wild_books) for cards in melds], rules.book_size)
            threes = sum(sum(c) >= rules.book_size and c[BLACK_THREE] == sum(c) for c in melds)
        corners["wild_book_completed"] += books.wild > before.books[0].wild
        corners["threes_book_completed"] += threes > before.books[1]
        sevens = books.sevens_clean + books.sevens_dirty
        was = before.books[0].sevens_clean + before.books[0].sevens_dirty
        corners["sevens_book_completed"] += rules.sevens_book_to_go_out != "no" and sevens > was
    if ended is not None:
        if ended.ended_by == NO_LEGAL_ACTION:
            corners["deal_ended_no_legal_action"] += 1
            corners["stock_emptied_mid_turn"] += drew
        elif ended.ended_by == STOCK_EXHAUSTED:
            corners["deal_ended_stock_exhausted"] += 1
        else:
            corners["went_out_by_discard" if discarded else "went_out_by_meld"] += 1
            corners["went_out_with_permission"] += rules.permission_to_go_out
            corners["six_player_teams_went_out"] += rules.partnerships and rules.num_players == 6
        if not rules.red_threes_laid_down:
            places = ended.final_places
            held = sum(
                places[f"{part}{s}"][k]
                for s in range(rules.num_players)
                for part in ("hand", "foot")
                for k in (RED_THREE, BLACK_THREE)
            )
            corners["threes_held_at_deal_end"] += held > 0
        if game.is_over:
            target = rules.target_score
            corners["game_ended_by_target"] += (
                target is not None and max(game.totals) >= target and len(game.deal_results) < rules.num_deals
            )
            corners["tied_game"] += len(game.winners()) > 1
        return
    if drew and before.stock > 0 and not game.stock:
        corners["stock_emptied_mid_turn"] += 1
    if sum(s.red_threes for s in game.sides) > before.red_threes and not game.stock:
        corners["red_three_unreplaced"] += 1
    if not before.on_foot and game.seats[before.mover].on_foot:
        corners["foot_by_discard" if discarded else "foot_by_meld"] += 1


def count_position_corners(game: Game, mask: np.ndarray, corners: Counter) -> None:
    """Rare situations of the position itself (the mover's draw phase, or its hand)."""
    if game.is_over:
        return
    seat = game.seats[game.current]
    if game.phase == DRAW_PHASE:
        rules = game.rules
        if rules.draw_one_plus_discard:
            if game.pile and game.stock and not mask[A.TAKE_PILE]:
                corners["pile_frozen"] += 1
        elif game.pile and not is_natural(int(CARD_KIND[game.pile[-1]])):
            corners["pile_blocked"] += 1
        if len(game.stock) < rules.draw_count and mask[A.TAKE_PILE]:
            corners["low_stock_take"] += 1
        top_natural = game.pile and is_natural(int(CARD_KIND[game.pile[-1]]))
        if rules.wild_freezes_pile and top_natural and any(is_wild(int(CARD_KIND[c])) for c in game.pile):
            corners["pile_frozen_by_wild"] += 1
    elif game.phase == PLAY_PHASE and seat.on_foot and seat.hand_size <= 2:
        corners["foot_down_to_two"] += 1
    if game.rules.partner_foot_first and game.permission != ASKED and seat.on_foot:
        books = count_books(game.sides[game.owner()].groups, game.rules.book_size)
        waiting = any(not game.seats[p].on_foot for p in partners_of(game.rules, game.current))
        if waiting and book_requirement_problem(game.rules, game.deal_index, books) is None:
            corners["partner_not_on_foot"] += 1


def _meld_of(cards: list[int], rules_wild_books: bool) -> Meld:
    """A finished deal's meld, from its counts per kind (``DealResult.final_melds``), as far as
    counting books needs: a group of its natural rank, a wild book, a group of black threes."""
    naturals = [k for k, c in enumerate(cards) if c and is_natural(k)]
    if len(naturals) > 1:  # house: a run (its suit does not count)
        return Run(0, rank_of(naturals[0]), len(naturals))
    if naturals:
        return Group(rank_of(naturals[0]), cards[naturals[0]], cards[TWO], cards[JOKER])
    if cards[BLACK_THREE]:
        return ThreesGroup(cards[BLACK_THREE])
    if cards[JOKER] == 0 and not rules_wild_books:
        return TwosBook(cards[TWO])
    return WildBook(cards[TWO], cards[JOKER])


# ---------------------------------------------------------------------------- the runs
def _progress(label: str, enabled: bool) -> Callable[[int, int], None]:
    """A one-line progress report on standard error, rewritten at most twice a second."""
    last = [0.0]

    def show(done: int, total: int) -> None:
        now = time.perf_counter()
        if enabled and (now - last[0] > 0.5 or done >= total):
            last[0] = now
            end = "\n" if done >= total else ""
            print(f"\r{label}: {done:,} / {total:,}", end=end, file=sys.stderr, flush=True)

    return show


def fuzz_reference(rules: Rules, policy: str, games: int, seed: int = 0, progress: bool = False) -> FuzzReport:
    """``games`` whole games on the reference engine; every invariant after every action."""
    report = FuzzReport("reference", rules.preset_name, rules.num_players, policy, config_label(rules))
    corners: Counter = Counter()
    seats = SeatPolicies(policy, rules, seed)
    show = _progress(f"{rules.preset_name} {rules.num_players}p {policy}: games", progress)
    start = time.perf_counter()
    for g in range(games):
        game = Game(rules, seed + g)
        seats.new_games(np.array([0]), 1)
        try:
            while not game.is_over:
                mask = game.legal_mask()
                check_position(game, mask)
                report.positions += 1
                count_position_corners(game, mask, corners)
                movers = np.array([game.mover])  # the asked partner while a permission question stands
                action = int(seats.act(observe(game, game.mover)[None], mask[None], movers, np.array([0]))[0])
                before = _Before.of(game)
                game.step(action)
                count_corners(game, before, action, corners)
                report.steps += 1
            check_position(game)
            for deal in game.deal_results:
                if recount_deal(deal, rules) != deal.scores:
                    raise InvariantError(f"deal {deal.deal_index + 1}: scores {deal.scores} != recount")
            if [sum(d.scores[o] for d in game.deal_results) for o in range(rules.num_owners)] != game.totals:
                raise InvariantError("totals do not add up to the deal scores")
        except InvariantError as exc:
            kind = "dead_ends" if "no legal action" in str(exc) else "invariant_failures"
            report.record_failure(kind, f"seed {seed + g}, step {len(game.actions)}: {exc}")
        report.games += 1
        show(g + 1, games)
    report.corners = {name: int(corners[name]) for name in CORNERS}
    report.seconds = time.perf_counter() - start
    return report


def fuzz_vector(
    rules: Rules, policy: str, steps: int, seed: int = 0, batch_size: int = 32, progress: bool = False
) -> FuzzReport:
    """Both engines side by side for ``steps`` compared steps (actions of single games)."""
    report = FuzzReport("vector", rules.preset_name, rules.num_players, policy, config_label(rules))
    corners: Counter = Counter()
    engine = VectorEngine(rules, batch_size=batch_size, seed=seed, auto_reset=False)
    refs = [Game(rules, int(s)) for s in engine.states["seed"]]
    seats = SeatPolicies(policy, rules, seed)
    all_rows = np.arange(batch_size)
    seats.new_games(all_rows, batch_size)
    explore = np.random.default_rng([seed, 3])
    show = _progress(f"{rules.preset_name} {rules.num_players}p {policy}: compared steps", progress)
    start = time.perf_counter()

    def replace(b: int) -> None:
        refs[b] = Game(rules, int(engine.reset_games(np.array([b]))[0]))
        seats.new_games(np.array([b]), batch_size)

    while report.steps < steps:
        masks = engine.legal_mask()
        observations = engine.observe()
        broken = []
        for b, game in enumerate(refs):
            try:
                compare_position(game, masks[b], observations[b])
                report.positions += 1
                count_position_corners(game, masks[b], corners)
            except Divergence as exc:
                report.record_failure("divergences", str(exc))
                broken.append(b)
            except DeadEnd as exc:
                report.record_failure("dead_ends", str(exc))
                broken.append(b)
        for b in broken:
            replace(b)
        if broken:
            continue
        actions = seats.act(observations, masks, engine.current_player.astype(np.int64), all_rows)
        # A little randomness keeps deterministic policies from replaying the same lines.
        wander = explore.random(batch_size) < 0.05
        if wander.any():
            actions[wander] = random_legal_actions(masks[wander], explore)
        befores = [_Before.of(game) for game in refs]
        deals_before = [len(game.deal_results) for game in refs]
        outcome = engine.step(actions)
        for b, game in enumerate(refs):
            try:
                game.step(int(actions[b]))
                count_corners(game, befores[b], int(actions[b]), corners)
                totals = engine.final_totals[b] if outcome.game_over[b] else engine.totals[b]
                compare_outcome(game, deals_before[b], outcome, b, totals)
            except Divergence as exc:
                report.record_failure("divergences", str(exc))
                replace(b)
                continue
            except Exception as exc:  # noqa: BLE001 (any refusal or crash of the reference is a divergence to record)
                report.record_failure("divergences", f"seed {game.seed}: {type(exc).__name__}: {exc}")
                replace(b)
                continue
            report.steps += 1
            if outcome.game_over[b]:
                report.games += 1
                replace(b)
        show(min(report.steps, steps), steps)
    report.corners = {name: int(corners[name]) for name in CORNERS}
    report.seconds = time.perf_counter() - start
    return report


# One configuration per variation of docs/rules.md that the presets do not play (each on the
# preset it is most at home in), and one with all of them at once.
VARIATION_CONFIGS: tuple[tuple[str, dict], ...] = (
    ("classic", dict(wild_books=True)),
    ("partnership", dict(wild_books=True, wild_book_to_go_out=True)),
    ("partnership", dict(permission_to_go_out=True)),
    ("partnership", dict(partner_foot_first=True)),
    ("partnership", dict(black_three_books=True)),  # a team's shared group of 10 black threes
    ("partnership", dict(sevens_book_to_go_out="any")),
    ("classic", dict(take_onto_table=True)),
    ("partnership", dict(take_with_natural_and_wild=True, wild_freezes_pile=True)),
    ("partnership", dict(num_players=6)),
    (
        "partnership",
        dict(
            num_players=6,
            wild_books=True,
            wild_book_to_go_out=True,
            permission_to_go_out=True,
            partner_foot_first=True,
            black_three_books=True,
            sevens_book_to_go_out="clean",
            take_onto_table=True,
            take_with_natural_and_wild=True,
            wild_freezes_pile=True,
        ),
    ),
)


def preset_configs() -> list[Rules]:
    """Every preset and table size."""
    return [Rules.preset("classic", num_players=n) for n in (2, 3, 4, 6)] + [
        Rules.preset("partnership"),
        Rules.preset("house"),
        Rules.preset("house", num_players=4),
    ]


def default_configs() -> list[Rules]:
    """What the fuzzers cover by default: every preset and table size, then the variations."""
    return preset_configs() + [Rules.preset(name, **overrides) for name, overrides in VARIATION_CONFIGS]


def config_label(rules: Rules) -> str:
    """``classic 2p``, or with the fields that differ from the preset at that table size:
    ``partnership 4p permission_to_go_out=True``."""
    base = Rules.preset(rules.preset_name, num_players=rules.num_players)
    changed = [f"{k}={v}" for k, v in rules.changes_from(base).items()]
    return " ".join([f"{rules.preset_name} {rules.num_players}p", *changed])


__all__ = [
    "CORNERS",
    "VARIATION_CONFIGS",
    "EagerAgent",
    "FuzzReport",
    "config_label",
    "default_configs",
    "fuzz_player",
    "fuzz_reference",
    "fuzz_vector",
    "preset_configs",
]
