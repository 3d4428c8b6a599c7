"""Rewards, defined once for every shell: the engines report deal ends and scores; this turns
them into each seat's reward.

``deal`` (the default): at the end of each deal, each seat receives its side's deal score
minus the mean deal score of the other sides, divided by ``DEAL_REWARD_SCALE``.
``game``: at the end of the game, +1 to every seat of the side with the unique highest
total, -1 to the others, 0 to all on a tie for the highest total.
``win_prob`` (the trainer's, with a fitted :class:`WinProbability`): at the end of each deal,
the change in the side's chance of winning the game, P(win | totals after the deal) minus
P(win | totals before it); at the end of the game the result (1 won, 0.5 tied for the
highest, 0 lost) takes the place of P.  A game's rewards add up to its result minus
P(win) at its start, so maximising them is maximising the evaluation's win rate, deal by
deal (the idea of Suphx's global reward predictor, Li et al. 2020).

Shaping (the trainer's option): potential-based (Ng, Harada and Russell 1999) on the margin
of the deal in progress, scored as it stands (``VectorEngine.running_scores``):
``gamma * potential(s') - potential(s)``, the discount the learner uses, so that the
optimal policy is unchanged.
"""

from __future__ import annotations

import numpy as np

from handfoot_env.rules import Rules

DEAL_REWARD_SCALE = 1000.0
REWARD_MODES = ("deal", "game", "win_prob")
# The modes every shell can give; win_prob needs a fitted model, which only the trainer has.
SHELL_REWARD_MODES = ("deal", "game")


def check_reward_mode(mode: str, modes: tuple[str, ...] = SHELL_REWARD_MODES) -> str:
    if mode not in modes:
        raise ValueError(f"reward_mode must be one of {', '.join(modes)}, got {mode!r}")
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


