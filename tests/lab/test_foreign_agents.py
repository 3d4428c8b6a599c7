"""Agents from outside the lab at the lab's tables: sealed in processes of their own (an agent
that searches its process for a live game finds none in eval, benchmark or play), any language
through ``cmd:``, the clock per decision, forfeits with --keep-going, and what Ctrl-C and huge
counts leave behind."""

from __future__ import annotations

import ast
import contextlib
import json
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from foreign_agents import flaky_agent, snoop_agent

from agents import make_agent
from agents.evaluation.benchmark import OPPONENTS
from handfoot_env.reference.observe import observe
from handfoot_env.rules import Rules
from handfoot_lab.cli import main
from handfoot_lab.play import PlaySession, command_for

ROOT = Path(__file__).resolve().parents[2]
STDIO_BOT = "cmd:python3 examples/stdio_bot.py"
RANDOM_AGENT = f"py:{ROOT / 'examples' / 'random_agent.py'}:make"


def benchmark(folder: Path, capsys, *args: str) -> tuple[int, dict, str]:
    status = main(["benchmark", *args, "--out", str(folder), "--no-progress"])
    out, _ = capsys.readouterr()
    return status, json.loads((folder / "benchmark.json").read_text()), out


def searches(report: Path) -> list[str]:
    lines = report.read_text().splitlines()
    assert lines and all(line.startswith("searched ") for line in lines), lines
    return lines


def test_an_agent_that_searches_its_process_finds_no_live_game_in_eval_benchmark_or_play(tmp_path, capsys):
    name, report = snoop_agent(tmp_path)
    assert main(["eval", "--team", name, "--vs", "greedy", "--pairs", "2", "--no-progress"]) == 0
    assert "(snoop) vs greedy" in capsys.readouterr().out
    status, bench, table = benchmark(tmp_path / "b", capsys, name, "--tables", "classic:2", "--pairs", "1")
    assert status == 0 and f"`{name}` (snoop)" in table, bench["faults"]
    heuristic = make_agent("heuristic")
    typed = []

    def readline() -> str:  # a person who plays the heuristic's moves, then quits
        game = session.game
        if len(typed) >= 60:
            return "q\n"
        typed.append(command_for(int(heuristic.act(observe(game, 0)[None], game.legal_mask()[None])[0]), game))
        return typed[-1] + "\n"

    output: list[str] = []
    session = PlaySession(
        Rules.preset("classic"), 3, opponents=name, hint_agent=name, readline=readline, write=output.append
    )
    assert session.run() == 0 and any(line.startswith("  seat 1:") for line in output)
    found = searches(report)
    assert len(found) >= 10 and all(line.endswith("found []") for line in found), [f for f in found if "[]" not in f]


