"""A Gymnasium vector env: N games on the vector engine, the learner's side against built-in opponents.

    import gymnasium, handfoot_env
    envs = gymnasium.make_vec("handfoot/HandFoot-v0", num_envs=1024, vectorization_mode="vector_entry_point",
                              preset="partnership", opponent="random")
    observations, infos = envs.reset(seed=0)             # float32 [N, 655]
    masks = infos["action_mask"]                          # int8 [N, 187]: 1 exactly for the legal actions
    observations, rewards, terminated, truncated, infos = envs.step(actions)

Each of the N sub-environments is one game, with the semantics of the single-game env
(``handfoot_env.envs.gymnasium``): the learner plays one side (both partners in ``partnership``), the
opponents the rest, and a step is one learner action followed by the opponents' moves until the
learner is to move again.  Here the N games move together: one engine call per move for the whole
batch, the opponents' moves batched across games.  The games are played by
``handfoot_env.seating.learner.LearnerGames`` — the loop under every single-learner shell, which
credits the rewards, seats the opponents (a list is a pool: each game draws one) and handles
illegal actions — and this module translates it into Gymnasium's vector API: spaces, batched
infos, the autoreset modes.  An opponent computes observations only if it reads them (random
and greedy decide from the mask).

* **Autoreset**: Gymnasium's default, ``AutoresetMode.NEXT_STEP`` (``metadata["autoreset_mode"]``):
  the step that ends a game returns its last observation with ``terminated``; the next step
  ignores that env's action, starts a new game and returns its first observation (reward 0).
  ``autoreset_mode=AutoresetMode.SAME_STEP`` (what CleanRL's scripts ask of Gymnasium's own vector
  envs) starts the new game within the ending step, the last observation and info in
  ``infos["final_obs"]`` and ``infos["final_info"]``.  ``AutoresetMode.DISABLED`` restarts
  nothing: the user restarts ended envs with ``reset(options={"reset_mask": mask})`` (Gymnasium
  1.1's partial reset, which every mode takes), and stepping an ended env before that raises
  ``ResetNeeded``.  Games never truncate.
* **Masks** are in ``infos["action_mask"]`` (int8, as Gymnasium's Taxi gives them), the same key as
  the single-game env's info, so the observation stays the ``Box`` every shell uses;
  ``action_masks()`` gives them as booleans (sb3-contrib's name).  A game that has just ended has no
  legal action: its mask is all zeros, and its next action is ignored.
* **Seeding**: ``reset(seed=s)`` starts game ``i`` exactly as the single-game env's
  ``reset(seed=s + i)`` does (as Gymnasium's ``SyncVectorEnv`` seeds its envs), and seeds the
  opponents and the action space; later games continue from there, reproducibly.  A list gives
  one seed per env.
* **Illegal actions**: ``illegal_action="terminate"`` (the default, as in the single-game env) ends
  that env's game with ``illegal_reward`` and ``infos["illegal_action"]`` saying why; ``"skip"``
  refuses the action (no move, reward 0); ``"raise"`` raises ``IllegalActionError`` naming the env
  (``game i``), and nothing changes.  ``action_space.sample()`` draws a legal action in every env.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from handfoot_env import actions as A
from handfoot_env.cards import check_seed
from handfoot_env.envs.spaces import observation_box
from handfoot_env.render.text import render_view, view_of_vector
from handfoot_env.rules import Rules, rules_or_preset
from handfoot_env.seating.learner import LearnerGames, check_illegal_action, resolve_agents
from handfoot_env.seating.rewards import check_reward_mode
from handfoot_env.vector import games_stepped_together


class LegalMultiDiscrete(spaces.MultiDiscrete):
    """``MultiDiscrete([187] * N)`` whose ``sample()`` without a mask draws a legal action in each
    env (action 0 where a game has just ended): tools that step with samples step legally."""

    def __init__(self, env: HandFootVectorEnv, seed: int | None = None):
        super().__init__(np.full(env.num_envs, A.NUM_ACTIONS), seed=seed)
        self._env = env

    def sample(self, mask=None, probability=None):
        if mask is not None or probability is not None or self._env is None:
            return super().sample(mask=mask, probability=probability)
        masks = self._env.action_masks()
        # The k-th legal action of each row, k uniform among its legal ones.
        counts = masks.sum(axis=1)
        picks = np.floor(self.np_random.random(len(masks)) * counts).astype(np.int64)
        ranks = np.cumsum(masks, axis=1) - 1
        chosen = np.argmax(masks & (ranks == picks[:, None]), axis=1)
        return np.where(counts > 0, chosen, 0).astype(self.dtype)

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_env"] = None  # never pickle the env with its space
        return state


class HandFootVectorEnv(gym.vector.VectorEnv):
    """N games of Hand and Foot on the vector engine, each a sub-environment (see the module)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (gymnasium's VectorEnv declares it per instance)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": ["ansi"],
    }

    def __init__(
        self,
        num_envs: int = 64,
        preset: str = "partnership",
        num_players: int | None = None,
        rules: Rules | None = None,
        opponent: Any = "random",
        learner_side: int | None = None,
        reward_mode: str = "deal",
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        render_mode: str | None = None,
    ):
        num_envs = games_stepped_together(num_envs)
        self.illegal_action, self.illegal_reward = check_illegal_action(illegal_action), float(illegal_reward)
        try:
            autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ValueError(
                f"autoreset_mode must be AutoresetMode.NEXT_STEP, SAME_STEP or DISABLED, got {autoreset_mode!r}"
            ) from None
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        rules = rules_or_preset(rules, preset, num_players)
        self.rules = rules
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.reward_mode = check_reward_mode(reward_mode)
        self.metadata = dict(self.metadata, autoreset_mode=autoreset_mode)
        self.autoreset_mode = autoreset_mode
        # The games: seating's loop, restarted here as the autoreset mode says.
        self.games = LearnerGames(
            rules,
            num_envs,
            resolve_agents(opponent, rules),
            seed=0,
            reward_mode=reward_mode,
            auto_reset=False,
            learner_side=learner_side,
        )
        self.engine = self.games.engine

        self.single_observation_space = observation_box()
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.single_action_space = spaces.Discrete(A.NUM_ACTIONS)
        self.action_space = LegalMultiDiscrete(self)
        self._reset_pending = np.zeros(num_envs, dtype=bool)  # ended: restarted by the next step (or a reset)
        self._seed_rng = np.random.default_rng()
        self._started = False

    @property
    def learner_side(self) -> np.ndarray:
        """``[N]``: the learner's side in each env's game."""
        return self.games.learner_side

    @property
    def opponent_index(self) -> np.ndarray:
        """``[N]``: the opponent each env's game drew from the pool."""
        return self.games.opponent_index

    # ------------------------------------------------------------------ the Gymnasium API
    def reset(self, *, seed: int | list[int | None] | None = None, options: dict | None = None):
        """New games in every env; ``seed`` fixes them and every random source of the env.
        ``options={"reset_mask": mask}`` (bool ``[N]``) restarts only the envs in ``mask``."""
        reset_mask = _check_options(options, self.num_envs)
        n = self.num_envs
        if isinstance(seed, (list, tuple, np.ndarray)):
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"reset needs one seed per env ({n}), got {len(seeds)}")
        else:
            seeds = [None] * n if seed is None else [check_seed(seed, most=None) + i for i in range(n)]
        if reset_mask is not None:
            return self._reset_some(np.flatnonzero(reset_mask), seeds)
        first = next((s for s in seeds if s is not None), None)
        if first is not None:
            first = check_seed(first, most=None)
            self._seed_rng = np.random.default_rng(first)
            self.action_space.seed(first)
            self.games.reseed(first)
        self.games.reset(seeds=self._game_seeds(seeds))
        self._reset_pending[:] = False
        self._started = True
        return self._observe(), self._infos()

    def _reset_some(self, rows: np.ndarray, seeds: list) -> tuple[np.ndarray, dict[str, Any]]:
        """A partial reset: new games at ``rows`` only (each from its seed as the single-game env's
        ``reset(seed=...)`` starts it, or the next of the env's own); the others go on as they
        were.  The shared random sources (opponents, unseeded deals) are not reseeded."""
        if not self._started:
            raise gym.error.ResetNeeded("call reset() (of every env) before a partial reset")
        given = [seeds[b] for b in rows]
        self.games.restart(rows, self._game_seeds(given) if any(s is not None for s in given) else None)
        self._reset_pending[rows] = False
        return self._observe(), self._infos()

    def _game_seeds(self, seeds: list) -> np.ndarray:
        """The engine's seed of each game: the one the single-game env's ``reset(seed=s)`` deals
        from, or the next of the env's own where ``s`` is None."""
        return np.array(
            [
                np.random.default_rng(check_seed(s, most=None)).integers(0, 2**62)
                if s is not None
                else self._seed_rng.integers(0, 2**62)
                for s in seeds
            ],
            dtype=np.int64,
        )

    def step(self, actions):
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self.autoreset_mode == AutoresetMode.DISABLED and self._reset_pending.any():
            ended = np.flatnonzero(self._reset_pending)
            raise gym.error.ResetNeeded(
                f"envs {ended[:10].tolist()}{'...' if len(ended) > 10 else ''} ended: restart them with "
                "reset(options={'reset_mask': mask}) before stepping (autoreset_mode DISABLED)"
            )
        actions = self._check_actions(actions)
        # Next-step autoreset: the envs that ended start a new game now (their actions ignored).
        restarting = np.flatnonzero(self._reset_pending)
        _, rewards, terminated, _ = self.games.step(
            actions,
            illegal=self.illegal_action,
            illegal_reward=self.illegal_reward,
            restart=restarting if len(restarting) else None,
            observe=False,
        )
        reasons = self.games.illegal
        self._reset_pending[:] = False
        if self.autoreset_mode == AutoresetMode.SAME_STEP and terminated.any():
            final_obs, final_info = self._observe(), self._infos(terminated, reasons)
            self.games.restart(np.flatnonzero(terminated))
            observations, infos = self._observe(), self._infos()
            last = np.full(self.num_envs, None, dtype=object)
            for b in np.flatnonzero(terminated):
                last[b] = final_obs[b]
            infos.update(final_obs=last, _final_obs=terminated.copy())
            infos.update(final_info=final_info, _final_info=terminated.copy())
        else:
            self._reset_pending = terminated.copy()
            observations, infos = self._observe(), self._infos(terminated, reasons)
        return observations, rewards, terminated, np.zeros(self.num_envs, dtype=bool), infos

    def action_masks(self) -> np.ndarray:
        """``[N, 187]`` booleans: the learner's legal actions in each env (none where a game just ended)."""
        masks = self.games.action_masks()
        masks[self._reset_pending] = False
        return masks

    def render(self) -> tuple[Any, ...] | None:
        """``render_mode="ansi"``: each game's table as the learner sees it."""
        if self.render_mode != "ansi":
            gym.logger.warn("render() called without render_mode='ansi'")
            return None
        seats = self.games.view_seats()
        return tuple(render_view(view_of_vector(self.engine, b, int(seats[b]))) for b in range(self.num_envs))

    def close_extras(self, **kwargs: Any) -> None:
        pass

    # ------------------------------------------------------------------ what the learner sees
    def _observe(self) -> np.ndarray:
        """The learner's observations, written straight into a new array (the caller keeps it)."""
        return self.games.observe()

    def _infos(self, terminated: np.ndarray | None = None, reasons: dict[int, str] | None = None) -> dict[str, Any]:
        """Gymnasium's batched infos: each key an array over the envs, with its ``_key`` mask."""
        n = self.num_envs
        everywhere = np.ones(n, dtype=bool)
        infos: dict[str, Any] = {
            "action_mask": self.action_masks().view(np.int8),
            "scores": self.engine.totals.astype(np.int64),
            "learner_side": self.learner_side.copy(),
            "deal": self.engine.states["deal"].astype(np.int64) + 1,
        }
        for key in list(infos):
            infos[f"_{key}"] = everywhere
        over = self.engine.is_over if terminated is None else self.engine.is_over & terminated
        if terminated is not None and over.any():
            infos["final_totals"] = np.where(over[:, None], self.engine.final_totals, 0).astype(np.int64)
            infos["_final_totals"] = over
        if reasons:
            described = np.full(n, None, dtype=object)
            for b, reason in reasons.items():
                described[b] = reason
            infos["illegal_action"] = described
            infos["_illegal_action"] = np.array([d is not None for d in described])
        return infos

    # ------------------------------------------------------------------ checks
    def _check_actions(self, actions) -> np.ndarray:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(f"step needs {self.num_envs} integer actions, got shape {actions.shape} {actions.dtype}")
        if ((actions < 0) | (actions >= A.NUM_ACTIONS)).any():
            raise ValueError(f"actions must be from 0 to {A.NUM_ACTIONS - 1}")
        return actions.astype(np.int64)


def _check_options(options: Any, num_envs: int) -> np.ndarray | None:
    """``reset``'s options: none, or Gymnasium's ``{"reset_mask": mask}`` (bool ``[N]``, some True);
    the user's dict is read, not changed (wrappers read it after the env)."""
    if not options:
        return None
    if not isinstance(options, dict) or set(options) != {"reset_mask"}:
        raise ValueError(f"reset takes no options but reset_mask, got {options!r}")
    mask = options["reset_mask"]
    if not (isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (num_envs,) and mask.any()):
        raise ValueError(f"options['reset_mask'] must be a bool numpy array of shape ({num_envs},) with a True")
    return mask


__all__ = ["HandFootVectorEnv", "LegalMultiDiscrete"]
