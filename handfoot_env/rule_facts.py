"""Rule facts, compiled: one home for each, used by :class:`~handfoot_env.rules.Rules` and by
the vector engine's kernels alike.

Each function reads ``rules``, the record that :meth:`Rules.kernel` builds (fields named as
the ``KERNEL_RULES`` dtype in ``rules.py``).  The reference engine keeps its own plain
Python for the same facts on purpose: it is the oracle the fast side is tested against.
"""

from __future__ import annotations

from numba import njit

# wild_limit codes (Rules.wild_limit, in the order of rules.WILD_LIMITS)
MAJORITY, BY_SIZE, FOUR_NATURALS = 0, 1, 2


@njit(cache=True)
def owner_of(rules, seat):
    """Who owns a seat's melds and score: the player, or its team in partnerships."""
    if rules.partnerships:
        return seat % rules.owners
    return seat


@njit(cache=True)
def opening_minimum(rules, deal, running_total):
    """The points an owner's first melds of ``deal`` must reach: by deal, or (house) by the
    owner's running total before the deal."""
    if rules.score_steps == 0:
        return rules.minimums[deal]
    for row in range(rules.score_steps):
        if running_total < rules.score_minimums[row, 0]:
            return rules.score_minimums[row, 1]
    return rules.score_minimums[rules.score_steps - 1, 1]


@njit(cache=True)
def meets_books(rules, deal, clean, dirty):
    """Whether an owner with these books may go out in ``deal``."""
    return clean >= rules.books_needed[deal, 0] and dirty >= rules.books_needed[deal, 1]


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
def book_bonus(rules, clean, dirty):
    """The bonus for ``clean`` clean and ``dirty`` dirty books (house: red and black canastas)."""
    return clean * rules.clean_bonus + dirty * rules.dirty_bonus


@njit(cache=True)
def deal_score(rules, melded, clean, dirty, red_threes, opened, went_out, held):
    """An owner's score for a deal (RULES.md "Scoring a deal"): the card values of its melds,
    book bonuses, its red threes (a penalty for a team that never opened, in partnership),
    the going-out bonus, less ``held`` (what its members' cards still held cost)."""
    per_red_three = -rules.red_bonus if rules.red_unopened_penalty and not opened else rules.red_bonus
    score = melded + book_bonus(rules, clean, dirty) + red_threes * per_red_three - held
    if went_out:
        score += rules.out_bonus
    return score
