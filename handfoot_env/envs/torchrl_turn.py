"""A TorchRL turn-based env: N games on the vector engine, ``batch_size=[N]``, the player to move
at the root, as TorchRL's own board games lay out a turn-based game (``TicTacToeEnv``: the board,
``"turn"`` and the mask at the root, a reward per player).

    from handfoot_env.envs.torchrl_turn import HandFootTurnEnv
    env = HandFootTurnEnv(num_envs=1024, preset="partnership")
    td = env.rollout(100)                 # random legal play: the action spec carries the mask

Keys, batched over N games:

* ``"observation"`` float32 ``[N, 655]``: the view of the seat to move (``handfoot_env/observation.py``),
  zeros in a game that is over until it is restarted;
* ``"action_mask"`` bool ``[N, 187]``: that seat's legal actions (all True in a game that is over:
  its action is ignored), ready for ``MaskedCategorical(logits, mask=...)``;
* ``"turn"`` int64 ``[N, 1]``: the seat to move (its side: ``env.seat_sides[turn]``);
* ``"action"`` int64 ``[N]``: a ``Categorical`` spec whose mask follows the game, so ``rand_action``
  plays legally; an illegal action in a game that goes on raises ``IllegalActionError`` naming it;
* ``("side_k", "reward")`` float32 ``[N, 1]``: what side ``k`` earned in the step
  (``handfoot_env/seating/rewards.py``: deals end on any seat's move, and both sides' rewards come then);
* ``"done"``, ``"terminated"``, ``"truncated"`` bool ``[N, 1]``.

One policy that reads the mover's view plays every seat (self-play); ``"turn"`` says whose move
it is.  Where ``handfoot_env.envs.torchrl.HandFootTorchRLEnv`` gives every agent a slot in its side's group
(TorchRL's multi-agent layout, which a critic per agent or a policy per side needs), this env
writes one view a game, so a step costs about what the engine's own does with its outputs
handed over (docs/env.md; docs/batched_envs.md).

A finished game is done until it is reset: ``step_and_maybe_reset`` (collectors, rollouts)
restarts the done games through this env's ``maybe_reset``, which writes their rows alone into
copies of the step's tensors (inside a ``TransformedEnv``, which does not pass ``maybe_reset`` on,
TorchRL restarts them its own way: the same values, slower), and ``reset`` with ``"_reset"`` flags
restarts the games named.  ``set_seed(s)`` makes the next full reset deal game ``i`` from seed
``s + i`` (the vector engine's seeding); later games, and restarts before it, continue the
sequence.

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

from handfoot_env import actions as A
from handfoot_env.observation import OBS_HIGH, OBS_LOW, OBS_SIZE
from handfoot_env.rules import Rules, rules_or_preset
from handfoot_env.seating.rewards import check_reward_mode, seat_rewards
from handfoot_env.vector import VectorEngine, games_stepped_together

# The keys of a step's output that maybe_reset rewrites (else it leaves the restart to TorchRL).
_OUTPUT_KEYS = frozenset({"observation", "action_mask", "turn", "done", "terminated", "truncated"})


class HandFootTurnEnv(EnvBase):
    """N games of Hand and Foot for TorchRL, the player to move at the root (see the module):
    ``"observation"`` float32 ``[N, OBS_SIZE]`` and ``"action_mask"`` bool ``[N, NUM_ACTIONS]`` at
    the tensordict's root, the mover's."""

    def __init__(
        self,
        num_envs: int = 64,
        preset: str = "partnership",
        num_players: int | None = None,
        rules: Rules | None = None,
        reward_mode: str = "deal",
        seed: int = 0,
        device: torch.device | str | None = "cpu",
    ):
        num_envs = games_stepped_together(num_envs)
        rules = rules_or_preset(rules, preset, num_players)
        super().__init__(batch_size=torch.Size([num_envs]), device=device)
        self.rules = rules
        self.num_envs = num_envs
        self.reward_mode = check_reward_mode(reward_mode)
        self.engine = VectorEngine(rules, batch_size=self.num_envs, seed=seed, auto_reset=False)
        self._seed: int | None = seed
        self.seat_sides = np.asarray(rules.seat_owners, dtype=np.int64)
        self.side_names = [f"side_{side}" for side in range(rules.num_owners)]
        # A seat of each side, whose reward is its side's (partners share one).
        self._side_seat = np.array([int(np.flatnonzero(self.seat_sides == s)[0]) for s in range(rules.num_owners)])
        self._every_game = np.arange(self.num_envs)
        # Per key: arrays handed out before, written again once nothing outside holds them.
        self._recycled: dict[str, list[np.ndarray]] = {}
        for probe in [np.empty(0)]:  # the reference count of an array nothing outside holds
            self._free_refcount = sys.getrefcount(probe)
        self._make_specs()

    def _make_specs(self) -> None:
        n_envs, device = self.num_envs, self.device
        low = torch.as_tensor(OBS_LOW, dtype=torch.float32).expand(n_envs, OBS_SIZE)
        high = torch.as_tensor(OBS_HIGH, dtype=torch.float32).expand(n_envs, OBS_SIZE)
        self.observation_spec = Composite(
            observation=Bounded(low, high, shape=(n_envs, OBS_SIZE)),
            action_mask=Categorical(2, shape=(n_envs, A.NUM_ACTIONS), dtype=torch.bool),
            turn=Categorical(self.rules.num_players, shape=(n_envs, 1), dtype=torch.int64),
            shape=(n_envs,),
            device=device,
        )
        self.action_spec = Categorical(A.NUM_ACTIONS, shape=(n_envs,), dtype=torch.int64, device=device)
        self.reward_spec = Composite(
            {(side, "reward"): Unbounded(shape=(n_envs, 1), dtype=torch.float32) for side in self.side_names},
            shape=(n_envs,),
            device=device,
        )
        self.done_spec = Composite(
            {k: Categorical(2, shape=(n_envs, 1), dtype=torch.bool) for k in ("done", "terminated", "truncated")},
            shape=(n_envs,),
            device=device,
        )

    # ------------------------------------------------------------------ TorchRL's EnvBase
    def _set_seed(self, seed: int | None) -> None:
        self._seed = seed

    def _reset(self, tensordict: TensorDictBase | None = None, **kwargs: Any) -> TensorDictBase:
        flags = None if tensordict is None else tensordict.get("_reset", None)
        rows = None if flags is None else np.flatnonzero(flags.reshape(self.num_envs, -1).any(-1).cpu().numpy())
        if rows is None or len(rows) == self.num_envs:
            self.engine.reset(self._seed)  # None continues the engine's seed sequence
            self._seed = None
        else:
            self.engine.reset_games(rows)
        # Every row (the others as they stand: TorchRL keeps its own there).
        return self._output(None, np.zeros(self.num_envs, dtype=bool))

    def _step(self, tensordict: TensorDictBase) -> TensorDictBase:
        engine = self.engine
        actions = tensordict.get("action").reshape(self.num_envs).cpu().numpy()
        live = ~engine.is_over
        outcome = engine.step(actions, active=live)
        rewards = seat_rewards(self.rules, self.reward_mode, *outcome, engine.final_totals)[:, self._side_seat]
        return self._output(rewards, outcome.game_over | ~live)

    def maybe_reset(self, tensordict: TensorDictBase) -> TensorDictBase:
        """Restart the games that ended (TorchRL's ``maybe_reset``, which collectors and
        ``step_and_maybe_reset`` call every step): their rows are written into copies of the
        input's tensors (the step's ``"next"`` ones, which a collector keeps), where TorchRL's own
        way merges a partial reset into every row of every tensor."""
        if not _OUTPUT_KEYS.issubset(tensordict.keys()):  # not what this env hands out: TorchRL's way
            return super().maybe_reset(tensordict)
        rows = np.flatnonzero(tensordict.get("done").reshape(self.num_envs).cpu().numpy())
        if not len(rows):
            return tensordict
        self.engine.reset_games(rows)
        restarted = {
            "observation": self.engine.observe(rows=rows),
            "action_mask": self.engine.legal_mask(rows=rows),
            "turn": self.engine.current_player[rows, None],
        }
        for key, value in restarted.items():
            source = tensordict.get(key).cpu().numpy()
            new = self._output_array(key, source.shape, source.dtype.type)
            np.copyto(new, source)
            new[rows] = value
            tensordict.set(key, torch.from_numpy(new).to(self.device))
        self.full_action_spec["action"].update_mask(tensordict.get("action_mask"))
        for key in ("done", "terminated", "truncated"):  # every game with one set was restarted
            tensordict.set(key, torch.zeros_like(tensordict.get(key)))
        return tensordict

    # ------------------------------------------------------------------ what the mover sees
    def _output(self, rewards: np.ndarray | None, done: np.ndarray) -> TensorDictBase:
        """The movers' views, masks and seats, the done flags and (after a step) the rewards."""
        engine, n_envs, device = self.engine, self.num_envs, self.device
        over = engine.is_over
        observation = self._output_array("observation", (n_envs, OBS_SIZE), np.float32)
        engine.observe(rows=self._every_game, out=observation)
        action_mask = self._output_array("action_mask", (n_envs, A.NUM_ACTIONS), np.bool_)
        np.copyto(action_mask, engine.legal_mask())
        if over.any():  # no one to move: a view of zeros, and any action (it is ignored)
            observation[over] = 0.0
            action_mask[over] = True
        mask_tensor = torch.from_numpy(action_mask).to(device)
        self.full_action_spec["action"].update_mask(mask_tensor)
        done_t = torch.from_numpy(done.reshape(n_envs, 1).copy())
        out: dict[str, Any] = {
            "observation": torch.from_numpy(observation),
            "action_mask": mask_tensor,
            "turn": torch.from_numpy(engine.current_player.reshape(n_envs, 1).astype(np.int64)),
            "done": done_t,
            "terminated": done_t.clone(),
            "truncated": torch.zeros_like(done_t),
        }
        if rewards is not None:
            for k, side in enumerate(self.side_names):
                out[side] = {"reward": torch.from_numpy(np.ascontiguousarray(rewards[:, k, None], dtype=np.float32))}
        return TensorDict(out, batch_size=(n_envs,), device=device)

    def _output_array(self, key: str, shape: tuple[int, ...], dtype: type) -> np.ndarray:
        """An array for this step's ``key``, to be written whole: one this env handed out before,
        once nothing outside holds it any more (no tensor of that step is alive), else a new one.
        New memory costs page faults on its first writing (megabytes a step at 1,024 games);
        what a caller keeps (a rollout's steps) is never written again."""
        recycled = self._recycled.setdefault(key, [])
        for array in recycled:
            if sys.getrefcount(array) == self._free_refcount:  # held by the list and this loop only
                return array
        array = np.empty(shape, dtype=dtype)
        if len(recycled) < 4:
            recycled.append(array)
        return array


__all__ = ["HandFootTurnEnv"]
