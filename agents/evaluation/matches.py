"""Matches that separate skill from luck: duplicate deals, rotated seats, 95% intervals.

Every shuffled deal (a game seed) is played once per side with the team's side rotating
(twice, sides swapped, in two-sided games), so both lineups get the same cards.  Win rate
(a draw counts half) and score difference get 95% intervals over the duplicate sets,
which keeps the luck of the deal out of the comparison.

A foreign agent (``py:``) plays behind a guard (``agents.foreign``): its faults stop the
match with a :class:`MatchFault` that names the agent, the rules, the seed and the step, and
carries the game's actions so far (saved as a record that replays to the faulty step).
The lab's own agents play unguarded and keep no history unless asked.
"""

from __future__ import annotations

import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from agents.foreign import AgentFault, GuardedAgent, MatchFault
from handfoot_env.rules import Rules
from handfoot_env.seating.rewards import seat_owners
from handfoot_env.seating.seats import Seating
from handfoot_env.vector import VectorEngine


@dataclass
class MatchResult:
    team: str
    vs: str
    preset: str
    num_players: int
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    ci95: list[float]
    score_diff: float
    score_diff_ci95: list[float]
    mean_actions: float
    steps_per_sec: float
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


def _interval(samples: np.ndarray) -> list[float]:
    mean = float(samples.mean())
    if len(samples) < 2:
        return [mean, mean]
    half = 1.96 * float(samples.std(ddof=1)) / np.sqrt(len(samples))
    return [mean - half, mean + half]


def _rate_interval(samples: np.ndarray) -> list[float]:
    low, high = _interval(samples)
    return [max(low, 0.0), min(high, 1.0)]


def play_games(
    rules: Rules,
    seeds: np.ndarray,
    team_side: np.ndarray,
    team,
    vs,
    histories: list[list[int]] | None = None,
    on_games_over=None,
) -> tuple[np.ndarray, np.ndarray]:
    """Play one game per seed, ``team`` on ``team_side[i]`` and ``vs`` on every other side;
    ``on_games_over(n)`` hears as soon as ``n`` more games have ended; ``histories`` (one
    list per seed), when given, receive each game's actions (kept anyway when an agent is
    guarded, for the record of a fault: a :class:`MatchFault`).

    Returns (final totals ``[G, owners]``, actions per game ``[G]``)."""
    if histories is None and (isinstance(team, GuardedAgent) or isinstance(vs, GuardedAgent)):
        histories = [[] for _ in seeds]
    engine = VectorEngine(rules, batch_size=len(seeds), auto_reset=False)
    engine.reset(seeds=seeds)
    seating = Seating(engine, [team, vs])
    seating.seat_agents = np.where(seat_owners(rules)[None, :] == np.asarray(team_side)[:, None], 0, 1)
    actions_taken = np.zeros(len(seeds), dtype=np.int64)

    def count(outcome, stepped, actions) -> None:
        actions_taken[stepped] += 1
        if histories is not None:
            for game in np.flatnonzero(stepped):
                histories[game].append(int(actions[game]))
        if on_games_over is not None and outcome.game_over.any():
            on_games_over(int(outcome.game_over.sum()))

    try:
        seating.play(on_step=count)
    except AgentFault as fault:
        # The games the faulty agent was asked about, as Seating.play chose them (nothing has moved since).
        index = 0 if getattr(fault, "guard", None) is team else 1
        asked = np.flatnonzero(~engine.is_over & (seating.agents_to_move() == index))
        game = int(asked[fault.row or 0])
        raise MatchFault(
            fault,
            rules.to_dict(),
            int(seeds[game]),
            int(actions_taken[game]),
            int(team_side[game]),
            list(histories[game]) if histories is not None else [],
            getattr(team, "name", "team"),
            getattr(vs, "name", "vs"),
        ) from None
    return engine.final_totals.copy(), actions_taken


@dataclass
class Chunk:
    """A slice of a match, the unit of work (local or on a Ray cluster): the match's games
    from number ``lo`` on (their seeds and the team's sides), and the seed its agents are
    reseeded with, so a chunk plays the same games wherever and in whatever order it runs."""

    lo: int
    seeds: np.ndarray
    sides: np.ndarray
    agent_seed: int


def match_chunks(rules: Rules, deals: int, seed: int, batch: int = 512) -> list[Chunk]:
    """``deals`` duplicate sets (each seed once with the team on every side) in chunks of ``batch`` games."""
    owners = rules.num_owners
    seeds = np.repeat(np.arange(seed, seed + deals, dtype=np.int64), owners)
    sides = np.tile(np.arange(owners), deals)
    return [
        Chunk(lo, seeds[lo : lo + batch], sides[lo : lo + batch], seed * 1_000_003 + lo)
        for lo in range(0, len(seeds), batch)
    ]


