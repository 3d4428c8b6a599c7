"""Observations, compiled: the layout of ``handfoot_env/observation.py`` for each game's mover.

Mirrors ``reference/observe.py`` field for field."""

from __future__ import annotations

from numba import njit

from handfoot_env import observation as O
from handfoot_env.cards import NUM_KINDS, NUM_NATURALS, NUM_SUITS
from handfoot_env.vector.legality import (
    KIND_OF_CARD, SUIT_OF_CARD, VALUES, hand_total, minimum, owner_of, staged_total,
)
from handfoot_env.vector.state import DRAW, PLAY


@njit(cache=True)
def fill_observation(s, rules, seat, obs):
    obs[:] = 0.0
    n = rules.players
    owners = rules.owners
    my_owner = owner_of(rules, seat)
    for k in range(NUM_KINDS):
        obs[O.HAND + k] = s.hand[seat, k]
    if seat == s.current:
        for k in range(NUM_KINDS):
            obs[O.STAGED + k] = s.staged_cards[k]
        obs[O.STAGED_VALUE] = s.staged_value / 100.0
    obs[O.ON_FOOT] = s.on_foot[seat]

    for slot in range(n):
        other = (seat + slot) % n
        base = O.SEATS + slot * O.SEAT_FIELDS
        held = hand_total(s, other)
        if other == s.current:
            held += staged_total(s)
        foot = 0
        if s.on_foot[other] == 0:
            for k in range(NUM_KINDS):
                foot += s.foot[other, k]
        obs[base] = 1.0
        obs[base + 1] = 1.0 if other != seat and owner_of(rules, other) == my_owner else 0.0
        obs[base + 2] = held
        obs[base + 3] = foot
        obs[base + 4] = s.on_foot[other]

    for slot in range(owners):
        owner = (my_owner + slot) % owners
        base = O.OWNERS + slot * O.OWNER_FIELDS
        melded = 0
        for k in range(NUM_KINDS):
            melded += s.table_cards[owner, k] * VALUES[k]
        obs[base] = 1.0
        obs[base + 1] = s.opened[owner]
        obs[base + 2] = s.table_cards[owner, 3]  # red threes
        obs[base + 3] = s.books[owner, 0]
        obs[base + 4] = s.books[owner, 1]
        obs[base + 5] = melded / 100.0
        obs[base + 6] = s.totals[owner] / 1000.0
        obs[base + 7] = minimum(s, rules, owner) / 100.0
        for r in range(NUM_NATURALS):
            for c in range(3):
                obs[base + O.OWNER_HEADER + 3 * r + c] = s.groups[owner, r, c]

    obs[O.PILE_SIZE] = s.pile_len
    if s.pile_len > 0:
        obs[O.PILE_TOP + KIND_OF_CARD[s.pile[s.pile_len - 1]]] = 1.0
        for i in range(s.pile_len):
            obs[O.PILE_COUNTS + KIND_OF_CARD[s.pile[i]]] += 1.0
        window = s.pile_len - 1
        if rules.one_plus_discard:
            window = 0  # house: only the top discard is ever taken
        elif rules.take_count >= 0:
            window = min(window, max(rules.take_count - 1, 0))
        for i in range(s.pile_len - 1 - window, s.pile_len - 1):
            obs[O.PILE_TAKE_WINDOW + KIND_OF_CARD[s.pile[i]]] += 1.0

    g = O.GAME
    obs[g] = 1.0 if s.phase == DRAW else 0.0
    obs[g + 1] = 1.0 if s.phase == PLAY else 0.0
    obs[g + 2] = s.deal
    obs[g + 3] = rules.deals
    obs[g + 4] = s.stock_len
    obs[g + 5] = minimum(s, rules, my_owner) / 100.0
    obs[g + 6] = rules.books_needed[s.deal, 0]
    obs[g + 7] = rules.books_needed[s.deal, 1]
    obs[g + 8] = rules.partnerships
    obs[g + 9] = n
    obs[g + 10] = s.opened[my_owner]
    if rules.runs or rules.twos_books:
        fill_house(s, rules, seat, my_owner, obs)


@njit(cache=True)
def fill_house(s, rules, seat, my_owner, obs):
    """The ``house`` block (reference ``_observe_house``)."""
    for suit in range(NUM_SUITS):
        for r in range(NUM_NATURALS):
            obs[O.HOUSE_HAND + NUM_NATURALS * suit + r] = s.hand_suits[seat, suit, r]
    if s.pile_len > 0 and SUIT_OF_CARD[s.pile[s.pile_len - 1]] >= 0:
        obs[O.HOUSE_PILE_SUIT + SUIT_OF_CARD[s.pile[s.pile_len - 1]]] = 1.0
    if seat == s.current:
        for suit in range(NUM_SUITS):
            obs[O.HOUSE_STAGED_RUNS + 2 * suit] = s.staged_runs[suit, 0]
            obs[O.HOUSE_STAGED_RUNS + 2 * suit + 1] = s.staged_runs[suit, 1]
        obs[O.HOUSE_STAGED_TWOS] = s.staged_twos
    owners = rules.owners
    for slot in range(owners):
        owner = (my_owner + slot) % owners
        base = O.HOUSE_OWNERS + slot * O.HOUSE_OWNER_FIELDS
        for suit in range(NUM_SUITS):
            obs[base + 2 * suit] = s.runs[owner, suit, 0]
            obs[base + 2 * suit + 1] = s.runs[owner, suit, 1]
        obs[base + 8] = s.twos[owner]
    obs[O.HOUSE_RULES] = rules.runs
    obs[O.HOUSE_RULES + 1] = rules.twos_books
    obs[O.HOUSE_RULES + 2] = rules.one_plus_discard
    obs[O.HOUSE_RULES + 3] = rules.frozen
