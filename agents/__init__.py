"""Agents behind one small batched protocol: observations and legal masks in, actions out."""

from agents.base import AGENT_NAMES, Agent, act_one, make_agent

__all__ = ["Agent", "act_one", "make_agent", "AGENT_NAMES"]
