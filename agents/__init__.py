"""Agents by name: the scripted baselines (``handfoot_env.baselines``), trained agents, and
agents from outside the lab (``py:``), all in one registry (``agents.registry``).

from agents import make_agent
agent = make_agent("heuristic")          # or "random", "greedy", "ppo:PATH", "py:my.py:make", "cmd:./bot"
actions = agent.act(observations, masks)  # one legal action per row
"""

from agents.foreign import AgentFault, OneGameAgent
from agents.referee import ForeignAgent
from agents.registry import (
    AGENT_NAMES,
    REGISTRY,
    Agent,
    AgentKind,
    act_one,
    agent_model_file,
    agent_usage,
    check_agent_name,
    is_foreign,
    make_agent,
    parse_agent_name,
    register,
)

__all__ = [
    "AGENT_NAMES",
    "REGISTRY",
    "Agent",
    "AgentFault",
    "AgentKind",
    "ForeignAgent",
    "OneGameAgent",
    "act_one",
    "agent_model_file",
    "agent_usage",
    "check_agent_name",
    "is_foreign",
    "make_agent",
    "parse_agent_name",
    "register",
]
