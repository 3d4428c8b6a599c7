"""Rewards from deal ends and scores: one module for every shell."""

from __future__ import annotations

import numpy as np

from handfoot_env.rules import Rules
from handfoot_env.seating.rewards import margin, seat_rewards, side_rewards


def test_deal_rewards_are_the_sides_margin_over_the_others_mean():
    rules = Rules.preset("classic", num_players=3)
    scores = np.array([[600, 0, -300], [0, 0, 0]])
    rewards = seat_rewards(rules, "deal", np.array([True, False]), np.array([False, False]), scores, np.zeros((2, 3)))
    assert np.allclose(rewards[0], [(600 - (-150)) / 1000, (0 - 150) / 1000, (-300 - 300) / 1000])
    assert not rewards[1].any()  # no deal ended: nothing earned


def test_partners_share_the_reward_and_game_mode_pays_at_the_end_only():
    rules = Rules.preset("partnership")
    totals = np.array([[5000, 4000], [3000, 3000]])
    over = np.array([True, True])
    rewards = seat_rewards(rules, "game", over, over, np.zeros((2, 2)), totals)
    assert rewards[0].tolist() == [1.0, -1.0, 1.0, -1.0]
    assert rewards[1].tolist() == [0.0] * 4  # a tie for the highest total
    assert not seat_rewards(rules, "game", over, ~over, np.zeros((2, 2)), totals).any()


def test_side_rewards_and_margin_agree_with_seat_rewards():
    rules = Rules.preset("partnership")
    scores = np.array([[1200, -400]])
    over = np.array([True])
    assert side_rewards("deal", over, over, scores, scores, np.array([1]))[0] == margin(scores, np.array([1]))[0]
    assert np.isclose(margin(scores, np.array([1]))[0], -1.6)
    assert seat_rewards(rules, "deal", over, over, scores, scores)[0, 3] == np.float32(-1.6)
