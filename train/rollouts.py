"""Rollout evaluation: what each candidate action is worth, by playing the deal out.

For a decision in game ``row`` of an engine, each candidate action is tried on copies of
the position: the cards the player to move cannot see are redealt (``determinize``, the
same redeals for every candidate, so that candidates are compared on equal cards), the
candidate is played, and the compiled heuristic plays every seat to the end of the deal.
A candidate's value is its side's mean deal-score margin (``rewards.margin``) over the
redeals: the improvement step of expert iteration, measured by
``scripts/experiments/lookahead_headroom.py`` (README, Training).
"""

from __future__ import annotations

import numpy as np

from handfoot_env.baselines.compiled import CompiledHeuristic
from handfoot_env.rewards import margin, seat_owners
from handfoot_env.rules import Rules
from handfoot_env.table import Table
from handfoot_env.vector import VectorEngine
from handfoot_env.vector.determinize import determinize_kernel


class RolloutEvaluator:
    """Plays out candidate actions ``batch`` rollouts at a time on an engine of its own."""

    def __init__(self, rules: Rules, batch: int = 2048):
        self.rules = rules
        self.engine = VectorEngine(rules, batch_size=batch, auto_reset=False)
        self.table = Table(self.engine, [CompiledHeuristic(rules)])
        self.owners = seat_owners(rules)
        self.rollouts = 0
        self.rollout_steps = 0

    def values(
        self, source: VectorEngine, rows: np.ndarray, candidates: np.ndarray, redeals: int, seed: int
    ) -> np.ndarray:
        """``[len(rows), K, redeals]``: each candidate's margin on each redeal (NaN where
        ``candidates`` is -1: no candidate)."""
        rows = np.asarray(rows, dtype=np.int64)
        decisions, k = candidates.shape
        jobs = [(d, c, r) for d in range(decisions) for c in range(k) if candidates[d, c] >= 0 for r in range(redeals)]
        out = np.full((decisions, k, redeals), np.nan)
        batch = self.engine.batch_size
        for lo in range(0, len(jobs), batch):
            chunk = jobs[lo : lo + batch]
            m = len(chunk)
            d = np.array([j[0] for j in chunk])
            c = np.array([j[1] for j in chunk])
            r = np.array([j[2] for j in chunk])
            src = rows[d]
            engine = self.engine
            engine.states[:m] = source.states[src]
            engine.packs[:m] = source.packs[src]
            movers = engine.current_player[:m].astype(np.int64)  # the asked partner while a question stands
            sides = self.owners[movers]
            # The same redeal for every candidate of a decision (common random numbers).
            determinize_kernel(
                engine.states,
                engine.kernel_rules,
                np.arange(m),
                movers,
                (seed * 1_000_003 + d * 1009 + r).astype(np.int64),
            )
            active = np.zeros(batch, dtype=bool)
            active[:m] = True
            actions = np.zeros(batch, dtype=np.int64)
            actions[:m] = candidates[d, c]
            scores = np.zeros((batch, self.rules.num_owners))
            ended = np.zeros(batch, dtype=bool)

            def record(outcome, stepped, acted, active=active, scores=scores, ended=ended) -> None:
                over = outcome.deal_over & active
                scores[over] = outcome.deal_scores[over]
                ended[over] = True
                active[over] = False
                self.rollout_steps += int(stepped.sum())

            record(engine.step(actions, active=active.copy()), active.copy(), actions)
            self.table.play(active=active, on_step=record)
            assert ended[:m].all(), "a rollout did not reach the end of its deal"
            out[d, c, r] = margin(scores[:m], sides)
            self.rollouts += m
        return out


__all__ = ["RolloutEvaluator"]
