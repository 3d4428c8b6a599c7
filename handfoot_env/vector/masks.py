"""Legal masks, compiled: True exactly for the actions ``legality.why_illegal`` allows.

Only actions whose cards the player holds are asked about (the rest need cards it lacks),
each through the same decoder and checks that ``VectorEngine.step`` uses.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from handfoot_env import actions as A
from handfoot_env.cards import FIRST_NATURAL, JOKER, NUM_KINDS, NUM_NATURALS, NUM_SUITS, TWO
from handfoot_env.rule_facts import owner_of
from handfoot_env.vector.legality import R_LEGAL, why_illegal
from handfoot_env.vector.state import DRAW, OVER, PLAY


@njit(cache=True)
def allow(s, rules, mask, action):
    mask[action] = why_illegal(s, rules, action) == R_LEGAL


@njit(cache=True)
def legal_mask(s, rules, mask):
    mask[:] = False
    if s.phase == OVER:
        return
    if s.phase == DRAW:
        allow(s, rules, mask, A.DRAW)
        allow(s, rules, mask, A.TAKE_PILE)
        if not (rules.staging_before_draw and s.opened[owner_of(rules, s.current)] == 0):
            return  # no melding before the draw
    p = s.current
    twos = s.hand[p, TWO] > 0
    jokers = s.hand[p, JOKER] > 0
    for rank in range(NUM_NATURALS):
        naturals = s.hand[p, rank + FIRST_NATURAL]
        if naturals >= 2:
            allow(s, rules, mask, A.START_GROUP + 3 * rank)
            if twos:
                allow(s, rules, mask, A.START_GROUP + 3 * rank + 1)
            if jokers:
                allow(s, rules, mask, A.START_GROUP + 3 * rank + 2)
        if naturals > 0:
            allow(s, rules, mask, A.ADD_NATURAL + rank)
        if twos:
            allow(s, rules, mask, A.ADD_TWO + rank)
        if jokers:
            allow(s, rules, mask, A.ADD_JOKER + rank)
    if s.phase != PLAY:
        return
    runs = rules.runs != 0
    for kind in range(FIRST_NATURAL if runs else NUM_KINDS):  # with runs naturals go suited
        if s.hand[p, kind] > 0:
            allow(s, rules, mask, A.DISCARD + kind)
    if runs:
        for suit in range(NUM_SUITS):
            for rank in range(NUM_NATURALS):
                if s.hand_suits[p, suit, rank] > 0:
                    allow(s, rules, mask, A.DISCARD_SUITED + NUM_NATURALS * suit + rank)
            for rank in range(A.RUN_STARTS):
                if (
                    s.hand_suits[p, suit, rank] > 0
                    and s.hand_suits[p, suit, rank + 1] > 0
                    and s.hand_suits[p, suit, rank + 2] > 0
                ):
                    allow(s, rules, mask, A.START_RUN + A.RUN_STARTS * suit + rank)
            allow(s, rules, mask, A.EXTEND_RUN_DOWN + suit)
            allow(s, rules, mask, A.EXTEND_RUN_UP + suit)
    if rules.books_of_twos and twos:
        allow(s, rules, mask, A.START_TWOS_BOOK)
        allow(s, rules, mask, A.ADD_TWO_TO_TWOS_BOOK)


@njit(cache=True)
def has_legal_action(s, rules):
    """Whether the player to move has any legal action (for the stuck-deal rule)."""
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)
    legal_mask(s, rules, mask)
    return mask.any()
