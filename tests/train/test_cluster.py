"""Ray: distributed tournaments equal local ones, a tiny distributed training run end to end
(checkpoint, resume, final table), a rollout worker killed mid-run, a dead cluster in one line.

One local Ray instance with 2 CPUs serves the module (``ray.init(address="local")``: its own,
even where ``ray start`` runs on the machine), as on the CI machine."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import ray

from agents import make_agent
from agents.evaluation.matches import play_match
from agents.evaluation.ray import AgentSpec, Cluster, agent_spec, play_matches_on_ray
from handfoot_env.rules import Rules
from handfoot_lab.cli import main
from train.config import load_config
from train.loop import train
from train.ray_workers import RayCollector

ROOT = Path(__file__).resolve().parents[2]
TINY = [
    "name=tiny_ray",
    "env.num_envs=32",
    "ppo.n_steps=16",
    "ppo.batch_size=256",
    "ppo.n_epochs=1",
    "network.arch=[32]",
    "eval.every=1024",
    "eval.pairs=2",
    "eval.final_pairs=2",
    "eval.opponents=[random, greedy]",
    "checkpoint_every=1024",
    "league.snapshot_every=512",
    "league.opponents={random: 0.5, greedy: 0.5, self: 0.5}",
    "imitation.decisions=2000",
    "ppo.value_warmup_rollouts=1",
    "eval.keep_best_vs=greedy",
    "ray.workers=2",
    "tune.generations=0",
    "eval.select_pairs=2",
    "network.scaling_positions=500",
]


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR")
    yield
    ray.shutdown()


def _without_speed(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "steps_per_sec"}


def test_a_distributed_match_equals_the_local_one():
    """Two chunks (600 games), a sampling agent: the same games, the same numbers."""
    rules = Rules.preset("classic", num_deals=1)
    local = play_match(rules, make_agent("greedy"), make_agent("random", seed=7), 300, seed=11, progress=False)
    local_reversed = play_match(rules, make_agent("random"), make_agent("heuristic"), 300, seed=11, progress=False)
    found = play_matches_on_ray(
        rules,
        [(AgentSpec("greedy"), AgentSpec("random")), (AgentSpec("random"), AgentSpec("heuristic"))],
        300,
        seed=11,
        progress=False,
    )
    assert _without_speed(found[0].to_dict()) == _without_speed(local.to_dict())
    assert _without_speed(found[1].to_dict()) == _without_speed(local_reversed.to_dict())
    assert 0 < local.win_rate < 1


def test_eval_and_round_robin_with_ray_print_what_they_print_without(capsys):
    for command in (
        ["eval", "--preset", "partnership", "--team", "ppo", "--vs", "random", "--pairs", "4", "--json"],
        ["eval", "--preset", "classic", "--round-robin", "random,greedy,heuristic", "--pairs", "4", "--json"],
    ):
        assert main(command + ["--no-progress"]) == 0
        local = json.loads(capsys.readouterr().out)
        assert main(command + ["--no-progress", "--ray"]) == 0
        distributed = json.loads(capsys.readouterr().out)
        for data in (local, distributed):
            for result in data.get("results", [data]):
                result.pop("steps_per_sec")
        assert distributed == local


def test_the_heuristic_search_on_ray_finds_what_it_finds_here(capsys):
    """Every generation's matches on the cluster: the same variant, the same judgement."""
    import numpy as np

    from agents.evaluation.ray import play_variants_on_ray
    from train.tune import TuneConfig, tune

    rules = Rules.preset("partnership", num_deals=1)
    config = TuneConfig(generations=2, population=3, elite=1, pairs=4, final_pairs=4, seed=2, pair_positions=1000)
    here, there = tune(rules, config), tune(rules, config, play=play_variants_on_ray)
    assert np.array_equal(here.params, there.params)
    assert here.final.to_dict() | {"steps_per_sec": 0} == there.final.to_dict() | {"steps_per_sec": 0}
    args = [
        "tune",
        "--preset",
        "classic",
        "--deals",
        "1",
        "--generations",
        "1",
        "--population",
        "2",
        "--elite",
        "1",
        "--pairs",
        "3",
        "--final-pairs",
        "3",
        "--pair-positions",
        "500",
        "--json",
    ]
    assert main(args) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(args + ["--ray"]) == 0
    distributed = json.loads(capsys.readouterr().out)
    for result in (local, distributed):
        result["final"]["steps_per_sec"] = result["seconds"] = result["pair_model"]["seconds"] = 0
        for row in result["history"]:
            row["seconds"] = 0
    assert local == distributed


