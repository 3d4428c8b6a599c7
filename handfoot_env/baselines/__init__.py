"""Scripted baselines behind one batched protocol: observations and legal masks in, actions out.

An agent maps a batch of observations ``[B, OBS_SIZE]`` and legal-action masks
``[B, NUM_ACTIONS]`` to one legal action per row.  Scripted agents read only what they are
given.  These live beside the engines so that the shells can seat them by name; trained
agents, and the registry that names them too, are in the top-level ``agents`` package.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from handfoot_env.rules import Rules

BASELINE_NAMES = ("random", "greedy", "heuristic")


@runtime_checkable
class Agent(Protocol):
    name: str

    def act(self, observations: np.ndarray | None, masks: np.ndarray) -> np.ndarray:
        """One legal action per row of ``masks`` (shape ``[B, NUM_ACTIONS]``)."""
        ...


def make_baseline(name: str, seed: int = 0, rules: Rules | None = None) -> Agent:
    """A scripted baseline by name: ``random`` (seeded), ``greedy`` or ``heuristic``.

    Greedy and the heuristic come compiled (``compiled.py``): the same decisions as the
    readable ``GreedyAgent`` and ``HeuristicAgent``, a batch at a time at engine speed."""
    from handfoot_env.baselines.compiled import CompiledGreedy, CompiledHeuristic
    from handfoot_env.baselines.random import RandomAgent

    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return CompiledGreedy()
    if name == "heuristic":
        return CompiledHeuristic(rules)
    raise ValueError(f"unknown baseline {name!r}: choose one of {', '.join(BASELINE_NAMES)}")


def act_one(agent: Agent, observation: dict) -> int:
    """Seat-level convenience for the AEC env: one ``{"observation", "action_mask"}`` in, one action out."""
    obs = np.asarray(observation["observation"], dtype=np.float32)[None, :]
    mask = np.asarray(observation["action_mask"]).astype(bool)[None, :]
    return int(agent.act(obs, mask)[0])


__all__ = ["BASELINE_NAMES", "Agent", "act_one", "make_baseline"]
