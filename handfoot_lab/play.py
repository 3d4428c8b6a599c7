"""``handfoot play``: one person against agents in the terminal (or over a plain pipe).

The person sits at seat 0 (in ``partnership`` with an agent partner at seat 2).  Commands:

    s               draw two from the stock
    p               pick up the discard pile (the matching pair is chosen for you)
    m K K K         meld: cards of one rank (and wilds) start or grow that rank's group;
                    several groups at once with commas: m K K K, Q Q Jk
    m K: 2 Jk       add wilds to your group of K
    d 7             discard a card (ends the turn)
  house only (runs, suits):
    p               one card from the stock plus the top discard
    r 4h 5h 6h      start a run (one suit, in sequence); r 7h extends your run of hearts
    m 2 2 2         start (or grow: m 2) your book of 2s
    d Kh            discard names the suit of a natural (d K when you hold one suit of K)
                    a book's natural cards leave your hand from your shortest suit
    h               hint: what the hint agent would play now
    t               the score sheet
    ?               help
    q               quit

Before your side has opened, melds are staged until they reach the deal's minimum (they
go back to your hand at the discard otherwise).  Only legal moves are accepted; a refused
move says why.  After each of your turns the Coach notes any advice of docs/rules.md ("Playing well") you
broke, with what the hint agent would have played instead.

Nothing printed while the game is on tells a hidden card or the seed.  A session given no
seed deals from an unpredictable one (``secrets``, 62 bits: too many to search from one's
own hand), and the agents' randomness comes from a secret of the session, never from the
game's seed.
"""

from __future__ import annotations

import copy
import secrets
import sys
from collections.abc import Callable

import numpy as np

from handfoot_env import actions as A
from handfoot_env.cards import (
    JOKER,
    KIND_NAMES,
    NUM_SUITS,
    SUIT_LETTERS,
    TWO,
    is_natural,
    natural_kind,
    parse_card,
    parse_kind,
    rank_of,
)
from handfoot_env.errors import IllegalActionError
from handfoot_env.reference import Game
from handfoot_env.reference.observe import observe
from handfoot_env.reference.state import count_books, unfinished_group, unfinished_run, unfinished_twos_book
from handfoot_env.render.text import format_hand, render_scores, render_table
from handfoot_env.rules import Rules

HUMAN = 0
SEED_BITS = 62  # a default seed: unpredictable, and still an int64 for the vector engine
HELP = """commands:
  s            draw two from the stock          p            pick up the discard pile
  m K K K      meld (one rank, wilds allowed; several groups: m K K K, Q Q Jk)
  m K: 2 Jk    add wilds to your group of K     d 7          discard (ends the turn)
  h            hint                             t            score sheet
  ?            this help                        q            quit
  a 176        play action 176 by its index (handfoot actions lists them: the variations' takes and melds)
  ask          ask your partner: may I go out?  yes / no     answer your partner's question"""
HOUSE_HELP = """house:
  p            one card from the stock plus the top discard
  r 4h 5h 6h   start a run (one suit, in sequence)   r 7h   extend your run of hearts
  m 2 2 2      start your book of 2s (m 2 adds one)
  d Kh         discard names the suit (d K when you hold one suit of K)
  (a book's natural cards leave your hand from your shortest suit)"""


def unpredictable_seed() -> int:
    """A game seed nobody can guess or search for: ``SEED_BITS`` random bits from ``secrets``."""
    return secrets.randbits(SEED_BITS)


def private_seed(secret: int, *parts: int) -> int:
    """A seed only the holder of ``secret`` can compute: ``secret`` and ``parts`` (whole numbers
    of any size) hashed together by numpy's ``SeedSequence``, ``SEED_BITS`` bits."""
    state = np.random.SeedSequence([secret, *parts]).generate_state(1, np.uint64)[0]
    return int(state) >> (64 - SEED_BITS)


