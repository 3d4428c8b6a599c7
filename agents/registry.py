"""Every agent by name, in one registry: the scripted baselines, the tuned heuristic, trained
policies and agents from outside the lab.

A name is a kind, alone or with an argument after a colon:

    random, greedy, heuristic           the scripted baselines (handfoot_env.baselines)
    tuned, tuned:PATH                   the shipped tuned heuristic of the table, or a saved variant
    ppo, ppo:PATH                       the shipped trained agent of the table, or a saved model (.pt, .zip)
    scratch, scratch:PATH               the shipped agent learned from scratch for this table, or a model
    py:FILE_OR_MODULE:FACTORY[:ARG]     any object following the agent protocol (docs/benchmark.md)
    cmd:COMMAND                         any program speaking the JSON-lines protocol (docs/benchmark.md)

The shipped agents of the tables (``tuned``, ``ppo``, ``scratch`` without a path) need the
rules they play: a model of one table does not silently play another.  Agents from outside
the lab (``py:``, ``cmd:``) play in processes of their own, behind the referee
(``agents.referee``).

Every command that takes agent names reads them here (``make_agent``); so do the trainer's
league and evaluations (``check_agent_name`` validates a name without loading anything) and
the Ray workers (``agent_model_file`` says which file travels with a name).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from handfoot_env.baselines import BASELINE_NAMES, Agent, act_one, make_baseline
from handfoot_env.rules import Rules


@dataclass(frozen=True)
class AgentKind:
    """One kind of agent: ``name`` alone, or ``name:ARGUMENT`` when it takes an argument."""

    name: str
    summary: str
    build: Callable[[str | None, int, Rules | None], Agent]  # (argument or None, seed, rules) -> agent
    argument: str | None = None  # what may follow "name:" (e.g. "PATH"); None: nothing may
    needs_argument: bool = False
    check: Callable[[str], None] | None = None  # refuses a malformed argument, loading nothing
    # The one file the agent loads (a model, a tuned heuristic): Ray workers get its bytes.
    model_file: Callable[[str | None, Rules | None], Path] | None = None
    foreign: bool = False  # code from outside the lab: behind the referee (agents.referee), never on a page
    per_table: bool = False  # alone, the shipped agent of the table played: make_agent needs the rules

    @property
    def usage(self) -> str:
        """How the kind is written: ``random``, ``tuned[:PATH]``, ``py:FILE_OR_MODULE:FACTORY[:ARG]``."""
        if self.argument is None:
            return self.name
        return f"{self.name}:{self.argument}" if self.needs_argument else f"{self.name}[:{self.argument}]"


REGISTRY: dict[str, AgentKind] = {}


def register(kind: AgentKind) -> AgentKind:
    """Add a kind of agent to the registry (its name must be new)."""
    if kind.name in REGISTRY or ":" in kind.name:
        raise ValueError(f"cannot register an agent kind named {kind.name!r}")
    REGISTRY[kind.name] = kind
    return kind


def agent_usage() -> str:
    """Every kind as it is written, for help texts and error messages."""
    return ", ".join(kind.usage for kind in REGISTRY.values())


def parse_agent_name(name: str) -> tuple[AgentKind, str | None]:
    """The kind and argument of an agent's name; a name that cannot be one is a ``ValueError``."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"an agent name is needed (one of {agent_usage()}), got {name!r}")
    kind_name, colon, argument = name.partition(":")
    kind = REGISTRY.get(kind_name)
    if kind is None:
        raise ValueError(f"unknown agent {name!r}: choose one of {agent_usage()}")
    if colon and kind.argument is None:
        raise ValueError(f"agent {name!r}: {kind.name} takes nothing after it (write {kind.usage})")
    if (colon and not argument) or (not colon and kind.needs_argument):
        raise ValueError(f"agent {name!r}: write {kind.usage}")
    if colon and kind.check is not None:
        kind.check(argument)
    return kind, (argument if colon else None)


def check_agent_name(name: str) -> None:
    """Refuse, in one line, a name no agent has (nothing is loaded: a model file may be made later)."""
    parse_agent_name(name)


def make_agent(name: str, seed: int = 0, rules: Rules | None = None) -> Agent:
    """The agent a name names (module docstring), seeded with ``seed`` and playing ``rules``
    (the shipped ``ppo`` and ``tuned`` are those of these rules' preset, so they need them)."""
    kind, argument = parse_agent_name(name)
    if kind.per_table and argument is None and rules is None:
        raise ValueError(
            f"agent {name!r} is the shipped agent of the table it plays: say which, e.g. "
            f"make_agent({name!r}, rules=Rules.preset('partnership'))"
        )
    return kind.build(argument, seed, rules)


