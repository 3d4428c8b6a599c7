"""A tiny training run end to end: TensorBoard logs, checkpoints, resume, final evaluation,
the trained agent loadable by name, and the analysis notebook executed on the run."""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from agents import make_agent
from train.config import load_config
from train.ppo import train

ROOT = Path(__file__).resolve().parents[2]
TINY = [
    "name=tiny", "num_envs=16", "n_steps=16", "batch_size=128", "n_epochs=1", "net_arch=[32]",
    "eval_every=256", "eval_pairs=2", "final_eval_pairs=2", "eval_opponents=[random, greedy]",
    "checkpoint_every=256", "snapshot_every=256", "opponents={random: 0.5, greedy: 0.5, self: 0.5}",
]


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("runs")
    config = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={run_dir}", "total_timesteps=512"])
    train(config)
    return config, run_dir


def test_a_run_writes_logs_checkpoints_and_a_final_evaluation(tiny_run):
    config, _ = tiny_run
    run = config.path
    assert any((run / "tensorboard").rglob("events.out.tfevents.*"))
    assert (run / "checkpoint" / "model.zip").exists() and (run / "model.zip").exists()
    summary = json.loads((run / "final_eval.json").read_text())
    assert [r["vs"] for r in summary["final"]] == ["random", "greedy"]
    assert len(summary["evals"]) >= 1 and summary["num_timesteps"] >= 512


def test_resume_continues_the_run(tiny_run):
    config, run_dir = tiny_run
    before = json.loads((config.path / "checkpoint" / "state.json").read_text())
    longer = load_config(ROOT / "configs" / "quick.yaml", TINY + [f"run_dir={run_dir}", "total_timesteps=1024"])
    summary = train(longer, resume=True)
    assert summary["num_timesteps"] >= 1024
    assert len(summary["evals"]) > len(before["evals"])  # history kept and extended
    assert [e["step"] for e in summary["evals"]] == sorted(e["step"] for e in summary["evals"])


def test_trained_model_is_an_agent(tiny_run):
    config, _ = tiny_run
    agent = make_agent(f"ppo:{config.path / 'model.zip'}")
    import numpy as np

    from handfoot_env import Rules
    from handfoot_env.vector import VectorEngine

    engine = VectorEngine(Rules.preset("partnership"), batch_size=4)
    masks = engine.legal_mask().copy()
    actions = agent.act(engine.observe().copy(), masks)
    assert masks[np.arange(4), actions].all()
    with pytest.raises(ValueError, match="no trained model"):
        make_agent("ppo:/nonexistent/model.zip")


def test_notebook_executes_on_the_run(tiny_run):
    config, _ = tiny_run
    notebook = nbformat.read(ROOT / "notebooks" / "results.ipynb", as_version=4)
    os.environ["HANDFOOT_RUN"] = str(config.path)
    try:
        NotebookClient(notebook, timeout=300, kernel_name="python3",
                       resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    finally:
        del os.environ["HANDFOOT_RUN"]
    assert (config.path / "learning_curves.png").exists() and (config.path / "final_eval.png").exists()


def test_house_trains_in_teams(tmp_path):
    """The lab trains on house too (4 players in teams), through to the final evaluation."""
    overrides = TINY + [f"run_dir={tmp_path}", "total_timesteps=256", "name=house", "preset=house",
                        "rules={num_players: 4, num_deals: 1}", "eval_every=0", "final_eval_pairs=1",
                        "eval_opponents=[random]", "opponents={random: 1.0}", "snapshot_every=0"]
    config = load_config(ROOT / "configs" / "quick.yaml", overrides)
    train(config)
    summary = json.loads((config.path / "final_eval.json").read_text())
    assert [r["vs"] for r in summary["final"]] == ["random"] and summary["final"][0]["games"] == 2
