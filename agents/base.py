"""Every agent by name: the scripted baselines (``handfoot_env.baselines``) and trained ones."""

from __future__ import annotations

from handfoot_env.baselines import BASELINE_NAMES, Agent, act_one, make_baseline
from handfoot_env.rules import Rules

AGENT_NAMES = BASELINE_NAMES + ("tuned", "ppo")


def make_agent(name: str, seed: int = 0, rules: Rules | None = None) -> Agent:
    """Build an agent by name: ``random``, ``greedy``, ``heuristic``; ``tuned`` (the shipped
    tuned heuristic of the preset being played) / ``tuned:PATH`` (a variant saved by
    ``handfoot tune`` or ``handfoot train``); ``ppo`` (the shipped trained agent of the
    preset) / ``ppo:PATH`` (a model saved by ``handfoot train``)."""
    if name == "ppo" or name.startswith("ppo:"):
        from agents.ppo import PPOAgent

        return PPOAgent.load(None if name == "ppo" else name[4:], rules=rules)
    if name == "tuned" or name.startswith("tuned:"):
        from agents.ppo import load_tuned

        return load_tuned(None if name == "tuned" else name[6:], rules=rules, name=name)
    if name not in BASELINE_NAMES:
        raise ValueError(f"unknown agent {name!r}: choose one of {', '.join(AGENT_NAMES)}, ppo:PATH or tuned:PATH")
    return make_baseline(name, seed=seed, rules=rules)


__all__ = ["AGENT_NAMES", "Agent", "act_one", "make_agent"]
