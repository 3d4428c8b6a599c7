"""Advantages and returns against plain references written from their definitions, on rollouts
with games and deals ending in the middle: GAE (PPO) sums the discounted TD errors up to the
end of the game, never across it and never stopping at a deal's end; Deep Monte-Carlo's return
sums the rewards up to the end of its horizon (the deal, or the game)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.rules import Rules
from train.algorithms.dmc import DMC, monte_carlo_returns
from train.algorithms.ppo import PPO, gae
from train.config import load_config
from train.loop import make_policy

RULES = Rules.preset("classic", num_players=2, num_deals=2)
STEPS, ENVS = 12, 5


def small_config(*settings: str):
    """A test-sized config on ``RULES`` (classic for 2, two deals; a 16-unit network)."""
    return load_config(None, ["preset=classic", "rules={num_players: 2, num_deals: 2}", "network.arch=[16]", *settings])


def ends_in_the_middle(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rewards, values, game ends and deal ends ``[STEPS, ENVS]``: every game ends where a deal
    does, some deals end without the game; one column never ends, one ends at its last step."""
    rng = np.random.default_rng(seed)
    rewards = rng.normal(size=(STEPS, ENVS)).astype(np.float32)
    values = rng.normal(size=(STEPS, ENVS)).astype(np.float32)
    deal_ends = np.zeros((STEPS, ENVS), dtype=np.float32)
    game_ends = np.zeros((STEPS, ENVS), dtype=np.float32)
    deal_ends[[2, 5, 9], 0], game_ends[5, 0] = 1, 1  # a deal, the game, then a deal of the next game
    deal_ends[[3, 7], 1], game_ends[7, 1] = 1, 1
    deal_ends[[1, 4, 6, 10], 2], game_ends[[4, 10], 2] = 1, 1  # two games end
    deal_ends[11, 3], game_ends[11, 3] = 1, 1  # the game ends at the last step
    deal_ends[[0, 8], 4] = 1  # deals end, the game goes on past the rollout
    return rewards, values, game_ends, deal_ends


def reference_gae(rewards, values, game_ends, last_value, gamma, lam):
    """A_t = sum over k >= t, up to the step that ends the game, of (gamma lam)^(k - t) delta_k,
    delta_k = r_k + gamma V(s_k+1) - V(s_k), with V after a game's end 0 and V after the last
    step the critic's value of the next inputs."""
    steps, envs = rewards.shape
    advantages = np.zeros((steps, envs))
    for env in range(envs):
        for t in range(steps):
            total = 0.0
            for k in range(t, steps):
                if game_ends[k, env]:
                    following = 0.0
                elif k + 1 < steps:
                    following = values[k + 1, env]
                else:
                    following = last_value[env]
                total += (gamma * lam) ** (k - t) * (rewards[k, env] + gamma * following - values[k, env])
                if game_ends[k, env]:
                    break
            advantages[t, env] = total
    return advantages, advantages + values


def reference_returns(rewards, ends, gamma):
    """G_t = sum over k >= t, up to and including the first step that ends the horizon, of
    gamma^(k - t) r_k; known only where such a step is in the rollout."""
    steps, envs = rewards.shape
    returns, known = np.zeros((steps, envs)), np.zeros((steps, envs), dtype=bool)
    for env in range(envs):
        for t in range(steps):
            for k in range(t, steps):
                returns[t, env] += gamma ** (k - t) * rewards[k, env]
                if ends[k, env]:
                    known[t, env] = True
                    break
    return returns, known


