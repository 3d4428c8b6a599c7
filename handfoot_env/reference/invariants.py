"""Invariants every reachable position keeps, checked by the property tests and ``handfoot fuzz``."""

from __future__ import annotations

import numpy as np

from handfoot_env.cards import BLACK_THREE, KIND_VALUES, NUM_KINDS, RED_THREE, deck_counts
from handfoot_env.reference.game import GAME_OVER, Game


class InvariantError(AssertionError):
    pass


def check_position(game: Game, mask: np.ndarray | None = None) -> None:
    """Raise :class:`InvariantError` if the position breaks a rule of the game.

    ``mask`` is the position's legal mask when the caller already has it."""
    rules = game.rules
    places = game.card_counts_by_place()
    total = np.zeros(NUM_KINDS, dtype=np.int64)
    for name, counts in places.items():
        if min(counts) < 0:
            raise InvariantError(f"negative card count in {name}: {counts}")
        total += np.asarray(counts)
    expected = deck_counts(int(rules.num_decks))
    if not np.array_equal(total, expected):
        raise InvariantError(f"cards not conserved: {total.tolist()} != {expected.tolist()}")
    if rules.red_threes_laid_down:
        for i, seat in enumerate(game.seats):
            if seat.hand[RED_THREE]:
                raise InvariantError(f"seat {i} holds a red three")
        if RED_THREE in game.pile:
            raise InvariantError("a red three is in the discard pile")
    for o, side in enumerate(game.sides):
        ranks_unfinished = [g.rank for g in side.groups if g.size < rules.book_size]
        if len(ranks_unfinished) != len(set(ranks_unfinished)):
            raise InvariantError(f"owner {o} has two unfinished groups of one rank")
        if side.groups and not side.opened:
            raise InvariantError(f"owner {o} has groups on the table without having opened")
        for g in side.groups:
            if not 3 <= g.size <= rules.book_size or not rules.wilds_allowed(g.naturals, g.wilds):
                raise InvariantError(f"owner {o} has an illegal group {g}")
    for i, seat in enumerate(game.seats):
        if seat.staged and (game.phase == GAME_OVER or game.sides[rules.owner_of(i)].opened):
            raise InvariantError(f"seat {i} has staged groups after opening")
        if seat.staged and i != game.current:
            raise InvariantError(f"seat {i} has staged groups outside its turn")
        if seat.on_foot and sum(seat.foot):
            raise InvariantError(f"seat {i} plays from the foot but still has one")
    if game.phase != GAME_OVER and not (game.legal_mask() if mask is None else mask).any():
        raise InvariantError("no legal action in a position that is not over")


def recount_deal(result, rules) -> tuple[int, ...]:
    """Recount a finished deal's scores from the cards where they lay (independent of scoring.py)."""
    scores = []
    for owner in range(rules.num_owners):
        table = np.asarray(result.final_places[f"table{owner}"])
        values = np.asarray(KIND_VALUES)
        melded = int((table * values).sum())  # red threes have value 0
        clean, dirty = result.final_books[owner]
        score = melded + clean * rules.clean_book_bonus + dirty * rules.dirty_book_bonus
        red = int(table[RED_THREE])
        opened = result.final_opened[owner]
        score += red * (-rules.red_three_bonus if rules.red_three_unopened_penalty and not opened else rules.red_three_bonus)
        if result.went_out is not None and rules.owner_of(result.went_out) == owner:
            score += rules.going_out_bonus
        for seat in rules.members_of(owner):
            for place in (f"hand{seat}", f"staged{seat}", f"foot{seat}"):
                held = np.asarray(result.final_places[place])
                score -= int((held * values).sum())
                score -= int(held[BLACK_THREE]) * (rules.black_three_penalty - KIND_VALUES[BLACK_THREE])
                score -= int(held[RED_THREE]) * rules.red_three_unlaid_penalty
        scores.append(score)
    return tuple(scores)

