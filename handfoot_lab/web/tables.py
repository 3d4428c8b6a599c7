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
import operator
import pickle
import threading
import time
from typing import Any

from agents import make_agent
from handfoot_env import actions as A
from handfoot_env.errors import IllegalActionError, RecordError
from handfoot_env.reference import Game
from handfoot_env.reference.record import start_game, to_record, validate_record
from handfoot_env.reference.rule_facts import partners_of
from handfoot_env.rules import Rules
from handfoot_lab.play import CommandError, agent_move, check_answer_only, coach_note, parse_command, private_seed
from handfoot_lab.web.coach import move_costs
from handfoot_lab.web.inputs import Refused, quoted
from handfoot_lab.web.views import position
from handfoot_lab.web.words import move_words, opening_words, still_needed_to_go_out

HUMAN = 0
COACHED_MOVES = 12  # moves a deal's review weighs at most (each costs two play-outs per redeal)
RECORD_IN_PLAY = (
    "the record of a game in play becomes available when the game is over: its seed rebuilds every hidden card"
)


def build_agent(name: str, seed: int, rules: Rules):
    """``make_agent``, with a missing or unloadable model refused in words."""
    try:
        return make_agent(name, seed=seed, rules=rules)
    except (ValueError, OSError) as exc:
        raise Refused(f"agent {name!r}: {exc}") from None


