"""Training and tournaments on a Ray cluster: the same runs as on one machine, spread out.

    handfoot train --config configs/ray_quick.yaml          # ray_workers: 2
    handfoot eval --team heuristic --vs greedy --pairs 1000 --ray [ADDRESS]

Why Ray actors around the vector engine, not RLlib's multi-agent stack: RLlib's env runners
step one game (or a gymnasium vector of Python envs) per env object and call the policy per
agent, while a handfoot rollout worker steps a whole batch of games in compiled kernels and
asks the policy once per batch; an RLlib ``MultiAgentEnv`` over 4 seats would give that up.
So each **rollout worker** (a Ray actor, one CPU) holds a :class:`~train.collect.RolloutCollector`
over its share of the games and its copy of the league; the **learner** is the project's
own PPO update (``train/ppo.py``) in the driver.  Every rollout, the learner puts the
policy's weights in Ray's object store, every worker collects ``n_steps`` decisions in its
games, and the learner joins the buffers game-wise and updates: synchronous, on-policy PPO,
the same algorithm as the local run.  League snapshots reach the workers the same way.

Faults: workers are restarted by Ray (``max_restarts=-1``) and a rollout or a chunk that
was running on a dead worker is retried on its restart (``max_task_retries=-1``), so a
killed worker costs one rollout's wait, not the run; the learner says so.

Tournaments: a match is cut into the chunks ``train.evaluate`` plays locally
(``match_chunks``), each reseeding its agents from its own seed, so a chunk plays the same
games on any machine, in any order: the distributed result equals the local one.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Self

import numpy as np

from handfoot_env.rules import Rules
from train.collect import RolloutCollector, Timer, join_rollouts
from train.config import TrainConfig, split_ray_address
from train.evaluate import MatchFault, MatchResult, match_chunks, match_result, play_chunk, progress_bar


def require_ray():
    try:
        import ray
    except ImportError:
        raise ValueError("Ray is not installed: pip install 'handfoot[ray]'") from None
    return ray


class Cluster:
    """A connection to a Ray cluster: ``address`` ``""`` or ``"local"`` starts one on this
    machine (all its CPUs), ``"auto"`` joins the one ``ray start`` runs here, ``HOST:PORT`` a
    remote head.  Closing shuts down only an instance this object started."""

    def __init__(self, address: str = ""):
        ray = require_ray()
        self.started_here = False
        head = split_ray_address(address)
        if head is not None:
            _require_listening(address, *head)
        if ray.is_initialized():  # already connected (a test, a notebook): use that cluster
            return
        try:
            if address in ("", "local"):
                ray.init(include_dashboard=False, log_to_driver=True, logging_level="ERROR", configure_logging=True)
                self.started_here = True
            else:
                with _stderr_silenced():  # Ray's C++ core logs each failed retry, once a second
                    ray.init(address=address, logging_level="ERROR")
        except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
            where = "a local Ray instance" if address in ("", "local") else f"the Ray cluster at {address}"
            first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ValueError(
                f"cannot reach {where}: {first_line} (start one with 'ray start --head', "
                "or leave the address out to start one here)"
            ) from None

    def require_workers(self, config: TrainConfig) -> None:
        """Refuse more rollout workers than the cluster has CPUs (Ray would wait for CPUs
        that never come)."""
        cpus = int(require_ray().cluster_resources().get("CPU", 0))
        if cpus < config.ray.workers:
            raise ValueError(
                f"ray.workers {config.ray.workers} needs {config.ray.workers} CPUs and the Ray cluster has "
                f"{cpus}: lower it (--set ray.workers=N, a divisor of env.num_envs {config.env.num_envs}) "
                "or add nodes"
            )

    def close(self) -> None:
        if self.started_here:
            require_ray().shutdown()
            self.started_here = False

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@contextlib.contextmanager
def _stderr_silenced():
    """File descriptor 2 goes nowhere inside the block (C++ logging bypasses Python's)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _require_listening(address: str, host: str, port: int, seconds: float = 5.0) -> None:
    """Refuse at once, in one line, a head address where nothing listens (Ray itself retries
    for about 20 seconds, logging every second)."""
    import socket

    try:
        socket.create_connection((host, port), timeout=seconds).close()
    except OSError as exc:
        raise ValueError(
            f"cannot reach the Ray cluster at {address}: {exc.strerror or exc} (is 'ray start --head' "
            "running there? leave the address out to start Ray on this machine)"
        ) from None


# ---------------------------------------------------------------------------- agents by value
@dataclass(frozen=True)
class AgentSpec:
    """An agent as the workers rebuild it: a name, for an agent loaded from one file (``ppo``,
    ``tuned``) that file's bytes (so workers on other machines need no shared disk), and for a
    foreign agent (``py:``, which the workers import) its time limit per decision."""

    name: str
    model: bytes | None = None
    suffix: str = ".pt"
    decision_seconds: float | None = None


def agent_spec(name: str, rules: Rules, decision_seconds: float | None = None) -> AgentSpec:
    """The spec of ``make_agent(name)``: the registry says which file, if any, travels with it."""
    from agents import agent_model_file

    path = agent_model_file(name, rules)
    if path is None:
        return AgentSpec(name, decision_seconds=decision_seconds)
    try:
        return AgentSpec(name, path.read_bytes(), path.suffix)
    except OSError as exc:
        raise ValueError(f"cannot read the model {path}: {exc.strerror or exc}") from None


def policy_spec(policy, rules: Rules, name: str = "ppo") -> AgentSpec:
    """The spec of a policy in memory (the learner's, during training)."""
    buffer = io.BytesIO()
    policy.save(buffer, rules)
    return AgentSpec(name, buffer.getvalue())


@functools.lru_cache(maxsize=8)
def build_agent(spec: AgentSpec, rules: Rules):
    """The agent a spec names (cached per worker process: a chunk reseeds it anyway)."""
    from agents import GuardedAgent, make_agent

    if spec.model is None:
        agent = make_agent(spec.name, rules=rules)
        if spec.decision_seconds is not None and isinstance(agent, GuardedAgent):
            agent.decision_seconds = spec.decision_seconds
        return agent
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"model{spec.suffix}"
        path.write_bytes(spec.model)
        with warnings.catch_warnings():  # the driver has already said it, once
            warnings.simplefilter("ignore")
            agent = make_agent(f"{spec.name.split(':', 1)[0]}:{path}", rules=rules)
    agent.name = spec.name
    return agent


def play_chunk_of_specs(rules: Rules, chunk, team: AgentSpec, vs: AgentSpec) -> np.ndarray:
    _one_thread_each()
    part, _ = play_chunk(rules, chunk, build_agent(team, rules), build_agent(vs, rules))
    return part


def _one_thread_each() -> None:
    """A Ray worker holds one CPU: the engine's kernels and torch use one thread."""
    import numba
    import torch

    numba.set_num_threads(1)
    torch.set_num_threads(1)


# ---------------------------------------------------------------------------- tournaments
def play_matches_on_ray(
    rules: Rules,
    pairs: list[tuple[AgentSpec, AgentSpec]],
    deals: int,
    seed: int = 0,
    progress: bool = True,
    runners: list | None = None,
) -> list[MatchResult]:
    """Each (team, vs) pair's duplicate match, every chunk of every match a Ray task (or a call
    on one of ``runners``, actors with a ``play_chunk`` method); the results equal
    ``play_match``'s for the same seed."""
    ray = require_ray()
    task = ray.remote(num_cpus=1, max_retries=3)(play_chunk_of_specs)
    chunks = match_chunks(rules, deals, seed)
    rules_ref = ray.put(rules)
    refs: dict = {}
    for m, (team, vs) in enumerate(pairs):
        team_ref, vs_ref = ray.put(team), ray.put(vs)
        for c, chunk in enumerate(chunks):
            if runners:
                ref = runners[(m * len(chunks) + c) % len(runners)].play_chunk.remote(
                    rules_ref, chunk, team_ref, vs_ref
                )
            else:
                ref = task.remote(rules_ref, chunk, team_ref, vs_ref)
            refs[ref] = (m, c)
    label = f"{pairs[0][0].name} vs {pairs[0][1].name}" if len(pairs) == 1 else f"{len(pairs)} matches"
    bar = progress_bar(len(pairs) * deals * rules.num_owners, label + " (Ray)", progress)
    parts: dict[tuple[int, int], np.ndarray] = {}
    start = time.perf_counter()
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            try:
                parts[refs[ref]] = ray.get(ref)
            except MatchFault as fault:  # a foreign agent's: the fault itself, not Ray's wrapping of it
                raise getattr(fault, "cause", fault) from None
            if bar is not None:
                bar.update(len(parts[refs[ref]]))
    seconds = time.perf_counter() - start
    if bar is not None:
        bar.close()
    return [
        match_result(
            rules, team.name, vs.name, deals, np.concatenate([parts[(m, c)] for c in range(len(chunks))]), seconds
        )
        for m, (team, vs) in enumerate(pairs)
    ]


def play_variants_on_ray(
    rules: Rules, variants: list[np.ndarray], deals: int, seed: int, runners: list | None = None
) -> list[MatchResult]:
    """``tune.play_variants`` on a Ray cluster: every heuristic variant's match against the
    default heuristic, each travelling as its JSON (a ``tuned`` agent's file)."""
    from handfoot_env.baselines.heuristic_params import params_json

    pairs = [(AgentSpec("tuned", params_json(v).encode(), ".json"), AgentSpec("heuristic")) for v in variants]
    return play_matches_on_ray(rules, pairs, deals, seed=seed, progress=False, runners=runners)


# ---------------------------------------------------------------------------- training
class RolloutWorker:
    """A Ray actor: its share of the training games, a copy of the policy and of the league."""

    def __init__(self, config: dict, index: int, num_envs: int, shape: dict, win_prob: dict | None, deal_offset: int):
        import ray
        import torch

        from agents.policy import Policy
        from handfoot_env.rewards import WinProbability
        from train.league import League
        from train.loop import training_seed

        _one_thread_each()
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
        self.league.sample = self.config.algorithm == "ppo"  # a Q-network's snapshots play their best
        self.collector = RolloutCollector(
            self.rules,
            *self.league.pool(),
            seed=seed,
            num_envs=num_envs,
            reward_mode=self.config.env.reward_mode,
            shaping=self.config.env.shaping,
            gamma=self.config.algo.gamma,
            win_prob=None if win_prob is None else WinProbability.from_dict(win_prob),
            generator=torch.Generator().manual_seed(seed),
        )
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


__all__ = [
    "AgentSpec",
    "Cluster",
    "RayCollector",
    "RolloutWorker",
    "agent_spec",
    "build_agent",
    "play_matches_on_ray",
    "policy_spec",
    "require_ray",
]