def command_for(action: int, game: Game | None = None) -> str:
    """The command a person would type for ``action`` (used by Hint); extending a run
    names its card, which needs the ``game``."""
    act = A.decode(action)
    words = {"ask_to_go_out": "ask", "answer_yes": "yes", "answer_no": "no"}
    if act.kind in words:
        return words[act.kind]
    if action >= A.TAKE_ONTO_TABLE:  # the variations' other actions: by index
        return f"a {action}"
    if act.kind == "draw":
        return "s"
    if act.kind == "take_pile":
        return "p"
    if act.kind == "discard":
        return f"d {KIND_NAMES[act.card]}"
    if act.kind == "discard_suited":
        return f"d {KIND_NAMES[natural_kind(act.rank)]}{SUIT_LETTERS[act.suit]}"
    if act.kind == "start_run":
        return "r " + " ".join(
            KIND_NAMES[natural_kind(r)] + SUIT_LETTERS[act.suit] for r in range(act.rank, act.rank + 3)
        )
    if act.kind in ("extend_run_down", "extend_run_up"):
        run = None
        if game is not None:
            side = game.sides[game.owner()]
            run = unfinished_run(
                side.groups if side.opened else game.seats[game.current].staged, act.suit, game.rules.book_size
            )
        if run is None:
            return f"r ({act.kind.replace('_', ' ')} of {SUIT_LETTERS[act.suit]})"
        r = run.low - 1 if act.kind == "extend_run_down" else run.high + 1
        return f"r {KIND_NAMES[natural_kind(r)]}{SUIT_LETTERS[act.suit]}"
    if act.kind == "start_twos_book":
        return "m 2 2 2"
    if act.kind == "add_two_to_twos_book":
        return "m 2"
    name = KIND_NAMES[natural_kind(act.rank)]
    if act.kind == "start_group":
        return "m " + " ".join([name, name] + [[name], ["2"], ["Jk"]][act.composition])
    if act.kind == "add_natural":
        return f"m {name}"
    return f"m {name}: {'2' if act.kind == 'add_two' else 'Jk'}"


def agent_move(agent, game: Game) -> int:
    """The move ``agent`` chooses for the seat to act in ``game`` (the asked partner while a
    permission question stands)."""
    return int(agent.act(observe(game, game.mover)[None], game.legal_mask()[None])[0])


class CommandError(ValueError):
    pass


def _melds_in_play(game: Game):
    side = game.sides[game.owner()]
    return side.groups if side.opened else game.seats[game.current].staged


def parse_run(game: Game, text: str) -> list[int]:
    """Actions for ``r ...`` (house): start a run of three or more, or extend your run."""
    if not game.rules.runs:
        raise CommandError("runs belong to the house preset")
    cards = [parse_card(t) for t in text.split()]
    if not cards:
        raise CommandError("run what? e.g. r 4h 5h 6h, or r 7h to extend your run of hearts")
    suits = {suit for _, suit in cards}
    if -1 in suits or len(suits) != 1 or not all(is_natural(k) for k, _ in cards):
        raise CommandError("a run is naturals of one suit with the suit named: e.g. r 4h 5h 6h")
    suit = suits.pop()
    ranks = sorted(rank_of(k) for k, _ in cards)
    if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        raise CommandError("a run's cards are in sequence (4 up to A), e.g. r 9s 10s Js")
    run = unfinished_run(_melds_in_play(game), suit, game.rules.book_size)
    if run is None:
        if len(ranks) < 3:
            raise CommandError(f"you have no run of {SUIT_LETTERS[suit]} to extend; a new run needs three cards")
        return [A.start_run(suit, ranks[0])] + [A.extend_run_up(suit)] * (len(ranks) - 3)
    if ranks[0] == run.high + 1:
        return [A.extend_run_up(suit)] * len(ranks)
    if ranks[-1] == run.low - 1:
        return [A.extend_run_down(suit)] * len(ranks)
    raise CommandError(
        f"those cards do not extend your run {run.low + 4}..{run.high + 4} of {SUIT_LETTERS[suit]} at either end"
    )


def checked_run(game: Game, text: str) -> list[int]:
    """``parse_run``'s actions, played on a copy first: all of them are legal, or none is played."""
    actions = parse_run(game, text)
    trial = copy.deepcopy(game)
    for index, action in enumerate(actions):
        _try(trial, action, len(actions) > 1)
        if index < len(actions) - 1:
            _stop_at_the_foot(game, trial, action)
    return actions


