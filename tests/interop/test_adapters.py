"""Agents trained under other frameworks enter ``handfoot eval`` and ``handfoot benchmark``
unchanged: a MaskablePPO model from the SB3 snippet of docs/env.md (``ppo:model.zip``), and through
the adapters in ``examples/``, a tianshou policy, a TorchRL policy module and an RLlib
checkpoint, each trained a little on the lab's env here (as tests/interop trains them).  Each
adapter, loaded from the saved file as ``py:`` loads it, chooses on observations recorded from
the env what the framework's own policy chose there (an adapter that ignored the trained
policy would not)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from interop.setups import dqn_beside_random, masked_ppo

from handfoot_env import Rules, handfoot_v0
from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.observation import OBS_SIZE
from handfoot_lab.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def chooses_as_the_framework_did(name: str, observations, masks, chosen) -> None:
    """The agent ``name`` (built as eval builds it, behind the guard) picks ``chosen`` on these
    recorded rows; the rows hold positions with several legal moves and varied choices."""
    from agents import make_agent

    observations, masks, chosen = np.asarray(observations, np.float32), np.asarray(masks, bool), np.asarray(chosen)
    assert len(chosen) >= 20 and (masks.sum(axis=1) > 1).mean() > 0.5
    assert len(set(chosen.tolist())) > 3 and (chosen != masks.argmax(axis=1)).any()  # not the first legal move
    assert make_agent(name).act(observations, masks).tolist() == chosen.tolist()


def enters_eval_and_benchmark(name: str, tmp_path: Path, capsys) -> None:
    """The agent plays a match and the benchmark on classic for 2 (a few games each), legally."""
    faults = ["--faults", str(tmp_path / "faults")]  # a slow decision's record goes there, not into the checkout
    assert main(["eval", "--team", name, "--vs", "random", "--pairs", "2", "--json", "--no-progress", *faults]) == 0
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


def test_a_tianshou_policy_through_the_example_adapter(tmp_path, capsys):
    pytest.importorskip("tianshou")
    import torch
    from tianshou.algorithm.algorithm_base import policy_within_training_step
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.env.pettingzoo_env import PettingZooEnv

    def make():
        return PettingZooEnv(handfoot_v0.env(rules=Rules.preset("classic", num_deals=1)))

    env = make()
    learner, algorithm = dqn_beside_random(env, 2)
    envs = DummyVectorEnv([make, make])
    envs.seed(0)
    collector = Collector[CollectStats](algorithm, envs, VectorReplayBuffer(20_000, len(envs)), exploration_noise=True)
    collector.reset()
    collector.collect(n_episode=2)
    with policy_within_training_step(algorithm.policy):
        algorithm.update(sample_size=64, buffer=collector.buffer)
    torch.save(learner.policy, tmp_path / "policy.pt")
    name = f"py:{EXAMPLES / 'tianshou_agent.py'}:make:{tmp_path / 'policy.pt'}"
    # tianshou's own collector, exploration off, records what each seat saw and played
    recorder = Collector[CollectStats](algorithm, envs, VectorReplayBuffer(2_000, len(envs)), exploration_noise=False)
    recorder.reset()
    recorder.collect(n_step=240)
    played = recorder.buffer[np.arange(len(recorder.buffer))]
    mine = played.obs.agent_id == env.agents[0]  # the DQN's seat (the other plays at random)
    chooses_as_the_framework_did(name, played.obs.obs[mine], played.obs.mask[mine], played.act[mine])
    enters_eval_and_benchmark(name, tmp_path, capsys)


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
    name = f"py:{EXAMPLES / 'torchrl_agent.py'}:make:{tmp_path / 'policy.pt'}"
    # positions recorded from the env; the policy module's own choice on each
    recorded = env.rollout(120)
    with torch.no_grad():
        decided = policy(recorded.clone())
    acted = recorded[group, "mask"].reshape(-1)
    observations = recorded[group, "observation", "observation"].reshape(len(acted), -1)[acted]
    masks = recorded[group, "action_mask"].reshape(len(acted), -1)[acted]
    chooses_as_the_framework_did(name, observations, masks, decided[group, "action"].reshape(-1)[acted])
    enters_eval_and_benchmark(name, tmp_path, capsys)


def test_an_rllib_checkpoint_through_the_example_adapter(tmp_path, capsys):
    ray = pytest.importorskip("ray")
    import torch
    from ray.tune.registry import register_env

    from handfoot_env.envs.rllib import rllib_env

    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        register_env("handfoot", rllib_env)
        algorithm = masked_ppo("classic", 2).build_algo()
        try:
            algorithm.train()
            checkpoint = algorithm.save_to_path(str(tmp_path / "checkpoint"))
            module = algorithm.get_module("shared")
            # positions recorded from the env (random legal play); RLlib's own choice on each:
            # the module's inference outputs, read by its inference distribution, deterministic
            observations, masks = recorded_positions(rllib_env({"preset": "classic", "num_players": 2}), 60)
            with torch.no_grad():
                outputs = module.forward_inference(
                    {"obs": {"observation": torch.as_tensor(observations), "action_mask": torch.as_tensor(masks)}}
                )
                distribution = module.get_inference_action_dist_cls().from_logits(outputs["action_dist_inputs"])
                chosen = distribution.to_deterministic().sample().numpy()
        finally:
            algorithm.stop()
    finally:
        ray.shutdown()
    name = f"py:{EXAMPLES / 'rllib_agent.py'}:make:{checkpoint}"
    chooses_as_the_framework_did(name, observations, masks, chosen)
    enters_eval_and_benchmark(name, tmp_path, capsys)
    assert np.isfinite(json.loads((tmp_path / "b" / "benchmark.json").read_text())["seconds"])


def recorded_positions(env, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """(observations, masks) of the player to move at each of ``steps`` steps of random legal
    play in an RLlib multi-agent env (a new game when one ends)."""
    rng = np.random.default_rng(0)
    observations, masks = [], []
    seen, _ = env.reset(seed=0)
    while len(masks) < steps:
        ((agent, obs),) = seen.items()
        observations.append(np.asarray(obs["observation"], np.float32))
        masks.append(np.asarray(obs["action_mask"], np.float32))
        seen, _, terminated, _, _ = env.step({agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))})
        if terminated.get("__all__") or not seen:
            seen, _ = env.reset()
    return np.stack(observations), np.stack(masks)
