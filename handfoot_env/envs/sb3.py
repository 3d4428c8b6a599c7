"""An SB3 ``VecEnv`` running B games on the vector engine, the opponents' moves batched.

    from handfoot_env.envs.sb3 import HandFootVecEnv
    from sb3_contrib import MaskablePPO
    venv = HandFootVecEnv(num_envs=256, preset="partnership", opponent="greedy", shaping=1.0)
    MaskablePPO("MlpPolicy", venv).learn(100_000)

Each game is one SB3 "environment", played by ``handfoot_env.seating.learner.LearnerGames`` (the
loop under every single-learner shell: rewards, opponents, restarts); this module translates it
into SB3's API.  Rewards are credited to the learner's seat only, the learner is to move in every
game whenever SB3 sees it (so its mask is never all zero), and a finished game restarts at once
with ``terminal_observation`` in its info, as SB3 expects.  An illegal action raises
``IllegalActionError`` naming the game.  ``env_method("action_masks")`` returns one mask per game
for MaskablePPO.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from handfoot_env import actions as A
from handfoot_env.envs.spaces import observation_box
from handfoot_env.rules import Rules, rules_or_preset
from handfoot_env.seating.learner import LearnerGames, resolve_agents
from handfoot_env.vector import games_stepped_together


class HandFootVecEnv(VecEnv):
    def __init__(
        self,
        num_envs: int = 64,
        preset: str = "partnership",
        num_players: int | None = None,
        rules: Rules | None = None,
        opponent: Any = "random",
        seed: int = 0,
        reward_mode: str = "deal",
        shaping: float = 0.0,
    ):
        num_envs = games_stepped_together(num_envs)
        rules = rules_or_preset(rules, preset, num_players)
        self.rules = rules
        self.render_mode = None
        self.games = LearnerGames(
            rules, num_envs, resolve_agents(opponent, rules, seed), seed=seed, reward_mode=reward_mode, shaping=shaping
        )
        self._actions = np.zeros(num_envs, dtype=np.int64)
        super().__init__(num_envs, observation_box(), spaces.Discrete(A.NUM_ACTIONS))

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        self._reset_seeds()
        self.games.reset(seed)
        return self.games.observe()

    def step_async(self, actions: np.ndarray) -> None:
        actions = np.asarray(actions)
        if actions.size != self.num_envs or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"step needs {self.num_envs} integer actions, got {actions.size} of {actions.dtype}")
        self._actions = actions.astype(np.int64).reshape(self.num_envs)

    def step_wait(self):
        obs, rewards, dones, ends = self.games.step(self._actions)
        rewards = rewards.astype(np.float32)
        totals = self.games.engine.totals
        infos: list[dict] = []
        for b in range(self.num_envs):
            info: dict[str, Any] = {"scores": totals[b].tolist(), "learner_side": int(self.games.learner_side[b])}
            if b in ends:
                info.update(ends[b])
                info["TimeLimit.truncated"] = False
            infos.append(info)
        return obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        return self.games.action_masks()

    def set_opponents(self, opponents: list, weights: list[float] | None = None) -> None:
        """The opponent pool that each new game draws from, with these weights (a league's
        snapshots join it this way); games in progress keep their opponent."""
        self.games.set_opponents(opponents, weights)

    # ------------------------------------------------------------------ VecEnv plumbing
    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        if attr_name == "render_mode":
            return [None] * len(list(self._get_indices(indices)))
        value = getattr(self, attr_name)  # AttributeError for unknown names, as SB3 expects
        return [value] * len(list(self._get_indices(indices)))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[b] for b in rows]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result] * len(rows)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(list(self._get_indices(indices)))
