"""The pieces of a reference game: melds, seats and sides (owners of melds).

A meld is a :class:`Group` (a book of one natural rank, with wilds), or in ``house`` a
:class:`Run` (one suit in sequence) or a :class:`TwosBook` (2s only); the variations add a
:class:`WildBook` (wilds only) and a :class:`ThreesGroup` (black threes only).  Every meld
has a ``size``, ``is_clean``, ``value`` and ``counts()``; at ``book_size`` cards it is a book
(``house`` calls books canastas: clean ones red, ones with wilds black).  A wild book is
neither clean nor dirty (docs/rules.md "Variations"): :func:`count_books` counts it apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from handfoot_env.cards import (
    BLACK_THREE,
    JOKER,
    KIND_VALUES,
    NUM_KINDS,
    NUM_NATURALS,
    NUM_SUITS,
    TWO,
    natural_kind,
    rank_of,
)

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


class Books(NamedTuple):
    """An owner's books, as going out asks for them (docs/rules.md "The foot and going out")."""

    clean: int  # clean books (house: red canastas), books of black threes among them
    dirty: int  # books with wilds (house: black canastas)
    wild: int = 0  # wild books: neither clean nor dirty
    sevens_clean: int = 0  # the clean books of 7s among ``clean``
    sevens_dirty: int = 0  # the dirty books of 7s among ``dirty``


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
