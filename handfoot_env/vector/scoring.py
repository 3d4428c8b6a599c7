"""Deal scores, compiled: one function for the end of a deal and for the score so far.

``owner_deal_score`` gathers an owner's parts of the deal from the record (melds, books, red
threes, what its members still hold) and ``rule_facts.deal_score`` adds them up; the
end of a deal (``step.end_deal``) and the running scores that shaping rewards read
(``VectorEngine.running_scores``) both call it.
"""

from __future__ import annotations

from numba import njit

from handfoot_env.cards import NUM_KINDS, RED_THREE
from handfoot_env.rule_facts import deal_score, held_penalty, owner_of
from handfoot_env.vector.counts import VALUES
from handfoot_env.vector.state import STAGED


@njit(cache=True)
def owner_deal_score(s, rules, owner, went_out):
    """``owner``'s score for the deal as it stands, ``went_out`` being the seat that went out
    (-1: nobody, the deal ended or is scored so far)."""
    melded = 0
    for k in range(NUM_KINDS):
        melded += s.table_cards[owner, k] * VALUES[k]
    held = 0
    for seat in range(rules.num_players):
        if owner_of(rules, seat) != owner:
            continue
        held += held_penalty(rules, s.hand[seat])
        if seat == s.current:
            held += held_penalty(rules, s.table_cards[STAGED])
        if s.on_foot[seat] == 0:
            held += held_penalty(rules, s.foot[seat])
    out = went_out >= 0 and owner_of(rules, went_out) == owner
    return deal_score(
        rules,
        melded,
        s.books[owner, 0],
        s.books[owner, 1],
        s.wild_books[owner],
        s.table_cards[owner, RED_THREE],
        s.opened[owner] != 0,
        out,
        held,
    )
