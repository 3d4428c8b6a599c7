"""The referee: a foreign agent plays in a process of its own, sent only observations and legal
actions; the referee keeps the clock per decision and checks every answer; a program in any
language enters through the JSON-lines protocol (``cmd:``)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pytest
from foreign_agents import SNOOP_AGENT, flaky_agent, snoop_agent

from agents import ForeignAgent, make_agent
from agents.foreign import AgentFault, load_py_agent
from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.observation import OBS_SIZE
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine

ROOT = Path(__file__).resolve().parents[2]
STDIO_BOT = f"cmd:{sys.executable} {ROOT / 'examples' / 'stdio_bot.py'}"
OBS = np.zeros((4, OBS_SIZE), dtype=np.float32)
MASKS = np.zeros((4, NUM_ACTIONS), dtype=bool)
MASKS[:, [0, 1]] = True
MASKS[2, 1] = False

# A bot speaking the protocol, misbehaving as its argument says on its third decision.
BAD_BOT = """
import json, sys, time
how = sys.argv[1]
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"name": "bad-" + how, "plays": how != "declines"}), flush=True)
        continue
    if message["type"] != "act":
        print("{}", flush=True)
        continue
    decisions += 1
    answer = {"action": message["legal"][0]}
    if decisions == 3:
        if how == "exits":
            sys.exit(3)
        if how == "slow":
            time.sleep(2.5)
        if how == "chatty":
            print("thinking...", flush=True)
        if how == "illegal":
            answer = {"action": 186}
        if how == "words":
            answer = {"move": "draw"}
    print(json.dumps(answer), flush=True)
"""


def test_a_snooping_agent_finds_a_live_engine_in_our_process_but_none_in_its_own(tmp_path):
    """The search the sealed tests rely on works: run here, beside an engine, it finds it."""
    name, report = snoop_agent(tmp_path)
    engine = VectorEngine(Rules.preset("classic"), batch_size=2)
    here = load_py_agent(name.removeprefix("py:"))
    here.act(engine.observe(), engine.legal_mask())
    assert "handfoot_env.vector.engine.VectorEngine" in report.read_text()
    report.unlink()
    sealed = make_agent(name)
    sealed.act(engine.observe(), engine.legal_mask())
    assert isinstance(sealed, ForeignAgent) and sealed.label == "snoop"
    assert report.read_text().startswith("searched ") and "found []" in report.read_text(), report.read_text()
    assert "sys._current_frames" in SNOOP_AGENT and "gc.get_objects" in SNOOP_AGENT


def test_one_decision_over_the_limit_is_stopped_as_slow_and_the_agent_plays_on(tmp_path):
    agent = make_agent(flaky_agent(tmp_path, every=0, call=2, sleep=2.5))
    agent.decision_seconds = 1.0
    assert agent.act(OBS, MASKS).tolist() == [0, 0, 0, 0]  # the first call: part of the start
    started = time.perf_counter()
    with pytest.raises(AgentFault) as caught:
        agent.act(OBS[:1], MASKS[:1])
    assert caught.value.kind == "slow" and time.perf_counter() - started < 2.4  # stopped, not waited for
    assert "did not answer within 1 s on a decision (stopped)" in str(caught.value)
    assert agent.act(OBS, MASKS).tolist() == [0, 0, 0, 0]  # a new process, started after the fault


def test_an_agent_always_too_slow_is_stopped_at_every_call_once_stopped(tmp_path):
    """A process's first decision has the start's time (an agent may load lazily); once the
    agent has been stopped as slow, its next processes have no such grace."""
    (tmp_path / "slowpoke.py").write_text(
        "import time\nclass Slow:\n    def act(self, observations, masks):\n"
        "        time.sleep(0.6)\n        return masks.argmax(axis=1)\n"
    )
    agent = make_agent(f"py:{tmp_path / 'slowpoke.py'}:Slow")
    agent.decision_seconds = 0.2
    assert agent.act(OBS, MASKS).tolist() == [0, 0, 0, 0]  # the first call: part of the start
    for _ in range(3):  # every later call, each in a new process
        with pytest.raises(AgentFault) as caught:
            agent.act(OBS, MASKS)
        assert caught.value.kind == "slow"


def test_an_agent_that_cannot_start_again_after_a_fault_is_the_agents_fault(tmp_path):
    """A name that cannot be built is one line before any game; a process that dies and then
    cannot be built again is the agent's fault (a match forfeits the game or ends with it)."""
    (tmp_path / "once.py").write_text(
        "import os, pathlib\n"
        f"MARK = pathlib.Path({str(tmp_path / 'built')!r})\n"
        "class DiesOnSecondCall:\n    calls = 0\n    def act(self, observations, masks):\n"
        "        self.calls += 1\n        if self.calls == 2:\n            os._exit(3)\n"
        "        return masks.argmax(axis=1)\n"
        "def make():\n    if MARK.exists():\n        raise RuntimeError('built once only')\n"
        "    MARK.touch()\n    return DiesOnSecondCall()\n"
    )
    agent = make_agent(f"py:{tmp_path / 'once.py'}:make")
    assert agent.act(OBS, MASKS).tolist() == [0, 0, 0, 0]
    with pytest.raises(AgentFault) as died:
        agent.act(OBS, MASKS)
    assert died.value.kind == "exited"
    with pytest.raises(AgentFault) as again:
        agent.act(OBS, MASKS)
    assert (
        again.value.kind == "exited"
        and "did not start again" in str(again.value)
        and "built once only" in str(again.value)
    )
    started = time.perf_counter()
    with pytest.raises(AgentFault, match="did not start again"):  # at once: no new process each call
        agent.seed(7)
    assert time.perf_counter() - started < 0.2  # a new process takes longer than this to start
    agent.close()  # closed, the agent starts as a new one: a failing start is a mistake in its name
    with pytest.raises(ValueError, match="built once only"):
        agent.act(OBS, MASKS)
    with pytest.raises(ValueError, match="built once only"):
        make_agent(f"py:{tmp_path / 'once.py'}:make")


