"""A random agent in 15 lines, with nothing from handfoot: the agent protocol by example.

handfoot benchmark py:examples/random_agent.py:make
handfoot eval --team py:examples/random_agent.py:make --vs greedy
"""

import numpy as np


class RandomAgent:
    name = "my-random"

    def __init__(self, seed=0):
        self.seed(seed)

    def seed(self, seed):  # the benchmark reseeds agents so that every match repeats
        self.rng = np.random.default_rng(seed)

    def act(self, observations, masks):  # float32[B, 655], bool[B, 187] -> one legal action per row
        return np.array([self.rng.choice(np.flatnonzero(mask)) for mask in masks])


def make(seed=0):
    return RandomAgent(seed)
