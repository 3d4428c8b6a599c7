"""Training on a Ray cluster: rollout workers that collect the learner's games, the update in
the driver.

    handfoot train --config configs/ray_quick.yaml          # ray.workers: 2

Why Ray actors around the vector engine, not RLlib's multi-agent stack: RLlib's env runners
step one game (or a gymnasium vector of Python envs) per env object and call the policy per
agent, while a handfoot rollout worker steps a whole batch of games in compiled kernels and
asks the policy once per batch; an RLlib ``MultiAgentEnv`` over 4 seats would give that up.
So each **rollout worker** (a Ray actor, one CPU) holds a :class:`~train.collect.RolloutCollector`
over its share of the games and its copy of the league; the **learner** is the project's
own update (``train/algorithms/``) in the driver.  Every rollout, the learner puts the
policy's weights in Ray's object store, every worker collects ``n_steps`` decisions in its
games, and the learner joins the buffers game-wise and updates: synchronous, on-policy,
the same algorithm as the local run.  League snapshots reach the workers the same way.

Faults: workers are restarted by Ray (``max_restarts=-1``) and a rollout or a chunk that
was running on a dead worker is retried on its restart (``max_task_retries=-1``), so a
killed worker costs one rollout's wait, not the run; the learner says so.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable

import numpy as np

from agents.evaluation.ray import AgentSpec, one_thread_each, play_chunk_of_specs, require_ray
from handfoot_env.rules import Rules
from train.collect import RolloutCollector, Timer, join_rollouts
from train.config import TrainConfig


class RolloutWorker:
    """A Ray actor: its share of the training games, a copy of the policy and of the league."""

    def __init__(self, config: dict, index: int, num_envs: int, shape: dict, win_prob: dict | None, deal_offset: int):
        import ray
        import torch

        from agents.policy import Policy
        from handfoot_env.seating.rewards import WinProbability
        from train.algorithms import ALGORITHMS
        from train.collect import training_seed
        from train.league import League

        one_thread_each()
        self.config = TrainConfig.from_dict(config)
        self.rules = self.config.make_rules()
        seed = training_seed(self.config, deal_offset, worker=index)
        with warnings.catch_warnings():  # Ray 2.60 warns about its own property's internals
            warnings.simplefilter("ignore")
            restarted = ray.get_runtime_context().was_current_actor_reconstructed
        if restarted:
            seed += os.getpid()  # a restarted worker deals new games, not the ones it played before
        league = self.config.league
        self.league = League(league.opponents, league.max_snapshots, seed=seed, rules=self.rules)
        self.league.sample = ALGORITHMS[self.config.algorithm].samples_snapshots
        model = None if win_prob is None else WinProbability.from_dict(win_prob)
        self.collector = RolloutCollector.for_run(self.config, self.rules, self.league, seed, num_envs, model)
        self.policy = Policy(**shape)
        self.league_version = 0
        torch.manual_seed(seed)

    def pid(self) -> int:
        return os.getpid()

    def opponents(self) -> list[str]:
        """The names of the agents new games draw from (the league as this worker has it)."""
        return [agent.name for agent in self.collector.games.opponents]

    def collect(self, weights: dict, explore, n_steps: int, league_version: int, snapshots: list) -> tuple:
        """A rollout with these weights; ``snapshots`` (a list holding one object ref) is read
        only when the league changed."""
        import ray

        self.policy.load_state_dict(weights)
        if league_version != self.league_version:
            self.league.set_snapshots(ray.get(snapshots[0]), self.policy, self.rules)
            self.collector.set_opponents(*self.league.pool())
            self.league_version = league_version
        self.collector.timer = Timer()
        buffers = self.collector.collect(self.policy, explore, n_steps)
        return buffers, self.collector.timer.seconds, os.getpid()

    def play_chunk(self, rules: Rules, chunk, team: AgentSpec, vs: AgentSpec) -> np.ndarray:
        return play_chunk_of_specs(rules, chunk, team, vs)


class RayCollector:
    """The trainer's rollouts from ``config.ray.workers`` rollout workers, each with an equal
    share of ``env.num_envs`` games; the same interface as :class:`RolloutCollector`."""

    def __init__(
        self, config: TrainConfig, policy, win_prob=None, say: Callable[[str], None] = print, deal_offset: int = 0
    ):
        ray = require_ray()
        self.config, self.say = config, say
        actor = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=-1)(RolloutWorker)
        share = config.env.num_envs // config.ray.workers
        shape = policy.shape()
        model = None if win_prob is None else win_prob.to_dict()
        self.workers = [
            actor.remote(config.to_dict(), i, share, shape, model, deal_offset) for i in range(config.ray.workers)
        ]
        self.pids = ray.get([w.pid.remote() for w in self.workers])
        self.timer = Timer()  # the learner's wait for rollouts
        self.worker_timer = Timer()  # the workers' own parts, summed over workers
        self.restarts = 0
        self.league_version = 0
        self.snapshots = [ray.put([])]

    def set_league(self, league) -> None:
        self.league_version += 1
        self.snapshots = [require_ray().put(league.snapshot_states())]

    def collect(self, policy, explore, n_steps: int, stop: Callable[[], bool] = lambda: False) -> dict | None:
        ray = require_ray()
        tick = time.perf_counter()
        # serialized now (later updates do not reach it), from wherever the learner's network runs
        weights = ray.put({key: value.cpu() for key, value in policy.state_dict().items()})
        refs = [w.collect.remote(weights, explore, n_steps, self.league_version, self.snapshots) for w in self.workers]
        pending = list(refs)
        while pending:
            _, pending = ray.wait(pending, num_returns=len(pending), timeout=0.5)
            if stop():
                return None
        parts = ray.get(refs)
        self.timer.add("rollouts", time.perf_counter() - tick)
        for i, (_, seconds, pid) in enumerate(parts):
            for part, spent in seconds.items():
                self.worker_timer.add(part, spent)
            if pid != self.pids[i]:
                self.restarts += 1
                self.say(f"rollout worker {i} was restarted by Ray (pid {self.pids[i]} -> {pid}); training goes on")
                self.pids[i] = pid
        return join_rollouts([p[0] for p in parts])


__all__ = ["RayCollector", "RolloutWorker"]