def test_a_program_is_told_the_limit_it_plays_under(tmp_path):
    """``decision_seconds`` set after the agent is built (as eval and benchmark set it) is the
    one the program's start message names."""
    (tmp_path / "told.py").write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'start':\n"
        "        told = message['decision_seconds']\n"
        "        print(json.dumps({'name': 'told'}), flush=True)\n"
        "    elif message['type'] == 'act':\n"
        "        print(json.dumps({'action': message['legal'][int(told == 5.0)]}), flush=True)\n"
        "    else:\n"
        "        print('{}', flush=True)\n"
    )
    agent = make_agent(f"cmd:{sys.executable} {tmp_path / 'told.py'}")
    agent.decision_seconds = 5.0
    assert agent.act(OBS[:2], MASKS[:2]).tolist() == [1, 1]  # the second legal action: told 5 s
    agent.close()


def test_a_batched_call_has_the_time_of_one_decision_and_max_batch_splits_it(tmp_path):
    (tmp_path / "steady.py").write_text(
        "import time\n"
        "class Steady:\n"
        "    def __init__(self, batch):\n"
        "        self.max_batch = int(batch) or None\n"
        "    def act(self, observations, masks):\n"
        "        time.sleep(0.3 * len(masks))\n"
        "        return masks.argmax(axis=1)\n"
    )
    whole = make_agent(f"py:{tmp_path / 'steady.py'}:Steady:0")
    whole.decision_seconds = 0.9
    assert whole.act(OBS, MASKS).tolist() == [0, 0, 0, 0]  # the first call is the start's, with its time
    with pytest.raises(AgentFault, match="did not answer within 0.9 s on 4 decision"):
        whole.act(OBS, MASKS)  # 1.2 s for a call of four: over the limit, though 0.3 s a row
    one_at_a_time = make_agent(f"py:{tmp_path / 'steady.py'}:Steady:1")
    one_at_a_time.decision_seconds = 0.9
    assert one_at_a_time.max_batch == 1 and one_at_a_time.act(OBS, MASKS).tolist() == [0, 0, 0, 0]


def test_the_stdio_bot_speaks_the_protocol_and_is_reseeded_after_a_restart():
    bot = make_agent(STDIO_BOT, rules=Rules.preset("classic"))
    assert bot.label == "stdio-greedy" and bot.supports(Rules.preset("classic"))
    bot.seed(5)
    assert bot.act(OBS, MASKS).tolist() == [1, 1, 0, 1]  # takes the pile where it may, else draws
    bot.close()
    assert bot.act(OBS[:1], MASKS[:1]).tolist() == [1]  # started again


@pytest.mark.parametrize(
    "how, kind, words",
    [
        ("exits", "exited", "ended on a decision (exit status 3"),
        ("slow", "slow", "did not answer within 1 s on a decision"),
        ("chatty", "protocol", "answered 'thinking...' on a decision, not a JSON object on one line"),
        ("illegal", "illegal", "returned the illegal action 186"),
        ("words", "type", 'answered {"move": "draw"} (an action is {"action": N}'),
    ],
)
def test_a_bot_that_breaks_the_protocol_is_a_fault_on_the_decision_it_broke(tmp_path, how, kind, words):
    (tmp_path / "bad_bot.py").write_text(BAD_BOT)
    bot = make_agent(f"cmd:{sys.executable} {tmp_path / 'bad_bot.py'} {how}")
    assert bot.label == f"bad-{how}"
    with pytest.raises(AgentFault) as caught:
        bot.act(OBS, MASKS)  # four decisions sent together; the third breaks
    assert (caught.value.kind, caught.value.row) == (kind, 2) and words in str(caught.value), str(caught.value)
    assert bot.act(OBS[:2], MASKS[:2]).tolist() == [0, 0]  # a fresh process for the next call


def test_a_bot_may_decline_a_table_and_every_mistake_in_a_command_is_one_line(tmp_path):
    (tmp_path / "bad_bot.py").write_text(BAD_BOT)
    assert not make_agent(f"cmd:{sys.executable} {tmp_path / 'bad_bot.py'} declines").supports(Rules.preset("house"))
    (tmp_path / "mute.py").write_text("import sys\nsys.stdin.readline()\n")
    for command, message in (
        ("no-such-program-here", "no program 'no-such-program-here'"),
        ("'unclosed", "No closing quotation"),
        (f"{sys.executable} {tmp_path / 'mute.py'}", "ended while starting (exit status 0"),
    ):
        with pytest.raises(ValueError) as caught:
            make_agent(f"cmd:{command}")
        assert message in str(caught.value) and "\n" not in str(caught.value), str(caught.value)
