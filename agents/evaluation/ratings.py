"""Ratings: round robins of duplicate matches, Bradley-Terry ratings on the Elo scale, one
agent's rating against fixed anchors (the benchmark's) with its 95% interval, the crosstable
and its chart."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from agents.evaluation.matches import MatchInterrupted, play_match
from handfoot_env.rules import Rules


def _expected(anchors: dict[str, float], scores: dict[str, tuple[float, int]], rating: float) -> tuple[float, float]:
    """The points the Bradley-Terry model expects of an agent rated ``rating`` against the
    anchors, and their variance (each game a win with the model's probability)."""
    mean = variance = 0.0
    for name, (_, games) in scores.items():
        p = 1.0 / (1.0 + 10 ** ((anchors[name] - rating) / 400))
        mean += games * p
        variance += games * p * (1 - p)
    return mean, variance


def _solve(anchors: dict[str, float], grows, target: float) -> float:
    """The rating at which ``grows(rating)`` (increasing) reaches ``target``, by bisection."""
    low, high = min(anchors.values()) - 4000.0, max(anchors.values()) + 4000.0
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if grows(middle) < target else (low, middle)
    return (low + high) / 2


def rating_against(anchors: dict[str, float], scores: dict[str, tuple[float, int]]) -> float:
    """The Elo-scale rating of one agent from its ``scores`` (points, games: a win 1, a draw
    half) against opponents whose ratings are fixed at ``anchors``: the rating under which the
    Bradley-Terry model expects exactly the points scored (a perfect or a null record counts
    half a game less or more, as :func:`bradley_terry` does, so the rating stays finite)."""
    games = sum(n for _, n in scores.values())
    points = min(max(sum(p for p, _ in scores.values()), 0.5), games - 0.5)
    return _solve(anchors, lambda r: _expected(anchors, scores, r)[0], points)


def rating_interval(anchors: dict[str, float], scores: dict[str, tuple[float, int]], z: float = 1.96) -> list[float]:
    """The 95% interval of :func:`rating_against`'s rating: the ratings under which the points
    scored lie within ``z`` standard deviations of the points the model expects (a score
    interval, Wilson's for one opponent: it does not collapse at a perfect or a null record,
    whose open end is infinite).  The anchors are taken as exact."""
    points = sum(p for p, _ in scores.values())
    games = sum(n for _, n in scores.values())

    def gap(rating: float) -> float:  # grows with the rating: expected minus scored, in deviations
        mean, variance = _expected(anchors, scores, rating)
        return (mean - points) / max(variance**0.5, 1e-12)

    low = -math.inf if points <= 0 else _solve(anchors, gap, -z)
    high = math.inf if points >= games else _solve(anchors, gap, z)
    return [low, high]


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


def round_robin(
    rules: Rules,
    agents: dict,
    deals: int,
    seed: int = 0,
    progress: bool = True,
    play_matches=None,
    faults: str | Path | None = None,
    keep_going: bool = False,
) -> dict:
    """Every pair of agents plays a duplicate match; returns results, ratings and crosstable.
    ``play_matches(pairs of names)``, when given, plays the matches instead (on a Ray cluster);
    ``faults``: where a foreign agent's faulty game is saved, ``keep_going``: whether it is
    forfeited and the match goes on (:func:`play_match`).  Ctrl-C raises
    :class:`MatchInterrupted` with the matches finished."""
    names = list(agents)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    if play_matches is not None:
        results = play_matches(pairs)
    else:
        results = []
        for a, b in pairs:
            try:
                results.append(
                    play_match(rules, agents[a], agents[b], deals, seed, progress, faults=faults, keep_going=keep_going)
                )
            except MatchInterrupted as stop:  # Ctrl-C: the matches played so far go with it
                stop.finished = [*results, *stop.finished]
                raise
    wins = np.zeros((len(names), len(names)))
    for (a, b), result in zip(pairs, results):
        result.team, result.vs = a, b
        i, j = names.index(a), names.index(b)
        score = result.wins + 0.5 * result.draws
        wins[i, j] += score
        wins[j, i] += result.games - score
    return {
        "names": names,
        "results": [r.to_dict() for r in results],
        "wins": wins.tolist(),
        "ratings": bradley_terry(names, wins),
    }


def crosstable_markdown(table: dict) -> str:
    """The round robin's crosstable in Markdown (row agent's share of points against each column),
    best rated first, and the forfeited games under it."""
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
    forfeited = [r for r in table["results"] if r.get("forfeits")]
    if forfeited:  # counted above as losses of the side that broke them: say so beside the table
        lines += ["", "Forfeited games (each lost by the side whose agent broke it; counted above):"]
        for r in forfeited:
            breakers = sorted({f["agent"] for f in r.get("forfeited", [])})
            by = f", broken by {', '.join(breakers)}" if breakers else ""
            lines.append(f"- {r['team']} vs {r['vs']}: {r['forfeits']} of {r['games']}{by}")
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
