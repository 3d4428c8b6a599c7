"""Agents trained under other frameworks enter ``handfoot eval`` and ``handfoot benchmark``
unchanged: a MaskablePPO model from the SB3 snippet of docs/env.md (``ppo:model.zip``), and, by
the recipe of docs/benchmark.md (train with an example, ``--save``, benchmark through an adapter
in ``examples/``), a tianshou policy, TorchRL's and CleanRL's policy networks and an RLlib
checkpoint, each trained a little here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from handfoot_env import Rules, handfoot_v0
from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.observation import OBS_SIZE
from handfoot_lab.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def enters_eval_and_benchmark(name: str, tmp_path: Path, capsys) -> None:
    """The agent plays a match and the benchmark on classic for 2 (a few games each), legally."""
    assert main(["eval", "--team", name, "--vs", "random", "--pairs", "2", "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 4
    args = ["benchmark", name, "--tables", "classic:2", "--pairs", "1", "--out", str(tmp_path / "b"), "--no-progress"]
    assert main(args) == 0
    capsys.readouterr()
    report = json.loads((tmp_path / "b" / "benchmark.json").read_text())
    results = report["tables"][0]["entries"][name]["results"]
    assert report["faults"] == [] and all(r["games"] == 2 for r in results.values()) and len(results) == 5


def maskable_ppo_snippet() -> str:
    """The snippet of docs/env.md, "Training under another framework", with fewer steps."""
    page = (ROOT / "docs" / "env.md").read_text()
    part = page[page.index("## Training under another framework") :]
    snippet = part[part.index("```python\n") + len("```python\n") : part.index("```\n\n")]
    shorter = {
        "model.learn(100_000)": "model.learn(128)",
        "seed=0, verbose=1)": 'seed=0, verbose=1, n_steps=64, batch_size=32, device="cpu")',
    }
    for printed, run in shorter.items():
        assert snippet.count(printed) == 1, printed
        snippet = snippet.replace(printed, run)
    return snippet


def test_a_maskable_ppo_model_from_the_docs_snippet(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(maskable_ppo_snippet(), "docs/env.md", "exec"), {})  # noqa: S102 - our own docs
    assert "total_timesteps" in capsys.readouterr().out  # it shows its progress while it trains
    assert (tmp_path / "classic_ppo.zip").exists()
    enters_eval_and_benchmark("ppo:classic_ppo.zip", tmp_path, capsys)


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
    assert main(["eval", "--team", name, "--vs", "random", "--pairs", "1", "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def test_a_torchrl_policy_module_through_the_example_adapter(tmp_path, capsys):
    pytest.importorskip("torchrl")
    import torch
    from tensordict.nn import TensorDictModule, TensorDictSequential
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper
    from torchrl.modules import MLP, QValueModule
    from torchrl.objectives import DQNLoss

    torch.manual_seed(0)
    group = "player_0"
    env = PettingZooWrapper(
        handfoot_v0.env(rules=Rules.preset("classic", num_deals=1)), use_mask=True, categorical_actions=True, seed=0
    )
    values = TensorDictModule(
        MLP(in_features=OBS_SIZE, out_features=NUM_ACTIONS, num_cells=[32]),
        in_keys=[(group, "observation", "observation")],
        out_keys=[(group, "action_value")],
    )
    choose = QValueModule(
        action_space="categorical",
        action_value_key=(group, "action_value"),
        action_mask_key=(group, "action_mask"),
        out_keys=[(group, "action"), (group, "action_value"), (group, "chosen_action_value")],
    )
    policy = TensorDictSequential(values, choose)
    loss = DQNLoss(policy, action_space=env.action_spec[group, "action"], delay_value=False)
    loss.set_keys(
        action_value=(group, "action_value"),
        action=(group, "action"),
        value=(group, "chosen_action_value"),
        reward=(group, "reward"),
        done=(group, "done"),
        terminated=(group, "terminated"),
    )
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    for _ in range(2):  # a DQN update on masked random play, twice
        optimizer.zero_grad()
        loss(env.rollout(64))["loss"].backward()
        optimizer.step()
    torch.save(policy, tmp_path / "policy.pt")
    enters_eval_and_benchmark(f"py:{EXAMPLES / 'torchrl_agent.py'}:make:{tmp_path / 'policy.pt'}", tmp_path, capsys)


def test_rllib_trains_saves_and_enters_the_benchmark(tmp_path, capsys):
    pytest.importorskip("ray")
    summary = train(
        "rllib_ppo.py", "--iterations", "1", "--batch", "400", "--hidden", "32", "--save", "ckpt", cwd=tmp_path
    )
    assert summary["saved"] == str(tmp_path / "ckpt")
    enters_eval_and_benchmark(f"py:{EXAMPLES / 'rllib_agent.py'}:make:{tmp_path / 'ckpt'}", tmp_path, capsys)
    assert np.isfinite(json.loads((tmp_path / "b" / "benchmark.json").read_text())["seconds"])
