"""The rules of Hand and Foot as data: one frozen, validated dataclass and three presets.

Every rule and every decision of the project's rules page, ``docs/rules.md``, is a field
here, so that nothing else in the project hard-codes a rule number.  Comments name the
section of ``docs/rules.md`` ("Opening", "`house`"...) that says each preset value.  Presets:

* ``classic``      2-6 players, each alone, players + 1 decks, 11/11.
* ``partnership``  4 players in two teams (seats 0+2, 1+3), 5 decks, 11/11; or 6 players in
                   three teams (seats 0+3, 1+4, 2+5), 7 decks.
* ``house``        2 alone or 4 in teams, 5 decks, 13/13, runs, red and black canastas,
                   books of 2s, one card plus the top discard, games to 20,000.

``Rules.preset("classic", num_players=3)`` gives a preset with overrides; a bad value or
an inconsistent combination raises ``ValueError`` naming the field.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from handfoot_env import rule_facts
from handfoot_env.cards import CARDS_PER_DECK

WILD_LIMITS = ("majority", "by_size", "four_naturals")
SEVENS_BOOKS = ("no", "any", "clean", "dirty")  # sevens_book_to_go_out: which book of 7s going out needs
PRESET_NAMES = ("classic", "partnership", "house")

# Capacity: the largest table any rules may ask for (validation refuses more; the vector
# engine sizes its fixed record by these, so that one compiled kernel serves every rule set).
MAX_PLAYERS = 6
MAX_DECKS = 12
MAX_DEALS = 30
MAX_SCORE_STEPS = 8  # rows of minimums_by_score


@dataclass(frozen=True)
class Rules:
    """Every rule of the game.  Use :meth:`preset` rather than calling this directly."""

    preset_name: str = "classic"

    # --- players and cards -------------------------------------------------------------
    num_players: int = 2
    # Partners share groups and score: with 4 players seats 0+2 and 1+3, with 6 (the variation
    # "six players in three teams") seats 0+3, 1+4 and 2+5 -- a seat's partner sits num_owners on.
    partnerships: bool = False
    # None (the default): one more deck than players, filled in at once (__post_init__), so
    # that a built Rules always holds an int here.
    num_decks: int = None  # type: ignore[assignment]
    hand_size: int = 11
    foot_size: int = 11

    # --- the deal and the game -----------------------------------------------------------
    num_deals: int = 4  # 1, 2 or 4 deals ("Scoring")
    deal_minimums: tuple[int, ...] = (50, 90, 120, 150)
    # Opening minimum by running total instead of by deal (house): ((threshold, minimum), ...)
    # sorted by threshold; the first row whose threshold exceeds the total applies.
    minimums_by_score: tuple[tuple[int, int], ...] | None = None
    # house: the game ends after the deal in which an owner reaches this total; num_deals is
    # then the cap that ends games between weak players (30 in house).
    target_score: int | None = None

    # --- drawing and the discard pile ---------------------------------------------------
    draw_count: int = 2
    draw_one_plus_discard: bool = False  # house: one from the stock plus the top discard
    pile_upcard: bool = True  # classic: the pile starts with the stock's top card turned up
    pile_take_count: int | None = 7  # top 7; 5; None = whole pile; 0 = no taking ("Variations")
    pile_min_size: int = 7  # classic: the pile must hold at least 7 cards to be taken
    take_requires_opened: bool = True  # classic: the taker must have opened this deal
    staging_before_draw: bool = False  # partnership: staging may precede the take ("Opening")
    # Variations of the take ("Variations"): the top card onto an unfinished group of the side's
    # table with no pair; with one natural and one wild; a pile that holds a wild card is frozen
    # (only a natural pair takes it).
    take_onto_table: bool = False
    take_with_natural_and_wild: bool = False
    wild_freezes_pile: bool = False

    # --- melds ---------------------------------------------------------------------------
    book_size: int = 7
    max_wilds: int = 3
    wild_limit: str = "majority"  # "majority" | "by_size" | "four_naturals" ("Variations")
    clean_book_bonus: int = 500
    dirty_book_bonus: int = 300
    wild_books: bool = False  # variation: groups of wilds only, a wild book at book_size cards
    wild_book_bonus: int = 1500
    wild_book_to_go_out: bool = False  # variation: a wild book is needed to go out
    black_three_books: bool = False  # variation: black threes form groups (books) of their own
    runs: bool = False  # house: runs of one suit within 4..A
    books_of_twos: bool = False  # house: a book of 2s (no joker)
    frozen_six: bool = False  # house: a 6-card meld cannot take the top discard
    # In house a red canasta is a clean book, a book of 2s or a run (clean_book_bonus) and a
    # black canasta a book with wilds (dirty_book_bonus); books_to_go_out counts them.

    # --- threes ---------------------------------------------------------------------------
    red_threes_laid_down: bool = True  # laid down at once and replaced ("Red threes"); house: held
    red_three_bonus: int = 100
    red_three_unopened_penalty: bool = False  # partnership: -100 each for a team that never opened
    red_three_unlaid_penalty: int = 0  # red three still in hand or unplayed foot at the end
    black_three_penalty: int = 5  # black three left in hand or foot (its card value)

    # --- going out ------------------------------------------------------------------------
    # (clean books, dirty books) the owner needs to go out, one entry per deal
    books_to_go_out: tuple[tuple[int, int], ...] = ((1, 1),) * 4
    going_out_bonus: int = 100
    go_out_by_meld: bool = True  # False: "you must finish with a discard"
    sevens_book_to_go_out: str = "no"  # variation: "any", "clean" or "dirty" book of 7s also needed
    partner_foot_first: bool = False  # partnerships: go out only once the partner is on its foot
    permission_to_go_out: bool = False  # partnerships: ask the partner "may I go out?" first

    def __post_init__(self) -> None:
        _require_int(self, "num_players", 2, MAX_PLAYERS)
        if self.num_decks is None:
            object.__setattr__(self, "num_decks", self.num_players + 1)
        _validate(self)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str = "classic", **overrides: Any) -> Rules:
        """A named preset with optional overrides, e.g. ``Rules.preset("classic", num_players=3)``."""
        if not isinstance(name, str) or name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}: choose one of {', '.join(PRESET_NAMES)}")
        fields = dict(PRESETS[name])
        _check_field_names(overrides)
        if name == "house" and overrides.get("num_players") == 4 and "partnerships" not in overrides:
            fields["partnerships"] = True  # house is 2 alone or 4 in two teams
        fields.update(overrides)
        return cls(preset_name=name, **fields)

    @classmethod
    def from_overrides(cls, name: str, overrides: Any) -> Rules:
        """The preset ``name`` with ``overrides`` as a user wrote them (a config's ``rules``, a
        scenario's, ``--rule``): a mapping of field names, its lists read as tuples."""
        if not isinstance(overrides, dict):
            raise ValueError(f"rules must be a mapping of field names to values, got {type(overrides).__name__}")
        _check_field_names(overrides)
        fields = dict(overrides)
        for key in ("deal_minimums",):
            if isinstance(fields.get(key), list):
                fields[key] = tuple(fields[key])
        for key in ("books_to_go_out", "minimums_by_score"):
            if isinstance(fields.get(key), list):
                fields[key] = tuple(tuple(x) if isinstance(x, list) else x for x in fields[key])
        return cls.preset(name, **fields)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rebuild rules from :meth:`to_dict` (as stored in game records)."""
        if not isinstance(data, dict):
            raise ValueError(f"rules must be a mapping of field names to values, got {type(data).__name__}")
        data = dict(data)
        name = data.pop("preset_name", data.pop("preset", "classic"))
        if not isinstance(name, str):
            raise ValueError(f"rules field 'preset_name' must be a string, got {name!r}")
        return cls.from_overrides(name, data)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-friendly dict of every field."""
        out = dataclasses.asdict(self)
        for key, value in out.items():
            if isinstance(value, tuple):
                out[key] = [list(v) if isinstance(v, tuple) else v for v in value]
        return out

    def changes_from(self, other: Rules) -> dict[str, Any]:
        """The settings of these rules that differ from ``other``'s, with these rules' values (as
        ``to_dict`` gives them), in field order: what a label or a warning names."""
        mine, theirs = self.to_dict(), other.to_dict()
        return {name: value for name, value in mine.items() if theirs[name] != value}

    def replace(self, **changes: Any) -> Rules:
        _check_field_names(changes)
        return dataclasses.replace(self, **changes)

    # -- derived facts ------------------------------------------------------------------
    @property
    def num_owners(self) -> int:
        """Who owns groups and scores: players in ``classic``, teams in ``partnership``."""
        return self.num_players // 2 if self.partnerships else self.num_players

    def owner_of(self, seat: int) -> int:
        return self.seat_owners[seat]

    @cached_property
    def seat_owners(self) -> tuple[int, ...]:
        """The owner of each seat (``rule_facts.owner_of``, asked once per seat)."""
        return tuple(int(rule_facts.owner_of(self.kernel[0], seat)) for seat in range(self.num_players))

    def members_of(self, owner: int) -> tuple[int, ...]:
        if self.partnerships:
            return tuple(range(owner, self.num_players, self.num_owners))
        return (owner,)

    def partner_of(self, seat: int) -> int:
        """A seat's partner (partnerships): the seat ``num_owners`` further on."""
        return (seat + self.num_owners) % self.num_players

    @property
    def takes_with_a_pair(self) -> bool:
        """Whether the pile is taken with a pair of its top card (``classic``, ``partnership``;
        ``house`` takes the top discard with one stock card instead)."""
        return not self.draw_one_plus_discard and self.pile_take_count != 0

    @property
    def total_cards(self) -> int:
        return CARDS_PER_DECK * self.num_decks

    def opening_minimum(self, deal_index: int, running_total: int = 0) -> int:
        """The points an owner's first melds must reach in deal ``deal_index`` (0-based)."""
        return int(rule_facts.opening_minimum(self.kernel[0], deal_index, running_total))

    def books_needed(self, deal_index: int) -> tuple[int, int]:
        return self.books_to_go_out[deal_index]

    def wilds_allowed(self, naturals: int, wilds: int) -> bool:
        """Whether a group of one natural rank may hold this many naturals and wilds."""
        return bool(rule_facts.wilds_allowed(self.kernel[0], naturals, wilds))

    def book_bonus(self, clean: int, dirty: int, wild: int = 0) -> int:
        """The bonus for ``clean`` clean, ``dirty`` dirty and ``wild`` wild books (house: red and
        black canastas)."""
        return int(rule_facts.book_bonus(self.kernel[0], clean, dirty, wild))

    def held_penalty(self, cards: Sequence[int]) -> int:
        """What ``cards`` (counts per kind) left in a hand or an unplayed foot cost at the end of
        a deal, a positive number: ``rule_facts.held_penalty`` run as plain Python on these
        rules (the kernels' record has the same field names), so that the reference engine,
        which asks this, never waits for numba."""
        return int(rule_facts.held_penalty.py_func(self, cards))

    def deal_score(
        self,
        melded: int,
        clean: int,
        dirty: int,
        red_threes: int,
        opened: bool,
        went_out: bool,
        held: int,
        wild: int = 0,
    ) -> int:
        """An owner's deal score from its parts (see ``rule_facts.deal_score``)."""
        return int(
            rule_facts.deal_score(self.kernel[0], melded, clean, dirty, wild, red_threes, opened, went_out, held)
        )

    # -- the rules as the vector engine's kernels read them -----------------------------
    @cached_property
    def kernel(self) -> np.ndarray:
        """These rules as a one-element record array of dtype :data:`KERNEL_RULES`: what the
        compiled rule facts and kernels read, each field under its name here
        (``rules[0].book_size``, ``rules[0].going_out_bonus``...)."""
        record = np.zeros(1, dtype=KERNEL_RULES)
        row = record[0]  # a view: writing its fields writes the record
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name in KERNEL_TABLES:
                rows = (value or ())[: KERNEL_TABLES[field.name][0]]  # rows past the last deal: never read
                if rows:
                    row[field.name][: len(rows)] = [_kernel_int(v) for v in rows]
            elif value is None:
                row[field.name] = KERNEL_NONE[field.name]
            elif field.name in KERNEL_CHOICES:
                row[field.name] = KERNEL_CHOICES[field.name].index(value)
            else:
                row[field.name] = _kernel_int(value)
        for name in KERNEL_DERIVED:
            row[name] = getattr(self, name)
        return record

    @property
    def plays_variations(self) -> bool:
        """Whether these rules play any of the variations the observation's fields of layout
        version 2 describe (their rules, the permission question, wild books, groups of black
        threes, books of 7s to go out); under the presets those fields are all zero."""
        return bool(
            self.wild_books
            or self.black_three_books
            or self.sevens_book_to_go_out != "no"
            or self.take_onto_table
            or self.take_with_natural_and_wild
            or self.wild_freezes_pile
            or self.partner_foot_first
            or self.permission_to_go_out
        )

    @property
    def num_score_steps(self) -> int:
        """Rows of ``minimums_by_score`` (0: the opening minimum goes by deal)."""
        return len(self.minimums_by_score or ())


# A preset is a set of overrides of the defaults above; each names its section of docs/rules.md
# (the opening table when none is named).
PRESETS: dict[str, dict[str, Any]] = {
    "classic": {},  # the defaults are classic
    "partnership": dict(
        num_players=4,
        partnerships=True,
        # num_decks: one more deck than players, as for every preset by default: five decks (270
        # cards) for four players, seven for six in three teams ("Six players in three teams").
        pile_upcard=False,  # the discard pile starts empty ("Taking the discard pile")
        pile_min_size=0,  # no minimum pile size ("Taking the discard pile")
        take_requires_opened=False,  # the take may open, with the staged groups ("Taking the discard pile")
        staging_before_draw=True,  # staging before the draw, so a take can open ("Opening")
        red_three_unopened_penalty=True,  # minus 100 each if the team never opened ("Red threes")
        books_to_go_out=((2, 2),) * 4,  # two clean and two dirty books
    ),
    "house": dict(  # docs/rules.md "`house`"
        num_players=2,  # two players, or partners (num_players=4, partnerships=True)
        num_decks=5,  # five complete decks
        hand_size=13,  # thirteen for the hand and thirteen for the foot
        foot_size=13,
        draw_one_plus_discard=True,  # two from the stock, or one plus the top discard
        pile_upcard=False,  # as in partnership
        pile_min_size=0,
        take_requires_opened=False,
        runs=True,  # runs of one suit, 4 up to ace, no wilds
        books_of_twos=True,  # a book of 2s, only 2s, no joker
        frozen_six=True,  # six cards toward a canasta freeze it against the top discard
        red_threes_laid_down=False,  # threes are never melded or laid down; held, they count against
        red_three_bonus=0,  # no red-three bonuses
        red_three_unlaid_penalty=500,  # a held red three costs 500
        black_three_penalty=5,  # a held black three costs 5
        books_to_go_out=((2, 2),) * 30,  # two red and two black canastas to go out
        minimums_by_score=((5000, 50), (10000, 90), (15000, 120), (2**62, 150)),  # by running total
        target_score=20000,  # the deal that takes an owner to 20,000 ends the game
        num_deals=30,  # the game is capped at 30 deals
        deal_minimums=(50,) * 30,  # unused: minimums_by_score decides
        # handfoot's decisions (docs/rules.md "`house`"; made in reference/game.py):
        # - a natural going into a book leaves the hand from its shortest suit (no suit in the action);
        # - one unfinished run per suit per owner, as one unfinished book per rank (the action layout);
        # - the top discard comes with one stock card, so it needs a non-empty stock;
        # - frozen means a natural completing a 6-card book of its rank or run of its suit, or a 2
        #   completing a 6-card book of 2s.
    ),
}

_FIELD_NAMES = {f.name for f in dataclasses.fields(Rules)}

# -- the kernels' record: every field of Rules under its own name, plus derived values ------
# A bool or an int field enters as an int64; the tables below say how the others do.  A new
# rule field of either kind needs nothing here: the kernels read ``rules.<its name>``.
KERNEL_CHOICES: dict[str, tuple[str, ...]] = {  # a string field: its index among the choices
    "preset_name": PRESET_NAMES,
    "wild_limit": WILD_LIMITS,  # rule_facts.MAJORITY, BY_SIZE, FOUR_NATURALS
    "sevens_book_to_go_out": SEVENS_BOOKS,  # rule_facts.SEVENS_NO, SEVENS_ANY, SEVENS_CLEAN, SEVENS_DIRTY
}
KERNEL_NONE = {  # what None means to the kernels, for a number that may be None
    "pile_take_count": -1,  # the whole pile
    "target_score": 0,  # no target
}
KERNEL_TABLES = {  # a tuple field: a fixed-size table, its rows first, zeros after them
    "deal_minimums": (MAX_DEALS,),  # the opening minimum of each deal
    "books_to_go_out": (MAX_DEALS, 2),  # (clean, dirty) books to go out, per deal
    "minimums_by_score": (MAX_SCORE_STEPS, 2),  # (threshold, minimum) rows; None: no rows
}
KERNEL_DERIVED = ("num_owners", "total_cards", "num_score_steps", "plays_variations")  # properties of Rules
KERNEL_RULES = np.dtype(
    [(f.name, np.int64, KERNEL_TABLES.get(f.name, ())) for f in dataclasses.fields(Rules)]
    + [(name, np.int64) for name in KERNEL_DERIVED],
    align=True,
)


def _kernel_int(value: Any) -> Any:
    """An int, or a row of ints, as the record holds it (int64: a huge threshold is capped)."""
    if isinstance(value, tuple):
        return tuple(_kernel_int(v) for v in value)
    return min(int(value), 2**62)


def _check_field_names(values: dict[Any, Any]) -> None:
    for key in values:
        if not isinstance(key, str) or key not in _FIELD_NAMES:
            raise ValueError(f"unknown rules field {key!r}; known fields: {', '.join(sorted(_FIELD_NAMES))}")
        if key == "preset_name":  # the preset is chosen by name, never overridden beside it
            raise ValueError("rules field 'preset_name' cannot be overridden: choose the preset instead")


def _fail(name: str, message: str) -> None:
    raise ValueError(f"rules field {name!r}: {message}")


def _require_int(rules: Rules, name: str, low: int, high: int | None = None) -> None:
    value = getattr(rules, name)
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(name, f"must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
        _fail(name, f"must be {bounds}, got {value}")


def _validate(rules: Rules) -> None:
    if rules.preset_name not in PRESET_NAMES:
        _fail("preset_name", f"unknown preset {rules.preset_name!r}; choose one of {', '.join(PRESET_NAMES)}")
    for name in (
        "partnerships",
        "draw_one_plus_discard",
        "pile_upcard",
        "take_requires_opened",
        "staging_before_draw",
        "wild_books",
        "wild_book_to_go_out",
        "black_three_books",
        "take_onto_table",
        "take_with_natural_and_wild",
        "wild_freezes_pile",
        "partner_foot_first",
        "permission_to_go_out",
        "runs",
        "books_of_twos",
        "frozen_six",
        "red_threes_laid_down",
        "red_three_unopened_penalty",
        "go_out_by_meld",
    ):
        if not isinstance(getattr(rules, name), bool):
            _fail(name, f"must be true or false, got {getattr(rules, name)!r}")
    _require_int(rules, "num_players", 2, MAX_PLAYERS)
    if rules.partnerships and rules.num_players not in (4, 6):
        _fail(
            "num_players",
            f"partnerships are played by 4 players in two teams or 6 in three teams, got {rules.num_players}",
        )
    if rules.preset_name == "house" and (rules.num_players, rules.partnerships) not in ((2, False), (4, True)):
        _fail(
            "num_players",
            f"house is played by 2 players alone or 4 in two teams, got {rules.num_players}"
            f"{' in teams' if rules.partnerships else ' alone'}",
        )
    _require_int(rules, "num_decks", 1, MAX_DECKS)
    _require_int(rules, "hand_size", 1, 30)
    _require_int(rules, "foot_size", 1, 30)
    _require_int(rules, "draw_count", 1, 3)
    _require_int(rules, "book_size", 3, 11)
    _require_int(rules, "max_wilds", 0, 6)
    _require_int(rules, "num_deals", 1, MAX_DEALS)
    _require_int(rules, "pile_min_size", 0, 50)
    for name in (
        "clean_book_bonus",
        "dirty_book_bonus",
        "wild_book_bonus",
        "red_three_bonus",
        "red_three_unlaid_penalty",
        "black_three_penalty",
        "going_out_bonus",
    ):
        _require_int(rules, name, 0, 100_000)
    if rules.wild_limit not in WILD_LIMITS:
        _fail("wild_limit", f"must be one of {', '.join(WILD_LIMITS)}, got {rules.wild_limit!r}")
    if rules.sevens_book_to_go_out not in SEVENS_BOOKS:
        _fail(
            "sevens_book_to_go_out",
            f"must be one of {', '.join(SEVENS_BOOKS)}, got {rules.sevens_book_to_go_out!r}",
        )
    take = rules.pile_take_count
    if take is not None and (isinstance(take, bool) or not isinstance(take, int) or take < 0 or take > 50):
        _fail("pile_take_count", f"must be 0 (no taking), a count from 1 to 50, or None (whole pile), got {take!r}")

    cards_dealt = rules.num_players * (rules.hand_size + rules.foot_size)
    if cards_dealt + 2 * rules.num_players > rules.total_cards:
        _fail(
            "num_decks",
            f"{rules.num_decks} decks ({rules.total_cards} cards) are too few to deal "
            f"{rules.num_players} players {rules.hand_size} + {rules.foot_size} cards and leave a stock",
        )

    if not isinstance(rules.deal_minimums, tuple) or not all(
        isinstance(m, int) and not isinstance(m, bool) and m >= 0 for m in rules.deal_minimums
    ):
        _fail("deal_minimums", f"must be a tuple of non-negative integers, got {rules.deal_minimums!r}")
    if (
        rules.minimums_by_score is None
        and rules.num_deals not in (1, 2, 4)
        and len(rules.deal_minimums) != rules.num_deals
    ):
        _fail(
            "num_deals",
            f"games are of 1, 2 or 4 deals (docs/rules.md), got {rules.num_deals}; for another "
            "count give one opening minimum per deal (deal_minimums)",
        )
    if len(rules.deal_minimums) < rules.num_deals:
        _fail("deal_minimums", f"needs one minimum per deal ({rules.num_deals}), got {len(rules.deal_minimums)}")
    if not isinstance(rules.books_to_go_out, tuple) or not all(
        isinstance(b, tuple) and len(b) == 2 and all(isinstance(x, int) and x >= 0 for x in b)
        for b in rules.books_to_go_out
    ):
        _fail("books_to_go_out", f"must be a tuple of (clean, dirty) pairs, got {rules.books_to_go_out!r}")
    if len(rules.books_to_go_out) < rules.num_deals:
        _fail(
            "books_to_go_out",
            f"needs one (clean, dirty) entry per deal ({rules.num_deals}), got {len(rules.books_to_go_out)}",
        )
    if rules.minimums_by_score is not None and not (
        isinstance(rules.minimums_by_score, tuple)
        and 1 <= len(rules.minimums_by_score) <= MAX_SCORE_STEPS
        and all(
            isinstance(row, tuple)
            and len(row) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in row)
            for row in rules.minimums_by_score
        )
    ):
        _fail(
            "minimums_by_score",
            f"must be 1 to {MAX_SCORE_STEPS} (threshold, minimum) pairs, got {rules.minimums_by_score!r}",
        )
    if rules.minimums_by_score is not None:
        thresholds = [t for t, _ in rules.minimums_by_score]
        if any(m < 0 for _, m in rules.minimums_by_score):
            _fail("minimums_by_score", "minimums must be non-negative")
        if thresholds != sorted(thresholds):
            _fail("minimums_by_score", "thresholds must be in increasing order")
    if rules.target_score is not None:
        _require_int(rules, "target_score", 1, 10**9)
    if rules.draw_one_plus_discard and rules.draw_count != 2:
        _fail("draw_one_plus_discard", "needs draw_count == 2 (one from the stock plus the discard)")
    if rules.draw_one_plus_discard and rules.staging_before_draw:
        _fail("staging_before_draw", "serves a take that opens; with draw_one_plus_discard the take never melds")
    if rules.runs and not rules.draw_one_plus_discard:
        _fail("runs", "are played with the house draw (draw_one_plus_discard=True): a pair take has no suits to choose")
    if rules.books_of_twos and rules.staging_before_draw:
        _fail(
            "books_of_twos",
            "cannot be combined with staging_before_draw (house melds are never staged before the draw)",
        )
    if rules.frozen_six and not rules.draw_one_plus_discard:
        _fail("frozen_six", "freezes six-card melds against the top discard; it needs draw_one_plus_discard")
    if rules.runs and rules.book_size > 11:
        _fail("book_size", "with runs a meld holds at most 11 cards (4 to ace)")
    if rules.wild_books and rules.books_of_twos:
        _fail("wild_books", "cannot be combined with books_of_twos")
    if rules.wild_book_to_go_out and not rules.wild_books:
        _fail("wild_book_to_go_out", "needs wild_books=True")
    for name in ("partner_foot_first", "permission_to_go_out"):
        if getattr(rules, name) and not rules.partnerships:
            _fail(name, "is a rule between partners: it needs partnerships=True")
    for name in ("take_onto_table", "take_with_natural_and_wild", "wild_freezes_pile"):
        if getattr(rules, name) and not rules.takes_with_a_pair:
            _fail(
                name,
                "changes the take of the pile with a pair; these rules take no pile "
                "(pile_take_count=0) or take the top discard with a stock card (draw_one_plus_discard)",
            )


def unsupported_by_engines(rules: Rules) -> list[str]:
    """Rules the engines do not implement, each as a sentence naming the field: none today
    (every variation of docs/rules.md is played by both engines); kept so that a rule added to
    ``Rules`` before the engines play it is refused in one line."""
    return []


def rules_or_preset(rules: Rules | None, preset: str, num_players: int | None) -> Rules:
    """The rules an env shell plays: ``rules`` when given, else ``preset`` (with ``num_players``
    when given).  ``num_players`` beside rules for another count is refused, not ignored."""
    if rules is None:
        return Rules.preset(preset, **({} if num_players is None else {"num_players": num_players}))
    if num_players is not None and num_players != rules.num_players:
        raise ValueError(f"num_players={num_players!r} contradicts the given rules ({rules.num_players} players)")
    return rules


def require_supported(rules: Rules) -> None:
    """Raise ``ValueError`` if the engines cannot play these rules yet."""
    problems = unsupported_by_engines(rules)
    if problems:
        raise ValueError(
            f"preset {rules.preset_name!r} uses rules the engines do not support yet: " + "; ".join(problems)
        )


__all__ = [
    "KERNEL_RULES",
    "MAX_DEALS",
    "MAX_DECKS",
    "MAX_PLAYERS",
    "PRESETS",
    "PRESET_NAMES",
    "SEVENS_BOOKS",
    "Rules",
    "require_supported",
    "rules_or_preset",
    "unsupported_by_engines",
]
