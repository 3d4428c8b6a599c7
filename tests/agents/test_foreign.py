"""Agents from outside: py: references load files and modules with clear errors, the one-game
adapter plays a function of one observation, and the guard turns every breach of the
protocol into an AgentFault that names the agent (and the row it failed on)."""

from __future__ import annotations

import sys
import time

import numpy as np
import pytest

from agents import make_agent
from agents.foreign import AgentFault, GuardedAgent, OneGameAgent, build_py_agent
from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.observation import OBS_SIZE
from handfoot_env.rules import Rules

OBS = np.zeros((3, OBS_SIZE), dtype=np.float32)
MASKS = np.zeros((3, NUM_ACTIONS), dtype=bool)
MASKS[:, 10] = True
MASKS[1, 11] = True


class Scripted:
    """Returns whatever it was told to (or raises it, or sleeps first)."""

    def __init__(self, answer, sleep: float = 0.0):
        self.answer, self.sleep = answer, sleep

    def act(self, observations, masks):
        time.sleep(self.sleep)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(
    "answer, kind, row, words",
    [
        (ZeroDivisionError("no"), "raised", None, "raised ZeroDivisionError: no at test_foreign.py:"),
        (np.array([10, 187, 10]), "out_of_range", 1, "returned the action 187, outside 0-186"),
        (np.array([10, 10, -1]), "out_of_range", 2, "returned the action -1"),
        (np.array([10, 11, 11]), "illegal", 2, "returned the illegal action 11"),
        (np.array([10, 10]), "shape", None, "returned actions of shape (2,) for 3 games"),
        (np.array([[10], [10], [10]]), "shape", None, "of shape (3, 1)"),
        (np.array([10.0, 10.0, 10.0]), "type", None, "returned float64 actions"),
        (None, "type", None, "returned NoneType"),
        ("10", "shape", None, "returned actions of shape ()"),
        (np.array(["10", "10", "10"]), "type", None, "returned <U2 actions (actions are integers)"),
    ],
)
def test_every_breach_of_the_protocol_is_a_fault_naming_the_agent(answer, kind, row, words):
    agent = GuardedAgent(Scripted(answer), "py:bad.py:make")
    with pytest.raises(AgentFault) as caught:
        agent.act(OBS, MASKS)
    fault = caught.value
    assert (fault.kind, fault.row) == (kind, row) and fault.guard is agent
    assert str(fault).startswith("agent 'py:bad.py:make' ") and words in str(fault), str(fault)


def test_good_answers_pass_whatever_their_integer_type_and_the_agent_sees_copies():
    class Vandal:
        def act(self, observations, masks):
            answer = masks.argmax(axis=1).astype(np.int32)
            masks[:] = True  # a foreign agent must not change what the games see
            observations[:] = 7
            return answer

    masks, observations = MASKS.copy(), OBS.copy()
    actions = GuardedAgent(Vandal(), "py:v.py:make").act(observations, masks)
    assert actions.tolist() == [10, 10, 10] and actions.dtype == np.int64
    assert (masks == MASKS).all() and (observations == 0).all()


def test_a_slow_agent_is_a_fault_and_one_that_never_answers_is_stopped():
    slow = GuardedAgent(Scripted(np.array([10, 10, 10]), sleep=0.05), "py:slow.py:make", decision_seconds=0.01)
    with pytest.raises(AgentFault, match=r"(took|stopped after) .* 3 decision\(s\) \(limit 0.01 s a decision\)"):
        slow.act(OBS, MASKS)

    class Forever:
        def act(self, observations, masks):
            while True:
                try:
                    time.sleep(0.01)
                except Exception:  # noqa: BLE001, S110 (an agent's own blanket handler must not swallow the stop)
                    pass

    started = time.perf_counter()
    with pytest.raises(AgentFault) as caught:
        GuardedAgent(Forever(), "py:forever.py:make", decision_seconds=0.1).act(OBS, MASKS)
    assert caught.value.kind == "slow" and time.perf_counter() - started < 5