def parse_meld(game: Game, text: str) -> list[int]:
    """Actions for ``m ...``, one comma-separated chunk per group, checked whole: the chunks
    are played in turn on a copy of the game, so a later chunk sees what an earlier one
    melded, and an illegal part refuses the whole command."""
    chunks = [chunk.strip() for chunk in text.split(",") if chunk.strip()]
    if not chunks:
        raise CommandError("meld what? e.g. m K K K")
    trial = copy.deepcopy(game)
    actions: list[int] = []
    for number, chunk in enumerate(chunks, 1):
        chunk_actions = _parse_meld_chunk(trial, chunk)
        for index, action in enumerate(chunk_actions):
            _try(trial, action, len(chunks) > 1 or len(actions) > 0)
            actions.append(action)
            if number < len(chunks) or index < len(chunk_actions) - 1:
                _stop_at_the_foot(game, trial, action)
    return actions


def _try(trial: Game, action: int, several: bool) -> None:
    """Play ``action`` on the trial copy, or refuse the command naming the part that fails."""
    reason = trial.why_illegal(action)
    if reason is not None:
        whole = "; nothing was played" if several else ""
        raise CommandError(f"{A.describe(action, trial.rules)}: {reason}{whole}")
    trial.step(action)


def _stop_at_the_foot(game: Game, trial: Game, action: int) -> None:
    """Refuse the rest of a command once ``action`` has used up the hand: the trial has picked
    up the foot, whose cards the person has not seen, and checking more against them would
    tell the person what the foot holds without playing anything."""
    if trial.seats[trial.current].on_foot and not game.seats[game.current].on_foot:
        raise CommandError(
            f"{A.describe(action, trial.rules)} uses up your hand: meld from your foot once you hold it; "
            "nothing was played"
        )


def _parse_meld_chunk(game: Game, chunk: str) -> list[int]:
    """Actions for one group of an ``m`` command, in the position ``game``."""
    tokens = chunk.split()
    if game.rules.books_of_twos and ":" not in chunk and all(parse_card(t)[0] == TWO for t in tokens):
        book = unfinished_twos_book(_melds_in_play(game), game.rules.book_size)
        if book is not None:
            return [A.ADD_TWO_TO_TWOS_BOOK] * len(tokens)
        if len(tokens) < 3:
            raise CommandError("a book of 2s starts with three 2s: m 2 2 2")
        return [A.START_TWOS_BOOK] + [A.ADD_TWO_TO_TWOS_BOOK] * (len(tokens) - 3)
    if ":" in chunk:  # m K: 2 Jk
        head, wild_text = chunk.split(":", 1)
        kind = parse_kind(head)
        if not is_natural(kind):
            raise CommandError(f"'{head.strip()}' is not a natural rank")
        actions = []
        for token in wild_text.split():
            wild_kind = parse_kind(token)
            if wild_kind not in (TWO, JOKER):
                raise CommandError(f"after ':' list wild cards (2, Jk), got {token}")
            actions.append((A.add_two if wild_kind == TWO else A.add_joker)(rank_of(kind)))
        return actions
    cards = [parse_card(t)[0] for t in tokens]  # a book's suits are chosen for you
    naturals = [k for k in cards if is_natural(k)]
    wilds = [k for k in cards if k in (TWO, JOKER)]
    if len(naturals) + len(wilds) != len(cards):
        raise CommandError("threes are never melded")
    if not naturals or len(set(naturals)) != 1:
        raise CommandError("a group holds naturals of one rank (and wilds): e.g. m K K K or m K K Jk")
    rank = rank_of(naturals[0])
    actions = []
    pending = list(wilds)
    count = len(naturals)
    if unfinished_group(_melds_in_play(game), rank, game.rules.book_size) is None:
        if count >= 3:
            actions.append(A.start_group(rank, 0))
            count -= 3
        elif count == 2 and pending:
            wild = pending.pop(0)
            actions.append(A.start_group(rank, 1 if wild == TWO else 2))
            count = 0
        else:
            raise CommandError("a new group needs three naturals, or two and a wild")
    actions += [A.add_natural(rank)] * count
    actions += [(A.add_two if w == TWO else A.add_joker)(rank) for w in pending]
    return actions


