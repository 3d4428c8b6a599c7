"""Before learning: the input scaling is measured over whole games, not at their start."""

from __future__ import annotations

import numpy as np

from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine
from train.config import load_config
from train.loop import make_policy
from train.warm_start import fit_scaling

RULES = Rules.preset("partnership")


def late_positions(count: int = 128) -> tuple[np.ndarray, np.ndarray]:
    """Positions of heuristic games in their third and fourth deals."""
    engine = VectorEngine(RULES, batch_size=count, seed=9, auto_reset=False)
    heuristic = CompiledHeuristic(RULES)
    observations, masks = [], []
    while len(observations) < 40:
        live = ~engine.is_over
        if not live.any():
            break
        late = live & (engine.states["deal"] >= 2)
        if late.sum() > count // 4:
            observations.append(engine.observe()[late].copy())
            masks.append(engine.legal_mask()[late].copy())
        engine.step(heuristic.act(engine.observe(), engine.legal_mask()), active=live)
    return np.concatenate(observations), np.concatenate(masks)


def test_the_scaling_covers_late_deals_so_few_inputs_reach_the_clip():
    """Fitted on positions spread over whole games of random, greedy and heuristic play, the
    scaled inputs of late deals stay inside the clip bound almost everywhere.  (0.4 fitted it
    on the first rollout, positions at the start of games: there late-game piles and stock
    counts reached z-scores in the hundreds.)"""
    config = load_config(None, ["network.scaling_positions=20000"])
    policy = make_policy(config, RULES)
    fit_scaling(policy, RULES, config.network.scaling_positions, seed=1)
    observations, masks = late_positions()
    z = (policy.inputs(observations, masks, RULES) - policy.mean.numpy()) * policy.scale.numpy()
    assert len(z) > 1000
    assert np.mean(np.abs(z) > config.network.clip) < 0.005
    assert np.abs(z).max(axis=0).mean() < 2 * config.network.clip
