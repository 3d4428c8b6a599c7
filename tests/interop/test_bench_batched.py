"""scripts/bench_batched.py, the batched envs against the raw engine, run as a user runs it (tiny
budgets): every row plays and lands in the table; bad flags get one line and exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "scripts" / "bench_batched.py")


def bench(*flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, SCRIPT, *flags], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )


def test_every_row_plays_and_is_compared_with_the_engine():
    rows = "engine,gym-vector,torchrl,torchrl-mover,torchrl-vs-random,torchrl-mover-merge,torchrl-turn"
    proc = bench("--num-envs", "16", "--seconds", "0.2", "--rounds", "1", "--warmup", "40", "--rows", rows)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert [r["row"] for r in results] == rows.split(",")
    assert all(r["steps"] > 0 and r["steps_per_sec"] > 0 and r["num_envs"] == 16 for r in results)
    assert all(r["warmup"] == 40 and isinstance(r["games_ended"], int) for r in results)
    table = [line.split("|") for line in proc.stdout.splitlines() if line.startswith("| ")]
    assert [cells[1].strip() for cells in table[1:]] == rows.split(",")
    assert table[1][4].strip() == table[1][6].strip() == "1.00"  # the engine against itself
    for cells, result in zip(table[1:], results):  # every row's share of the engine, wall clock and CPU
        assert float(cells[2].replace(",", "")) > 0 and float(cells[4]) > 0 and float(cells[6]) > 0, cells
    engine_rate = results[0]["steps_per_sec"]
    assert abs(float(table[2][4]) - results[1]["steps_per_sec"] / engine_rate) < 0.01  # one run, one share


def test_bad_flags_get_one_line_and_exit_status_2():
    for flags in (("--rows", "engine,nope"), ("--num-envs", "0"), ("--seconds", "0"), ("--warmup", "-1")):
        proc = bench(*flags)
        assert proc.returncode == 2, (flags, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
