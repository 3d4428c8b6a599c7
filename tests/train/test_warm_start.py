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


def test_the_warm_start_fits_the_scaling_and_imitation_learns_the_teacher(tmp_path):
    """``warm_start`` sets the input scaling ``fit_scaling`` gives on the run's warm-start deals
    (not the untouched identity), and imitation moves the actor towards its teacher: on fresh
    positions of the heuristic's own games the policy agrees with it far more than before (an
    untrained one agrees on about 40% here, having learned about 85%)."""
    import torch

    from agents.evaluation.seeds import TRAINING_SEEDS_PER_RUN, WARM_START_SEEDS
    from train.collect import Timer
    from train.imitation import demonstrations
    from train.warm_start import warm_start

    config = load_config(
        None,
        ["preset=classic", "rules={num_players: 2}", "network.arch=[64]"]
        + ["network.scaling_positions=5000", "imitation.decisions=20000"],
    )
    rules = config.make_rules()
    policy = make_policy(config, rules)

    def agreement() -> float:
        advisor = policy.advisor_params.cpu().numpy()
        observations, masks, actions = next(demonstrations(rules, 4000, seed=123, params=advisor))
        x, m = torch.as_tensor(policy.inputs(observations, masks, rules)), torch.as_tensor(masks)
        with torch.no_grad():
            return float((policy.logits(x, m).argmax(-1).numpy() == actions).mean())

    before = agreement()
    warm_start(config, rules, policy, tmp_path, Timer(), lambda line: None, lambda *point: None)
    twin = make_policy(config, rules)
    fit_scaling(twin, rules, 5000, seed=WARM_START_SEEDS + config.seed * TRAINING_SEEDS_PER_RUN)
    assert policy.mean.abs().sum() > 0 and torch.allclose(policy.mean, twin.mean)
    assert torch.allclose(policy.scale, twin.scale)
    after = agreement()
    assert before < 0.6 and after > 0.75 and after - before > 0.25, (before, after)