def parse_discard(game: Game, token: str) -> int:
    kind, suit = parse_card(token)
    if not (game.rules.runs and is_natural(kind)):
        return A.discard(kind)
    if suit < 0:  # house: the suit may be left out when the hand holds only one
        held = [s for s in range(NUM_SUITS) if game.seats[game.current].hand_suits[s][rank_of(kind)]]
        if len(held) != 1:
            raise CommandError(f"name the suit of the {KIND_NAMES[kind]} to discard, e.g. d {KIND_NAMES[kind]}h")
        suit = held[0]
    return A.discard_suited(suit, rank_of(kind))


# While the partner's "may I go out?" stands, the person to act is the asked partner, but the
# turn is still the asker's: its hand, its staged melds.  A move typed then is refused in these
# words, before anything reads that hand, so no refusal can tell the person a card of it.
QUESTION_STANDS = "your partner asks: may I go out? Answer yes or no first"
ANSWERS = (A.ANSWER_YES, A.ANSWER_NO)
MOVE_VERBS = ("s", "p", "d", "m", "r", "ask", "yes", "no", "a")


def question_stands(game: Game) -> bool:
    """Whether the seat to act answers a partner's question rather than plays its own turn."""
    return game.mover != game.current


def check_answer_only(game: Game, actions: list[int]) -> None:
    """Refuse (:data:`QUESTION_STANDS`) any move but an answer while a question stands."""
    if question_stands(game) and any(action not in ANSWERS for action in actions):
        raise CommandError(QUESTION_STANDS)


def parse_command(game: Game, line: str) -> tuple[str, list[int]]:
    """(verb, actions) for one line of input.  While a partner's question stands only an
    answer is read as a move (``yes``, ``no``, or their ``a`` index); other moves are refused
    in the same words whatever the asker holds."""
    line = line.strip()
    if not line:
        return "noop", []
    verb, _, rest = line.partition(" ")
    verb = verb.lower()
    if verb in MOVE_VERBS and question_stands(game):
        answer = {"yes": A.ANSWER_YES, "no": A.ANSWER_NO}.get(verb)
        if verb == "a" and rest.strip() in (str(A.ANSWER_YES), str(A.ANSWER_NO)):
            answer = int(rest.strip())
        if answer is None:
            raise CommandError(QUESTION_STANDS)
        return "move", [answer]
    if verb in ("s", "p"):
        return "move", [A.DRAW if verb == "s" else A.TAKE_PILE]
    if verb == "d":
        if not rest.strip():
            raise CommandError("discard what? e.g. d 7")
        return "move", [parse_discard(game, rest.strip())]
    if verb == "m":
        return "move", parse_meld(game, rest)
    if verb == "r":
        return "move", checked_run(game, rest)
    if verb in ("ask", "yes", "no"):
        return "move", [{"ask": A.ASK_TO_GO_OUT, "yes": A.ANSWER_YES, "no": A.ANSWER_NO}[verb]]
    if verb == "a":
        index = rest.strip()
        if not index.isdigit() or int(index) >= A.NUM_ACTIONS:
            raise CommandError(f"a takes an action index from 0 to {A.NUM_ACTIONS - 1}, e.g. a 176")
        return "move", [int(index)]
    if verb in ("h", "hint"):
        return "hint", []
    if verb in ("t", "scores"):
        return "scores", []
    if verb in ("?", "help"):
        return "help", []
    if verb in ("q", "quit", "exit"):
        return "quit", []
    raise CommandError(f"unknown command {verb!r}; type ? for help")


