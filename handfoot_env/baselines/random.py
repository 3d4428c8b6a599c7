"""The random baseline: uniform over the legal actions."""

from __future__ import annotations

import numpy as np

from handfoot_env.vector.sampling import random_legal_actions


class RandomAgent:
    name = "random"
    reads_observations = False  # decides from the legal mask alone: the tables pass None

    def __init__(self, seed: int = 0):
        self.seed(seed)

    def seed(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observations: np.ndarray | None, masks: np.ndarray) -> np.ndarray:
        return random_legal_actions(masks, self.rng)
