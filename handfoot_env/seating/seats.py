"""A table: B games on the vector engine with an agent in every seat — the one loop that
plays games with agents, used by evaluation, ``handfoot game``, the benchmark and the SB3 env.

    seating = Seating(engine, [team, opponent])
    seating.seat_agents = np.where(sides_of_seats == team_side[:, None], 0, 1)  # [B, players]
    seating.play()                                  # until every game is over

A seat whose agent index is ``-1`` belongs to the caller: :meth:`Seating.play` stops in a
game as soon as such a seat is to move (the SB3 env's learner sits there).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from handfoot_env.baselines import Agent
from handfoot_env.vector import VectorEngine
from handfoot_env.vector.engine import StepOutcome

CALLER = -1  # seat_agents entry of a seat the caller plays


class Seating:
    """Agents seated at the ``engine``'s games: ``seat_agents[b, seat]`` indexes ``agents``."""

    def __init__(self, engine: VectorEngine, agents: Sequence[Agent]):
        self.engine = engine
        self.agents = list(agents)
        self.agent_seconds = 0.0  # time spent in the agents' act(), for throughput accounting
        self._rows = np.arange(engine.batch_size)
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
        self._has_callers = bool((self._seat_agents == CALLER).any())

    def agents_to_move(self) -> np.ndarray:
        """``[B]``: the agent index of each game's player to move (``CALLER`` for the caller's)."""
        return self._seat_agents[self._rows, self.engine.current_player]

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
                masks, observations = engine.legal_mask(), engine.observe()
                started = time.perf_counter()
                actions = self.agents[0].act(observations, masks)
            else:
                # Only the games where an agent moves are looked at (the caller's games wait).
                rows = np.flatnonzero(to_play)
                masks, observations = engine.legal_mask(rows=rows), engine.observe(rows=rows)
                started = time.perf_counter()
                actions = np.zeros(engine.batch_size, dtype=np.int64)
                movers = (self.agents_to_move() if movers is None else movers)[rows]
                for k in np.unique(movers):
                    theirs = movers == k
                    actions[rows[theirs]] = self.agents[k].act(observations[theirs], masks[theirs])
            self.agent_seconds += time.perf_counter() - started
            outcome = engine.step(actions, active=None if everyone else to_play)
            steps += 1
            if on_step is not None:
                on_step(outcome, to_play, actions)
        return steps


__all__ = ["CALLER", "Seating"]