class PlayTable:
    """One person at seat 0, agents in the other seats; Hint and a Coach's review per deal."""

    kind = "play"
    LOG_KEPT = 80  # moves the page's move log shows, the newest first
    COMMAND_CHARS = 200  # of a typed command (a whole hand melded at once needs about 60)

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
        self.moves_seen = 0  # the moves the person has seen (their number in the move log)
        self.log: list[dict[str, Any]] = []  # the last LOG_KEPT moves seen, oldest first
        self.talk: list[dict[str, Any]] = []  # the last question and answer: {seat, said}
        self.reviews: list[dict[str, Any]] = []  # the Coach, one entry per finished deal
        # This deal's moves of the person, for the Coach: how many, how many the hint agent
        # would have changed, and the first of those as (position before, my move, the hint's).
        self._moves_this_deal = self._changed_this_deal = 0
        self._to_weigh: list[tuple[Game, int, int]] = []
        self._agents_play()

    # ------------------------------------------------------------------ answers
    def state(self) -> dict[str, Any]:
        """What the person sees; ``turn`` is the number of moves seen (``_apply``), which a
        move sent back must name."""
        view = position(self.game, HUMAN, names=self.names)
        view.update(kind=self.kind, turn=self.moves_seen, log=self.log, talk=self.talk, reviews=self.reviews)
        return view

    def hint(self) -> dict[str, Any]:
        if self.game.is_over or self.game.mover != HUMAN:
            raise Refused("a hint is for your own turn")
        action = agent_move(self.hint_agent, self.game)
        return {
            "action": action,
            "kind": A.decode(action).kind,
            "words": move_words(action, self.game),
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
        if turn != self.moves_seen:
            raise Refused(
                f"stale move: the game is at move {self.moves_seen}, this was for move {quoted(turn)}; "
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
            self._weigh_later(a)
            self._apply(HUMAN, a)
            if game.is_over or game.mover != HUMAN:
                break
        self._agents_play()
        return self.state()

    def _weigh_later(self, mine: int) -> None:
        """Note the person's move for the deal's review: counted, and when the hint agent
        would have played another (:func:`same_decision`), the position kept for the Coach
        to weigh, the first ``COACHED_MOVES`` of the deal only (a position is a deep copy)."""
        theirs = agent_move(self.hint_agent, self.game)
        self._moves_this_deal += 1
        if same_decision(self.game, mine, theirs):
            return
        self._changed_this_deal += 1
        if len(self._to_weigh) < COACHED_MOVES:
            self._to_weigh.append((copy.deepcopy(self.game), mine, theirs))

    def _actions(self, action: Any, command: Any) -> list[int]:
        if (action is None) == (command is None):
            raise Refused("send either 'action' (an action index) or 'command' (e.g. \"m K K K\")")
        if command is not None:
            if not isinstance(command, str) or len(command) > self.COMMAND_CHARS:
                raise Refused(f"'command' must be text of at most {self.COMMAND_CHARS} characters, e.g. \"m K K K\"")
            try:
                verb, actions = parse_command(self.game, command)
            except (CommandError, ValueError) as exc:
                raise Refused(str(exc)) from None
            if verb != "move" or not actions:
                raise Refused(f"{quoted(command)} is not a move")
            return actions
        try:
            actions = [A.action_index(action)]
            check_answer_only(self.game, actions)  # before anything reads the asker's hand
        except ValueError as exc:
            raise Refused(str(exc)) from None
        return actions

    def _apply(self, seat: int, action: int) -> None:
        """Play ``action`` for ``seat`` and note it in the move log as the person saw it.

        Another seat's staging is not seen: its staged melds stay in its hand, and go back
        there unless they reach the opening minimum (docs/rules.md "Opening"); what is seen is
        the move that opens, with the melds it lays down.  So the log numbers the moves the
        person saw (``moves_seen``, also the page's move number), and a staging that comes to
        nothing leaves no trace in any answer."""
        game = self.game
        owner = game.rules.owner_of(seat)
        opened_before = game.sides[owner].opened
        staging = seat != HUMAN and not opened_before and A.decode(action).kind in A.MELD_KINDS
        words = "" if staging else move_words(action, game)
        deals = len(game.deal_results)
        try:
            game.step(action)
        except IllegalActionError as exc:  # checked before; never expected
            raise Refused(str(exc)) from None
        opens = seat != HUMAN and not opened_before and game.sides[owner].opened and len(game.deal_results) == deals
        if opens:
            words = f"{words}; {opening_words(game, owner)}" if words else opening_words(game, owner)
        if words:
            self.moves_seen += 1
            self.log.append(
                {
                    "move": self.moves_seen,
                    "seat": seat,
                    "name": self.names[seat],
                    "words": words,
                    "deal": game.deal_index + 1,
                }
            )
        self._talk(seat, action)
        if len(game.deal_results) > deals:
            result = game.deal_results[-1]
            ended = f"deal {result.deal_index + 1} ended ({result.ended_by}): " + ", ".join(map(str, result.scores))
            self.log.append({"move": None, "seat": None, "name": "", "words": ended, "deal": result.deal_index + 1})
            self.talk = []
            self.reviews.append(self._review(result.deal_index))
        del self.log[: -self.LOG_KEPT]

    def _talk(self, seat: int, action: int) -> None:
        """The question "may I go out?" and its answer are said aloud (docs/rules.md
        "Variations"): the page shows the last exchange until the person's next discard."""
        said = {A.ASK_TO_GO_OUT: "may I go out?", A.ANSWER_YES: "yes", A.ANSWER_NO: "no"}.get(action)
        if action == A.ASK_TO_GO_OUT:
            self.talk = [{"seat": seat, "said": said}]
        elif said is not None:
            self.talk = [*self.talk, {"seat": seat, "said": said}]
        elif seat == HUMAN and A.decode(action).kind in ("discard", "discard_suited"):
            self.talk = []

    def _agents_play(self) -> None:
        while not self.game.is_over and self.game.mover != HUMAN:
            self._apply(self.game.mover, agent_move(self.agents[self.game.mover], self.game))

    # ------------------------------------------------------------------ the Coach
    def _review(self, deal_index: int) -> dict[str, Any]:
        """The person's moves of a finished deal that the hint agent would have changed, each
        with the tip it breaks and what it cost: both moves played out to the end of the deal
        with the heuristic in every seat, on redeals of the cards the person could not see
        (``coach.move_costs``), deal margins compared."""
        weighed, self._to_weigh = self._to_weigh, []
        moves, changed = self._moves_this_deal, self._changed_this_deal
        self._moves_this_deal = self._changed_this_deal = 0
        costs = move_costs(
            [before for before, _, _ in weighed],
            [mine for _, mine, _ in weighed],
            [theirs for _, _, theirs in weighed],
            seed=private_seed(self.secret, deal_index, len(self.game.actions)),
        )
        notes = [
            {
                "move": move_words(mine, before),
                "instead": move_words(theirs, before),
                "tip": coach_note(before, mine, theirs),
                "cost": cost,
            }
            for (before, mine, theirs), cost in zip(weighed, costs)
        ]
        notes.sort(key=operator.itemgetter("cost"), reverse=True)  # stable: ties keep their order
        return {"deal": deal_index + 1, "moves": moves, "changed": changed, "notes": notes}


def same_decision(before: Game, mine: int, theirs: int) -> bool:
    """Whether the person's move ``mine`` is the hint agent's decision ``theirs``.  Asking
    "may I go out?" is one decision, whenever in the turn it is asked: the hint agent asks
    when its side has all it needs to go out, so an ask then is its decision too, even where
    the hint agent would first draw or meld (docs/rules.md "Variations": when asking is legal)."""
    if mine == theirs:
        return True
    if mine != A.ASK_TO_GO_OUT or still_needed_to_go_out(before, before.owner()):
        return False
    partners_on_foot = all(before.seats[seat].on_foot for seat in partners_of(before.rules, before.current))
    return partners_on_foot or not before.rules.partner_foot_first


def why(game: Game, action: int) -> str:
    """A short reason for a hinted move, in the terms of docs/rules.md ("Playing well")."""
    act = A.decode(action)
    if act.kind == "ask_to_go_out":
        return "your side has what it needs to go out: ask your partner, then go out"
    if act.kind == "answer_yes":
        return "your cards still held cost less than the going-out bonus: let your partner end the deal"
    if act.kind == "answer_no":
        return "your cards still held would cost more than the going-out bonus: play on first"
    if act.kind == "draw":
        return "nothing in the pile is worth taking now: draw two"
    if act.kind in ("take_pile", "take_onto_table", "take_with_wild"):
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
    MOST_STEPS = 200  # moves one request may advance (the page asks for one at a time)

    def __init__(self, rules: Rules, seed: int, agents: list[str], secret: int):
        self.game = Game(rules, seed)
        self.lock = threading.Lock()
        secret = private_seed(secret, seed)
        self.agents = [
            build_agent(agents[i % len(agents)], private_seed(secret, i), rules) for i in range(rules.num_players)
        ]
        self.names = [agents[i % len(agents)] for i in range(rules.num_players)]

    def advance(self, steps: Any) -> None:
        if not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps <= self.MOST_STEPS:
            raise Refused(f"'steps' must be a whole number from 1 to {self.MOST_STEPS}")
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
    """A record, stepped forward and back; hidden cards shown or not.

    Opening a record replays it once, keeping a snapshot every ``SNAPSHOT_EVERY`` moves so that
    a step anywhere replays at most that many.  What that costs is bounded: at most
    ``MOST_ACTIONS`` moves, ``REPLAY_SECONDS`` of the opening thread's CPU time, and a scenario
    of ``SCENARIO_CHARS`` characters; snapshots are kept pickled (a few KB each, where a live
    game is ten times that)."""

    kind = "replay"
    SNAPSHOT_EVERY = 200
    MOST_ACTIONS = 30_000  # a 30-deal house game between agents has about 10,000
    REPLAY_SECONDS = 3.0
    SCENARIO_CHARS = 20_000

    def __init__(self, record: Any):
        if isinstance(record, dict):
            actions, scenario = record.get("actions"), record.get("scenario")
            if isinstance(actions, list) and len(actions) > self.MOST_ACTIONS:
                raise Refused(
                    f"record: {len(actions)} moves, more than the {self.MOST_ACTIONS} a replay here takes", 413
                )
            if isinstance(scenario, str) and len(scenario) > self.SCENARIO_CHARS:
                raise Refused(f"record: its scenario is over {self.SCENARIO_CHARS} characters", 413)
        try:
            validate_record(record)
            game = start_game(record)
        except RecordError as exc:
            raise Refused(str(exc)) from None
        self.lock = threading.Lock()
        self.actions = list(record["actions"])
        self.snapshots = [pickle.dumps(game)]
        self.deal_starts = [0]
        deadline = time.thread_time() + self.REPLAY_SECONDS
        for index, action in enumerate(self.actions):
            if game.is_over:
                raise Refused(f"record step {index}: the game ended before this move ({quoted(action)})")
            deals = len(game.deal_results)
            try:
                game.step(action)
            except IllegalActionError:
                raise Refused(
                    f"record step {index}: action {action} is illegal here: {game.why_illegal(action)}"
                ) from None
            if len(game.deal_results) > deals and not game.is_over:
                self.deal_starts.append(index + 1)
            if (index + 1) % self.SNAPSHOT_EVERY == 0:
                self.snapshots.append(pickle.dumps(game))
                if time.thread_time() > deadline:
                    raise Refused(
                        f"record: replaying it takes more than {self.REPLAY_SECONDS:g} s here (stopped at move "
                        f"{index + 1} of {len(self.actions)}); handfoot replay plays it in the terminal",
                        413,
                    )
        self.step = 0
        self.game = pickle.loads(self.snapshots[0])

    def goto(self, step: Any = None, deal: Any = None) -> None:
        if deal is not None:
            if not isinstance(deal, int) or isinstance(deal, bool) or not 1 <= deal <= len(self.deal_starts):
                raise Refused(f"'deal' must be from 1 to {len(self.deal_starts)}")
            step = self.deal_starts[deal - 1]
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= len(self.actions):
            raise Refused(f"'step' must be a move number from 0 to {len(self.actions)}")
        game = pickle.loads(self.snapshots[step // self.SNAPSHOT_EVERY])
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
