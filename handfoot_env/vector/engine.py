"""The vector engine: B games held as numpy arrays and stepped together by compiled kernels.

    engine = VectorEngine(Rules.preset("partnership"), batch_size=1024, seed=0)
    masks = engine.legal_mask()            # bool [B, NUM_ACTIONS]
    obs = engine.observe()                 # float32 [B, OBS_SIZE], the mover's view
    outcome = engine.step(actions)         # deal_over [B], game_over [B], deal_scores [B, owners]

The engine reports what happened (a deal ended, with its scores; a game ended); the shells
turn that into rewards (``handfoot_env/seating/rewards.py``).

Game ``i`` of an engine seeded with ``seed`` is the reference game seeded with ``seed + i``,
card for card.  With ``auto_reset`` a finished game restarts at once with the next unused
seed (``seed + B``, ``seed + B + 1``, ...); its final totals are kept in ``final_totals``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from handfoot_env import actions as A
from handfoot_env.cards import MAX_SEED, check_seed
from handfoot_env.errors import IllegalActionError
from handfoot_env.kernel_cache import compile_once, start_threads
from handfoot_env.observation import OBS_SIZE
from handfoot_env.rules import Rules, require_supported
from handfoot_env.vector import batch
from handfoot_env.vector.reasons import REASONS
from handfoot_env.vector.state import ASKED, OVER, fill_packs, make_packs, state_dtype


def load_engine_kernels() -> None:
    """Load the engine's kernels from the cache, compiling them first where they are not there
    (once per install or source change, with a message)."""
    compile_once("engine", compile_engine, "about a minute on 2 cores")


def compile_engine() -> None:
    """Run every engine kernel once (serial and parallel, each preset), so that all compile."""
    from handfoot_env.vector.determinize import determinize_kernel

    for rules in (Rules.preset("classic"), Rules.preset("partnership"), Rules.preset("house")):
        for size in (1, PARALLEL_FROM):
            engine = VectorEngine(rules, batch_size=size, seed=0)
            rng = np.random.default_rng(0)
            for _ in range(30):
                masks = engine.legal_mask()
                engine.observe()
                engine.legal_mask(rows=np.arange(size))
                engine.observe(rows=np.arange(size))
                engine.observe_movers(np.arange(rules.num_players))
                engine.look()
                engine.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            engine.running_scores()
            engine.why_illegal(0, 0)
            determinize_kernel(engine.states, engine.kernel_rules, np.array([0]), np.array([0]), np.array([1]))
            batch.open_deal_kernel(engine.states, engine.packs, engine.kernel_rules, np.array([0]))


def _checked_out(out: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``out``, once it is an array the kernels may write views of ``shape`` into."""
    if (
        not isinstance(out, np.ndarray)
        or out.shape != shape
        or out.dtype != np.float32
        or not out.flags.c_contiguous
        or not out.flags.writeable
    ):
        raise ValueError(f"out must be a writeable C-contiguous float32 array of shape {shape}")
    return out


# From this batch size on, kernels split the games over the cores.
PARALLEL_FROM = 256

# observe_movers' twin where there is none (the kernels read an empty array as none).
_NO_TWIN = (np.zeros((0, 0, OBS_SIZE), dtype=np.float32), np.zeros(0, dtype=np.int64))


class StepOutcome(NamedTuple):
    """What one step did, per game."""

    deal_over: np.ndarray  # bool [B]: a deal ended with this step
    game_over: np.ndarray  # bool [B]: the game ended with this step
    deal_scores: np.ndarray  # int [B, owners]: the scores of the deal that ended (0 where none did)


def games_stepped_together(count: object, name: str = "num_envs") -> int:
    """``count`` as a number of games stepped together; anything but a positive integer is refused
    in one line naming the argument (``num_envs`` in the batched shells)."""
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
        raise ValueError(f"{name} must be a positive integer (games stepped together), got {count!r}")
    return int(count)


