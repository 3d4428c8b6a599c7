"""The command line: real output, and one clear line (no traceback) for every user error."""

from __future__ import annotations

import json
import subprocess
import sys

from handfoot_env.cli import main


ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "handfoot_env.cli", *args], capture_output=True, text=True, cwd=ROOT)


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
    assert "173 actions in all" in capsys.readouterr().out


def test_fuzz_command(capsys):
    assert main(["fuzz", "--preset", "partnership", "--games", "1"]) == 0
    assert "every invariant held" in capsys.readouterr().out


def test_bench_json_rows(capsys):
    assert main(["bench", "--json", "--batches", "8", "--configs", "classic:2", "--seconds", "0.2"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["engine"] for r in rows] == ["vector", "reference"]
    for row in rows:
        assert set(row) == {"engine", "preset", "num_players", "batch", "steps_per_sec", "games_per_sec", "peak_rss_mb"}
        assert row["steps_per_sec"] > 0 and row["peak_rss_mb"] > 0


def test_vector_fuzz_command(capsys):
    assert main(["fuzz", "--engine", "vector", "--preset", "classic", "--players", "3", "--steps", "3200"]) == 0
    assert "engines identical" in capsys.readouterr().out
