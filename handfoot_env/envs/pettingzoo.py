"""
# Hand and Foot (PettingZoo AEC)

| Import             | `from handfoot_env import handfoot_v0` (`handfoot_v0.env()`, `handfoot_v0.raw_env()`) |
|--------------------|---------------------------------------------------------------------|
| Actions            | Discrete(187), masked                                               |
| Parallel API       | No (turn-based: one agent acts at a time)                           |
| Manual control     | `handfoot play` (terminal)                                          |
| Agents             | `agents = ['player_0', ...]` (classic 2-6; partnership 4 or 6; house 2 or 4) |
| Action shape       | (1,)                                                                |
| Action values      | 0 .. 186                                                            |
| Observation shape  | {"observation": (655,) float32 in [-1000, 1000], "action_mask": (187,) int8} |

Hand and Foot is a Canasta-family card game: every player has a hand and a foot, builds
groups of one rank, and scores big for seven-card books.  The rules are written out in
[docs/rules.md](../docs/rules.md): presets `classic` (2-6 players, each alone), `partnership` (4
players in two teams, partners opposite) and `house` (2 alone or 4 in two teams; runs of
one suit, red and black canastas, books of 2s, one card plus the top discard, frozen
six-card melds, games to 20,000).

## Creation

    from handfoot_env import handfoot_v0
    e = handfoot_v0.env(preset="partnership", render_mode="ansi")   # or preset="classic", num_players=3
    e.reset(seed=42)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Keywords: `preset` ("partnership", the default of every shell, | "classic" | "house"),
`num_players`, `rules` (a `Rules`, played instead of the preset; a `num_players` beside it
must agree), `render_mode` ("ansi" | "human" | "rgb_array" | None), `reward_mode` ("deal" |
"game"), `illegal_action` ("raise" | "terminate") and `illegal_reward` (-1). `handfoot_env.env` and `handfoot_env.raw_env` are the same env.

## Turns

The same agent keeps acting until its discard ends its turn: one draw action (draw two,
or take the pile; in house, one from the stock plus the top discard), any meld actions,
then a discard.  `agent_selection` is always the
player to move.  The env runs on the vector engine with a batch of one, so the env and
the engines cannot disagree.

With the variation `permission_to_go_out` (`Rules(..., permission_to_go_out=True)`), a
player on its foot may ask its partner "may I go out?" (action 184).  While the question
stands the partner is `agent_selection`, its mask allows only the answers (185 yes, 186 no),
and both see the question in their observation (`question`); then the asker acts again.

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
| 173 | 1 | variation: take the pile by the table (its top card onto your side's group) |
| 174-175 | 2 | variation: take the pile with one natural and a 2 / a joker |
| 176-179 | 4 | variation: start a wild book (2s + jokers: 3+0 / 2+1 / 1+2 / 0+3) |
| 180-181 | 2 | variation: add a 2 / a joker to the wild book |
| 182 | 1 | variation: start a group of black threes |
| 183 | 1 | variation: add a black three to the group of black threes |
| 184 | 1 | variation: ask the partner's permission to go out |
| 185-186 | 2 | variation: answer the partner's question, yes / no |

Actions a preset does not use are always masked; 173-186 (layout version 2) serve the
variations of [docs/rules.md](../docs/rules.md) and are masked under every preset.

An illegal action raises `IllegalActionError` naming the action and the reason; the state
is left untouched.  With `illegal_action="terminate"` the env follows PettingZoo's
convention instead: the game ends, the offender receives `illegal_reward` and the others 0,
and `infos[agent]["illegal_action"]` says why.  The mask of an agent that is not to move is
all zeros; `action_space(agent).sample()` without a mask draws a legal action of the agent
to move (tools that step with unmasked samples, such as RLlib's env check, stay legal).
`step(None)` is for agents whose game is over (a clear error otherwise), and a step after
every agent has left asks for `reset()`.

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
| seat_known | 62-151 | 6 x 15 | per seat, the cards it surely holds: taken from the pile face up, not shown since |
| owners | 152-397 | 6 x 41 | per side: present, opened, red threes, clean/dirty books, melded / 100, total / 1000, minimum / 100, 11 ranks x (naturals, 2s, jokers) |
| pile_size | 398 | 1 | cards in the discard pile |
| pile_top | 399-413 | 15 | one-hot top card |
| pile_counts | 414-428 | 15 | the pile, count per kind |
| pile_take_window | 429-443 | 15 | the cards a take would bring |
| game | 444-454 | 11 | phase draw/play, deal, deals, stock, my minimum / 100, books needed, partnership, players, opened |
| house | 455-598 | 144 | house only (zero elsewhere): my naturals by suit (44), the top discard's suit (4), my staged runs (4 x length, low) and book of 2s, each side's unfinished runs and book of 2s (6 x 9), the rule flags (4) |
| question | 599-603 | 5 | variation: a permission question stands, I asked it, my partner asked it (I answer), granted this turn, refused this turn |
| variation_rules | 604-615 | 12 | variation rule flags: wild books, wild book to go out, wild book bonus / 1000, black-three groups, book of 7s to go out (any / clean / dirty), take by the table, take with a natural and a wild, a wild freezes the pile, partner on the foot first, permission |
| variation_sides | 616-651 | 6 x 6 | per side: unfinished wild book (2s, jokers), wild books, unfinished group of black threes, books of 7s (clean, dirty) |
| variation_staged | 652-654 | 3 | my staged wild book (2s, jokers) and group of black threes |

`action_mask` is int8, 1 exactly for the legal actions of the agent to move.

## Rewards

`reward_mode="deal"` (default): at the end of each deal every agent receives its side's
deal score minus the mean deal score of the other sides, divided by 1000.
`reward_mode="game"`: at the end of the game +1 for the side with the highest total,
-1 for the others, 0 for everyone on a tie — use it for code that decides the winner from
the last rewards (as PettingZoo's tutorials do): with `"deal"` the last reward is only the
last deal's.  `infos[agent]` holds `team`, `scores` (running totals per side) and `deal`
(1-based), all fixed in size; the legal moves are the mask.  `reset(seed)` seeds
everything random in the env (the deal, and the action spaces' samples).

## Version history

* v0: classic and partnership; then house, with the action and observation layouts unchanged
  in size (house fills room they had reserved); then finite observation bounds, fixed-size
  infos, `illegal_action`, `rgb_array` rendering and the versioned module `handfoot_v0`.
* layout version 2 (0.5.0): every variation of the rules documents (docs/rules.md,
  "Variations"); the action space grew by appending from 173 to 187 actions and the
  observation from 599 to 655 numbers (an index keeps its meaning); the permission question
  makes the asked partner `agent_selection`; six players in three teams.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from handfoot_env import actions as A
from handfoot_env.envs.spaces import LegalDiscrete, mask_box, observation_box
from handfoot_env.render.text import render_view, view_of_vector
from handfoot_env.rules import Rules, rules_or_preset
from handfoot_env.seating.rewards import check_reward_mode, seat_rewards
from handfoot_env.vector import VectorEngine

ILLEGAL_ACTIONS = ("raise", "terminate")  # refuse with IllegalActionError, or PettingZoo's end-with-a-penalty


def env(**kwargs: Any) -> AECEnv:
    """The AEC env with PettingZoo's call-order check.  PettingZoo's AssertOutOfBoundsWrapper
    is left out: ``step`` already refuses an out-of-range action with a clearer message, and
    every wrapper layer costs each attribute read of ``last()`` (a fifth of the step time)."""
    environment = raw_env(**kwargs)
    environment = OrderEnforcing(environment)
    return environment


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` (the same checks), whose ``last()`` asks the env once
    instead of reading its five attributes one by one through the wrapper's ``__getattr__`` (a
    quarter of a random-play step went to those forwarded reads)."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def __str__(self) -> str:
        return str(self.env)

    # The two attributes ``agent_iter`` reads at every step, read here rather than through two
    # layers of ``__getattr__`` (the same refusal before reset).
    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection


class raw_env(AECEnv):
    """Every seat an agent, one moving at a time (PettingZoo AEC; ``env()`` wraps it).

    ``observe(agent)`` and ``last()`` give a dict: ``"observation"`` (float32 ``[OBS_SIZE]``) and
    ``"action_mask"`` (int8 ``[NUM_ACTIONS]``, 1 exactly for the legal actions of the agent to
    move, all zeros for the others), as PettingZoo's classic games do."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "handfoot_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "partnership",
        num_players: int | None = None,
        rules: Rules | None = None,
        render_mode: str | None = None,
        reward_mode: str = "deal",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
    ):
        super().__init__()
        rules = rules_or_preset(rules, preset, num_players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, got {illegal_action!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.reward_mode = check_reward_mode(reward_mode)
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.engine = VectorEngine(rules, batch_size=1, seed=0, auto_reset=False)
        self.possible_agents = [f"player_{i}" for i in range(rules.num_players)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._team = {agent: rules.seat_owners[i] for i, agent in enumerate(self.possible_agents)}
        self._mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        self._no_mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        self.action_spaces = {a: LegalDiscrete(self._legal_for(a)) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation_box(), "action_mask": mask_box()}) for a in self.possible_agents
        }
        self._seed_rng = np.random.default_rng()
        self._seats = np.zeros(1, dtype=np.int64)  # observe's seat and step's action, reused every step
        self._action = np.zeros(1, dtype=np.int64)
        self._zero_rewards = dict.fromkeys(self.possible_agents, 0.0)
        self._view_seat = -1  # whose view self._view is (_refresh)
        self._view = np.zeros(0, dtype=np.float32)

    def _legal_for(self, agent: str):
        return lambda: self._mask if agent == self.agent_selection and agent in self.agents else self._no_mask

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: ``seed`` fixes the deal (and every later reset without one)."""
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            for i, space in enumerate(self.action_spaces.values()):
                space.seed(seed + i)
        game_seed = int(self._seed_rng.integers(0, 2**62)) if seed is None else int(seed)
        self.engine.reset(game_seed)
        self.seed_used = game_seed
        self.agents = self.possible_agents[:]
        self.rewards = dict(self._zero_rewards)
        self._cumulative_rewards = dict(self._zero_rewards)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._refresh(deal_changed=True)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        if seat == self._view_seat:  # the mover's view, as _refresh found it
            observation = self._view.copy()
        else:
            self._seats[0] = seat
            observation = self.engine.observe(self._seats)[0].copy()
        live = agent == self.agent_selection and not self.terminations[agent]
        return {"observation": observation, "action_mask": (self._mask if live else self._no_mask).copy()}

    def step(self, action: int | None) -> None:
        if not self.agents:
            raise RuntimeError("the game is over and every agent has left: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: step(None) is only for agents whose game is over")
        action = A.action_index(action)
        if self.illegal_action == "terminate" and not self._mask[action]:
            self._end_for_illegal_action(agent, action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._action[0] = action
        outcome = self.engine.step(self._action)
        if outcome.deal_over[0]:
            rewards = seat_rewards(self.rules, self.reward_mode, *outcome, self.engine.final_totals)[0]
            self.rewards = {name: float(rewards[seat]) for seat, name in enumerate(self.possible_agents)}
        elif any(self.rewards.values()):
            self.rewards = dict(self._zero_rewards)
        if outcome.game_over[0]:
            self.terminations = dict.fromkeys(self.agents, True)
        self._refresh(deal_changed=bool(outcome.deal_over[0]))
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_for_illegal_action(self, agent: str, action: int) -> None:
        """PettingZoo's convention for illegal moves: the game ends, the offender gets
        ``illegal_reward`` and everyone else 0 (``illegal_action="terminate"``)."""
        reason = self.engine.why_illegal(0, action)
        self.rewards = {a: (self.illegal_reward if a == agent else 0.0) for a in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)
        self._mask[:] = 0
        for name in self.agents:
            self.infos[name] = dict(self.infos[name], illegal_action=f"{agent}: {reason}")
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()

    def _refresh(self, deal_changed: bool) -> None:
        """Mover and mask from the engine's state; the infos too when a deal ended (or the game
        began): what they hold (totals, the deal's number) changes only then."""
        # One engine call: the seat to act (the asked partner too), its mask and its view, which
        # observe() hands out until the next step (an agent observes every turn: last()).
        movers, masks, views = self.engine.look()
        self._view_seat = int(movers[0])
        self._view = views[0]
        self.agent_selection = self.possible_agents[self._view_seat]
        self._mask[:] = masks[0]
        if not deal_changed:
            return
        state = self.engine.states[0]
        scores = state["totals"][: self.rules.num_owners].tolist()  # Python ints
        deal = int(state["deal"]) + 1
        team = self._team
        self.infos = {a: {"team": team[a], "scores": scores, "deal": deal} for a in self.agents}

    def legal_mask(self, agent: str | None = None) -> np.ndarray:
        """The legal actions of ``agent`` (default: the agent to move) as booleans."""
        agent = agent or self.agent_selection
        return (self._mask if agent == self.agent_selection and agent in self.agents else self._no_mask).astype(bool)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode; use render_mode='ansi', 'human' or 'rgb_array'"
            )
            return None
        view = view_of_vector(self.engine, 0)
        if self.render_mode == "rgb_array":
            from handfoot_env.render.picture import draw_table

            return draw_table(view)
        text = render_view(view)
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None

    def close(self) -> None:
        pass
