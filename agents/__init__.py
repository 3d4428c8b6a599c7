"""Agents by name: the scripted baselines (``handfoot_env.baselines``) and trained agents.

from agents import make_agent
agent = make_agent("heuristic")          # or "random", "greedy", "ppo", "ppo:PATH"
actions = agent.act(observations, masks)  # one legal action per row
"""

from agents.base import AGENT_NAMES, Agent, act_one, make_agent

__all__ = ["AGENT_NAMES", "Agent", "act_one", "make_agent"]