def agent_model_file(name: str, rules: Rules | None) -> Path | None:
    """The file ``make_agent(name, rules=rules)`` loads its agent from, if it is one file."""
    kind, argument = parse_agent_name(name)
    return None if kind.model_file is None else kind.model_file(argument, rules)


def is_foreign(name: str) -> bool:
    """Whether the named agent runs code from outside the lab (and so plays in a process of its own)."""
    return parse_agent_name(name)[0].foreign


# ---------------------------------------------------------------------------- the kinds
def _baseline(name: str) -> AgentKind:
    return AgentKind(
        name, f"the scripted {name} baseline", lambda argument, seed, rules: make_baseline(name, seed, rules)
    )


def _tuned(argument: str | None, seed: int, rules: Rules | None) -> Agent:
    from agents.trained import load_tuned

    return load_tuned(argument, rules=rules, name="tuned" if argument is None else f"tuned:{argument}")


def _ppo(argument: str | None, seed: int, rules: Rules | None) -> Agent:
    from agents.trained import PPOAgent

    agent = PPOAgent.load(argument, rules=rules)
    agent.name = "ppo" if argument is None else f"ppo:{argument}"
    return agent


def _scratch(argument: str | None, seed: int, rules: Rules | None) -> Agent:
    from agents.trained import PPOAgent

    agent = PPOAgent.load(_scratch_model(argument, rules), rules=rules)
    agent.name = "scratch" if argument is None else f"scratch:{argument}"
    return agent


def _shipped_or(kind: str) -> Callable[[str | None, Rules | None], Path]:
    def model_file(argument: str | None, rules: Rules | None) -> Path:
        from agents.trained import shipped_model

        return shipped_model(rules, kind) if argument is None else Path(argument)

    return model_file


def _scratch_model(argument: str | None, rules: Rules | None) -> Path:
    from agents.trained import shipped_scratch

    return shipped_scratch(rules) if argument is None else Path(argument)


def _py(argument: str | None, seed: int, rules: Rules | None) -> Agent:
    from agents.referee import PyAgent

    assert argument is not None  # needs_argument: parse_agent_name refused "py" alone
    return PyAgent(argument, seed, rules)


def _check_py(argument: str) -> None:
    from agents.foreign import split_reference

    split_reference(argument)


def _cmd(argument: str | None, seed: int, rules: Rules | None) -> Agent:
    from agents.referee import CommandAgent

    assert argument is not None
    return CommandAgent(argument, seed, rules)


def _check_cmd(argument: str) -> None:
    from agents.referee import split_command

    split_command(argument)


for _name in BASELINE_NAMES:
    register(_baseline(_name))
register(
    AgentKind(
        "tuned",
        "the tuned heuristic: the shipped one of the table's preset, or a variant saved by handfoot tune",
        _tuned,
        argument="PATH",
        model_file=_shipped_or("tuned"),
        per_table=True,
    )
)
register(
    AgentKind(
        "ppo",
        "a trained policy: the shipped one of the table's preset, or a model saved by handfoot train "
        "(.pt) or by Stable-Baselines3 (a MaskablePPO .zip)",
        _ppo,
        argument="PATH",
        model_file=_shipped_or("ppo"),
        per_table=True,
    )
)
register(
    AgentKind(
        "scratch",
        "the agent learned from scratch by PPO for this table (no search, no imitation, no advisor)",
        _scratch,
        argument="PATH",
        model_file=_scratch_model,
        per_table=True,
    )
)
register(
    AgentKind(
        "py",
        "your own agent: FACTORY(ARG) from a Python file or module, following the agent protocol",
        _py,
        argument="FILE_OR_MODULE:FACTORY[:ARG]",
        needs_argument=True,
        check=_check_py,
        foreign=True,
    )
)
register(
    AgentKind(
        "cmd",
        "a program in any language: COMMAND (split as a shell would, run without one) speaking the "
        "JSON-lines protocol of docs/benchmark.md",
        _cmd,
        argument="COMMAND",
        needs_argument=True,
        check=_check_cmd,
        foreign=True,
    )
)

# The names that need no argument: what a page or a menu may offer.
AGENT_NAMES = tuple(name for name, kind in REGISTRY.items() if not kind.needs_argument)

__all__ = [
    "AGENT_NAMES",
    "REGISTRY",
    "Agent",
    "AgentKind",
    "act_one",
    "agent_model_file",
    "agent_usage",
    "check_agent_name",
    "is_foreign",
    "make_agent",
    "parse_agent_name",
    "register",
]
