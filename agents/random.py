"""The random baseline: uniform over the legal actions."""

from __future__ import annotations

import numpy as np


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = np.random.default_rng(seed)

    def act(self, observations: np.ndarray | None, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks, dtype=bool)
        if not masks.any(axis=1).all():
            raise ValueError("a row of the mask has no legal action")
        # Uniform choice among the legal actions of each row, without a loop over rows.
        scores = self.rng.random(masks.shape)
        scores[~masks] = -1.0
        return scores.argmax(axis=1)
