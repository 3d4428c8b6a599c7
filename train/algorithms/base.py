"""What the lab loop needs of a learning algorithm.

The loop (``train/loop.py``) owns everything around learning: the league, evaluations,
checkpoints and resume, TensorBoard, Ray, and builds the network (``make_policy``).  An
algorithm is given that network (``policy``: an ``agents.policy.Policy``, the thing that is
evaluated, snapshotted into the league and saved as ``model.pt``) and owns its optimizer, how
the learner acts while collecting, and its update.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import torch

from agents.policy import Policy
from train.collect import Explore
from train.config import TrainConfig


class Algorithm(Protocol):
    name: str  # its config section's name (``train/config.py``)
    policy: Policy
    # How its frozen snapshots play in the league: sampling their moves (a policy), or their
    # best (a Q-network's).
    samples_snapshots: bool

    def __init__(self, config: TrainConfig, policy: Policy): ...

    @property
    def explore(self) -> Explore:
        """How the learner acts while collecting (and what to keep of each decision)."""
        ...

    def after_warm_start(self) -> None:
        """Called once the warm start has set the network's first weights (before learning)."""
        ...

    def update(self, batch: dict[str, np.ndarray], step: int) -> dict[str, float]:
        """Learn from one collected batch (``RolloutCollector.collect``); returns the numbers
        to log (TensorBoard ``train/NAME``)."""
        ...

    def state_dict(self) -> dict[str, Any]:
        """Everything besides the policy's weights that a resumed run needs (optimizer, ...)."""
        ...

    def load_state_dict(self, state: dict[str, Any]) -> None: ...


def clip_each(groups: list[list[torch.nn.Parameter]], max_norm: float) -> None:
    """Clip the gradient of each group of parameters to ``max_norm`` on its own (the actor's
    and the critic's separately: a large value loss must not shrink the policy's step)."""
    for params in groups:
        if params:
            torch.nn.utils.clip_grad_norm_(params, max_norm)


__all__ = ["Algorithm", "clip_each"]
