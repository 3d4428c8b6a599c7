"""The tables a browser session can sit at: play against agents, watch agents, replay a record.

Each wraps a reference :class:`Game` (exact, with the refusal reasons in words) and answers
with ``views.position`` — what its seat may know.  Requests that cannot be honoured raise
:class:`Refused` (the game unchanged); the app turns it into a clear JSON error.

A game being played keeps its hidden cards hidden in every answer: its record (which holds
the seed, and the seed rebuilds every card) is given only once the game is over; the agents'
and the Coach's randomness comes from the server's secret, never from the game's seed; and
the Coach weighs moves on redeals of the unseen cards (``coach.py``), not on the real ones.
"""

from __future__ import annotations

import copy
import threading
from typing import Any

from agents import make_agent
from handfoot_env import actions as A
from handfoot_env.errors import IllegalActionError, RecordError
from handfoot_env.reference import Game
from handfoot_env.reference.record import start_game, to_record, validate_record
from handfoot_env.rules import Rules
from handfoot_lab.play import (
    CommandError,
    agent_move,
    check_answer_only,
    coach_note,
    command_for,
    parse_command,
    private_seed,
)
from handfoot_lab.web.coach import move_costs
from handfoot_lab.web.views import position

HUMAN = 0
LOG_LENGTH = 40  # recent moves kept for the page
COACHED_MOVES = 12  # moves a deal's review weighs at most (each costs two play-outs per redeal)
RECORD_IN_PLAY = (
    "the record of a game in play becomes available when the game is over: its seed rebuilds every hidden card"
)


