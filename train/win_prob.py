"""The win-probability model behind ``reward_mode: win_prob``: P(win | totals, deals played).

Fitted on engine games between equal agents (each game one scripted agent in every seat,
drawn from ``AGENTS``): at the start of every deal (the totals then and the deals played
before it: ``handfoot_env.seating.rewards.next_deal_start``), for every side, the features of
``handfoot_env.seating.rewards.WinProbability`` and whether that side went on to win the game (1,
0.5 on a tie for the highest, 0).  A small network (6 -> 16 -> 1, tanh) is fitted by
logistic loss on four fifths of the games; the last fifth, never fitted on, gives the
calibration table (predicted against observed, per tenth of predicted chance).

    model, report = fit_win_prob(rules, games=20_000, seed=0)
    model(totals, sides, deals_played)            # [B] chances, numpy only (the env uses it)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable

import numpy as np
import torch

from agents import make_agent
from handfoot_env.rules import Rules
from handfoot_env.seating.rewards import WinProbability, game_points, next_deal_start
from handfoot_env.seating.seats import Seating
from handfoot_env.vector import VectorEngine

AGENTS = ("greedy", "heuristic", "tuned")
HIDDEN = 16
MODEL_VERSION = 1  # bump when the features or the fit change: cached fits of other versions are not used


def deal_starts(rules: Rules, games: int, seed: int, batch: int = 1024) -> tuple[np.ndarray, ...]:
    """Totals at the start of every deal of ``games`` games, one agent in every seat of each.

    Returns (totals ``[N, owners]``, deals played ``[N]``, game index ``[N]``, final totals
    ``[games, owners]``)."""
    agents = [make_agent(name, seed=seed + i, rules=rules) for i, name in enumerate(AGENTS)]
    rng = np.random.default_rng(seed)
    totals, played, game_of, finals = [], [], [], []
    for lo in range(0, games, batch):
        size = min(batch, games - lo)
        seats = np.repeat(rng.integers(len(agents), size=size)[:, None], rules.num_players, axis=1)
        chunk = _play_chunk(rules, agents, seats, np.arange(seed + lo, seed + lo + size, dtype=np.int64))
        totals += chunk[0]
        played += chunk[1]
        game_of += [lo + rows for rows in chunk[2]]
        finals.append(chunk[3])
    return np.concatenate(totals), np.concatenate(played), np.concatenate(game_of), np.concatenate(finals)


def _play_chunk(rules: Rules, agents: list, seats: np.ndarray, seeds: np.ndarray) -> tuple:
    """One batch of games (``seats``: agent index per seat): the totals at every deal start,
    the deals played by then, the game of each, and the final totals."""
    engine = VectorEngine(rules, batch_size=len(seeds), auto_reset=False)
    engine.reset(seeds=seeds)
    seating = Seating(engine, agents)
    seating.seat_agents = seats
    # each game's position (rewards.next_deal_start): the totals at its deal's start, the deals before it
    position = np.zeros((len(seeds), rules.num_owners)), np.zeros(len(seeds), dtype=np.int64)
    totals, played, game_of = [position[0].copy()], [position[1].copy()], [np.arange(len(seeds))]

    def record(outcome, stepped, actions) -> None:
        ended = np.flatnonzero(outcome.deal_over)
        if len(ended) == 0:
            return
        after, deals = next_deal_start(position[0][ended], outcome.deal_scores[ended], position[1][ended])
        position[0][ended], position[1][ended] = after, deals
        rows = ended[~outcome.game_over[ended]]  # a deal starts in these games
        totals.append(position[0][rows].copy())
        played.append(position[1][rows].copy())
        game_of.append(rows)

    seating.play(on_step=record)
    return totals, played, game_of, engine.final_totals.astype(np.float64)


def _examples(model: WinProbability, totals, played, game_of, finals) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features, outcome, game index) for every side of every deal start."""
    owners = totals.shape[1]
    x, y, g = [], [], []
    for side in range(owners):
        sides = np.full(len(totals), side)
        x.append(model.features(totals, sides, played))
        y.append(game_points(finals[game_of], sides))
        g.append(game_of)
    return np.concatenate(x), np.concatenate(y), np.concatenate(g)


def calibration(predicted: np.ndarray, outcome: np.ndarray, bins: int = 10) -> list[dict]:
    """Per tenth of predicted chance: how many, the mean prediction, the mean outcome."""
    rows = []
    edges = np.linspace(0, 1, bins + 1)
    for lo, hi in itertools.pairwise(edges):
        inside = (predicted >= lo) & ((predicted < hi) | (hi == 1.0))
        if inside.any():
            rows.append(
                {
                    "bin": f"{lo:.1f}-{hi:.1f}",
                    "count": int(inside.sum()),
                    "predicted": float(predicted[inside].mean()),
                    "observed": float(outcome[inside].mean()),
                }
            )
    return rows


def fit_win_prob(
    rules: Rules, games: int = 20_000, seed: int = 0, log: Callable[[str], None] | None = None
) -> tuple[WinProbability, dict]:
    """Fit the model on ``games`` engine games; returns it and its report (held-out log loss,
    Brier score, the base rate's log loss, calibration)."""
    started = time.perf_counter()
    torch.manual_seed(seed)
    blank = WinProbability(rules, [])
    x, y, g = _examples(blank, *deal_starts(rules, games, seed))
    held_out = g >= int(games * 0.8)
    xt, yt = torch.as_tensor(x[~held_out], dtype=torch.float32), torch.as_tensor(y[~held_out], dtype=torch.float32)
    net = torch.nn.Sequential(
        torch.nn.Linear(WinProbability.FEATURES, HIDDEN), torch.nn.Tanh(), torch.nn.Linear(HIDDEN, 1)
    )
    optimizer = torch.optim.LBFGS(net.parameters(), max_iter=300, line_search_fn="strong_wolfe")

    def loss_fn() -> torch.Tensor:
        optimizer.zero_grad()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(net(xt).squeeze(1), yt)
        loss = loss + 1e-4 * sum(p.pow(2).sum() for p in net.parameters() if p.dim() > 1)
        loss.backward()
        return loss

    optimizer.step(loss_fn)
    weights = [p.detach().double().numpy().T if p.dim() > 1 else p.detach().double().numpy() for p in net.parameters()]
    model = WinProbability(rules, weights)
    predicted, outcome = model.features_to_chance(x[held_out]), y[held_out]
    eps = 1e-6
    log_loss = float(-np.mean(outcome * np.log(predicted + eps) + (1 - outcome) * np.log(1 - predicted + eps)))
    base = float(np.clip(y[~held_out].mean(), eps, 1 - eps))
    report = {
        "games": games,
        "held_out_games": int(games - int(games * 0.8)),
        "examples": len(x),
        "log_loss": log_loss,
        "base_rate_log_loss": float(-np.mean(outcome * np.log(base) + (1 - outcome) * np.log(1 - base))),
        "brier": float(np.mean((predicted - outcome) ** 2)),
        "calibration": calibration(predicted, outcome),
        "seconds": time.perf_counter() - started,
    }
    if log is not None:
        log(
            f"win-probability model: {games:,} games ({report['seconds']:.0f} s); held-out log loss "
            f"{log_loss:.3f} (base rate {report['base_rate_log_loss']:.3f}), Brier {report['brier']:.3f}"
        )
    return model, report


__all__ = ["AGENTS", "calibration", "deal_starts", "fit_win_prob"]
