"""Bradley-Terry ratings and the round robin's table, on hand-made outcomes: strengths s_i give
player i a win over j with chance s_i / (s_i + s_j), and Elo-scale ratings 400 log10 s_i."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agents.evaluation.matches import MatchResult
from agents.evaluation.ratings import bradley_terry, rating_against, round_robin
from handfoot_env.rules import Rules


def test_two_players_three_to_one():
    """75 wins to 25: strengths 3 to 1, 400 log10 3 = 190.8 points apart, around 1500."""
    ratings = bradley_terry(["a", "b"], np.array([[0, 75], [25, 0]], dtype=float))
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(3), abs=0.01)
    assert ratings["a"] + ratings["b"] == pytest.approx(3000)


def test_the_ratings_of_records_that_fit_the_model_exactly():
    """Win counts exactly as strengths 8, 4, 2, 1 expect (100 games a pair, draws as halves):
    the ratings are 400 log10 2 = 120.4 points apart, in order."""
    strengths = np.array([8.0, 4.0, 2.0, 1.0])
    wins = 100 * strengths[:, None] / (strengths[:, None] + strengths[None, :])
    np.fill_diagonal(wins, 0)
    ratings = bradley_terry(["a", "b", "c", "d"], wins)
    gaps = np.diff([ratings[n] for n in "abcd"])
    assert gaps == pytest.approx([-400 * math.log10(2)] * 3, abs=0.01)
    assert np.mean(list(ratings.values())) == pytest.approx(1500)


def test_a_player_who_never_wins_is_rated_last_and_finite():
    """c loses all 20 games: its wins count as half a game, so the iteration converges."""
    wins = np.array([[0, 6, 10], [4, 0, 10], [0, 0, 0]], dtype=float)
    ratings = bradley_terry(["a", "b", "c"], wins)
    again = bradley_terry(["a", "b", "c"], wins, iterations=1000)
    assert ratings["a"] > ratings["b"] > ratings["c"] > 0
    assert ratings == pytest.approx(again, abs=0.01)  # converged, not drifting with the iterations


def test_a_rating_against_anchors_is_where_the_model_expects_the_points_scored():
    """Against anchors 1400 and 1600, 100 games each: the rating R where
    100 / (1 + 10^((1400 - R) / 400)) + 100 / (1 + 10^((1600 - R) / 400)) equals the points."""
    anchors = {"a": 1400.0, "b": 1600.0}
    rating = rating_against(anchors, {"a": (80, 100), "b": (40, 100)})
    expected = sum(100 / (1 + 10 ** ((anchor - rating) / 400)) for anchor in anchors.values())
    assert expected == pytest.approx(120, abs=1e-6)
    assert 1500 < rating < 1600


def result(team: str, vs: str, wins: int, draws: int, losses: int) -> MatchResult:
    games = wins + draws + losses
    rate = (wins + 0.5 * draws) / games
    return MatchResult(team, vs, "classic", 2, games, wins, draws, losses, rate, [rate, rate], 0.0, [0, 0], 1.0, 1.0)


def test_the_round_robin_counts_a_draw_half_for_each_and_rates_the_table():
    """Hand-made matches (played elsewhere: ``play_matches``): a beats b 6-2 with 2 draws, a
    beats c 9-1, b and c draw all 10."""
    outcomes = {("a", "b"): result("a", "b", 6, 2, 2), ("a", "c"): result("a", "c", 9, 0, 1)}
    outcomes[("b", "c")] = result("b", "c", 0, 10, 0)
    asked = []

    def play_matches(pairs):
        asked.extend(pairs)
        return [outcomes[pair] for pair in pairs]

    table = round_robin(Rules.preset("classic"), {"a": None, "b": None, "c": None}, 5, play_matches=play_matches)
    assert asked == [("a", "b"), ("a", "c"), ("b", "c")]
    assert table["wins"] == [[0, 7, 9], [3, 0, 5], [1, 5, 0]]
    assert table["ratings"] == bradley_terry(["a", "b", "c"], np.array(table["wins"], dtype=float))
    assert table["ratings"]["a"] > table["ratings"]["b"] > table["ratings"]["c"]


def test_a_perfect_record_is_rated_as_half_a_game_less():
    """200 wins of 200 against 1400 and 1600: the rating where the model expects 199.5 points
    (finite, as :func:`bradley_terry` floors a winless record at half a game)."""
    anchors = {"a": 1400.0, "b": 1600.0}
    rating = rating_against(anchors, {"a": (100, 100), "b": (100, 100)})
    expected = sum(100 / (1 + 10 ** ((anchor - rating) / 400)) for anchor in anchors.values())
    assert expected == pytest.approx(199.5, abs=1e-6)