class Refused(Exception):
    """A request the table cannot honour; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def build_agent(name: str, seed: int, rules: Rules):
    """``make_agent``, with a missing or unloadable model refused in words."""
    try:
        return make_agent(name, seed=seed, rules=rules)
    except (ValueError, OSError) as exc:
        raise Refused(f"agent {name!r}: {exc}") from None


class PlayTable:
    """One person at seat 0, agents in the other seats; Hint and a Coach's review per deal."""

    kind = "play"

    def __init__(self, rules: Rules, seed: int, opponents: str, partner: str, hint: str, secret: int):
        """``secret`` is the server's: the agents' and the Coach's seeds come from it (and the
        game's seed), so that nothing they do can be worked back to the game's seed."""
        self.game = Game(rules, seed)
        self.lock = threading.Lock()
        self.secret = private_seed(secret, seed)
        self.agents: dict[int, Any] = {}
        self.names = ["you"] + [""] * (rules.num_players - 1)
        for seat in range(1, rules.num_players):
            partner_seat = rules.owner_of(seat) == rules.owner_of(HUMAN)
            name = partner if partner_seat else opponents
            self.agents[seat] = build_agent(name, private_seed(self.secret, seat), rules)
            self.names[seat] = name + (" (partner)" if partner_seat else "")
        self.hint_agent = build_agent(hint, private_seed(self.secret, HUMAN), rules)
        self.log: list[dict[str, Any]] = []
        self.reviews: list[dict[str, Any]] = []  # the Coach, one entry per finished deal
        self._my_moves: list[tuple[Game, int, int]] = []  # (position before, my move, the hint's move)
        self._agents_play()

    # ------------------------------------------------------------------ answers
    def state(self) -> dict[str, Any]:
        view = position(self.game, HUMAN, names=self.names)
        view.update(kind=self.kind, log=self.log[-LOG_LENGTH:], reviews=self.reviews)
        return view

    def hint(self) -> dict[str, Any]:
        if self.game.is_over or self.game.mover != HUMAN:
            raise Refused("a hint is for your own turn")
        action = agent_move(self.hint_agent, self.game)
        return {
            "action": action,
            "text": A.describe(action, self.game.rules),
            "command": command_for(action, self.game),
            "why": why(self.game, action),
            "agent": self.hint_agent.name,
        }

    def record(self) -> dict[str, Any]:
        """The game as a record, once it is over (:data:`RECORD_IN_PLAY` until then)."""
        if not self.game.is_over:
            raise Refused(RECORD_IN_PLAY, status=409)
        return to_record(self.game)

    # ------------------------------------------------------------------ moves
    def act(self, turn: Any, action: Any = None, command: Any = None) -> dict[str, Any]:
        """The person's move (an action index, or a command as the terminal game takes it),
        then the agents' moves until the person is to move again."""
        game = self.game
        if not isinstance(turn, int) or isinstance(turn, bool):
            raise Refused("'turn' must be the move number the page shows (an integer)")
        if turn != len(game.actions):
            raise Refused(
                f"stale move: the game is at move {len(game.actions)}, this was for move {turn}; "
                "the page has been refreshed",
                status=409,
            )
        if game.is_over:
            raise Refused("the game is over: start a new one", status=409)
        if game.mover != HUMAN:  # the seat to act: the person's partner's question is the person's to answer
            raise Refused("it is not your turn", status=409)
        actions = self._actions(action, command)
        for a in actions:  # parse_command checked them whole; a single index is checked here
            reason = game.why_illegal(a)
            if reason is not None:
                raise Refused(f"{A.describe(a, game.rules)}: {reason}")
        for a in actions:
            before = copy.deepcopy(game)
            self._my_moves.append((before, a, agent_move(self.hint_agent, before)))
            self._apply(HUMAN, a)
            if game.is_over or game.mover != HUMAN:
                break
        self._agents_play()
        return self.state()

    def _actions(self, action: Any, command: Any) -> list[int]:
        if (action is None) == (command is None):
            raise Refused("send either 'action' (an action index) or 'command' (e.g. \"m K K K\")")
        if command is not None:
            if not isinstance(command, str):
                raise Refused('\'command\' must be text, e.g. "m K K K" or "d 7"')
            try:
                verb, actions = parse_command(self.game, command)
            except (CommandError, ValueError) as exc:
                raise Refused(str(exc)) from None
            if verb != "move" or not actions:
                raise Refused(f"{command!r} is not a move")
            return actions
        try:
            actions = [A.action_index(action)]
            check_answer_only(self.game, actions)  # before anything reads the asker's hand
        except ValueError as exc:
            raise Refused(str(exc)) from None
        return actions

    def _apply(self, seat: int, action: int) -> None:
        deals = len(self.game.deal_results)
        self.log.append(
            {
                "seat": seat,
                "name": self.names[seat],
                "text": A.describe(action, self.game.rules),
                "deal": self.game.deal_index + 1,
            }
        )
        try:
            self.game.step(action)
        except IllegalActionError as exc:  # checked before; never expected
            raise Refused(str(exc)) from None
        if len(self.game.deal_results) > deals:
            result = self.game.deal_results[-1]
            self.log.append(
                {
                    "seat": None,
                    "name": "",
                    "text": f"deal {result.deal_index + 1} ended ({result.ended_by}): "
                    + ", ".join(str(s) for s in result.scores),
                    "deal": result.deal_index + 1,
                }
            )
            self.reviews.append(self._review(result.deal_index))

    def _agents_play(self) -> None:
        while not self.game.is_over and self.game.mover != HUMAN:
            self._apply(self.game.mover, agent_move(self.agents[self.game.mover], self.game))

    # ------------------------------------------------------------------ the Coach
    def _review(self, deal_index: int) -> dict[str, Any]:
        """The person's moves of a finished deal that the hint agent would have changed, each
        with the tip it breaks and what it cost: both moves played out to the end of the deal
        with the heuristic in every seat, on redeals of the cards the person could not see
        (``coach.move_costs``), deal margins compared."""
        moves, self._my_moves = self._my_moves, []
        changed = [(before, mine, theirs) for before, mine, theirs in moves if mine != theirs]
        weighed = changed[:COACHED_MOVES]
        costs = move_costs(
            [before for before, _, _ in weighed],
            [mine for _, mine, _ in weighed],
            [theirs for _, _, theirs in weighed],
            seed=private_seed(self.secret, deal_index, len(self.game.actions)),
        )
        notes = [
            {
                "move": A.describe(mine, before.rules),
                "instead": A.describe(theirs, before.rules),
                "command": command_for(theirs, before),
                "tip": coach_note(before, mine, theirs),
                "cost": cost,
            }
            for (before, mine, theirs), cost in zip(weighed, costs)
        ]
        notes.sort(key=lambda n: -n["cost"])
        return {"deal": deal_index + 1, "moves": len(moves), "changed": len(changed), "notes": notes}


