"""SB3 and Gymnasium, unchanged: MaskablePPO and evaluate_policy on the Gymnasium env,
gymnasium.make by the registered id with common wrappers and vector envs, and the shape
of PettingZoo's SB3 action-masking tutorial with only the env's constructor changed."""

from __future__ import annotations

import gymnasium
import numpy as np
import pettingzoo.utils
import pytest
import torch
from interop.tables import TABLES
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from sb3_contrib.common.wrappers import ActionMasker

import handfoot_env
from handfoot_env import Rules, handfoot_v0
from handfoot_env.envs.gymnasium import HandFootGymEnv
from handfoot_env.observation import OBS_SIZE


@pytest.mark.parametrize("preset,players", TABLES)
def test_maskable_ppo_updates_its_policy_and_evaluate_policy_plays_whole_games(preset, players):
    """Two short updates move the policy's weights; evaluate_policy, masking, plays two whole
    one-deal games (the env raises on an illegal action) to a finite score.  Too short to learn
    to play: that is measured by training (docs/training.md), not here."""
    env = HandFootGymEnv(rules=Rules.preset(preset, num_players=players, num_deals=1), opponent="greedy")
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu", policy_kwargs={"net_arch": [32]}
    )
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(128)
    assert all(not torch.equal(b, p) for b, p in zip(before, model.policy.parameters()))
    rewards, lengths = evaluate_policy(model, env, n_eval_episodes=2, use_masking=True, return_episode_rewards=True)
    assert len(rewards) == 2 and all(np.isfinite(rewards)) and min(lengths) > 10


def test_gymnasium_make_wrappers_and_vector_envs():
    env = gymnasium.make(handfoot_env.GYMNASIUM_ID, preset="classic", opponent="heuristic")
    env = gymnasium.wrappers.RecordEpisodeStatistics(gymnasium.wrappers.TimeLimit(env, max_episode_steps=2000))
    obs, info = env.reset(seed=1)
    done, steps = False, 0
    while not done:
        obs, _reward, terminated, truncated, info = env.step(env.action_space.sample())
        done, steps = terminated or truncated, steps + 1
    assert "episode" in info and env.observation_space.contains(obs) and steps > 10
    vector = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make(handfoot_env.GYMNASIUM_ID, opponent="random") for _ in range(2)]
    )
    observations, _ = vector.reset(seed=3)
    masks = np.stack([e.unwrapped.action_masks() for e in vector.envs])
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    observations, rewards, terminated, truncated, _ = vector.step(actions)
    assert observations.shape == (2, OBS_SIZE) and rewards.shape == (2,)


class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gymnasium.Env):
    """The wrapper of PettingZoo's SB3 action-masking tutorial (connect four), as the tutorial
    writes it: the AEC env seen as a single-agent env whose observation is the mover's.  One
    generic fix, needed for connect four too with current Gymnasium: it is also a
    ``gymnasium.Env``, which sb3-contrib's ``ActionMasker`` now requires."""

    def reset(self, seed=None, options=None):
        super().reset(seed, options)
        self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
        self.action_space = super().action_space(self.possible_agents[0])
        return self.observe(self.agent_selection), {}

    def step(self, action):
        current = self.agent_selection
        super().step(action)
        following = self.agent_selection
        return (
            self.observe(following),
            self._cumulative_rewards[current],
            self.terminations[current],
            self.truncations[current],
            self.infos[current],
        )

    def observe(self, agent):
        return super().observe(agent)["observation"]

    def action_mask(self):
        return super().observe(self.agent_selection)["action_mask"]


def test_pettingzoo_sb3_tutorial_with_only_the_constructor_changed():
    # The tutorial's only change: the constructor.  reward_mode="game" makes the last rewards
    # name the winner, which is how the tutorial's evaluation decides who won.
    def constructor():
        return handfoot_v0.env(rules=Rules.preset("classic", num_deals=1), reward_mode="game")

    env = ActionMasker(SB3ActionMaskWrapper(constructor()), lambda env: env.action_mask())
    env.reset(seed=0)
    model = MaskablePPO(
        MaskableActorCriticPolicy,
        env,
        n_steps=128,
        batch_size=64,
        n_epochs=1,
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [32]},
    )
    model.learn(256)
    # The tutorial's evaluation: play whole games against random, the winner from env.rewards.
    for game in range(4):
        env = constructor()
        env.reset(seed=game)
        for agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                winner = max(env.rewards, key=env.rewards.get)
                break
            mask = obs["action_mask"]
            if agent == env.possible_agents[0]:
                action = int(model.predict(obs["observation"], action_masks=mask, deterministic=True)[0])
            else:
                action = env.action_space(agent).sample(mask)
            env.step(action)
        totals = env.unwrapped.engine.final_totals[0]
        assert winner == env.possible_agents[int(np.argmax(totals))] or totals[0] == totals[1]
