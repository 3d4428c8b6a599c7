"""The Gymnasium env and the SB3 VecEnv: ecosystem checks, MaskablePPO, rewards to the right seat."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from handfoot_env.envs.gymnasium import HandFootGymEnv
from handfoot_env.envs.sb3 import HandFootVecEnv


@pytest.mark.parametrize("preset", ["classic", "partnership", "house"])
def test_gymnasium_and_sb3_check_env(preset, capsys):
    import gymnasium

    import handfoot_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning either: finite bounds, seeded randomness, render fps
        # Every default, the render checks included (they remake the env from its spec, so
        # on the env gymnasium.make builds; constructed directly it has no spec to remake).
        gymnasium_check_env(gymnasium.make(handfoot_env.GYMNASIUM_ID, preset=preset).unwrapped)
        gymnasium_check_env(HandFootGymEnv(preset=preset), skip_render_check=True)
    assert "to go out" in capsys.readouterr().out  # the human render checked did print the table
    sb3_check_env(HandFootGymEnv(preset=preset, opponent="random"))


def test_gym_env_illegal_actions_raise_or_are_skipped():
    from handfoot_env.errors import IllegalActionError

    env = HandFootGymEnv(preset="classic", opponent="random", illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="before discarding"):
        env.step(70)
    env = HandFootGymEnv(preset="classic", opponent="random", illegal_action="skip")
    obs, _ = env.reset(seed=0)
    again, reward, terminated, _, info = env.step(70)
    assert reward == 0 and not terminated and "before discarding" in info["illegal_action"]
    assert np.array_equal(obs, again)


def learns(model: MaskablePPO, steps: int) -> None:
    """``model.learn(steps)``, then: every layer of the policy moved (gradients reached it
    through the masked distribution), and the losses of the last update were finite."""
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(steps)
    logged = model.logger.name_to_value
    moved = [not torch.equal(b, p) for b, p in zip(before, model.policy.parameters())]
    assert all(moved), f"{moved.count(False)} of {len(moved)} parameter tensors never changed"
    assert np.isfinite(logged["train/loss"]) and logged["train/approx_kl"] > 0


def test_maskable_ppo_trains_through_the_gym_env():
    model = MaskablePPO(
        "MlpPolicy",
        HandFootGymEnv(preset="classic", opponent="random"),
        n_steps=512,
        batch_size=128,
        n_epochs=1,
        seed=0,
    )
    learns(model, 2048)


def test_maskable_ppo_trains_through_the_vec_env():
    venv = HandFootVecEnv(num_envs=64, preset="partnership", opponent=["random", "greedy"], seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=1024, n_epochs=1, seed=0)
    learns(model, 4096 * 2)


def test_vec_env_masks_are_never_empty_and_the_learner_is_always_to_move():
    venv = HandFootVecEnv(num_envs=32, preset="partnership", opponent="greedy", seed=1)
    venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(400):
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.any(axis=1).all()
        movers = venv.games.engine.current_player % 2
        assert (movers == venv.games.learner_side).all()
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        venv.step(np.array(actions))


@pytest.mark.parametrize(
    "preset,players", [("classic", 2), ("classic", 3), ("partnership", 4), ("house", 2), ("house", 4)]
)
def test_rewards_reach_the_learners_seat_only(preset, players):
    """Over a whole game the learner's return must equal its side's score difference."""
    venv = HandFootVecEnv(num_envs=16, preset=preset, num_players=players, opponent="greedy", seed=4)
    venv.reset()
    rng = np.random.default_rng(1)
    returns = np.zeros(16)
    checked = 0
    sides = set()
    for _ in range(6000):
        masks = venv.action_masks()
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        _, rewards, dones, infos = venv.step(actions)
        returns += rewards
        for b in np.flatnonzero(dones):
            totals = infos[b]["final_totals"]
            side = infos[b]["learner_side"]
            others = (sum(totals) - totals[side]) / (len(totals) - 1)
            assert returns[b] == pytest.approx((totals[side] - others) / 1000, abs=1e-3)
            sides.add(side)
            returns[b] = 0
            checked += 1
        if checked >= 12:
            break
    assert checked >= 12 and len(sides) > 1  # the learner sat on more than one side


def test_gym_env_game_over_needs_reset():
    env = HandFootGymEnv(preset="classic", opponent="greedy")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    assert "final_totals" in info
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_every_single_learner_shell_drives_the_one_loop():
    """The Gymnasium env and vector env, SB3's VecEnv and TorchRL's env with an opponent play
    through seating's LearnerGames (rewards, opponents and illegal actions decided once)."""
    from handfoot_env.envs.gymnasium_vector import HandFootVectorEnv
    from handfoot_env.envs.torchrl import HandFootTorchRLEnv
    from handfoot_env.seating.learner import LearnerGames

    shells = [
        HandFootGymEnv(preset="classic"),
        HandFootVectorEnv(num_envs=2, preset="classic"),
        HandFootVecEnv(num_envs=2, preset="classic"),
        HandFootTorchRLEnv(num_envs=2, preset="classic", opponent="random"),
    ]
    for shell in shells:
        assert isinstance(shell.games, LearnerGames), type(shell).__name__
    assert HandFootTorchRLEnv(num_envs=2, preset="classic").games is None  # every seat an agent: no opponents
