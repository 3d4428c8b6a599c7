"""A single-agent Gymnasium env: the learner's side against given opponent agents.

    from handfoot_env.envs.gymnasium import HandFootGymEnv
    env = HandFootGymEnv(preset="partnership", opponent="greedy")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.action_masks().argmax())

In ``partnership`` the learner plays both partners.  The game is played by
``handfoot_env.seating.learner.LearnerGames`` (one game of the loop under every single-learner
shell: rewards, opponents, illegal actions); this module translates it into Gymnasium's API.
``info["action_mask"]`` (int8, all zeros once the game is over; the key of Gymnasium's Taxi and of
the vector env) and ``action_masks()`` (booleans, as sb3-contrib's MaskablePPO expects) give the
legal actions, and ``action_space.sample()`` draws a legal one.  An illegal action ends the
episode with ``illegal_reward`` (-1), ``terminated`` set and ``info["illegal_action"]`` saying
why — PettingZoo's convention, and what lets Gymnasium's ``check_env`` (which steps an action
sampled in another position) pass with every default.  ``illegal_action="raise"`` raises
``IllegalActionError`` instead (state untouched), and ``"skip"`` refuses it (state untouched,
reward 0, the reason in ``info``).  ``reset(seed=s)`` makes the game and everything random in it
(the opponents too) repeat exactly; Gymnasium's ``check_env`` passes with every default.
Registered with Gymnasium as ``handfoot/HandFoot-v0`` (``import handfoot_env``, then
``gymnasium.make("handfoot/HandFoot-v0", opponent="heuristic")``).  Observations, actions and
rewards are those of the AEC env (see ``handfoot_env.envs.pettingzoo``).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from handfoot_env import actions as A
from handfoot_env.envs.spaces import LegalDiscrete, observation_box
from handfoot_env.render.text import render_view, view_of_vector
from handfoot_env.rules import Rules, rules_or_preset
from handfoot_env.seating.learner import LearnerGames, check_illegal_action, resolve_agents


class ResetNeeded(gym.error.ResetNeeded, RuntimeError):
    """``step`` before ``reset``, or after the game ended (Gymnasium's error, and a RuntimeError)."""


class HandFootGymEnv(gym.Env):
    # (render_fps: Gymnasium's check_env asks for one; the human mode prints and never waits)
    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (gymnasium.Env declares it per instance)

    def __init__(
        self,
        preset: str = "partnership",
        num_players: int | None = None,
        rules: Rules | None = None,
        opponent: Any = "random",
        learner_side: int | None = None,
        reward_mode: str = "deal",
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
    ):
        self.illegal_action, self.illegal_reward = check_illegal_action(illegal_action), float(illegal_reward)
        rules = rules_or_preset(rules, preset, num_players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.rules = rules
        self.render_mode = render_mode
        self._opponents = resolve_agents(opponent, rules)
        self._learner_side = learner_side
        self._reward_mode = reward_mode
        self.observation_space = observation_box()
        self.action_space = LegalDiscrete(self.action_masks)
        self.games = LearnerGames(
            rules, 1, self._opponents, seed=0, reward_mode=reward_mode, auto_reset=False, learner_side=learner_side
        )
        self._seed_rng = np.random.default_rng()
        self._started = False

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game; ``seed`` fixes the deal and every random source of the env (the
        opponents' own, which opponent sits down, the action space's samples)."""
        super().reset(seed=seed)
        self._started = True
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            self.action_space.seed(seed)
            self.games.reseed(seed)
        game_seed = int(self._seed_rng.integers(0, 2**62))
        self.games.reset(game_seed)
        return self.games.observe()[0], self._info()

    def step(self, action):
        if not self._started:
            raise ResetNeeded("call reset() before step()")
        if self.games.over[0]:
            raise ResetNeeded("the game is over: call reset() before step()")
        action = A.action_index(action)
        obs, rewards, dones, ends = self.games.step(
            np.array([action]), illegal=self.illegal_action, illegal_reward=self.illegal_reward
        )
        info = self._info()
        if self.games.illegal:
            info["illegal_action"] = self.games.illegal[0]
        elif self.render_mode == "human":
            print(self.render_text())
        if "final_totals" in ends.get(0, {}):
            info["final_totals"] = ends[0]["final_totals"]
        return obs[0], float(rewards[0]), bool(dones[0]), False, info

    def action_masks(self) -> np.ndarray:
        return self.games.action_masks()[0]

    def _info(self) -> dict:
        over = self.games.over[0]
        return {
            # The vector env's key too (and Gymnasium's Taxi's): int8, all zeros once the game is over.
            "action_mask": np.zeros(A.NUM_ACTIONS, np.int8) if over else self.action_masks().astype(np.int8),
            "scores": [int(t) for t in self.games.engine.totals[0]],
            "learner_side": int(self.games.learner_side[0]),
            "deal": int(self.games.engine.states["deal"][0]) + 1,
        }

    def render_text(self) -> str:
        return render_view(view_of_vector(self.games.engine, 0, int(self.games.view_seats()[0])))

    def render(self):
        if self.render_mode == "ansi":
            return self.render_text()
        if self.render_mode == "human":
            print(self.render_text())
        return None
