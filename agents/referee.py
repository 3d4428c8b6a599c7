"""The referee: agents from outside the lab play in processes of their own.

``make_agent("py:...")`` and ``make_agent("cmd:...")`` return a :class:`ForeignAgent`, a proxy
that follows the agent protocol in the lab's process while the agent itself runs in a child
process.  For each decision the child is sent only the seat's observation and its legal
actions, and answers actions: nothing of the engine or the game ever lives in the agent's
process, so however it searches its own memory, it finds no hidden card.

The referee keeps the clock, here, in the lab's process: each decision has
``decision_seconds``; a batched call of B rows is B decisions made together, so the call has
that long; an agent that has not answered in time is stopped (a fault of kind ``slow``).  The
first call of a process is part of its start (a model's first call may load or compile): it
has the start's time, ``START_SECONDS``.  Every
answer is checked (:func:`agents.foreign.check_actions`).  What comes back from an agent's
process is read as JSON, never unpickled, so an agent cannot run code in the lab's process.

The two kinds:

* ``py:FILE_OR_MODULE:FACTORY[:ARG]`` (:class:`PyAgent`): the factory is called in a Python
  process of its own (:mod:`agents.py_process`), sent batches of observations and masks as
  bytes; it answers JSON lines;
* ``cmd:COMMAND`` (:class:`CommandAgent`): any program, in any language, speaking the
  JSON-lines protocol of docs/benchmark.md on its standard input and output, one decision at a
  time.
"""

from __future__ import annotations

import collections
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from typing import Any

import numpy as np

from agents.foreign import DEFAULT_DECISION_SECONDS, FAULT_KINDS, AgentFault, check_actions
from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.observation import OBS_SIZE
from handfoot_env.rules import Rules

PROTOCOL = 1  # the version of the cmd: protocol (docs/benchmark.md)
START_SECONDS = 300.0  # for the factory or the program to start (loading a model, importing torch)
CONTROL_SECONDS = 60.0  # for an answer that is no decision (seed, supports)
MAX_LINE = 1 << 24  # the longest answer line read from an agent (16 MiB)
MAX_TEXT = 300  # the most of an agent's own words that a fault line repeats
# The child of a py: agent: the lab's sys.path (the same modules), then agents.py_process.
PY_CHILD = "import sys; sys.path[:] = sys.argv[1:]; sys.argv = ['py-agent']; import agents.py_process as p; p.main()"