def _top(totals: np.ndarray, sides: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(whether side ``sides`` has the highest total, whether no other side has it too), shaped
    like ``sides`` (``totals`` ``[B, owners]``, ``sides`` ``[B]`` or ``[B, k]``)."""
    totals = np.asarray(totals)
    best = totals.max(axis=1, keepdims=True)
    unique = (totals == best).sum(axis=1) == 1
    mine = np.take_along_axis(totals, np.asarray(sides).reshape(len(totals), -1), axis=1).reshape(np.shape(sides))
    top = mine == best.reshape((-1,) + (1,) * (np.ndim(sides) - 1))
    return top, unique.reshape((-1,) + (1,) * (np.ndim(sides) - 1))


def game_result(totals: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """The ``game`` reward: +1 where ``sides`` alone has the highest total, -1 where another
    side alone does, 0 to every side on a tie for the highest."""
    top, unique = _top(totals, sides)
    return np.where(unique, np.where(top, 1.0, -1.0), 0.0)


def game_points(totals: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """What the evaluation counts (the draw rule): 1 where ``sides`` alone has the highest
    total (won), 0.5 where it is tied for the highest (a draw), 0 where another side's total is
    higher (lost; with three sides or more, also when two others tie above it)."""
    top, unique = _top(totals, sides)
    return np.where(top, np.where(unique, 1.0, 0.5), 0.0)


def next_deal_start(
    totals_before: np.ndarray, deal_scores: np.ndarray, deals_before: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The position a deal leads to, as :class:`WinProbability` reads positions: the totals
    after the deal and the deals played counting it.  A position is the start of a deal: the
    totals then, and the deals played before it (0 at the start of the game).  The one home of
    that convention: the fit records positions with it, the reward and the play-outs value them."""
    return np.asarray(totals_before) + np.asarray(deal_scores), np.asarray(deals_before) + 1


class WinProbability:
    """P(win | the totals at the start of a deal, the deals played before it): a small network
    in numpy (positions: :func:`next_deal_start`).

    Fitted by ``train/win_prob.py`` on engine games; its inputs (:meth:`features`) are the
    side's lead over the best and the mean of the other sides, the deals left (or, for games
    to a target score, how far the leaders are from it), all in thousands of points."""

    def __init__(self, rules: Rules, weights: list[np.ndarray]):
        self.rules = rules
        self.weights = [np.asarray(w, dtype=np.float64) for w in weights]

    FEATURES = 6

    def features(self, totals: np.ndarray, sides: np.ndarray, deals_played: np.ndarray) -> np.ndarray:
        """``[B, FEATURES]`` for side ``sides[b]`` of game b at the start of its next deal: the
        lead over the best and over the mean other side, divided by the square root of the
        deals left (the spread of what is still to come) and as it is; then, in games to a
        target score, how far this side and the best other are from it (zero elsewhere)."""
        totals = np.asarray(totals, dtype=np.float64) / 1000.0
        sides = np.asarray(sides, dtype=np.int64)
        rows = np.arange(len(totals))
        mine = totals[rows, sides]
        others = totals.copy()
        others[rows, sides] = -np.inf
        best_other = others.max(axis=1)
        mean_other = (totals.sum(axis=1) - mine) / max(totals.shape[1] - 1, 1)
        lead = np.stack([mine - best_other, mine - mean_other], axis=1)
        left = np.maximum(self.rules.num_deals - np.asarray(deals_played, dtype=np.float64), 1.0)
        if self.rules.target_score:  # num_deals is the cap of such games (docs/rules.md, house)
            target = self.rules.target_score / 1000.0
            to_target = np.stack([target - mine, target - best_other], axis=1) / 10.0
        else:
            to_target = np.zeros((len(totals), 2))
        return np.concatenate([lead / np.sqrt(left)[:, None], lead / 10.0, to_target], axis=1)

    def __call__(self, totals: np.ndarray, sides: np.ndarray, deals_played: np.ndarray) -> np.ndarray:
        """``[B]`` chances of winning of side ``sides[b]``."""
        return self.features_to_chance(self.features(totals, sides, deals_played))

    def after_deal(
        self,
        totals_before: np.ndarray,
        deal_scores: np.ndarray,
        sides: np.ndarray,
        deals_before: np.ndarray,
        game_over: np.ndarray,
    ) -> np.ndarray:
        """``[B]``: side ``sides[b]``'s chance once a deal that started at ``totals_before``
        after ``deals_before`` deals has scored ``deal_scores``: the game's result (1 won, 0.5
        tied for the highest, 0 lost) where the deal ended it, else the chance at the next
        deal's start."""
        totals, played = next_deal_start(totals_before, deal_scores, deals_before)
        return np.where(game_over, game_points(totals, sides), self(totals, sides, played))

    def features_to_chance(self, features: np.ndarray) -> np.ndarray:
        """The network: tanh hidden layers, a logistic output."""
        h = np.asarray(features, dtype=np.float64)
        layers = list(zip(self.weights[0::2], self.weights[1::2]))
        for w, b in layers[:-1]:
            h = np.tanh(h @ w + b)
        w, b = layers[-1]
        return 1.0 / (1.0 + np.exp(-(h @ w + b)[:, 0]))

    def to_dict(self) -> dict:
        return {"rules": self.rules.to_dict(), "weights": [w.tolist() for w in self.weights]}

    @staticmethod
    def from_dict(data: dict) -> WinProbability:
        return WinProbability(Rules.from_dict(data["rules"]), [np.asarray(w) for w in data["weights"]])


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
    sides = np.asarray(sides)
    ended = np.flatnonzero(deal_over if mode == "deal" else game_over)
    rewards = np.zeros(sides.shape, dtype=np.float64)
    if len(ended):  # most steps end no deal: score only the games that did
        if mode == "deal":
            rewards[ended] = margin(np.asarray(deal_scores)[ended], sides[ended])
        else:
            rewards[ended] = game_result(np.asarray(final_totals)[ended], sides[ended])
    return rewards


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
    "SHELL_REWARD_MODES",
    "WinProbability",
    "check_reward_mode",
    "game_points",
    "game_result",
    "margin",
    "next_deal_start",
    "seat_owners",
    "seat_rewards",
    "side_rewards",
]