def play_chunk(
    rules: Rules, chunk: Chunk, team, vs, histories: list[list[int]] | None = None, on_games_over=None
) -> tuple[np.ndarray, np.ndarray]:
    """Play a chunk's games; returns (``[games, 3]``: the team's outcome (1 / 0.5 / 0), its
    score difference and the actions taken; final totals ``[games, owners]``)."""
    for role, agent in enumerate((team, vs)):
        if hasattr(agent, "seed"):  # agents that sample draw the same numbers wherever the chunk runs
            agent.seed(int(np.random.SeedSequence([chunk.agent_seed, role]).generate_state(1)[0]))
    totals, taken = play_games(rules, chunk.seeds, chunk.sides, team, vs, histories, on_games_over)
    out = np.zeros((len(chunk.seeds), 3))
    for i, side in enumerate(chunk.sides):
        mine, others = totals[i, side], np.delete(totals[i], side)
        out[i] = (
            1.0 if mine > others.max() else (0.5 if mine == others.max() else 0.0),
            mine - others.mean(),
            taken[i],
        )
    return out, totals


def match_result(rules: Rules, team: str, vs: str, deals: int, games: np.ndarray, seconds: float) -> MatchResult:
    """The result of a match from its games (``play_chunk``'s rows, in match order)."""
    outcome, diff, actions = games[:, 0], games[:, 1], games[:, 2]
    per_set_outcome = outcome.reshape(deals, rules.num_owners).mean(axis=1)
    per_set_diff = diff.reshape(deals, rules.num_owners).mean(axis=1)
    return MatchResult(
        team=team,
        vs=vs,
        preset=rules.preset_name,
        num_players=rules.num_players,
        games=len(games),
        wins=int((outcome == 1).sum()),
        draws=int((outcome == 0.5).sum()),
        losses=int((outcome == 0).sum()),
        win_rate=float(outcome.mean()),
        ci95=_rate_interval(per_set_outcome),
        score_diff=float(diff.mean()),
        score_diff_ci95=_interval(per_set_diff),
        mean_actions=float(actions.mean()),
        steps_per_sec=float(actions.sum() / max(seconds, 1e-9)),
    )


def play_match(
    rules: Rules,
    team,
    vs,
    deals: int,
    seed: int = 0,
    progress: bool = True,
    records: str | Path | None = None,
    faults: str | Path | None = None,
) -> MatchResult:
    """``deals`` duplicate sets: each seed played once with the team on every side; with
    ``records``, every game is also saved there as a record (``handfoot replay``, the web page).
    A guarded agent's fault raises :class:`MatchFault`, its game's record saved in ``faults``.
    ``agents.evaluation.ray.play_matches_on_ray`` plays the same chunks on a Ray cluster, with the same result."""
    chunks = match_chunks(rules, deals, seed)
    games = deals * rules.num_owners
    bar = progress_bar(games, f"{getattr(team, 'name', 'team')} vs {getattr(vs, 'name', 'vs')}", progress)
    start = time.perf_counter()
    parts = []
    for chunk in chunks:
        histories: list[list[int]] | None = [[] for _ in chunk.seeds] if records is not None else None
        try:
            part, totals = play_chunk(
                rules, chunk, team, vs, histories, on_games_over=bar.update if bar is not None else None
            )
        except MatchFault as fault:
            if bar is not None:
                bar.close()
            if faults is not None:
                fault.save_record(faults)
            raise
        if histories is not None and records is not None:
            for seed_i, side, history, total in zip(chunk.seeds, chunk.sides, histories, totals):
                save_game_record(
                    rules, int(seed_i), history, total, Path(records) / f"seed{seed_i}_team_side{side}.json"
                )
        parts.append(part)
    if bar is not None:
        bar.close()
    return match_result(
        rules,
        getattr(team, "name", "team"),
        getattr(vs, "name", "vs"),
        deals,
        np.concatenate(parts),
        time.perf_counter() - start,
    )


def save_game_record(rules: Rules, seed: int, actions: list[int], totals: np.ndarray, path: Path) -> None:
    """Replay a vector-engine game on the reference engine and save its record; the two
    engines' final totals must agree (they are held identical by the differential tests)."""
    from handfoot_env.reference import Game
    from handfoot_env.reference.record import save_record

    game = Game(rules, seed)
    for action in actions:
        game.step(action)
    if not game.is_over or list(game.totals) != [int(t) for t in totals]:
        raise RuntimeError(
            f"seed {seed}: the reference engine disagrees with the vector engine "
            f"({list(game.totals)} vs {list(totals)}); please report this"
        )
    save_record(game, path)


def progress_bar(total: int, label: str, enabled: bool):
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=label, unit="game", file=sys.stderr, leave=False)
