"""Agents from outside the lab: what the agent protocol asks of them, the faults that break it,
``py:FILE_OR_MODULE:FACTORY[:ARG]`` references, and the one-game adapter.

The agent protocol (docs/benchmark.md): an object with ``act(observations, masks)``, where
``observations`` is ``float32[B, 655]`` and ``masks`` is ``bool[B, 187]`` (one row per game
whose mover it plays), returning one legal action per row (integers, shape ``[B]``).  It may
have ``name``, ``seed(int)`` (reseeded so that matches repeat), ``supports(rules)`` and
``max_batch`` (the most rows it takes in one call).  A factory may instead return a function
of one observation, the AEC env's dict ``{"observation": float32[655], "action_mask":
int8[187]}``, returning one action: it is played through :class:`OneGameAgent`.

``py:my_agent.py:make`` calls ``make()`` from the file ``my_agent.py`` (its folder goes on
``sys.path``, so it can import files beside it); ``py:mypkg.bots:Bot`` imports ``mypkg.bots``
(installed, or under the current folder) and calls ``Bot()``; ``py:bots.py:Search:200``
calls ``Search("200")``.  The factory also gets ``rules=`` (the :class:`Rules` being
played) and ``seed=`` when it declares them.

A foreign agent never plays in the lab's process: :mod:`agents.referee` runs it in a process
of its own (:func:`load_py_agent` is called there, by :mod:`agents.py_process`) and checks
every answer with :func:`check_actions`; a breach is an :class:`AgentFault` naming the agent
and what it did.  The lab's own agents play in-process, unchecked, at full speed.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
import traceback
from pathlib import Path
from typing import Any

import numpy as np

from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.rules import Rules

DEFAULT_DECISION_SECONDS = 1.0  # the referee's limit per decision, unless told otherwise
# What a fault's kind may be: the agent's answer (raised ... type), its clock (slow), its process.
FAULT_KINDS = ("raised", "out_of_range", "illegal", "shape", "type", "slow", "exited", "protocol")


class AgentFault(RuntimeError):
    """A foreign agent broke the protocol.  ``kind``: one of :data:`FAULT_KINDS`; ``row``: the
    row of its call it failed on (None: the whole call); ``action``: the action it returned there."""

    def __init__(self, agent: str, kind: str, detail: str, row: int | None = None, action: int | None = None):
        super().__init__(f"agent {agent!r} {detail}")
        self.agent, self.kind, self.detail, self.row, self.action = agent, kind, detail, row, action
        self.guard: Any = None  # the referee's proxy of the agent, where it was raised (not pickled)

    def __reduce__(self):  # travels from Ray workers back to the driver whole
        return (AgentFault, (self.agent, self.kind, self.detail, self.row, self.action))


class OneGameAgent:
    """The batched protocol over ``policy(observation) -> action``, a policy that acts on one
    observation at a time (the AEC env's dict), row by row."""

    max_batch = 1  # one decision per call: the referee times each on its own

    def __init__(self, policy, name: str = "one-game"):
        self.policy = policy
        self.name = getattr(policy, "name", name)

    def seed(self, seed: int) -> None:
        if hasattr(self.policy, "seed"):
            self.policy.seed(seed)

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks).astype(np.int8)
        actions = []
        for row, (observation, mask) in enumerate(zip(observations, masks)):
            try:
                actions.append(self.policy({"observation": observation, "action_mask": mask}))
            except Exception as exc:
                # the game it failed in, for the guard's report (setattr: Exception declares no such field)
                setattr(exc, "handfoot_row", row)  # noqa: B010
                raise
        return np.asarray(actions)


