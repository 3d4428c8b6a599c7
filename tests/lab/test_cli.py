"""The command line: real output, and one clear line (no traceback) for every user error."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from handfoot_lab.cli import main

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "handfoot_lab.cli", *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_demo_prints_a_score_table(capsys):
    assert main(["demo", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "| classic | greedy vs random |" in out and "| partnership |" in out


def test_game_record_and_replay(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert main(["game", "--seed", "2", "--deals", "1", "--agents", "heuristic,greedy", "--record", str(path)]) == 0
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "seat 0: draw two from the stock" in out and "totals" in out
    assert json.loads(path.read_text())["format"] == "handfoot-record"


QUICK = ["train", "--config", "configs/quick.yaml"]
BAD_INPUTS = [
    # (arguments, what the one line must say); {tmp} is a fresh folder
    (["serve", "--port", "70000"], "--port must be from 1 to 65535"),
    (["serve", "--tables-per-client", "0"], "table limits must be positive"),
    (["rules", "--rule", "wild_books"], "write it as FIELD=VALUE"),
    (["rules", "--rule", "colour=red"], "unknown rules field 'colour'"),
    (["rules", "--rule", "wild_books=maybe"], "must be true or false"),
    (["fuzz", "--preset", "classic", "--rule", "permission_to_go_out=true"], "needs partnerships=True"),
    (["play", "--preset", "classic", "--rule", "permission_to_go_out=true"], "needs partnerships=True"),
    (["eval", "--round-robin", "random,greedy", "--records", "{tmp}/r"], "--records saves the games of one match"),
    (["serve", "--host", "203.0.113.9"], "cannot listen on 203.0.113.9"),
    (QUICK + ["--set", "network.arch=[64"], "--set network.arch: the value '[64' is not valid YAML"),
    (QUICK + ["--set", "run_dir=/proc/x", "--set", "total_timesteps=64"], "cannot create the run folder /proc/x"),
    (QUICK + ["--set", "seed=-1"], "config key 'seed': must be a whole number from 0 to"),
    (QUICK + ["--set", "env.shaping=-5"], "config key 'env.shaping'"),
    (QUICK + ["--set", "ppo.anchor_coef=1", "--set", "imitation.decisions=0"], "config key 'ppo.anchor_coef'"),
    (QUICK + ["--set", "tune_generations=2"], "moved in handfoot 0.5: write it as tune: {generations: ...}"),
    (QUICK + ["--set", "name=../../x"], "config key 'name'"),
    (["train", "--config", "{tmp}/dup.yaml"], "the key 'name' is written twice"),
    (["eval", "--round-robin", "random,greedy", "--chart", "{tmp}/missing/r.png"], "the folder"),
    (["eval", "--chart", "{tmp}/r.png"], "--chart draws the ratings of a round robin"),
    (["eval", "--round-robin", "random"], "two or more different agents"),
    (["eval", "--round-robin", "random,greedy,random"], "two or more different agents"),
    (["eval", "--seed", "-5"], "--seed must be a whole number from 0 to"),
    (["eval", "--deals", "9"], "1, 2 or 4 deals"),
    (["eval", "--deals", "3"], "1, 2 or 4 deals"),
    (["eval", "--pairs", "-3"], "--pairs must be at least 1"),
    (["eval", "--pairs", "0"], "--pairs must be at least 1"),
    (["game", "--record", "{tmp}/missing/g.json"], "the folder"),
    (["game", "--agents", "random,random,random"], "names 3 agents for 2 seats"),
    (["replay", "{tmp}/binary.json"], "is not a text file"),
    (["bench", "--configs", "classic"], "preset:players"),
    (["bench", "--configs", "classic:x"], "preset:players"),
    (["bench", "--seconds", "-1"], "--seconds must be a positive number"),
    (["fuzz", "--games", "-1"], "--games must be at least 1"),
    (["play", "--partner", "greedy"], "has no partners"),
    (["fuzz", "--policy", "genius"], "unknown policy 'genius': choose eager, mixed or an agent"),
    (["eval", "--team", "py:{tmp}/missing.py:make"], "no Python file"),
    (["eval", "--decision-seconds", "0"], "--decision-seconds must be a positive, finite number"),
    (["eval", "--decision-seconds", "inf"], "--decision-seconds must be a positive, finite number"),
    (["benchmark", "random", "--decision-seconds", "nan"], "--decision-seconds must be a positive, finite number"),
    (["serve", "--agent", "py:{tmp}/missing.py:make"], "no Python file"),
    (["benchmark", "genius"], "unknown agent 'genius'"),
    (["benchmark", "random", "random"], "different agents"),
    (["benchmark", "random", "--tables", "classic:3"], "'classic:3' is not a table of the benchmark"),
    (["benchmark", "random", "--pairs", "0"], "--pairs must be at least 1"),
    (["benchmark", "random", "--out", "{tmp}/dup.yaml"], "is a file; give a folder"),
]


def _bad_input_files(tmp_path):
    (tmp_path / "dup.yaml").write_text("name: a\nname: b\n")
    (tmp_path / "binary.json").write_bytes(bytes(range(256)))


# One test each (a process each): the test workers share them out.
@pytest.mark.parametrize("args,message", BAD_INPUTS, ids=[" ".join(args)[:60] for args, _ in BAD_INPUTS])
def test_every_bad_input_is_one_clear_line_with_exit_status_2(tmp_path, args, message):
    _bad_input_files(tmp_path)
    proc = run(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert proc.returncode == 2, (args, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr and message in lines[0], (args, proc.stderr)
    assert not (tmp_path / "missing").exists() and not list(tmp_path.glob("*.png"))


def _record(tmp_path, name, **changes):
    """A valid record of a short game, with ``changes`` to its fields, saved as ``name``."""
    from handfoot_env.reference import Game
    from handfoot_env.reference.record import to_record
    from handfoot_env.rules import Rules

    record = {**to_record(Game(Rules.preset("classic"), seed=1)), **changes}
    (tmp_path / name).write_text(json.dumps(record))


# Wrong types and values deep inside files, and values past what the engines hold: each found
# by a review to end in a traceback, or be accepted, before (run in-process: no subprocess each).
BAD_VALUES = [
    (["train", "--config", "{tmp}/list_key.yaml"], "a key must be a name, not a list, set or mapping"),
    (["rules", "--rule", "deal_minimums={[1]: 2}"], "a key must be a name"),
    (QUICK + ["--set", "rules={1: 2}", "--set", "run_dir={tmp}/runs"], "unknown rules field 1"),
    (QUICK + ["--set", "rules={preset_name: house}", "--set", "run_dir={tmp}/runs"], "'preset_name' cannot be"),
    (["rules", "--preset", "classic", "--rule", "preset_name=house"], "'preset_name' cannot be overridden"),
    (["game", "--seed", str(2**63)], "--seed must be a whole number from 0 to 9223372036854775807"),
    (["eval", "--seed", str(2**32)], "--seed must be a whole number from 0 to 4294967295"),  # seeds derive from it
    (QUICK + ["--set", f"seed={2**32}", "--set", "run_dir={tmp}/runs"], "from 0 to 4294967295"),
    (["train", "--config", "{tmp}/set_key.yaml"], "a key must be a name, not a list, set or mapping"),
    (["replay", "{tmp}/deep.json"], "nests too deeply"),
    (["replay", "{tmp}/huge_seed.json"], "seed must be a whole number from 0 to"),
    (["replay", "{tmp}/bad_totals.json"], "result field 'totals' has the wrong shape"),
    (["replay", "{tmp}/bad_result.json"], "result must be a mapping"),
    (["replay", "{tmp}/scenario_number.json"], "a scenario is a mapping"),
    (["replay", "{tmp}/scenario_seed.json"], "seed must be a whole number from 0 to 9223372036854775807, got [1]"),
    (["replay", "{tmp}/scenario_scores.json"], "a scenario value has the wrong type"),
    (["demo", "--games", "0"], "--games must be at least 1"),
    (["eval", "--team", "tuned:{tmp}/nan.json", "--pairs", "1"], "'pair_bonus' must be a finite number"),
    (["bench", "--seconds", "inf"], "--seconds must be a positive number"),
    (["bench", "--load", "1000"], "--load is a number of busy processes from 0 to 64"),
    (["bench", "--batches", "99999999"], "--batches takes whole numbers from 1 to 262,144"),
    (["bench", "--configs", "classic:\u00b2"], "preset:players"),
    (QUICK + ["--set", "run_dir={tmp}/runs", "--set", "name=listed", "--resume"], "(not a JSON object)"),
    (["benchmark", "genius", "--out", "{tmp}/benchmark"], "unknown agent 'genius'"),
    # refused before a Ray cluster starts (a typo cost the cluster's start-up before the answer)
    (["eval", "--round-robin", "random,genius", "--ray"], "unknown agent 'genius'"),
    (["eval", "--team", "genius", "--ray"], "unknown agent 'genius'"),
    (["tune", "--population", "2", "--elite", "5", "--ray"], "elite must not exceed population (2), got 5"),
]


def test_bad_values_in_files_and_options_are_one_clear_line_with_exit_status_2(tmp_path, capsys):
    (tmp_path / "list_key.yaml").write_text("? [a]\n: 1\n")
    (tmp_path / "set_key.yaml").write_text("? !!set {a: null}\n: 1\n")
    (tmp_path / "deep.json").write_text("[" * 100_000)
    _record(tmp_path, "huge_seed.json", seed=10**30)
    _record(tmp_path, "bad_totals.json", result={"totals": 5})
    _record(tmp_path, "bad_result.json", result=[1])
    _record(tmp_path, "scenario_number.json", scenario=5)
    _record(tmp_path, "scenario_seed.json", scenario={"seed": [1]})
    _record(tmp_path, "scenario_scores.json", scenario={"scores": 5, "seats": [{}, {}]})
    (tmp_path / "nan.json").write_text('{"params": {"pair_bonus": NaN}, "preset": "classic", "players": 2}')
    listed = tmp_path / "runs" / "listed"
    (listed / "checkpoint").mkdir(parents=True)
    (listed / "config.json").write_text("[1]")
    (listed / "checkpoint" / "state.json").write_text("{}")
    for args, message in BAD_VALUES:
        args = [a.replace("{tmp}", str(tmp_path)) for a in args]
        assert main(args) == 2, args
        err = capsys.readouterr().err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in err and message in lines[0], (args, err)
    assert not (tmp_path / "benchmark").exists()  # refused before its folder is made


@pytest.mark.parametrize(
    ("missing", "args", "extra"),
    [
        ("torch", ["eval", "--team", "ppo", "--vs", "greedy", "--pairs", "1"], "handfoot[play]"),
        ("train.tune", ["tune", "--generations", "1", "--pairs", "2"], "handfoot[train]"),
    ],
)
def test_a_missing_extra_is_one_line_naming_it(missing, args, extra, capsys, monkeypatch):
    """The base install plays the scripted agents; what needs an extra says which one."""
    monkeypatch.setitem(sys.modules, missing, None)  # as if not installed
    assert main(args) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and f"pip install '{extra}'" in err, err


def test_a_config_that_fails_validation_leaves_no_run_folder(tmp_path):
    for bad in ("seed=-1", "rules={wild_book_to_go_out: true}", "league.opponents={genius: 1}"):
        proc = run(*QUICK, "--set", f"run_dir={tmp_path}", "--set", bad)
        assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_config_numbers_written_as_powers_of_ten_are_whole_numbers():
    from train.config import load_config

    config = load_config(ROOT / "configs" / "quick.yaml", ["total_timesteps=1e5", "ppo.learning_rate=1e-3"])
    assert config.total_timesteps == 100_000 and config.ppo.learning_rate == 0.001
    with pytest.raises(ValueError, match="total_timesteps"):
        load_config(ROOT / "configs" / "quick.yaml", ["total_timesteps=2.5"])


def test_user_errors_are_one_line_without_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "handfoot-record", "version": 1, "rules": {}, "seed": 0, "actions": [7')
    for args, message in (
        (["replay", str(bad)], "not valid JSON"),
        (["replay", str(tmp_path / "missing.json")], "cannot read record"),
        (["rules", "--preset", "bridge"], "unknown preset 'bridge'"),
        (["game", "--preset", "classic", "--players", "9"], "num_players"),
        (["game", "--preset", "house", "--players", "3"], "num_players"),
        (["game", "--agents", "genius"], "unknown agent 'genius'"),
        (["train", "--config", "configs/quick.yaml", "--set", "colour=red"], "unknown config key 'colour'"),
        (["train", "--config", str(tmp_path / "nope.yaml")], "cannot read config"),
        (["eval", "--team", "ppo:" + str(tmp_path / "none.zip")], "no trained model"),
    ):
        proc = run(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        assert "Traceback" not in proc.stderr and message in proc.stderr, (args, proc.stderr)


def test_actions_table(capsys):
    assert main(["actions"]) == 0
    assert "187 actions in all" in capsys.readouterr().out


def test_fuzz_command(capsys):
    assert main(["fuzz", "--preset", "partnership", "--games", "1", "--policy", "eager"]) == 0
    out = capsys.readouterr().out
    assert "partnership 4p, eager:" in out and "0 divergences, 0 dead ends, 0 invariant failures" in out
    assert "| stock_emptied_mid_turn |" in out


def test_fuzz_json_reports_corners_per_configuration(capsys):
    assert (
        main(["fuzz", "--engine", "vector", "--preset", "classic", "--policy", "mixed", "--steps", "3000", "--json"])
        == 0
    )
    report = json.loads(capsys.readouterr().out.strip())
    assert {
        "engine",
        "preset",
        "num_players",
        "policy",
        "steps",
        "games",
        "divergences",
        "dead_ends",
        "invariant_failures",
        "corners",
    } <= set(report)
    assert report["steps"] >= 3000 and report["divergences"] == report["dead_ends"] == 0
    assert report["corners"]["foot_by_discard"] > 0 and report["corners"]["pile_taken"] > 0


def test_bench_json_rows(capsys):
    assert main(["bench", "--json", "--batches", "8", "--configs", "classic:2", "--seconds", "0.2"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["engine"] for r in rows] == ["vector", "reference"]
    for row in rows:
        assert set(row) == {
            "engine",
            "preset",
            "num_players",
            "batch",
            "steps_per_sec",
            "games_per_sec",
            "peak_rss_mb",
            "load",
        }
        assert row["steps_per_sec"] > 0 and row["peak_rss_mb"] > 0
        # games/s from the mean length of a random game, for both engines (0.2 s of the
        # reference engine finishes no game: counting them gave 0)
        assert 100 < row["steps_per_sec"] / row["games_per_sec"] < 2000


TINY_TRAINING = [
    "--set",
    "env.num_envs=16",
    "--set",
    "ppo.n_steps=16",
    "--set",
    "ppo.batch_size=128",
    "--set",
    "network.arch=[32]",
    "--train-steps",
    "1024",
    "--json",
]


def test_bench_train_reports_learner_steps_and_where_the_time_goes(capsys):
    assert main(["bench", "--train", *TINY_TRAINING]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["mode"] == "train" and row["steps"] == 1024
    assert set(row["shares"]) == {"simulation", "opponents", "inference", "update"} and row["ray"] is None
    assert abs(sum(row["shares"].values()) - 1) < 1e-6
    learning = sum(row["seconds"][part] for part in row["shares"])  # the warm start and evaluations left out
    assert row["learner_steps_per_sec"] == pytest.approx(1024 / learning)
    assert row["learner"] == "cpu" and row["threads"] >= 1  # TINY_TRAINING's device: the default


def test_vector_fuzz_command(capsys):
    assert main(["fuzz", "--engine", "vector", "--preset", "classic", "--players", "3", "--steps", "3200"]) == 0
    assert "3,200 steps compared" in capsys.readouterr().out


def test_every_command_says_what_it_does_and_every_option_has_help(capsys):
    from handfoot_lab.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, __import__("argparse")._SubParsersAction))
    for name, command in commands.choices.items():
        assert command.description, f"'handfoot {name} --help' says nothing about the command"
        for action in command._actions:
            assert action.help or action.dest == "help", f"handfoot {name}: {action.option_strings or action.dest}"
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("handfoot 0.")
    assert main(["eval", "--pairs", "abc"]) == 2  # argparse's own errors: one line too, no usage
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid int value: 'abc'" in err and "usage" not in err
