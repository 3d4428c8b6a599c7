"""``handfoot bench``: random masked play, masks and observations computed every step.

games/s is steps/s divided by the mean length of a random game (measured for each row).

Each row runs in a fresh process so that its peak memory is its own.  Timing starts after
a short warm-up (compiled kernels load from numba's on-disk cache, or compile once).
"""

from __future__ import annotations

import multiprocessing as mp
import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass

import numpy as np

from handfoot_env.baselines.random import RandomAgent
from handfoot_env.rules import Rules
from handfoot_env.seating.seats import Seating
from handfoot_env.vector import VectorEngine

DEFAULT_BATCHES = (1, 64, 1024, 4096, 16384)
DEFAULT_CONFIGS = (("classic", 2), ("partnership", 4), ("house", 2), ("house", 4))


@dataclass
class BenchRow:
    engine: str
    preset: str
    num_players: int
    batch: int
    steps_per_sec: float
    games_per_sec: float
    peak_rss_mb: float


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def mean_game_length(rules: Rules, games: int = 64) -> float:
    """Mean actions per game under random masked play (to turn steps/s into games/s)."""
    engine = VectorEngine(rules, batch_size=games, seed=10**6, auto_reset=False)
    seating = Seating(engine, [RandomAgent(1)])
    steps = [0]
    seating.play(on_step=lambda outcome, stepped, actions: steps.__setitem__(0, steps[0] + int(stepped.sum())))
    return steps[0] / games


class ObservingRandomAgent(RandomAgent):
    """The random baseline, handed the observations it does not read: the benchmark times the
    observation in every step (a table skips it for an agent that reads the mask alone)."""

    reads_observations = True


def bench_vector(preset: str, players: int, batch: int, seconds: float) -> BenchRow:
    """Random masked play at the table: mask, observation and a random legal action each step."""
    rules = Rules.preset(preset, num_players=players)
    seating = Seating(VectorEngine(rules, batch_size=batch, seed=0), [ObservingRandomAgent(0)])
    seating.play(max_steps=10)  # warm-up: the compiled kernels load (or compile once)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seating.play(max_steps=1)
        steps += batch
    elapsed = time.perf_counter() - start
    rate = steps / elapsed
    # A few seconds at a large batch finish few games, so games/s comes from the mean length.
    return BenchRow("vector", preset, players, batch, rate, rate / mean_game_length(rules), _peak_rss_mb())


def bench_reference(preset: str, players: int, seconds: float) -> BenchRow:
    from handfoot_env.reference import Game
    from handfoot_env.reference.observe import observe

    rules = Rules.preset(preset, num_players=players)
    rng = np.random.default_rng(0)
    game = Game(rules, 0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        mask = game.legal_mask()
        observe(game, game.current)
        game.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        if game.is_over:
            games += 1
            game = Game(rules, games)
    elapsed = time.perf_counter() - start
    rate, peak_rss = steps / elapsed, _peak_rss_mb()  # (before mean_game_length loads the vector engine)
    # As the vector rows: a house game outlasts a few seconds of this engine (about 8,000 actions).
    return BenchRow("reference", preset, players, 1, rate, rate / mean_game_length(rules), peak_rss)


def _run_row(args: tuple) -> dict:
    engine, preset, players, batch, seconds = args
    if engine == "reference":
        return asdict(bench_reference(preset, players, seconds))
    return asdict(bench_vector(preset, players, batch, seconds))


def _compile_kernels() -> None:
    """Compile (or load) the engine's kernels in a process of its own before the rows: a row
    whose process compiled them measured 71k steps/s at batch 1 where the same row loading them
    measured 125k (and its peak RSS was 738 MB, not 173)."""
    from handfoot_env.vector.engine import load_engine_kernels

    load_engine_kernels()


def _busy() -> None:
    """A process that keeps one core busy (the load beside a benchmark row)."""
    while True:
        pass


@contextmanager
def busy_processes(count: int):
    """``count`` processes that each keep a core busy while the block runs."""
    context = mp.get_context("spawn")
    workers = [context.Process(target=_busy, daemon=True) for _ in range(count)]
    for worker in workers:
        worker.start()
    try:
        yield
    finally:
        for worker in workers:
            worker.terminate()
            worker.join()


def run_bench(
    batches=DEFAULT_BATCHES,
    configs=DEFAULT_CONFIGS,
    seconds: float = 3.0,
    reference: bool = True,
    load: int = 0,
) -> Iterator[dict]:
    """Every row (vector engine at each batch, reference engine at batch 1), each in its own
    process, with ``load`` busy processes beside it; rows are yielded as they finish."""
    jobs = []
    for preset, players in configs:
        jobs += [("vector", preset, players, b, seconds) for b in batches]
        if reference:
            jobs.append(("reference", preset, players, 1, seconds))
    context = mp.get_context("spawn")
    with context.Pool(1) as pool:
        pool.apply(_compile_kernels)
    for job in jobs:
        with busy_processes(load), context.Pool(1) as pool:
            yield dict(pool.apply(_run_row, (job,)), load=load)


TABLE_HEADER = (
    "| engine | preset | players | batch | busy processes beside | steps/s | games/s | peak RSS (MB) |\n"
    "|---|---|---|---|---|---|---|---|"
)


def format_row(r: dict) -> str:
    return (
        f"| {r['engine']} | {r['preset']} | {r['num_players']} | {r['batch']} | {r.get('load', 0)} | "
        f"{r['steps_per_sec']:,.0f} | {r['games_per_sec']:,.1f} | {r['peak_rss_mb']:,.0f} |"
    )


def format_table(rows: list[dict]) -> str:
    return "\n".join([TABLE_HEADER] + [format_row(r) for r in rows])
