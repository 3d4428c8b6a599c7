"""The win-probability model behind reward_mode win_prob: calibrated on games it never saw."""

from __future__ import annotations

import numpy as np

from handfoot_env.rules import Rules
from train.win_prob import calibration, fit_win_prob


def test_the_fitted_chances_are_calibrated_on_held_out_games():
    rules = Rules.preset("classic", num_players=2, num_deals=2)
    model, report = fit_win_prob(rules, games=1500, seed=3)
    assert report["held_out_games"] == 300
    assert report["log_loss"] < report["base_rate_log_loss"] - 0.05  # it knows something
    bins = report["calibration"]
    gap = sum(b["count"] * abs(b["predicted"] - b["observed"]) for b in bins) / sum(b["count"] for b in bins)
    assert gap < 0.05  # predicted chances match how often it happened
    # a bigger lead means a better chance, and the same lead counts more with fewer deals left
    leads = np.array([[-2000, 0], [0, 0], [2000, 0]])
    chances = model(leads, np.zeros(3, dtype=int), np.ones(3))
    assert chances[0] < chances[1] < chances[2]
    assert abs(chances[1] - 0.5) < 0.1
    earlier = model(leads[2:], np.zeros(1, dtype=int), np.zeros(1))
    assert earlier[0] < chances[2]


def test_calibration_bins_count_every_prediction_once():
    predicted = np.array([0.05, 0.15, 0.15, 0.95, 1.0])
    outcome = np.array([0.0, 1.0, 0.0, 1.0, 1.0])
    bins = calibration(predicted, outcome)
    assert [b["count"] for b in bins] == [1, 2, 2]
    assert bins[1]["observed"] == 0.5 and bins[2]["predicted"] == 0.975