# ---------------------------------------------------------------------- the Coach
def coach_note(before: Game, action: int, agent_choice: int) -> str | None:
    """The tip, if any, that ``action`` breaks in the position ``before`` it."""
    rules = before.rules
    act = A.decode(action)
    side = before.sides[before.owner()]
    clean = count_books(side.groups, rules.book_size).clean
    need_clean, _ = before.books_needed()
    if act.kind in ("add_two", "add_joker") and side.opened:
        group = unfinished_group(side.groups, act.rank, rules.book_size)
        if group is not None and group.is_clean and group.size == rules.book_size - 1 and clean < need_clean:
            return (
                "a wild on a clean group of six: a clean group of six waits for a natural card "
                "(500 for a clean book, 300 for a dirty one)"
            )
    if act.kind == "start_group" and act.composition > 0 and len(before.stock) > rules.total_cards // 3:
        return "use wild cards to finish dirty books late, not to start thin groups early"
    if act.kind in ("discard", "discard_suited"):
        card = act.card if act.kind == "discard" else natural_kind(act.rank)
        act = A.Action("discard", card=card)
        if act.card in (TWO, JOKER):
            return "a discarded wild is worth nothing to you; wilds belong in dirty books"
        next_seat = (before.current + 1) % rules.num_players
        next_side = before.sides[rules.owner_of(next_seat)]
        if (
            is_natural(act.card)
            and rules.owner_of(next_seat) != before.owner()
            and next_side.opened
            and len(before.pile) + 1 >= max(rules.pile_min_size, 1)
            and unfinished_group(next_side.groups, rank_of(act.card), rules.book_size) is not None
        ):
            return "throwing away what the next player is collecting: look at their groups before you discard"
        if is_natural(act.card) and before.seats[before.current].hand[act.card] >= 2 and agent_choice != action:
            return "natural pairs are your ticket to the discard pile; throw a single card instead"
    return None


