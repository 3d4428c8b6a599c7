"""The greedy baseline: takes the pile whenever allowed, lays down everything it legally can,
and discards its least valuable card.  It reads only the legal mask."""

from __future__ import annotations

import numpy as np

from handfoot_env import actions as A
from handfoot_env.cards import BLACK_THREE, JOKER, NUM_NATURALS, TWO, natural_kind

# Melds first, naturals before wilds; then discards from least to most valuable.
_MELD_ORDER = (
    [A.start_group(r, 0) for r in range(NUM_NATURALS)]
    + [A.add_natural(r) for r in range(NUM_NATURALS)]
    + [A.start_group(r, c) for r in range(NUM_NATURALS) for c in (1, 2)]
    + [A.add_two(r) for r in range(NUM_NATURALS)]
    + [A.add_joker(r) for r in range(NUM_NATURALS)]
)
_DISCARD_ORDER = [A.discard(BLACK_THREE)] + [A.discard(natural_kind(r)) for r in range(NUM_NATURALS)] + [
    A.discard(TWO), A.discard(JOKER)
]
PREFERENCE = [A.TAKE_PILE, A.DRAW] + _MELD_ORDER + _DISCARD_ORDER
_RANK = np.full(A.NUM_ACTIONS, len(PREFERENCE) + A.NUM_ACTIONS, dtype=np.int64)
_RANK[PREFERENCE] = np.arange(len(PREFERENCE))
# Anything not listed (house actions) comes last, in index order.
_RANK[_RANK > len(PREFERENCE)] += np.arange(A.NUM_ACTIONS)[_RANK > len(PREFERENCE)]


class GreedyAgent:
    name = "greedy"

    def act(self, observations: np.ndarray | None, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks, dtype=bool)
        scores = np.where(masks, _RANK[None, :], np.iinfo(np.int64).max)
        return scores.argmin(axis=1)