def check_actions(raw: Any, masks: np.ndarray, agent: str) -> np.ndarray:
    """``raw``, an agent's answer to ``masks`` (``bool[B, 187]``), as ``int64[B]`` legal actions;
    anything else is an :class:`AgentFault` (its ``row``: the first row at fault)."""
    rows = len(masks)
    try:
        actions = np.asarray(raw)
    except Exception:  # noqa: BLE001 (whatever a foreign object fails with, the fault is its type)
        actions = None
    if actions is None or actions.dtype == object:
        raise AgentFault(agent, "type", f"returned {type(raw).__name__}, not an array of actions")
    if actions.shape != (rows,):
        raise AgentFault(
            agent, "shape", f"returned actions of shape {actions.shape} for {rows} games (expected ({rows},))"
        )
    if actions.dtype.kind not in "iu":
        raise AgentFault(agent, "type", f"returned {actions.dtype} actions (actions are integers)")
    outside = np.flatnonzero((actions < 0) | (actions >= NUM_ACTIONS))
    if len(outside):
        row = int(outside[0])
        action = int(actions[row])
        raise AgentFault(
            agent, "out_of_range", f"returned the action {action}, outside 0-{NUM_ACTIONS - 1}", row, action
        )
    actions = actions.astype(np.int64)
    illegal = np.flatnonzero(~masks[np.arange(rows), actions])
    if len(illegal):
        row = int(illegal[0])
        raise AgentFault(agent, "illegal", f"returned the illegal action {int(actions[row])}", row, int(actions[row]))
    return actions


def exception_line(exc: BaseException) -> str:
    """``ValueError: message`` and where the agent's code raised it, on one line."""
    text = str(exc).strip().splitlines()
    where = ""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename != __file__]
    if frames:  # the innermost line of the agent's own code
        where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}"
    return f"{type(exc).__name__}{': ' + text[0] if text else ''}{where}"


class MatchFault(RuntimeError):
    """A foreign agent's fault in one game of a match: the fault, where it happened (the
    rules, the seed, the step: the number of actions played before it, the team's side) and
    the game's actions so far; :meth:`save_record` writes them as a record.  ``by_team``: the
    agent at fault is the match's team (else its opponent)."""

    def __init__(
        self,
        fault: AgentFault,
        rules: dict,
        seed: int,
        step: int,
        team_side: int,
        actions: list[int],
        team: str,
        vs: str,
        record: str | None = None,
        by_team: bool = True,
    ):
        self.fault, self.rules, self.seed, self.step, self.team_side = fault, rules, seed, step, team_side
        self.actions, self.team, self.vs, self.record, self.by_team = actions, team, vs, record, by_team
        super().__init__(self._message())

    def _message(self) -> str:
        rules = Rules.from_dict(self.rules)
        where = f"{rules.preset_name} with {rules.num_players} players, seed {self.seed}, step {self.step}"
        line = f"{self.fault} at {where} ({self.team} vs {self.vs}, the team on side {self.team_side})"
        return line + (f"; the game so far: {self.record}" if self.record else "")

    def __reduce__(self):  # travels from Ray workers back to the driver whole
        return (
            MatchFault,
            (
                self.fault,
                self.rules,
                self.seed,
                self.step,
                self.team_side,
                self.actions,
                self.team,
                self.vs,
                self.record,
                self.by_team,
            ),
        )

    def save_record(self, folder: str | Path) -> Path:
        """The game up to the faulty step, as a record (``handfoot replay`` shows the position)."""
        from handfoot_env.reference import Game
        from handfoot_env.reference.record import save_record

        game = Game(Rules.from_dict(self.rules), self.seed)
        for action in self.actions:
            game.step(action)
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in self.fault.agent)[-60:]
        path = (
            Path(folder)
            / f"fault_{safe}_{game.rules.preset_name}{game.rules.num_players}_seed{self.seed}_step{self.step}.json"
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        save_record(game, path)
        self.record = str(path)
        self.args = (self._message(),)
        return path

    def describe(self) -> dict:
        """What a report keeps of it: the agent, where, what it did, the record."""
        rules = Rules.from_dict(self.rules)
        return {
            "agent": self.fault.agent,
            "team": self.team,
            "vs": self.vs,
            "table": f"{rules.preset_name}:{rules.num_players}",
            "seed": self.seed,
            "step": self.step,
            "kind": self.fault.kind,
            "message": str(self),
            "record": self.record,
        }


# ---------------------------------------------------------------------------- py: references
def split_reference(argument: str) -> tuple[str, str, str | None]:
    """``FILE_OR_MODULE:FACTORY[:ARG]`` as (target, factory, argument or None)."""
    parts = argument.split(":", 2)
    target, factory = parts[0], parts[1] if len(parts) > 1 else ""
    if not target or not factory or not all(part.isidentifier() for part in factory.split(".")):
        raise ValueError(
            f"agent 'py:{argument}': write py:FILE.py:FACTORY or py:MODULE:FACTORY (FACTORY a function or "
            "class in it, then optionally :ARG, a text it is called with)"
        )
    return target, factory, parts[2] if len(parts) > 2 else None


def _is_file(target: str) -> bool:
    return target.endswith(".py") or "/" in target or os.sep in target


def _load_file(path: Path):
    """The module in ``path``, executed once per process (its folder joins ``sys.path``)."""
    path = path.expanduser().resolve()
    if not path.is_file():
        raise ValueError(f"no Python file {path}")
    name = f"handfoot_py_{path.stem}_{hashlib.sha1(str(path).encode()).hexdigest()[:8]}"
    if name in sys.modules:
        return sys.modules[name]
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path} cannot be imported as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:
        del sys.modules[name]
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise ValueError(f"importing {path.name} raised {exception_line(exc)}") from None
    return module


