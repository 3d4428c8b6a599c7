"""Rewards, defined once for every engine and shell.

``deal``: at the end of each deal, each seat receives its side's deal score minus the mean
deal score of the other sides, divided by ``DEAL_REWARD_SCALE``.  ``game``: at the end of
the game, +1 to every seat of a side with the unique highest total, -1 to the others, 0 to
all on a tie for the highest total.
"""

from __future__ import annotations

from collections.abc import Sequence

from handfoot_env.rules import Rules

DEAL_REWARD_SCALE = 1000.0
REWARD_MODES = ("deal", "game")


def deal_rewards(scores: Sequence[int], rules: Rules) -> list[float]:
    """Per-seat reward for a finished deal with these per-owner ``scores``."""
    owners = rules.num_owners
    out = []
    for seat in range(rules.num_players):
        own = rules.owner_of(seat)
        others = (sum(scores) - scores[own]) / (owners - 1)
        out.append((scores[own] - others) / DEAL_REWARD_SCALE)
    return out


def game_rewards(totals: Sequence[int], rules: Rules) -> list[float]:
    """Per-seat reward for a finished game with these per-owner ``totals``."""
    best = max(totals)
    winners = [o for o, t in enumerate(totals) if t == best]
    out = []
    for seat in range(rules.num_players):
        own = rules.owner_of(seat)
        if len(winners) > 1:
            out.append(0.0)
        else:
            out.append(1.0 if own == winners[0] else -1.0)
    return out
