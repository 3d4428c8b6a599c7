"""The heuristic search: its points mean what the table says, it is reproducible, and what
it saves plays as ``tuned:FILE`` everywhere an agent name is taken."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from agents import make_agent
from handfoot_env.baselines.heuristic_params import DEFAULT_PARAMS, OFF, PARAMS, params_dict, save_params
from handfoot_env.rules import Rules
from handfoot_lab.cli import main
from train.tune import SEARCHED, TuneConfig, searched, to_params, tune

TINY = TuneConfig(generations=2, population=4, elite=2, pairs=6, seed=3, final_pairs=6)


def test_the_search_moves_only_numbers_with_a_range_and_rounds_counts():
    assert all(PARAMS[n].high > PARAMS[n].low for n in SEARCHED)
    assert "black_three_score" not in SEARCHED  # a fixed number stays the default
    point = np.array([PARAMS[n].low for n in SEARCHED], dtype=float) + 0.4
    params = params_dict(to_params(point))
    assert params["extra_protected"] == 0.0  # counts and switches are rounded
    assert params["black_three_score"] == PARAMS["black_three_score"].default
    top = params_dict(to_params(np.array([PARAMS[n].high for n in SEARCHED], dtype=float)))
    assert top["block_pile_size"] == OFF and top["wild_stock"] == OFF  # a threshold at the top of its range is off
    assert "danger_weight" in searched(pair_model=True) and "danger_weight" not in searched(pair_model=False)


def test_tuning_is_reproducible_and_judged_on_fresh_deals():
    rules = Rules.preset("partnership", num_deals=1)
    first, second = tune(rules, TINY), tune(rules, TINY)
    assert np.array_equal(first.params, second.params)
    assert first.final.to_dict() | {"steps_per_sec": 0} == second.final.to_dict() | {"steps_per_sec": 0}
    assert first.final.games == TINY.final_pairs * rules.num_owners and first.final.vs == "heuristic"
    assert len(first.history) == TINY.generations
    for name, value in params_dict(first.params).items():
        p = PARAMS[name]
        assert value == p.default or p.low <= value <= p.high or value == OFF
    other = tune(rules, TuneConfig(**{**TINY.__dict__, "seed": 4}))
    assert not np.array_equal(first.params, other.params)


def test_the_fitness_ranks_by_win_rate_or_by_score_difference():
    from agents.evaluation.matches import MatchResult
    from train.tune import fitness

    def result(win_rate, score_diff):
        return MatchResult("a", "b", "classic", 2, 100, 0, 0, 0, win_rate, [0, 1], score_diff, [0, 0], 0, 0)

    often, big = result(0.62, 300.0), result(0.58, 700.0)
    assert fitness(often, "win_rate") > fitness(big, "win_rate")
    assert fitness(big, "score_diff") > fitness(often, "score_diff")
    assert fitness(result(0.6, 10.0)) > fitness(result(0.6, 5.0))  # a tie in win rate goes to the bigger margin

    # A match stub where the variants that win more often win by less: the ranking decides
    # which way the search moves (here along pair_bonus, with one elite).
    bonus = list(PARAMS).index("pair_bonus")

    def play(rules, variants, deals, seed):
        return [result(v[bonus] / 100, -v[bonus]) for v in variants]

    config = TuneConfig(generations=1, population=8, elite=1, pairs=1, final_pairs=1, seed=1)
    rules = Rules.preset("partnership")
    by_win = tune(rules, config, play=play)
    by_score = tune(rules, TuneConfig(**{**config.__dict__, "fitness": "score_diff"}), play=play)
    default = PARAMS["pair_bonus"].default
    assert by_win.params[bonus] > default > by_score.params[bonus]
    assert {"mean_win_rate", "best_win_rate", "mean_score_diff", "best_score_diff"} <= set(by_win.history[0])


def test_validation_keeps_the_best_of_the_last_means_on_its_own_deals():
    from agents.evaluation.matches import MatchResult

    bonus = list(PARAMS).index("pair_bonus")
    validated, seeds = [], []

    def result(win_rate):
        return MatchResult("a", "b", "partnership", 4, 100, 0, 0, 0, win_rate, [0, 1], 0.0, [0, 0], 0, 0)

    def play(rules, variants, deals, seed):
        seeds.append(seed)
        if deals == 7:  # the validation: here a low pair bonus wins, where the search pushed it up
            validated.extend(v[bonus] for v in variants)
            return [result(1 - v[bonus] / 100) for v in variants]
        return [result(v[bonus] / 100) for v in variants]

    config = TuneConfig(
        generations=4, population=6, elite=2, pairs=3, final_pairs=5, seed=2, validate_generations=2, validate_pairs=7
    )
    found = tune(Rules.preset("partnership"), config, play=play)
    assert len(validated) == 3 and len(found.validation) == 3  # the means after generations 2 and 3, and the final one
    assert [row["after_generation"] for row in found.validation] == [2, 3, 4]
    assert found.params[bonus] == min(validated) and sum(row["kept"] for row in found.validation) == 1
    assert len(set(seeds)) == len(seeds)  # generations, validation and the judgement each play their own deals
    plain = tune(Rules.preset("partnership"), TuneConfig(**{**config.__dict__, "validate_generations": 0}), play=play)
    assert plain.validation == [] and plain.params[bonus] == validated[-1]  # without it, the final mean


def test_a_bad_search_config_is_refused():
    with pytest.raises(ValueError, match="fitness"):
        tune(Rules.preset("classic"), TuneConfig(fitness="elo"))
    with pytest.raises(ValueError, match="elite"):
        tune(Rules.preset("classic"), TuneConfig(population=2, elite=3))
    with pytest.raises(ValueError, match="pairs"):
        tune(Rules.preset("classic"), TuneConfig(pairs=0))
    with pytest.raises(ValueError, match="validate_generations"):
        tune(Rules.preset("classic"), TuneConfig(generations=2, validate_generations=3))


def test_tune_cli_saves_a_variant_that_eval_plays(tmp_path, capsys):
    out = tmp_path / "tuned.json"
    assert (
        main(
            [
                "tune",
                "--preset",
                "classic",
                "--deals",
                "1",
                "--generations",
                "1",
                "--population",
                "2",
                "--elite",
                "1",
                "--pairs",
                "3",
                "--final-pairs",
                "3",
                "--pair-positions",
                "500",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "vs heuristic" in printed and f"tuned:{out}" in printed
    assert (
        main(
            [
                "eval",
                "--preset",
                "classic",
                "--deals",
                "1",
                "--team",
                f"tuned:{out}",
                "--vs",
                "heuristic",
                "--pairs",
                "3",
                "--json",
                "--no-progress",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["games"] == 6


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--elite", "5", "--population", "2"], "elite"),
        (["--out", "/no/such/folder/t.json"], "does not exist"),
        (["--pairs", "0"], "pairs"),
        (["--pair-positions", "-1"], "pair_positions"),
        (["--fitness", "elo"], "invalid choice"),
        (["--validate-generations", "2"], "validate_generations"),
        (["--validate-generations", "1", "--validate-pairs", "0"], "validate_pairs"),
    ],
)
def test_tune_cli_bad_input_is_one_line_and_status_2(argv, message, capsys):
    assert main(["tune", "--preset", "classic", "--generations", "1"] + argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_tuned_agent_outside_its_preset_says_so(tmp_path):
    save_params(tmp_path / "v.json", DEFAULT_PARAMS, preset="partnership", players=4)
    with pytest.warns(UserWarning, match="tuned on partnership with 4 players and plays classic with 2"):
        make_agent(f"tuned:{tmp_path / 'v.json'}", rules=Rules.preset("classic"))
    with pytest.raises(ValueError, match="no tuned heuristic"):
        make_agent(f"tuned:{tmp_path / 'missing.json'}", rules=Rules.preset("classic"))


def test_tune_works_on_a_variation_and_its_file_names_the_rules(tmp_path, capsys):
    """``handfoot tune --rule ...``: the search plays the variation, the file records its rules,
    and the variant played under other rules of the same preset says so."""
    out = tmp_path / "tuned.json"
    argv = ["tune", "--preset", "partnership", "--deals", "1", "--rule", "permission_to_go_out=true"]
    argv += ["--rule", "wild_books=true", "--generations", "1", "--population", "2", "--elite", "1"]
    assert main(argv + ["--pairs", "1", "--final-pairs", "1", "--pair-positions", "0", "--out", str(out)]) == 0
    saved = json.loads(out.read_text())["rules"]
    assert saved["permission_to_go_out"] is True and saved["wild_books"] is True
    variation = Rules.preset("partnership", num_deals=1, permission_to_go_out=True, wild_books=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make_agent(f"tuned:{out}", rules=variation)  # its own rules: no warning
    with pytest.warns(UserWarning, match="tuned on other rules of partnership .*permission_to_go_out, wild_books"):
        make_agent(f"tuned:{out}", rules=Rules.preset("partnership", num_deals=1))
