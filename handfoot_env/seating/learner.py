"""The learner's side against opponent agents, over the vector engine (shared by the Gymnasium
env and the SB3 VecEnv).

In each of B games one side is the learner's (one seat in ``classic``, both partners in
``partnership``); every other seat is played by an opponent agent.  After the learner's
action, opponents move — batched across games, one agent call per opponent per round —
until the learner is to move again (or the game is over).  Rewards are the learner's
seat's only, including what it earns while the opponents move (a deal can end on their
turn).  The learner's side alternates between games (chosen from the game's seed) so the
policy learns from every seat.

Rewards (``rewards.py``): ``deal``, ``game``, or ``win_prob`` with a fitted
:class:`~handfoot_env.seating.rewards.WinProbability`; ``shaping`` adds potential-based shaping on
the running deal margin, discounted with the learner's ``gamma``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from handfoot_env.baselines import BASELINE_NAMES, make_baseline
from handfoot_env.rules import Rules
from handfoot_env.seating.rewards import (
    REWARD_MODES,
    WinProbability,
    check_reward_mode,
    game_points,
    margin,
    seat_owners,
    side_rewards,
)
from handfoot_env.seating.seats import CALLER, Seating
from handfoot_env.vector import VectorEngine

ILLEGAL_ACTIONS = ("terminate", "raise", "skip")  # what a shell does with an illegal action of the learner


def resolve_agents(opponent: Any, rules: Rules, seed: int = 0) -> list:
    """Opponent agents from a baseline's name, an agent object, or a list of either.  Trained
    agents come as objects: ``opponent=agents.make_agent("ppo")``."""
    items = opponent if isinstance(opponent, (list, tuple)) else [opponent]
    out = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            if item not in BASELINE_NAMES:
                raise ValueError(
                    f"opponent {item!r}: by name the env seats the baselines "
                    f"({', '.join(BASELINE_NAMES)}); pass other agents as objects, "
                    "e.g. agents.make_agent('ppo')"
                )
            item = make_baseline(item, seed=seed + i, rules=rules)
        elif not hasattr(item, "act"):
            raise ValueError(f"opponent {item!r} is neither a baseline's name nor an agent with act()")
        out.append(item)
    return out


class LearnerGames:
    """B games in which the learner plays one side and ``opponents`` play the rest."""

    def __init__(
        self,
        rules: Rules,
        batch_size: int,
        opponents: Sequence,
        seed: int = 0,
        reward_mode: str = "deal",
        auto_reset: bool = True,
        learner_side: int | None = None,
        weights: Sequence[float] | None = None,
        shaping: float = 0.0,
        gamma: float = 1.0,
        win_prob: WinProbability | None = None,
    ):
        if not opponents:
            raise ValueError("at least one opponent agent is needed")
        self.rules = rules
        self.batch_size = batch_size
        self.auto_reset = auto_reset
        self.reward_mode = check_reward_mode(reward_mode, REWARD_MODES)
        if (reward_mode == "win_prob") != (win_prob is not None):
            raise ValueError("reward_mode 'win_prob' needs a fitted win-probability model (win_prob=), and only it")
        self.win_prob = win_prob
        self.shaping = shaping
        self.gamma = gamma  # the learner's discount: shaping pays gamma * potential(s') - potential(s)
        self._opponent_rng = np.random.default_rng([seed, 1])
        self.set_opponents(opponents, weights)
        self.fixed_side = learner_side
        if learner_side is not None and not 0 <= learner_side < rules.num_owners:
            raise ValueError(f"learner_side must be a side from 0 to {rules.num_owners - 1}, got {learner_side}")
        self.engine = VectorEngine(rules, batch_size=batch_size, seed=seed, auto_reset=False)
        self.seating = Seating(self.engine, self.opponents)
        self._seat_sides = seat_owners(rules)
        # a side's first seat: whose view the learner gets in a game that is over
        self._first_seat = np.array([np.flatnonzero(self._seat_sides == side)[0] for side in range(rules.num_owners)])
        self.learner_side = np.zeros(batch_size, dtype=np.int64)
        self.opponent_index = np.zeros(batch_size, dtype=np.int64)
        self.deals_played = np.zeros(batch_size, dtype=np.int64)  # deals finished in each game so far
        self.deal_ended = np.zeros(batch_size, dtype=bool)  # a deal ended in the last step
        self._carry = np.zeros(batch_size, dtype=np.float64)
        self._rows = np.arange(batch_size)
        self._assign_sides(self._rows)
        self._play_opponents(np.zeros(batch_size), np.zeros(batch_size, dtype=bool), {})
        self._potential = self.potential()

    def reseed(self, seed: int) -> None:
        """Seed every random source of the opponents: which one sits down, and their own."""
        self._opponent_rng = np.random.default_rng([seed, 1])
        for i, agent in enumerate(self.opponents):
            if hasattr(agent, "seed"):
                agent.seed(seed + i)

    def set_opponents(self, opponents: Sequence, weights: Sequence[float] | None = None) -> None:
        """The opponent pool: each new game draws one agent with these weights.

        Games in progress keep their agent (by index, so replace agents in place)."""
        self.opponents = list(opponents)
        if hasattr(self, "table"):
            self.seating.agents = self.opponents
        chances = np.ones(len(self.opponents)) if weights is None else np.asarray(weights, dtype=np.float64)
        if len(chances) != len(self.opponents) or (chances < 0).any() or chances.sum() <= 0:
            raise ValueError("opponent weights must be one non-negative number per opponent, not all zero")
        self.weights = chances / chances.sum()

    # ------------------------------------------------------------------ helpers
    def _assign_sides(self, rows: np.ndarray) -> None:
        """Side and opponent of each new game: the side from its seed, the opponent drawn; the
        learner's seats are the caller's at the table, the opponent sits in the others."""
        self.deals_played[rows] = 0
        seeds = self.engine.states["seed"][rows]
        self.learner_side[rows] = seeds % self.rules.num_owners if self.fixed_side is None else self.fixed_side
        self.opponent_index[rows] = self._opponent_rng.choice(len(self.opponents), size=len(rows), p=self.weights)
        learner_seat = self._seat_sides[None, :] == self.learner_side[rows, None]
        self.seating.seat(rows, np.where(learner_seat, CALLER, self.opponent_index[rows, None]))

    def potential(self) -> np.ndarray:
        """The learner side's margin in the deal in progress, scored as it stands: the
        potential for reward shaping (``rewards.py``)."""
        return margin(self.engine.running_scores(), self.learner_side)

    def _learner_rewards(self, outcome) -> np.ndarray:
        """The learner side's rewards for one engine step (and the deals counted)."""
        if self.reward_mode == "win_prob":
            rewards = self._win_prob_rewards(outcome)
        else:
            rewards = side_rewards(
                self.reward_mode,
                outcome.deal_over,
                outcome.game_over,
                outcome.deal_scores,
                self.engine.final_totals,
                self.learner_side,
            )
        self.deals_played += outcome.deal_over
        return rewards

    def _win_prob_rewards(self, outcome) -> np.ndarray:
        """The change in the learner side's chance of winning over each deal that just ended
        (its result, at the end of the game): ``rewards.py``."""
        rewards = np.zeros(self.batch_size)
        rows = np.flatnonzero(outcome.deal_over)
        if len(rows) == 0:
            return rewards
        assert self.win_prob is not None  # reward_mode win_prob has its model (checked in __init__)
        over = outcome.game_over[rows]
        after = np.where(over[:, None], self.engine.final_totals[rows], self.engine.totals[rows]).astype(np.int64)
        before = after - outcome.deal_scores[rows]
        sides, played = self.learner_side[rows], self.deals_played[rows]
        chance_after = np.where(over, game_points(after, sides), self.win_prob(after, sides, played + 1))
        rewards[rows] = chance_after - self.win_prob(before, sides, played)
        return rewards

    def reset(self, seed: int | None = None) -> np.ndarray:
        self.engine.reset(seed)
        self._carry[:] = 0
        self._assign_sides(self._rows)
        self._play_opponents(np.zeros(self.batch_size), np.zeros(self.batch_size, dtype=bool), {})
        self._potential = self.potential()
        return self.observe()

    def view_seats(self) -> np.ndarray:
        """``[B]``: the seat whose view the learner gets — the player to move while the game
        goes on (always one of the learner's seats: a side's seats see different hands),
        the learner side's first seat once it is over."""
        return np.where(self.engine.is_over, self._first_seat[self.learner_side], self.engine.current_player)

    def observe(self) -> np.ndarray:
        """The learner's view in each game (a copy)."""
        return self.engine.observe(self.view_seats()).copy()

    def hidden_cards(self) -> np.ndarray:
        """``[B, players * 2 * kinds]`` float32: every seat's hand and unplayed foot, count per
        kind, seats in the learner's view order (itself first).  Hidden information: for a
        critic that learns from it during training (the actor never sees it)."""
        players = self.rules.num_players
        seats = (self.view_seats()[:, None] + np.arange(players)[None, :]) % players
        rows = np.arange(self.batch_size)[:, None]
        states = self.engine.states
        cards = np.concatenate([states["hand"][rows, seats], states["foot"][rows, seats]], axis=2)
        return cards.reshape(self.batch_size, -1).astype(np.float32)

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner, who is to move in every game that is not over."""
        return self.engine.legal_mask().copy()

    # ------------------------------------------------------------------ stepping
    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[int, dict]]:
        """The learner's actions, then the opponents' until the learner moves again.

        Returns (observations, rewards ``[B]``, dones ``[B]``, ends) where ``ends[b]`` holds
        ``terminal_observation`` and ``final_totals`` for each game that ended.  After the
        call ``deal_ended[b]`` says whether a deal of game b ended in it."""
        rewards = self._carry.copy()
        self._carry[:] = 0
        dones = np.zeros(self.batch_size, dtype=bool)
        self.deal_ended = np.zeros(self.batch_size, dtype=bool)
        ends: dict[int, dict] = {}
        active = ~self.engine.is_over
        outcome = self.engine.step(np.asarray(actions, dtype=np.int64), active=active)
        rewards += self._learner_rewards(outcome)
        self.deal_ended |= outcome.deal_over
        self._finish(outcome.game_over, dones, ends)
        self._play_opponents(rewards, dones, ends)
        if self.shaping:
            # Potential-based shaping (Ng, Harada and Russell 1999): gamma * potential(s') -
            # potential(s), with the potential of a finished game 0. Discounted with the learner's
            # gamma the shaping then sums to -potential(start) whatever the policy does, so the
            # optimum is unchanged (undiscounted, it would pay (1 - gamma) * potential per step
            # for staying ahead on the running score, that is, for not going out).
            after = self.potential()
            rewards += self.shaping * (self.gamma * np.where(dones, 0.0, after) - self._potential)
            self._potential = after
        return self.observe(), rewards.astype(np.float32), dones, ends

    def _finish(self, finished: np.ndarray, dones: np.ndarray, ends: dict[int, dict]) -> None:
        """Record the games that just ended; restart them when auto-resetting."""
        rows = np.flatnonzero(finished)
        if len(rows) == 0:
            return
        terminal = self.engine.observe(self.view_seats())[rows].copy()
        for i, b in enumerate(rows):
            ends[int(b)] = {
                "terminal_observation": terminal[i],
                "final_totals": self.engine.final_totals[b].tolist(),
                "learner_side": int(self.learner_side[b]),
            }
        dones[rows] = True
        if self.auto_reset:
            self.engine.reset_games(rows)
            self._assign_sides(rows)

    def _play_opponents(self, rewards: np.ndarray, dones: np.ndarray, ends: dict[int, dict]) -> None:
        def credit(outcome, stepped, actions) -> None:
            earned = self._learner_rewards(outcome)
            # Rewards of a game that already ended this step belong to the next episode.
            rewards[:] += np.where(dones, 0.0, earned)
            self._carry += np.where(dones, earned, 0.0)
            self.deal_ended |= outcome.deal_over & ~dones
            self._finish(outcome.game_over & ~dones, dones, ends)

        self.seating.play(on_step=credit)
