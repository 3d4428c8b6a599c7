"""The algorithms behind the lab loop: PPO's advantages and update, Deep Monte-Carlo's returns."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.baselines import make_baseline
from handfoot_env.rules import Rules
from train.algorithms import ALGORITHMS
from train.algorithms.dmc import DMC, monte_carlo_returns
from train.algorithms.ppo import PPO, gae, sample
from train.collect import RolloutCollector
from train.config import load_config
from train.loop import make_policy

RULES = Rules.preset("classic", num_players=2, num_deals=1)


def tiny_config(*overrides: str):
    return load_config(
        None,
        [
            "preset=classic",
            "rules={num_players: 2, num_deals: 1}",
            "env.num_envs=16",
            "ppo.n_steps=16",
            "ppo.batch_size=256",
            "ppo.n_epochs=1",
            "dmc.n_steps=16",
            "dmc.batch_size=256",
            "network.arch=[32]",
            *overrides,
        ],
    )


def rollout(config, policy, explore, steps: int, seed: int = 0) -> dict:
    collector = RolloutCollector(
        RULES, [make_baseline("greedy", rules=RULES)], [1.0], seed=seed, num_envs=config.env.num_envs
    )
    return collector.collect(policy, explore, steps)


def test_gae_matches_the_definition_and_stops_at_a_finished_game():
    rewards = np.array([[0.0], [1.0], [0.0], [2.0]], dtype=np.float32)
    values = np.array([[0.5], [0.25], [1.0], [0.5]], dtype=np.float32)
    dones = np.array([[0.0], [1.0], [0.0], [0.0]], dtype=np.float32)
    last = np.array([4.0], dtype=np.float32)
    gamma, lam = 0.9, 0.8
    advantages, returns = gae(rewards, values, dones, last, gamma, lam)
    # by hand, backwards: the game ends at step 1, so steps 0-1 never see steps 2-3
    d3 = 2.0 + gamma * 4.0 - 0.5
    d2 = 0.0 + gamma * 0.5 - 1.0
    d1 = 1.0 + 0.0 - 0.25
    d0 = 0.0 + gamma * 0.25 - 0.5
    expected = [d0 + gamma * lam * d1, d1, d2 + gamma * lam * d3, d3]
    assert advantages[:, 0] == pytest.approx(expected)
    assert returns[:, 0] == pytest.approx(np.array(expected) + values[:, 0])


def test_a_huge_value_loss_does_not_shrink_the_policys_step():
    """The actor's and the critic's gradients are clipped separately: with value targets a
    million times too large, the policy moves as far as with sane ones.  (One clip over
    both, as in 0.4, lets the critic's gradient norm scale the actor's step to almost 0.)"""
    config = tiny_config("ppo.max_grad_norm=0.5", "ppo.learning_rate=0.001")
    base = make_policy(config, RULES)
    batch = rollout(config, base, ALGORITHMS["ppo"](config, base).explore, 16)

    def actor_step(reward_scale: float) -> float:
        policy = make_policy(config, RULES)
        policy.load_state_dict(base.state_dict())
        before = [p.detach().clone() for p in policy.actor_parameters()]
        scaled = dict(batch, rewards=batch["rewards"] * reward_scale + reward_scale * 0.01)
        PPO(config, policy).update(scaled, 0)
        return sum(float((p.detach() - b).norm()) for p, b in zip(policy.actor_parameters(), before))

    sane, huge = actor_step(1.0), actor_step(1e6)
    assert huge > 0.5 * sane > 0


def test_sampling_draws_each_action_at_its_chance_and_never_an_illegal_one(monkeypatch):
    probs = torch.tensor([[0.0, 0.5, 0.0, 0.25, 0.25, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]]).repeat(50_000, 1)
    actions = sample(probs, torch.Generator().manual_seed(0)).reshape(50_000, 2)
    first = torch.bincount(actions[:, 0], minlength=6) / 50_000
    assert torch.allclose(first, torch.tensor([0.0, 0.5, 0.0, 0.25, 0.25, 0.0]), atol=0.01)
    assert (actions[:, 1] == 5).all()  # the last action, the only legal one
    # The ends of the draw's range: a draw of 0 takes the first legal action (not an illegal
    # one before it), and a draw rounded up to the total still finds a legal action.
    edge = torch.tensor([[0.0, 0.3, 0.7, 0.0]])
    for draw, legal in ((0.0, 1), (1.0, 2)):
        monkeypatch.setattr(torch, "rand", lambda size, generator=None, d=draw: torch.full(size, d))
        assert int(sample(edge, torch.Generator())) == legal


def test_ppo_learns_a_first_minibatch_with_a_ratio_of_one():
    """The rollout kept the log-probabilities of exactly the network it updates: before the
    first step the ratio is 1 and nothing is clipped."""
    config = tiny_config()
    policy = make_policy(config, RULES)
    algorithm = PPO(config, policy)
    batch = rollout(config, policy, algorithm.explore, 16)
    with torch.no_grad():
        logits, values = policy(
            torch.as_tensor(batch["x"].reshape(-1, policy.width)),
            torch.as_tensor(batch["masks"].reshape(-1, NUM_ACTIONS)),
        )
    chosen = torch.log_softmax(logits, -1).gather(1, torch.as_tensor(batch["actions"].reshape(-1, 1))).squeeze(1)
    assert torch.allclose(chosen, torch.as_tensor(batch["logprobs"].reshape(-1)), atol=1e-5)
    assert np.allclose(values.numpy(), batch["values"].reshape(-1), atol=1e-5)
    # The update itself: one epoch of one minibatch (16 x 16 = 256 rows) reads its ratios
    # before its step, so they are all 1.
    stats = algorithm.update(batch, 0)
    assert stats["clip_fraction"] == 0.0 and abs(stats["approx_kl"]) < 1e-6


def test_an_annealed_learning_rate_falls_linearly_to_zero_at_the_last_step():
    config = tiny_config("ppo.anneal_lr=true", "ppo.learning_rate=0.002", "total_timesteps=1000")
    policy = make_policy(config, RULES)
    algorithm = PPO(config, policy)
    batch = rollout(config, policy, algorithm.explore, 16)
    assert algorithm.update(batch, 250)["learning_rate"] == pytest.approx(0.0015)
    assert algorithm.optimizer.param_groups[0]["lr"] == pytest.approx(0.0015)
    assert algorithm.learning_rate(1000) == 0.0 and algorithm.learning_rate(5000) == 0.0
    constant = PPO(tiny_config("ppo.learning_rate=0.002", "total_timesteps=1000"), policy)
    assert constant.learning_rate(999) == pytest.approx(0.002)


def test_a_last_minibatch_of_one_decision_leaves_the_network_finite():
    """A rollout of 16 x 16 = 256 decisions in minibatches of 255 ends with one row, whose
    advantages have no spread: normalising them would make the whole network NaN."""
    config = tiny_config("ppo.batch_size=255")
    policy = make_policy(config, RULES)
    algorithm = PPO(config, policy)
    algorithm.update(rollout(config, policy, algorithm.explore, 16), 0)
    assert all(torch.isfinite(p).all() for p in policy.parameters())


def test_monte_carlo_returns_run_to_the_end_of_each_horizon():
    rewards = np.array([[1.0, 0.0], [0.0, 0.0], [2.0, 5.0], [3.0, 0.0]], dtype=np.float32)
    ends = np.array([[0, 0], [1, 0], [0, 1], [0, 0]], dtype=np.float32)
    returns, complete = monte_carlo_returns(rewards, ends, gamma=0.5)
    assert returns[:, 0] == pytest.approx([1.0, 0.0, 2.0 + 0.5 * 3.0, 3.0])
    assert returns[:, 1] == pytest.approx([0.25 * 5.0, 0.5 * 5.0, 5.0, 0.0])
    assert complete[:, 0].tolist() == [True, True, False, False]
    assert complete[:, 1].tolist() == [True, True, True, False]


def test_dmc_learns_from_each_decision_once_with_its_whole_return():
    """Decisions wait until their horizon ends (possibly rollouts later), then each is learned
    from exactly once, with the return summed across the rollouts it spans."""
    config = tiny_config("algorithm=dmc", "network.shared=true", "dmc.horizon=game", "dmc.gamma=1.0")
    policy = make_policy(config, RULES)
    dmc = DMC(config, policy)
    envs, steps = config.env.num_envs, config.dmc.n_steps
    rng = np.random.default_rng(0)
    seen_returns, total_returns = [], 0.0
    ends = np.zeros((6 * steps, envs), dtype=np.float32)
    ends[rng.integers(0, 6 * steps, size=20), rng.integers(0, envs, size=20)] = 1
    ends[-1] = 1  # every game closes by the end
    rewards = rng.normal(size=(6 * steps, envs)).astype(np.float32)
    for k in range(6):
        part = slice(k * steps, (k + 1) * steps)
        batch = {
            "x": np.zeros((steps, envs, policy.width), dtype=np.float32),
            "masks": np.ones((steps, envs, 173), dtype=bool),
            "actions": np.zeros((steps, envs), dtype=np.int64),
            "rewards": rewards[part],
            "dones": ends[part],
            "deal_ends": np.zeros((steps, envs), dtype=np.float32),
        }
        ready = dmc._ready(batch)
        seen_returns.append(ready["returns"])
        total_returns += float(ready["returns"].sum())
    expected, complete = monte_carlo_returns(rewards, ends, 1.0)
    assert complete.all() and sum(len(r) for r in seen_returns) == 6 * steps * envs  # each decision once
    assert total_returns == pytest.approx(float(expected.sum()), rel=1e-5)
    assert dmc.pending["rewards"].shape[0] == 0
