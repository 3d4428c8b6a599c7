"""Every agent by name: the scripted baselines (``handfoot_env.baselines``) and trained ones."""

from __future__ import annotations

from handfoot_env.baselines import BASELINE_NAMES, Agent, act_one, make_baseline
from handfoot_env.rules import Rules

AGENT_NAMES = BASELINE_NAMES + ("ppo",)


def make_agent(name: str, seed: int = 0, rules: Rules | None = None) -> Agent:
    """Build an agent by name: ``random``, ``greedy``, ``heuristic``, or ``ppo`` (the shipped
    agent of the preset being played) / ``ppo:PATH`` (a model saved by ``handfoot train``)."""
    if name == "ppo" or name.startswith("ppo:"):
        from agents.ppo import PPOAgent

        return PPOAgent.load(None if name == "ppo" else name[4:], rules=rules)
    if name not in BASELINE_NAMES:
        raise ValueError(f"unknown agent {name!r}: choose one of {', '.join(AGENT_NAMES)} or ppo:PATH")
    return make_baseline(name, seed=seed, rules=rules)


__all__ = ["AGENT_NAMES", "Agent", "act_one", "make_agent"]
