"""Scoring a deal (docs/rules.md "Scoring"), one owner at a time."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from handfoot_env.reference import rule_facts as facts
from handfoot_env.reference.state import count_books

if TYPE_CHECKING:
    from handfoot_env.reference.game import Game


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


def score_deal(game: Game, went_out: int | None, ended_by: str = GOING_OUT) -> DealResult:
    rules = game.rules
    owners = []
    for owner, side in enumerate(game.sides):
        melded = sum(g.value for g in side.groups)
        books = count_books(side.groups, rules.book_size)
        bonus = (
            books.clean * rules.clean_book_bonus
            + books.dirty * rules.dirty_book_bonus
            + books.wild * rules.wild_book_bonus  # a wild book: neither clean nor dirty
        )
        per_red_three = rules.red_three_bonus
        if rules.red_three_unopened_penalty and not side.opened:
            per_red_three = -rules.red_three_bonus
        going_out = rules.going_out_bonus if went_out is not None and facts.owner_of(rules, went_out) == owner else 0
        held = 0
        for seat_index in facts.members_of(rules, owner):
            seat = game.seats[seat_index]
            held += rules.held_penalty(seat.hand)
            for group in seat.staged:
                held += rules.held_penalty(group.counts())
            if not seat.on_foot:
                held += rules.held_penalty(seat.foot)
        owners.append(OwnerScore(melded, bonus, side.red_threes * per_red_three, going_out, -held))
    return DealResult(
        game.deal_index,
        went_out,
        tuple(owners),
        ended_by,
        final_places=game.card_counts_by_place(),
        final_melds=tuple(tuple(tuple(meld.counts()) for meld in side.groups) for side in game.sides),
        final_opened=tuple(side.opened for side in game.sides),
    )
