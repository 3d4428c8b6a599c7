"""Rollout evaluation: what each candidate action is worth, by playing the deal out.

For a decision in game ``row`` of an engine, each candidate action is tried on copies of
the position: the cards the player to move cannot see are redealt (``determinize``, the
same redeals for every candidate, so that candidates are compared on equal cards), the
candidate is played, and ``player`` (the compiled heuristic unless another is given; a
deterministic agent, so that a play-out's result does not depend on the batch around it)
plays every seat to the end of the deal.  A candidate's value on a redeal is its side's
deal-score margin (``rewards.margin``), or, given a ``win_prob`` model, its side's chance of
winning the game from the totals after that deal (the game's result where the deal ended
it): the improvement step of expert iteration (``scripts/experiments/lookahead_headroom.py``,
``scripts/experiments/expert_iteration.py``; docs/runs_past_the_teacher.md, "One step of expert iteration").
"""

from __future__ import annotations

import numpy as np

from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic
from handfoot_env.rules import Rules
from handfoot_env.seating.rewards import WinProbability, margin, seat_owners
from handfoot_env.seating.seats import Seating
from handfoot_env.vector import VectorEngine
from handfoot_env.vector.determinize import determinize_kernel


class RolloutEvaluator:
    """Plays out candidate actions ``batch`` rollouts at a time on an engine of its own."""

    def __init__(self, rules: Rules, batch: int = 2048, player=None, win_prob: WinProbability | None = None):
        self.rules = rules
        self.engine = VectorEngine(rules, batch_size=batch, auto_reset=False)
        self.seating = Seating(self.engine, [player if player is not None else CompiledHeuristic(rules)])
        self.win_prob = win_prob
        self.owners = seat_owners(rules)
        self.rollouts = 0
        self.rollout_steps = 0

    def values(
        self, source: VectorEngine, rows: np.ndarray, candidates: np.ndarray, redeals: int, seed: int
    ) -> np.ndarray:
        """``[len(rows), K, redeals]``: each candidate's value on each redeal (NaN where
        ``candidates`` is -1: no candidate).  The play-outs stream through the engine's
        batch: a slot whose deal has ended takes the next play-out at once, so the batch stays
        full while play-outs of different lengths run (each play-out's result does not depend
        on its slot)."""
        rows = np.asarray(rows, dtype=np.int64)
        decisions, k = candidates.shape
        out = np.full((decisions, k, redeals), np.nan)
        has_d, has_c = np.nonzero(candidates >= 0)
        job_d, job_c = np.repeat(has_d, redeals), np.repeat(has_c, redeals)
        job_r = np.tile(np.arange(redeals), len(has_d))
        engine, batch, owners = self.engine, self.engine.batch_size, self.rules.num_owners
        job_of = np.full(batch, -1, dtype=np.int64)  # the play-out in each slot
        job_mover = np.zeros(len(job_d), dtype=np.int64)  # per play-out: the seat to move,
        job_totals = np.zeros((len(job_d), owners), dtype=np.int64)  # the totals before the deal,
        job_deals = np.zeros(len(job_d), dtype=np.int64)  # the deals played before it
        active = np.zeros(batch, dtype=bool)

        # Each play-out's deal scores and whether its deal ended the game, by play-out; valued
        # once at the end, in play-out order, so that values do not depend on which play-outs
        # happened to end together (a model's matrix products round by batch size).
        job_scores = np.zeros((len(job_d), owners))
        job_game_over = np.zeros(len(job_d), dtype=bool)

        def record(outcome, stepped, acted) -> None:
            self.rollout_steps += int(stepped.sum())
            over = np.flatnonzero(outcome.deal_over & active)
            if len(over):
                job_scores[job_of[over]] = outcome.deal_scores[over]
                job_game_over[job_of[over]] = outcome.game_over[over]
                active[over] = False
                self.rollouts += len(over)

        started = 0
        while started < len(job_d) or active.any():
            free = np.flatnonzero(~active)[: len(job_d) - started]
            if len(free):
                jobs = np.arange(started, started + len(free))
                started += len(free)
                engine.states[free] = source.states[rows[job_d[jobs]]]
                engine.packs[free] = source.packs[rows[job_d[jobs]]]
                movers = engine.current_player[free].astype(np.int64)  # the asked partner while a question stands
                job_of[free] = jobs
                job_mover[jobs] = movers
                job_totals[jobs] = engine.states["totals"][free, :owners]
                job_deals[jobs] = engine.states["deals_ended"][free]
                # The same redeal for every candidate of a decision (common random numbers).
                determinize_kernel(
                    engine.states,
                    engine.kernel_rules,
                    free,
                    movers,
                    (seed * 1_000_003 + job_d[jobs] * 1009 + job_r[jobs]).astype(np.int64),
                )
                starting = np.zeros(batch, dtype=bool)
                starting[free] = True
                active |= starting
                actions = np.zeros(batch, dtype=np.int64)
                actions[free] = candidates[job_d[jobs], job_c[jobs]]
                record(engine.step(actions, active=starting), starting, actions)
            self.seating.play(active=active, max_steps=1, on_step=record)
            if (active & self.engine.is_over).any():  # cannot happen: a game ends only as its deal does
                raise RuntimeError("a play-out's game ended without its deal ending")
        job_sides = self.owners[job_mover]
        out[job_d, job_c, job_r] = self._value(job_scores, job_game_over, job_sides, job_totals, job_deals)
        return out

    def _value(self, scores, game_over, sides, totals_before, deals_before) -> np.ndarray:
        """A play-out's value for the mover's side from the deal's scores: the margin, or the
        chance of winning the game once the deal is over (its result where it ended the game)."""
        if self.win_prob is None:
            return margin(scores, sides)
        return self.win_prob.after_deal(totals_before, scores, sides, deals_before, game_over)


__all__ = ["RolloutEvaluator"]
