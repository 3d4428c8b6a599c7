"""The compiled heuristic's melding once its side has opened, and its going out
(``HeuristicAgent``'s methods of the same names): whether going out wins, whether the others
can, when to ask and answer the partner, and which group, run or book to play next.

The going-out estimate is computed in float32, as the Python version's is (float32
observation values combined with Python numbers stay float32 under NumPy's promotion rules);
elsewhere the heuristic computes in float64.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from handfoot_env import actions as A
from handfoot_env import observation as O
from handfoot_env.baselines.compiled.reads import (
    NONE,
    VALUES,
    first_legal,
    group_size,
    group_wilds,
    stable_order,
    wild_books,
)
from handfoot_env.baselines.heuristic_params import (
    CLEAN_MIN_SIZE,
    DIRTY_PREFERENCE,
    EXTRA_PROTECTED,
    HELD_CARD_VALUE,
    HOLD_PAIRS_PILE,
    KEEP_TWO_STOCK,
    KEEP_WILDS,
    KEEP_WILDS_MIN_HAND,
    LATE_OUT_NEAR,
    LATE_STOCK,
    MAX_GROUP_WILDS,
    NEW_GROUP_MIN,
    OFF,
    OUT_MARGIN,
    PARTNER_CARD_WEIGHT,
    PERMISSION_MARGIN,
    PROTECT_ALWAYS,
    RUSH_OUT_NEAR,
    WILD_BOOK_MIN_BONUS,
    WILD_MIN_GROUP,
    WILD_PAIRS,
    WILD_STOCK,
    WILDS_FIRST,
)
from handfoot_env.cards import BLACK_THREE, FIRST_NATURAL, JOKER, NUM_KINDS, NUM_NATURALS, NUM_SUITS, TWO
from handfoot_env.rule_facts import SEVEN_RANK, book_bonus


@njit(cache=True)
def going_out_wins(obs, rules, params):
    """HeuristicAgent._going_out_wins, in the float32 arithmetic of the Python version."""
    players = int(obs[O.GAME_PLAYERS])
    owners = players // 2 if obs[O.GAME_PARTNERSHIP] != 0 else players
    hundred = np.float32(100.0)
    hand_value = 0.0
    for k in range(NUM_KINDS):
        hand_value += np.float64(obs[O.HAND + k]) * VALUES[k]
    base = O.OWNERS
    mine = np.float32(obs[base + O.OWNER_MELDED] * hundred) + np.float32(
        int(book_bonus(rules, obs[base + O.OWNER_CLEAN_BOOKS], obs[base + O.OWNER_DIRTY_BOOKS], wild_books(obs, 0)))
    )
    mine = np.float32(mine + np.float32(rules.going_out_bonus))
    mine = np.float32(mine - np.float32(hand_value))
    theirs = np.float32(-np.inf)
    for slot in range(1, owners):
        base = O.OWNERS + slot * O.OWNER_FIELDS
        estimate = np.float32(obs[base + O.OWNER_MELDED] * hundred) + np.float32(
            int(
                book_bonus(
                    rules, obs[base + O.OWNER_CLEAN_BOOKS], obs[base + O.OWNER_DIRTY_BOOKS], wild_books(obs, slot)
                )
            )
        )
        theirs = max(theirs, estimate)
    held = np.float32(0.0)
    for slot in range(1, players):
        base = O.SEATS + slot * O.SEAT_FIELDS
        cards = np.float32(obs[base + O.SEAT_HELD] + obs[base + O.SEAT_FOOT])
        if obs[base + O.SEAT_PARTNER] != 0:
            cards = np.float32(cards * np.float32(params[PARTNER_CARD_WEIGHT]))
        held = np.float32(held + cards)
    held = np.float32(held * np.float32(params[HELD_CARD_VALUE]))
    share = np.float32(held / np.float32(max(owners - 1, 1)))
    return np.float32(mine + np.float32(params[OUT_MARGIN])) > np.float32(theirs - share)


@njit(cache=True)
def they_can_go_out(obs):
    """An other side has the books to go out and one of its players is on the foot."""
    players = int(obs[O.GAME_PLAYERS])
    owners = players // 2 if obs[O.GAME_PARTNERSHIP] != 0 else players
    books = False
    for slot in range(1, owners):
        base = O.OWNERS + slot * O.OWNER_FIELDS
        if (
            obs[base + O.OWNER_CLEAN_BOOKS] >= obs[O.GAME_CLEAN_NEEDED]
            and obs[base + O.OWNER_DIRTY_BOOKS] >= obs[O.GAME_DIRTY_NEEDED]
        ):
            books = True
    if not books:
        return False
    for slot in range(1, players):
        base = O.SEATS + slot * O.SEAT_FIELDS
        if obs[base + O.SEAT_PARTNER] == 0 and obs[base + O.SEAT_ON_FOOT] != 0:
            return True
    return False


@njit(cache=True)
def sevens_missing(obs):
    """HeuristicAgent.sevens_missing: a book of 7s is needed to go out and missing."""
    base = O.VARIATION_SIDES  # my side is owner slot 0
    sevens_clean = obs[base + O.SIDE_SEVENS_CLEAN]
    sevens_dirty = obs[base + O.SIDE_SEVENS_DIRTY]
    return (
        (obs[O.RULE_SEVENS_ANY] != 0 and sevens_clean + sevens_dirty < 1)
        or (obs[O.RULE_SEVENS_CLEAN] != 0 and sevens_clean < 1)
        or (obs[O.RULE_SEVENS_DIRTY] != 0 and sevens_dirty < 1)
    )


@njit(cache=True)
def may_go_out(obs):
    """HeuristicAgent.may_go_out: all my side needs to go out but the partner's permission."""
    base = O.OWNERS
    if (
        obs[base + O.OWNER_CLEAN_BOOKS] < obs[O.GAME_CLEAN_NEEDED]
        or obs[base + O.OWNER_DIRTY_BOOKS] < obs[O.GAME_DIRTY_NEEDED]
    ):
        return False
    if obs[O.RULE_WILD_BOOK_TO_GO_OUT] != 0 and wild_books(obs, 0) < 1:
        return False
    if sevens_missing(obs):
        return False
    if obs[O.RULE_PARTNER_FOOT_FIRST] != 0:
        for slot in range(1, int(obs[O.GAME_PLAYERS])):
            seat = O.SEATS + slot * O.SEAT_FIELDS
            if obs[seat + O.SEAT_PARTNER] != 0 and obs[seat + O.SEAT_ON_FOOT] == 0:
                return False
    return True


