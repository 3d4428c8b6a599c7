"""Scripted baselines behind one batched protocol: observations and legal masks in, actions out.

An agent maps a batch of observations ``[B, OBS_SIZE]`` and legal-action masks
``[B, NUM_ACTIONS]`` to one legal action per row.  Scripted agents read only what they are
given.  These live beside the engines so that the shells can seat them by name; trained
agents, and the registry that names every agent (these included), are in the top-level
``agents`` package.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np

from handfoot_env.rules import Rules


@runtime_checkable
class Agent(Protocol):
    """``name``, and ``act``.  An agent that decides from the legal mask alone may say so with a
    class attribute ``reads_observations = False``: the tables (``seating/seats.py``) then skip
    computing its observations and pass None (random and greedy do; an agent without the
    attribute reads them)."""

    name: str

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One legal action per row of ``masks`` (shape ``[B, NUM_ACTIONS]``), given the movers'
        observations (``[B, OBS_SIZE]``; None for an agent with ``reads_observations = False``)."""
        ...


def _random(seed: int, rules: Rules | None) -> Agent:
    from handfoot_env.baselines.random import RandomAgent

    return RandomAgent(seed)


def _greedy(seed: int, rules: Rules | None) -> Agent:
    from handfoot_env.baselines.compiled.heuristic import CompiledGreedy

    return CompiledGreedy()


def _heuristic(seed: int, rules: Rules | None) -> Agent:
    from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic

    return CompiledHeuristic(rules)


# The baselines by name: each a builder (seed, rules) -> agent.  Greedy and the heuristic come
# compiled (``compiled/``): the same decisions as the readable ``GreedyAgent`` and
# ``HeuristicAgent``, a batch at a time at engine speed.
BASELINES: dict[str, Callable[[int, Rules | None], Agent]] = {
    "random": _random,
    "greedy": _greedy,
    "heuristic": _heuristic,
}
BASELINE_NAMES = tuple(BASELINES)


def make_baseline(name: str, seed: int = 0, rules: Rules | None = None) -> Agent:
    """A scripted baseline by name: ``random`` (seeded), ``greedy`` or ``heuristic``."""
    build = BASELINES.get(name)
    if build is None:
        raise ValueError(f"unknown baseline {name!r}: choose one of {', '.join(BASELINE_NAMES)}")
    return build(seed, rules)


def act_one(agent: Agent, observation: dict) -> int:
    """Seat-level convenience for the AEC env: one ``{"observation", "action_mask"}`` in, one action out."""
    obs = np.asarray(observation["observation"], dtype=np.float32)[None, :]
    mask = np.asarray(observation["action_mask"]).astype(bool)[None, :]
    return int(agent.act(obs, mask)[0])


__all__ = ["BASELINES", "BASELINE_NAMES", "Agent", "act_one", "make_baseline"]
