"""Rollouts: the learner's decisions in a batch of games, for any algorithm.

One :class:`RolloutCollector` steps ``num_envs`` games on the vector engine (``LearnerGames``:
the learner on one side, league opponents on the others) for ``n_steps`` learner decisions
each.  The algorithm says how the learner acts (``explore``: PPO samples its policy, Deep
Monte-Carlo is epsilon-greedy on its Q-values) and what to keep of each decision; the
collector keeps the inputs, masks, actions, rewards, game ends and deal ends.  The trainer
uses one in its own process; on a Ray cluster each rollout worker holds one
(``train/ray_workers.py``) and the learner joins their buffers game-wise.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np
import torch

from agents.evaluation.seeds import TRAINING_SEEDS, TRAINING_SEEDS_PER_RUN, TRAINING_SEEDS_PER_WORKER
from agents.policy import Policy
from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.rules import Rules
from handfoot_env.seating.learner import LearnerGames
from handfoot_env.seating.rewards import WinProbability
from train.config import TrainConfig

# explore(policy, x, masks, extra, generator) -> (actions [B], {name: [B] array to keep})
Explore = Callable[[Policy, torch.Tensor, torch.Tensor, torch.Tensor | None, torch.Generator], tuple]


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
        rules: Rules,
        opponents: Sequence,
        weights: Sequence[float],
        seed: int,
        num_envs: int,
        reward_mode: str = "deal",
        shaping: float = 0.0,
        gamma: float = 1.0,
        win_prob: WinProbability | None = None,
        generator: torch.Generator | None = None,
    ):
        self.rules = rules
        self.games = LearnerGames(
            rules,
            num_envs,
            list(opponents),
            seed=seed,
            weights=weights,
            reward_mode=reward_mode,
            shaping=shaping,
            gamma=gamma,
            win_prob=win_prob,
        )
        self.generator = generator if generator is not None else torch.Generator().manual_seed(seed)
        self.timer = Timer()

    @classmethod
    def for_run(
        cls, config: TrainConfig, rules: Rules, league, seed: int, num_envs: int, win_prob: WinProbability | None = None
    ) -> RolloutCollector:
        """A run's collector (the trainer's, or a Ray worker's share): ``num_envs`` games from deal
        ``seed`` on against the league's pool, rewarded as ``config.env`` says."""
        opponents, weights = league.pool()
        return cls(
            rules,
            opponents,
            weights,
            seed=seed,
            num_envs=num_envs,
            reward_mode=config.env.reward_mode,
            shaping=config.env.shaping,
            gamma=config.algo.gamma,
            win_prob=win_prob,
        )

    def set_opponents(self, opponents: Sequence, weights: Sequence[float]) -> None:
        """The opponent pool new games draw from (``LearnerGames.set_opponents``)."""
        self.games.set_opponents(opponents, weights)

    def set_league(self, league) -> None:
        """Draw opponents from the league's pool as it stands (after a snapshot joins it)."""
        self.set_opponents(*league.pool())

    def collect(
        self, policy: Policy, explore: Explore, n_steps: int, stop: Callable[[], bool] = lambda: False
    ) -> dict[str, np.ndarray] | None:
        """The rollout's buffers ``[n_steps, num_envs, ...]`` plus ``last_*`` (the inputs after
        the last step, for bootstrapping); None when ``stop()`` said so."""
        games, timer = self.games, self.timer
        envs = games.batch_size
        privileged = policy.critic_extra > 0
        buffers: dict[str, np.ndarray] = {
            "x": np.zeros((n_steps, envs, policy.width), dtype=np.float32),
            "masks": np.zeros((n_steps, envs, NUM_ACTIONS), dtype=bool),
            "actions": np.zeros((n_steps, envs), dtype=np.int64),
            "rewards": np.zeros((n_steps, envs), dtype=np.float32),
            "dones": np.zeros((n_steps, envs), dtype=np.float32),
            "deal_ends": np.zeros((n_steps, envs), dtype=np.float32),
        }
        if privileged:
            buffers["extra"] = np.zeros((n_steps, envs, policy.critic_extra), dtype=np.float32)
        obs, masks = games.observe(), games.action_masks()
        for t in range(n_steps):
            if stop():
                return None
            tick = time.perf_counter()
            x = policy.inputs(obs, masks, self.rules)
            extra = games.hidden_cards() if privileged else None
            device = policy.device
            with torch.no_grad():
                actions, kept = explore(
                    policy,
                    torch.as_tensor(x, device=device),
                    torch.as_tensor(masks, device=device),
                    None if extra is None else torch.as_tensor(extra, device=device),
                    self.generator,
                )
            timer.add("inference", time.perf_counter() - tick)
            buffers["x"][t], buffers["masks"][t], buffers["actions"][t] = x, masks, actions
            if privileged:
                buffers["extra"][t] = extra
            for name, values in kept.items():
                buffers.setdefault(name, np.zeros((n_steps, envs), dtype=np.float32))[t] = values
            tick = time.perf_counter()
            opponents_before = games.seating.agent_seconds
            _, rewards, dones, _ = games.step(np.asarray(actions), observe=False)
            obs, masks = games.observe(), games.action_masks()
            opponents = games.seating.agent_seconds - opponents_before
            timer.add("opponents", opponents)
            timer.add("simulation", time.perf_counter() - tick - opponents)
            buffers["rewards"][t], buffers["dones"][t], buffers["deal_ends"][t] = rewards, dones, games.deal_ended
        buffers["last_x"] = policy.inputs(obs, masks, self.rules)
        buffers["last_masks"] = masks
        if privileged:
            buffers["last_extra"] = games.hidden_cards()
        return buffers


