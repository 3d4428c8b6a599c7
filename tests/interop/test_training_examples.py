"""The recipe of docs/benchmark.md, "From another framework to the table", run end to end: each
training example in ``examples/`` trains a little, saves its policy with ``--save``, and the saved
file enters ``handfoot eval`` and ``handfoot benchmark`` through its adapter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from handfoot_lab.cli import main
from tests.interop.test_adapters import EXAMPLES, enters_eval_and_benchmark


def train(script: str, *args: str, cwd: Path) -> dict:
    """Run a training example as the recipe does (docs/benchmark.md, "From another framework to
    the table"); its JSON summary."""
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_tianshou_trains_saves_and_enters_the_benchmark(tmp_path, capsys):
    pytest.importorskip("tianshou")
    summary = train(
        "tianshou_dqn.py", "--epochs", "1", "--episodes", "1", "--updates", "1", "--save", "dqn.pt", cwd=tmp_path
    )
    assert summary["saved"] == "dqn.pt"
    enters_eval_and_benchmark(f"py:{EXAMPLES / 'tianshou_agent.py'}:make:{tmp_path / 'dqn.pt'}", tmp_path, capsys)


def test_torchrl_trains_saves_and_enters_the_benchmark(tmp_path, capsys):
    pytest.importorskip("torchrl")
    args = ["--preset", "classic", "--players", "2", "--iterations", "1", "--num-envs", "4", "--steps", "8"]
    summary = train("torchrl_ippo.py", *args, "--epochs", "1", "--save", "ippo.pt", cwd=tmp_path)
    assert summary["saved"] == "ippo.pt" and summary["policy_change"] > 0
    name = f"py:{EXAMPLES / 'policy_agent.py'}:make:{tmp_path / 'ippo.pt'}"
    enters_eval_and_benchmark(name, tmp_path, capsys)
    report = json.loads((tmp_path / "b" / "benchmark.json").read_text())
    assert report["agents"][0]["label"] == "torchrl-ippo (classic, 2 players)"
    # Trained for classic with 2 players: it plays no other table.
    args = ["benchmark", name, "--tables", "house:4", "--pairs", "1", "--out", str(tmp_path / "h"), "--no-progress"]
    assert main(args) == 0 and "does not play this table" in capsys.readouterr().out


@pytest.mark.parametrize("script", ["torchrl_turn_selfplay.py", "cleanrl_ppo_masked.py"])
def test_the_other_training_examples_save_a_policy_that_plays(tmp_path, capsys, script):
    pytest.importorskip("torchrl" if script.startswith("torchrl") else "torch")
    if script.startswith("torchrl"):
        args = ["--preset", "classic", "--players", "2", "--iterations", "1", "--num-envs", "4", "--steps", "8"]
        args += ["--epochs", "1", "--eval-games", "2"]
    else:
        args = ["--total-timesteps", "64", "--num-envs", "4", "--num-steps", "16", "--eval-episodes", "4"]
    assert train(script, *args, "--save", "policy.pt", cwd=tmp_path)["saved"] == "policy.pt"
    name = f"py:{EXAMPLES / 'policy_agent.py'}:make:{tmp_path / 'policy.pt'}"
    faults = ["--faults", str(tmp_path / "faults")]  # a slow decision's record goes there, not into the checkout
    assert main(["eval", "--team", name, "--vs", "random", "--pairs", "1", "--json", "--no-progress", *faults]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def test_rllib_trains_saves_and_enters_the_benchmark(tmp_path, capsys):
    pytest.importorskip("ray")
    summary = train(
        "rllib_ppo.py", "--iterations", "1", "--batch", "400", "--hidden", "32", "--save", "ckpt", cwd=tmp_path
    )
    assert summary["saved"] == str(tmp_path / "ckpt")
    enters_eval_and_benchmark(f"py:{EXAMPLES / 'rllib_agent.py'}:make:{tmp_path / 'ckpt'}", tmp_path, capsys)
    assert np.isfinite(json.loads((tmp_path / "b" / "benchmark.json").read_text())["seconds"])