def test_a_trained_agent_reaches_workers_by_value(tmp_path):
    """The spec carries the model's bytes, and a worker builds its agent from them, not from
    a path of the driver's: a learner's policy that is in no file plays on the worker."""
    import numpy as np
    import torch

    from agents import make_agent
    from agents.evaluation.ray import build_agent, policy_spec
    from handfoot_env.vector import VectorEngine

    rules = Rules.preset("partnership")
    spec = agent_spec("ppo", rules)
    assert spec.model is not None and spec.model == (ROOT / "agents" / "models" / "ppo_partnership.pt").read_bytes()
    learner = make_agent("ppo", rules=rules).policy
    with torch.no_grad():  # a policy of its own: the shipped one, its actor's last layer moved
        learner.actor_layer.weight.add_(
            torch.randn_like(learner.actor_layer.weight, generator=torch.Generator().manual_seed(0))
        )
    worker = build_agent(policy_spec(learner, rules), rules)
    weights, expected = worker.policy.state_dict(), learner.state_dict()
    assert weights.keys() == expected.keys() and all(torch.equal(weights[k], expected[k]) for k in expected)
    engine = VectorEngine(rules, batch_size=64, seed=5)
    rng = np.random.default_rng(5)
    for _ in range(40):  # positions past the opening
        engine.step(np.array([rng.choice(np.flatnonzero(m)) for m in engine.legal_mask()]))
    observations, masks = engine.observe().copy(), engine.legal_mask().copy()
    shipped = make_agent("ppo", rules=rules)
    assert not np.array_equal(worker.act(observations, masks), shipped.act(observations, masks))


def test_a_py_agent_benchmarks_on_ray_to_the_local_numbers_and_its_fault_comes_back_whole(tmp_path, capsys):
    """The workers import the agent's file (the same path here); a fault on a worker is the
    same one line and record as locally."""
    from foreign_agents import trap_agent

    from agents.evaluation.benchmark import SEED

    random_agent = f"py:{ROOT / 'examples' / 'random_agent.py'}:make"
    reports = []
    for where, ray_args in (("local", []), ("ray", ["--ray"])):
        args = ["benchmark", random_agent, "--tables", "classic:2", "--pairs", "3", "--no-progress", "--json"]
        assert main([*args, "--out", str(tmp_path / where), *ray_args]) == 0
        reports.append(json.loads(capsys.readouterr().out))
    local, distributed = (
        [_without_speed(r) for r in t["entries"][random_agent]["results"].values()]
        for t in (reports[0]["tables"][0], reports[1]["tables"][0])
    )
    assert local == distributed and reports[1]["ray"] and not reports[0]["ray"]

    trap, _ = trap_agent(tmp_path, Rules.preset("classic"), seed=SEED, step=137)
    faults = []
    for where, ray_args in (("trap_local", []), ("trap_ray", ["--ray"])):
        args = ["benchmark", trap, "--tables", "classic:2", "--pairs", "1", "--no-progress"]
        assert main([*args, "--out", str(tmp_path / where), *ray_args]) == 1
        faults.append(json.loads((tmp_path / where / "benchmark.json").read_text())["faults"])
    capsys.readouterr()
    assert [f["message"].split("; the game so far")[0] for f in faults[0]] == [
        f["message"].split("; the game so far")[0] for f in faults[1]
    ]
    assert Path(faults[1][0]["record"]).read_text() == Path(faults[0][0]["record"]).read_text()


