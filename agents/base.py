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
    """Build an agent by name: ``random``, ``greedy``, ``heuristic``, or ``ppo`` (the shipped
    trained model) / ``ppo:PATH`` (a saved MaskablePPO model)."""
    from agents.greedy import GreedyAgent
    from agents.heuristic import HeuristicAgent
    from agents.random import RandomAgent

    if name == "ppo" or name.startswith("ppo:"):
        from agents.ppo import PPOAgent

        return PPOAgent.load(None if name == "ppo" else name[4:])
    factories = {"random": lambda: RandomAgent(seed), "greedy": GreedyAgent, "heuristic": HeuristicAgent}
    if name not in factories:
        raise ValueError(f"unknown agent {name!r}: choose one of {', '.join(AGENT_NAMES)} or ppo:PATH")
    return factories[name]()


AGENT_NAMES = ("random", "greedy", "heuristic", "ppo")


def act_one(agent: Agent, observation: dict) -> int:
    """Seat-level convenience for the AEC env: one ``{"observation", "action_mask"}`` in, one action out."""
    obs = np.asarray(observation["observation"], dtype=np.float32)[None, :]
    mask = np.asarray(observation["action_mask"]).astype(bool)[None, :]
    return int(agent.act(obs, mask)[0])
