"""Rule facts, compiled: one home for each, used by :class:`~handfoot_env.rules.Rules` and by
the vector engine's kernels alike.

Each function reads ``rules``, the record that :meth:`Rules.kernel` builds: every field of
``Rules`` under its own name (``rules.book_size``, ``rules.going_out_bonus``...), plus
``num_owners``, ``total_cards`` and ``num_score_steps``.  The reference engine reads most
facts a second time in plain Python (``reference/rule_facts.py``, ``reference/scoring.py``)
on purpose: it is the oracle the fast side is tested against.  The cost of cards still held
(``held_penalty``) it takes from here, through ``Rules.held_penalty``; the independent
recount of every finished deal (``reference/invariants.py``) checks it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from handfoot_env.cards import BLACK_THREE, KIND_VALUES, NUM_KINDS, RED_THREE

CARD_VALUES = np.array(KIND_VALUES, dtype=np.int64)  # the points of a card of each kind

# wild_limit codes (Rules.wild_limit, in the order of rules.WILD_LIMITS)
MAJORITY, BY_SIZE, FOUR_NATURALS = 0, 1, 2
# sevens_book_to_go_out codes (in the order of rules.SEVENS_BOOKS)
SEVENS_NO, SEVENS_ANY, SEVENS_CLEAN, SEVENS_DIRTY = 0, 1, 2, 3
SEVEN_RANK = 3  # the rank index of the 7s (4 is 0)


@njit(cache=True)
def owner_of(rules, seat):
    """Who owns a seat's melds and score: the player, or its team in partnerships."""
    if rules.partnerships:
        return seat % rules.num_owners
    return seat


@njit(cache=True)
def opening_minimum(rules, deal, running_total):
    """The points an owner's first melds of ``deal`` must reach: by deal, or (house) by the
    owner's running total before the deal."""
    if rules.num_score_steps == 0:
        return rules.deal_minimums[deal]
    for row in range(rules.num_score_steps):
        if running_total < rules.minimums_by_score[row, 0]:
            return rules.minimums_by_score[row, 1]
    return rules.minimums_by_score[rules.num_score_steps - 1, 1]


@njit(cache=True)
def meets_book_requirement(rules, deal, clean, dirty, wild, sevens_clean, sevens_dirty):
    """Whether an owner with these books may go out in ``deal`` (docs/rules.md "The foot and
    going out", "Variations"): the clean and dirty books of the deal, and where the rules ask
    for them a wild book and a book of 7s (``sevens_clean``/``sevens_dirty``: its books of 7s)."""
    if clean < rules.books_to_go_out[deal, 0] or dirty < rules.books_to_go_out[deal, 1]:
        return False
    if rules.wild_book_to_go_out and wild < 1:
        return False
    if rules.sevens_book_to_go_out == SEVENS_ANY:
        return sevens_clean + sevens_dirty >= 1
    if rules.sevens_book_to_go_out == SEVENS_CLEAN:
        return sevens_clean >= 1
    if rules.sevens_book_to_go_out == SEVENS_DIRTY:
        return sevens_dirty >= 1
    return True


@njit(cache=True)
def wilds_allowed(rules, naturals, wilds):
    """Whether a group of one natural rank may hold this many naturals and wilds."""
    if wilds == 0:
        return naturals >= 1
    if wilds > rules.max_wilds or naturals <= wilds:
        return False
    if rules.wild_limit == BY_SIZE:
        return wilds <= (1 if naturals + wilds <= 5 else 2)
    if rules.wild_limit == FOUR_NATURALS:
        return naturals >= 4
    return True


@njit(cache=True)
def book_bonus(rules, clean, dirty, wild):
    """The bonus for ``clean`` clean, ``dirty`` dirty and ``wild`` wild books (house: red and
    black canastas)."""
    return clean * rules.clean_book_bonus + dirty * rules.dirty_book_bonus + wild * rules.wild_book_bonus


@njit(cache=True)
def held_penalty(rules, cards):
    """What ``cards`` (counts per kind) still held at the end of a deal cost: each its card value,
    a black three ``black_three_penalty`` and a red three ``red_three_unlaid_penalty``
    (docs/rules.md "Scoring")."""
    cost = 0
    for kind in range(NUM_KINDS):
        if kind == BLACK_THREE:
            cost += cards[kind] * rules.black_three_penalty
        elif kind == RED_THREE:
            cost += cards[kind] * rules.red_three_unlaid_penalty
        else:
            cost += cards[kind] * CARD_VALUES[kind]
    return cost


@njit(cache=True)
def deal_score(rules, melded, clean, dirty, wild, red_threes, opened, went_out, held):
    """An owner's score for a deal (docs/rules.md "Scoring"): the card values of its melds,
    book bonuses, its red threes (a penalty for a team that never opened, in partnership),
    the going-out bonus, less ``held`` (what its members' cards still held cost)."""
    per_red_three = -rules.red_three_bonus if rules.red_three_unopened_penalty and not opened else rules.red_three_bonus
    score = melded + book_bonus(rules, clean, dirty, wild) + red_threes * per_red_three - held
    if went_out:
        score += rules.going_out_bonus
    return score
