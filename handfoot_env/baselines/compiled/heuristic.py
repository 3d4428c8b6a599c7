"""The scripted baselines, compiled: a whole batch of decisions in one call.

``heuristic.py`` and ``greedy.py`` are the readable versions, the way the reference engine is
the readable engine; these make the same decision on every observation and mask (the tests
compare them action for action over whole games) at engine speed, so that training and
evaluation against them are not held up by a Python loop over games.

The heuristic's port follows ``HeuristicAgent`` method by method: what it reads from an
observation is ``reads.py``, its melding after the opening and its going out
``melds.py``, its opening, draw, discard and the whole decision here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from handfoot_env import actions as A
from handfoot_env import observation as O
from handfoot_env.baselines.compiled.melds import answer_choice, meld_choice, sevens_missing
from handfoot_env.baselines.compiled.reads import (
    NONE,
    VALUES,
    first_legal,
    group_size,
    pile_top,
    run_neighbours,
    stable_order,
    top_fits,
)
from handfoot_env.baselines.greedy import _RANK as GREEDY_RANK
from handfoot_env.baselines.heuristic_params import (
    BLACK_THREE_SCORE,
    BLACK_THREE_WORTH_SCORE,
    BLOCK_PILE_SIZE,
    DANGER_WEIGHT,
    DEFAULT_PARAMS,
    FEED_PENALTY,
    FEED_PILE_MIN,
    NUM_PAIR_FEATURES,
    OWN_GROUP_BONUS,
    PAIR_BONUS,
    PAIR_WEIGHTS,
    SEVENS_KEEP,
    TAKE_MIN_PILE,
    VALUE_WEIGHT,
    WILD_TAKE_MIN_PILE,
    WINDOW_RANK_SCORE,
)
from handfoot_env.cards import BLACK_THREE, FIRST_NATURAL, JOKER, NUM_KINDS, NUM_NATURALS, NUM_SUITS, RED_THREE, TWO
from handfoot_env.kernel_cache import compile_once
from handfoot_env.rule_facts import SEVEN_RANK
from handfoot_env.rules import Rules

PLAN_SIZE = 256  # room for the longest opening plan


# ---------------------------------------------------------------------------- greedy
@njit(cache=True)
def greedy_actions(masks, rank, out):
    """Greedy: the legal action earliest in its fixed preference order."""
    for b in range(masks.shape[0]):
        best = -1
        for a in range(masks.shape[1]):
            if masks[b, a] and (best < 0 or rank[a] < rank[best]):
                best = a
        out[b] = best


# ---------------------------------------------------------------------------- opening
@njit(cache=True)
def opening_plan(obs, needed, keep_kind, keep_count, mask, use_mask, plan):
    """HeuristicAgent._opening_plan: fills ``plan`` with staging actions (first ones first)
    that add ``needed`` points and returns their number, or -1 when they cannot."""
    hand = np.empty(NUM_KINDS, dtype=np.float32)
    for k in range(NUM_KINDS):
        hand[k] = obs[O.HAND + k]
    if keep_kind >= 0:
        hand[keep_kind] -= keep_count
    n = 0
    total = 0.0
    reserve = 2 if obs[O.ON_FOOT] != 0 else 1  # a discard must remain
    hand_sum = np.float32(0.0)
    for k in range(NUM_KINDS):
        hand_sum += hand[k]
    spare = int(hand_sum) - reserve
    keys = np.empty(NUM_NATURALS, dtype=np.float64)
    for r in range(NUM_NATURALS):
        keys[r] = -VALUES[FIRST_NATURAL + r] * np.float64(hand[FIRST_NATURAL + r])
    ranks = stable_order(keys)
    # Natural groups first, most valuable first.
    for i in range(NUM_NATURALS):
        r = ranks[i]
        kind = FIRST_NATURAL + r
        count = int(hand[kind])
        if obs[O.STAGED + kind] > 0 and count > 0:
            take = min(count, spare)
            for _ in range(take):
                plan[n] = A.ADD_NATURAL + r
                n += 1
        elif count >= 3:
            take = min(count, 7, spare)
            if take < 3:
                continue
            plan[n] = A.START_GROUP + 3 * r
            n += 1
            for _ in range(take - 3):
                plan[n] = A.ADD_NATURAL + r
                n += 1
        else:
            continue
        total += take * VALUES[kind]
        spare -= take
        if total >= needed:
            return n
    # House: runs of ranks no group above uses, and the book of 2s.
    if use_mask and obs[O.HOUSE_RULE_RUNS] != 0:
        used = np.zeros(NUM_NATURALS, dtype=np.bool_)
        for i in range(n):
            a = plan[i]
            if A.START_GROUP <= a < A.ADD_NATURAL and (a - A.START_GROUP) % 3 == 0:
                used[(a - A.START_GROUP) // 3] = True
            elif A.ADD_NATURAL <= a < A.ADD_TWO:
                used[a - A.ADD_NATURAL] = True
        for suit in range(NUM_SUITS):
            for low in range(A.RUN_STARTS):
                action = A.START_RUN + A.RUN_STARTS * suit + low
                if not mask[action] or spare < 3 or used[low] or used[low + 1] or used[low + 2]:
                    continue
                plan[n] = action
                n += 1
                total += VALUES[FIRST_NATURAL + low] + VALUES[FIRST_NATURAL + low + 1] + VALUES[FIRST_NATURAL + low + 2]
                spare -= 3
                used[low] = used[low + 1] = used[low + 2] = True
                if total >= needed:
                    return n
    if use_mask and mask[A.START_TWOS_BOOK] and hand[TWO] >= 3 and spare >= 3:
        plan[n] = A.START_TWOS_BOOK
        n += 1
        total += 3 * VALUES[TWO]
        spare -= 3
        hand[TWO] -= 3
        if total >= needed:
            return n
    # Then wilds: on pairs (jokers first, then 2s).
    jokers = int(hand[JOKER])
    twos = int(hand[TWO])
    for i in range(NUM_NATURALS):
        r = ranks[i]
        kind = FIRST_NATURAL + r
        if jokers + twos == 0 or spare < 3:
            break
        if hand[kind] == 2 and obs[O.STAGED + kind] == 0:
            if jokers > 0:
                jokers -= 1
                wild, comp = JOKER, 2
            else:
                twos -= 1
                wild, comp = TWO, 1
            plan[n] = A.START_GROUP + 3 * r + comp
            n += 1
            total += 2 * VALUES[kind] + VALUES[wild]
            spare -= 3
            if total >= needed:
                return n
    return -1


@njit(cache=True)
def first_in_plan(plan, count, mask):
    for i in range(count):
        if mask[plan[i]]:
            return plan[i]
    return NONE


# ---------------------------------------------------------------------------- draw
@njit(cache=True)
def draw_choice(obs, mask, plan, params):
    if obs[O.HOUSE_RULE_RUNS] != 0:  # house: the top discard comes with one stock card; take it if it fits
        if mask[A.TAKE_PILE] and (top_fits(obs) or not mask[A.DRAW]):
            return A.TAKE_PILE
        return A.DRAW if mask[A.DRAW] else first_legal(mask)
    if mask[A.TAKE_PILE] and obs[O.PILE_SIZE] >= params[TAKE_MIN_PILE]:
        return A.TAKE_PILE
    if mask[A.TAKE_ONTO_TABLE] and obs[O.PILE_SIZE] >= params[TAKE_MIN_PILE]:
        return A.TAKE_ONTO_TABLE  # the top card onto our group: no card leaves the hand
    if obs[O.PILE_SIZE] >= params[WILD_TAKE_MIN_PILE]:
        for action in (A.TAKE_WITH_TWO, A.TAKE_WITH_JOKER):  # a 2 is the cheaper wild to give
            if mask[action]:
                return action
    top = pile_top(obs)
    # Partnership: stage groups before the take when that makes the take open the side.
    if obs[O.GAME_OPENED] == 0 and top != NONE and top >= FIRST_NATURAL and obs[O.HAND + top] >= 2:
        needed = np.float64(obs[O.GAME_MINIMUM]) * 100 - np.float64(obs[O.STAGED_VALUE]) * 100 - 3 * VALUES[top]
        count = opening_plan(obs, needed, top, 2, mask, False, plan)
        if count >= 0:
            action = first_in_plan(plan, count, mask)
            if action != NONE:
                return action
    if mask[A.DRAW]:
        return A.DRAW
    return first_legal(mask)


# ---------------------------------------------------------------------------- the pair model
@njit(cache=True)
def pair_features(obs, r, out):
    """The pair model's features of natural rank ``r`` (``heuristic_params.PAIR_FEATURES`` order)."""
    kind = FIRST_NATURAL + r
    next_seat = O.SEATS + O.SEAT_FIELDS  # seat slot 1: the next player; owner slot 1: its side
    visible = np.float64(obs[O.PILE_COUNTS + kind]) + np.float64(obs[O.HAND + kind])  # counts: exact in float64
    for slot in range(O.MAX_OWNERS):
        visible += np.float64(obs[O.OWNERS + slot * O.OWNER_FIELDS + O.OWNER_GROUPS + 3 * r])
    out[0] = 1.0
    out[1] = np.float64(obs[next_seat + O.SEAT_HELD]) / 10.0
    out[2] = 1.0 if obs[O.OWNERS + O.OWNER_FIELDS + O.OWNER_OPENED] != 0 else 0.0
    out[3] = 1.0 if group_size(obs, 1, r) > 0 else 0.0
    out[4] = visible / 5.0
    out[5] = 1.0 if obs[next_seat + O.SEAT_ON_FOOT] != 0 else 0.0
    out[6] = np.float64(obs[O.HAND + kind])
    out[7] = VALUES[kind] / 20.0
    out[8] = 1.0 if obs[O.PILE_TAKE_WINDOW + kind] > 0 else 0.0
    known = obs[O.SEAT_KNOWN + NUM_KINDS + kind]  # seat slot 1's known cards
    out[9] = 1.0 if known == 1 else 0.0
    out[10] = 1.0 if known >= 2 else 0.0