def _import_module(target: str):
    """The module ``target``, installed or under the current folder."""
    for attempt in range(2):
        try:
            return importlib.import_module(target)
        except ModuleNotFoundError as exc:
            missing = exc.name or target
            if attempt == 0 and target.split(".")[0] == missing.split(".")[0] and os.getcwd() not in sys.path:
                sys.path.append(os.getcwd())  # as `python -m` would find it
                continue
            raise ValueError(
                f"no module named {missing!r} (install it, or name a file: py:path/to/file.py:FACTORY)"
            ) from None
        except Exception as exc:  # noqa: BLE001 (a foreign module may fail any way: one line)
            raise ValueError(f"importing {target} raised {exception_line(exc)}") from None


def load_factory(target: str, factory: str):
    """The object ``factory`` names in the file or module ``target``."""
    module = _load_file(Path(target)) if _is_file(target) else _import_module(target)
    found: Any = module
    for part in factory.split("."):
        if not hasattr(found, part):
            public = sorted(n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n)))
            raise ValueError(f"{target} has no {factory} (it defines: {', '.join(public) or 'nothing callable'})")
        found = getattr(found, part)
    if not callable(found):  # a ValueError, as every mistake in a name: one line on the CLI
        raise ValueError(f"{target}:{factory} is a {type(found).__name__}, not a function or class to call")
    return found


def _keywords(factory, seed: int, rules: Rules | None) -> dict[str, Any]:
    """``seed`` and ``rules``, for a factory that declares them (or takes ``**kwargs``)."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return {}
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return {"seed": seed, "rules": rules}
    names = {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return {key: value for key, value in (("seed", seed), ("rules", rules)) if key in names}


def load_py_agent(argument: str, seed: int = 0, rules: Rules | None = None):
    """The agent ``py:ARGUMENT`` names, built in this process (:mod:`agents.py_process` calls it,
    in the agent's own process); a function of one observation comes wrapped in
    :class:`OneGameAgent`.  Every problem is one ``ValueError`` line."""
    name = f"py:{argument}"
    target, factory_name, text = split_reference(argument)
    try:
        factory = load_factory(target, factory_name)
    except ValueError as exc:
        raise ValueError(f"agent {name!r}: {exc}") from None
    args = () if text is None else (text,)
    try:
        made = factory(*args, **_keywords(factory, seed, rules))
    except Exception as exc:  # noqa: BLE001 (a foreign factory may fail any way: one line)
        hint = " (an argument follows the factory: py:FILE:FACTORY:ARG)" if isinstance(exc, TypeError) else ""
        raise ValueError(f"agent {name!r}: {factory_name}() raised {exception_line(exc)}{hint}") from None
    if hasattr(made, "act"):
        return made
    if callable(made):
        return OneGameAgent(made, name=name)
    raise ValueError(
        f"agent {name!r}: {factory_name}() returned a {type(made).__name__}, which has no "
        "act(observations, masks) and is not a function of one observation"
    )


__all__ = [
    "DEFAULT_DECISION_SECONDS",
    "FAULT_KINDS",
    "AgentFault",
    "MatchFault",
    "OneGameAgent",
    "check_actions",
    "exception_line",
    "load_factory",
    "load_py_agent",
    "split_reference",
]
