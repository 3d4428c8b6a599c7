"""Scoring a deal (docs/rules.md "Scoring"), one owner at a time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from handfoot_env.reference import rule_facts as facts
from handfoot_env.reference.state import GOING_OUT, DealResult, OwnerScore, count_books

if TYPE_CHECKING:
    from handfoot_env.reference.state import GameState


def score_deal(game: GameState, went_out: int | None, ended_by: str = GOING_OUT) -> DealResult:
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
