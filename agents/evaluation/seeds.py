"""Which deals each part of the lab plays, kept apart by seed: no evaluation replays a deal that
training, tuning or another evaluation has played.  Every range is defined here and nowhere else.

A game's deals follow from its seed (``handfoot_env.cards.shuffled_cards``); a duplicate match of
``pairs`` sets plays seeds ``first`` to ``first + pairs - 1``, each with the sides rotated.

    0 - 999               the docs' tables (``handfoot eval`` without ``--seed``)
    100,000+              the trainer's periodic evaluations (the learning curves)
    1,000,000+            the trainer's final table
    2,000,000+            head-to-head comparisons of trained agents in the docs
    3,000,000+            the trainer's selection matches (``eval.keep_best_vs``)
    4,000,000+            held-out comparisons of agents no run saw (the docs' decisions)
    5,000,000+            the win-probability model's fit
    90,000,000+           the benchmark protocol (``benchmark.py``)
    1,000,000,000+        training games: 10^8 per run seed, 10^7 per Ray worker
    4,000,000,000+        the trainer's warm start (input scaling, then imitation 10^7 further)
    tune:  seed * 1,000,003 + offsets  (the heuristic search; warm-start deals, never evaluation)
"""

from __future__ import annotations

README_SEEDS = 0
CURVE_SEEDS = 100_000
FINAL_SEEDS = 1_000_000
HEAD_TO_HEAD_SEEDS = 2_000_000
SELECTION_SEEDS = 3_000_000
HELD_OUT_SEEDS = 4_000_000
WIN_PROB_SEEDS = 5_000_000
BENCHMARK_SEEDS = 90_000_000
TRAINING_SEEDS = 1_000_000_000
TRAINING_SEEDS_PER_RUN = 100_000_000
TRAINING_SEEDS_PER_WORKER = 10_000_000
WARM_START_SEEDS = 4_000_000_000
IMITATION_OFFSET = 10_000_000  # the imitation's deals, past the scaling fit's within the warm start's
SEARCH_SEED = 4_000  # the warm start's heuristic search: its seed is the run seed plus this
TUNE_SEED_STRIDE = 1_000_003  # the heuristic search spreads its deals from seed * this

__all__ = [
    "BENCHMARK_SEEDS",
    "CURVE_SEEDS",
    "FINAL_SEEDS",
    "HEAD_TO_HEAD_SEEDS",
    "HELD_OUT_SEEDS",
    "IMITATION_OFFSET",
    "README_SEEDS",
    "SEARCH_SEED",
    "SELECTION_SEEDS",
    "TRAINING_SEEDS",
    "TRAINING_SEEDS_PER_RUN",
    "TRAINING_SEEDS_PER_WORKER",
    "TUNE_SEED_STRIDE",
    "WARM_START_SEEDS",
    "WIN_PROB_SEEDS",
]
