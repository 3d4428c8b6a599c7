"""``handfoot benchmark``: a user's agent file enters unchanged; the opponents' round robin
anchors the ratings; faults are reported, then the run stops or goes on as asked; the
numbers repeat."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from foreign_agents import trap_agent

from agents.evaluation.benchmark import OPPONENTS, PROTOCOL, SEED, stored_anchors
from handfoot_env.rules import Rules
from handfoot_lab.cli import main

ROOT = Path(__file__).resolve().parents[3]
RANDOM_AGENT = f"py:{ROOT / 'examples' / 'random_agent.py'}:make"

# greedy, as a user would wrap an agent from elsewhere, with supports() leaving out house
GREEDY_CLONE = """
from agents import make_agent


class Clone:
    def __init__(self):
        self.inner = make_agent("greedy")

    def supports(self, rules):
        return rules.preset_name != "house"

    def act(self, observations, masks):
        return self.inner.act(observations, masks)


def make():
    return Clone()
"""


def benchmark(tmp_path: Path, capsys, *args: str) -> tuple[int, dict, str, str]:
    """Exit status, the JSON report, the Markdown printed (the same as the file's), standard error."""
    status = main(["benchmark", *args, "--out", str(tmp_path), "--no-progress"])
    out, err = capsys.readouterr()
    report = json.loads((tmp_path / "benchmark.json").read_text())
    assert (tmp_path / "benchmark.md").read_text().strip() == out.strip()
    return status, report, out, err


def test_a_random_agent_in_a_user_file_enters_benchmark_and_eval_unchanged(tmp_path, capsys):
    status, report, table, _ = benchmark(tmp_path, capsys, RANDOM_AGENT, "--tables", "classic:2", "--pairs", "3")
    assert status == 0 and report["protocol"] == PROTOCOL and not report["standard"] and report["faults"] == []
    entry = report["tables"][0]["entries"][RANDOM_AGENT]
    assert list(entry["results"]) == list(OPPONENTS)
    assert all(r["games"] == 6 for r in entry["results"].values())
    assert entry["results"]["greedy"]["win_rate"] == 0.0  # random loses every game to greedy
    assert f"| `{RANDOM_AGENT}` (my-random) |" in table and "Not the standard protocol" in table
    faults = ["--faults", str(tmp_path / "faults")]  # a slow decision's record goes there, not into the checkout
    assert (
        main(["eval", "--team", RANDOM_AGENT, "--vs", "random", "--pairs", "3", "--json", "--no-progress", *faults])
        == 0
    )
    eval_result = json.loads(capsys.readouterr().out)
    assert eval_result["team"] == RANDOM_AGENT and eval_result["games"] == 6


def test_the_opponents_round_robin_anchors_the_ratings_a_clone_of_greedy_rates_as_greedy(tmp_path, capsys, monkeypatch):
    board = tmp_path / "board"
    status, report, table, _ = benchmark(board, capsys, *OPPONENTS, "--tables", "classic:2,house:4", "--pairs", "2")
    assert status == 0
    for played in report["tables"]:
        entries, anchors = played["entries"], played["anchors"]
        assert anchors["source"].startswith("this run")
        assert {n: e["rating"] for n, e in entries.items()} == anchors["ratings"]
        assert entries["greedy"]["results"]["heuristic"]["wins"] == entries["heuristic"]["results"]["greedy"]["losses"]
        assert entries["random"]["rating"] < entries["greedy"]["rating"] < entries["heuristic"]["rating"]
    assert table.index("| `heuristic` |") < table.index("| `greedy` |") < table.index("| `random` |")

    (tmp_path / "clone.py").write_text(GREEDY_CLONE)
    clone = f"py:{tmp_path / 'clone.py'}:make"
    anchors, note = stored_anchors(Rules.preset("classic"), board / "benchmark.json")
    assert anchors == report["tables"][0]["anchors"]["ratings"] and "STALE" in note  # 2 pairs, not 1,000
    monkeypatch.setattr("agents.evaluation.benchmark.LEADERBOARD", board / "benchmark.json")
    status, mine, table, _ = benchmark(
        tmp_path / "mine", capsys, clone, "--tables", "classic:2,house:4", "--pairs", "2"
    )
    classic, house = mine["tables"]
    for opponent in ("random", *OPPONENTS[2:]):  # the same games as greedy's (against random too: the same seeds)
        for key, value in report["tables"][0]["entries"]["greedy"]["results"][opponent].items():
            assert key in ("team", "steps_per_sec") or classic["entries"][clone]["results"][opponent][key] == value
    # The same points against the same anchors: the same rating, but for a few points the
    # opponents' fit moves because it counts random's null record as half a win (4 games a pair).
    assert classic["entries"][clone]["rating"] == pytest.approx(anchors["greedy"], abs=5)
    assert not house["entries"][clone]["plays"] and "does not play this table" in table


def test_a_fault_stops_the_benchmark_or_forfeits_its_game(tmp_path, capsys):
    name, _ = trap_agent(tmp_path, Rules.preset("classic"), seed=SEED, step=137)
    status, report, table, err = benchmark(tmp_path / "stop", capsys, name, "--tables", "classic:2", "--pairs", "1")
    results = report["tables"][0]["entries"][name]["results"]
    assert status == 1 and report["stopped"] and [f["vs"] for f in report["faults"]] == ["greedy"]
    assert results["greedy"]["fault"].startswith(f"agent '{name}' returned the illegal action")
    assert (results["greedy"]["seed"], results["greedy"]["step"]) == (SEED, 137)
    assert results["heuristic"] is None and "--keep-going" in err
    assert Path(report["faults"][0]["record"]).exists() and "fault (illegal, seed 90000000, step 137)" in table
    status, report, table, _ = benchmark(
        tmp_path / "on", capsys, name, "--tables", "classic:2", "--pairs", "1", "--keep-going"
    )
    results = report["tables"][0]["entries"][name]["results"]
    assert status == 1 and not report["stopped"] and len(report["faults"]) == 1 and report["faults"][0]["forfeit"]
    assert results["greedy"]["games"] == 2 and results["greedy"]["forfeits"] == 1  # the broken game: lost
    assert results["heuristic"]["games"] == 2 and results["ppo"]["games"] == 2
    assert report["tables"][0]["entries"][name]["rating"] is not None and ", 1 forfeited" in table


def test_the_docs_leaderboard_is_the_benchmark_of_the_shipped_agents():
    """docs/results.md's table is ``markdown`` of agents/models/leaderboard.json, a standard run of the
    five opponents, made with the shipped files of today (its anchors are not stale)."""
    import importlib.util

    from agents.evaluation.benchmark import LEADERBOARD, PROTOCOL, TABLES, markdown

    spec = importlib.util.spec_from_file_location("leaderboard", ROOT / "scripts" / "leaderboard.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    report = json.loads(LEADERBOARD.read_text())
    assert report["protocol"] == PROTOCOL and report["standard"] and report["faults"] == []
    assert [(t["preset"], t["players"]) for t in report["tables"]] == list(TABLES)
    assert [a["name"] for a in report["agents"]] == list(OPPONENTS)
    page = script.PAGE.read_text()
    assert script.PAGE == ROOT / "docs" / "results.md"
    assert script.splice(page, markdown(report)) == page
    for preset, players in TABLES:
        assert "STALE" not in stored_anchors(Rules.preset(preset, num_players=players))[1]
    assert script.splice("a\n" + script.START + "\nold\n" + script.END + "\nb", "new") == (
        "a\n" + script.START + "\nnew\n" + script.END + "\nb"
    )


def test_a_command_agents_file_is_the_script_it_runs_else_the_program(tmp_path):
    """The report's ``file_sha256`` names what the agent is: ``python3 bot.py``'s bot.py (not the
    interpreter, wherever it lives), a compiled program itself."""
    import sys

    from agents.evaluation.benchmark import _file_of

    bot = tmp_path / "bot.py"
    bot.write_text("")
    assert _file_of(f"cmd:{sys.executable} {bot}") == bot
    assert _file_of(f"cmd:{sys.executable} -u {bot} --depth 3") == bot
    assert _file_of(f"cmd:{sys.executable}") == Path(sys.executable)