class AgentProcess:
    """A child process the referee talks to: requests (bytes) go to its standard input, each
    answer is one line of its standard output.  The referee waits on both pipes at once
    (``selectors``), never blocking on either: a child that stops reading or answering holds it
    no longer than its clock, and answers are timed as they come.  The child leads a new
    session: Ctrl-C at the terminal is for the lab to handle, and stopping the child stops
    whatever it started."""

    def __init__(self, argv: list[str]):
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, start_new_session=True
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self._to, self._from = self.process.stdin.fileno(), self.process.stdout.fileno()
        _widen(self._to)
        os.set_blocking(self._to, False)
        os.set_blocking(self._from, False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._from, selectors.EVENT_READ)
        self._unsent = bytearray()  # requests the pipe has not taken yet
        self._partial = bytearray()  # the start of an answer line
        self._lines: collections.deque[bytes] = collections.deque()
        self._ended = False
        self._stop = weakref.finalize(self, _stop, self.process, self._selector)

    def send(self, *parts: bytes | memoryview) -> None:
        """Send the request made of ``parts`` (an array's bytes travel uncopied): the pipe takes
        what it can now, the rest while the answers are awaited."""
        if not self._unsent:
            try:
                written = os.writev(self._to, parts)
            except BlockingIOError:
                written = 0
            except OSError:  # the child ended: its answer says so
                return
            for part in parts:  # what the pipe did not take waits for it
                size = len(memoryview(part).cast("B"))
                if written < size:
                    self._unsent += memoryview(part).cast("B")[written:]
                written = max(written - size, 0)
        else:
            for part in parts:
                self._unsent += part
        self._write()

    def answer(self, seconds: float) -> bytes | None:
        """The child's next line (``b""`` if it ended), or None if none came within ``seconds``
        (the child is then stopped)."""
        deadline = time.monotonic() + seconds
        try:
            while not self._lines and not self._ended:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.kill()
                    return None
                self._wait(min(left, 0.25))  # in slices: Ctrl-C is seen however the system delivers it
        except BaseException:  # Ctrl-C while it thinks: the exchange is out of step for good
            self.kill()
            raise
        return self._lines.popleft() if self._lines else b""

    def _wait(self, seconds: float) -> None:
        for key, _ in self._selector.select(seconds):
            if key.fd == self._from:
                self._read()
            else:
                self._write()

    def _write(self) -> None:
        try:
            written = os.write(self._to, self._unsent[: 1 << 20]) if self._unsent else 0
        except BlockingIOError:
            written = 0
        except OSError:  # the child ended: its answer says so
            self._unsent.clear()
            written = 0
        del self._unsent[:written]
        waiting = self._to in self._selector.get_map()
        if self._unsent and not waiting:
            self._selector.register(self._to, selectors.EVENT_WRITE)
        elif waiting and not self._unsent:
            self._selector.unregister(self._to)

    def _read(self) -> None:
        try:
            chunk = os.read(self._from, 1 << 20)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._ended = True
            if self._partial:  # a last line without its end: not an answer
                self._lines.append(bytes(self._partial))
            return
        self._partial += chunk
        while (end := self._partial.find(b"\n")) >= 0:
            self._lines.append(bytes(self._partial[: end + 1]))
            del self._partial[: end + 1]
        if len(self._partial) > MAX_LINE:  # a line too long to be an answer: passed on as it is, to be refused
            self._lines.append(bytes(self._partial))
            self._partial.clear()

    def exit_status(self) -> str:
        """How the child ended, in words."""
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "it stopped answering"
        if code < 0:
            return f"killed by signal {-code} ({signal.Signals(-code).name})"
        return f"exit status {code}; its standard error may say why"

    @property
    def alive(self) -> bool:
        return self._stop.alive and not self._ended and self.process.poll() is None

    def kill(self) -> None:
        """Stop the child (and whatever it started) at once."""
        _kill(self.process)
        self._stop()

    def close(self) -> None:
        """End the child: its input closes (a well-behaved agent exits); it is killed if it lingers."""
        self._stop()


def _widen(fd: int) -> None:
    """Let a pipe hold a whole batch (Linux: up to 1 MiB), so that it crosses in one go."""
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except (ImportError, OSError):
        pass  # another system, or a smaller limit: the batch crosses in parts


def _kill(process: subprocess.Popen) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)  # it leads its process group: its own children go too
        except (OSError, AttributeError):  # gone already, or no process groups
            process.kill()


def _stop(process: subprocess.Popen, selector: selectors.BaseSelector) -> None:
    selector.close()
    assert process.stdin is not None and process.stdout is not None
    process.stdin.close()  # a well-behaved agent ends at the end of its input
    try:
        process.wait(timeout=2.0)
    except subprocess.TimeoutExpired:
        _kill(process)
        process.wait()
    process.stdout.close()