@njit(cache=True)
def pair_chance(obs, r, params, features):
    """The pair model's chance that the next player holds two or more of natural rank ``r``."""
    pair_features(obs, r, features)
    z = 0.0
    for i in range(NUM_PAIR_FEATURES):
        z += params[PAIR_WEIGHTS + i] * features[i]
    return 1.0 / (1.0 + np.exp(-z))


@njit(cache=True)
def pair_feature_rows(observations, out):
    """``out[b, r]``: the pair model's features of rank ``r`` in position ``b`` (for fitting it)."""
    for b in range(observations.shape[0]):
        for r in range(NUM_NATURALS):
            pair_features(observations[b], r, out[b, r])


# ---------------------------------------------------------------------------- the discard
@njit(cache=True)
def suited_discard(obs, mask, rank):
    """House: the suited discard of ``rank`` whose card helps my runs least."""
    best = NONE
    best_near = 1 << 30
    for suit in range(NUM_SUITS):
        action = A.DISCARD_SUITED + NUM_NATURALS * suit + rank
        if mask[action]:
            near = run_neighbours(obs, suit, rank)
            if near < best_near:
                best, best_near = action, near
    return best


@njit(cache=True)
def discard_choice(obs, mask, params, features):
    next_slot = 1  # the next player is always the first other side
    pile_size = int(obs[O.PILE_SIZE])
    window = 0.0
    for k in range(NUM_KINDS):
        window += np.float64(obs[O.PILE_TAKE_WINDOW + k]) * VALUES[k]
    pile_worth = pile_size >= 6 or window >= 60
    next_can_take = (
        pile_size >= params[FEED_PILE_MIN] and obs[O.OWNERS + next_slot * O.OWNER_FIELDS + O.OWNER_OPENED] > 0
    )
    runs = obs[O.HOUSE_RULE_RUNS] != 0
    best = NONE
    best_score = np.inf
    for kind in range(NUM_KINDS):
        action = A.DISCARD + kind
        if runs and kind >= FIRST_NATURAL:
            action = suited_discard(obs, mask, kind - FIRST_NATURAL)
        if action == NONE or not mask[action]:
            continue
        if kind == RED_THREE:
            score = -1000.0  # house: a red three held at the end costs 500
        elif kind == TWO and pile_size >= params[BLOCK_PILE_SIZE]:
            score = -200.0  # a 2 on top blocks the next player's take of a big pile
        elif kind == TWO or kind == JOKER:
            score = 1000.0 + VALUES[kind]  # never throw a wild away if anything else will do
        elif kind == BLACK_THREE:
            score = params[BLACK_THREE_WORTH_SCORE] if pile_worth else params[BLACK_THREE_SCORE]
        else:
            r = kind - FIRST_NATURAL
            score = params[VALUE_WEIGHT] * VALUES[kind]
            if obs[O.HAND + kind] >= 2:
                score += params[PAIR_BONUS]  # a pair: a ticket to the pile
            if group_size(obs, 0, r) > 0:
                score += params[OWN_GROUP_BONUS]  # it would go on our group
            if group_size(obs, next_slot, r) > 0 and next_can_take:
                score += params[FEED_PENALTY]
            if obs[O.PILE_TAKE_WINDOW + kind] > 0:
                score += params[WINDOW_RANK_SCORE]
            if r == SEVEN_RANK and sevens_missing(obs):
                score += params[SEVENS_KEEP]  # a book of 7s is needed to go out
            if params[DANGER_WEIGHT] != 0:
                score += params[DANGER_WEIGHT] * pair_chance(obs, r, params, features)
        if score < best_score:
            best, best_score = action, score
    if best == NONE:
        return first_legal(mask)
    return best


