"""One registry of agents by name: every kind builds from it, names are checked in one line,
and the Ray specs learn from it which file travels with a name."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from agents import AGENT_NAMES, ForeignAgent, agent_model_file, check_agent_name, is_foreign, make_agent
from agents.trained import SCRATCH_MODEL, PPOAgent, scratch_tables, shipped_model, shipped_scratch
from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.baselines import BASELINE_NAMES, make_baseline
from handfoot_env.observation import OBS_SIZE
from handfoot_env.rules import Rules

ROOT = Path(__file__).resolve().parents[2]
RANDOM_FILE = """
import numpy as np

def make(seed=0):
    rng = np.random.default_rng(seed)
    return lambda observation: int(rng.choice(np.flatnonzero(observation["action_mask"])))
"""


def mid_game_positions(rules: Rules, games: int = 48, steps: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """(observations, masks) of the player to move in games played at random for ``steps``
    moves, the rows with several legal moves."""
    from handfoot_env.vector import VectorEngine

    engine = VectorEngine(rules, batch_size=games, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(steps):
        engine.step(np.array([rng.choice(np.flatnonzero(m)) for m in engine.legal_mask()]))
    masks = engine.legal_mask().copy()
    several = masks.sum(axis=1) > 1
    return engine.observe().copy()[several], masks[several]


def test_every_name_without_an_argument_builds_the_agent_it_names_and_it_acts_legally():
    """On positions with several legal moves, each name's agent picks legal moves, the same ones
    as the agent it names built directly, and the agents do not all play alike."""
    from agents.trained import load_tuned

    rules = Rules.preset("partnership")
    assert AGENT_NAMES == (*BASELINE_NAMES, "tuned", "ppo", "scratch")
    observations, masks = mid_game_positions(rules)
    assert len(masks) >= 30
    direct = {name: make_baseline(name, seed=1, rules=rules) for name in BASELINE_NAMES}
    direct["tuned"] = load_tuned(shipped_model(rules, "tuned"), rules=rules)
    direct["ppo"] = PPOAgent.load(shipped_model(rules, "ppo"), rules=rules)
    direct["scratch"] = PPOAgent.load(SCRATCH_MODEL, rules=rules)
    choices = {}
    for name in AGENT_NAMES:
        actions = np.asarray(make_agent(name, seed=1, rules=rules).act(observations.copy(), masks.copy()))
        assert masks[np.arange(len(masks)), actions].all(), name
        assert actions.tolist() == np.asarray(direct[name].act(observations.copy(), masks.copy())).tolist(), name
        choices[name] = tuple(actions.tolist())
    # six ways of playing, but the tuned heuristic may choose as the heuristic does in these positions
    assert len({choices[name] for name in AGENT_NAMES if name != "tuned"}) == len(AGENT_NAMES) - 1
    assert all(choice != tuple(masks.argmax(axis=1).tolist()) for choice in choices.values())  # not the first legal


def test_names_are_checked_in_one_line_without_loading_anything(tmp_path):
    check_agent_name(f"ppo:{tmp_path / 'not_yet_trained.pt'}")  # made later: fine now
    check_agent_name("py:my_agent.py:make:depth=3")
    for bad, message in (
        (
            "genius",
            "unknown agent 'genius': choose one of random, greedy, heuristic, tuned[:PATH], ppo[:PATH], scratch[:PATH], py:",
        ),
        ("random:3", "random takes nothing after it"),
        ("py", "write py:FILE_OR_MODULE:FACTORY[:ARG]"),
        ("py:agent.py", "write py:FILE.py:FACTORY or py:MODULE:FACTORY"),
        ("py:agent.py:not-a-name", "write py:FILE.py:FACTORY"),
        ("cmd:", "write cmd:COMMAND"),
        ("cmd:'bot", "No closing quotation"),
        ("ppo:", "write ppo[:PATH]"),
        ("", "an agent name is needed"),
    ):
        with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("(", r"\(")):
            check_agent_name(bad)


def test_model_files_travel_with_their_names_and_py_agents_are_foreign(tmp_path):
    rules = Rules.preset("house", num_players=4)
    assert agent_model_file("ppo", rules) == shipped_model(rules, "ppo")
    assert agent_model_file("tuned", rules) == shipped_model(rules, "tuned")
    assert agent_model_file("ppo:/x/m.zip", rules).as_posix() == "/x/m.zip"
    assert agent_model_file("scratch", Rules.preset("partnership")) == SCRATCH_MODEL and SCRATCH_MODEL.exists()
    assert agent_model_file("heuristic", rules) is None and agent_model_file("py:a.py:make", rules) is None
    assert is_foreign("py:a.py:make") and is_foreign("cmd:./bot") and not any(is_foreign(n) for n in AGENT_NAMES)


def test_a_py_agent_is_built_from_a_file_behind_the_referee(tmp_path):
    (tmp_path / "mine.py").write_text(RANDOM_FILE)
    agent = make_agent(f"py:{tmp_path / 'mine.py'}:make", seed=3)
    assert isinstance(agent, ForeignAgent) and agent.name == f"py:{tmp_path / 'mine.py'}:make"
    masks = np.zeros((2, NUM_ACTIONS), dtype=bool)
    masks[0, 7] = masks[1, 9] = True
    assert list(agent.act(np.zeros((2, OBS_SIZE), np.float32), masks)) == [7, 9]


def test_the_shipped_agents_of_the_tables_need_the_rules_they_play():
    for name in ("ppo", "tuned", "scratch"):
        with pytest.raises(ValueError, match=f"agent '{name}' is the shipped agent of the table it plays: say which"):
            make_agent(name)
    classic = Rules.preset("classic")
    saved = make_agent(f"ppo:{shipped_model(classic)}")  # a file says its own table
    assert saved.rules == classic and saved.name == f"ppo:{shipped_model(classic)}"
    assert make_agent(f"tuned:{shipped_model(classic, 'tuned')}").rules == classic


def test_the_shipped_ppo_supports_its_own_tables_and_a_saved_one_only_its_own():
    rules = Rules.preset("classic")
    assert make_agent("ppo", rules=rules).supports(rules)
    saved = PPOAgent.load(shipped_model(rules), rules=rules)  # as ppo:PATH loads it
    assert saved.supports(rules) and not saved.supports(Rules.preset("partnership"))


def test_scratch_is_the_model_learned_from_scratch_for_exactly_the_table_played():
    partnership = Rules.preset("partnership")
    agent = make_agent("scratch", rules=partnership)
    assert agent.name == "scratch" and agent.supports(partnership)
    assert not agent.policy.advisor  # nothing scripted inside it
    assert agent_model_file("scratch", partnership) == SCRATCH_MODEL
    # every shipped scratch model is picked for its own table, and only for it
    for path, trained_on in scratch_tables():
        assert shipped_scratch(trained_on) == path
        assert make_agent("scratch", rules=trained_on).supports(trained_on)
    family = Rules.preset("partnership", wild_books=True, permission_to_go_out=True, take_with_natural_and_wild=True)
    assert shipped_scratch(family).name == "scratch_family.pt"
    assert shipped_scratch(Rules.preset("house", num_players=4)).name == "scratch_house.pt"
    # a table none was trained for, even one setting away: one line naming the command that trains one
    family_like = Rules.preset("partnership", num_players=6, wild_books=True)
    with pytest.raises(ValueError, match="no shipped scratch agent for this table") as refused:
        make_agent("scratch", rules=family_like)
    message = str(refused.value)
    assert "\n" not in message and "--set rules.num_players=6 --set rules.wild_books=true" in message
    # the file it names is where that command writes its model
    recipe = yaml.safe_load((ROOT / "configs" / "scratch.yaml").read_text())
    assert f"scratch:{recipe['run_dir']}/{recipe['name']}/model.pt" in message
    assert make_agent(f"scratch:{SCRATCH_MODEL}", rules=partnership).name == f"scratch:{SCRATCH_MODEL}"
