"""Legal masks, compiled: True exactly for the actions ``legality.why_illegal`` allows.

Only actions whose cards the player holds are asked about (the rest need cards it lacks).
``why_illegal``'s first checks (the game is over, a question stands) are settled once per
position here; each candidate then goes straight to the check ``why_illegal`` hands its kind
to (``draw_problem``, ``take_problem``, ``group_problem`` ...) with the fields ``decode``
gives it.  Going through ``why_illegal`` for each candidate instead made the mask almost three
times slower once the variations' actions joined its dispatch (1,024 mid-game positions of
the presets: 0.41 against 0.145 ms).  ``tests/vector/test_masks.py`` holds the two together.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from handfoot_env import actions as A
from handfoot_env.cards import BLACK_THREE, FIRST_NATURAL, JOKER, NUM_KINDS, NUM_NATURALS, NUM_SUITS, TWO
from handfoot_env.rule_facts import owner_of
from handfoot_env.vector.decode import ONTO_TABLE, PAIR, WITH_JOKER, WITH_TWO
from handfoot_env.vector.legality import (
    ask_problem,
    discard_problem,
    draw_problem,
    group_problem,
    run_problem,
    take_problem,
    threes_problem,
    twos_problem,
    wild_book_problem,
)
from handfoot_env.vector.reasons import R_LEGAL
from handfoot_env.vector.state import ASKED, DRAW, OVER, PLAY


@njit(cache=True)
def legal_mask(s, rules, mask):
    mask[:] = False
    if s.phase == OVER:
        return
    if s.permission == ASKED:  # the partner answers; nothing else may follow the question
        mask[A.ANSWER_YES] = True
        mask[A.ANSWER_NO] = True
        return
    if rules.permission_to_go_out:
        mask[A.ASK_TO_GO_OUT] = ask_problem(s, rules) == R_LEGAL
    if s.phase == DRAW:
        mask[A.DRAW] = draw_problem(s, rules) == R_LEGAL
        mask[A.TAKE_PILE] = take_problem(s, rules, PAIR) == R_LEGAL
        if rules.take_onto_table:
            mask[A.TAKE_ONTO_TABLE] = take_problem(s, rules, ONTO_TABLE) == R_LEGAL
        if rules.take_with_natural_and_wild:
            mask[A.TAKE_WITH_TWO] = take_problem(s, rules, WITH_TWO) == R_LEGAL
            mask[A.TAKE_WITH_JOKER] = take_problem(s, rules, WITH_JOKER) == R_LEGAL
        if not (rules.staging_before_draw and s.opened[owner_of(rules, s.current)] == 0):
            return  # no melding before the draw
    p = s.current
    twos = s.hand[p, TWO] > 0
    jokers = s.hand[p, JOKER] > 0
    for rank in range(NUM_NATURALS):  # group ops: 0 start (by composition), 1 add a natural, 2 a 2, 3 a joker
        naturals = s.hand[p, rank + FIRST_NATURAL]
        if naturals >= 2:
            mask[A.START_GROUP + 3 * rank] = group_problem(s, rules, 0, rank, 0) == R_LEGAL
            if twos:
                mask[A.START_GROUP + 3 * rank + 1] = group_problem(s, rules, 0, rank, 1) == R_LEGAL
            if jokers:
                mask[A.START_GROUP + 3 * rank + 2] = group_problem(s, rules, 0, rank, 2) == R_LEGAL
        if naturals > 0:
            mask[A.ADD_NATURAL + rank] = group_problem(s, rules, 1, rank, 0) == R_LEGAL
        if twos:
            mask[A.ADD_TWO + rank] = group_problem(s, rules, 2, rank, 0) == R_LEGAL
        if jokers:
            mask[A.ADD_JOKER + rank] = group_problem(s, rules, 3, rank, 0) == R_LEGAL
    if s.phase != PLAY:
        return
    runs = rules.runs != 0
    for kind in range(FIRST_NATURAL if runs else NUM_KINDS):  # with runs naturals go suited
        if s.hand[p, kind] > 0:
            mask[A.DISCARD + kind] = discard_problem(s, rules, kind) == R_LEGAL
    if runs:  # run ops: 0 start at a rank, 1 extend down, 2 up
        for suit in range(NUM_SUITS):
            for rank in range(NUM_NATURALS):
                if s.hand_suits[p, suit, rank] > 0:
                    suited_card = NUM_KINDS + NUM_NATURALS * suit + rank  # the card id (``decode``)
                    mask[A.DISCARD_SUITED + NUM_NATURALS * suit + rank] = (
                        discard_problem(s, rules, suited_card) == R_LEGAL
                    )
            for rank in range(A.RUN_STARTS):
                if (
                    s.hand_suits[p, suit, rank] > 0
                    and s.hand_suits[p, suit, rank + 1] > 0
                    and s.hand_suits[p, suit, rank + 2] > 0
                ):
                    mask[A.START_RUN + A.RUN_STARTS * suit + rank] = run_problem(s, rules, 0, suit, rank) == R_LEGAL
            mask[A.EXTEND_RUN_DOWN + suit] = run_problem(s, rules, 1, suit, 0) == R_LEGAL
            mask[A.EXTEND_RUN_UP + suit] = run_problem(s, rules, 2, suit, 0) == R_LEGAL
    if rules.books_of_twos and twos:  # ops: 0 start, 1 add
        mask[A.START_TWOS_BOOK] = twos_problem(s, rules, 0) == R_LEGAL
        mask[A.ADD_TWO_TO_TWOS_BOOK] = twos_problem(s, rules, 1) == R_LEGAL
    if rules.wild_books and (twos or jokers):  # ops: 0 start (by composition), 1 add a 2, 2 a joker
        for comp in range(len(A.WILD_BOOK_COMPOSITIONS)):
            mask[A.START_WILD_BOOK + comp] = wild_book_problem(s, rules, 0, comp) == R_LEGAL
        mask[A.ADD_TWO_TO_WILD_BOOK] = wild_book_problem(s, rules, 1, 0) == R_LEGAL
        mask[A.ADD_JOKER_TO_WILD_BOOK] = wild_book_problem(s, rules, 2, 0) == R_LEGAL
    if rules.black_three_books and s.hand[p, BLACK_THREE] > 0:  # ops: 0 start, 1 add
        mask[A.START_THREES_GROUP] = threes_problem(s, rules, 0) == R_LEGAL
        mask[A.ADD_BLACK_THREE] = threes_problem(s, rules, 1) == R_LEGAL


@njit(cache=True)
def has_legal_action(s, rules):
    """Whether the player to move has any legal action (for the stuck-deal rule)."""
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.bool_)
    legal_mask(s, rules, mask)
    return mask.any()