def test_tiny_distributed_training_resumes_and_prints_its_table(tmp_path, capsys):
    config = load_config(ROOT / "configs" / "ray_quick.yaml", TINY + [f"run_dir={tmp_path}", "total_timesteps=1024"])
    summary = train(config, progress=False)
    assert summary["num_timesteps"] == 1024 and summary["ray"]["workers"] == 2
    assert [r["vs"] for r in summary["final"]] == ["random", "greedy"]
    assert set(summary["timing_shares"]) == {"rollouts", "update"}
    assert {"simulation", "opponents", "inference"} <= set(summary["ray"]["worker_timing"])
    assert (config.path / "checkpoint" / "trainer.pt").exists() and (config.path / "model.pt").exists()
    capsys.readouterr()
    # resumed from the command line (one Ray start fewer than a second run would take)
    command = ["train", "--config", "configs/ray_quick.yaml", "--set", f"run_dir={tmp_path}"]
    command += [f"--set={item}" for item in TINY] + ["--set", "total_timesteps=2048", "--resume"]
    assert main(command) == 0
    out = capsys.readouterr().out
    assert "final evaluation, partnership" in out and "| random | 4 |" in out and "| greedy | 4 |" in out
    resumed = json.loads((config.path / "final_eval.json").read_text())
    assert resumed["num_timesteps"] == 2048
    segments = json.loads((config.path / "segments.json").read_text())
    assert [segment["start_step"] for segment in segments] == [0, 1024]  # resumed where it stopped
    assert [e["step"] for e in resumed["evals"]] == sorted(e["step"] for e in resumed["evals"])


def test_the_ray_rollout_is_each_workers_local_rollout_side_by_side_and_snapshots_reach_them():
    """Each worker's rows are what a local collector with the worker's deals, league and
    generator collects with the same weights, and the learner joins them game-wise (worker 0's
    games first), ``last_*`` too; a league snapshot reaches every worker."""
    import numpy as np
    import torch

    from train.algorithms.ppo import explore
    from train.collect import RolloutCollector, training_seed
    from train.league import League
    from train.loop import make_policy

    config = load_config(ROOT / "configs" / "ray_quick.yaml", TINY)  # self: no snapshot yet, so no share
    rules = config.make_rules()
    policy = make_policy(config, rules)
    with torch.no_grad():  # weights of its own, which the workers must receive
        policy.actor_layer.weight.add_(torch.randn_like(policy.actor_layer.weight))
    steps = 12
    collector = RayCollector(config, policy, say=lambda text: None)
    found = collector.collect(policy, explore, steps)
    share = config.env.num_envs // config.ray.workers
    parts = []
    for worker in range(config.ray.workers):
        seed = training_seed(config, 0, worker=worker)
        league = League(config.league.opponents, config.league.max_snapshots, seed=seed, rules=rules)
        local = RolloutCollector(
            rules,
            *league.pool(),
            seed=seed,
            num_envs=share,
            reward_mode=config.env.reward_mode,
            shaping=config.env.shaping,
            gamma=config.algo.gamma,
            generator=torch.Generator().manual_seed(seed),
        )
        parts.append(local.collect(policy, explore, steps))
    assert found is not None and set(found) == set(parts[0])
    for key, value in found.items():
        axis = 0 if key.startswith("last_") else 1
        expected = np.concatenate([part[key] for part in parts], axis=axis)
        np.testing.assert_allclose(value, expected, rtol=1e-6, atol=1e-6, err_msg=key)
    assert not np.array_equal(parts[0]["actions"], parts[1]["actions"])  # the workers play games of their own

    # League snapshots reach every worker.
    league = League(config.league.opponents, config.league.max_snapshots, rules=rules)
    league.add_snapshot(policy, rules, step=512)
    collector.set_league(league)
    buffers = collector.collect(policy, explore, steps)
    assert buffers is not None and buffers["actions"].shape == (steps, config.env.num_envs)
    for worker in collector.workers:
        assert ray.get(worker.opponents.remote()) == ["random", "greedy", "snapshot@512"]