class ForeignAgent:
    """The referee's side of an agent that plays in a process of its own: the agent protocol
    here (``act``, ``seed``, ``supports``), the clock and the checks; the subclasses say how
    to start the process and how to talk to it.

    ``name`` is how the lab names the agent (``py:...``, ``cmd:...``: fault lines, file names);
    ``label`` is the name the agent gives itself, when it gives one."""

    max_batch: int | None = None  # the most rows one exchange carries (None: a call's all)

    def __init__(self, name: str, decision_seconds: float = DEFAULT_DECISION_SECONDS):
        self.name = name
        self.label: str | None = None
        self.decision_seconds = decision_seconds
        self._process: AgentProcess | None = None
        self._seed: int | None = None  # the last seed given, given again to a restarted process
        self._lock = threading.RLock()  # one exchange at a time (a web server may call from threads)
        self._warm: AgentProcess | None = None  # the process whose first decision has been made
        self._was_slow = False  # stopped as slow once: no more start time for a first decision
        self._has_started = False  # a process of this agent has started since it was made or closed
        self._cannot_start: str | None = None  # why a restart after a fault failed (then every call fails)

    # ------------------------------------------------------------------ the agent protocol
    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with self._lock:
            return self._act(np.asarray(observations, dtype=np.float32), np.asarray(masks, dtype=bool))

    def _act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        rows = len(masks)
        step = self.max_batch or max(rows, 1)
        actions = np.empty(rows, dtype=np.int64)
        for lo in range(0, rows, step):
            try:
                actions[lo : lo + step] = self._decide(observations[lo : lo + step], masks[lo : lo + step])
            except AgentFault as fault:
                if lo:  # a row of this call, not of the exchange
                    fault.row = lo + (fault.row or 0)
                fault.guard = self  # which agent of a match it was (read where it is raised)
                raise
        return actions

    def seed(self, seed: int) -> None:
        with self._lock:
            self._seed = seed
            self._seeded(self._running(), seed)

    def supports(self, rules: Rules) -> bool:
        """Whether the agent plays these rules (it says so; if it says nothing, it does)."""
        return True

    def close(self) -> None:
        """End the agent's process (a later call starts a new one, as if the agent were new)."""
        with self._lock:
            if self._process is not None:
                self._process.close()
                self._process = None
            self._has_started, self._cannot_start = False, None

    # ------------------------------------------------------------------ the process
    def _running(self) -> AgentProcess:
        """The agent's process, started (again, after a fault stopped it) if need be.  A start that
        fails is a mistake in the agent's name the first time (one ``ValueError`` line) and the
        agent's fault (``exited``) any later time: a match can forfeit the game it was for."""
        if self._cannot_start is not None:  # one failed restart is enough: no new process each call
            raise AgentFault(self.name, "exited", self._cannot_start)
        if self._process is None or not self._process.alive:
            try:
                self._process = self._start()
            except ValueError as error:
                if not self._has_started:
                    raise
                self._process = None
                self._cannot_start = f"did not start again ({error})"
                raise AgentFault(self.name, "exited", self._cannot_start) from None
            self._has_started = True
            if self._seed is not None:
                self._seeded(self._process, self._seed)
        return self._process

    def _exchange(
        self, request: bytes, seconds: float, what: str, process: AgentProcess | None = None, *data: memoryview
    ) -> dict:
        """Send ``request`` (and ``data`` after it); the answer, a JSON object (:meth:`_answer`)."""
        process = process or self._running()
        process.send(request, *data)
        return self._answer(process, seconds, what)

    def _answer(self, process: AgentProcess, seconds: float, what: str, row: int | None = None) -> dict:
        """The process's next answer, a JSON object.  None within ``seconds``, an ended process
        or an answer that is not a JSON object is an :class:`AgentFault` (about ``row``)."""
        line = process.answer(seconds)
        if line is None:
            self._was_slow = True
            raise AgentFault(self.name, "slow", f"did not answer within {seconds:g} s {what} (stopped)", row)
        if not line:
            raise AgentFault(self.name, "exited", f"ended {what} ({process.exit_status()})", row)
        try:
            answer = json.loads(line) if line.endswith(b"\n") else None
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            process.kill()  # out of step with what it answers: a later call starts it afresh
            shown = line[:80].decode("utf-8", "replace").strip()
            raise AgentFault(self.name, "protocol", f"answered {shown!r} {what}, not a JSON object on one line", row)
        fault = answer.get("fault")
        if isinstance(fault, dict):  # the agent's process found the fault (a py: agent raised, ...)
            kind = fault["kind"] if fault.get("kind") in FAULT_KINDS else "raised"
            at, action = fault.get("row"), fault.get("action")
            raise AgentFault(
                self.name,
                kind,
                _text(fault.get("detail")) or "failed",
                at if isinstance(at, int) and not isinstance(at, bool) else row,
                action if isinstance(action, int) and not isinstance(action, bool) else None,
            )
        return answer

    def _start(self) -> AgentProcess:
        raise NotImplementedError

    def _started(self, process: AgentProcess, request: bytes) -> dict:
        """The agent's first answer, to ``request``; a fault there is one ``ValueError`` line (like
        any mistake in an agent's name)."""
        try:
            return self._exchange(request, START_SECONDS, "while starting", process)
        except AgentFault as fault:
            process.kill()
            raise ValueError(str(fault)) from None

    def _seeded(self, process: AgentProcess, seed: int) -> None:
        raise NotImplementedError

    def _decide(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _limit(self, rows: int) -> str:
        return f"on {rows} decision(s) at once" if rows > 1 else "on a decision"

    def _clock(self, process: AgentProcess) -> float:
        """The time for the next decision: the start's for a process's first (an agent may load
        lazily), then ``decision_seconds``; once the agent has been stopped as slow, every
        decision of its later processes has ``decision_seconds`` (an agent always too slow is
        caught at each call, not at every other)."""
        if self._warm is process:
            return self.decision_seconds
        self._warm = process
        return self.decision_seconds if self._was_slow else START_SECONDS


def _text(value: Any) -> str | None:
    """An agent's words, as one short line (None for anything not text)."""
    if not isinstance(value, str):
        return None
    line = " ".join(value.split())
    return line[:MAX_TEXT] + ("..." if len(line) > MAX_TEXT else "")


def _line(message: dict) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


class PyAgent(ForeignAgent):
    """``py:FILE_OR_MODULE:FACTORY[:ARG]``: the factory's agent in a Python process of its own
    (the same interpreter and modules as the lab's), batched as the agent takes batches."""

    def __init__(
        self,
        argument: str,
        seed: int = 0,
        rules: Rules | None = None,
        decision_seconds: float = DEFAULT_DECISION_SECONDS,
    ):
        super().__init__(f"py:{argument}", decision_seconds)
        self._hello = _line({"reference": argument, "seed": seed, "rules": None if rules is None else rules.to_dict()})
        self._has_seed = self._has_supports = False
        self._running()  # now: a mistake in the name is one line before any game

    def _start(self) -> AgentProcess:
        process = AgentProcess([sys.executable, "-c", PY_CHILD, *sys.path])
        answer = self._started(process, self._hello)
        if "error" in answer:
            process.close()
            raise ValueError(_text(answer["error"]) or f"agent {self.name!r} could not be built")
        self.label = _text(answer.get("name"))
        batch = answer.get("max_batch")
        self.max_batch = batch if isinstance(batch, int) and not isinstance(batch, bool) and batch > 0 else None
        self._has_seed, self._has_supports = answer.get("seed") is True, answer.get("supports") is True
        return process

    def _seeded(self, process: AgentProcess, seed: int) -> None:
        if self._has_seed:
            self._exchange(_line({"type": "seed", "seed": int(seed)}), CONTROL_SECONDS, "in seed()", process)

    def supports(self, rules: Rules) -> bool:
        if not self._has_supports:
            return True
        with self._lock:
            answer = self._exchange(
                _line({"type": "supports", "rules": rules.to_dict()}), CONTROL_SECONDS, "in supports()"
            )
        return answer.get("supports") is True

    def _decide(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        rows = len(masks)
        request = _line({"type": "act", "rows": rows})
        arrays = (np.ascontiguousarray(observations).data, np.ascontiguousarray(masks).data)
        process = self._running()
        answer = self._exchange(request, self._clock(process), self._limit(rows), process, *arrays)
        return check_actions(answer.get("actions"), masks, self.name)


class CommandAgent(ForeignAgent):
    """``cmd:COMMAND``: a program of any language (the command split as a shell would, run
    without one) that speaks the JSON-lines protocol (docs/benchmark.md): one line per
    decision, answered in order.  A call's decisions are sent together, and each answer must
    come within ``decision_seconds`` of the one before it (the first, of the sending)."""

    def __init__(
        self,
        command: str,
        seed: int = 0,
        rules: Rules | None = None,
        decision_seconds: float = DEFAULT_DECISION_SECONDS,
    ):
        super().__init__(f"cmd:{command}", decision_seconds)
        self.argv = split_command(command)
        self.rules, self.start_seed, self.plays = rules, seed, True
        self._running()  # now: a program that cannot start is one line before any game

    @property
    def decision_seconds(self) -> float:
        return self._decision_seconds

    @decision_seconds.setter
    def decision_seconds(self, seconds: float) -> None:
        if getattr(self, "_decision_seconds", seconds) != seconds:
            self.close()  # the program was told its limit at its start: it starts again, told this one
        self._decision_seconds = seconds

    def _start(self) -> AgentProcess:
        try:
            process = AgentProcess(self.argv)
        except FileNotFoundError:
            raise ValueError(f"agent {self.name!r}: no program {self.argv[0]!r} (a path, or a name on PATH)") from None
        except OSError as exc:
            raise ValueError(f"agent {self.name!r}: cannot run {self.argv[0]!r}: {exc.strerror or exc}") from None
        hello = {
            "type": "start",
            "protocol": PROTOCOL,
            "rules": None if self.rules is None else self.rules.to_dict(),
            "seed": int(self.start_seed),
            "observation_size": OBS_SIZE,
            "num_actions": NUM_ACTIONS,
            "decision_seconds": self.decision_seconds,
        }
        answer = self._started(process, _line(hello))
        self.label = _text(answer.get("name"))
        self.plays = answer.get("plays") is not False
        return process

    def _seeded(self, process: AgentProcess, seed: int) -> None:
        self._exchange(_line({"type": "seed", "seed": int(seed)}), CONTROL_SECONDS, "to its seed", process)

    def supports(self, rules: Rules) -> bool:
        return self.plays

    def _decide(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        process = self._running()
        process.send(
            b"".join(
                _line(
                    {
                        "type": "act",
                        "observation": observation.tolist(),
                        "legal": np.flatnonzero(mask).tolist(),
                        "time_left": self.decision_seconds,
                    }
                )
                for observation, mask in zip(observations, masks)
            )
        )
        actions = np.empty(len(masks), dtype=np.int64)
        try:
            for row in range(len(masks)):
                answer = self._answer(process, self._clock(process), "on a decision", row)
                action = answer.get("action")
                if isinstance(action, bool) or not isinstance(action, int):
                    shown = json.dumps(answer)[:80]
                    detail = f'answered {shown} (an action is {{"action": N}}, N a legal action)'
                    raise AgentFault(self.name, "type", detail, row)
                if not 0 <= action < NUM_ACTIONS:
                    detail = f"returned the action {action}, outside 0-{NUM_ACTIONS - 1}"
                    raise AgentFault(self.name, "out_of_range", detail, row, action)
                actions[row] = action
        except AgentFault:
            process.kill()  # the answers still to come are out of step: a later call starts it afresh
            raise
        return check_actions(actions, masks, self.name)


def split_command(command: str) -> list[str]:
    """``cmd:COMMAND``'s program and arguments, split as a shell would split the line."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"agent 'cmd:{command}': {exc} (write cmd:PROGRAM ARGS..., quoted as in a shell)") from None
    if not argv:
        raise ValueError("agent 'cmd:': write cmd:PROGRAM ARGS..., e.g. cmd:python3 examples/stdio_bot.py")
    return argv


__all__ = [
    "CONTROL_SECONDS",
    "PROTOCOL",
    "START_SECONDS",
    "AgentProcess",
    "CommandAgent",
    "ForeignAgent",
    "PyAgent",
    "split_command",
]
