"""The shipped agents: one per preset, each knowing its game; ``ppo`` and ``tuned`` pick the preset's."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from agents import make_agent
from agents.evaluation.matches import play_match
from agents.trained import SHIPPED, TableWarning, shipped_model
from handfoot_env.baselines.heuristic_params import load_params
from handfoot_env.rules import Rules


@pytest.mark.parametrize("preset, players", sorted(SHIPPED))
def test_every_shipped_agent_is_there_and_knows_its_preset(preset, players):
    rules = Rules.preset(preset, num_players=players)
    assert shipped_model(rules).exists()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # its own preset: no warning
        agent = make_agent("ppo", rules=rules)
    result = play_match(rules, agent, make_agent("random", rules=rules), deals=2, seed=5, progress=False)
    assert result.win_rate == 1.0  # far above random on its own game


@pytest.mark.parametrize("preset, players", sorted(SHIPPED))
def test_every_shipped_tuned_heuristic_is_the_one_its_agent_learned_from(preset, players):
    """``tuned`` is the variant the shipped ``ppo`` was taught and advised by (saved beside it)."""
    rules = Rules.preset(preset, num_players=players)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tuned = make_agent("tuned", rules=rules)
    assert np.array_equal(tuned.params, make_agent("ppo", rules=rules).policy.advisor_params.numpy())
    assert np.array_equal(tuned.params, load_params(shipped_model(rules, "tuned")))
    result = play_match(rules, tuned, make_agent("random", rules=rules), deals=2, seed=5, progress=False)
    assert result.win_rate == 1.0


def test_ppo_outside_its_preset_says_so():
    with pytest.warns(UserWarning, match="trained on classic with 2 players and plays classic with 3"):
        make_agent("ppo", rules=Rules.preset("classic", num_players=3))


def test_ppo_under_a_variation_of_its_table_names_the_setting():
    with pytest.warns(UserWarning, match=r"trained on other rules of partnership \(they differ in wild_books\)"):
        make_agent("ppo", rules=Rules.preset("partnership", wild_books=True))


def test_the_shipped_tuned_under_a_variation_of_its_table_names_the_setting():
    """Its file names only the preset it was tuned on: that preset's rules, so a family table
    (partnership with variations) is told it plays partnership's tuned."""
    family = Rules.preset("partnership", wild_books=True, permission_to_go_out=True)
    with pytest.warns(
        TableWarning, match=r"tuned on other rules of partnership \(they differ in permission_to_go_out, wild"
    ):
        make_agent("tuned", rules=family)


def test_the_shipped_agent_acts_legally_in_batches():
    from handfoot_env.vector import VectorEngine

    rules = Rules.preset("partnership")
    engine = VectorEngine(rules, batch_size=64, seed=3)
    agent = make_agent("ppo", rules=rules)
    for _ in range(50):
        masks = engine.legal_mask()
        actions = agent.act(engine.observe(), masks)
        assert masks[np.arange(64), actions].all()
        engine.step(actions)