def join_rollouts(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Several collectors' buffers as one: games side by side (axis 1; ``last_*`` axis 0)."""
    return {key: np.concatenate([p[key] for p in parts], axis=0 if key.startswith("last_") else 1) for key in parts[0]}


def sample_positions(
    rules: Rules, agents: Sequence, positions: int, seed: int, policy: Policy, num_envs: int = 256
) -> tuple[np.ndarray, np.ndarray | None]:
    """Network inputs (and the critic's hidden cards) of ``positions`` learner decisions spread
    over whole games, the learner's side played by ``agents`` too (one drawn per game): the
    data the input scaling is fitted on (positions at the start of games alone leave the
    late-game pile and stock far outside the scaling)."""
    games = LearnerGames(rules, num_envs, list(agents), seed=seed)
    rng = np.random.default_rng(seed)
    # take each decision with this chance, so the sample spans about two games per table
    keep_chance = min(1.0, positions / (num_envs * 600))
    inputs, extras, kept = [], [], 0
    while kept < positions:
        obs, masks = games.observe(), games.action_masks()
        actions = np.zeros(num_envs, dtype=np.int64)
        for k, agent in enumerate(agents):
            rows = np.flatnonzero(games.opponent_index == k)
            if len(rows):
                actions[rows] = agent.act(obs[rows], masks[rows])
        take = rng.random(num_envs) < keep_chance
        if take.any():
            inputs.append(policy.inputs(obs[take], masks[take], rules))
            if policy.critic_extra:
                extras.append(games.hidden_cards()[take])
            kept += int(take.sum())
        games.step(actions)
    return np.concatenate(inputs)[:positions], (np.concatenate(extras)[:positions] if extras else None)


def training_seed(config: TrainConfig, deal_offset: int, worker: int | None = None) -> int:
    """The first training deal of a run segment: each run seed has 10^8 deals of its own, each Ray
    worker 10^7 of them (``ray.workers`` is at most 9), and a resumed segment starts
    ``deal_offset`` deals in, past every deal dealt before it (``deals_after``)."""
    worker_offset = 0 if worker is None else TRAINING_SEEDS_PER_WORKER * (worker + 1)
    return TRAINING_SEEDS + config.seed * TRAINING_SEEDS_PER_RUN + worker_offset + deal_offset


def deals_after(config: TrainConfig, deal_offset: int, steps: int) -> int:
    """A bound on the deal offset after a segment that started at ``deal_offset`` and made
    ``steps`` learner decisions: its starting games, and at most one more game per 10 learner
    decisions (no game is that short), per collector.  Games run hundreds of decisions, so the
    bound leaves room for a segment killed after its last checkpoint; a Ray run resumed past
    about 10^8 x ``ray.workers`` learner steps starts dealing in the next worker's range
    (training deals repeated, never an evaluation's)."""
    workers = max(config.ray.workers, 1)
    return deal_offset + config.env.num_envs // workers + steps // (10 * workers)


__all__ = ["Explore", "RolloutCollector", "Timer", "deals_after", "join_rollouts", "sample_positions", "training_seed"]