@pytest.mark.parametrize("gamma, lam", [(0.9, 0.8), (1.0, 1.0), (0.995, 0.95), (0.5, 0.0)])
def test_gae_equals_its_definition_with_games_and_deals_ending_mid_rollout(gamma, lam):
    rewards, values, game_ends, _ = ends_in_the_middle()
    last = np.array([0.3, -1.0, 2.0, 5.0, 0.7], dtype=np.float32)
    advantages, returns = gae(rewards, values, game_ends, last, gamma, lam)
    expected, expected_returns = reference_gae(rewards, values, game_ends, last, gamma, lam)
    np.testing.assert_allclose(advantages, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(returns, expected_returns, rtol=1e-5, atol=1e-5)


def test_ppo_cuts_its_advantages_at_game_ends_only_and_bootstraps_from_the_critic():
    """The update's targets: GAE over the rollout's game ends (not its deal ends), the value
    after the last step read by the critic from ``last_x``."""
    config = small_config("ppo.gamma=0.9")
    policy = make_policy(config, RULES)
    rewards, values, game_ends, deal_ends = ends_in_the_middle(1)
    rng = np.random.default_rng(1)
    masks = np.ones((ENVS, NUM_ACTIONS), dtype=bool)
    batch = {
        "rewards": rewards,
        "values": values,
        "dones": game_ends,
        "deal_ends": deal_ends,
        "last_x": rng.normal(size=(ENVS, policy.width)).astype(np.float32),
        "last_masks": masks,
    }
    with torch.no_grad():
        _, last = policy(torch.as_tensor(batch["last_x"]), torch.as_tensor(masks))
    advantages, returns = PPO(config, policy).targets(batch)
    expected, expected_returns = reference_gae(rewards, values, game_ends, last.numpy(), 0.9, config.ppo.gae_lambda)
    np.testing.assert_allclose(advantages, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(returns, expected_returns, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("gamma", [1.0, 0.9])
def test_monte_carlo_returns_equal_their_definition_to_each_horizon(gamma):
    rewards, _, game_ends, deal_ends = ends_in_the_middle(2)
    for ends in (game_ends, deal_ends):
        returns, complete = monte_carlo_returns(rewards, ends, gamma)
        expected, known = reference_returns(rewards, ends, gamma)
        np.testing.assert_array_equal(complete, known)
        np.testing.assert_allclose(returns[known], expected[known], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("horizon", ["deal", "game"])
def test_dmc_learns_each_decision_with_the_return_to_the_end_of_its_horizon(horizon):
    """Over two rollouts, every decision whose horizon closed is learned once, with its return
    (``deal``: to the deal's end; ``game``: to the game's end, through its deal ends)."""
    config = small_config("algorithm=dmc", "dmc.gamma=0.9", f"dmc.horizon={horizon}")
    policy = make_policy(config, RULES)
    dmc = DMC(config, policy)
    rewards, _, game_ends, deal_ends = ends_in_the_middle(3)
    ends = deal_ends if horizon == "deal" else game_ends
    expected, known = reference_returns(rewards, ends, 0.9)
    tagged = np.arange(STEPS * ENVS).reshape(STEPS, ENVS)  # each decision's action: its own number
    learned = {}
    half = STEPS // 2
    for part in (slice(0, half), slice(half, STEPS)):
        steps = part.stop - part.start
        ready = dmc._ready(
            {
                "x": np.zeros((steps, ENVS, policy.width), dtype=np.float32),
                "masks": np.ones((steps, ENVS, NUM_ACTIONS), dtype=bool),
                "actions": tagged[part],
                "rewards": rewards[part],
                "dones": game_ends[part],
                "deal_ends": deal_ends[part],
            }
        )
        for action, value in zip(ready["actions"], ready["returns"]):
            assert int(action) not in learned, "a decision was learned twice"
            learned[int(action)] = float(value)
    assert sorted(learned) == sorted(tagged[known].tolist())
    for action, value in learned.items():
        t, env = divmod(action, ENVS)
        assert value == pytest.approx(expected[t, env], rel=1e-5, abs=1e-5)


def test_dmc_moves_each_chosen_q_value_towards_its_return():
    config = small_config("algorithm=dmc", "dmc.learning_rate=0.01", "dmc.horizon=game")
    torch.manual_seed(0)
    policy = make_policy(config, RULES)
    dmc = DMC(config, policy)
    rng = np.random.default_rng(4)
    steps, envs = 4, 8
    batch = {
        "x": rng.normal(size=(steps, envs, policy.width)).astype(np.float32),
        "masks": np.ones((steps, envs, NUM_ACTIONS), dtype=bool),
        "actions": rng.integers(NUM_ACTIONS, size=(steps, envs)),
        "rewards": rng.normal(size=(steps, envs)).astype(np.float32) * 2,
        "dones": np.ones((steps, envs), dtype=np.float32),  # every decision ends its game: G = r
        "deal_ends": np.ones((steps, envs), dtype=np.float32),
    }

    def chosen_q() -> np.ndarray:
        with torch.no_grad():
            q = policy.logits(
                torch.as_tensor(batch["x"].reshape(-1, policy.width)),
                torch.ones(steps * envs, NUM_ACTIONS, dtype=torch.bool),
            )
        return q.gather(1, torch.as_tensor(batch["actions"].reshape(-1, 1))).squeeze(1).numpy()

    before = np.abs(chosen_q() - batch["rewards"].reshape(-1))
    assert dmc.update(batch, 0)["learned_decisions"] == steps * envs
    after = np.abs(chosen_q() - batch["rewards"].reshape(-1))
    assert after.mean() < before.mean() - 0.05 and (after < before).mean() > 0.75
