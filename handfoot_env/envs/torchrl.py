"""A TorchRL multi-agent env: N games on the vector engine, ``batch_size=[N]``, each seat an agent.

    from handfoot_env.envs.torchrl import HandFootTorchRLEnv
    env = HandFootTorchRLEnv(num_envs=1024, preset="partnership")
    env.group_map                         # {"side_0": ["player_0", "player_2"], "side_1": ["player_1", "player_3"]}
    td = env.rollout(100)                 # random legal play: the action specs carry the masks

The keys are those of TorchRL's ``PettingZooWrapper(handfoot_v0.env(), use_mask=True)`` (the turn-based
convention), batched over N games:

* per group ``g``: ``(g, "observation")`` float32 ``[N, n, 655]``, each agent's own view (every agent
  observes every step, as PettingZoo's wrapper does, so that a critic sees every step);
  ``(g, "action_mask")`` bool ``[N, n, 187]``, the legal actions of the agent to move and all True
  for the others (their actions are ignored), ready for ``MaskedCategorical(logits, mask=...)``;
  ``(g, "mask")`` bool ``[N, n]``, True for the agent to move; ``(g, "action")`` int64 ``[N, n]``
  (a ``Categorical`` spec whose mask follows the game, so ``rand_action`` plays legally);
  ``(g, "reward")`` ``[N, n, 1]``, each agent's side's reward (``handfoot_env/seating/rewards.py``);
  ``(g, "done" | "terminated" | "truncated")`` ``[N, n, 1]`` and the same at the root ``[N, 1]``.
* Groups: one per side by default (``side_0``, ``side_1``...): partners share a reward and a
  policy, opponents are other groups, as TorchRL's competitive envs group teams (a ``classic``
  side is one seat).  ``group_map`` takes a ``MarlGroupMapType`` or a dict of agent names instead.
* A finished game is done until it is reset: ``step_and_maybe_reset`` (collectors, rollouts)
  restarts the done games through this env's ``maybe_reset``, which writes their rows alone (inside
  a ``TransformedEnv``, which does not pass ``maybe_reset`` on, TorchRL restarts them its own way:
  the same values, slower), and ``reset`` with ``"_reset"`` flags restarts the games named.  ``set_seed(s)`` makes the next
  reset deal game ``i`` from seed ``s + i`` (the vector engine's seeding); later games continue
  the sequence.  An illegal action of the agent to
  move raises ``IllegalActionError`` naming the game.
* **Built-in opponents** (``opponent="heuristic"``: a baseline's name or one agent object with
  ``act``): only ``learner_side``'s seats are agents (one group, ``side_0`` by default; the side
  is fixed, so with side 0 the learner opens the game's first deal) and the opponent plays the
  other seats inside the env, batched across games, so a step is one learner decision per game
  and carries the opponents' moves (a deal that ends on their turn pays its reward in that step;
  what they earn for the learner's seats before its first move in a new game, in its first
  step).  Those games are played by ``handfoot_env.seating.learner.LearnerGames``, the loop under
  every single-learner shell (rewards, opening moves, restarts; an illegal action of the
  opponent raises ``IllegalActionError`` naming it); this module lays its arrays out as
  tensordicts.  The env's ``seed`` and ``set_seed`` seed the opponent too.

This shell imports torch (the ``[train]`` extra), so it sits outside the torch-free core.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import torch
from tensordict import TensorDict, TensorDictBase
from torchrl.data import Bounded, Categorical, Composite, Unbounded
from torchrl.envs import EnvBase
from torchrl.envs.utils import MarlGroupMapType, check_marl_grouping

from handfoot_env import actions as A
from handfoot_env.cards import check_seed
from handfoot_env.observation import OBS_HIGH, OBS_LOW, OBS_SIZE
from handfoot_env.rules import Rules, rules_or_preset
from handfoot_env.seating.learner import LearnerGames, resolve_agents
from handfoot_env.seating.rewards import check_reward_mode, seat_rewards
from handfoot_env.vector import VectorEngine, games_stepped_together

# "all": every agent's own view every step; "mover": the view of the agent to move, zeros for the rest.
OBSERVE_MODES = ("all", "mover")


class HandFootTorchRLEnv(EnvBase):
    """N games of Hand and Foot for TorchRL, each seat an agent, or the learner side's seats
    against a built-in ``opponent`` (see the module): per group ``g``, ``(g, "observation")``
    float32 ``[N, n, OBS_SIZE]`` and ``(g, "action_mask")`` bool ``[N, n, NUM_ACTIONS]``."""

    def __init__(
        self,
        num_envs: int = 64,
        preset: str = "partnership",
        num_players: int | None = None,
        rules: Rules | None = None,
        reward_mode: str = "deal",
        group_map: MarlGroupMapType | dict[str, list[str]] | None = None,
        observe: str = "all",
        seed: int | None = 0,
        device: torch.device | str | None = "cpu",
        opponent: Any = None,
        learner_side: int | None = None,
    ):
        num_envs = games_stepped_together(num_envs)
        rules = rules_or_preset(rules, preset, num_players)
        seed = 0 if seed is None else check_seed(seed)  # None: the engine's own start, 0
        if observe not in OBSERVE_MODES:
            raise ValueError(f"observe must be one of {', '.join(OBSERVE_MODES)}, got {observe!r}")
        super().__init__(batch_size=torch.Size([num_envs]), device=device)
        self.observe_mode = observe
        self.rules = rules
        self.num_envs = num_envs
        self.reward_mode = check_reward_mode(reward_mode)
        if learner_side is not None and opponent is None:
            raise ValueError("learner_side names the side that plays a built-in opponent: pass opponent= too")
        learner_side = 0 if learner_side is None else learner_side
        if (
            isinstance(learner_side, bool)
            or not isinstance(learner_side, (int, np.integer))
            or not 0 <= learner_side < rules.num_owners
        ):
            raise ValueError(f"learner_side must be a side from 0 to {rules.num_owners - 1}, got {learner_side!r}")
        if isinstance(opponent, (list, tuple)):
            raise ValueError("opponent is one agent here (a pool of opponents is the Gymnasium envs'): pass one")
        opponents = None if opponent is None else resolve_agents(opponent, rules, seed)
        self.opponent = None if opponents is None else opponents[0]
        # With an opponent, the seats it plays are not agents (seating's loop moves them).
        owners = np.asarray(rules.seat_owners)
        agent_seats = (owners == learner_side) if self.opponent is not None else np.ones(len(owners), bool)
        self.learner_side = int(learner_side)
        self.agent_names = [f"player_{seat}" for seat in np.flatnonzero(agent_seats)]
        self.group_map = self._make_group_map(group_map)
        seat_of = {f"player_{seat}": seat for seat in range(rules.num_players)}
        self._group_seats = {g: np.array([seat_of[a] for a in agents]) for g, agents in self.group_map.items()}
        # The keys maybe_reset writes (else it leaves the restart to TorchRL).
        flags = ("done", "terminated", "truncated")
        self._restart_keys: set[str | tuple[str, str]] = {*flags} | {
            (g, k) for g in self._group_seats for k in ("observation", "action_mask", "mask", *flags)
        }
        # Every seat an agent: the engine alone.  With an opponent: seating's loop of the learner's
        # side against it (its rewards, restarts and opening moves), the opponent seeded by the
        # env's seed as ``set_seed`` seeds it.
        self.games: LearnerGames | None = None
        if opponents is None:
            self.engine = VectorEngine(rules, batch_size=self.num_envs, seed=seed, auto_reset=False)
        else:
            self.games = LearnerGames(
                rules,
                self.num_envs,
                opponents,
                seed=seed,
                reward_mode=self.reward_mode,
                auto_reset=False,
                learner_side=self.learner_side,
            )
            self.games.reseed(seed)
            self.engine = self.games.engine
        self._seed: int | None = seed
        # Per (group, key): arrays handed out before; an observation array with its record of
        # which slot of each game holds the mover's view (the others hold zeros): see _output_array.
        self._recycled: dict[tuple[str, str], list[tuple[np.ndarray, np.ndarray | None]]] = {}
        # The reference count of an array nothing outside holds, read as _output_array reads it
        # (interpreters count a call's borrowed references differently: 3.14 does not count one).
        for probe, _ in [(np.empty(0), None)]:
            self._free_refcount = sys.getrefcount(probe)
        # Per group, after a step in which games ended (observe="mover"): the observation array
        # handed out, and its twin with its record, holding the same views, which maybe_reset
        # takes for the next input instead of copying the first.
        self._twins: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._make_specs()

    def _make_group_map(self, group_map) -> dict[str, list[str]]:
        if group_map is None:
            owners = self.rules.seat_owners
            sides = [self.learner_side] if self.opponent is not None else range(self.rules.num_owners)
            group_map = {
                f"side_{side}": [f"player_{seat}" for seat, owner in enumerate(owners) if owner == side]
                for side in sides
            }
        elif isinstance(group_map, MarlGroupMapType):
            group_map = group_map.get_group_map(self.agent_names)
        elif not isinstance(group_map, dict):
            raise ValueError(f"group_map must be a MarlGroupMapType or a dict of agent names, got {group_map!r}")
        try:
            check_marl_grouping(group_map, self.agent_names)
        except (AssertionError, KeyError, ValueError) as exc:
            raise ValueError(f"group_map {group_map!r}: {exc}") from None
        return {g: list(agents) for g, agents in group_map.items()}

    def _make_specs(self) -> None:
        n_envs, device = self.num_envs, self.device
        low = torch.as_tensor(OBS_LOW, dtype=torch.float32)
        high = torch.as_tensor(OBS_HIGH, dtype=torch.float32)
        observations, actions, rewards, dones = {}, {}, {}, {}
        for group, seats in self._group_seats.items():
            shape = (n_envs, len(seats))
            observations[group] = Composite(
                observation=Bounded(
                    low.expand(*shape, OBS_SIZE), high.expand(*shape, OBS_SIZE), shape=(*shape, OBS_SIZE)
                ),
                action_mask=Categorical(2, shape=(*shape, A.NUM_ACTIONS), dtype=torch.bool),
                mask=Categorical(2, shape=shape, dtype=torch.bool),
                shape=shape,
            )
            actions[group] = Composite(action=Categorical(A.NUM_ACTIONS, shape=shape, dtype=torch.int64), shape=shape)
            rewards[group] = Composite(reward=Unbounded(shape=(*shape, 1), dtype=torch.float32), shape=shape)
            dones[group] = Composite(
                {k: Categorical(2, shape=(*shape, 1), dtype=torch.bool) for k in ("done", "terminated", "truncated")},
                shape=shape,
            )
        root = {k: Categorical(2, shape=(n_envs, 1), dtype=torch.bool) for k in ("done", "terminated", "truncated")}
        self.observation_spec = Composite(observations, shape=(n_envs,), device=device)
        self.action_spec = Composite(actions, shape=(n_envs,), device=device)
        self.reward_spec = Composite(rewards, shape=(n_envs,), device=device)
        self.done_spec = Composite({**dones, **root}, shape=(n_envs,), device=device)

    # ------------------------------------------------------------------ TorchRL's EnvBase
    def _set_seed(self, seed: int | None) -> None:
        self._seed = seed
        if self.games is not None and seed is not None:
            self.games.reseed(seed)

    def _reset(self, tensordict: TensorDictBase | None = None, **kwargs: Any) -> TensorDictBase:
        rows = self._rows_to_reset(tensordict)
        self._twins.clear()
        # TorchRL may write a partial reset's rows into tensors it holds (``_update_during_reset``
        # can, with ``where(..., out=node)``), so what this env's reused arrays hold there is no
        # longer sure: those rows are written whole next time.
        for pool in self._recycled.values():
            for _, written in pool:
                if written is not None:
                    written[slice(None) if rows is None else rows] = -2
        if rows is None:
            # (None continues the engine's seed sequence)
            if self.games is None:
                self.engine.reset(self._seed)
            else:
                self.games.reset(self._seed)
            self._seed = None
            return self._output(None, np.zeros(self.num_envs, dtype=bool))
        self._restart(rows)
        return self._reset_output(rows)

    def _restart(self, rows: np.ndarray) -> None:
        """New games at ``rows`` (with an opponent: its opening moves played, by seating's loop)."""
        if self.games is None:
            self.engine.reset_games(rows)
        else:
            self.games.restart(rows)

    def _rows_to_reset(self, tensordict: TensorDictBase | None) -> np.ndarray | None:
        """The games a partial reset names (root or group ``"_reset"``), or None for all."""
        if tensordict is None:
            return None
        flags = [tensordict.get(key, None) for key in self.reset_keys]
        flags = [f.reshape(self.num_envs, -1).any(-1) for f in flags if f is not None]
        if not flags:
            return None
        reset = torch.stack(flags).any(0).cpu().numpy()
        return None if reset.all() else np.flatnonzero(reset)

    def _step(self, tensordict: TensorDictBase) -> TensorDictBase:
        engine = self.engine
        seat_actions = np.zeros((self.num_envs, self.rules.num_players), dtype=np.int64)
        for group, seats in self._group_seats.items():
            seat_actions[:, seats] = tensordict.get((group, "action")).reshape(self.num_envs, len(seats)).cpu().numpy()
        actions = seat_actions[np.arange(self.num_envs), engine.current_player]
        if self.games is None:
            live = ~engine.is_over
            outcome = engine.step(actions, active=live)
            rewards = seat_rewards(self.rules, self.reward_mode, *outcome, engine.final_totals)
            return self._output(rewards, outcome.game_over | ~live)
        # The learner's move and the opponent's replies: every agent seat is the learner side's.
        _, earned, _, _ = self.games.step(actions, observe=False)
        rewards = np.broadcast_to(earned.astype(np.float32)[:, None], (self.num_envs, self.rules.num_players))
        return self._output(rewards, engine.is_over.copy())

    # ------------------------------------------------------------------ what every agent sees
    def _output(self, rewards: np.ndarray | None, done: np.ndarray) -> TensorDictBase:
        """Every group's observations, masks, done flags and (after a step) rewards, from the engine."""
        engine, n_envs, device = self.engine, self.num_envs, self.device
        legal = engine.legal_mask()
        mover = engine.current_player.astype(np.int64)
        over = engine.is_over
        self._twins.clear()
        # After a step that ended games, maybe_reset will want the observations twice.
        twin = rewards is not None and bool(done.any())
        done_t = torch.from_numpy(done.reshape(n_envs, 1).copy())
        out: dict[str, Any] = {"done": done_t, "terminated": done_t.clone(), "truncated": torch.zeros_like(done_t)}
        for group, seats in self._group_seats.items():
            n = len(seats)
            acting = (mover[:, None] == seats[None, :]) & ~over[:, None]
            games, slots = np.nonzero(acting)
            observation = self._observations(group, seats, twin)
            # The mover's legal actions, all True for the others (their actions are ignored).
            mask_array, _ = self._output_array(group, "action_mask", (n_envs, n, A.NUM_ACTIONS), np.bool_)
            mask_array.fill(True)
            mask_array[games, slots] = legal[games]
            action_mask = torch.from_numpy(mask_array)
            self.full_action_spec[group, "action"].update_mask(action_mask.to(device))
            group_done = done_t[:, None].expand(n_envs, n, 1).clone()
            fields = {
                "observation": torch.from_numpy(observation),
                "action_mask": action_mask,
                "mask": torch.from_numpy(acting),
                "done": group_done,
                "terminated": group_done.clone(),
                "truncated": torch.zeros_like(group_done),
            }
            if rewards is not None:
                fields["reward"] = torch.from_numpy(np.ascontiguousarray(rewards[:, seats, None], dtype=np.float32))
            out[group] = TensorDict(fields, batch_size=(n_envs, n), device=device)
        return TensorDict(out, batch_size=(n_envs,), device=device)

    def maybe_reset(self, tensordict: TensorDictBase) -> TensorDictBase:
        """Restart the games that ended (TorchRL's ``maybe_reset``, which collectors and
        ``step_and_maybe_reset`` call every step): the returned tensordict holds the new deals'
        rows there and the input's rows elsewhere.  TorchRL's own way merges a partial reset into
        every row of every tensor (``torch.where``, about 10 ms a step at 1,024 games, where a
        game ends in most steps); here the ended games' rows are written into copies of the
        input's tensors (the input's are the step's ``"next"`` ones, which a collector keeps).
        With ``observe="mover"`` the observations are not copied: the step that ended the games
        had the engine write its views twice in one pass (``_twins``), which is cheaper."""
        finished = self._finished(tensordict)
        if finished is None:  # not the keys this env hands out: TorchRL's way
            return super().maybe_reset(tensordict)
        rows = np.flatnonzero(finished)
        if not len(rows):
            return tensordict
        self._restart(rows)
        for group, values in self._restarted(rows).items():
            twin = self._twins.pop(group, None)
            for key, value in values.items():
                source = tensordict.get((group, key))
                record: np.ndarray | None
                if key == "observation" and twin is not None and source.data_ptr() == twin[0].ctypes.data:
                    new, record = twin[1], twin[2]  # the step's views, written twice by the engine
                else:
                    new, record = self._copy_of(group, key, source)
                new[rows] = value
                self._note_views(record, rows, values["mask"])
                tensordict.set((group, key), torch.from_numpy(new).to(self.device))
            # The spec's mask is the group's action mask (the one just written: no copy of its own).
            self.full_action_spec[group, "action"].update_mask(tensordict.get((group, "action_mask")))
        # Every game with a done flag set was restarted, so no flag is set any more.
        for flag_key in self.done_keys:  # the root's and every group's done, terminated, truncated
            tensordict.set(flag_key, torch.zeros_like(tensordict.get(flag_key)))
        return tensordict

    def _finished(self, tensordict: TensorDictBase) -> np.ndarray | None:
        """``[N]``: the games whose done flag (root or any agent's) is set, or None where the
        tensordict lacks a key this env writes (then TorchRL resets it its own way)."""
        if not self._restart_keys.issubset(tensordict.keys(include_nested=True, leaves_only=True)):
            return None
        done = tensordict.get("done").reshape(self.num_envs, -1).any(-1)
        for group in self._group_seats:
            done = done | tensordict.get((group, "done")).reshape(self.num_envs, -1).any(-1)
        return done.cpu().numpy()

    def _copy_of(self, group: str, key: str, tensor: torch.Tensor) -> tuple[np.ndarray, np.ndarray | None]:
        """A copy of ``tensor`` in an array of this env's (a reused one where free), with its
        record (``_output_array``), which a copy of an observation array inherits."""
        source = tensor.cpu().numpy()
        array, written = self._output_array(group, key, source.shape, source.dtype.type)
        np.copyto(array, source)
        if written is not None:
            record = next((w for a, w in self._recycled[(group, key)] if a.ctypes.data == source.ctypes.data), None)
            written[:] = -2 if record is None else record
        return array, written

    def _note_views(self, record: np.ndarray | None, rows: np.ndarray, acting: np.ndarray) -> None:
        """Update an observation array's record (``_output_array``) once ``rows`` hold each
        mover's view in its slot (``acting``) and zeros."""
        if record is not None and self.observe_mode == "mover":
            record[rows] = np.where(acting.any(1), acting.argmax(1), -1)

    def _reset_output(self, rows: np.ndarray) -> TensorDictBase:
        """A partial reset's output (TorchRL's ``reset`` with ``"_reset"`` flags): the rows of the
        games in ``rows``; TorchRL takes the others from the tensordict it was given, so they are
        not computed (they hold an earlier output or zeros)."""
        n_envs, device = self.num_envs, self.device
        done_t = torch.zeros((n_envs, 1), dtype=torch.bool)
        out: dict[str, Any] = {"done": done_t, "terminated": done_t.clone(), "truncated": done_t.clone()}
        for group, values in self._restarted(rows).items():
            n = len(self._group_seats[group])
            fields: dict[str, torch.Tensor] = {}
            for key, value in values.items():
                shape, dtype = (n_envs, *value.shape[1:]), value.dtype.type
                if key == "mask":
                    array, record = np.zeros(shape, dtype), None
                else:
                    array, record = self._output_array(group, key, shape, dtype)
                array[rows] = value
                self._note_views(record, rows, values["mask"])
                fields[key] = torch.from_numpy(array)
            spec = self.full_action_spec[group, "action"]
            spec_mask = (
                spec.mask.clone()
                if spec.mask is not None
                else torch.ones(spec.shape + (A.NUM_ACTIONS,), dtype=torch.bool)
            )
            spec_mask[torch.from_numpy(rows)] = torch.from_numpy(values["action_mask"]).to(device)
            spec.update_mask(spec_mask)
            group_done = torch.zeros((n_envs, n, 1), dtype=torch.bool)
            fields.update(done=group_done, terminated=group_done.clone(), truncated=group_done.clone())
            out[group] = TensorDict(fields, batch_size=(n_envs, n), device=device)
        return TensorDict(out, batch_size=(n_envs,), device=device)

    def _restarted(self, rows: np.ndarray) -> dict[str, dict[str, np.ndarray]]:
        """Per group, the observations, action masks and movers (``"mask"``) of the games in
        ``rows`` (just dealt): ``[len(rows), n, ...]`` each."""
        engine = self.engine
        legal = engine.legal_mask(rows=rows)
        movers = engine.current_player[rows].astype(np.int64)
        mover_views = engine.observe(rows=rows) if self.observe_mode == "mover" else None
        restarted = {}
        for group, seats in self._group_seats.items():
            n, k = len(seats), len(rows)
            acting = movers[:, None] == seats[None, :]  # a game just dealt goes on
            games, slots = np.nonzero(acting)
            if mover_views is not None:
                observation = np.zeros((k, n, OBS_SIZE), dtype=np.float32)
                observation[games, slots] = mover_views[games]
            else:
                observation = engine.observe(np.tile(seats, k), rows=np.repeat(rows, n)).reshape(k, n, OBS_SIZE).copy()
            action_mask = np.ones((k, n, A.NUM_ACTIONS), dtype=bool)
            action_mask[games, slots] = legal[games]
            restarted[group] = {"observation": observation, "action_mask": action_mask, "mask": acting}
        return restarted

    def _observations(self, group: str, seats: np.ndarray, twin: bool = False) -> np.ndarray:
        """A group's ``[N, n, OBS_SIZE]`` observations: every seat's own view (``"all"``), or the
        mover's view in its slot and zeros (``"mover"``; with ``twin``, also written into a second
        array kept in ``_twins`` for maybe_reset)."""
        n_envs, n = self.num_envs, len(seats)
        shape = (n_envs, n, OBS_SIZE)
        observation, written = self._output_array(group, "observation", shape, np.float32)
        if self.observe_mode == "mover":
            # A reused array still holds what this env wrote into it: only the slots whose view
            # changed are written (its zeros stay), which is most of the cost of this mode.
            if not twin:
                return self.engine.observe_movers(seats, out=observation, written=written)
            copy, copy_written = self._output_array(group, "observation", shape, np.float32)
            if written is None or copy_written is None:  # arrays not kept have no record
                written = np.full(n_envs, -2, dtype=np.int64) if written is None else written
                copy_written = np.full(n_envs, -2, dtype=np.int64) if copy_written is None else copy_written
            self.engine.observe_movers(seats, out=observation, written=written, twin=(copy, copy_written))
            self._twins[group] = (observation, copy, copy_written)
            return observation
        every_game = np.repeat(np.arange(n_envs), n)
        self.engine.observe(np.tile(seats, n_envs), rows=every_game, out=observation.reshape(-1, OBS_SIZE))
        return observation

    def _output_array(
        self, group: str, key: str, shape: tuple[int, ...], dtype: type
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """An array for this step's ``(group, key)``, to be filled (whole, or a partial reset's
        rows): one this env handed out before, once nothing outside holds it any more (no tensor
        of that step is alive), else a new one.  New memory costs page faults on its first
        writing (megabytes a step at 1,024 games: reusing it made the step about 15% cheaper);
        what a caller keeps (a rollout's steps, a replay buffer's views) is never written again.
        A reused observation array is trusted to hold what this env last wrote into it
        (``_observations``): a caller must not write into the tensors it is handed (TorchRL's
        transforms write new ones).  Returns the array and, for a kept observation array, its
        record (``engine.observe_movers``' ``written``; None for the other keys, whose every
        output writes the rows that count, and for an array not kept)."""
        recycled = self._recycled.setdefault((group, key), [])
        for array, written in recycled:
            if sys.getrefcount(array) == self._free_refcount:  # held by its pair and this loop only
                return array, written
        # Zeros (mapped lazily, no dearer than np.empty): a partial reset writes its rows only, and
        # the others are read (TorchRL's merge, transforms), so they must hold numbers.
        array = np.zeros(shape, dtype=dtype)
        if len(recycled) < 4:
            # Not written yet; only the observations are written in part (observe="mover").
            written = np.full(self.num_envs, -2, dtype=np.int64) if key == "observation" else None
            recycled.append((array, written))
            return array, written
        return array, None


__all__ = ["HandFootTorchRLEnv"]
