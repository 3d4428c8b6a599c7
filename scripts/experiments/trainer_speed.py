"""Learner steps/s of today's trainer against an older checkout's, side by side in one run.

    python scripts/experiments/trainer_speed.py --old /path/to/checkout-at-5e58bf0 [--rounds 2]

Each row is ``handfoot bench --train --json`` in its own process, importing its own checkout;
the rounds interleave the rows so that a changing load hits every row alike.  Rows:

* ``old quick``: the old one-file trainer (``train/ppo.py``) on its ``quick.yaml``, the
  configuration the 20-41k learner steps/s of the 0.4 README were measured on (advisor input,
  256 games, batch 4096, 2 epochs);
* ``old, scratch settings``: the same trainer with the from-scratch settings it can express
  (no advisor, 512 games, batch 8192; ``tuned`` is not an opponent it knows, the heuristic
  takes its share);
* ``scratch``: ``configs/experiments/scratch.yaml`` (separate 256x256 actor and privileged critic, 2 epochs);
* ``scratch, 1 epoch``: ``scratch.yaml`` with ``ppo.n_epochs: 1``, the network unchanged;
* ``scratch_fast``: ``configs/experiments/scratch_fast.yaml`` (a 128x128 actor and privileged
  critic, one epoch);
* ``scratch, shared trunk, 1 epoch``: ``scratch.yaml`` with ``network.shared`` and ``ppo.n_epochs: 1``
  (a shared trunk has no critic of its own to read the hidden cards: ``privileged_critic`` off).

Every row runs with one thread (the fastest setting on a busy 2-core machine).  Prints one JSON
line per row and round, then the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]
CLI = "import sys; from handfoot_lab.cli import main; sys.argv[0] = 'handfoot'; sys.exit(main())"
OLD_SCRATCH = [
    "advisor=false",
    "num_envs=512",
    "batch_size=8192",
    "learning_rate=0.001",
    "opponents={random: 0.05, greedy: 0.25, heuristic: 0.7}",
]


def rows(old: Path) -> dict[str, tuple[Path, list[str]]]:
    return {
        "old quick": (old, ["--config", str(old / "configs/quick.yaml"), "--set", "torch_threads=1"]),
        "old, scratch settings": (
            old,
            ["--config", str(old / "configs/quick.yaml"), "--set", "torch_threads=1"]
            + [arg for s in OLD_SCRATCH for arg in ("--set", s)],
        ),
        "scratch": (HERE, ["--config", str(HERE / "configs/experiments/scratch.yaml"), "--set", "threads=1"]),
        "scratch, 1 epoch": (
            HERE,
            [
                "--config",
                str(HERE / "configs/experiments/scratch.yaml"),
                "--set",
                "threads=1",
                "--set",
                "ppo.n_epochs=1",
            ],
        ),
        "scratch_fast (128x128, 1 epoch)": (
            HERE,
            ["--config", str(HERE / "configs/experiments/scratch_fast.yaml"), "--set", "threads=1"],
        ),
        "scratch, shared trunk, 1 epoch": (
            HERE,
            ["--config", str(HERE / "configs/experiments/scratch.yaml"), "--set", "threads=1"]
            + ["--set", "network.shared=true", "--set", "network.privileged_critic=false", "--set", "ppo.n_epochs=1"],
        ),
    }


def run_row(checkout: Path, args: list[str], steps: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    command = [sys.executable, "-c", CLI, "bench", "--train", "--json", "--train-steps", str(steps), *args]
    done = subprocess.run(command, check=False, env=env, cwd=checkout, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(args)}: {done.stderr.strip().splitlines()[-1]}")
    return json.loads(done.stdout[done.stdout.index("{") :])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True, help="a checkout of the old trainer (e.g. 5e58bf0)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--steps", type=int, default=400_000, help="learner steps timed per row")
    args = parser.parse_args()
    results: dict[str, list[float]] = {}
    for round_index in range(args.rounds):
        for name, (checkout, row_args) in rows(args.old.resolve()).items():
            row = run_row(checkout, row_args, args.steps)
            speed = row["learner_steps_per_sec"]
            results.setdefault(name, []).append(speed)
            shares = {k: round(v, 2) for k, v in row["shares"].items()}
            print(
                json.dumps({"row": name, "round": round_index, "learner_steps_per_sec": round(speed), "shares": shares})
            )
    base = statistics.median(results["old quick"])
    print(f"\n{'row':34s} {'learner steps/s (median)':>26s} {'vs old quick':>13s}")
    for name, speeds in results.items():
        print(f"{name:34s} {statistics.median(speeds):26,.0f} {statistics.median(speeds) / base:12.2f}x")


if __name__ == "__main__":
    main()
