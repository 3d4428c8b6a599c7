"""The compiled baselines decide exactly as the readable Python ones, action for action."""

from __future__ import annotations

import numpy as np
import pytest

from handfoot_env.baselines.compiled.heuristic import CompiledGreedy, CompiledHeuristic
from handfoot_env.baselines.greedy import GreedyAgent
from handfoot_env.baselines.heuristic import HeuristicAgent
from handfoot_env.baselines.heuristic_params import OFF, PARAMS, params_array
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine
from handfoot_env.vector.sampling import random_legal_actions
from handfoot_lab.fuzz import VARIATION_CONFIGS

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
    choices = set()  # positions with more than one legal action (where the two could differ), hashed
    chosen = set()  # the actions the heuristic chose
    for _ in range(steps):
        masks = engine.legal_mask()
        observations = engine.observe()
        expected = python.act(observations, masks)
        got = compiled.act(observations, masks)
        different = np.flatnonzero(expected != got)
        assert len(different) == 0, (
            f"game {different[0]}: python {expected[different[0]]}, compiled {got[different[0]]}"
        )
        assert np.array_equal(greedy_py.act(observations, masks), greedy_c.act(observations, masks))
        choices.update(hash(row.tobytes()) for row in observations[masks.sum(axis=1) > 1])
        chosen.update(got.tolist())
        # Mostly the heuristic's own play (so its late-game lines are reached), some greedy and random.
        roll = rng.random(len(masks))
        actions = np.where(
            roll < 0.75, got, np.where(roll < 0.9, greedy_c.act(observations, masks), random_legal_actions(masks, rng))
        )
        engine.step(actions)
    # Compared where it mattered: tens of thousands of different positions with a real choice,
    # and the heuristic's choices spread over draws, takes, melds of many ranks and discards.
    assert len(choices) >= 60_000 and len(chosen) >= 60, (len(choices), len(chosen))


def random_variants(count: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Heuristic variants drawn over each number's search range, thresholds sometimes OFF."""
    variants = []
    for _ in range(count):
        values = {}
        for name, p in PARAMS.items():
            value = rng.uniform(p.low, p.high) if p.high > p.low else p.default
            if p.whole:
                value = float(round(value))
            if p.default == OFF and rng.random() < 0.3:
                value = OFF
            if name.startswith("pair_"):  # the pair model's weights are fitted, not searched: draw some
                value = rng.normal(0, 1.5)
            values[name] = value
        variants.append(params_array(values))
    return variants


@pytest.mark.parametrize("preset,players", [("classic", 2), ("partnership", 4), ("house", 4)])
def test_compiled_heuristic_variants_make_the_python_variants_decisions(preset, players):
    """Every number of ``heuristic_params`` means the same in both versions: random variants
    (each game seat played by one of them) agree action for action."""
    rules = Rules.preset(preset, num_players=players)
    rng = np.random.default_rng(7)
    variants = random_variants(4, rng) + [
        params_array(
            {
                "wild_pairs": 0,
                "wilds_first": 1,
                "hold_pairs_pile": 4,
                "new_group_min": 4,
                "extra_protected": 2,
                "protect_always": 1,
                "late_out_near": 1,
                "rush_out_near": 1,
                "keep_wilds": 1,
            }
        )
    ]
    engine = VectorEngine(rules, batch_size=40, seed=11)
    pairs = [(HeuristicAgent(rules, v), CompiledHeuristic(rules, v)) for v in variants]
    for step in range(1500):
        masks = engine.legal_mask()
        observations = engine.observe()
        python, compiled = pairs[step % len(pairs)]
        expected = python.act(observations, masks)
        got = compiled.act(observations, masks)
        different = np.flatnonzero(expected != got)
        assert len(different) == 0, (
            f"variant {step % len(pairs)}, game {different[0]}: python "
            f"{expected[different[0]]}, compiled {got[different[0]]}"
        )
        roll = rng.random(len(masks))
        engine.step(np.where(roll < 0.9, got, random_legal_actions(masks, rng)))


@pytest.mark.parametrize("preset,overrides", VARIATION_CONFIGS, ids=lambda v: v if isinstance(v, str) else "-".join(v))
def test_compiled_baselines_decide_as_the_python_ones_in_every_variation(preset, overrides):
    """The variations' actions (wild books, black threes, the three takes, asking and answering
    "may I go out?"): both heuristics and both greedies agree, and choose only legal actions."""
    rules = Rules.preset(preset, **overrides)
    engine = VectorEngine(rules, batch_size=16, seed=29)
    python, compiled = HeuristicAgent(rules), CompiledHeuristic(rules)
    greedy_py, greedy_c = GreedyAgent(), CompiledGreedy()
    rng = np.random.default_rng(29)
    for _ in range(700):
        masks = engine.legal_mask()
        observations = engine.observe()
        got = compiled.act(observations, masks)
        assert np.array_equal(python.act(observations, masks), got)
        greedy = greedy_c.act(observations, masks)
        assert np.array_equal(greedy_py.act(observations, masks), greedy)
        assert masks[np.arange(len(masks)), got].all() and masks[np.arange(len(masks)), greedy].all()
        roll = rng.random(len(masks))
        engine.step(np.where(roll < 0.7, got, np.where(roll < 0.85, greedy, random_legal_actions(masks, rng))))
