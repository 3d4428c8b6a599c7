"""The compiled baselines decide exactly as the readable Python ones, action for action."""

from __future__ import annotations

import numpy as np
import pytest

from handfoot_env.baselines.compiled import CompiledGreedy, CompiledHeuristic
from handfoot_env.baselines.greedy import GreedyAgent
from handfoot_env.baselines.heuristic import HeuristicAgent
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine
from handfoot_env.vector.sampling import random_legal_actions

CONFIGS = [("classic", 2), ("classic", 3), ("classic", 6), ("partnership", 4), ("house", 2), ("house", 4)]


@pytest.mark.parametrize("preset,players", CONFIGS)
def test_compiled_baselines_make_the_python_baselines_decisions(preset, players):
    """Games played by a mix of heuristic, greedy and random seats; at every step both
    heuristics (and both greedies) are asked for every game, and must agree."""
    rules = Rules.preset(preset, num_players=players)
    engine = VectorEngine(rules, batch_size=48, seed=players)
    python, compiled = HeuristicAgent(rules), CompiledHeuristic(rules)
    greedy_py, greedy_c = GreedyAgent(), CompiledGreedy()
    rng = np.random.default_rng(players)
    steps = 2500 if preset != "house" else 3500
    decisions = 0
    for _ in range(steps):
        masks = engine.legal_mask()
        observations = engine.observe()
        expected = python.act(observations, masks)
        got = compiled.act(observations, masks)
        different = np.flatnonzero(expected != got)
        assert len(different) == 0, (f"game {different[0]}: python {expected[different[0]]}, "
                                     f"compiled {got[different[0]]}")
        assert np.array_equal(greedy_py.act(observations, masks), greedy_c.act(observations, masks))
        decisions += len(masks)
        # Mostly the heuristic's own play (so its late-game lines are reached), some greedy and random.
        roll = rng.random(len(masks))
        actions = np.where(roll < 0.75, got, np.where(roll < 0.9, greedy_c.act(observations, masks),
                                                      random_legal_actions(masks, rng)))
        engine.step(actions)
    assert decisions >= 100_000
