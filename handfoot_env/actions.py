"""The action layout: one fixed ``Discrete(NUM_ACTIONS)`` space shared by every preset.

A turn is a sequence of actions by the same player: one draw action, any number of
group actions, and one discard, which ends the turn.  Actions a preset does not use
are always masked.  Ranks are the eleven naturals 4, 5, ..., K, A (rank index 0..10).

| index     | count | action                                                               |
|-----------|-------|----------------------------------------------------------------------|
| 0         | 1     | draw: two cards from the stock                                       |
| 1         | 1     | take the discard pile (house: one from the stock plus the top discard)|
| 2-34      | 33    | start a group of rank r: 3 naturals / 2 naturals + a 2 / 2 naturals + a joker (index 2 + 3r + c) |
| 35-45     | 11    | add a natural to the group of rank r                                 |
| 46-56     | 11    | add a 2 to the group of rank r                                       |
| 57-67     | 11    | add a joker to the group of rank r                                   |
| 68-82     | 15    | discard a card of kind k (joker, 2, black 3, red 3, 4 .. A); house discards naturals suited |
| 83-126    | 44    | house: discard the natural of suit s, rank r (83 + 11s + r)          |
| 127-162   | 36    | house: start a run of suit s from rank r to r+2 (127 + 9s + r)       |
| 163-166   | 4     | house: extend the run of suit s downward                             |
| 167-170   | 4     | house: extend the run of suit s upward                               |
| 171       | 1     | house: start a book of 2s (three 2s)                                 |
| 172       | 1     | house: add a 2 to the book of 2s                                     |
| 173       | 1     | take the pile by the table: its top card onto my side's unfinished group |
| 174-175   | 2     | take the pile with one natural and a 2 / a joker                     |
| 176-179   | 4     | start a wild book: three 2s / two 2s + a joker / a 2 + two jokers / three jokers |
| 180-181   | 2     | add a 2 / a joker to the wild book                                   |
| 182       | 1     | start a group of black threes (three of them)                        |
| 183       | 1     | add a black three to the group of black threes                       |
| 184       | 1     | ask my partner's permission to go out                                |
| 185-186   | 2     | answer my partner's question: yes / no                               |

Before the owner has opened, group actions *stage* cards (see docs/rules.md "Opening
opening") instead of laying them down; the same actions serve both.

In ``house`` a natural's suit matters (runs): naturals are discarded with the suited
discards (83-126; suits clubs, diamonds, hearts, spades), and a natural that goes into a
book leaves the hand from the suit the hand holds fewest cards of (the reference engine's
``_book_suit``), since the book actions name no suit.  One unfinished run per suit and
one unfinished book of 2s per owner, as one unfinished book per rank.

**Layout version 2** (0.5.0) appended the actions from 173 on, for the variations of
docs/rules.md ("Variations"); the layout only ever grows by appending, so that an index
keeps its meaning and a model trained on an older layout is padded to a newer one.  Layout
version 1 (0.1-0.4) had the 173 actions 0-172.  While a permission question stands
(``permission_to_go_out``) the partner is the player to move and only 185-186 are legal.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

import numpy as np

from handfoot_env.cards import JOKER, KIND_NAMES, NUM_KINDS, NUM_NATURALS, NUM_SUITS, SUIT_NAMES, TWO, natural_kind

RUN_STARTS = 9  # a run of three starts at 4 .. Q

DRAW = 0
TAKE_PILE = 1
START_GROUP = 2
ADD_NATURAL = START_GROUP + 3 * NUM_NATURALS  # 35
ADD_TWO = ADD_NATURAL + NUM_NATURALS  # 46
ADD_JOKER = ADD_TWO + NUM_NATURALS  # 57
DISCARD = ADD_JOKER + NUM_NATURALS  # 68
DISCARD_SUITED = DISCARD + NUM_KINDS  # 83
START_RUN = DISCARD_SUITED + NUM_SUITS * NUM_NATURALS  # 127
EXTEND_RUN_DOWN = START_RUN + NUM_SUITS * RUN_STARTS  # 163
EXTEND_RUN_UP = EXTEND_RUN_DOWN + NUM_SUITS  # 167
START_TWOS_BOOK = EXTEND_RUN_UP + NUM_SUITS  # 171
ADD_TWO_TO_TWOS_BOOK = START_TWOS_BOOK + 1  # 172
# Layout version 2: the variations (appended; the indices above never change).
TAKE_ONTO_TABLE = ADD_TWO_TO_TWOS_BOOK + 1  # 173
TAKE_WITH_TWO = TAKE_ONTO_TABLE + 1  # 174: one natural and a 2
TAKE_WITH_JOKER = TAKE_WITH_TWO + 1  # 175: one natural and a joker
START_WILD_BOOK = TAKE_WITH_JOKER + 1  # 176-179, by WILD_BOOK_COMPOSITIONS
ADD_TWO_TO_WILD_BOOK = START_WILD_BOOK + 4  # 180
ADD_JOKER_TO_WILD_BOOK = ADD_TWO_TO_WILD_BOOK + 1  # 181
START_THREES_GROUP = ADD_JOKER_TO_WILD_BOOK + 1  # 182
ADD_BLACK_THREE = START_THREES_GROUP + 1  # 183
ASK_TO_GO_OUT = ADD_BLACK_THREE + 1  # 184
ANSWER_YES = ASK_TO_GO_OUT + 1  # 185
ANSWER_NO = ANSWER_YES + 1  # 186
NUM_ACTIONS = ANSWER_NO + 1  # 187
LAYOUT_VERSION = 2
NUM_ACTIONS_BY_VERSION = {1: 173, 2: NUM_ACTIONS}  # how many actions each layout version had

# Compositions of a new group: (naturals, twos, jokers).
COMPOSITIONS = ((3, 0, 0), (2, 1, 0), (2, 0, 1))
COMPOSITION_NAMES = ("3 naturals", "2 naturals + a 2", "2 naturals + a joker")
# Compositions of a new wild book: (twos, jokers).
WILD_BOOK_COMPOSITIONS = ((3, 0), (2, 1), (1, 2), (0, 3))
WILD_BOOK_COMPOSITION_NAMES = ("three 2s", "two 2s + a joker", "a 2 + two jokers", "three jokers")


@dataclass(frozen=True)
class Action:
    """A decoded action.  ``kind`` is one of the names in :data:`ACTION_KINDS`."""

    kind: str
    rank: int = -1  # natural rank index 0..10 for group actions
    composition: int = -1  # index into COMPOSITIONS (start_group) or WILD_BOOK_COMPOSITIONS (start_wild_book)
    card: int = -1  # card kind for discard; the wild (TWO or JOKER) of take_with_wild
    suit: int = -1  # house actions

    @property
    def is_group_action(self) -> bool:
        return self.kind in ("start_group", "add_natural", "add_two", "add_joker")

    @property
    def is_meld(self) -> bool:
        """An action that lays cards down (or stages them): groups, runs, books of 2s, wild
        books and groups of black threes."""
        return self.kind in MELD_KINDS


ACTION_KINDS = (
    "draw",
    "take_pile",
    "start_group",
    "add_natural",
    "add_two",
    "add_joker",
    "discard",
    "discard_suited",
    "start_run",
    "extend_run_down",
    "extend_run_up",
    "start_twos_book",
    "add_two_to_twos_book",
    "take_onto_table",
    "take_with_wild",
    "start_wild_book",
    "add_to_wild_book",
    "start_threes_group",
    "add_black_three",
    "ask_to_go_out",
    "answer_yes",
    "answer_no",
)
TAKES = ("take_pile", "take_onto_table", "take_with_wild")  # the draw actions that take the pile
MELD_KINDS = (
    "start_group",
    "add_natural",
    "add_two",
    "add_joker",
    "start_run",
    "extend_run_down",
    "extend_run_up",
    "start_twos_book",
    "add_two_to_twos_book",
    "start_wild_book",
    "add_to_wild_book",
    "start_threes_group",
    "add_black_three",
)
TAKE_ACTIONS = (TAKE_PILE, TAKE_ONTO_TABLE, TAKE_WITH_TWO, TAKE_WITH_JOKER)


def decode(action: int) -> Action:
    """Decode an action index into an :class:`Action`; raises ``ValueError`` if out of range."""
    if type(action) is int and 0 <= action < NUM_ACTIONS and _DECODED:
        return _DECODED[action]
    try:
        a = operator.index(action)
    except TypeError:
        a = None
    if a is None or isinstance(action, bool):
        raise ValueError(f"action must be an integer in [0, {NUM_ACTIONS}), got {action!r}")
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {a} is out of range [0, {NUM_ACTIONS})")
    if a == DRAW:
        return Action("draw")
    if a == TAKE_PILE:
        return Action("take_pile")
    if a < ADD_NATURAL:
        rank, comp = divmod(a - START_GROUP, 3)
        return Action("start_group", rank=rank, composition=comp)
    if a < ADD_TWO:
        return Action("add_natural", rank=a - ADD_NATURAL)
    if a < ADD_JOKER:
        return Action("add_two", rank=a - ADD_TWO)
    if a < DISCARD:
        return Action("add_joker", rank=a - ADD_JOKER)
    if a < DISCARD_SUITED:
        return Action("discard", card=a - DISCARD)
    if a < START_RUN:
        suit, rank = divmod(a - DISCARD_SUITED, NUM_NATURALS)
        return Action("discard_suited", suit=suit, rank=rank)
    if a < EXTEND_RUN_DOWN:
        suit, rank = divmod(a - START_RUN, RUN_STARTS)
        return Action("start_run", suit=suit, rank=rank)
    if a < EXTEND_RUN_UP:
        return Action("extend_run_down", suit=a - EXTEND_RUN_DOWN)
    if a < START_TWOS_BOOK:
        return Action("extend_run_up", suit=a - EXTEND_RUN_UP)
    if a == START_TWOS_BOOK:
        return Action("start_twos_book")
    if a == ADD_TWO_TO_TWOS_BOOK:
        return Action("add_two_to_twos_book")
    if a == TAKE_ONTO_TABLE:
        return Action("take_onto_table")
    if a in (TAKE_WITH_TWO, TAKE_WITH_JOKER):
        return Action("take_with_wild", card=TWO if a == TAKE_WITH_TWO else JOKER)
    if a < ADD_TWO_TO_WILD_BOOK:
        return Action("start_wild_book", composition=a - START_WILD_BOOK)
    if a < START_THREES_GROUP:
        return Action("add_to_wild_book", card=TWO if a == ADD_TWO_TO_WILD_BOOK else JOKER)
    if a == START_THREES_GROUP:
        return Action("start_threes_group")
    if a == ADD_BLACK_THREE:
        return Action("add_black_three")
    if a == ASK_TO_GO_OUT:
        return Action("ask_to_go_out")
    return Action("answer_yes" if a == ANSWER_YES else "answer_no")


def action_index(action) -> int:
    """``action`` as a plain int index, or ``ValueError``: ints and numpy integers (also in a
    one-element array) pass; floats such as 1.9, bools and strings are refused, never rounded."""
    if type(action) is int and 0 <= action < NUM_ACTIONS:  # the common case, at every AEC step
        return action
    if isinstance(action, np.ndarray) and action.size == 1:
        action = action.reshape(())[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"action must be an integer in [0, {NUM_ACTIONS}), got {action!r}")
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {int(action)} is out of range [0, {NUM_ACTIONS})")
    return int(action)


_DECODED: tuple[Action, ...] = ()
_DECODED = tuple(decode(a) for a in range(NUM_ACTIONS))


def start_group(rank: int, composition: int = 0) -> int:
    return START_GROUP + 3 * rank + composition


def add_natural(rank: int) -> int:
    return ADD_NATURAL + rank


def add_two(rank: int) -> int:
    return ADD_TWO + rank


def add_joker(rank: int) -> int:
    return ADD_JOKER + rank


def discard(kind: int) -> int:
    return DISCARD + kind


def discard_suited(suit: int, rank: int) -> int:
    return DISCARD_SUITED + NUM_NATURALS * suit + rank


def start_run(suit: int, rank: int) -> int:
    """Start a run of ``suit`` from rank index ``rank`` to ``rank + 2``."""
    return START_RUN + RUN_STARTS * suit + rank


def extend_run_down(suit: int) -> int:
    return EXTEND_RUN_DOWN + suit


def extend_run_up(suit: int) -> int:
    return EXTEND_RUN_UP + suit


def take_with_wild(wild: int) -> int:
    """Take the pile with one natural and the wild ``wild`` (TWO or JOKER)."""
    return TAKE_WITH_TWO if wild == TWO else TAKE_WITH_JOKER


def start_wild_book(composition: int) -> int:
    return START_WILD_BOOK + composition


def add_to_wild_book(wild: int) -> int:
    return ADD_TWO_TO_WILD_BOOK if wild == TWO else ADD_JOKER_TO_WILD_BOOK


def describe(action: int, rules=None) -> str:
    """Human-readable name of an action, e.g. ``start group of K (2 naturals + a joker)``;
    with ``rules`` the take is named as those rules play it."""
    try:
        act = decode(action)
    except ValueError:
        return f"<invalid action {action!r}>"
    rank_name = KIND_NAMES[natural_kind(act.rank)] if act.rank >= 0 else ""
    if act.kind == "draw":
        return "draw two from the stock"
    if act.kind == "take_pile":
        if rules is not None and rules.draw_one_plus_discard:
            return "draw one from the stock plus the top discard"
        return "take the discard pile"
    if act.kind == "start_group":
        return f"start group of {rank_name} ({COMPOSITION_NAMES[act.composition]})"
    if act.kind == "add_natural":
        article = "an" if rank_name in ("8", "A") else "a"
        return f"add {article} {rank_name} to the group of {rank_name}"
    if act.kind == "add_two":
        return f"add a 2 to the group of {rank_name}"
    if act.kind == "add_joker":
        return f"add a joker to the group of {rank_name}"
    if act.kind == "discard":
        return f"discard {KIND_NAMES[act.card]}"
    if act.kind == "discard_suited":
        return f"discard {rank_name} of {SUIT_NAMES[act.suit]}"
    if act.kind == "start_run":
        low = natural_kind(act.rank)
        return f"start run {KIND_NAMES[low]}-{KIND_NAMES[low + 2]} of {SUIT_NAMES[act.suit]}"
    if act.kind in ("extend_run_down", "extend_run_up"):
        return f"extend the run of {SUIT_NAMES[act.suit]} {act.kind.rsplit('_', 1)[1]}ward"
    if act.kind == "start_twos_book":
        return "start a book of 2s"
    if act.kind == "add_two_to_twos_book":
        return "add a 2 to the book of 2s"
    if act.kind == "take_onto_table":
        return "take the discard pile by the table (its top card onto your group)"
    if act.kind == "take_with_wild":
        return f"take the discard pile with a natural and a {'2' if act.card == TWO else 'joker'}"
    if act.kind == "start_wild_book":
        return f"start a wild book ({WILD_BOOK_COMPOSITION_NAMES[act.composition]})"
    if act.kind == "add_to_wild_book":
        return f"add a {'2' if act.card == TWO else 'joker'} to the wild book"
    if act.kind == "start_threes_group":
        return "start a group of black threes"
    if act.kind == "add_black_three":
        return "add a black three to the group of black threes"
    if act.kind == "ask_to_go_out":
        return "ask your partner: may I go out?"
    if act.kind == "answer_yes":
        return "answer your partner: yes, you may go out"
    return "answer your partner: no, not this turn"


def layout_table() -> list[tuple[str, int, str]]:
    """Rows (index range, count, meaning) of the layout, generated from the constants."""
    rows = [
        (DRAW, DRAW + 1, "draw two from the stock"),
        (TAKE_PILE, TAKE_PILE + 1, "take the discard pile (house: one from the stock plus the top discard)"),
        (START_GROUP, ADD_NATURAL, "start a group: rank r x composition c, index START_GROUP + 3r + c"),
        (ADD_NATURAL, ADD_TWO, "add a natural to the group of rank r"),
        (ADD_TWO, ADD_JOKER, "add a 2 to the group of rank r"),
        (ADD_JOKER, DISCARD, "add a joker to the group of rank r"),
        (DISCARD, DISCARD_SUITED, "discard a card of kind k (house: naturals go suited)"),
        (DISCARD_SUITED, START_RUN, "house: discard the natural of suit s, rank r"),
        (START_RUN, EXTEND_RUN_DOWN, "house: start a run of suit s from rank r"),
        (EXTEND_RUN_DOWN, EXTEND_RUN_UP, "house: extend the run of suit s downward"),
        (EXTEND_RUN_UP, START_TWOS_BOOK, "house: extend the run of suit s upward"),
        (START_TWOS_BOOK, START_TWOS_BOOK + 1, "house: start a book of 2s"),
        (ADD_TWO_TO_TWOS_BOOK, TAKE_ONTO_TABLE, "house: add a 2 to the book of 2s"),
        (TAKE_ONTO_TABLE, TAKE_WITH_TWO, "take the pile by the table: its top card onto your side's group"),
        (TAKE_WITH_TWO, START_WILD_BOOK, "take the pile with one natural and a 2 / a joker"),
        (START_WILD_BOOK, ADD_TWO_TO_WILD_BOOK, "start a wild book: 2s + jokers 3+0 / 2+1 / 1+2 / 0+3"),
        (ADD_TWO_TO_WILD_BOOK, START_THREES_GROUP, "add a 2 / a joker to the wild book"),
        (START_THREES_GROUP, ADD_BLACK_THREE, "start a group of black threes"),
        (ADD_BLACK_THREE, ASK_TO_GO_OUT, "add a black three to the group of black threes"),
        (ASK_TO_GO_OUT, ANSWER_YES, "ask the partner's permission to go out"),
        (ANSWER_YES, NUM_ACTIONS, "answer the partner's question: yes / no"),
    ]
    return [(f"{lo}" if hi - lo == 1 else f"{lo}-{hi - 1}", hi - lo, text) for lo, hi, text in rows]
