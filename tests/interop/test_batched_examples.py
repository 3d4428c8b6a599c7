"""The four examples of the batched envs, run unchanged as a user runs them (a script, flags for a
short budget): examples/gymnasium_vector.py, examples/cleanrl_ppo_masked.py, examples/torchrl_ippo.py,
examples/torchrl_turn_selfplay.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_example(name: str, *flags: str) -> dict:
    """Run ``examples/name`` in a fresh interpreter from the repository root; its last line is JSON."""
    proc = subprocess.run(
        [sys.executable, f"examples/{name}", *flags],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_gymnasium_vector_example_counts_whole_games():
    """Random masked play through make_vec and RecordEpisodeStatistics: games finish with
    partnership-length episodes (about 540 learner steps each under random play)."""
    summary = run_example("gymnasium_vector.py", "--num-envs", "64", "--games", "20")
    assert 300 < summary["mean_length"] < 900 and np.isfinite(summary["mean_return"])


def test_the_cleanrl_script_learns_to_beat_random_play():
    """CleanRL-style masked PPO, 32,768 learner steps of classic one-deal games against the random
    opponent: the trained policy's mean return (the deal margin / 1000, over 256 evaluation games the
    training never saw) beats the untrained policy's by more than 0.3 — about five standard errors of
    the difference (the returns' spread is about 0.63); greedy, which melds whenever it can, scores
    +1.78 there.  The run is seeded, so this is one fixed run, not a lucky draw."""
    pytest.importorskip("torch")
    summary = run_example(
        "cleanrl_ppo_masked.py", "--total-timesteps", "32768", "--num-envs", "32", "--learning-rate", "1e-3"
    )
    assert summary["iterations"] == 8 and summary["episodes"] > 300
    assert summary["trained_return"] - summary["untrained_return"] > 0.3, summary


def test_the_torchrl_ippo_example_trains():
    """TorchRL's Collector, GAE and ClipPPOLoss for 3 iterations: every collected frame has exactly one
    acting agent, games finish and restart (partial resets), and the policy's weights move."""
    pytest.importorskip("torchrl")
    iterations, num_envs, steps = 3, 8, 96
    summary = run_example(
        "torchrl_ippo.py",
        *("--preset", "classic", "--deals", "1", "--iterations", str(iterations)),
        *("--num-envs", str(num_envs), "--steps", str(steps)),
    )
    assert summary["iterations"] == iterations
    assert summary["agent_steps"] == iterations * num_envs * steps
    assert summary["games_finished"] >= num_envs and summary["policy_change"] > 0
    assert all(np.isfinite([row["loss_objective"], row["loss_critic"]]).all() for row in summary["history"])


def test_the_torchrl_turn_based_self_play_example_trains():
    """The turn-based env with TorchRL's Collector, GAE (per side) and ClipPPOLoss for 3 iterations:
    every collected frame is one decision, games finish and restart, the policy's weights move."""
    pytest.importorskip("torchrl")
    iterations, num_envs, steps = 3, 8, 96
    summary = run_example(
        "torchrl_turn_selfplay.py",
        *("--preset", "classic", "--deals", "1", "--iterations", str(iterations)),
        *("--num-envs", str(num_envs), "--steps", str(steps), "--eval-games", "8"),
    )
    assert summary["iterations"] == iterations
    assert summary["steps"] == iterations * num_envs * steps
    assert summary["games_finished"] >= num_envs and summary["policy_change"] > 0
    assert all(np.isfinite([row["loss_objective"], row["loss_critic"]]).all() for row in summary["history"])
