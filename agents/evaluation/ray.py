"""Tournaments on a Ray cluster: the same matches as on one machine, spread out.

    handfoot eval --team heuristic --vs greedy --pairs 1000 --ray [ADDRESS]

A match is cut into the chunks ``agents.evaluation.matches`` plays locally (``match_chunks``),
each reseeding its agents from its own seed, so a chunk plays the same games on any machine, in
any order: the distributed result equals the local one.  Agents travel by value
(:class:`AgentSpec`: a name, and the bytes of the one file it loads), so workers on other
machines need no shared disk.  :class:`Cluster` connects to (or starts) the cluster; the trainer's
rollout workers (``train/ray_workers.py``) use it too.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Self

import numpy as np

from agents.evaluation.matches import (
    MatchFault,
    MatchInterrupted,
    MatchResult,
    Tally,
    match_chunks,
    most_forfeits_of,
    play_chunk,
    progress_bar,
)
from handfoot_env.errors import first_line
from handfoot_env.rules import Rules


def split_ray_address(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of a Ray head address ``HOST:PORT`` (or ``ray://HOST:PORT``); None for
    ``""``/``"local"`` (start Ray here) and ``"auto"``; ``ValueError`` for anything else."""
    if address in ("", "local", "auto"):
        return None
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"a Ray address is HOST:PORT (or 'auto', or empty for Ray on this machine), got {address!r}")
    return host, int(port)


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
                # "local": a new instance, even where `ray start` runs here or RAY_ADDRESS names
                # a cluster (ray.init() without an address would join that one)
                ray.init(
                    address="local",
                    include_dashboard=False,
                    log_to_driver=True,
                    logging_level="ERROR",
                    configure_logging=True,
                )
                self.started_here = True
            else:
                with _stderr_silenced():  # Ray's C++ core logs each failed retry, once a second
                    ray.init(address=address, logging_level="ERROR")
        except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
            where = "a local Ray instance" if address in ("", "local") else f"the Ray cluster at {address}"
            raise ValueError(
                f"cannot reach {where}: {first_line(exc)} (start one with 'ray start --head', "
                "or leave the address out to start one here)"
            ) from None

    def require_cpus(self, workers: int, num_envs: int) -> None:
        """Refuse more rollout workers than the cluster has CPUs (Ray would wait for CPUs
        that never come)."""
        cpus = int(require_ray().cluster_resources().get("CPU", 0))
        if cpus < workers:
            raise ValueError(
                f"ray.workers {workers} needs {workers} CPUs and the Ray cluster has "
                f"{cpus}: lower it (--set ray.workers=N, a divisor of env.num_envs {num_envs}) "
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
    from agents import ForeignAgent, make_agent

    if spec.model is None:
        agent = make_agent(spec.name, rules=rules)
        if spec.decision_seconds is not None and isinstance(agent, ForeignAgent):
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
    one_thread_each()
    part, _ = play_chunk(rules, chunk, build_agent(team, rules), build_agent(vs, rules))
    return part


def play_chunk_forfeiting(rules: Rules, chunk, team: AgentSpec, vs: AgentSpec) -> tuple[np.ndarray, list[MatchFault]]:
    """``play_chunk_of_specs`` where a foreign agent's fault forfeits its game: the rows, and the faults."""
    one_thread_each()
    forfeits: dict[int, MatchFault] = {}
    part, _ = play_chunk(rules, chunk, build_agent(team, rules), build_agent(vs, rules), forfeits=forfeits)
    return part, list(forfeits.values())


def one_thread_each() -> None:
    """A Ray worker holds one CPU: the engine's kernels and torch (where installed) use one thread."""
    import numba

    numba.set_num_threads(1)
    try:
        import torch
    except ImportError:  # evaluation needs no torch; an agent that does brings it
        return
    torch.set_num_threads(1)


# ---------------------------------------------------------------------------- tournaments
def play_matches_on_ray(
    rules: Rules,
    pairs: list[tuple[AgentSpec, AgentSpec]],
    deals: int,
    seed: int = 0,
    progress: bool = True,
    runners: list | None = None,
    keep_going: bool = False,
    faults: str | Path | None = None,
) -> list[MatchResult]:
    """Each (team, vs) pair's duplicate match, every chunk of every match a Ray task (or a call
    on one of ``runners``, actors with a ``play_chunk`` method); the results equal
    ``play_match``'s for the same seed (``keep_going``: a foreign agent's fault forfeits its
    game, its record saved in ``faults``, as there).  A few chunks per CPU are in flight at a
    time, so a match of any length costs little memory; Ctrl-C raises
    :class:`MatchInterrupted` with the matches finished (``finished``, None for the others)."""
    ray = require_ray()
    task = ray.remote(num_cpus=1, max_retries=3)(play_chunk_forfeiting if keep_going else play_chunk_of_specs)
    chunks = match_chunks(rules, deals, seed)
    rules_ref = ray.put(rules)
    spec_refs = [(ray.put(team), ray.put(vs)) for team, vs in pairs]
    work = ((m, c) for m in range(len(pairs)) for c in range(len(chunks)))
    window = max(4 * int(ray.cluster_resources().get("CPU", 1)), 8)
    tallies = [Tally(rules.num_owners) for _ in pairs]
    waiting: list[dict[int, np.ndarray]] = [{} for _ in pairs]  # chunks back before those ahead of them
    done = [0] * len(pairs)  # chunks added to each match's tally
    label = f"{pairs[0][0].name} vs {pairs[0][1].name}" if len(pairs) == 1 else f"{len(pairs)} matches"
    bar = progress_bar(len(pairs) * chunks.games, label + " (Ray)", progress)
    start = time.perf_counter()
    pending: dict = {}

    def submit() -> None:
        for m, c in work:
            team_ref, vs_ref = spec_refs[m]
            if runners:
                runner = runners[(m * len(chunks) + c) % len(runners)]
                ref = runner.play_chunk.remote(rules_ref, chunks[c], team_ref, vs_ref)
            else:
                ref = task.remote(rules_ref, chunks[c], team_ref, vs_ref)
            pending[ref] = (m, c)
            if len(pending) >= window:
                return

    def take(m: int, c: int, answer) -> None:
        part = answer
        if keep_going:
            part, broken = answer
            for fault in broken:
                if faults is not None:
                    fault.save_record(faults)
                tallies[m].forfeited.append(fault.describe())
            if len(tallies[m].forfeited) > most_forfeits_of(chunks.games) and broken:
                raise broken[0]  # too broken to measure, as play_match judges it
        waiting[m][c] = part
        while done[m] in waiting[m]:
            tallies[m].add(waiting[m].pop(done[m]))
            done[m] += 1
        if bar is not None:
            bar.update(len(part))

    try:
        submit()
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                m, c = pending.pop(ref)
                try:
                    answer = ray.get(ref)
                except MatchFault as fault:  # a foreign agent's: the fault itself, not Ray's wrapping of it
                    raise getattr(fault, "cause", fault) from None
                take(m, c, answer)
            submit()
    except KeyboardInterrupt:
        seconds = time.perf_counter() - start
        finished = [
            tallies[m].result(rules, team.name, vs.name, seconds) if done[m] == len(chunks) else None
            for m, (team, vs) in enumerate(pairs)
        ]
        raise MatchInterrupted(None, deals, [r for r in finished if r is not None]) from None
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - start
    return [tallies[m].result(rules, team.name, vs.name, seconds) for m, (team, vs) in enumerate(pairs)]


def play_variants_on_ray(
    rules: Rules, variants: list[np.ndarray], deals: int, seed: int, runners: list | None = None
) -> list[MatchResult]:
    """``tune.play_variants`` on a Ray cluster: every heuristic variant's match against the
    default heuristic, each travelling as its JSON (a ``tuned`` agent's file)."""
    from handfoot_env.baselines.heuristic_params import params_json

    pairs = [(AgentSpec("tuned", params_json(v).encode(), ".json"), AgentSpec("heuristic")) for v in variants]
    return play_matches_on_ray(rules, pairs, deals, seed=seed, progress=False, runners=runners)


__all__ = [
    "AgentSpec",
    "Cluster",
    "agent_spec",
    "build_agent",
    "one_thread_each",
    "play_chunk_forfeiting",
    "play_chunk_of_specs",
    "play_matches_on_ray",
    "play_variants_on_ray",
    "policy_spec",
    "require_ray",
    "split_ray_address",
]
