"""Rollout evaluation (``agents.evaluation.rollouts``): candidates played out to the end of the deal on redeals."""

from __future__ import annotations

import numpy as np

from agents.evaluation.rollouts import RolloutEvaluator
from handfoot_env import actions as A
from handfoot_env.cards import parse_kind as kind
from handfoot_env.reference.scenario import load_scenario
from handfoot_env.rules import Rules
from handfoot_env.seating.rewards import DEAL_REWARD_SCALE, WinProbability
from handfoot_env.vector import VectorEngine
from handfoot_env.vector.sampling import random_legal_actions

# Seat 0, on its foot with its books, goes out by discarding its last card.  The stock is
# empty and its own foot is picked up, so every card it cannot see is in the other seat's hand
# or foot: whatever the redeal, that seat holds them all when the deal ends.
GOING_OUT = """
preset: classic
phase: play
seats:
  - {hand: '5', on_foot: true}
  - {hand: random 11, foot: random 11}
tables:
  - {groups: [K K K K K K K, Q Q Q Q Q 2 Jk]}
  - {groups: [9 9 9]}
stock: []
"""


def test_a_candidate_that_goes_out_is_worth_the_deal_the_reference_scores():
    game = load_scenario(GOING_OUT)
    engine = VectorEngine(game.rules, batch_size=1, auto_reset=False)
    engine.load_position(0, game)
    go_out = A.discard(kind("5"))
    values = RolloutEvaluator(game.rules, batch=4).values(engine, np.array([0]), np.array([[go_out, -1]]), 3, seed=1)

    game.step(go_out)  # the reference plays the same move and scores the deal
    mine, theirs = game.deal_results[0].scores
    assert values.shape == (1, 2, 3)
    assert np.isnan(values[0, 1]).all()  # -1: no candidate
    assert values[0, 0].tolist() == [(mine - theirs) / DEAL_REWARD_SCALE] * 3


def mid_game(batch: int = 4, steps: int = 25) -> VectorEngine:
    engine = VectorEngine(Rules.preset("classic"), batch_size=batch, seed=0, auto_reset=False)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        engine.step(random_legal_actions(engine.legal_mask(), rng))
    return engine


def test_values_do_not_depend_on_the_batch_and_leave_the_source_alone():
    source = mid_game()
    before = source.states.tobytes()
    rows = np.array([0, 2, 3])
    candidates = np.full((3, 4), -1, dtype=np.int64)
    for i, row in enumerate(rows):
        legal = np.flatnonzero(source.legal_mask()[row])[:3]
        candidates[i, : len(legal)] = legal
    candidates[:, 3] = candidates[:, 0]  # the same move twice: the same redeals, the same values
    small = RolloutEvaluator(source.rules, batch=5).values(source, rows, candidates, 2, seed=7)
    large = RolloutEvaluator(source.rules, batch=64).values(source, rows, candidates, 2, seed=7)
    rng = np.random.default_rng(0)
    shapes = [(WinProbability.FEATURES, 16), (16,), (16, 1), (1,)]
    model = WinProbability(source.rules, [rng.normal(size=shape) for shape in shapes])
    chances = [
        RolloutEvaluator(source.rules, batch=batch, win_prob=model).values(source, rows, candidates, 2, seed=7)
        for batch in (1, 5, 64)
    ]

    assert source.states.tobytes() == before
    np.testing.assert_array_equal(small, large)  # 5 rollouts a batch or all at once
    np.testing.assert_array_equal(chances[0], chances[1])  # to the last bit, whatever ends together
    np.testing.assert_array_equal(chances[0], chances[2])
    np.testing.assert_array_equal(small[:, 3], small[:, 0])
    assert np.isfinite(small[:, :3]).sum() == 2 * (candidates[:, :3] >= 0).sum()


def test_with_a_win_probability_model_a_candidate_is_worth_the_chance_after_the_deal():
    game = load_scenario(GOING_OUT)
    engine = VectorEngine(game.rules, batch_size=1, auto_reset=False)
    engine.load_position(0, game)
    go_out = A.discard(kind("5"))
    rng = np.random.default_rng(0)
    shapes = [(WinProbability.FEATURES, 16), (16,), (16, 1), (1,)]
    model = WinProbability(game.rules, [rng.normal(size=shape) for shape in shapes])
    values = RolloutEvaluator(game.rules, batch=2, win_prob=model).values(
        engine, np.array([0]), np.array([[go_out]]), 2, seed=1
    )

    game.step(go_out)
    totals = np.array([game.deal_results[0].scores], dtype=np.int64)  # the first deal: totals were 0
    expected = model(totals, np.array([0]), np.array([1]))[0]  # one deal played, the game goes on
    assert game.rules.num_deals > 1
    np.testing.assert_allclose(values[0, 0], [expected, expected])
    # the deals played matter to the model: counting none or two would give another value
    assert model(totals, np.array([0]), np.array([0]))[0] != expected != model(totals, np.array([0]), np.array([2]))[0]


def test_with_a_win_probability_model_the_last_deal_is_worth_the_game_result():
    rules = Rules.preset("classic").replace(num_deals=1)
    game = load_scenario(GOING_OUT.replace("preset: classic", "preset: classic\nrules: {num_deals: 1}"))
    assert game.rules == rules
    engine = VectorEngine(rules, batch_size=1, auto_reset=False)
    engine.load_position(0, game)
    model = WinProbability(
        rules, [np.zeros((WinProbability.FEATURES, 16)), np.zeros(16), np.zeros((16, 1)), np.zeros(1)]
    )
    go_out = A.discard(kind("5"))
    values = RolloutEvaluator(rules, batch=2, win_prob=model).values(engine, np.array([0]), np.array([[go_out]]), 2, 1)

    game.step(go_out)
    mine, theirs = game.deal_results[0].scores
    assert mine > theirs
    assert values[0, 0].tolist() == [1.0, 1.0]  # the game's result, not the model's 0.5