# ---------------------------------------------------------------------------- one decision
@njit(cache=True)
def heuristic_choice(obs, mask, rules, params, plan, features):
    legal = 0
    only = NONE
    for a in range(mask.shape[0]):
        if mask[a]:
            legal += 1
            only = a
    if legal == 1:
        return only
    if mask[A.ANSWER_YES] or mask[A.ANSWER_NO]:  # my partner asks: may I go out?
        return answer_choice(obs, mask, rules, params)
    if obs[O.GAME_DRAW_PHASE] != 0:
        return draw_choice(obs, mask, plan, params)
    if obs[O.GAME_OPENED] == 0:
        needed = np.float64(obs[O.GAME_MINIMUM]) * 100 - np.float64(obs[O.STAGED_VALUE]) * 100
        count = opening_plan(obs, needed, -1, 0, mask, True, plan)
        if count >= 0:
            action = first_in_plan(plan, count, mask)
            if action != NONE:
                return action
        return discard_choice(obs, mask, params, features)
    action = meld_choice(obs, mask, rules, params)
    return action if action != NONE else discard_choice(obs, mask, params, features)


@njit(cache=True)
def heuristic_actions(observations, masks, rules, params, out):
    """The heuristic's decision for every row (``rules`` is ``Rules.kernel``, ``params`` its
    numbers in ``heuristic_params`` order)."""
    plan = np.empty(PLAN_SIZE, dtype=np.int64)
    features = np.empty(NUM_PAIR_FEATURES)  # the pair model's, for one rank at a time
    for b in range(masks.shape[0]):
        out[b] = heuristic_choice(observations[b], masks[b], rules[0], params, plan, features)


