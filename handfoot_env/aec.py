"""
# Hand and Foot (PettingZoo AEC)

| Import             | `from handfoot_env import env` (or `handfoot_env.raw_env`)          |
|--------------------|---------------------------------------------------------------------|
| Actions            | Discrete(173), masked                                               |
| Parallel API       | No (turn-based: one agent acts at a time)                           |
| Manual control     | `handfoot play` (terminal)                                          |
| Agents             | `agents = ['player_0', ...]` (classic 2-6; partnership 4; house 2 or 4) |
| Action shape       | (1,)                                                                |
| Action values      | 0 .. 172                                                            |
| Observation shape  | {"observation": (509,) float32, "action_mask": (173,) int8}         |

Hand and Foot is a Canasta-family card game: every player has a hand and a foot, builds
groups of one rank, and scores big for seven-card books.  The rules are written out in
[docs/rules.md](../docs/rules.md): presets `classic` (2-6 players, each alone), `partnership` (4
players in two teams, partners opposite) and `house` (2 alone or 4 in two teams; runs of
one suit, red and black canastas, books of 2s, one card plus the top discard, frozen
six-card melds, games to 20,000).

## Creation

    from handfoot_env import env
    e = env(preset="partnership", render_mode="ansi")   # or preset="classic", num_players=3
    e.reset(seed=42)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Keywords: `preset` ("classic" | "partnership" | "house"), `num_players`, `rules` (a `Rules`, which
overrides both), `render_mode` ("ansi" | "human" | None), `reward_mode` ("deal" | "game").

## Turns

The same agent keeps acting until its discard ends its turn: one draw action (draw two,
or take the pile; in house, one from the stock plus the top discard), any meld actions,
then a discard.  `agent_selection` is always the
player to move.  The env runs on the vector engine with a batch of one, so the env and
the engines cannot disagree.

## Action space

The layout of `handfoot_env/actions.py` (`handfoot actions` prints it):

| index | count | action |
|---|---|---|
| 0 | 1 | draw two from the stock |
| 1 | 1 | take the discard pile (house: one from the stock plus the top discard) |
| 2-34 | 33 | start a group: rank r x composition c (3 naturals / 2 + a 2 / 2 + a joker), 2 + 3r + c |
| 35-45 | 11 | add a natural to the group of rank r |
| 46-56 | 11 | add a 2 to the group of rank r |
| 57-67 | 11 | add a joker to the group of rank r |
| 68-82 | 15 | discard a card of kind k (joker, 2, black 3, red 3, 4 .. A; house: naturals go suited) |
| 83-126 | 44 | house: discard the natural of suit s, rank r (83 + 11s + r; suits c, d, h, s) |
| 127-162 | 36 | house: start a run of suit s from rank r to r+2 (127 + 9s + r) |
| 163-166 | 4 | house: extend the run of suit s downward |
| 167-170 | 4 | house: extend the run of suit s upward |
| 171 | 1 | house: start a book of 2s (three 2s) |
| 172 | 1 | house: add a 2 to the book of 2s |

Actions a preset does not use are always masked.

An illegal action raises `IllegalActionError` naming the action and the reason; the state
is left untouched.  The mask of an agent that is not to move is all zeros.

## Observation space

`observation` is the seat-relative float32 vector of `handfoot_env/observation.py` (me
first, then the others in turn order; partner marked), holding only what that seat may
know — never another hand, a foot's cards, or the stock order:

| field | indices | size | meaning |
|---|---|---|---|
| hand | 0-14 | 15 | my hand, count per kind |
| staged | 15-29 | 15 | my staged cards |
| staged_value | 30 | 1 | points staged / 100 |
| on_foot | 31 | 1 | I have picked up my foot |
| seats | 32-61 | 6 x 5 | present, partner, cards in hand, cards in unplayed foot, on foot |
| owners | 62-307 | 6 x 41 | per side: present, opened, red threes, clean/dirty books, melded / 100, total / 1000, minimum / 100, 11 ranks x (naturals, 2s, jokers) |
| pile_size | 308 | 1 | cards in the discard pile |
| pile_top | 309-323 | 15 | one-hot top card |
| pile_counts | 324-338 | 15 | the pile, count per kind |
| pile_take_window | 339-353 | 15 | the cards a take would bring |
| game | 354-364 | 11 | phase draw/play, deal, deals, stock, my minimum / 100, books needed, partnership, players, opened |
| house | 365-508 | 144 | house only (zero elsewhere): my naturals by suit (44), the top discard's suit (4), my staged runs (4 x length, low) and book of 2s, each side's unfinished runs and book of 2s (6 x 9), the rule flags (4) |

`action_mask` is int8, 1 exactly for the legal actions of the agent to move.

## Rewards

`reward_mode="deal"` (default): at the end of each deal every agent receives its side's
deal score minus the mean deal score of the other sides, divided by 1000.
`reward_mode="game"`: at the end of the game +1 for the side with the highest total,
-1 for the others, 0 for everyone on a tie.  `infos[agent]` holds `team`, `scores`
(running totals per side), `deal` (1-based) and `legal_moves`.

## Version history

* v0: classic and partnership; then house, with the action and observation layouts unchanged
  in size (house fills room they had reserved).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from handfoot_env import actions as A
from handfoot_env.observation import OBS_SIZE
from handfoot_env.render import render_view, view_of_vector
from handfoot_env.rewards import check_reward_mode, seat_rewards
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine


def env(**kwargs: Any) -> AECEnv:
    """The AEC env with PettingZoo's standard checks (action bounds, call order)."""
    environment = raw_env(**kwargs)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