def test_the_stdio_bot_enters_eval_and_benchmark_and_beats_random(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    tree = ast.parse((ROOT / "examples" / "stdio_bot.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported and imported <= set(sys.stdlib_module_names), imported  # Python's own library, nothing of the lab
    assert main(["eval", "--team", STDIO_BOT, "--vs", "random", "--pairs", "5", "--json", "--no-progress"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 10 and result["ci95"][0] > 0.5, result
    status, report, table = benchmark(tmp_path, capsys, STDIO_BOT, "--tables", "classic:2", "--pairs", "2")
    results = report["tables"][0]["entries"][STDIO_BOT]["results"]
    assert status == 0 and list(results) == list(OPPONENTS) and results["random"]["win_rate"] == 1.0
    assert report["agents"][0]["label"] == "stdio-greedy" and f"`{STDIO_BOT}` (stdio-greedy)" in table
    assert report["agents"][0]["file_sha256"] is not None  # the script the command runs


def test_one_slow_decision_is_a_fault_naming_agent_table_seed_and_step(tmp_path, capsys):
    name = flaky_agent(tmp_path, every=0, call=30, sleep=2.5)
    args = ["eval", "--team", name, "--vs", "greedy", "--pairs", "1", "--seed", "7", "--decision-seconds", "1"]
    assert main([*args, "--faults", str(tmp_path / "faults"), "--no-progress"]) == 1
    line = capsys.readouterr().err.strip()
    assert line.startswith(f"handfoot: fault: agent '{name}' did not answer within 1 s on "), line
    assert "(stopped) at classic with 2 players, seed 7, step " in line and "\n" not in line, line
    status, report, table = benchmark(tmp_path / "b", capsys, name, "--tables", "classic:2", "--pairs", "1")
    assert status == 1 and report["faults"][0]["kind"] == "slow" and "fault (slow, seed 90000000" in table


def test_keep_going_forfeits_the_games_an_agent_breaks_and_rates_the_rest(tmp_path, capsys):
    name = flaky_agent(tmp_path, every=150)  # raises on one call in 150
    status, report, table = benchmark(tmp_path, capsys, name, "--tables", "classic:2", "--pairs", "3", "--keep-going")
    entry = report["tables"][0]["entries"][name]
    assert status == 1 and not report["stopped"]
    assert all("win_rate" in r for r in entry["results"].values()), entry["results"]
    forfeits = sum(r["forfeits"] for r in entry["results"].values())
    assert forfeits >= 5 and len([f for f in report["faults"] if f.get("forfeit")]) == forfeits
    assert all(Path(f["record"]).exists() for f in report["faults"])
    assert entry["rating"] is not None and " forfeited" in table and "Forfeits (" in table
    faults = ["--faults", str(tmp_path / "eval_faults")]
    args = ["eval", "--team", name, "--vs", "random", "--pairs", "3", "--keep-going", "--no-progress", *faults]
    assert main(args) == 1
    assert " forfeited (lost by the side that broke them)" in capsys.readouterr().out
    same = name.split(",")[0]  # the same agent, named without the commas --round-robin splits on
    args = ["eval", "--round-robin", f"{same},random", "--pairs", "3", "--keep-going", "--no-progress", *faults]
    assert main(args) == 1  # a round robin with forfeits says so, as a single match does
    crosstable = capsys.readouterr().out
    assert "Forfeited games" in crosstable and f"- {same} vs random: " in crosstable, crosstable
    assert f", broken by {same}" in crosstable, crosstable


def test_an_agent_that_breaks_every_game_ends_the_match_at_the_forfeit_limit(tmp_path):
    """30 duplicate sets (60 games, one chunk): at most 10 forfeits, then the eleventh fault is
    the match's, at once, not after the chunk's other games have been broken too."""
    from agents.evaluation.matches import most_forfeits_of, play_match
    from agents.foreign import MatchFault

    rules = Rules.preset("classic", num_players=2)
    broken = make_agent(flaky_agent(tmp_path, every=1))  # raises on every call
    faults = tmp_path / "faults"
    try:
        play_match(rules, broken, make_agent("random"), 30, progress=False, faults=faults, keep_going=True)
    except MatchFault:
        pass
    else:
        raise AssertionError("a match every game of which the agent broke was measured")
    finally:
        broken.close()
    assert most_forfeits_of(60) == 10 and len(list(faults.iterdir())) == 11


def test_a_program_that_fails_at_its_seed_is_a_fault_of_the_match_and_the_benchmark_reports(tmp_path, capsys):
    bot = tmp_path / "noseed.py"
    bot.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'seed':\n"
        "        sys.exit(0)\n"
        "    print(json.dumps({'name': 'noseed'} if message['type'] == 'start' else {'action': message['legal'][0]}), flush=True)\n"
    )
    name = f"cmd:{sys.executable} {bot}"
    status, report, _ = benchmark(tmp_path / "b", capsys, name, "--tables", "classic:2", "--pairs", "2", "--keep-going")
    assert status == 1 and report["faults"] and all(f["record"] for f in report["faults"])
    assert report["faults"][0]["kind"] == "exited" and "to its seed" in report["faults"][0]["message"]


def read_lines(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def wait_for(lines: queue.Queue, words: str, seconds: float, seen: list[str]) -> str:
    deadline = time.monotonic() + seconds
    while (line := lines.get(timeout=max(deadline - time.monotonic(), 0.01))) is not None:
        seen.append(line)
        if words in line:
            return line
    raise AssertionError(f"never said {words!r}: {seen}")


def rest_of(lines: queue.Queue) -> str:
    """What the process said on standard error after what was waited for, to its end."""
    said = []
    while (line := lines.get(timeout=60)) is not None:
        said.append(line)
    return "".join(said)


# handfoot, with Ctrl-C raising KeyboardInterrupt even where this test run was started with
# SIGINT ignored (a background job of a script, whose children inherit that)
HANDFOOT_WITH_CTRL_C = (
    "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'handfoot'; runpy.run_module('handfoot_lab.cli', run_name='__main__')"
)


@contextlib.contextmanager
def started(*args: str, cwd: Path):
    """``handfoot ARGS`` running, its standard error line by line in a queue; stopped at the end."""
    process = subprocess.Popen(
        [sys.executable, "-c", HANDFOOT_WITH_CTRL_C, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=read_lines, args=(process.stderr, lines), daemon=True).start()
    try:
        yield process, lines
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_ctrl_c_in_benchmark_writes_the_finished_matches_marked_interrupted(tmp_path):
    args = ["benchmark", RANDOM_AGENT, "--tables", "classic:2", "--pairs", "200", "--out", "b", "--no-progress"]
    with started(*args, cwd=tmp_path) as (process, lines):
        seen: list[str] = []
        wait_for(lines, "vs random: ", 900, seen)  # the first match is over (900 s: a first run compiles)
        process.send_signal(signal.SIGINT)
        out = process.stdout.read()  # standard error is read_lines's
        process.wait(timeout=120)
        assert "handfoot: interrupted: the report holds the matches that had finished" in rest_of(lines)
    report = json.loads((tmp_path / "b" / "benchmark.json").read_text())
    results = report["tables"][0]["entries"][RANDOM_AGENT]["results"]
    assert process.returncode == 130 and report["interrupted"], seen
    assert results["random"]["games"] == 400 and results["ppo"] is None
    assert "**Interrupted** (Ctrl-C)" in (tmp_path / "b" / "benchmark.md").read_text() and "**Interrupted**" in out


def test_a_billion_pairs_run_in_little_memory_say_how_long_and_ctrl_c_prints_the_games_finished(tmp_path, capsys):
    assert main(["benchmark", "random", "--pairs", "1000000000", "--out", str(tmp_path / "b")]) == 2
    err = capsys.readouterr().err.strip()
    assert "at most 910,000,000 duplicate sets" in err and "\n" not in err and not (tmp_path / "b").exists()
    args = ["eval", "--team", "greedy", "--vs", "random", "--deals", "1", "--pairs", "1000000000", "--no-progress"]
    with started(*args, cwd=tmp_path) as (process, lines):
        seen: list[str] = []
        warning = wait_for(lines, "warning: 2,000,000,000 games at the pace of the first 512", 900, seen)
        assert " take about " in warning and ("years" in warning or "days" in warning), warning
        status = Path(f"/proc/{process.pid}/status").read_text()
        resident_kb = int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1])
        assert resident_kb < 1024 * 1024, resident_kb
        process.send_signal(signal.SIGINT)
        out = process.stdout.read()
        process.wait(timeout=120)
        rest = rest_of(lines)
    assert process.returncode == 130 and "Traceback" not in "".join(seen) + rest, rest
    assert "the match stopped after " in rest and " of 1,000,000,000 duplicate sets" in rest, rest
    assert out.startswith("greedy vs random: classic, 2 players, ") and "win rate" in out, out
