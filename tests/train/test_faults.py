"""A foreign agent's fault in a match: one line naming the agent, the rules, the seed and the
step, and the game's record up to that step (here and on a Ray cluster alike)."""

from __future__ import annotations

import numpy as np
import pytest
from foreign_agents import trap_agent

from agents import make_agent
from agents.evaluation.matches import play_match
from agents.evaluation.ratings import rating_against
from agents.foreign import MatchFault
from handfoot_env.reference.observe import observe
from handfoot_env.reference.record import load_record, replay
from handfoot_env.rules import Rules
from handfoot_lab.cli import main


def test_an_illegal_action_at_step_137_of_seed_42_is_one_line_with_a_record_to_that_step(tmp_path, capsys):
    rules = Rules.preset("classic")
    name, side = trap_agent(tmp_path, rules, seed=42, step=137)
    args = ["eval", "--team", name, "--vs", "greedy", "--pairs", "1", "--seed", "42"]
    assert main([*args, "--faults", str(tmp_path / "faults"), "--no-progress"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    line = err[0]
    assert line.startswith(f"handfoot: fault: agent '{name}' returned the illegal action "), line
    assert "at classic with 2 players, seed 42, step 137" in line and f"the team on side {side}" in line, line
    path = line.rsplit("the game so far: ", 1)[1]
    record = load_record(path)
    assert (record["seed"], len(record["actions"])) == (42, 137)
    game = replay(record)  # every action legal, and the game not over
    action = int(line.split("the illegal action ")[1].split()[0])
    assert not game.is_over and not game.legal_mask()[action]
    assert np.array_equal(observe(game, game.current), np.load(tmp_path / "trap.npy"))


def test_a_fault_carries_its_game_and_the_lab_own_agents_keep_no_history(tmp_path):
    rules = Rules.preset("classic")
    name, side = trap_agent(tmp_path, rules, seed=7, step=60)
    with pytest.raises(MatchFault) as caught:
        play_match(rules, make_agent(name), make_agent("greedy"), 3, seed=5, progress=False, faults=tmp_path / "f")
    fault = caught.value
    assert (fault.seed, fault.step, fault.team_side, fault.fault.kind) == (7, 60, side, "illegal")
    assert len(fault.actions) == 60 and fault.record.endswith("seed7_step60.json")
    # A copy travels through pickling (Ray) whole.
    import pickle

    copy = pickle.loads(pickle.dumps(fault))
    assert str(copy) == str(fault) and copy.actions == fault.actions and copy.fault.row == fault.fault.row


def test_a_rating_against_anchors_expects_the_points_scored():
    anchors = {"a": 1400.0, "b": 1600.0}
    assert rating_against(anchors, {"a": (50, 100), "b": (50, 100)}) == pytest.approx(1500, abs=0.01)
    assert rating_against(anchors, {"a": (76, 100), "b": (24, 100)}) == pytest.approx(1500, abs=0.01)
    assert rating_against(anchors, {"a": (100, 100), "b": (100, 100)}) > 2000  # perfect: high, finite
