"""A table: B games on the vector engine with an agent in every seat — the one loop that
plays games with agents, used by evaluation, ``handfoot game``, the benchmark and the learner's
games against opponents (``learner.py``, under every single-learner shell).

    seating = Seating(engine, [team, opponent])
    seating.seat_agents = np.where(sides_of_seats == team_side[:, None], 0, 1)  # [B, players]
    seating.play()                                  # until every game is over

A seat whose agent index is ``-1`` belongs to the caller: :meth:`Seating.play` stops in a
game as soon as such a seat is to move (the learner sits there).

Each round every agent is asked once, for all the games where it is to move, with copies of
those games' masks and observations (it may keep them).  An agent that decides from the mask
alone (``reads_observations = False``, as random and greedy) is passed None, and no
observation is computed for it.  An agent's illegal action raises ``IllegalActionError``
naming that agent, its seat and the game, and nothing moves.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from handfoot_env.baselines import Agent
from handfoot_env.errors import IllegalActionError
from handfoot_env.vector import VectorEngine
from handfoot_env.vector.engine import StepOutcome

CALLER = -1  # seat_agents entry of a seat the caller plays


def reads_observations(agent: Agent) -> bool:
    """Whether ``agent`` reads its observations (it does unless it says otherwise)."""
    return bool(getattr(agent, "reads_observations", True))


class Seating:
    """Agents seated at the ``engine``'s games: ``seat_agents[b, seat]`` indexes ``agents``."""

    def __init__(self, engine: VectorEngine, agents: Sequence[Agent]):
        self.engine = engine
        self.agents = list(agents)
        self.agent_seconds = 0.0  # time spent in the agents' act(), for throughput accounting
        self._rows = np.arange(engine.batch_size)
        self._first_entry = self._rows * engine.rules.num_players  # each game's row in seat_agents, flat
        self.seat_agents = np.zeros((engine.batch_size, engine.rules.num_players), dtype=np.int64)

    @property
    def seat_agents(self) -> np.ndarray:
        """``[B, players]``: the index into ``agents`` of each seat's agent, or ``CALLER``."""
        return self._seat_agents

    @seat_agents.setter
    def seat_agents(self, value: np.ndarray) -> None:
        self._seat_agents = np.array(value, dtype=np.int64).reshape(self.engine.batch_size, -1)
        self._has_callers = bool((self._seat_agents == CALLER).any())

    def seat(self, rows: np.ndarray, agents: np.ndarray) -> None:
        """Reseat the games at ``rows``: ``agents`` is ``[len(rows), players]`` (or broadcasts)."""
        self._seat_agents[rows] = agents
        if (np.asarray(agents) == CALLER).any():
            self._has_callers = True
        elif self._has_callers:  # callers may have left with these rows: look at every game
            self._has_callers = bool((self._seat_agents == CALLER).any())

    def agents_to_move(self) -> np.ndarray:
        """``[B]``: the agent index of each game's player to move (``CALLER`` for the caller's)."""
        return self._seat_agents.reshape(-1)[self._first_entry + self.engine.current_player]

    def play(
        self,
        active: np.ndarray | None = None,
        max_steps: int | None = None,
        on_step: Callable[[StepOutcome, np.ndarray, np.ndarray], None] | None = None,
    ) -> int:
        """Let the agents move, all games at once, until in every ``active`` game the game is
        over or a caller's seat is to move (or after ``max_steps`` batch steps).  After each
        step ``on_step(outcome, stepped, actions)`` sees which games moved and how; it may
        restart or reseat games.  Returns the number of batch steps taken."""
        engine = self.engine
        steps = 0
        while max_steps is None or steps < max_steps:
            movers = None
            if len(self.agents) == 1 and not self._has_callers:
                to_play = ~engine.is_over  # it moves wherever a game goes on
            else:
                movers = self.agents_to_move()
                to_play = (movers != CALLER) & ~engine.is_over
            if active is not None:
                to_play &= active
            playing = np.count_nonzero(to_play)
            if not playing:
                break
            everyone = movers is None and active is None and playing == engine.batch_size
            if everyone:
                agent = self.agents[0]
                masks = engine.legal_mask()
                observations: Any = engine.observe() if reads_observations(agent) else None  # None: unread
                started = time.perf_counter()
                actions = agent.act(observations, masks)
            else:
                # Only the games where an agent moves are looked at (the caller's games wait).
                rows = np.flatnonzero(to_play)
                masks = engine.legal_mask(rows=rows)
                # Each agent to move in some game, in index order, with the rows of its games
                # (None: every row).  What an agent gets are copies, not views of the engine's
                # buffers that its next call rewrites (it may keep them).
                if len(self.agents) == 1:
                    groups: list[tuple[int, np.ndarray | None]] = [(0, None)]
                else:
                    movers = (self.agents_to_move() if movers is None else movers)[rows]
                    present = np.flatnonzero(np.bincount(movers, minlength=len(self.agents)))
                    groups = (
                        [(int(present[0]), None)] if len(present) == 1 else [(int(k), movers == k) for k in present]
                    )
                readers = any(reads_observations(self.agents[k]) for k, _ in groups)
                observations = engine.observe(rows=rows) if readers else None
                started = time.perf_counter()
                actions = np.zeros(engine.batch_size, dtype=np.int64)
                for k, theirs in groups:
                    agent = self.agents[k]
                    seen: Any = None
                    if theirs is None:
                        if observations is not None and reads_observations(agent):
                            seen = observations.copy()
                        actions[rows] = agent.act(seen, masks.copy())
                    else:
                        if observations is not None and reads_observations(agent):
                            seen = observations[theirs]
                        actions[rows[theirs]] = agent.act(seen, masks[theirs])
            self.agent_seconds += time.perf_counter() - started
            try:
                outcome = engine.step(actions, active=None if everyone else to_play)
            except IllegalActionError as exc:
                raise self._whose(exc) from None
            steps += 1
            if on_step is not None:
                on_step(outcome, to_play, actions)
        return steps

    def _whose(self, exc: IllegalActionError) -> IllegalActionError:
        """The engine's refusal of an agent's action, naming that agent and its seat (the games
        are as they were: the engine changed none)."""
        if exc.game is None:
            return exc
        seat = int(self.engine.current_player[exc.game])
        index = int(self._seat_agents[exc.game, seat])
        if index == CALLER:
            return exc
        name = getattr(self.agents[index], "name", type(self.agents[index]).__name__)
        who = f"agent {name!r} in seat {seat}"
        return IllegalActionError(exc.action, exc.description, exc.reason, game=exc.game, agent=who)


__all__ = ["CALLER", "Seating", "reads_observations"]