def test_the_one_game_adapter_plays_a_function_of_the_aec_observation_and_names_the_failing_row():
    seen = []

    def policy(observation):
        seen.append(observation["action_mask"].dtype)
        if observation["action_mask"][11]:
            raise KeyError("eleven")
        return int(np.flatnonzero(observation["action_mask"])[0])

    agent = GuardedAgent(OneGameAgent(policy), "py:one.py:make")
    one_row = MASKS[[0, 2]]
    assert agent.act(OBS[:2], one_row).tolist() == [10, 10] and seen[0] == np.int8
    with pytest.raises(AgentFault) as caught:
        agent.act(OBS, MASKS)
    assert caught.value.row == 1 and "KeyError: 'eleven'" in str(caught.value)


def test_the_one_game_example_plays_the_game_it_describes(capsys):
    """examples/one_game_agent.py, a policy of one AEC observation, beats random play clearly (its
    docstring says it wins every game), legally, behind the guard."""
    import json
    from pathlib import Path

    from handfoot_lab.cli import main

    example = Path(__file__).resolve().parents[2] / "examples" / "one_game_agent.py"
    args = ["eval", "--team", f"py:{example}:make", "--vs", "random", "--pairs", "20", "--json", "--no-progress"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["win_rate"] >= 0.9


def test_py_references_load_files_modules_factories_with_arguments(tmp_path, monkeypatch):
    (tmp_path / "helper.py").write_text("FIRST = 10\n")
    (tmp_path / "bots.py").write_text(
        "import numpy as np\n"
        "from helper import FIRST  # a file beside it imports\n"
        "class Fixed:\n"
        "    def __init__(self, action, rules=None, seed=0):\n"
        "        self.action, self.rules, self.seed_given = int(action), rules, seed\n"
        "    def act(self, observations, masks):\n"
        "        return np.full(len(masks), self.action)\n"
        "def make(**kwargs):\n"
        "    return Fixed(FIRST, **kwargs)\n"
    )
    rules = Rules.preset("classic")
    fixed = build_py_agent(f"{tmp_path / 'bots.py'}:Fixed:10", seed=4, rules=rules)
    assert (fixed.agent.action, fixed.agent.rules, fixed.agent.seed_given) == (10, rules, 4)
    assert make_agent(f"py:{tmp_path / 'bots.py'}:make").act(OBS, MASKS).tolist() == [10, 10, 10]
    monkeypatch.chdir(tmp_path)  # a module under the current folder imports by name
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in (str(tmp_path), "")])
    monkeypatch.delitem(sys.modules, "bots", raising=False)
    assert make_agent("py:bots:make").act(OBS, MASKS).tolist() == [10, 10, 10]


def test_every_py_mistake_is_one_line(tmp_path):
    (tmp_path / "broken.py").write_text("def make(:\n")
    (tmp_path / "raises.py").write_text("def make():\n    raise RuntimeError('no weights here')\n")
    (tmp_path / "nothing.py").write_text("def make():\n    return 42\nVALUE = 3\n")
    (tmp_path / "needs.py").write_text("def make(path):\n    return None\n")
    for reference, message in (
        (f"{tmp_path}/missing.py:make", "no Python file"),
        (f"{tmp_path}/broken.py:make", "importing broken.py raised SyntaxError"),
        (f"{tmp_path}/raises.py:make", "make() raised RuntimeError: no weights here at raises.py:2"),
        (f"{tmp_path}/raises.py:other", "has no other (it defines: make)"),
        (f"{tmp_path}/nothing.py:VALUE", "is a int, not a function or class to call"),
        (f"{tmp_path}/nothing.py:make", "returned a int, which has no act(observations, masks)"),
        (f"{tmp_path}/needs.py:make", "missing 1 required positional argument: 'path' (an argument follows"),
        ("no_such_module_here.bots:make", "no module named 'no_such_module_here'"),
    ):
        with pytest.raises(ValueError) as caught:
            make_agent(f"py:{reference}")
        text = str(caught.value)
        assert text.startswith(f"agent 'py:{reference}'") and message in text and "\n" not in text, text
