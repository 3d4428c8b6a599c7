"""An action index read once: ``decode`` gives its kind and operands (the layout of
``actions.py``) to the checks (``legality.py``), the transitions and the masks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from handfoot_env import actions as A
from handfoot_env.cards import NUM_KINDS, NUM_NATURALS, NUM_SUITS

# The cards a start-group action (composition y) and a start-wild-book action lay down.
START_NATURALS = np.array([c[0] for c in A.COMPOSITIONS], dtype=np.int64)
START_TWOS = np.array([c[1] for c in A.COMPOSITIONS], dtype=np.int64)
START_JOKERS = np.array([c[2] for c in A.COMPOSITIONS], dtype=np.int64)
WILD_START_TWOS = np.array([c[0] for c in A.WILD_BOOK_COMPOSITIONS], dtype=np.int64)
WILD_START_JOKERS = np.array([c[1] for c in A.WILD_BOOK_COMPOSITIONS], dtype=np.int64)

# How a take of the pile goes down (``take_problem``): with a pair of the top card, by the table
# (the top card alone onto the side's group), with one natural and a 2, or with one and a joker.
PAIR, ONTO_TABLE, WITH_TWO, WITH_JOKER = 0, 1, 2, 3
# Action kinds of ``decode`` (the layout's blocks, actions.py).
(
    DRAW_ACTION,
    TAKE_ACTION,
    GROUP_ACTION,
    DISCARD_ACTION,
    SUITED_DISCARD_ACTION,
    RUN_ACTION,
    TWOS_ACTION,
    WILD_BOOK_ACTION,
    THREES_ACTION,
    PERMISSION_ACTION,
) = range(10)
ASK, ANSWER_YES, ANSWER_NO = 0, 1, 2  # the ops of PERMISSION_ACTION


@njit(cache=True)
def decode(action):
    """``(kind, op, x, y)`` of an action index: takes (op PAIR, ONTO_TABLE, WITH_TWO or
    WITH_JOKER), groups (op 0 start with composition ``y``, 1 add a natural, 2 a 2, 3 a joker;
    ``x`` the rank), discards (``x`` the card id), runs (op 0 start at rank ``y``, 1 extend
    down, 2 up; ``x`` the suit), the book of 2s (op 0 start, 1 add), the wild book (op 0 start
    with composition ``y``, 1 add a 2, 2 a joker), black threes (op 0 start, 1 add), the
    permission question (op ASK, ANSWER_YES, ANSWER_NO)."""
    if action == A.DRAW:
        return DRAW_ACTION, 0, 0, 0
    if action == A.TAKE_PILE:
        return TAKE_ACTION, PAIR, 0, 0
    if action < A.ADD_NATURAL:
        offset = action - A.START_GROUP
        return GROUP_ACTION, 0, offset // 3, offset % 3
    if action < A.DISCARD:
        block = (action - A.ADD_NATURAL) // NUM_NATURALS  # add a natural, a 2, a joker
        return GROUP_ACTION, 1 + block, action - A.ADD_NATURAL - block * NUM_NATURALS, 0
    if action < A.DISCARD_SUITED:
        return DISCARD_ACTION, 0, action - A.DISCARD, 0
    if action < A.START_RUN:
        return SUITED_DISCARD_ACTION, 0, NUM_KINDS + action - A.DISCARD_SUITED, 0  # the suited card id
    if action < A.EXTEND_RUN_DOWN:
        offset = action - A.START_RUN
        return RUN_ACTION, 0, offset // A.RUN_STARTS, offset % A.RUN_STARTS
    if action < A.START_TWOS_BOOK:
        block = (action - A.EXTEND_RUN_DOWN) // NUM_SUITS  # extend down, up
        return RUN_ACTION, 1 + block, action - A.EXTEND_RUN_DOWN - block * NUM_SUITS, 0
    if action < A.TAKE_ONTO_TABLE:
        return TWOS_ACTION, action - A.START_TWOS_BOOK, 0, 0
    if action == A.TAKE_ONTO_TABLE:
        return TAKE_ACTION, ONTO_TABLE, 0, 0
    if action == A.TAKE_WITH_TWO:
        return TAKE_ACTION, WITH_TWO, 0, 0
    if action == A.TAKE_WITH_JOKER:
        return TAKE_ACTION, WITH_JOKER, 0, 0
    if action < A.ADD_TWO_TO_WILD_BOOK:
        return WILD_BOOK_ACTION, 0, 0, action - A.START_WILD_BOOK
    if action < A.START_THREES_GROUP:
        return WILD_BOOK_ACTION, 1 + action - A.ADD_TWO_TO_WILD_BOOK, 0, 0
    if action < A.ASK_TO_GO_OUT:
        return THREES_ACTION, action - A.START_THREES_GROUP, 0, 0
    return PERMISSION_ACTION, action - A.ASK_TO_GO_OUT, 0, 0
