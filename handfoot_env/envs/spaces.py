"""The action and observation spaces every shell uses (PettingZoo, Gymnasium, SB3).

``LegalDiscrete`` is ``Discrete(187)`` whose ``sample()`` without a mask draws among the
legal actions of the player it belongs to: tools that step an env with unmasked samples
(Gymnasium's and SB3's ``check_env``, RLlib's env pre-check) then step it legally, while an
illegal action sent by hand is still refused.  ``observation_box`` is the finite Box of the
observation layout.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from gymnasium import spaces

from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.observation import OBS_HIGH, OBS_LOW, OBS_SIZE


class LegalDiscrete(spaces.Discrete):
    """``Discrete(NUM_ACTIONS)``; ``sample()`` without a mask picks a legal action."""

    def __init__(self, legal_mask: Callable[[], np.ndarray] | None = None, seed: int | None = None):
        super().__init__(NUM_ACTIONS, seed=seed)
        self._legal_mask = legal_mask

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self._legal_mask is not None:
            legal = self._legal_mask()
            if legal.any():
                mask = legal.astype(np.int8)
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_legal_mask"] = None  # never pickle the env with its space
        return state


def observation_box() -> spaces.Box:
    """The observation vector's space: float32, finite bounds (see ``observation.py``)."""
    return spaces.Box(low=OBS_LOW, high=OBS_HIGH, shape=(OBS_SIZE,), dtype=np.float32)


def mask_box() -> spaces.Box:
    return spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8)


__all__ = ["LegalDiscrete", "mask_box", "observation_box"]