class VectorEngine:
    """``batch_size`` games of Hand and Foot stepped together."""

    def __init__(
        self,
        rules: Rules | None = None,
        batch_size: int = 1,
        seed: int = 0,
        auto_reset: bool = True,
    ):
        self.batch_size = games_stepped_together(batch_size, "batch_size")
        rules = rules if rules is not None else Rules.preset("partnership")
        require_supported(rules)
        load_engine_kernels()
        self.rules = rules
        self.auto_reset = auto_reset
        self.kernel_rules = rules.kernel  # the rules as the kernels read them
        self.states = np.zeros(self.batch_size, dtype=state_dtype())
        self.packs = make_packs(self.batch_size, rules)
        parallel = self.batch_size >= PARALLEL_FROM
        if parallel:
            start_threads()  # before torch's thread count can be changed under a user's feet
        self._mask_kernel = batch.mask_kernel_parallel if parallel else batch.mask_kernel_serial
        self._observe_kernel = batch.observe_kernel_parallel if parallel else batch.observe_kernel_serial
        self._observe_movers_kernel = (
            batch.observe_movers_kernel_parallel if parallel else batch.observe_movers_kernel_serial
        )
        self._check_kernel = batch.check_kernel_parallel if parallel else batch.check_kernel_serial
        self._step_kernel = batch.step_kernel_parallel if parallel else batch.step_kernel_serial
        self._look_kernel = batch.look_kernel_parallel if parallel else batch.look_kernel_serial
        self._movers = np.full(self.batch_size, -1, dtype=np.int64)
        self._all_active = np.ones(self.batch_size, dtype=np.bool_)
        self.final_totals = np.zeros((self.batch_size, rules.num_owners), dtype=np.int32)
        self._masks = np.zeros((self.batch_size, A.NUM_ACTIONS), dtype=bool)
        self._obs = np.zeros((self.batch_size, OBS_SIZE), dtype=np.float32)
        self._row_masks = np.zeros((self.batch_size, A.NUM_ACTIONS), dtype=bool)  # legal_mask(rows=...)
        self._row_obs = np.zeros((self.batch_size, OBS_SIZE), dtype=np.float32)  # observe(rows=...)
        # The outcome of the last step, rewritten by the next one (copy to keep).
        self._outcome = StepOutcome(
            np.zeros(self.batch_size, dtype=bool),
            np.zeros(self.batch_size, dtype=bool),
            np.zeros((self.batch_size, rules.num_owners), dtype=np.int64),
        )
        self._errors = np.zeros(self.batch_size, dtype=np.int64)
        # look()'s buffers, apart from legal_mask's and observe's (a caller may hold both)
        self._look = (
            np.zeros(self.batch_size, dtype=np.int64),
            np.zeros((self.batch_size, A.NUM_ACTIONS), dtype=bool),
            np.zeros((self.batch_size, OBS_SIZE), dtype=np.float32),
        )
        self.reset(seed)

    # ------------------------------------------------------------------ lifecycle
    def reset(self, seed: int | None = None, seeds: np.ndarray | None = None) -> None:
        """Start every game afresh: game ``i`` gets ``seed + i`` (or ``seeds[i]``; past MAX_SEED
        the sequence runs on from 0).  Without a seed the games continue the engine's seed
        sequence (new games, still reproducible)."""
        if seeds is None:
            base = getattr(self, "_next_seed", 0) if seed is None else seed
            seeds = _seeds_from(check_seed(base), self.batch_size)
            self._next_seed = _seed_after(int(seeds[-1]))
        else:
            seeds = _seed_array(seeds, (self.batch_size,), f"seeds must be {self.batch_size} whole numbers, one a game")
            self._next_seed = _seed_after(int(seeds.max()))
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
            batch.open_deal_kernel(self.states, self.packs, self.kernel_rules, np.array([b], dtype=np.int64))
        self._next_seed = max(getattr(self, "_next_seed", 0), _seed_after(game.seed))

    def _start_games(self, index: np.ndarray, seeds: np.ndarray) -> None:
        fill_packs(self.states, self.packs, index, seeds, self.rules)
        batch.reset_kernel(self.states, self.packs, self.kernel_rules, np.asarray(index, dtype=np.int64))

    # ------------------------------------------------------------------ queries
    def legal_mask(self, rows: np.ndarray | None = None) -> np.ndarray:
        """``[B, NUM_ACTIONS]`` booleans, True exactly for the legal actions (a view; copy to keep).

        ``rows`` (game indices) computes only those games' masks: ``[len(rows), NUM_ACTIONS]``, row
        ``i`` for game ``rows[i]`` (a view of another buffer, rewritten by the next such call)."""
        if rows is None:
            self._mask_kernel(self.states, self.kernel_rules, self._masks)
            return self._masks
        rows = self._check_rows(rows)
        out = self._row_buffer("_row_masks", len(rows))
        kernel = batch.mask_rows_kernel_parallel if len(rows) >= PARALLEL_FROM else batch.mask_rows_kernel_serial
        kernel(self.states, self.kernel_rules, rows, out)
        return out

    def look(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(movers [B], masks [B, NUM_ACTIONS], observations [B, OBS_SIZE])``: each game's seat to
        act (``current_player``), its legal mask (``legal_mask``) and its view (``observe``), in
        one pass (views of buffers of their own, rewritten by the next ``look``; copy to keep)."""
        self._look_kernel(self.states, self.kernel_rules, *self._look)
        return self._look

    def observe(
        self, seats: np.ndarray | None = None, rows: np.ndarray | None = None, out: np.ndarray | None = None
    ) -> np.ndarray:
        """``[B, OBS_SIZE]`` float32: the view of the player to move (or of ``seats[b]``).

        ``rows`` (game indices, repeats allowed) observes only those games: ``[len(rows), OBS_SIZE]``,
        row ``i`` the view in game ``rows[i]`` of its mover (or of ``seats[i]``), written into ``out``
        (a C-contiguous float32 array of that shape) or else into a view of another buffer, rewritten
        by the next such call."""
        if rows is None:
            if out is not None:
                raise ValueError("out is written only when rows are given (without rows the view is the engine's own)")
            seats = self._movers if seats is None else self._check_seats(seats, self.batch_size)
            self._observe_kernel(self.states, self.kernel_rules, seats, self._obs)
            return self._obs
        rows = self._check_rows(rows)
        seats = np.full(len(rows), -1, dtype=np.int64) if seats is None else self._check_seats(seats, len(rows))
        out = self._row_buffer("_row_obs", len(rows)) if out is None else _checked_out(out, (len(rows), OBS_SIZE))
        kernel = batch.observe_rows_kernel_parallel if len(rows) >= PARALLEL_FROM else batch.observe_rows_kernel_serial
        kernel(self.states, self.kernel_rules, rows, seats, out)
        return out

    def observe_movers(
        self,
        seats: np.ndarray,
        out: np.ndarray | None = None,
        written: np.ndarray | None = None,
        twin: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> np.ndarray:
        """``[B, len(seats), OBS_SIZE]`` float32: in each game, the view of the seat to move at its
        place among ``seats`` (a group of agents, as multi-agent APIs batch them), zeros for the
        others and in finished games; written into ``out`` (C-contiguous, that shape), or into a
        new array.

        ``written`` (int64 ``[B]``, kept by a caller that reuses ``out``) says which slot of each
        game ``out`` holds a view in (-1: none, all zeros; -2: unknown) and is updated: with it
        only the mover's slot and the slot it left are written, not every zero again.  It is the
        caller's promise that nothing else wrote into ``out`` since; without it ``out`` is
        written whole.

        ``twin``, an array like ``out`` and its own record (as ``written``), gets the same views
        in the same pass, for a caller that needs two arrays that will differ in a few games
        (TorchRL's step output and the restarted games' next input): cheaper than a copy."""
        seats = np.asarray(seats)
        if seats.ndim != 1:
            raise ValueError(f"seats must be a 1-D array of seat indices, got {seats!r}")
        seats = self._check_seats(seats, len(seats))
        if len(seats) and seats.min() < 0:
            raise ValueError(f"seats must be seat indices from 0 to {self.rules.num_players - 1}, got {seats!r}")
        if written is not None and out is None:
            raise ValueError("written says what out holds: pass the array it describes as out")
        shape = (self.batch_size, len(seats), OBS_SIZE)
        out = np.empty(shape, dtype=np.float32) if out is None else _checked_out(out, shape)
        written = self._checked_record(written, len(seats), "written")
        if twin is None:
            twin_out, twin_written = _NO_TWIN
        else:
            if not (isinstance(twin, tuple) and len(twin) == 2):
                raise ValueError("twin must be a pair (array like out, its record like written)")
            twin_out, twin_written = _checked_out(twin[0], shape), twin[1]
            if np.shares_memory(twin_out, out):
                raise ValueError("twin must be an array apart from out")
            twin_written = self._checked_record(twin_written, len(seats), "twin's record")
        self._observe_movers_kernel(self.states, self.kernel_rules, seats, out, written, twin_out, twin_written)
        return out

    def _checked_record(self, written: np.ndarray | None, slots: int, name: str) -> np.ndarray:
        """An ``observe_movers`` record: a new one (-2, unknown) for None, else checked."""
        if written is None:
            return np.full(self.batch_size, -2, dtype=np.int64)
        if not (
            isinstance(written, np.ndarray)
            and written.dtype == np.int64
            and written.shape == (self.batch_size,)
            and ((written >= -2) & (written < slots)).all()
        ):
            raise ValueError(f"{name} must be an int64 array of {self.batch_size} slots from -2 to {slots - 1}")
        return written

    def _check_rows(self, rows: np.ndarray) -> np.ndarray:
        """``rows`` as int64 game indices, each checked to be a game of this engine (the kernels
        do not check bounds)."""
        rows = np.asarray(rows)
        if rows.ndim != 1 or (rows.dtype.kind not in "iu" and len(rows)):
            raise ValueError(f"rows must be a 1-D array of game indices, got shape {rows.shape} {rows.dtype}")
        rows = rows.astype(np.int64, copy=False)
        if len(rows) and (rows.min() < 0 or rows.max() >= self.batch_size):
            raise ValueError(f"rows must be game indices from 0 to {self.batch_size - 1}")
        return rows

    def _check_seats(self, seats: np.ndarray, length: int) -> np.ndarray:
        """``seats`` as int64, one seat (or -1: the mover) per game observed, each a seat of these
        rules (the kernels do not check bounds).  Cheap for int64 arrays: the AEC env observes
        through here at every step."""
        if not (isinstance(seats, np.ndarray) and seats.dtype == np.int64):
            seats = np.asarray(seats)
            if seats.dtype.kind not in "iu" and seats.size:
                raise ValueError(f"seats must be seat indices, got {seats!r}")
            seats = seats.astype(np.int64)
        if length == 1 and seats.shape == (1,):  # one game (the AEC env): Python ints, not two numpy reductions
            low = high = int(seats[0])
        elif seats.shape == (length,) and length:
            low, high = int(seats.min()), int(seats.max())
        else:
            low, high = -1, -1  # nothing to check, or the wrong shape (refused below)
        if seats.shape != (length,) or low < -1 or high >= self.rules.num_players:
            raise ValueError(f"seats must give one seat index (or -1) per observed game ({length}), got {seats!r}")
        return seats

    def _row_buffer(self, name: str, length: int) -> np.ndarray:
        """The first ``length`` rows of the buffer ``name`` (grown when more rows are asked for)."""
        buffer = getattr(self, name)
        if len(buffer) < length:
            buffer = np.zeros((length, buffer.shape[1]), dtype=buffer.dtype)
            setattr(self, name, buffer)
        return buffer[:length]

    @property
    def current_player(self) -> np.ndarray:
        """``[B]``: the seat to act in each game: the player whose turn it is (``states["current"]``),
        or its partner while the question "may I go out?" stands (docs/rules.md "Variations")."""
        if not self.rules.permission_to_go_out:
            return self.states["current"]
        asked = self.states["permission"] == ASKED
        turn = self.states["current"]
        return np.where(asked, (turn + self.rules.num_owners) % self.rules.num_players, turn).astype(turn.dtype)

    @property
    def totals(self) -> np.ndarray:
        """Running totals ``[B, owners]`` of the games in progress."""
        return self.states["totals"][:, : self.rules.num_owners]

    @property
    def is_over(self) -> np.ndarray:
        return self.states["phase"] == OVER

    # ------------------------------------------------------------------ transitions
    def step(self, actions: np.ndarray, active: np.ndarray | None = None) -> StepOutcome:
        """Apply one action per game; returns the :class:`StepOutcome` (deals and games that
        ended, and the ended deals' scores; its arrays are rewritten by the next step).

        ``active`` (bool ``[B]``) steps only those games; the others keep their state (their
        ``actions`` entries are ignored).  If any stepped action is illegal,
        :class:`IllegalActionError` names the first such game, action and reason, and no game
        is changed.  A game that ends keeps its totals in ``final_totals``; with ``auto_reset``
        it restarts at once."""
        actions = np.asarray(actions)
        if actions.shape != (self.batch_size,) or actions.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.batch_size} integers, got shape {actions.shape} {actions.dtype}")
        if active is None:
            active = self._all_active
        else:
            active = np.asarray(active, dtype=np.bool_)
            if active.shape != (self.batch_size,):
                raise ValueError(f"active must be {self.batch_size} booleans")
        actions = actions.astype(np.int64, copy=False)
        outcome = self._outcome
        ended = self._step_kernel(self.states, self.packs, self.kernel_rules, actions, active, self._errors, *outcome)
        if ended < 0:  # some action was illegal: no game was changed
            bad = int(np.flatnonzero(self._errors)[0])
            action = int(actions[bad])
            raise IllegalActionError(
                action, A.describe(action, self.rules), f"{self._game(bad)}{REASONS[self._errors[bad]]}", game=bad
            )
        if ended:
            done = np.flatnonzero(outcome.game_over)
            self.final_totals[done] = self.totals[done]
            if self.auto_reset:
                self.reset_games(done)
        return outcome

    def _game(self, b: int) -> str:
        """ "game b: " naming the game in an error, when there is more than one."""
        return f"game {b}: " if self.batch_size > 1 else ""

    def reset_games(self, index: np.ndarray, seeds: np.ndarray | None = None) -> np.ndarray:
        """Restart the games at ``index`` with the next unused seeds (or ``seeds``, one a game);
        returns the seeds."""
        index = np.asarray(index, dtype=np.int64)
        if seeds is None:
            seeds = _seeds_from(self._next_seed, len(index))
            self._next_seed = _seed_after(int(seeds[-1])) if len(index) else self._next_seed
        else:
            seeds = _seed_array(seeds, index.shape, f"seeds must be {len(index)} whole numbers, one a game restarted")
        self._start_games(index, seeds)
        return seeds

    def running_scores(self) -> np.ndarray:
        """``[B, owners]``: each owner's score of the deal in progress as it stands, as if it
        ended now with nobody out (the same scoring as the end of a deal)."""
        out = np.zeros((self.batch_size, self.rules.num_owners), dtype=np.int64)
        batch.running_scores_kernel(self.states, self.kernel_rules, out)
        return out

    def why_illegal(self, b: int, action: int) -> str | None:
        """Why ``action`` is illegal in game ``b`` now (None if legal)."""
        actions = np.zeros(self.batch_size, dtype=np.int64)
        actions[b] = action
        active = np.zeros(self.batch_size, dtype=np.bool_)
        active[b] = True
        self._check_kernel(self.states, self.kernel_rules, actions, active, self._errors)
        code = int(self._errors[b])
        return None if code == 0 else REASONS[code]


def _seed_array(seeds, shape: tuple[int, ...], refusal: str) -> np.ndarray:
    """``seeds`` as int64 game seeds of ``shape``; a ``ValueError`` (``refusal``) unless each is
    a whole number from 0 to MAX_SEED (floats are not truncated, big numbers not wrapped)."""
    given = np.asarray(seeds)
    whole = given.dtype.kind in "iu" or (given.size == 0 and given.dtype.kind == "f")
    if given.shape != shape or not whole or (given < 0).any() or (given > MAX_SEED).any():
        raise ValueError(f"{refusal}, each from 0 to {MAX_SEED}")
    return given.astype(np.int64)


def _seed_after(seed: int) -> int:
    """The game seed after ``seed``: the engine's own seeds run on from 0 past MAX_SEED."""
    return 0 if seed == MAX_SEED else seed + 1


def _seeds_from(first: int, count: int) -> np.ndarray:
    """``count`` consecutive game seeds from ``first`` (past MAX_SEED: from 0 again)."""
    if first <= MAX_SEED - count:  # the usual case: no seed near the end
        return np.arange(first, first + count, dtype=np.int64)
    return np.array([(first + i) % (MAX_SEED + 1) for i in range(count)], dtype=np.int64)
