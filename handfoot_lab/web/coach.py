"""The Coach's weighing of a move: what it cost, judged on cards the person could not see.

After each deal the Coach weighs the person's moves that the hint agent would have changed:
the position before each such move is played out to the end of the deal twice, once with the
person's move and once with the hint agent's, the heuristic in every seat.  The play-outs
never use the real hidden cards (the other hands and feet, the person's own unplayed foot,
the stock): each is played on ``REDEALS`` redeals of them (``vector.determinize``, which
depends only on which cards are unseen, not on where they lie), the same redeals for both
moves, and the cost is the mean difference of the deal margins.  The redeals are seeded from
the server's secret, so a cost says nothing about a hidden card that the person's own view
did not already say.

The play-outs run on the vector engine, a batch at a time (``agents.evaluation.rollouts``): a deal's
review takes a second or two.
"""

from __future__ import annotations

import numpy as np

from agents.evaluation.rollouts import RolloutEvaluator
from handfoot_env.reference import Game
from handfoot_env.seating.rewards import DEAL_REWARD_SCALE
from handfoot_env.vector import VectorEngine

REDEALS = 12  # redeals of the unseen cards per move weighed
SEED_RANGE = 2**40  # the rollouts' seeds are int64 after mixing in the move and the redeal


def move_costs(befores: list[Game], mine: list[int], theirs: list[int], seed: int, redeals: int = REDEALS) -> list[int]:
    """For each position ``befores[i]`` (the person to move): the points the person's move
    ``mine[i]`` cost against the hint agent's ``theirs[i]`` (negative: it gained), the mean
    deal-margin difference over ``redeals`` redeals of the cards the person could not see."""
    if not befores:
        return []
    rules = befores[0].rules
    source = VectorEngine(rules, batch_size=len(befores), auto_reset=False)
    for row, before in enumerate(befores):
        source.load_position(row, before)
    evaluator = RolloutEvaluator(rules, batch=2 * redeals * len(befores))
    candidates = np.array([theirs, mine], dtype=np.int64).T
    margins = evaluator.values(source, np.arange(len(befores)), candidates, redeals, seed % SEED_RANGE)
    costs = (margins[:, 0] - margins[:, 1]).mean(axis=1) * DEAL_REWARD_SCALE
    return [round(float(cost)) for cost in costs]


__all__ = ["REDEALS", "move_costs"]