# ---------------------------------------------------------------------------- the agents
def compile_baselines() -> None:
    """Run the compiled baselines once on each preset's positions, so that they compile."""
    from handfoot_env.vector import VectorEngine

    for rules in (Rules.preset("classic"), Rules.preset("partnership"), Rules.preset("house")):
        engine = VectorEngine(rules, batch_size=8, seed=0)
        masks, observations = engine.legal_mask().copy(), engine.observe().copy()
        out = np.empty(8, dtype=np.int64)
        heuristic_actions(observations, masks, rules.kernel, DEFAULT_PARAMS, out)
        greedy_actions(masks, GREEDY_RANK, out)


class CompiledGreedy:
    """``GreedyAgent``'s decisions, compiled."""

    name = "greedy"
    reads_observations = False  # decides from the legal mask alone: the tables pass None

    def __init__(self):
        compile_once("baselines", compile_baselines, "half a minute")

    def act(self, observations: np.ndarray | None, masks: np.ndarray) -> np.ndarray:
        masks = np.ascontiguousarray(masks, dtype=np.bool_)
        out = np.empty(masks.shape[0], dtype=np.int64)
        greedy_actions(masks, GREEDY_RANK, out)
        return out


class CompiledHeuristic:
    """``HeuristicAgent``'s decisions, compiled over the observation batch; ``params``
    (``heuristic_params`` order) plays a variant."""

    name = "heuristic"

    def __init__(self, rules: Rules | None = None, params: np.ndarray | None = None, name: str = "heuristic"):
        self.rules = rules if rules is not None else Rules.preset("classic")
        self.params = np.ascontiguousarray(DEFAULT_PARAMS if params is None else params, dtype=np.float64)
        self.name = name
        compile_once("baselines", compile_baselines, "half a minute")

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        masks = np.ascontiguousarray(masks, dtype=np.bool_)
        observations = np.ascontiguousarray(observations, dtype=np.float32)
        out = np.empty(masks.shape[0], dtype=np.int64)
        heuristic_actions(observations, masks, self.rules.kernel, self.params, out)
        return out


__all__ = ["CompiledGreedy", "CompiledHeuristic", "greedy_actions", "heuristic_actions"]
