"""Search over the heuristic's own numbers by duplicate matches (the cross-entropy method).

The heuristic is a plan written down as numbers (``handfoot_env/baselines/heuristic_params``:
how many clean groups to keep clean, where wilds go, when going out wins, what to
discard...).  One move at a time it is hard to improve on (docs/training_history.md, "lookahead headroom"),
but a different plan for the whole deal can beat it, and a plan is a point in that table.
So the search plays each candidate against the default heuristic over the same duplicate
deals at engine speed (both compiled), keeps the best few, and moves a Gaussian over the
numbers towards them (ranked by win rate, or by score difference: ``fitness``).  Every
generation plays fresh deals, so a candidate cannot win by luck twice.  The result is the
final mean or, with ``validate_generations``, the best on a validation set of fresh deals
among it and the means of the last generations (late generations pick their elites mostly
on noise, so the mean wanders; a larger, separate set of deals chooses where it stopped
best).  Either way it is judged on deals neither the search nor the validation saw.  Where
the pile is taken with a pair, the pair model (``pair_model.py``) is fitted first and the search also moves how much the
discard heeds it (``danger_weight``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from agents.evaluation.matches import MatchResult, play_match
from agents.evaluation.seeds import TUNE_SEED_STRIDE
from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic
from handfoot_env.baselines.heuristic_params import (
    DEFAULT_PARAMS,
    NAMES,
    NUM_PAIR_FEATURES,
    OFF,
    PAIR_WEIGHTS,
    PARAMS,
    params_dict,
)
from handfoot_env.rules import Rules
from train.pair_model import fit_pair_model


@dataclass
class TuneConfig:
    generations: int = 10
    population: int = 20  # candidates per generation (the first is the current mean)
    elite: int = 5  # the best candidates the next mean is taken from
    pairs: int = 300  # duplicate sets each candidate plays per generation
    seed: int = 0
    final_pairs: int = 1000  # the judged result: fresh duplicate sets against the default heuristic
    pair_positions: int = 0  # positions the pair model is fitted on first (``pair_model.py``; 0: none)
    fitness: str = "win_rate"  # what ranks the candidates: win_rate or score_diff (``FITNESS``)
    validate_generations: int = 0  # the means of this many last generations, and the final one, play
    validate_pairs: int = 1000  # this many fresh duplicate sets each; the best is kept (0 generations: the final mean)

    def problem(self) -> tuple[str, str] | None:
        """The first setting a search cannot run with, as (field, what is wrong), or None."""
        for name in ("generations", "population", "elite", "pairs", "final_pairs", "validate_pairs"):
            if getattr(self, name) < 1:
                return name, f"must be at least 1, got {getattr(self, name)}"
        if self.pair_positions < 0:
            return "pair_positions", f"must be 0 (no pair model) or a number of positions, got {self.pair_positions}"
        if self.fitness not in FITNESS:
            return "fitness", f"must be {' or '.join(FITNESS)}, got {self.fitness!r}"
        if not 0 <= self.validate_generations <= self.generations:
            return "validate_generations", (
                f"must be between 0 and generations ({self.generations}), got {self.validate_generations}"
            )
        if self.elite > self.population:
            return "elite", f"must not exceed population ({self.population}), got {self.elite}"
        return None

    def check(self) -> None:
        """Raise ``ValueError`` naming the first bad setting (:meth:`problem`)."""
        problem = self.problem()
        if problem is not None:
            raise ValueError(f"tune {problem[0]} {problem[1]}")


@dataclass
class TuneResult:
    params: np.ndarray  # the variant found (``heuristic_params`` order)
    final: MatchResult  # it against the default heuristic on fresh deals
    history: list[dict] = field(default_factory=list)  # one row per generation
    seconds: float = 0.0
    pair_model: dict | None = None  # how the pair model was fitted, when it was
    validation: list[dict] = field(default_factory=list)  # the validated means, when there was a validation

    def summary(self) -> dict:
        changed = {n: v for n, v in params_dict(self.params).items() if v != PARAMS[n].default}
        return {
            "changed": changed,
            "final": self.final.to_dict(),
            "history": self.history,
            "seconds": self.seconds,
            "pair_model": self.pair_model,
            "validation": self.validation,
        }


# The numbers the search moves: those with a range; a threshold at the top of its range is OFF.
SEARCHED = [name for name in NAMES if PARAMS[name].high > PARAMS[name].low]
NEEDS_PAIR_MODEL = ("danger_weight",)  # inert without the pair model, so not searched then


def searched(pair_model: bool) -> list[str]:
    """The numbers a search moves, with or without a pair model."""
    return [name for name in SEARCHED if pair_model or name not in NEEDS_PAIR_MODEL]


def to_params(x: np.ndarray, base: np.ndarray = DEFAULT_PARAMS, names: list[str] = SEARCHED) -> np.ndarray:
    """A point of the search (the numbers ``names``) as a full parameter array (the rest from ``base``)."""
    params = base.copy()
    for name, value in zip(names, x):
        if PARAMS[name].whole:
            value = float(np.round(value))
        if PARAMS[name].default == OFF and value >= PARAMS[name].high:
            value = OFF
        params[NAMES.index(name)] = value
    return params


# How candidates are ranked.  Win rate is what the lab is judged on; score difference is the
# steadier measure over a few hundred duplicate sets (a win is a thresholded score
# difference) and rises with it, but rewards big wins that do not change who wins: searches
# ranked by it found variants that scored like hand-picked ones and won about a point less.
FITNESS: dict[str, Callable[[MatchResult], float]] = {
    "win_rate": lambda r: r.win_rate + r.score_diff * 1e-9,  # ties broken by score difference
    "score_diff": lambda r: r.score_diff,
}


def fitness(result: MatchResult, kind: str = "win_rate") -> float:
    """The number a candidate is ranked by (``FITNESS``)."""
    return FITNESS[kind](result)


def play_variants(rules: Rules, variants: list[np.ndarray], deals: int, seed: int) -> list[MatchResult]:
    """Each variant's duplicate match against the default heuristic on the same deals (here;
    ``cluster.play_variants_on_ray`` plays them on a Ray cluster, with the same results)."""
    opponent = CompiledHeuristic(rules)
    return [
        play_match(
            rules, CompiledHeuristic(rules, v, name="candidate"), opponent, deals=deals, seed=seed, progress=False
        )
        for v in variants
    ]


def tune(rules: Rules, config: TuneConfig, log: Callable[[str], None] | None = None, play=play_variants) -> TuneResult:
    """Cross-entropy search for a heuristic variant that beats the default one under ``rules``
    (``play``: how a generation's matches are played, ``play_variants``'s signature)."""
    config.check()
    start = time.perf_counter()
    rng = np.random.default_rng(config.seed)
    base, pair_model = DEFAULT_PARAMS.copy(), None
    if config.pair_positions and not rules.takes_with_a_pair:
        raise ValueError(
            "the pair model predicts takes of the pile with a pair, and these rules take it without "
            "one: give it 0 positions (--pair-positions 0, or tune.pair_positions: 0 in a config)"
        )
    if config.pair_positions:
        weights, pair_model = fit_pair_model(rules, config.pair_positions, seed=config.seed)
        base[PAIR_WEIGHTS : PAIR_WEIGHTS + NUM_PAIR_FEATURES] = weights
        if log is not None:
            log(
                f"tune: pair model fitted on {pair_model['positions']:,} positions: log loss "
                f"{pair_model['log_loss']:.3f} against {pair_model['base_log_loss']:.3f} for the base rate "
                f"({pair_model['seconds']:.0f} s)"
            )
    names = searched(pair_model is not None)
    low, high = np.array([PARAMS[n].low for n in names]), np.array([PARAMS[n].high for n in names])
    mean = np.clip([DEFAULT_PARAMS[NAMES.index(n)] for n in names], low, high)
    spread = (high - low) / 4
    history, means = [], []
    for generation in range(config.generations):
        candidates = np.clip(mean + spread * rng.standard_normal((config.population, len(names))), low, high)
        candidates[0] = mean
        means.append(mean)
        # Every candidate of a generation plays the same deals (a fair comparison); each
        # generation new ones (no candidate is kept for one lucky set of deals).
        deals_seed = config.seed * TUNE_SEED_STRIDE + 10_000 * (generation + 1)
        results = play(rules, [to_params(x, base, names) for x in candidates], config.pairs, deals_seed)
        scores = np.array([fitness(r, config.fitness) for r in results])
        best = np.argsort(-scores)[: config.elite]
        mean = candidates[best].mean(axis=0)
        spread = np.maximum(candidates[best].std(axis=0), (high - low) / 50)  # never collapse entirely
        mean_result, best_result = results[0], results[best[0]]
        row = {
            "generation": generation,
            "mean_win_rate": mean_result.win_rate,
            "mean_score_diff": mean_result.score_diff,
            "best_win_rate": best_result.win_rate,
            "best_score_diff": best_result.score_diff,
            "seconds": time.perf_counter() - start,
        }
        history.append(row)
        if log is not None:
            log(
                f"tune: generation {generation + 1}/{config.generations}: the mean wins {mean_result.win_rate:.1%} "
                f"({mean_result.score_diff:+.0f} a game) against the heuristic, the best {best_result.win_rate:.1%} "
                f"({best_result.score_diff:+.0f}) ({config.pairs * rules.num_owners} games each, {row['seconds']:.0f} s)"
            )
    params = to_params(mean, base, names)
    validation = []
    if config.validate_generations:
        # the last means (the one each generation played first) and the final one, on the same fresh deals
        contenders = means[len(means) - config.validate_generations :] + [mean]
        results = play(
            rules,
            [to_params(x, base, names) for x in contenders],
            config.validate_pairs,
            config.seed * TUNE_SEED_STRIDE + 5_555_555,
        )
        pick = int(np.argmax([fitness(r, config.fitness) for r in results]))
        first = config.generations - config.validate_generations
        validation = [
            {"after_generation": first + i, "win_rate": r.win_rate, "score_diff": r.score_diff, "kept": i == pick}
            for i, r in enumerate(results)
        ]
        params = to_params(contenders[pick], base, names)
        if log is not None:
            log(
                f"tune: validation on {config.validate_pairs} fresh duplicate sets: the means after generations "
                f"{first}..{config.generations} win "
                + ", ".join(f"{r.win_rate:.1%}" for r in results)
                + f"; kept the one after generation {first + pick}"
            )
    final = play(rules, [params], config.final_pairs, config.seed * TUNE_SEED_STRIDE + 7_777_777)[0]
    final.team, final.vs = "tuned", "heuristic"
    return TuneResult(params, final, history, time.perf_counter() - start, pair_model, validation)


__all__ = [
    "FITNESS",
    "SEARCHED",
    "TuneConfig",
    "TuneResult",
    "fitness",
    "play_variants",
    "searched",
    "to_params",
    "tune",
]
