"""What the compiled heuristic reads from an observation: the pile's top card, a group's
size and wilds, a run's neighbours, whether the top card fits (``heuristic.py``'s helpers of
the same names), and the small sorting and search helpers its decisions share.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from handfoot_env import observation as O
from handfoot_env.cards import (
    BLACK_THREE,
    FIRST_NATURAL,
    JOKER,
    KIND_VALUES,
    NUM_KINDS,
    NUM_NATURALS,
    NUM_SUITS,
    RED_THREE,
    TWO,
)

VALUES = np.asarray(KIND_VALUES, dtype=np.float64)
NONE = -1


@njit(cache=True)
def first_legal(mask):
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return NONE


@njit(cache=True)
def stable_order(keys):
    """Indices sorted by ``keys`` ascending, ties in index order (Python's stable ``sorted``)."""
    n = keys.shape[0]
    order = np.arange(n)
    for i in range(1, n):  # insertion sort: stable, and n is 11
        j = i
        while j > 0 and keys[order[j - 1]] > keys[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    return order


@njit(cache=True)
def pile_top(obs):
    for k in range(NUM_KINDS):
        if obs[O.PILE_TOP + k] != 0:
            return k
    return NONE


@njit(cache=True)
def pile_top_suit(obs):
    for suit in range(NUM_SUITS):
        if obs[O.HOUSE_PILE_SUIT + suit] != 0:
            return suit
    return NONE


@njit(cache=True)
def group_size(obs, slot, r):
    base = O.OWNERS + slot * O.OWNER_FIELDS + O.OWNER_GROUPS + 3 * r
    return obs[base] + obs[base + 1] + obs[base + 2]


@njit(cache=True)
def wild_books(obs, slot):
    """The complete wild books of owner slot ``slot`` (a variation; zero elsewhere)."""
    return obs[O.VARIATION_SIDES + slot * O.VARIATION_SIDE_FIELDS + O.SIDE_WILD_BOOKS]


@njit(cache=True)
def group_wilds(obs, slot, r):
    base = O.OWNERS + slot * O.OWNER_FIELDS + O.OWNER_GROUPS + 3 * r
    return obs[base + 1] + obs[base + 2]


@njit(cache=True)
def run_neighbours(obs, suit, rank):
    """Cards of ``suit`` within two ranks of ``rank`` in my hand, plus 2 if it extends my run."""
    near = 0
    for r in range(max(rank - 2, 0), min(rank + 3, NUM_NATURALS)):
        if r != rank and obs[O.HOUSE_HAND + NUM_NATURALS * suit + r] > 0:
            near += 1
    base = O.HOUSE_OWNERS + O.HOUSE_OWNER_RUNS + 2 * suit  # my side is owner slot 0
    length = obs[base]
    low = obs[base + 1]
    if length != 0 and (rank == low - 1 or rank == low + length):
        near += 2
    return near


@njit(cache=True)
def top_fits(obs):
    top = pile_top(obs)
    if top == NONE or top == BLACK_THREE or top == RED_THREE:
        return False
    if top == TWO or top == JOKER:
        return True
    r = top - FIRST_NATURAL
    if obs[O.HAND + top] >= 2 or group_size(obs, 0, r) > 0:
        return True
    suit = pile_top_suit(obs)
    return suit != NONE and run_neighbours(obs, suit, r) >= 2
