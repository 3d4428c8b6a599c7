"""The greedy baseline: takes the pile whenever allowed, lays down everything it legally can,
and discards its least valuable card.  It reads only the legal mask.

In ``house`` it runs first (runs, then the book of 2s, then books) and throws held threes
before anything else: a held red three costs 500.  In the variations it takes the pile any
way it may (a pair first), melds black threes and builds a wild book as soon as it can (wilds
go there before they go onto groups), asks "may I go out?" as soon as it may, and always
answers yes."""

from __future__ import annotations

import numpy as np

from handfoot_env import actions as A
from handfoot_env.cards import BLACK_THREE, JOKER, NUM_NATURALS, NUM_SUITS, RED_THREE, TWO, natural_kind

# Melds first, naturals before wilds; then discards from least to most valuable.
_MELD_ORDER = (
    [a for suit in range(NUM_SUITS) for a in (A.extend_run_down(suit), A.extend_run_up(suit))]
    + [A.start_run(suit, r) for suit in range(NUM_SUITS) for r in range(A.RUN_STARTS)]
    + [A.ADD_TWO_TO_TWOS_BOOK, A.START_TWOS_BOOK]
    + [A.start_group(r, 0) for r in range(NUM_NATURALS)]
    + [A.add_natural(r) for r in range(NUM_NATURALS)]
    + [A.START_THREES_GROUP, A.ADD_BLACK_THREE]
    + [A.ADD_TWO_TO_WILD_BOOK, A.ADD_JOKER_TO_WILD_BOOK]
    + [A.start_group(r, c) for r in range(NUM_NATURALS) for c in (1, 2)]
    + [A.start_wild_book(c) for c in range(len(A.WILD_BOOK_COMPOSITIONS))]
    + [A.add_two(r) for r in range(NUM_NATURALS)]
    + [A.add_joker(r) for r in range(NUM_NATURALS)]
)
_DISCARD_ORDER = (
    [A.discard(RED_THREE), A.discard(BLACK_THREE)]
    + [
        a
        for r in range(NUM_NATURALS)
        for a in [A.discard(natural_kind(r))] + [A.discard_suited(suit, r) for suit in range(NUM_SUITS)]
    ]
    + [A.discard(TWO), A.discard(JOKER)]
)
PREFERENCE = (
    [A.TAKE_PILE, A.TAKE_ONTO_TABLE, A.TAKE_WITH_TWO, A.TAKE_WITH_JOKER, A.DRAW, A.ASK_TO_GO_OUT]
    + _MELD_ORDER
    + _DISCARD_ORDER
    + [A.ANSWER_YES, A.ANSWER_NO]
)
_RANK = np.zeros(A.NUM_ACTIONS, dtype=np.int64)
_RANK[PREFERENCE] = np.arange(len(PREFERENCE))
assert len(set(PREFERENCE)) == A.NUM_ACTIONS  # every action has its place


class GreedyAgent:
    name = "greedy"
    reads_observations = False  # decides from the legal mask alone: the tables pass None

    def act(self, observations: np.ndarray | None, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks, dtype=bool)
        scores = np.where(masks, _RANK[None, :], np.iinfo(np.int64).max)
        return scores.argmin(axis=1)
