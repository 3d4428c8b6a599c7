"""The win-probability model behind reward_mode win_prob: calibrated on games it never saw, its
chance at a position pinned to one counted from the games themselves, and one convention for
a position (the totals at a deal's start, the deals played before it) in the fit, the reward
and the play-outs."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pytest

import train.win_prob
from handfoot_env.baselines import make_baseline
from handfoot_env.rules import Rules
from handfoot_env.seating.learner import LearnerGames
from handfoot_env.seating.rewards import WinProbability, next_deal_start
from handfoot_env.vector import VectorEngine
from train.win_prob import calibration, fit_win_prob

RULES = Rules.preset("classic", num_players=2, num_deals=2)


class WatchedEngine(VectorEngine):
    """The fit's engine, watched: each game's totals when its first deal ended."""

    made: ClassVar[list[WatchedEngine]] = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.after_first_deal: dict[int, np.ndarray] = {}
        WatchedEngine.made.append(self)

    def step(self, actions, active=None):
        outcome = super().step(actions, active)
        for b in np.flatnonzero(outcome.deal_over & ~outcome.game_over):
            self.after_first_deal.setdefault(int(b), self.totals[b].copy())
        return outcome


@pytest.fixture(scope="module")
def fitted():
    """A fit on 1,500 two-deal games, and the second deal's margins (each side's score less the
    other's) in those games, read from the engine."""
    WatchedEngine.made = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(train.win_prob, "VectorEngine", WatchedEngine)
        model, report = fit_win_prob(RULES, games=1500, seed=3)
    second_deal = []
    for engine in WatchedEngine.made:
        for b, first in engine.after_first_deal.items():
            scores = engine.final_totals[b] - first
            second_deal += [scores[0] - scores[1], scores[1] - scores[0]]
    assert len(second_deal) == 2 * 1500
    return model, report, np.array(second_deal)


def test_the_fitted_chances_are_calibrated_on_held_out_games(fitted):
    model, report, _ = fitted
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


@pytest.mark.parametrize("lead", [500, 1000, 1500])
def test_the_chance_with_one_deal_left_is_how_often_the_last_deal_loses_by_less_than_the_lead(fitted, lead):
    """At the start of the second and last deal (one deal played), a side leading by ``lead``
    wins when the last deal's margin is above -lead (half on a tie): counted over the fit's
    own games, that is 0.68 / 0.85 / 0.96.  A fit that recorded its positions with one deal
    fewer played puts 0.77 / 0.96 / 0.99 there."""
    model, _, second_deal = fitted
    counted = float(np.mean(lead + second_deal > 0) + 0.5 * np.mean(lead + second_deal == 0))
    chance = model(np.array([[lead, 0]]), np.array([0]), np.array([1]))[0]
    assert chance == pytest.approx(counted, abs=0.04)


def test_calibration_bins_count_every_prediction_once():
    predicted = np.array([0.05, 0.15, 0.15, 0.95, 1.0])
    outcome = np.array([0.0, 1.0, 0.0, 1.0, 1.0])
    bins = calibration(predicted, outcome)
    assert [b["count"] for b in bins] == [1, 2, 2]
    assert bins[1]["observed"] == 0.5 and bins[2]["predicted"] == 0.975


def random_model(rules: Rules, seed: int = 0) -> WinProbability:
    rng = np.random.default_rng(seed)
    shapes = [(WinProbability.FEATURES, 8), (8,), (8, 1), (1,)]
    return WinProbability(rules, [rng.normal(size=shape) for shape in shapes])


def test_a_deal_leads_to_the_totals_after_it_with_one_more_deal_played():
    totals, played = next_deal_start(np.array([[1200, -300]]), np.array([[450, 900]]), np.array([2]))
    assert totals.tolist() == [[1650, 600]] and played.tolist() == [3]
    model = random_model(RULES)
    sides = np.array([0, 1])
    before, scores = np.array([[100, 0], [100, 0]]), np.array([[300, 500], [300, 500]])
    going_on = model.after_deal(before, scores, sides, np.array([0, 0]), np.array([False, False]))
    assert going_on.tolist() == model(np.array([[400, 500], [400, 500]]), sides, np.array([1, 1])).tolist()
    over = model.after_deal(before, scores, sides, np.array([1, 1]), np.array([True, True]))
    assert over.tolist() == [0.0, 1.0]  # 400 against 500: side 1 won


def test_the_first_deals_reward_is_the_chance_after_it_less_the_chance_at_the_start():
    """reward_mode win_prob, a two-deal game: the reward as the first deal ends is
    P(totals after it, 1 deal played) - P(0 and 0, no deal played), for the learner's side."""
    model = random_model(RULES, seed=1)
    games = LearnerGames(
        RULES, 8, [make_baseline("greedy", rules=RULES)], seed=2, reward_mode="win_prob", win_prob=model
    )
    sides = games.learner_side.copy()
    at_start = model(np.zeros((8, 2)), sides, np.zeros(8))
    rng = np.random.default_rng(0)
    paid = np.full(8, np.nan)
    while np.isnan(paid).any():
        masks = games.action_masks()
        _, rewards, dones, _ = games.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        first = games.deal_ended & np.isnan(paid)
        assert not (dones & first).any()  # two deals: the first never ends the game
        expected = model(games.engine.totals, sides, np.ones(8)) - at_start
        np.testing.assert_allclose(rewards[first], expected[first], rtol=1e-5, atol=1e-6)
        paid[first] = rewards[first]


def test_a_fresh_run_fits_for_its_own_rules_and_a_resumed_run_keeps_its_model(fitted, tmp_path, monkeypatch):
    """A run folder's win_prob.json is the reward a resumed run started with; a fresh run of the
    same name (here on another table) fits, or takes the cached fit, for its own rules."""
    from pathlib import Path

    from train.config import load_config
    from train.loop import win_probability
    from train.run import read_json, write_json

    model, _, _ = fitted  # classic, 2 players, 2 deals
    config = load_config(Path(__file__).resolve().parents[2] / "configs" / "quick.yaml", ["env.reward_mode=win_prob"])
    rules = config.make_rules()  # partnership
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # the fit's cache
    fits = []
    monkeypatch.setattr(
        train.win_prob,
        "fit_win_prob",
        lambda rules, *args, **kwargs: fits.append(rules) or (WinProbability(rules, model.weights), {"games": 1}),
    )
    own = tmp_path / "win_prob.json"
    write_json(own, model.to_dict())  # left by an earlier run of this name on the classic table

    resumed = win_probability(config, rules, tmp_path, say=print, resuming=True)
    assert resumed.rules.to_dict() == RULES.to_dict() and not fits
    fresh = win_probability(config, rules, tmp_path, say=print)
    assert fresh.rules.to_dict() == rules.to_dict() and len(fits) == 1
    assert WinProbability.from_dict(read_json(own, "model")).rules.to_dict() == rules.to_dict()
