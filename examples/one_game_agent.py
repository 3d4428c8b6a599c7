"""An agent that acts on one observation at a time, as a PettingZoo policy does: a function of
the AEC env's observation (``{"observation": float32[655], "action_mask": int8[187]}``)
returning one action.  The factory returns the function; handfoot plays it game by game.

    handfoot eval --team py:examples/one_game_agent.py:make --vs random
"""

import numpy as np


def make(seed=0):
    rng = np.random.default_rng(seed)

    def policy(observation):  # melds and takes before draws, else random (action layout: handfoot actions)
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[-1] if rng.random() < 0.5 else rng.choice(legal))

    return policy
