"""Legal masks, compiled: ``[B, NUM_ACTIONS]`` booleans, True exactly for the legal actions."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from handfoot_env import actions as A
from handfoot_env.cards import FIRST_NATURAL, JOKER, NUM_KINDS, NUM_NATURALS, NUM_SUITS, TWO
from handfoot_env.vector.rules_kernel import (
    R_LEGAL,
    current_take_reason,
    discard_reason,
    group_reason,
    owner_of,
    run_reason,
    twos_reason,
)
from handfoot_env.vector.state import DRAW, OVER, PLAY


@njit(cache=True)
def fill_mask(s, rules, mask):
    mask[:] = False
    if s.phase == OVER:
        return
    if s.phase == DRAW:
        mask[A.DRAW] = s.stock_len >= rules.draw_count
        mask[A.TAKE_PILE] = current_take_reason(s, rules) == R_LEGAL
        if not (rules.stage_before_draw and s.opened[owner_of(rules, s.current)] == 0):
            return  # no melding before the draw
    # Only actions whose cards the player holds are judged; the rest need cards it lacks.
    p = s.current
    twos = s.hand[p, TWO] > 0
    jokers = s.hand[p, JOKER] > 0
    for rank in range(NUM_NATURALS):
        naturals = s.hand[p, rank + FIRST_NATURAL]
        if naturals >= 2:
            mask[A.START_GROUP + 3 * rank] = group_reason(s, rules, 0, rank, 0) == R_LEGAL
            if twos:
                mask[A.START_GROUP + 3 * rank + 1] = group_reason(s, rules, 0, rank, 1) == R_LEGAL
            if jokers:
                mask[A.START_GROUP + 3 * rank + 2] = group_reason(s, rules, 0, rank, 2) == R_LEGAL
        if naturals > 0:
            mask[A.ADD_NATURAL + rank] = group_reason(s, rules, 1, rank, 0) == R_LEGAL
        if twos:
            mask[A.ADD_TWO + rank] = group_reason(s, rules, 2, rank, 0) == R_LEGAL
        if jokers:
            mask[A.ADD_JOKER + rank] = group_reason(s, rules, 3, rank, 0) == R_LEGAL
    if s.phase != PLAY:
        return
    runs = rules.runs != 0
    for kind in range(FIRST_NATURAL if runs else NUM_KINDS):  # with runs naturals go suited
        mask[A.DISCARD + kind] = discard_reason(s, rules, kind) == R_LEGAL
    if runs:
        for suit in range(NUM_SUITS):
            for rank in range(NUM_NATURALS):
                if s.hand_suits[p, suit, rank] > 0:
                    mask[A.DISCARD_SUITED + NUM_NATURALS * suit + rank] = (
                        discard_reason(s, rules, NUM_KINDS + NUM_NATURALS * suit + rank) == R_LEGAL
                    )
            for rank in range(A.RUN_STARTS):
                if s.hand_suits[p, suit, rank] > 0 and s.hand_suits[p, suit, rank + 1] > 0 and s.hand_suits[p, suit, rank + 2] > 0:
                    mask[A.START_RUN + A.RUN_STARTS * suit + rank] = run_reason(s, rules, 0, suit, rank) == R_LEGAL
            mask[A.EXTEND_RUN_DOWN + suit] = run_reason(s, rules, 1, suit, 0) == R_LEGAL
            mask[A.EXTEND_RUN_UP + suit] = run_reason(s, rules, 2, suit, 0) == R_LEGAL
    if rules.twos_books and twos:
        mask[A.START_TWOS_BOOK] = twos_reason(s, rules, 0) == R_LEGAL
        mask[A.ADD_TWO_TO_TWOS_BOOK] = twos_reason(s, rules, 1) == R_LEGAL


@njit(cache=True)
def has_legal_action(s, rules):
    """Whether the player to move has any legal action (for the stuck-deal rule)."""
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)
    fill_mask(s, rules, mask)
    return mask.any()


@njit(cache=True, parallel=True)
def mask_kernel_parallel(states, rules, masks):
    for b in prange(states.shape[0]):
        fill_mask(states[b], rules[0], masks[b])


@njit(cache=True)
def mask_kernel_serial(states, rules, masks):
    for b in range(states.shape[0]):
        fill_mask(states[b], rules[0], masks[b])
