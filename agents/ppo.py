"""Trained agents: a MaskablePPO policy behind the agent protocol.

``make_agent("ppo")`` loads the shipped model (``agents/models/ppo_partnership.zip``),
``make_agent("ppo:PATH")`` any model saved by ``handfoot train``.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import numpy as np

SHIPPED_MODEL = Path(__file__).parent / "models" / "ppo_partnership.zip"


@contextmanager
def torch_threads(count: int):
    """Run torch with ``count`` threads inside the block (the setting is process-wide)."""
    import torch

    before = torch.get_num_threads()
    if count != before:
        torch.set_num_threads(count)
    try:
        yield
    finally:
        if count != before:
            torch.set_num_threads(before)


class PPOAgent:
    """Acts with a MaskablePPO policy: the most likely legal action (or a sample).

    It acts with ``threads`` torch threads (one by default): a batch of decisions is small
    work, and torch's default pool, one thread per core, stalls on a machine that is busy
    with other jobs (a batch-1 decision took 24-64 ms there against 0.4 ms with one thread)."""

    def __init__(self, policy, deterministic: bool = True, name: str = "ppo", threads: int = 1):
        self.policy = policy
        self.deterministic = deterministic
        self.name = name
        self.threads = threads

    @classmethod
    def load(cls, path: str | Path | None = None, deterministic: bool = True) -> "PPOAgent":
        path = Path(path) if path is not None else SHIPPED_MODEL
        if not path.exists():
            raise ValueError(f"no trained model at {path}: train one with 'handfoot train' or pass ppo:PATH")
        try:
            from sb3_contrib import MaskablePPO
        except ImportError:
            raise ValueError("the ppo agent needs the training extras: pip install 'handfoot[train]'") from None
        try:
            model = MaskablePPO.load(str(path), device="cpu")
        except Exception as exc:  # a corrupt or foreign zip: say so in one line
            raise ValueError(f"cannot load a MaskablePPO model from {path}: {exc}") from None
        return cls(model.policy, deterministic=deterministic, name="ppo")

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch_threads(self.threads):
            actions, _ = self.policy.predict(
                np.asarray(observations, dtype=np.float32),
                deterministic=self.deterministic,
                action_masks=np.asarray(masks, dtype=bool),
            )
        return np.asarray(actions, dtype=np.int64).reshape(-1)
