"""scripts/plot_curves.py draws a run summary kept in docs/ and refuses bad input in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUMMARY = ROOT / "docs" / "run_summaries" / "scratch_house_seed0.json"


def plot(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, str(ROOT / "scripts" / "plot_curves.py"), *args]
    return subprocess.run(command, check=False, capture_output=True, text=True, timeout=120)


def test_a_run_summary_file_draws_by_steps(tmp_path):
    out = tmp_path / "curves.png"
    done = plot(str(SUMMARY), "--labels", "house, seed 0", "--by", "steps", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"\x89PNG")


def test_bad_input_is_one_line_and_status_2(tmp_path):
    for args, said in (
        ([str(tmp_path / "missing"), "--out", str(tmp_path / "x.png")], "cannot read a run"),
        ([str(SUMMARY), "--labels", "a", "b", "--out", str(tmp_path / "x.png")], "--labels names 2 runs, 1 given"),
        (
            [str(SUMMARY.parent / "expert_iteration_1.json"), "--out", str(tmp_path / "x.png")],
            "holds no run's evaluations",
        ),
    ):
        done = plot(*args)
        assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
    assert not list(tmp_path.glob("*.png"))
