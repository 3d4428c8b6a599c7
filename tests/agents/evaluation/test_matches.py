"""The evaluation harness: duplicate deals, intervals, JSON, round robin and ratings."""

from __future__ import annotations

import json

import numpy as np

from agents import make_agent
from agents.evaluation.matches import play_games, play_match
from agents.evaluation.ratings import bradley_terry, crosstable_markdown, round_robin
from handfoot_env import Rules
from handfoot_lab.cli import main


def test_duplicate_games_deal_the_same_cards_to_both_sides():
    rules = Rules.preset("classic")
    agent = make_agent("greedy")
    # The same agent on both sides: the two games of a duplicate pair are the same game.
    totals, actions = play_games(rules, np.array([5, 5]), np.array([0, 1]), agent, agent)
    assert actions[0] == actions[1] and (totals[0] == totals[1]).all()


def test_match_counts_add_up_and_intervals_contain_the_mean():
    result = play_match(
        Rules.preset("classic", num_players=3), make_agent("greedy"), make_agent("random"), 6, progress=False
    )
    assert result.games == 18 and result.wins + result.draws + result.losses == 18
    assert result.ci95[0] <= result.win_rate <= result.ci95[1]
    assert result.score_diff_ci95[0] <= result.score_diff <= result.score_diff_ci95[1]
    assert result.mean_actions > 100 and result.steps_per_sec > 0


def test_house_matches_two_alone_and_four_in_teams():
    for players in (2, 4):
        rules = Rules.preset("house", num_players=players, num_deals=2)
        result = play_match(rules, make_agent("heuristic"), make_agent("random"), 3, progress=False)
        assert result.games == 6 and result.wins == 6  # the heuristic goes out; random holds threes
        totals, actions = play_games(
            rules, np.array([7, 7]), np.array([0, 1]), make_agent("greedy"), make_agent("greedy")
        )
        assert actions[0] == actions[1] and (totals[0] == totals[1]).all()


def test_eval_json_has_the_documented_keys(capsys):
    assert main(["eval", "--team", "greedy", "--vs", "random", "--pairs", "3", "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in (
        "games",
        "wins",
        "draws",
        "losses",
        "win_rate",
        "ci95",
        "score_diff",
        "score_diff_ci95",
        "mean_actions",
    ):
        assert key in data
    assert len(data["ci95"]) == 2 and data["games"] == 6


def test_bradley_terry_orders_by_strength():
    wins = np.array([[0, 70, 90], [30, 0, 80], [10, 20, 0]], dtype=float)
    ratings = bradley_terry(["a", "b", "c"], wins)
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert abs(np.mean(list(ratings.values())) - 1500) < 1e-6


def test_round_robin_crosstable_and_chart(tmp_path):
    rules = Rules.preset("classic")
    table = round_robin(rules, {"random": make_agent("random"), "greedy": make_agent("greedy")}, 3, progress=False)
    text = crosstable_markdown(table)
    assert "| greedy |" in text and "100.0%" in text
    chart = tmp_path / "ratings.png"
    assert main(["eval", "--round-robin", "random,greedy", "--pairs", "2", "--no-progress", "--chart", str(chart)]) == 0
    assert chart.read_bytes()[:4] == b"\x89PNG"
