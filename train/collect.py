"""Rollouts for PPO: the learner's decisions in a batch of games, with GAE advantages.

One :class:`RolloutCollector` steps ``num_envs`` games on the vector engine (``SeatedGames``:
the learner on one side, league opponents on the others) for ``n_steps`` learner decisions
each, sampling the policy's actions, and returns the buffers PPO learns from.  The trainer
uses one in its own process; on a Ray cluster each rollout worker holds one
(``train/cluster.py``) and the learner joins their buffers game-wise.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np
import torch

from agents.policy import Policy, autocast
from handfoot_env.rules import Rules
from handfoot_env.seated import SeatedGames
from train.config import TrainConfig


class Timer:
    """Seconds spent per part of training (simulation, opponents, inference, update, evaluation)."""

    def __init__(self):
        self.seconds: dict[str, float] = {}

    def add(self, part: str, seconds: float) -> None:
        self.seconds[part] = self.seconds.get(part, 0.0) + seconds


class RolloutCollector:
    """``n_steps`` learner decisions in each of ``num_envs`` games per call to :meth:`collect`."""

    def __init__(
        self,
        config: TrainConfig,
        rules: Rules,
        opponents: Sequence,
        weights: Sequence[float],
        seed: int,
        num_envs: int,
        generator: torch.Generator | None = None,
    ):
        self.config, self.rules = config, rules
        self.games = SeatedGames(
            rules,
            num_envs,
            list(opponents),
            seed=seed,
            weights=weights,
            reward_mode=config.reward_mode,
            shaping=config.shaping,
        )
        self.generator = generator if generator is not None else torch.Generator().manual_seed(seed)
        self.timer = Timer()

    def set_opponents(self, opponents: Sequence, weights: Sequence[float]) -> None:
        """The opponent pool new games draw from (``SeatedGames.set_opponents``)."""
        self.games.set_opponents(opponents, weights)

    def set_league(self, league) -> None:
        """Draw opponents from the league's pool as it stands (after a snapshot joins it)."""
        self.set_opponents(*league.pool())

    def sample_inputs(self) -> tuple[np.ndarray, np.ndarray]:
        """(observations, masks) of the games as they stand: data to set the network's input scaling."""
        return self.games.observe(), self.games.action_masks()

    def collect(self, policy: Policy, stop: Callable[[], bool] = lambda: False) -> dict[str, np.ndarray] | None:
        """The rollout's buffers ``[n_steps, num_envs, ...]`` (None when ``stop()`` said so)."""
        config, games, timer = self.config, self.games, self.timer
        steps, envs = config.n_steps, games.batch_size
        buffers = {
            "x": np.zeros((steps, envs, policy.mean.shape[0]), dtype=np.float32),
            "masks": np.zeros((steps, envs, 173), dtype=bool),
            "actions": np.zeros((steps, envs), dtype=np.int64),
            "logprobs": np.zeros((steps, envs), dtype=np.float32),
            "values": np.zeros((steps, envs), dtype=np.float32),
            "rewards": np.zeros((steps, envs), dtype=np.float32),
            "dones": np.zeros((steps, envs), dtype=np.float32),
        }
        obs, masks = games.observe(), games.action_masks()
        for t in range(steps):
            if stop():
                return None
            tick = time.perf_counter()
            x = policy.inputs(obs, masks, self.rules)
            with torch.no_grad(), autocast(config.precision):
                logits, value = policy(torch.as_tensor(x), torch.as_tensor(masks))
                probs = torch.softmax(logits, -1)
                actions = torch.multinomial(probs, 1, generator=self.generator).squeeze(-1)
                logprob = torch.log(probs.gather(1, actions[:, None]).squeeze(1))
            timer.add("inference", time.perf_counter() - tick)
            buffers["x"][t], buffers["masks"][t] = x, masks
            buffers["actions"][t], buffers["logprobs"][t], buffers["values"][t] = actions, logprob, value
            tick = time.perf_counter()
            opponents_before = games.table.agent_seconds
            obs, rewards, dones, _ = games.step(actions.numpy())
            masks = games.action_masks()
            opponents = games.table.agent_seconds - opponents_before
            timer.add("opponents", opponents)
            timer.add("simulation", time.perf_counter() - tick - opponents)
            buffers["rewards"][t], buffers["dones"][t] = rewards, dones
        with torch.no_grad(), autocast(config.precision):
            tick = time.perf_counter()
            _, last_value = policy(torch.as_tensor(policy.inputs(obs, masks, self.rules)), torch.as_tensor(masks))
            timer.add("inference", time.perf_counter() - tick)
        add_advantages(buffers, last_value.numpy(), config.gamma, config.gae_lambda)
        return buffers


def add_advantages(buffers: dict[str, np.ndarray], last_value: np.ndarray, gamma: float, gae_lambda: float) -> None:
    """GAE (Schulman et al. 2016) into ``buffers["advantages"]`` and ``["returns"]``; a
    finished game's next value is 0."""
    steps, envs = buffers["rewards"].shape
    advantages = np.zeros((steps, envs), dtype=np.float32)
    running = np.zeros(envs, dtype=np.float32)
    next_value = last_value
    for t in reversed(range(steps)):
        alive = 1.0 - buffers["dones"][t]
        delta = buffers["rewards"][t] + gamma * next_value * alive - buffers["values"][t]
        running = delta + gamma * gae_lambda * alive * running
        advantages[t] = running
        next_value = buffers["values"][t]
    buffers["advantages"] = advantages
    buffers["returns"] = advantages + buffers["values"]


__all__ = ["RolloutCollector", "Timer", "add_advantages"]
