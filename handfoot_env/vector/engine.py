"""The vector engine: B games held as numpy arrays and stepped together by compiled kernels.

    engine = VectorEngine(Rules.preset("partnership"), batch_size=1024, seed=0)
    masks = engine.legal_mask()            # bool [B, NUM_ACTIONS]
    obs = engine.observe()                 # float32 [B, OBS_SIZE], the mover's view
    rewards, dones = engine.step(actions)  # float32 [B, players], bool [B]

Game ``i`` of an engine seeded with ``seed`` is the reference game seeded with ``seed + i``,
card for card.  With ``auto_reset`` a finished game restarts at once with the next unused
seed (``seed + B``, ``seed + B + 1``, ...); its final totals are kept in ``final_totals``.
"""

from __future__ import annotations

import numpy as np

from handfoot_env import actions as A
from handfoot_env.cards import KIND_VALUES
from handfoot_env.errors import IllegalActionError
from handfoot_env.observation import OBS_SIZE
from handfoot_env.rewards import REWARD_MODES
from handfoot_env.rules import Rules, require_supported
from handfoot_env.vector import masks, observe, step
from handfoot_env.vector.rules_kernel import REASONS
from handfoot_env.vector.state import DRAW, OVER, PLAY, fill_packs, make_cfg, make_packs, state_dtype

PHASE_NAMES = {DRAW: "draw", PLAY: "play", OVER: "game_over"}
VALUES_F = np.asarray(KIND_VALUES, dtype=np.float64)
# From this batch size on, kernels split the games over the cores.
PARALLEL_FROM = 256


