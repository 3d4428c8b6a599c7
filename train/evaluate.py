"""Evaluation that separates skill from luck: duplicate deals, rotated seats, intervals, Elo.

Every shuffled deal (a game seed) is played once per side with the team's side rotating
(twice, sides swapped, in two-sided games), so both lineups get the same cards.  Win rate
(a draw counts half) and score difference get 95% intervals over the duplicate sets,
which keeps the luck of the deal out of the comparison.
"""

from __future__ import annotations

import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from handfoot_env.rewards import seat_owners
from handfoot_env.rules import Rules
from handfoot_env.table import Table
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


def play_games(rules: Rules, seeds: np.ndarray, team_side: np.ndarray, team, vs, histories: list[list[int]] | None = None,
               on_games_over=None) -> tuple[np.ndarray, np.ndarray]:
    """Play one game per seed, ``team`` on ``team_side[i]`` and ``vs`` on every other side;
    ``on_games_over(n)`` hears as soon as ``n`` more games have ended; ``histories`` (one
    list per seed), when given, receive each game's actions.

    Returns (final totals ``[G, owners]``, actions per game ``[G]``)."""
    engine = VectorEngine(rules, batch_size=len(seeds), auto_reset=False)
    engine.reset(seeds=seeds)
    table = Table(engine, [team, vs])
    table.seat_agents = np.where(seat_owners(rules)[None, :] == np.asarray(team_side)[:, None], 0, 1)
    actions_taken = np.zeros(len(seeds), dtype=np.int64)

    def count(outcome, stepped, actions) -> None:
        actions_taken[stepped] += 1
        if histories is not None:
            for game in np.flatnonzero(stepped):
                histories[game].append(int(actions[game]))
        if on_games_over is not None and outcome.game_over.any():
            on_games_over(int(outcome.game_over.sum()))

    table.play(on_step=count)
    return engine.final_totals.copy(), actions_taken


def play_match(
    rules: Rules,
    team,
    vs,
    deals: int,
    seed: int = 0,
    batch: int = 512,
    progress: bool = True,
    records: str | Path | None = None,
) -> MatchResult:
    """``deals`` duplicate sets: each seed played once with the team on every side; with
    ``records``, every game is also saved there as a record (``handfoot replay``, the web page)."""
    owners = rules.num_owners
    seeds = np.repeat(np.arange(seed, seed + deals, dtype=np.int64), owners)
    sides = np.tile(np.arange(owners), deals)
    outcome = np.zeros(len(seeds))
    diff = np.zeros(len(seeds))
    actions = np.zeros(len(seeds))
    bar = _progress(len(seeds), f"{getattr(team, 'name', 'team')} vs {getattr(vs, 'name', 'vs')}", progress)
    start = time.perf_counter()
    for lo in range(0, len(seeds), batch):
        hi = min(lo + batch, len(seeds))
        histories = [[] for _ in range(hi - lo)] if records is not None else None
        totals, taken = play_games(rules, seeds[lo:hi], sides[lo:hi], team, vs, histories,
                                   on_games_over=bar.update if bar is not None else None)
        if histories is not None:
            for i, history in enumerate(histories):
                save_game_record(rules, int(seeds[lo + i]), history, totals[i],
                                 Path(records) / f"seed{seeds[lo + i]}_team_side{sides[lo + i]}.json")
        for i in range(hi - lo):
            mine = totals[i, sides[lo + i]]
            others = np.delete(totals[i], sides[lo + i])
            outcome[lo + i] = 1.0 if mine > others.max() else (0.5 if mine == others.max() else 0.0)
            diff[lo + i] = mine - others.mean()
        actions[lo:hi] = taken
    elapsed = time.perf_counter() - start
    if bar is not None:
        bar.close()
    per_set_outcome = outcome.reshape(deals, owners).mean(axis=1)
    per_set_diff = diff.reshape(deals, owners).mean(axis=1)
    return MatchResult(
        team=getattr(team, "name", "team"),
        vs=getattr(vs, "name", "vs"),
        preset=rules.preset_name,
        num_players=rules.num_players,
        games=len(seeds),
        wins=int((outcome == 1).sum()),
        draws=int((outcome == 0.5).sum()),
        losses=int((outcome == 0).sum()),
        win_rate=float(outcome.mean()),
        ci95=_rate_interval(per_set_outcome),
        score_diff=float(diff.mean()),
        score_diff_ci95=_interval(per_set_diff),
        mean_actions=float(actions.mean()),
        steps_per_sec=float(actions.sum() / elapsed),
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
        raise RuntimeError(f"seed {seed}: the reference engine disagrees with the vector engine "
                           f"({list(game.totals)} vs {list(totals)}); please report this")
    save_record(game, path)


def _progress(total: int, label: str, enabled: bool):
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=label, unit="game", file=sys.stderr, leave=False)


# ---------------------------------------------------------------------- round robin
def bradley_terry(names: list[str], wins: np.ndarray, iterations: int = 500) -> dict[str, float]:
    """Elo-scale ratings (mean 1500) from a matrix of win counts ``wins[i, j]`` (draws as halves)."""
    n = len(names)
    strength = np.ones(n)
    games = wins + wins.T
    for _ in range(iterations):
        for i in range(n):
            denominator = sum(games[i, j] / (strength[i] + strength[j]) for j in range(n) if j != i and games[i, j])
            if denominator > 0:
                strength[i] = max(wins[i].sum(), 0.5) / denominator
        strength /= np.exp(np.log(strength).mean())
    elo = 400 * np.log10(strength)
    return {name: float(1500 + e - elo.mean()) for name, e in zip(names, elo)}


def round_robin(rules: Rules, agents: dict, deals: int, seed: int = 0, progress: bool = True) -> dict:
    """Every pair of agents plays a duplicate match; returns results, ratings and crosstable."""
    names = list(agents)
    wins = np.zeros((len(names), len(names)))
    results = []
    for i, a in enumerate(names):
        for j in range(i + 1, len(names)):
            result = play_match(rules, agents[a], agents[names[j]], deals, seed=seed, progress=progress)
            result.team, result.vs = a, names[j]
            results.append(result)
            score = result.wins + 0.5 * result.draws
            wins[i, j] += score
            wins[j, i] += result.games - score
    return {"names": names, "results": [r.to_dict() for r in results], "wins": wins.tolist(),
            "ratings": bradley_terry(names, wins)}


def crosstable_markdown(table: dict) -> str:
    names = table["names"]
    wins = np.asarray(table["wins"])
    ratings = table["ratings"]
    lines = ["| agent | rating | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    for i, name in enumerate(sorted(names, key=lambda n: -ratings[n])):
        k = names.index(name)
        cells = []
        for j in range(len(names)):
            games = wins[k, j] + wins[j, k]
            cells.append("-" if j == k or games == 0 else f"{wins[k, j] / games:.1%}")
        lines.append(f"| {name} | {ratings[name]:.0f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ratings_chart(table: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = table["ratings"]
    names = sorted(ratings, key=ratings.get)
    fig, ax = plt.subplots(figsize=(6, 0.6 * len(names) + 1.2))
    ax.barh(names, [ratings[n] for n in names], color="#4a7ab0")
    ax.set_xlabel("Bradley-Terry rating (Elo scale)")
    ax.set_xlim(min(ratings.values()) - 100, max(ratings.values()) + 100)
    for y, n in enumerate(names):
        ax.text(ratings[n], y, f" {ratings[n]:.0f}", va="center")
    ax.set_title("handfoot round robin (duplicate deals)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
