"""Agents behind one small batched protocol: observations and legal masks in, actions out."""

from agents.base import Agent, make_agent, AGENT_NAMES

__all__ = ["Agent", "make_agent", "AGENT_NAMES"]
