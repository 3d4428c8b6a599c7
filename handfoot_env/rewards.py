"""Rewards, defined once for every shell: the engines report deal ends and scores; this turns
them into each seat's reward.

``deal`` (the default): at the end of each deal, each seat receives its side's deal score
minus the mean deal score of the other sides, divided by ``DEAL_REWARD_SCALE``.
``game``: at the end of the game, +1 to every seat of the side with the unique highest
total, -1 to the others, 0 to all on a tie for the highest total.

Shaping (the trainer's option): potential-based (Ng et al. 1999) on the same margin of the
deal in progress, scored as it stands (``VectorEngine.running_scores``).
"""

from __future__ import annotations

import numpy as np

from handfoot_env.rules import Rules

DEAL_REWARD_SCALE = 1000.0
REWARD_MODES = ("deal", "game")


def check_reward_mode(mode: str) -> str:
    if mode not in REWARD_MODES:
        raise ValueError(f"reward_mode must be one of {', '.join(REWARD_MODES)}, got {mode!r}")
    return mode


def seat_owners(rules: Rules) -> np.ndarray:
    """``[players]``: the side (owner) of each seat."""
    return np.array(rules.seat_owners, dtype=np.int64)


def margin(scores: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """``scores[b, sides[b]]`` minus the mean of the other sides' scores, / DEAL_REWARD_SCALE.

    ``scores`` is ``[B, owners]``; ``sides`` is ``[B]`` or ``[B, k]`` (several seats' sides)."""
    scores = np.asarray(scores, dtype=np.float64)
    owners = scores.shape[1]
    sides = np.asarray(sides, dtype=np.int64)
    mine = np.take_along_axis(scores, sides.reshape(len(scores), -1), axis=1).reshape(sides.shape)
    others = (scores.sum(axis=1).reshape((-1,) + (1,) * (sides.ndim - 1)) - mine) / (owners - 1)
    return (mine - others) / DEAL_REWARD_SCALE


def game_result(totals: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """+1 where ``sides`` alone has the highest total, -1 where another side does, 0 on a tie
    for the highest (``totals`` ``[B, owners]``, ``sides`` ``[B]`` or ``[B, k]``)."""
    totals = np.asarray(totals)
    best = totals.max(axis=1, keepdims=True)
    unique = (totals == best).sum(axis=1) == 1
    mine = np.take_along_axis(totals, np.asarray(sides).reshape(len(totals), -1), axis=1).reshape(np.shape(sides))
    top = mine == best.reshape((-1,) + (1,) * (np.ndim(sides) - 1))
    unique = unique.reshape((-1,) + (1,) * (np.ndim(sides) - 1))
    return np.where(unique, np.where(top, 1.0, -1.0), 0.0)


def side_rewards(
    mode: str,
    deal_over: np.ndarray,
    game_over: np.ndarray,
    deal_scores: np.ndarray,
    final_totals: np.ndarray,
    sides: np.ndarray,
) -> np.ndarray:
    """The reward of side ``sides[b]`` (``[B]``, or ``[B, k]`` for several) for one step of B
    games, from the fields of ``VectorEngine.step``'s outcome and the finished games' totals."""
    expand = (-1,) + (1,) * (np.ndim(sides) - 1)
    if mode == "deal":
        return np.where(np.asarray(deal_over).reshape(expand), margin(deal_scores, sides), 0.0)
    return np.where(np.asarray(game_over).reshape(expand), game_result(final_totals, sides), 0.0)


def seat_rewards(
    rules: Rules,
    mode: str,
    deal_over: np.ndarray,
    game_over: np.ndarray,
    deal_scores: np.ndarray,
    final_totals: np.ndarray,
) -> np.ndarray:
    """``[B, players]`` float32: every seat's reward (its side's, see :func:`side_rewards`)."""
    sides = np.broadcast_to(seat_owners(rules), (len(deal_over), rules.num_players))
    return side_rewards(mode, deal_over, game_over, deal_scores, final_totals, sides).astype(np.float32)


__all__ = [
    "DEAL_REWARD_SCALE",
    "REWARD_MODES",
    "check_reward_mode",
    "game_result",
    "margin",
    "seat_owners",
    "seat_rewards",
    "side_rewards",
]
