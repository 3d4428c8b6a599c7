"""The evaluation harness: duplicate deals, intervals, JSON, round robin and ratings."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents import make_agent
from agents.evaluation.matches import match_chunks, match_result, play_chunk, play_games, play_match, team_outcomes
from agents.evaluation.ratings import bradley_terry, crosstable_markdown, round_robin
from handfoot_env import Rules
from handfoot_env.seating.rewards import game_points
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
    assert result.mean_actions > 100


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


# ---------------------------------------------------------------------------- by hand
@pytest.mark.parametrize("players", [2, 3])
def test_every_seed_is_played_once_with_the_team_on_every_side(players):
    rules = Rules.preset("classic", num_players=players)
    chunks = match_chunks(rules, deals=7, seed=40, batch=4)
    seeds = np.concatenate([c.seeds for c in chunks])
    sides = np.concatenate([c.sides for c in chunks])
    assert [c.lo for c in chunks] == list(range(0, 7 * players, 4))
    # duplicate set k: seed 40 + k, the team on side 0, 1, ... in turn (match_result reads them so)
    assert seeds.tolist() == [40 + k for k in range(7) for _ in range(players)]
    assert sides.tolist() == list(range(players)) * 7
    assert len({c.agent_seed for c in chunks}) == len(chunks)


def test_the_team_plays_the_seats_of_its_side_on_the_same_cards():
    """Each game of a duplicate set, replayed on the reference engine with the team's agent in
    the seats of the side the chunk names and the other agent everywhere else, ends with the
    same totals (so the sides really rotate over the same deal)."""
    from handfoot_env.reference import Game
    from handfoot_env.reference.observe import observe

    rules = Rules.preset("classic", num_players=3, num_deals=1)
    team, vs = make_agent("greedy", rules=rules), make_agent("heuristic", rules=rules)
    (chunk,) = match_chunks(rules, deals=2, seed=11)
    outcomes, totals = play_chunk(rules, chunk, team, vs)
    for seed, side, found in zip(chunk.seeds, chunk.sides, totals):
        game = Game(rules, int(seed))
        while not game.is_over:
            agent = team if rules.owner_of(game.current) == side else vs
            mask = game.legal_mask()
            game.step(int(agent.act(observe(game, game.current)[None], mask[None])[0]))
        assert list(game.totals) == found.tolist(), (seed, side)
    expected, _ = team_outcomes(totals, chunk.sides)
    assert outcomes[:, 0].tolist() == expected.tolist()
    assert len({tuple(t) for t in totals}) > 1  # the seats' agents mattered: not one game six times


def test_the_draw_rule_and_the_score_difference_on_hand_made_totals():
    totals = np.array([[5000, 4000], [3000, 3000], [1000, 2000], [5000, 5000], [5000, 4000]])
    totals3 = np.array([[5000, 5000, 100], [5000, 5000, 100], [4000, 4000, 6000], [900, 800, 700]])
    outcome, diff = team_outcomes(totals, np.array([0, 1, 0, 0, 1]))
    assert outcome.tolist() == [1.0, 0.5, 0.0, 0.5, 0.0]
    assert diff.tolist() == [1000.0, 0.0, -1000.0, 0.0, -1000.0]
    outcome, diff = team_outcomes(totals3, np.array([0, 2, 0, 1]))
    # tied for the highest: a draw; below two sides tied above it: lost
    assert outcome.tolist() == [0.5, 0.0, 0.0, 0.0]
    assert diff.tolist() == [5000 - 2550, 100 - 5000, 4000 - 5000, 800 - 800]
    assert game_points(totals3, np.array([0, 2, 0, 1])).tolist() == outcome.tolist()  # the win-probability's too


def test_a_match_result_from_hand_made_games():
    """Three duplicate sets of two games: outcomes 1 0 | 0.5 0.5 | 1 1, score differences
    100 -100 | 0 0 | 300 500.  The win rate's interval is Wilson's on the games (4 points in 6,
    z = 1.96: centre (p + z^2/2n) / (1 + z^2/n) = 0.60161, half-width
    z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n) = 0.30162), so it never collapses at 0% or 100%.
    The score difference's is over the sets (per set 0, 0, 400: mean 133.3, sample spread 230.9,
    mean +- 1.96 spread / sqrt(3))."""
    rules = Rules.preset("classic")
    games = np.array([[1, 100, 10], [0, -100, 20], [0.5, 0, 30], [0.5, 0, 40], [1, 300, 50], [1, 500, 60]])
    result = match_result(rules, "a", "b", 3, games, seconds=2.0)
    assert (result.games, result.wins, result.draws, result.losses) == (6, 3, 2, 1)
    assert result.win_rate == pytest.approx(4 / 6)
    assert result.ci95 == pytest.approx([0.29999, 0.90323], abs=1e-4)
    assert result.score_diff == pytest.approx(800 / 6)
    assert result.score_diff_ci95 == pytest.approx([133.333 - 261.333, 133.333 + 261.333], abs=1e-2)
    assert result.mean_actions == 35 and result.steps_per_sec == 105
    # 5 points in 6 games; a perfect record's interval stays below 1 at its low end
    sure = np.array([[1, 0, 1], [1, 0, 1], [1, 0, 1], [1, 0, 1], [1, 0, 1], [0, 0, 1]], dtype=float)
    assert match_result(rules, "a", "b", 3, sure, 1.0).ci95 == pytest.approx([0.43649, 0.96995], abs=1e-4)
    perfect = np.array([[1, 0, 1]] * 6, dtype=float)
    assert match_result(rules, "a", "b", 3, perfect, 1.0).ci95 == pytest.approx([0.60966, 1.0], abs=1e-4)
    # three sides: sets of three games, 3.5 points in 6
    three = Rules.preset("classic", num_players=3)
    games3 = np.array([[1, 0, 1], [0, 0, 1], [0, 0, 1], [1, 0, 1], [1, 0, 1], [0.5, 0, 1]], dtype=float)
    assert match_result(three, "a", "b", 2, games3, 1.0).ci95 == pytest.approx([0.24107, 0.86054], abs=1e-4)


def test_one_duplicate_set_has_no_spread_in_its_score_but_its_rate_has_an_interval():
    result = match_result(Rules.preset("classic"), "a", "b", 1, np.array([[1, 50, 1], [0.5, 30, 1]], dtype=float), 1)
    assert result.score_diff_ci95 == [40.0, 40.0]
    assert result.ci95 == pytest.approx([0.19786, 0.97332], abs=1e-4)  # Wilson: 1.5 points in 2 games


def test_ctrl_c_keeps_the_games_forfeited_before_it(tmp_path):
    """With --keep-going, Ctrl-C in the middle of a chunk keeps what that chunk's forfeits left:
    the broken game's record in the faults folder."""
    from agents.evaluation.matches import MatchInterrupted
    from agents.foreign import AgentFault

    class BreaksThenInterrupted:
        name = "breaks"

        def __init__(self):
            self.inner, self.calls = make_agent("greedy"), 0

        def act(self, observations, masks):
            self.calls += 1
            if self.calls == 3:
                fault = AgentFault(self.name, "raised", "raised RuntimeError: a bug", row=0)
                fault.guard = self  # raised by the team's agent
                raise fault
            if self.calls == 40:
                raise KeyboardInterrupt
            return self.inner.act(observations, masks)

    rules = Rules.preset("classic", num_players=2, num_deals=1)
    faults = tmp_path / "faults"
    with pytest.raises(MatchInterrupted) as stop:
        play_match(
            rules, BreaksThenInterrupted(), make_agent("random"), 4, progress=False, faults=faults, keep_going=True
        )
    assert stop.value.planned == 4
    [record] = faults.glob("*.json")
    assert record.name.startswith("fault_breaks_classic2_seed0_")  # the broken game, where it broke
