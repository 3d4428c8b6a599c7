"""The pieces of a reference game: groups, seats and sides (owners of groups)."""

from __future__ import annotations

from dataclasses import dataclass, field

from handfoot_env.cards import JOKER, KIND_VALUES, NUM_KINDS, TWO, natural_kind


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

    def copy(self) -> "Group":
        return Group(self.rank, self.naturals, self.twos, self.jokers)


@dataclass
class Seat:
    """One player's cards.  ``hand`` and ``foot`` are counts per card kind."""

    hand: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    foot: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    on_foot: bool = False  # the foot has been picked up and is now the hand
    staged: list[Group] = field(default_factory=list)  # this turn's groups before opening

    @property
    def hand_size(self) -> int:
        return sum(self.hand)

    @property
    def staged_value(self) -> int:
        return sum(g.value for g in self.staged)


@dataclass
class Side:
    """An owner of groups: a player in ``classic``, a team in ``partnership``."""

    groups: list[Group] = field(default_factory=list)  # unfinished groups and books
    red_threes: int = 0
    opened: bool = False


def unfinished_group(groups: list[Group], rank: int, book_size: int) -> Group | None:
    """The unfinished group of ``rank`` among ``groups`` (there is at most one)."""
    for group in groups:
        if group.rank == rank and group.size < book_size:
            return group
    return None


def count_books(groups: list[Group], book_size: int) -> tuple[int, int]:
    """(clean books, dirty books) among ``groups``."""
    clean = dirty = 0
    for group in groups:
        if group.size >= book_size:
            if group.is_clean:
                clean += 1
            else:
                dirty += 1
    return clean, dirty