# ---------------------------------------------------------------------- the session
class PlaySession:
    """One person at seat 0 in the terminal; ``seed`` None deals from :func:`unpredictable_seed`."""

    def __init__(
        self,
        rules: Rules,
        seed: int | None = None,
        opponents: str = "heuristic",
        partner: str = "heuristic",
        hint_agent: str = "heuristic",
        coach: bool = True,
        readline: Callable[[], str] | None = None,
        write: Callable[[str], None] | None = None,
        secret: int | None = None,
    ):
        from agents import make_agent

        self.game = Game(rules, unpredictable_seed() if seed is None else seed)
        self.rules = rules
        # The agents' seeds: from a secret drawn for this game, so their moves cannot lead to its seed.
        secret = private_seed(secrets.randbits(128) if secret is None else secret, self.game.seed)
        self.agents = {}
        for seat in range(1, rules.num_players):
            partner_seat = rules.owner_of(seat) == rules.owner_of(HUMAN)
            name = partner if partner_seat else opponents
            self.agents[seat] = make_agent(name, seed=private_seed(secret, seat), rules=rules)
        self.hint_agent = make_agent(hint_agent, seed=private_seed(secret, HUMAN), rules=rules)
        self.coach = coach
        self.readline = readline or (lambda: sys.stdin.readline())
        self.write = write or (lambda text: print(text, flush=True))
        self.notes: list[str] = []

    def run(self) -> int:
        """Play until the game ends or the person quits; returns 0."""
        self.write(
            f"Hand and Foot, {self.rules.preset_name}: you are seat 0"
            + (f" (partner: seat {self.rules.partner_of(HUMAN)})" if self.rules.partnerships else "")
            + ". Type ? for help."
        )
        deals_seen = 0
        while not self.game.is_over:
            if len(self.game.deal_results) > deals_seen:
                deals_seen = len(self.game.deal_results)
                self.write(f"\n=== deal {deals_seen} over ===\n{render_scores(self.game)}\n")
            if self.game.mover != HUMAN:
                self._agent_turn()
                continue
            if not self._human_turn():
                self.write("bye.")
                return 0
        self.write(f"\n=== game over ===\n{render_scores(self.game)}")
        winners = self.game.winners()
        mine = self.rules.owner_of(HUMAN)
        self.write("it is a tie." if len(winners) > 1 else ("you win!" if winners == [mine] else "you lose."))
        return 0

    def _agent_turn(self) -> None:
        """An agent's moves, each printed but its staging: staged melds stay in its hand, unseen,
        and go back there unless they reach the opening minimum (docs/rules.md "Opening"); the
        opening itself is said, and the table drawn at the person's turn shows its melds."""
        seat = self.game.mover
        owner = self.rules.owner_of(seat)
        while self.game.mover == seat and not self.game.is_over:
            deal = self.game.deal_index
            action = agent_move(self.agents[seat], self.game)
            opened = self.game.sides[owner].opened
            if opened or A.decode(action).kind not in A.MELD_KINDS:
                self.write(f"  seat {seat}: {A.describe(action, self.rules)}")
            self.game.step(action)
            if self.game.deal_index != deal:
                break
            if not opened and self.game.sides[owner].opened:
                self.write(f"  seat {seat} opens: its melds go down (the table shows them)")

    def _human_turn(self) -> bool:
        """One turn of the person; False if they quit."""
        self.write("\n" + render_table(self.game, HUMAN))
        turn_notes: list[str] = []
        deal = self.game.deal_index
        while self.game.mover == HUMAN and not self.game.is_over and self.game.deal_index == deal:
            if self.game.current != HUMAN:  # the partner asks (docs/rules.md "Variations")
                self.write(f"  seat {self.game.current}, your partner, asks: may I go out? (yes / no)")
            self.write(f"[{self.game.phase}] > ")
            line = self.readline()
            if line == "":
                return False  # end of input
            try:
                verb, actions = parse_command(self.game, line)
            except (CommandError, ValueError) as exc:
                self.write(f"  ! {exc}")
                continue
            if verb == "quit":
                return False
            if verb == "help":
                self.write(HELP + ("\n" + HOUSE_HELP if self.rules.runs else ""))
                continue
            if verb == "scores":
                self.write(render_scores(self.game) if self.game.deal_results else "no deal has ended yet")
                continue
            if verb == "hint":
                choice = agent_move(self.hint_agent, self.game)
                self.write(f"  hint: {command_for(choice, self.game)}   ({A.describe(choice, self.rules)})")
                continue
            if verb == "noop":
                continue
            opened_before = self.game.sides[self.game.owner()].opened
            for action in actions:
                reason = self.game.why_illegal(action)
                if reason is not None:
                    self.write(f"  ! {A.describe(action, self.rules)}: {reason}")
                    break
                preferred = agent_move(self.hint_agent, self.game)
                tip = coach_note(self.game, action, preferred) if self.coach else None
                if tip:
                    turn_notes.append(
                        f"coach: {tip}. {self.hint_agent.name} would play: {command_for(preferred, self.game)}"
                    )
                try:
                    self.game.step(action)
                except IllegalActionError as exc:  # pragma: no cover - why_illegal said legal
                    self.write(f"  ! {exc}")
                    break
                if self.game.mover != HUMAN or self.game.is_over or self.game.deal_index != deal:
                    break
            still_mine = self.game.mover == HUMAN and not self.game.is_over and self.game.deal_index == deal
            if still_mine and not opened_before and self.game.sides[self.game.owner()].opened:
                down = sum(g.value for g in self.game.sides[self.game.owner()].groups)
                self.write(
                    f"  your side has opened: {down} points down (the minimum was "
                    f"{self.game.minimum(self.game.owner())})"
                )
                self.write("\n" + render_table(self.game, HUMAN))
            elif still_mine:
                me = self.game.seats[HUMAN]
                suits = me.hand_suits if self.rules.runs else None
                self.write(f"  you hold: {format_hand(me.hand, suits) or '-'}" + (" (foot)" if me.on_foot else ""))
                if me.staged:
                    self.write(
                        f"  staged {me.staged_value} of the {self.game.minimum(self.game.owner())} needed to open"
                    )
        for note in turn_notes:
            self.write("  " + note)
        self.notes += turn_notes
        return True


def run_play(
    preset: str,
    opponents: str,
    partner: str | None,
    hint: str,
    seed: int | None,
    coach: bool,
    num_players=None,
    overrides: dict | None = None,
) -> int:
    """``handfoot play``: a game in the terminal (``seed`` None: an unpredictable one); ``overrides``
    are rules fields (``--rule``)."""
    fields = dict(overrides or {})
    if num_players is not None:
        fields["num_players"] = num_players
    rules = Rules.from_overrides(preset, fields)
    if partner is not None and not rules.partnerships:
        raise ValueError(f"--partner: {preset} with {rules.num_players} players has no partners")
    session = PlaySession(rules, seed, opponents, partner or "heuristic", hint, coach)
    try:
        return session.run()
    except KeyboardInterrupt:
        session.write("\ninterrupted: bye.")
        return 130


__all__ = [
    "PlaySession",
    "agent_move",
    "coach_note",
    "command_for",
    "parse_command",
    "private_seed",
    "run_play",
    "unpredictable_seed",
]
