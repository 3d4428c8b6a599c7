"""Microseconds per decision of the compiled heuristic (the default and the shipped tuned
variant) on 40,960 partnership positions of heuristic games, best of five passes.

    python scripts/experiments/heuristic_speed.py
"""

from __future__ import annotations

import time

import numpy as np

from agents import make_agent
from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine


def positions(rules: Rules, batch: int = 4096, steps: int = 200, every: int = 20):
    engine = VectorEngine(rules, batch_size=batch, seed=1)
    heuristic = CompiledHeuristic(rules)
    observations, masks = [], []
    for step in range(steps):
        obs, mask = engine.observe().copy(), engine.legal_mask().copy()
        if step % every == 0:
            observations.append(obs)
            masks.append(mask)
        engine.step(heuristic.act(obs, mask))
    return np.concatenate(observations), np.concatenate(masks)


def microseconds(agent, observations, masks) -> float:
    agent.act(observations[:8], masks[:8])  # compiled already; this warms the caches
    best = np.inf
    for _ in range(5):
        start = time.perf_counter()
        agent.act(observations, masks)
        best = min(best, time.perf_counter() - start)
    return best / len(masks) * 1e6


def main() -> None:
    rules = Rules.preset("partnership")
    observations, masks = positions(rules)
    for name in ("heuristic", "tuned"):
        print(
            f"{name}: {microseconds(make_agent(name, rules=rules), observations, masks):.2f} µs a decision "
            f"over {len(masks):,} positions"
        )


if __name__ == "__main__":
    main()