@njit(cache=True)
def builds_wild_book(obs, params):
    """HeuristicAgent.builds_wild_book: wilds go to a wild book."""
    if obs[O.RULE_WILD_BOOKS] == 0:
        return False
    needed = obs[O.RULE_WILD_BOOK_TO_GO_OUT] != 0 and wild_books(obs, 0) < 1
    return needed or np.float64(obs[O.RULE_WILD_BOOK_BONUS]) * 1000.0 >= params[WILD_BOOK_MIN_BONUS]


@njit(cache=True)
def answer_choice(obs, mask, rules, params):
    """HeuristicAgent._answer: asked "may I go out?", no when my cards held cost more than the
    going-out bonus (plus permission_margin)."""
    held = 0.0
    for k in range(NUM_KINDS):
        held += np.float64(obs[O.HAND + k]) * VALUES[k]
    held += np.float64(obs[O.SEATS + O.SEAT_FOOT]) * params[HELD_CARD_VALUE]
    action = A.ANSWER_YES if rules.going_out_bonus + params[PERMISSION_MARGIN] >= held else A.ANSWER_NO
    return action if mask[action] else first_legal(mask)


@njit(cache=True)
def meld_choice(obs, mask, rules, params):
    """HeuristicAgent._meld: a meld to make, or NONE."""
    clean = obs[O.OWNERS + O.OWNER_CLEAN_BOOKS]
    need_clean = int(obs[O.GAME_CLEAN_NEEDED])
    stock = int(obs[O.GAME_STOCK])
    # whether another side could go out matters only to two habits the defaults leave off
    out_near = (params[RUSH_OUT_NEAR] != 0 or params[LATE_OUT_NEAR] != 0) and they_can_go_out(obs)
    keep_two = (
        obs[O.ON_FOOT] != 0
        and not going_out_wins(obs, rules, params)
        and stock > params[KEEP_TWO_STOCK]
        and not (out_near and params[RUSH_OUT_NEAR] != 0)
    )
    cards = np.float32(0.0)
    for k in range(NUM_KINDS):
        cards += obs[O.HAND + k]

    def allowed(action, used):
        return mask[action] and (not keep_two or cards - used >= 2)

    # Going out is what it wants and the partner's permission is all that is missing: ask.
    if mask[A.ASK_TO_GO_OUT] and obs[O.ON_FOOT] != 0 and not keep_two and may_go_out(obs):
        return A.ASK_TO_GO_OUT

    # House: runs and the book of 2s first, and a new book of 2s when red canastas are missing.
    if obs[O.HOUSE_RULE_RUNS] != 0:
        for suit in range(NUM_SUITS):
            for action in (A.EXTEND_RUN_DOWN + suit, A.EXTEND_RUN_UP + suit):
                if allowed(action, 1):
                    return action
        if allowed(A.ADD_TWO_TO_TWOS_BOOK, 1):
            return A.ADD_TWO_TO_TWOS_BOOK
        for suit in range(NUM_SUITS):
            for low in range(A.RUN_STARTS):
                action = A.START_RUN + A.RUN_STARTS * suit + low
                if allowed(action, 3):
                    worth_more_in_a_book = False
                    for r in range(low, low + 3):
                        if obs[O.HAND + FIRST_NATURAL + r] >= 3:
                            worth_more_in_a_book = True
                    if not worth_more_in_a_book:
                        return action
        if clean < need_clean and obs[O.HAND + TWO] >= 3 and allowed(A.START_TWOS_BOOK, 3):
            return A.START_TWOS_BOOK
    # Naturals onto our groups, then new clean groups of three or more.
    hold_pairs = obs[O.PILE_SIZE] >= params[HOLD_PAIRS_PILE]
    for r in range(NUM_NATURALS):
        if allowed(A.ADD_NATURAL + r, 1) and not (hold_pairs and obs[O.HAND + FIRST_NATURAL + r] == 2):
            return A.ADD_NATURAL + r
    # Black threes, where they form books of their own.
    if obs[O.RULE_BLACK_THREE_BOOKS] != 0:
        if allowed(A.ADD_BLACK_THREE, 1):
            return A.ADD_BLACK_THREE
        if obs[O.HAND + BLACK_THREE] >= 3 and allowed(A.START_THREES_GROUP, 3):
            return A.START_THREES_GROUP
    # A wild book where it pays: every wild goes there (2s first), started with three.
    wild_book = builds_wild_book(obs, params)
    if wild_book:
        for action in (A.ADD_TWO_TO_WILD_BOOK, A.ADD_JOKER_TO_WILD_BOOK):
            if allowed(action, 1):
                return action
        twos = int(min(obs[O.HAND + TWO], 3))
        if obs[O.HAND + TWO] + obs[O.HAND + JOKER] >= 3 and allowed(A.START_WILD_BOOK + 3 - twos, 3):
            return A.START_WILD_BOOK + 3 - twos
    keys = np.empty(NUM_NATURALS, dtype=np.float32)
    for r in range(NUM_NATURALS):
        keys[r] = -obs[O.HAND + FIRST_NATURAL + r]
    order = stable_order(keys)
    for i in range(NUM_NATURALS):
        r = order[i]
        if obs[O.HAND + FIRST_NATURAL + r] >= max(3, params[NEW_GROUP_MIN]) and allowed(A.START_GROUP + 3 * r, 3):
            return A.START_GROUP + 3 * r
    # Wilds: never on the clean groups counted on for the clean books still needed.
    late = stock < params[LATE_STOCK] * int(obs[O.GAME_PLAYERS]) or (out_near and params[LATE_OUT_NEAR] != 0)
    sizes = np.empty(NUM_NATURALS, dtype=np.float32)
    for r in range(NUM_NATURALS):
        sizes[r] = -group_size(obs, 0, r)
    by_size = stable_order(sizes)  # the groups nearest to a book first
    by_wild_order = by_size  # where wilds go: nearest to a book (dirty ones first with a preference)
    if params[DIRTY_PREFERENCE] != 0:
        wild_keys = np.empty(NUM_NATURALS, dtype=np.float64)
        for r in range(NUM_NATURALS):
            wild_keys[r] = -np.float64(group_size(obs, 0, r)) - (
                params[DIRTY_PREFERENCE] if group_wilds(obs, 0, r) > 0 else 0.0
            )
        by_wild_order = stable_order(wild_keys)
    protected = np.zeros(NUM_NATURALS, dtype=np.bool_)
    if (clean < need_clean or params[PROTECT_ALWAYS] != 0) and not late:
        room = max(max(int(np.float32(need_clean) - clean), 0) + int(params[EXTRA_PROTECTED]), 0)
        for i in range(NUM_NATURALS):
            r = by_size[i]
            if room == 0:
                break
            if group_size(obs, 0, r) > 0 and group_wilds(obs, 0, r) == 0:  # a clean group
                protected[r] = True
                room -= 1
    for r in range(NUM_NATURALS if params[CLEAN_MIN_SIZE] < OFF else 0):
        if group_size(obs, 0, r) >= params[CLEAN_MIN_SIZE] and group_wilds(obs, 0, r) == 0:
            protected[r] = True
    if obs[O.RULE_SEVENS_CLEAN] != 0 and obs[O.VARIATION_SIDES + O.SIDE_SEVENS_CLEAN] == 0:
        protected[SEVEN_RANK] = True  # a clean book of 7s is needed to go out
    # Pairs go down with a wild first, then wilds finish the groups nearest to a book.
    values = np.empty(NUM_NATURALS, dtype=np.float64)
    for r in range(NUM_NATURALS):
        values[r] = -VALUES[FIRST_NATURAL + r]
    by_value = stable_order(values)
    for step in range(2):
        if (step == 0) == (params[WILDS_FIRST] == 0):
            for i in range(NUM_NATURALS if params[WILD_PAIRS] != 0 and not wild_book else 0):
                r = by_value[i]
                if hold_pairs and obs[O.HAND + FIRST_NATURAL + r] == 2:
                    continue
                for comp in (2, 1):
                    if allowed(A.START_GROUP + 3 * r + comp, 3):
                        return A.START_GROUP + 3 * r + comp
        else:
            wilds = obs[O.HAND + TWO] + obs[O.HAND + JOKER]
            if wilds <= params[KEEP_WILDS] and cards - wilds >= params[KEEP_WILDS_MIN_HAND]:
                continue  # kept: a wild starts a new group with the next pair
            for i in range(NUM_NATURALS if stock < params[WILD_STOCK] and not wild_book else 0):
                r = by_wild_order[i]
                size = group_size(obs, 0, r)
                if (
                    size == 0
                    or protected[r]
                    or size < params[WILD_MIN_GROUP]
                    or group_wilds(obs, 0, r) >= params[MAX_GROUP_WILDS]
                ):
                    continue
                for action in (A.ADD_JOKER + r, A.ADD_TWO + r):
                    if allowed(action, 1):
                        return action
    return NONE
