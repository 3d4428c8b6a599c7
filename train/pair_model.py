"""The heuristic's pair model: will the next player be able to take the pile with this rank?

In ``classic`` and ``partnership`` a discard hands the next player the pile (seven cards or
more) whenever they hold a pair of its rank, and which discards are safe is a large part of
what separates a good player from the heuristic.  Nobody at the table sees that hand, but
the engine does: on positions of heuristic games, it labels every natural rank with "the
next player holds two or more of it".  A logistic regression over a few features the
discarding seat *can* see (``heuristic_params.PAIR_FEATURES``: the next player's hand size,
whether its side has the rank on the table, how many of the rank are in sight, ...) learns
the chance from those labels; its weights become numbers of the heuristic's table, and the
discard adds ``danger_weight`` times the chance (``handfoot_env/baselines/compiled/heuristic.py``).
"""

from __future__ import annotations

import time

import numpy as np
import torch

from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic, pair_feature_rows
from handfoot_env.baselines.heuristic_params import NUM_PAIR_FEATURES
from handfoot_env.cards import FIRST_NATURAL, NUM_NATURALS
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine
from handfoot_env.vector.state import PLAY


def pair_examples(
    rules: Rules, positions: int, seed: int, batch: int = 512, every: int = 4
) -> tuple[np.ndarray, np.ndarray]:
    """``positions`` play-phase positions of default-heuristic games (one in ``every`` steps,
    so a game gives positions from all its stages): features ``[N, 11, F]`` and labels
    ``[N, 11]`` (the next player holds two or more naturals of the rank)."""
    engine = VectorEngine(rules, batch_size=batch, seed=seed)
    heuristic = CompiledHeuristic(rules)
    features, labels, count, step = [], [], 0, 0
    while count < positions:
        observations, masks = engine.observe(), engine.legal_mask()
        if step % every == 0:
            states = engine.states
            rows = np.flatnonzero(states["phase"] == PLAY)[: positions - count]
            following = (states["current"][rows].astype(np.int64) + 1) % rules.num_players
            held = states["hand"][rows, following, FIRST_NATURAL : FIRST_NATURAL + NUM_NATURALS]
            out = np.empty((len(rows), NUM_NATURALS, NUM_PAIR_FEATURES))
            pair_feature_rows(np.ascontiguousarray(observations[rows], dtype=np.float32), out)
            features.append(out)
            labels.append(held >= 2)
            count += len(rows)
        engine.step(heuristic.act(observations, masks))
        step += 1
    return np.concatenate(features), np.concatenate(labels)


def fit_pair_model(rules: Rules, positions: int, seed: int = 0) -> tuple[np.ndarray, dict]:
    """The pair model's weights (``PAIR_FEATURES`` order), fitted by logistic regression on
    ``positions`` positions, and how well it predicts (log loss against the base rate's)."""
    start = time.perf_counter()
    features, labels = pair_examples(rules, positions, seed)
    x = torch.as_tensor(features.reshape(-1, NUM_PAIR_FEATURES))
    y = torch.as_tensor(labels.reshape(-1).astype(np.float64))
    weights = torch.zeros(NUM_PAIR_FEATURES, dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.LBFGS([weights], max_iter=200, line_search_fn="strong_wolfe")

    def loss_fn() -> torch.Tensor:
        optimizer.zero_grad()
        # A little L2 keeps the weights finite where a feature decides the label outright
        # (a pair seen taken from the pile is held until it is shown).
        loss = torch.nn.functional.binary_cross_entropy_with_logits(x @ weights, y) + 1e-4 * (weights**2).sum()
        loss.backward()
        return loss

    optimizer.step(loss_fn)
    rate = float(y.mean())
    with torch.no_grad():
        loss = float(torch.nn.functional.binary_cross_entropy_with_logits(x @ weights, y))
    base = -(rate * np.log(rate) + (1 - rate) * np.log(1 - rate)) if 0 < rate < 1 else 0.0
    return weights.detach().numpy().copy(), {
        "positions": len(labels),
        "pair_rate": rate,
        "log_loss": loss,
        "base_log_loss": float(base),
        "seconds": time.perf_counter() - start,
    }


__all__ = ["fit_pair_model", "pair_examples"]
