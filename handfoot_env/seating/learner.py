"""The learner's side against opponent agents over the vector engine: the one loop under every
single-learner shell (the Gymnasium env and its vector env, the SB3 ``VecEnv``, the TorchRL env
with a built-in opponent) and the trainer's collector.  The shells translate; this plays.

    games = LearnerGames(rules, 1024, [make_baseline("greedy", rules=rules)], seed=0)
    observations, masks = games.observe(), games.action_masks()
    observations, rewards, dones, ends = games.step(actions)

In each of B games one side is the learner's (one seat in ``classic``, both partners in
``partnership``); every other seat is played by an opponent agent, drawn for each new game from
the pool (``set_opponents``: agents and weights).  A step applies the learner's action in each
game, then the opponents move — batched across games by ``Seating.play``, one call per opponent
per round, observations computed only for opponents that read them — until the learner is to
move again or the game is over.  The learner's side comes from each game's seed (so that a
policy learns from every seat) unless ``learner_side`` fixes it.

What every shell would otherwise repeat is decided here, once:

* **Rewards** (``rewards.py``): the learner side's only — ``deal``, ``game``, or ``win_prob`` with a
  fitted :class:`~handfoot_env.seating.rewards.WinProbability`; ``shaping`` adds potential-based
  shaping on the running deal margin, discounted with the learner's ``gamma``.  What the
  opponents' moves earn the learner is paid in the step they follow; what they earn in a new
  game before the learner's first move there, in that first step.
* **The learner's illegal actions** (``step``'s ``illegal``): ``"raise"`` raises
  ``IllegalActionError`` naming the game, and nothing changes; ``"skip"`` refuses the action (no
  move, reward 0); ``"terminate"`` ends that game's episode with ``illegal_reward``, the engine's
  game left as it is (nobody moves in it until it is restarted).  After a step ``illegal[b]``
  says why game b's action was refused.  An opponent's illegal action raises
  ``IllegalActionError`` naming that opponent (``Seating.play``).
* **Restarts**: with ``auto_reset`` a game restarts in the step it ends, its last observation in
  ``ends[b]`` (SB3, the trainer).  Without, an ended game waits for the shell: ``restart(rows)``
  deals new games there and plays the opponents' opening moves (a partial reset); ``step``'s
  ``restart`` does the same inside a step, the new games' opening moves batched with the other
  games' opponent moves (Gymnasium's next-step autoreset).
* **Seeding**: ``seed`` deals game i from seed + i (the vector engine's seeding; ``reset`` and
  ``restart`` take seeds too) and seeds which opponent each new game draws; ``reseed`` seeds that
  draw and the opponents' own randomness.

The loop's engine changes only through the loop (the legal masks are kept between calls).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from handfoot_env import actions as A
from handfoot_env.baselines import BASELINE_NAMES, make_baseline
from handfoot_env.errors import IllegalActionError
from handfoot_env.observation import OBS_SIZE
from handfoot_env.rules import Rules
from handfoot_env.seating.rewards import (
    REWARD_MODES,
    WinProbability,
    check_reward_mode,
    margin,
    seat_owners,
    side_rewards,
)
from handfoot_env.seating.seats import CALLER, Seating
from handfoot_env.vector import VectorEngine

# What a step does with an illegal action of the learner (see the module).
ILLEGAL_ACTIONS = ("terminate", "raise", "skip")


def check_illegal_action(mode: str) -> str:
    """``mode`` if it is one of ``ILLEGAL_ACTIONS``, else one clear ``ValueError``."""
    if mode not in ILLEGAL_ACTIONS:
        raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, got {mode!r}")
    return mode


def resolve_agents(opponent: Any, rules: Rules, seed: int = 0) -> list:
    """Opponent agents from a baseline's name, an agent object, or a list of either.  Trained
    agents come as objects: ``opponent=agents.make_agent("ppo", rules=rules)``."""
    items = opponent if isinstance(opponent, (list, tuple)) else [opponent]
    out = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            if item not in BASELINE_NAMES:
                raise ValueError(
                    f"opponent {item!r}: by name the env seats the baselines "
                    f"({', '.join(BASELINE_NAMES)}); pass other agents as objects, "
                    "e.g. agents.make_agent('ppo', rules=rules)"
                )
            item = make_baseline(item, seed=seed + i, rules=rules)
        elif not hasattr(item, "act"):
            raise ValueError(f"opponent {item!r} is neither a baseline's name nor an agent with act()")
        out.append(item)
    return out


class LearnerGames:
    """B games in which the learner plays one side and ``opponents`` play the rest (see the module)."""

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
        self._rows = np.arange(batch_size)
        self.learner_side = np.zeros(batch_size, dtype=np.int64)
        self.opponent_index = np.zeros(batch_size, dtype=np.int64)
        self.deals_played = np.zeros(batch_size, dtype=np.int64)  # deals finished in each game so far
        self.deal_ended = np.zeros(batch_size, dtype=bool)  # a deal ended in the last step
        # over by the learner's illegal action ("terminate"; the engine's game is not over)
        self.ended_by_illegal = np.zeros(batch_size, dtype=bool)
        self.illegal: dict[int, str] = {}  # the last step's refused actions: game -> why
        self._carry = np.zeros(batch_size, dtype=np.float64)  # earned before the learner's next step
        self._potential = np.zeros(batch_size, dtype=np.float64)
        self._masks: np.ndarray | None = None  # the engine's legal masks while the games are unchanged
        self._seat(self._rows)
        self._open(self._rows)

    def reseed(self, seed: int) -> None:
        """Seed every random source of the opponents: which one sits down, and their own."""
        self._opponent_rng = np.random.default_rng([seed, 1])
        for i, agent in enumerate(self.opponents):
            if hasattr(agent, "seed"):
                agent.seed(seed + i)

    def set_opponents(self, opponents: Sequence, weights: Sequence[float] | None = None) -> None:
        """The opponent pool: each new game draws one agent with these weights.

        Games in progress keep their agent (by index, so replace agents in place)."""
        chances = np.ones(len(opponents)) if weights is None else np.asarray(weights, dtype=np.float64)
        if len(chances) != len(opponents) or (chances < 0).any() or chances.sum() <= 0:
            raise ValueError("opponent weights must be one non-negative number per opponent, not all zero")
        self.opponents = list(opponents)
        self.weights = chances / chances.sum()
        if hasattr(self, "seating"):
            self.seating.agents = self.opponents

    # ------------------------------------------------------------------ new games
    def reset(self, seed: int | None = None, seeds: np.ndarray | None = None) -> None:
        """New games everywhere: game i from ``seed + i`` (or ``seeds[i]``; neither: the engine's
        next seeds), sides and opponents drawn, the opponents' opening moves played."""
        self.engine.reset(seed, seeds)
        self._seat(self._rows)
        self._open(self._rows)

    def restart(self, rows: np.ndarray, seeds: np.ndarray | None = None) -> None:
        """New games at ``rows`` only (from ``seeds``, one a game, or the engine's next seeds),
        their opponents' opening moves played; the other games are left as they are."""
        rows = np.asarray(rows, dtype=np.int64)
        self.engine.reset_games(rows, seeds)
        self._seat(rows)
        self._open(rows)

    def _seat(self, rows: np.ndarray) -> None:
        """The games at ``rows`` were just dealt: their flags cleared, the learner's side taken from
        the seed (or fixed), the opponent drawn; the learner's seats are the caller's at the table."""
        self.ended_by_illegal[rows] = False
        self._carry[rows] = 0.0
        self.deals_played[rows] = 0
        seeds = self.engine.states["seed"][rows]
        self.learner_side[rows] = seeds % self.rules.num_owners if self.fixed_side is None else self.fixed_side
        self.opponent_index[rows] = self._opponent_rng.choice(len(self.opponents), size=len(rows), p=self.weights)
        learner_seat = self._seat_sides[None, :] == self.learner_side[rows, None]
        self.seating.seat(rows, np.where(learner_seat, CALLER, self.opponent_index[rows, None]))
        self._masks = None

    def _open(self, rows: np.ndarray) -> None:
        """The opening moves of the games at ``rows`` (just dealt): the opponents move until the
        learner is to move; what they earn waits for the learner's first step."""
        waiting = np.ones(self.batch_size, dtype=bool)
        self._play_opponents(np.zeros(self.batch_size), np.zeros(self.batch_size, dtype=bool), {}, waiting)
        if self.shaping:
            self._potential[rows] = self.potential()[rows]

    # ------------------------------------------------------------------ what the learner sees
    @property
    def over(self) -> np.ndarray:
        """``[B]``: the episodes that are over (the game, or ended by an illegal action)."""
        return self.engine.is_over | self.ended_by_illegal

    def view_seats(self) -> np.ndarray:
        """``[B]``: the seat whose view the learner gets — the player to move while the game
        goes on (always one of the learner's seats: a side's seats see different hands),
        the learner side's first seat once it is over."""
        return np.where(self.engine.is_over, self._first_seat[self.learner_side], self.engine.current_player)

    def observe(self, out: np.ndarray | None = None) -> np.ndarray:
        """``[B, OBS_SIZE]``: the learner's view in each game, written into ``out`` or a new array."""
        out = np.empty((self.batch_size, OBS_SIZE), dtype=np.float32) if out is None else out
        return self.engine.observe(self.view_seats(), rows=self._rows, out=out)

    def action_masks(self) -> np.ndarray:
        """``[B, NUM_ACTIONS]`` booleans (a copy): the learner's legal actions, none where the
        episode is over."""
        masks = self._legal().copy()
        if self.ended_by_illegal.any():
            masks[self.ended_by_illegal] = False
        return masks

    def _legal(self) -> np.ndarray:
        """The engine's legal masks of the games as they stand (computed once per change)."""
        if self._masks is None:
            self._masks = self.engine.legal_mask()
        return self._masks

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

    def potential(self) -> np.ndarray:
        """The learner side's margin in the deal in progress, scored as it stands: the
        potential for reward shaping (``rewards.py``)."""
        return margin(self.engine.running_scores(), self.learner_side)

    # ------------------------------------------------------------------ stepping
    def step(
        self,
        actions: np.ndarray,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        restart: np.ndarray | None = None,
        observe: bool = True,
    ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray, dict[int, dict]]:
        """The learner's actions (one per game; ignored where the episode is over), then the
        opponents' moves until the learner moves again.

        ``illegal`` says what an illegal action does (``ILLEGAL_ACTIONS``, see the module).
        ``restart`` (game indices) starts new games there instead of moving: their reward is 0,
        what their opponents' opening moves earn waits for their first step.

        Returns (observations, or None without ``observe``; rewards ``[B]`` float64; dones ``[B]``,
        the episodes that ended in this step; ends) where ``ends[b]`` holds ``final_totals``
        (for a game played to its end), ``learner_side`` and, with ``auto_reset``,
        ``terminal_observation`` for each episode that ended.  After the call ``deal_ended[b]``
        says whether a deal of game b ended in it, and ``illegal[b]`` why its action was refused."""
        n = self.batch_size
        actions = np.asarray(actions)
        if actions.shape != (n,) or actions.dtype.kind not in "iu":
            raise ValueError(f"step needs {n} integer actions, got shape {actions.shape} {actions.dtype}")
        actions = actions.astype(np.int64, copy=False)
        waiting = None  # the games restarted in this step
        if restart is not None:
            waiting = np.zeros(n, dtype=bool)
            waiting[np.asarray(restart, dtype=np.int64)] = True
        moving = ~self.over if waiting is None else ~(self.over | waiting)
        refused = None
        self.illegal = {}
        # Checked before anything changes. Raising and restarting nothing, the engine's own
        # check (inside its step, which then changes no game) does it for free.
        if check_illegal_action(illegal) != "raise" or restart is not None:
            refused = self._refused(actions, moving)
            if refused.any():
                if illegal == "raise":
                    raise self._illegal_error(int(np.flatnonzero(refused)[0]), actions)
                self.illegal = {int(b): self._why(int(b), int(actions[b])) for b in np.flatnonzero(refused)}
                moving &= ~refused
        if waiting is not None:
            self.engine.reset_games(np.flatnonzero(waiting))
            self._seat(np.flatnonzero(waiting))
        outcome = self.engine.step(actions, active=moving)
        self._masks = None
        if waiting is None:  # what was carried is paid now
            rewards, self._carry = self._carry, np.zeros(n)
        else:
            rewards = np.where(waiting, 0.0, self._carry)
            self._carry = np.where(waiting, self._carry, 0.0)
        if outcome.deal_over.any():
            rewards += self._learner_rewards(outcome)
        self.deal_ended = outcome.deal_over.copy()
        ended = outcome.game_over
        if illegal == "terminate" and self.illegal:
            assert refused is not None  # checked above
            rewards[refused] = illegal_reward  # PettingZoo's convention: the episode ends, with a penalty
            self.ended_by_illegal |= refused
            ended = ended | refused
        dones = np.zeros(n, dtype=bool)
        ends: dict[int, dict] = {}
        self._finish(ended, dones, ends)
        self._play_opponents(rewards, dones, ends, waiting)
        if self.shaping:
            # Potential-based shaping (Ng, Harada and Russell 1999): gamma * potential(s') -
            # potential(s), with the potential of a finished game 0. Discounted with the learner's
            # gamma the shaping then sums to -potential(start) whatever the policy does, so the
            # optimum is unchanged (undiscounted, it would pay (1 - gamma) * potential per step
            # for staying ahead on the running score, that is, for not going out).
            after = self.potential()
            shaped = self.gamma * np.where(dones, 0.0, after) - self._potential
            rewards += self.shaping * (shaped if waiting is None else np.where(waiting, 0.0, shaped))
            self._potential = after
        return (self.observe() if observe else None), rewards, dones, ends

    def _refused(self, actions: np.ndarray, moving: np.ndarray) -> np.ndarray:
        """``[B]``: the games among ``moving`` whose action is illegal (or no action at all)."""
        known = (actions >= 0) & (actions < A.NUM_ACTIONS)
        legal = known & self._legal()[self._rows, np.where(known, actions, 0)]
        return moving & ~legal

    def _why(self, b: int, action: int) -> str:
        """Why the learner's ``action`` is refused in game ``b``, in words (with the action)."""
        reason = self.engine.why_illegal(b, action) or "not legal now"
        return f"action {action} ({A.describe(action, self.rules)}): {reason}"

    def _illegal_error(self, b: int, actions: np.ndarray) -> IllegalActionError:
        """The engine's refusal of game ``b``'s action, as its step would raise it."""
        action = int(actions[b])
        reason = self.engine.why_illegal(b, action) or "not legal now"
        game = f"game {b}: " if self.batch_size > 1 else ""
        return IllegalActionError(action, A.describe(action, self.rules), f"{game}{reason}", game=b)

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
        over, scores = outcome.game_over[rows], outcome.deal_scores[rows]
        after = np.where(over[:, None], self.engine.final_totals[rows], self.engine.totals[rows]).astype(np.int64)
        before = after - scores
        sides, played = self.learner_side[rows], self.deals_played[rows]
        chance_after = self.win_prob.after_deal(before, scores, sides, played, over)
        rewards[rows] = chance_after - self.win_prob(before, sides, played)
        return rewards

    def _finish(self, finished: np.ndarray, dones: np.ndarray, ends: dict[int, dict]) -> None:
        """Record the episodes that just ended; restart their games when auto-resetting."""
        rows = np.flatnonzero(finished)
        if len(rows) == 0:
            return
        # The last view, kept where the game restarts at once (else the learner still sees it).
        terminal = self.engine.observe(self.view_seats()[rows], rows=rows).copy() if self.auto_reset else None
        played_out = self.engine.is_over
        for i, b in enumerate(rows):
            end: dict[str, Any] = {} if terminal is None else {"terminal_observation": terminal[i]}
            if played_out[b]:
                end["final_totals"] = self.engine.final_totals[b].tolist()
            end["learner_side"] = int(self.learner_side[b])
            ends[int(b)] = end
        dones[rows] = True
        if self.auto_reset:
            self.engine.reset_games(rows)
            self._seat(rows)

    def _play_opponents(
        self, rewards: np.ndarray, dones: np.ndarray, ends: dict[int, dict], waiting: np.ndarray | None = None
    ) -> None:
        """The opponents move, all games at once, until the learner is to move in every game that
        goes on.  What their moves earn the learner adds to ``rewards``, except in the games that
        ended in this step (``dones``: restarted, or over) or wait for the learner's first move
        (``waiting``): that is carried to the learner's next step there."""

        def credit(outcome, stepped, actions) -> None:
            if not outcome.deal_over.any():  # (a game ends only with a deal)
                return
            earned = self._learner_rewards(outcome)
            later = dones if waiting is None else dones | waiting
            rewards[:] += np.where(later, 0.0, earned)
            self._carry += np.where(later, earned, 0.0)
            self.deal_ended |= outcome.deal_over & ~later
            self._finish(outcome.game_over & ~dones, dones, ends)

        # Nobody moves in a game ended by the learner's illegal action (until it restarts).
        self.seating.play(active=~self.ended_by_illegal if self.ended_by_illegal.any() else None, on_step=credit)
        self._masks = None


__all__ = ["ILLEGAL_ACTIONS", "LearnerGames", "check_illegal_action", "resolve_agents"]