def test_bench_train_times_the_distributed_trainer(capsys):
    from tests.lab.test_cli import TINY_TRAINING

    assert main(["bench", "--train", "--config", "configs/ray_quick.yaml", *TINY_TRAINING]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["ray"]["workers"] == 2 and row["steps"] == 1024
    assert set(row["shares"]) == {"rollouts", "update"} and abs(sum(row["shares"].values()) - 1) < 1e-6


def test_killing_a_rollout_worker_does_not_stop_training(tmp_path, monkeypatch):
    """The second rollout's worker 0 is killed while it collects; Ray restarts it, retries the
    rollout, and the run finishes with the restart reported."""
    collect, calls, kills = RayCollector.collect, [], []

    def collect_and_kill(self, policy, explore, n_steps, stop=lambda: False):
        calls.append(1)
        if len(calls) == 2:
            pid = self.pids[0]
            killer = threading.Timer(0.05, lambda: (os.kill(pid, signal.SIGKILL), kills.append(pid)))
            killer.start()
        return collect(self, policy, explore, n_steps, stop)

    monkeypatch.setattr(RayCollector, "collect", collect_and_kill)
    config = load_config(
        ROOT / "configs" / "ray_quick.yaml",
        TINY
        + [
            f"run_dir={tmp_path}",
            "total_timesteps=4096",
            "ppo.n_steps=64",
            "eval.every=0",
            "eval.keep_best_vs=",
            "league.snapshot_every=0",
            "league.opponents={random: 0.5, greedy: 0.5}",
        ],
    )
    summary = train(config, progress=False)
    assert kills, "the worker was not killed"
    assert summary["num_timesteps"] == 4096 and summary["ray"]["worker_restarts"] >= 1
    assert summary["final"][0]["games"] == 4


def test_more_workers_than_cpus_is_refused_not_left_waiting(tmp_path):
    config = load_config(ROOT / "configs" / "ray_quick.yaml", TINY + [f"run_dir={tmp_path}", "ray.workers=4"])
    with pytest.raises(ValueError, match="ray.workers 4 needs 4 CPUs and the Ray cluster has 2"):
        train(config, progress=False)
    assert not config.path.exists()


def test_ray_on_this_machine_is_an_instance_of_its_own(monkeypatch):
    """``ray.address: ""`` starts Ray here, never joining a cluster that ``ray start`` runs on
    the machine (``ray.init()`` without an address would join it)."""
    calls = []
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kwargs: calls.append(kwargs))
    for address in ("", "local"):
        assert Cluster(address).started_here
    assert [call["address"] for call in calls] == ["local", "local"]


def test_a_dead_cluster_is_one_clear_line(tmp_path):
    with pytest.raises(ValueError, match="cannot reach the Ray cluster at 127.0.0.1:1: .*ray start --head"):
        Cluster("127.0.0.1:1")
    config = load_config(ROOT / "configs" / "ray_quick.yaml", TINY + [f"run_dir={tmp_path}", "ray.address=127.0.0.1:1"])
    with pytest.raises(ValueError, match="cannot reach the Ray cluster"):
        train(config, progress=False)
    assert not config.path.exists()  # refused before the run folder was made
    result = subprocess.run(  # noqa: PLW1510 - the exit status is what is checked
        [sys.executable, "-m", "handfoot_lab.cli", "eval", "--pairs", "2", "--ray", "127.0.0.1:1"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().count("\n") == 0 and "cannot reach the Ray cluster at 127.0.0.1:1" in result.stderr
