"""Agents from outside: every breach of the protocol is an AgentFault naming the agent (and the
row it failed on); py: references load files and modules, in a process of their own, with
clear errors; the one-game adapter plays a function of one observation."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from agents import make_agent
from agents.foreign import AgentFault, OneGameAgent, check_actions, load_py_agent
from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.observation import OBS_SIZE
from handfoot_env.rules import Rules

OBS = np.zeros((3, OBS_SIZE), dtype=np.float32)
MASKS = np.zeros((3, NUM_ACTIONS), dtype=bool)
MASKS[:, 10] = True
MASKS[1, 11] = True


@pytest.mark.parametrize(
    "answer, kind, row, words",
    [
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
    with pytest.raises(AgentFault) as caught:
        check_actions(answer, MASKS, "py:bad.py:make")
    fault = caught.value
    assert (fault.kind, fault.row) == (kind, row)
    assert str(fault).startswith("agent 'py:bad.py:make' ") and words in str(fault), str(fault)


def test_good_answers_pass_whatever_their_integer_type():
    for answer in (np.array([10, 10, 10], dtype=np.int32), [10, 11, 10], np.array([10, 10, 10], dtype=np.uint8)):
        actions = check_actions(answer, MASKS, "py:good.py:make")
        assert actions.dtype == np.int64 and actions.tolist() in ([10, 10, 10], [10, 11, 10])


def test_an_agent_in_its_own_process_faults_as_in_ours_and_cannot_change_the_games(tmp_path):
    (tmp_path / "agents_here.py").write_text(
        "import numpy as np\n"
        "class Vandal:\n"
        "    def act(self, observations, masks):\n"
        "        answer = masks.argmax(axis=1).astype(np.int32)\n"
        "        masks[:] = True  # a foreign agent must not change what the games see\n"
        "        observations[:] = 7\n"
        "        return answer\n"
        "class Raising:\n"
        "    def act(self, observations, masks):\n"
        "        raise ZeroDivisionError('no')\n"
        "class Floats:\n"
        "    def act(self, observations, masks):\n"
        "        return masks.argmax(axis=1) * 1.0\n"
    )
    masks, observations = MASKS.copy(), OBS.copy()
    vandal = make_agent(f"py:{tmp_path / 'agents_here.py'}:Vandal")
    actions = vandal.act(observations, masks)
    assert actions.tolist() == [10, 10, 10] and actions.dtype == np.int64
    assert (masks == MASKS).all() and (observations == 0).all()
    for factory, kind, words in (
        ("Raising", "raised", "raised ZeroDivisionError: no at agents_here.py:10"),
        ("Floats", "type", "returned float64 actions"),
    ):
        agent = make_agent(f"py:{tmp_path / 'agents_here.py'}:{factory}")
        with pytest.raises(AgentFault) as caught:
            agent.act(OBS, MASKS)
        assert caught.value.kind == kind and words in str(caught.value) and caught.value.guard is agent, caught.value


def test_the_one_game_adapter_plays_a_function_of_the_aec_observation_and_names_the_failing_row(tmp_path):
    seen = []

    def policy(observation):
        seen.append(observation["action_mask"].dtype)
        if observation["action_mask"][11]:
            raise KeyError("eleven")
        return int(np.flatnonzero(observation["action_mask"])[0])

    agent = OneGameAgent(policy)
    assert agent.max_batch == 1  # the referee times each decision on its own
    assert agent.act(OBS[:2], MASKS[[0, 2]]).tolist() == [10, 10] and seen[0] == np.int8
    (tmp_path / "one.py").write_text(
        "import numpy as np\n"
        "def make():\n"
        "    def policy(observation):\n"
        "        if observation['action_mask'][11]:\n"
        "            raise KeyError('eleven')\n"
        "        return int(np.flatnonzero(observation['action_mask'])[0])\n"
        "    return policy\n"
    )
    sealed = make_agent(f"py:{tmp_path / 'one.py'}:make")
    assert sealed.max_batch == 1
    with pytest.raises(AgentFault) as caught:
        sealed.act(OBS, MASKS)
    assert caught.value.row == 1 and "KeyError: 'eleven' at one.py:5" in str(caught.value)


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
        "        self.action = int(action)\n"
        "        self.name = f'fixed {action} on {rules and rules.preset_name} seed {seed}'\n"
        "    def act(self, observations, masks):\n"
        "        return np.full(len(masks), self.action)\n"
        "def make(**kwargs):\n"
        "    return Fixed(FIRST, **kwargs)\n"
    )
    rules = Rules.preset("classic")
    in_process = load_py_agent(f"{tmp_path / 'bots.py'}:Fixed:10", seed=4, rules=rules)
    assert (in_process.action, in_process.name) == (10, "fixed 10 on classic seed 4")
    fixed = make_agent(f"py:{tmp_path / 'bots.py'}:Fixed:10", seed=4, rules=rules)
    assert fixed.label == "fixed 10 on classic seed 4" and fixed.name == f"py:{tmp_path / 'bots.py'}:Fixed:10"
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