class VectorEngine:
    """``batch_size`` games of Hand and Foot stepped together."""

    def __init__(
        self,
        rules: Rules | None = None,
        batch_size: int = 1,
        seed: int = 0,
        auto_reset: bool = True,
        reward_mode: str = "deal",
    ):
        rules = rules if rules is not None else Rules.preset("classic")
        require_supported(rules)
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode must be one of {', '.join(REWARD_MODES)}, got {reward_mode!r}")
        self.rules = rules
        self.batch_size = int(batch_size)
        self.auto_reset = auto_reset
        self.reward_mode = reward_mode
        self.cfg = make_cfg(rules, reward_mode)
        self.states = np.zeros(self.batch_size, dtype=state_dtype())
        self.packs = make_packs(self.batch_size, rules)
        parallel = self.batch_size >= PARALLEL_FROM
        self._mask_kernel = masks.mask_kernel_parallel if parallel else masks.mask_kernel_serial
        self._observe_kernel = observe.observe_kernel_parallel if parallel else observe.observe_kernel_serial
        self._check_kernel = step.check_kernel_parallel if parallel else step.check_kernel_serial
        self._apply_kernel = step.apply_kernel_parallel if parallel else step.apply_kernel_serial
        self._movers = np.full(self.batch_size, -1, dtype=np.int64)
        self._all_active = np.ones(self.batch_size, dtype=np.bool_)
        self.final_totals = np.zeros((self.batch_size, rules.num_owners), dtype=np.int32)
        self._masks = np.zeros((self.batch_size, A.NUM_ACTIONS), dtype=bool)
        self._obs = np.zeros((self.batch_size, OBS_SIZE), dtype=np.float32)
        self._rewards = np.zeros((self.batch_size, rules.num_players), dtype=np.float32)
        self._dones = np.zeros(self.batch_size, dtype=bool)
        self._errors = np.zeros(self.batch_size, dtype=np.int64)
        self.reset(seed)

    # ------------------------------------------------------------------ lifecycle
    def reset(self, seed: int | None = None, seeds: np.ndarray | None = None) -> None:
        """Start every game afresh: game ``i`` gets ``seed + i`` (or ``seeds[i]``).  Without a
        seed the games continue the engine's seed sequence (new games, still reproducible)."""
        if seeds is None:
            base = getattr(self, "_next_seed", 0) if seed is None else seed
            if isinstance(base, bool) or not isinstance(base, (int, np.integer)) or base < 0:
                raise ValueError(f"seed must be a non-negative integer, got {base!r}")
            seeds = np.arange(self.batch_size, dtype=np.int64) + int(base)
            self._next_seed = int(base) + self.batch_size
        else:
            seeds = np.asarray(seeds, dtype=np.int64)
            if seeds.shape != (self.batch_size,) or (seeds < 0).any():
                raise ValueError(f"seeds must be {self.batch_size} non-negative integers")
            self._next_seed = int(seeds.max()) + 1
        self._start_games(np.arange(self.batch_size), seeds)

    def load_position(self, b: int, game, open_deal: bool = False) -> None:
        """Put a reference position (a scenario, or a :class:`~handfoot_env.reference.Game`
        mid-deal) into game ``b``; the game then plays on from there (its later deals come
        from its seed).  ``open_deal`` opens a deal whose cards were just dealt (a scenario
        with ``start: true``; the reference opens it with ``Game.open_deal``)."""
        from handfoot_env.vector.position import write_position

        if game.rules != self.rules:
            raise ValueError("the position was played under other rules than this engine's")
        if not 0 <= b < self.batch_size:
            raise ValueError(f"game index must be from 0 to {self.batch_size - 1}, got {b}")
        write_position(self.states, self.packs, b, game)
        if open_deal:
            step.open_deal_kernel(self.states, self.packs, self.cfg, np.array([b], dtype=np.int64))
        self._next_seed = max(getattr(self, "_next_seed", 0), game.seed + 1)

    def _start_games(self, index: np.ndarray, seeds: np.ndarray) -> None:
        fill_packs(self.states, self.packs, index, seeds, self.rules)
        step.reset_kernel(self.states, self.packs, self.cfg, np.asarray(index, dtype=np.int64))

    # ------------------------------------------------------------------ queries
    def legal_mask(self) -> np.ndarray:
        """``[B, NUM_ACTIONS]`` booleans, True exactly for the legal actions (a view; copy to keep)."""
        self._mask_kernel(self.states, self.cfg, self._masks)
        return self._masks

    def observe(self, seats: np.ndarray | None = None) -> np.ndarray:
        """``[B, OBS_SIZE]`` float32: the view of the player to move (or of ``seats[b]``)."""
        seats = self._movers if seats is None else np.asarray(seats, dtype=np.int64)
        self._observe_kernel(self.states, self.cfg, seats, self._obs)
        return self._obs

    @property
    def current_player(self) -> np.ndarray:
        return self.states["current"]

    @property
    def totals(self) -> np.ndarray:
        """Running totals ``[B, owners]`` of the games in progress."""
        return self.states["totals"][:, : self.rules.num_owners]

    @property
    def is_over(self) -> np.ndarray:
        return self.states["phase"] == OVER

    # ------------------------------------------------------------------ transitions
    def step(self, actions: np.ndarray, active: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Apply one action per game.  Returns (rewards ``[B, players]``, dones ``[B]``).

        ``active`` (bool ``[B]``) steps only those games; the others keep their state and
        get zero rewards (their ``actions`` entries are ignored).  If any stepped action is
        illegal, :class:`IllegalActionError` names the first such game, action and reason,
        and no game is changed."""
        actions = np.asarray(actions)
        if actions.shape != (self.batch_size,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be {self.batch_size} integers, got shape {actions.shape} {actions.dtype}")
        if active is None:
            active = self._all_active
        else:
            active = np.asarray(active, dtype=np.bool_)
            if active.shape != (self.batch_size,):
                raise ValueError(f"active must be {self.batch_size} booleans")
        actions = np.where(active, actions, 0).astype(np.int64, copy=False)
        out_of_range = (actions < 0) | (actions >= A.NUM_ACTIONS)
        if out_of_range.any():
            bad = int(np.flatnonzero(out_of_range)[0])
            raise IllegalActionError(int(actions[bad]), "out of range", f"{self._game(bad)}actions are 0..{A.NUM_ACTIONS - 1}")
        self._check_kernel(self.states, self.cfg, actions, active, self._errors)
        if self._errors.any():
            bad = int(np.flatnonzero(self._errors)[0])
            action = int(actions[bad])
            raise IllegalActionError(action, A.describe(action, self.rules), f"{self._game(bad)}{REASONS[self._errors[bad]]}")
        self._apply_kernel(self.states, self.packs, self.cfg, actions, active, self._rewards, self._dones)
        if self._dones.any():
            done = np.flatnonzero(self._dones)
            self.final_totals[done] = self.totals[done]
            if self.auto_reset:
                self.reset_games(done)
        return self._rewards, self._dones

    def _game(self, b: int) -> str:
        """"game b: " naming the game in an error, when there is more than one."""
        return f"game {b}: " if self.batch_size > 1 else ""

    def reset_games(self, index: np.ndarray) -> np.ndarray:
        """Restart the games at ``index`` with the next unused seeds; returns those seeds."""
        index = np.asarray(index, dtype=np.int64)
        seeds = np.arange(self._next_seed, self._next_seed + len(index), dtype=np.int64)
        self._next_seed += len(index)
        self._start_games(index, seeds)
        return seeds

    def side_potential(self, sides: np.ndarray) -> np.ndarray:
        """For each game, side ``sides[b]``'s running deal score minus the mean of the other
        sides' (cards on the table, book bonuses and red threes, less every card still held
        in hands, staged groups and unplayed feet), / 1000.  Vectorized over the batch."""
        rules = self.rules
        s = self.states
        owners, players = rules.num_owners, rules.num_players
        values = VALUES_F
        table = (s["table_cards"][:, :owners, :] * values).sum(axis=2)
        table += s["books"][:, :owners, 0] * rules.clean_book_bonus + s["books"][:, :owners, 1] * rules.dirty_book_bonus
        table += s["table_cards"][:, :owners, 3] * rules.red_three_bonus
        held_seat = (s["hand"][:, :players, :] * values).sum(axis=2)
        held_seat += np.where(s["on_foot"][:, :players] == 0, (s["foot"][:, :players, :] * values).sum(axis=2), 0)
        held_seat[np.arange(self.batch_size), s["current"]] += (s["staged_cards"] * values).sum(axis=1)
        seat_owner = np.arange(players) % owners if rules.partnerships else np.arange(players)
        held = np.zeros((self.batch_size, owners))
        for owner in range(owners):  # a loop over sides, not games
            held[:, owner] = held_seat[:, seat_owner == owner].sum(axis=1)
        value = table - held
        sides = np.asarray(sides, dtype=np.int64)
        mine = value[np.arange(self.batch_size), sides]
        others = (value.sum(axis=1) - mine) / (owners - 1)
        return (mine - others) / 1000.0

    def why_illegal(self, b: int, action: int) -> str | None:
        """Why ``action`` is illegal in game ``b`` now (None if legal)."""
        if not 0 <= int(action) < A.NUM_ACTIONS:
            return f"action {action} is out of range [0, {A.NUM_ACTIONS})"
        actions = np.zeros(self.batch_size, dtype=np.int64)
        actions[b] = action
        active = np.zeros(self.batch_size, dtype=np.bool_)
        active[b] = True
        self._check_kernel(self.states, self.cfg, actions, active, self._errors)
        code = int(self._errors[b])
        return None if code == 0 else REASONS[code]