def why(game: Game, action: int) -> str:
    """A short reason for a hinted move, in the terms of docs/rules.md ("Playing well")."""
    act = A.decode(action)
    if act.kind == "draw":
        return "nothing in the pile is worth taking now: draw two"
    if act.kind == "take_pile":
        return f"the pile brings {min(len(game.pile), 7)} cards and goes straight into a group"
    if act.kind in ("discard", "discard_suited"):
        return "the card least useful to you: not a pair, not for your groups, no gift to the next player"
    if not game.sides[game.owner()].opened:
        return f"staging toward the opening minimum ({game.minimum(game.owner())} points)"
    if act.kind in ("add_two", "add_joker"):
        return "a wild finishes a dirty book; clean groups you still need stay clean"
    return "cards on the table score, and groups become books"


class WatchTable:
    """Agents in every seat; the page advances the game at its own speed."""

    kind = "watch"

    def __init__(self, rules: Rules, seed: int, agents: list[str], secret: int):
        self.game = Game(rules, seed)
        self.lock = threading.Lock()
        secret = private_seed(secret, seed)
        self.agents = [
            build_agent(agents[i % len(agents)], private_seed(secret, i), rules) for i in range(rules.num_players)
        ]
        self.names = [agents[i % len(agents)] for i in range(rules.num_players)]

    def advance(self, steps: Any) -> None:
        if not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps <= 1000:
            raise Refused("'steps' must be a whole number from 1 to 1000")
        for _ in range(steps):
            if self.game.is_over:
                break
            self.game.step(agent_move(self.agents[self.game.mover], self.game))

    def state(self, seat: int | None = None, reveal: bool = False) -> dict[str, Any]:
        seat = self.game.mover if seat is None else seat
        view = position(self.game, seat, reveal=reveal, names=self.names)
        view.update(kind=self.kind, legal=[])
        return view

    def record(self) -> dict[str, Any]:
        return to_record(self.game)


class ReplayTable:
    """A record, stepped forward and back; hidden cards shown or not."""

    kind = "replay"
    SNAPSHOT_EVERY = 200

    def __init__(self, record: Any):
        try:
            validate_record(record)
            game = start_game(record)
        except RecordError as exc:
            raise Refused(str(exc)) from None
        self.lock = threading.Lock()
        self.actions = list(record["actions"])
        self.snapshots = [copy.deepcopy(game)]
        self.deal_starts = [0]
        for index, action in enumerate(self.actions):
            reason = game.why_illegal(action)
            if reason is not None:
                raise Refused(f"record step {index}: action {action} is illegal here: {reason}")
            deals = len(game.deal_results)
            game.step(action)
            if len(game.deal_results) > deals and not game.is_over:
                self.deal_starts.append(index + 1)
            if (index + 1) % self.SNAPSHOT_EVERY == 0:
                self.snapshots.append(copy.deepcopy(game))
        self.step = 0
        self.game = copy.deepcopy(self.snapshots[0])

    def goto(self, step: Any = None, deal: Any = None) -> None:
        if deal is not None:
            if not isinstance(deal, int) or isinstance(deal, bool) or not 1 <= deal <= len(self.deal_starts):
                raise Refused(f"'deal' must be from 1 to {len(self.deal_starts)}")
            step = self.deal_starts[deal - 1]
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= len(self.actions):
            raise Refused(f"'step' must be a move number from 0 to {len(self.actions)}")
        game = copy.deepcopy(self.snapshots[step // self.SNAPSHOT_EVERY])
        for action in self.actions[len(game.actions) : step]:
            game.step(action)
        self.game, self.step = game, step

    def state(self, seat: int | None = None, reveal: bool = False) -> dict[str, Any]:
        seat = self.game.mover if seat is None else seat
        view = position(self.game, seat, reveal=reveal)
        next_action = self.actions[self.step] if self.step < len(self.actions) else None
        view.update(
            kind=self.kind,
            legal=[],
            step=self.step,
            steps=len(self.actions),
            deal_starts=self.deal_starts,
            next=A.describe(next_action, self.game.rules) if next_action is not None else None,
        )
        return view


__all__ = ["PlayTable", "Refused", "ReplayTable", "WatchTable"]
