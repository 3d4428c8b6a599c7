"""A Hand and Foot bot in any language's way: a program that reads JSON lines on its standard
input and answers JSON lines on its standard output (the protocol: docs/benchmark.md, "Agents
in any language").  Python's standard library only; nothing of handfoot is imported, so the
same bot could be written in C++, Rust, Java or JavaScript from the protocol alone.

    handfoot eval --team "cmd:python3 examples/stdio_bot.py" --vs random
    handfoot benchmark "cmd:python3 examples/stdio_bot.py"

It plays greedily from the action layout (``handfoot actions``): take the pile when it may,
else draw; lay down whatever it can, naturals before wilds; discard its least valuable card.
"""

import json
import sys

# The action layout (handfoot actions): index ranges of each kind of action.
DRAW, TAKE_PILE = 0, 1
START_GROUP, ADD_NATURAL, ADD_TWO, ADD_JOKER = 2, 35, 46, 57  # START_GROUP + 3 * rank + composition
DISCARD, DISCARD_SUITED = 68, 83  # DISCARD + card kind; DISCARD_SUITED + 11 * suit + rank (house)
START_RUN, RUN_DOWN, RUN_UP = 127, 163, 167  # house: runs, START_RUN + 9 * suit + rank
START_TWOS_BOOK, ADD_TWO_TO_TWOS_BOOK = 171, 172
TAKE_ONTO_TABLE, TAKE_WITH_TWO, TAKE_WITH_JOKER = 173, 174, 175
START_WILD_BOOK, ADD_TWO_TO_WILD_BOOK, ADD_JOKER_TO_WILD_BOOK = 176, 180, 181
START_THREES, ADD_BLACK_THREE = 182, 183
ASK_TO_GO_OUT, ANSWER_YES, ANSWER_NO = 184, 185, 186
RANKS, SUITS = 11, 4  # the naturals 4 to A; clubs, diamonds, hearts, spades
JOKER, TWO, BLACK_THREE, RED_THREE, FIRST_NATURAL = 0, 1, 2, 3, 4  # card kinds

MELDS = (
    [RUN_DOWN + s for s in range(SUITS)]
    + [RUN_UP + s for s in range(SUITS)]
    + list(range(START_RUN, RUN_DOWN))
    + [ADD_TWO_TO_TWOS_BOOK, START_TWOS_BOOK]
    + [START_GROUP + 3 * r for r in range(RANKS)]  # a group of naturals only
    + list(range(ADD_NATURAL, ADD_NATURAL + RANKS))
    + [START_THREES, ADD_BLACK_THREE, ADD_TWO_TO_WILD_BOOK, ADD_JOKER_TO_WILD_BOOK]
    + [START_GROUP + 3 * r + c for r in range(RANKS) for c in (1, 2)]  # with one or two wilds
    + list(range(START_WILD_BOOK, START_WILD_BOOK + 4))
    + list(range(ADD_TWO, ADD_TWO + RANKS))
    + list(range(ADD_JOKER, ADD_JOKER + RANKS))
)
DISCARDS = (
    [DISCARD + RED_THREE, DISCARD + BLACK_THREE]
    + [a for r in range(RANKS) for a in [DISCARD + FIRST_NATURAL + r] + [DISCARD_SUITED + 11 * s + r for s in range(4)]]
    + [DISCARD + TWO, DISCARD + JOKER]
)
PREFERENCE = (
    [TAKE_PILE, TAKE_ONTO_TABLE, TAKE_WITH_TWO, TAKE_WITH_JOKER, DRAW, ASK_TO_GO_OUT]
    + MELDS
    + DISCARDS
    + [ANSWER_YES, ANSWER_NO]
)
RANK = {action: place for place, action in enumerate(PREFERENCE)}


def choose(legal):
    """The legal action first in the order of preference."""
    return min(legal, key=lambda action: RANK.get(action, len(RANK)))


def answer(message):
    print(json.dumps(message), flush=True)


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":  # the rules, once: message["rules"] (null when only checked)
            answer({"name": "stdio-greedy"})
        elif message["type"] == "act":  # message["observation"]: 655 numbers; message["legal"]: actions
            answer({"action": choose(message["legal"])})
        else:  # "seed": a deterministic bot has nothing to reseed
            answer({})


if __name__ == "__main__":
    main()
