"""Before learning: the input scaling, and the optional warm start from the heuristic.

0. **Input scaling** (always): the network's inputs are scaled by their mean and spread over
   ``network.scaling_positions`` positions spread over whole games of the league's scripted
   agents (``collect.sample_positions``), then clipped (``agents/policy.py``).
1. **Heuristic search** (``tune.generations``): the cross-entropy method over the
   heuristic's own numbers by duplicate matches (``tune.py``); the variant found teaches and
   advises below, and is saved as ``tuned.json`` in the run folder.
2. **Imitation** (``imitation.decisions``): the actor imitates that heuristic on its own
   games (``imitation.py``).

A from-scratch run (``configs/experiments/scratch.yaml``) does step 0 only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import torch

from agents import make_agent
from agents.evaluation.seeds import IMITATION_OFFSET, SEARCH_SEED, TRAINING_SEEDS_PER_RUN, WARM_START_SEEDS
from agents.policy import Policy
from handfoot_env.baselines.heuristic_params import save_params
from handfoot_env.rules import Rules
from train.collect import Timer, sample_positions
from train.config import TrainConfig
from train.imitation import imitate
from train.tune import tune

# The agents whose games the input scaling is measured on: play from the weakest to the best.
SCALING_AGENTS = ("random", "greedy", "heuristic")


def fit_scaling(policy: Policy, rules: Rules, positions: int, seed: int) -> None:
    """Set ``policy``'s input scaling from positions spread over whole games."""
    agents = [make_agent(name, seed=seed + i, rules=rules) for i, name in enumerate(SCALING_AGENTS)]
    inputs, extra = sample_positions(rules, agents, positions, seed, policy)
    policy.set_scaling(inputs, extra)


def set_teacher(policy: Policy, rules: Rules, name: str) -> str:
    """Make the tuned variant ``name`` (``tuned`` or ``tuned:PATH``) the policy's teacher and
    advisor; returns the file it came from."""
    from agents.trained import shipped_model
    from handfoot_env.baselines.heuristic_params import read_params

    path = shipped_model(rules, "tuned") if name == "tuned" else Path(name.split(":", 1)[1])
    params, _ = read_params(path)
    policy.advisor_params.copy_(torch.as_tensor(params))
    return str(path)


def search_heuristic(
    config: TrainConfig, rules: Rules, policy: Policy, folder: Path, say: Callable[[str], None], runners=None
) -> dict:
    """Search the heuristic's numbers (``tune.py``); the variant found becomes ``policy``'s
    advisor (and teacher); returns the search's summary."""
    section = config.tune
    say(
        f"heuristic search: {section.generations} generations of {section.population} variants, "
        f"{section.pairs} duplicate sets each against the heuristic"
    )
    # its deals (seed * 1,000,003 + ...) fall from 4 * 10^9 on, its pair model's from 4,000 on:
    # apart from every evaluation's deals (agents/evaluation/seeds.py)
    search = dataclasses.replace(section, seed=SEARCH_SEED + config.seed, final_pairs=config.eval.final_pairs)
    if runners:  # on Ray the rollout workers play the search's matches too
        from agents.evaluation.ray import play_variants_on_ray

        result = tune(
            rules,
            search,
            log=say,
            play=lambda rules, variants, deals, seed: play_variants_on_ray(
                rules, variants, deals, seed, runners=runners
            ),
        )
    else:
        result = tune(rules, search, log=say)
    policy.advisor_params.copy_(torch.as_tensor(result.params))
    save_params(
        folder / "tuned.json",
        result.params,
        preset=rules.preset_name,
        players=rules.num_players,
        final=result.final.to_dict(),
        validation=result.validation,
    )
    say(
        f"heuristic search: the variant found wins {result.final.win_rate:.1%} "
        f"({result.final.ci95[0]:.1%} - {result.final.ci95[1]:.1%}) of {result.final.games} fresh games "
        f"against the heuristic ({result.seconds:.0f} s); saved as {folder / 'tuned.json'}"
    )
    summary = result.summary()
    summary["seconds"] = result.seconds
    return summary


def warm_start(
    config: TrainConfig,
    rules: Rules,
    policy: Policy,
    folder: Path,
    timer: Timer,
    say: Callable[[str], None],
    log: Callable[[str, float, int], None],
    runners=None,
) -> dict:
    """Steps 0-2 above; returns what they found (``summary["warm_start"]``)."""
    import time

    tick = time.perf_counter()
    first_deal = WARM_START_SEEDS + config.seed * TRAINING_SEEDS_PER_RUN
    fit_scaling(policy, rules, config.network.scaling_positions, seed=first_deal)
    timer.add("scaling", time.perf_counter() - tick)
    found: dict = {}
    if config.imitation.teacher:
        found["teacher"] = set_teacher(policy, rules, config.imitation.teacher)
        say(f"warm start: the teacher and advisor is {config.imitation.teacher} ({found['teacher']})")
    if config.tune.generations > 0:
        found["tuned"] = search_heuristic(config, rules, policy, folder, say, runners)
        timer.add("tuning", found["tuned"]["seconds"])
    if config.imitation.decisions > 0:
        teacher = "the tuned heuristic" if config.tune.generations or config.imitation.teacher else "the heuristic"
        say(f"warm start: imitating {teacher} on {config.imitation.decisions:,} of its decisions")
        result = imitate(
            policy,
            rules,
            config.imitation.decisions,
            seed=first_deal + IMITATION_OFFSET,
            learning_rate=config.imitation.learning_rate,
            passes=config.imitation.passes,
            log=log,
        )
        timer.add("imitation", result["seconds"])
        say(f"warm start: {result['accuracy']:.1%} of {teacher}'s choices matched ({result['seconds']:.0f} s)")
        found["imitation"] = result
    return found


__all__ = ["SCALING_AGENTS", "fit_scaling", "search_heuristic", "set_teacher", "warm_start"]
