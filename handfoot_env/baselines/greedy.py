"""The greedy baseline: takes the pile whenever allowed, lays down everything it legally can,
and discards its least valuable card.  It reads only the legal mask.

In ``house`` it runs first (runs, then the book of 2s, then books) and throws held threes
before anything else: a held red three costs 500."""

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
    + [A.start_group(r, c) for r in range(NUM_NATURALS) for c in (1, 2)]
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
PREFERENCE = [A.TAKE_PILE, A.DRAW] + _MELD_ORDER + _DISCARD_ORDER
_RANK = np.zeros(A.NUM_ACTIONS, dtype=np.int64)
_RANK[PREFERENCE] = np.arange(len(PREFERENCE))
assert len(set(PREFERENCE)) == A.NUM_ACTIONS  # every action has its place


class GreedyAgent:
    name = "greedy"

    def act(self, observations: np.ndarray | None, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks, dtype=bool)
        scores = np.where(masks, _RANK[None, :], np.iinfo(np.int64).max)
        return scores.argmin(axis=1)