class raw_env(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "handfoot_v0", "is_parallelizable": False}

    def __init__(
        self,
        preset: str = "classic",
        num_players: int | None = None,
        rules: Rules | None = None,
        render_mode: str | None = None,
        reward_mode: str = "deal",
    ):
        super().__init__()
        if rules is None:
            overrides = {} if num_players is None else {"num_players": num_players}
            rules = Rules.preset(preset, **overrides)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.reward_mode = check_reward_mode(reward_mode)
        self.engine = VectorEngine(rules, batch_size=1, seed=0, auto_reset=False)
        self.possible_agents = [f"player_{i}" for i in range(rules.num_players)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(A.NUM_ACTIONS) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(OBS_SIZE,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(A.NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._seed_rng = np.random.default_rng()
        self._mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(0, 2**62)) if seed is None else int(seed)
        self.engine.reset(game_seed)
        self.seed_used = game_seed
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._refresh()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        observation = self.engine.observe(np.array([seat]))[0].copy()
        mask = self._mask.copy() if agent == self.agent_selection and not self.terminations[agent] else np.zeros(
            A.NUM_ACTIONS, dtype=np.int8
        )
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = A.action_index(action)
        self._cumulative_rewards[agent] = 0.0
        outcome = self.engine.step(np.array([action], dtype=np.int64))
        rewards = seat_rewards(self.rules, self.reward_mode, *outcome, self.engine.final_totals)
        for seat, name in enumerate(self.possible_agents):
            self.rewards[name] = float(rewards[0, seat])
        if outcome.game_over[0]:
            self.terminations = {a: True for a in self.agents}
        self._refresh()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _refresh(self) -> None:
        """Mover, mask and infos from the engine's state."""
        state = self.engine.states[0]
        self.agent_selection = self.possible_agents[int(state["current"])]
        self._mask[:] = self.engine.legal_mask()[0]
        totals = [int(t) for t in self.engine.totals[0]]
        legal = np.flatnonzero(self._mask).tolist()
        self.infos = {
            a: {
                "team": self.rules.owner_of(self._seat[a]),
                "scores": totals,
                "deal": int(state["deal"]) + 1,
                "legal_moves": legal if a == self.agent_selection else [],
            }
            for a in self.agents
        }

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi' or 'human'")
            return None
        text = render_view(view_of_vector(self.engine, 0))
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None

    def close(self) -> None:
        pass
