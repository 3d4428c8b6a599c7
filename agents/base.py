"""The agent protocol.

An agent maps a batch of observations and legal-action masks to one legal action per
row.  Scripted agents read only what they are given; the mask alone already tells them
which cards they hold (a discard of kind k is legal exactly when they hold one).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    name: str

    def act(self, observations: np.ndarray | None, masks: np.ndarray) -> np.ndarray:
        """One legal action per row of ``masks`` (shape ``[B, NUM_ACTIONS]``)."""
        ...


def make_agent(name: str, seed: int = 0) -> Agent:
    """Build a scripted agent by name (``random`` or ``greedy``)."""
    from agents.greedy import GreedyAgent
    from agents.random import RandomAgent

    factories = {"random": lambda: RandomAgent(seed), "greedy": lambda: GreedyAgent()}
    if name not in factories:
        raise ValueError(f"unknown agent {name!r}: choose one of {', '.join(sorted(factories))}")
    return factories[name]()


AGENT_NAMES = ("random", "greedy")
