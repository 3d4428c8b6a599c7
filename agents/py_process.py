"""The process a ``py:`` agent plays in, started by the referee (:mod:`agents.referee`) as
``python -c ...`` with the lab's ``sys.path``.  It builds the agent, then answers the referee's
messages until its input ends.  Nothing of the engine or the game is ever here: only what the
referee sends, a batch of observations and legal masks at a time.

The messages in, each a JSON line (an ``act`` line followed by its arrays' bytes):

    {"reference": "FILE:FACTORY[:ARG]", "seed": S, "rules": {...} or null}    once, first
    {"type": "act", "rows": B}  then float32[B, 655] and bool[B, 187] bytes   -> {"actions": [...]}
    {"type": "seed", "seed": S}                                              -> {"ok": true}
    {"type": "supports", "rules": {...}}                                     -> {"supports": bool}

The first answer describes the agent (``name``, ``max_batch``, whether it has ``seed`` and
``supports``) or says why it could not be built (``error``).  A fault found here (the agent
raised, or answered something that is no legal action) is answered ``{"fault": {...}}``; the
referee checks every answer again, and keeps the clock.
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
from typing import IO, Any

import numpy as np

from agents.foreign import AgentFault, check_actions, exception_line, load_py_agent
from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.observation import OBS_SIZE
from handfoot_env.rules import Rules


def _answer(out: IO[bytes], message: dict) -> None:
    out.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
    out.flush()


def _call(name: str, where: str, method, *args) -> Any:
    """The agent's method, an exception it raises an :class:`AgentFault` (with the row it failed on)."""
    try:
        return method(*args)
    except Exception as exc:  # noqa: BLE001 (a foreign agent may fail any way: a fault, one line)
        row = getattr(exc, "handfoot_row", None)
        raise AgentFault(name, "raised", f"raised {exception_line(exc)}{where}", row) from None


def _describe(agent: Any) -> dict:
    name = getattr(agent, "name", None)
    batch = getattr(agent, "max_batch", None)
    return {
        "name": name if isinstance(name, str) else None,
        "max_batch": batch if isinstance(batch, int) and batch > 0 else None,
        "seed": callable(getattr(agent, "seed", None)),
        "supports": callable(getattr(agent, "supports", None)),
    }


def serve(inp: io.BufferedReader, out: IO[bytes]) -> int:
    """Build the agent the first message names, then answer every message until the input ends."""
    start = json.loads(inp.readline())
    reference = start["reference"]
    name = f"py:{reference}"
    rules = None if start["rules"] is None else Rules.from_dict(start["rules"])
    try:
        agent = load_py_agent(reference, int(start["seed"]), rules)
    except ValueError as exc:
        _answer(out, {"error": str(exc)})
        return 0
    _answer(out, _describe(agent))
    while line := inp.readline():
        message = json.loads(line)
        try:
            if message["type"] == "act":
                rows = int(message["rows"])
                observations = np.empty((rows, OBS_SIZE), dtype=np.float32)
                masks = np.empty((rows, NUM_ACTIONS), dtype=bool)
                if inp.readinto(observations.data.cast("B")) + inp.readinto(masks.data.cast("B")) < (
                    observations.nbytes + masks.nbytes
                ):
                    return 0  # the referee is gone mid-request
                raw = _call(name, "", agent.act, observations, masks.copy())  # the agent may scribble on its own
                _answer(out, {"actions": check_actions(raw, masks, name).tolist()})
            elif message["type"] == "seed":
                _call(name, " in seed()", agent.seed, int(message["seed"]))
                _answer(out, {"ok": True})
            else:  # supports
                supported = _call(name, " in supports()", agent.supports, Rules.from_dict(message["rules"]))
                _answer(out, {"supports": bool(supported)})
        except AgentFault as fault:
            _answer(
                out, {"fault": {"kind": fault.kind, "detail": fault.detail, "row": fault.row, "action": fault.action}}
            )
    return 0


def main() -> None:
    """The messages on standard input, the answers on standard output; what the agent itself
    prints goes to standard error, and it reads nothing of the referee's input."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the lab to handle
    inp = os.fdopen(os.dup(0), "rb")
    out = os.fdopen(os.dup(1), "wb")
    with open(os.devnull, "rb") as null:
        os.dup2(null.fileno(), 0)
    os.dup2(2, 1)
    sys.exit(serve(inp, out))
