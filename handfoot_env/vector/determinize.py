"""Determinization, compiled: redeal the cards one seat cannot see, keeping what it can see.

From seat ``p``'s view the unseen cards are the stock, the other players' hands and every
unplayed foot (its own too), less the cards a hand was seen to take from the pile
(``known``): those stay where they are.  (In ``house``, where naturals are tracked by suit
and ``known`` by kind, the state does not say which suit a known natural has: a hand known
to hold a K is dealt a K first, of a suit drawn from the unseen Ks.)  ``determinize``
gathers them, shuffles them, and deals them back into the same places in the same numbers:
the result is a position that seat ``p`` cannot tell from the real one (its hand, staged
cards, every table and the pile are untouched), and with a given seed the same redeal for
every position the seat cannot tell apart.  Red threes never sit in a hand in the
rank-only presets, so hands are refilled from the other cards.  Used by rollout evaluation
(``agents/evaluation/rollouts.py``) and the web table's coach.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from handfoot_env.cards import FIRST_NATURAL, NUM_KINDS, NUM_NATURALS, NUM_SUITS, RED_THREE
from handfoot_env.vector.counts import KIND_OF_CARD
from handfoot_env.vector.deal import add_card
from handfoot_env.vector.state import STAGED


@njit(cache=True)
def _take(s, seat, to_foot, suited, pool, n, keep):
    """Move the cards of a seat's hand or foot into ``pool`` (card ids), all but ``keep[k]``
    of each kind without a suit; returns the new count."""
    counts = s.foot[seat] if to_foot else s.hand[seat]
    suits = s.foot_suits[seat] if to_foot else s.hand_suits[seat]
    for k in range(NUM_KINDS):
        if suited and k >= FIRST_NATURAL:
            for suit in range(NUM_SUITS):
                for _ in range(suits[suit, k - FIRST_NATURAL]):
                    pool[n] = NUM_KINDS + NUM_NATURALS * suit + k - FIRST_NATURAL
                    n += 1
                suits[suit, k - FIRST_NATURAL] = 0
            counts[k] = 0
        else:
            for _ in range(counts[k] - keep[k]):
                pool[n] = k
                n += 1
            counts[k] = keep[k]
    return n


@njit(cache=True)
def _known_in_hand(s, q):
    """How many of each kind hand ``q`` surely holds: its ``known`` cards, less, for the player
    whose turn it is, those it has staged (a known card may be among them, and staged cards
    are seen by all, so this depends only on what every seat sees)."""
    held = s.known[q].copy()
    if q == s.current:
        for k in range(NUM_KINDS):
            held[k] = max(held[k] - s.table_cards[STAGED, k], 0)
    return held


@njit(cache=True)
def determinize(s, rules, seat, seed):
    """Redeal, in place, every card of game ``s`` that ``seat`` cannot see (see the module)."""
    np.random.seed(seed)
    suited = rules.runs != 0
    pool = np.empty(s.stock.shape[0] + 4 * 64 * rules.num_players, dtype=np.int64)
    hand_sizes = np.zeros(rules.num_players, dtype=np.int64)
    foot_sizes = np.zeros(rules.num_players, dtype=np.int64)
    nothing = np.zeros(NUM_KINDS, dtype=np.int16)
    n = 0
    known_in_hand = np.zeros((rules.num_players, NUM_KINDS), dtype=np.int64)
    for q in range(rules.num_players):
        if q != seat:
            known_in_hand[q] = _known_in_hand(s, q)
            before = n
            n = _take(s, q, False, suited, pool, n, known_in_hand[q])
            hand_sizes[q] = n - before
        if s.on_foot[q] == 0:
            for k in range(NUM_KINDS):
                foot_sizes[q] += s.foot[q, k]
            n = _take(s, q, True, suited, pool, n, nothing)
    stock = s.stock_len
    for i in range(stock):
        pool[n] = s.stock[i]
        n += 1
    cards = pool[:n]
    # Gathered in the order the cards really lay; sorted first, so that the redeal depends only
    # on which cards are unseen (what the seat can know), never on where each one was.
    cards.sort()
    np.random.shuffle(cards)
    front = 0
    if suited:
        # The naturals each hand is known to hold, by kind (their suits were taken into the
        # pool with the rest), before any hand is filled: a later hand's known cards stay there.
        for q in range(rules.num_players):
            if q == seat:
                continue
            for k in range(FIRST_NATURAL, NUM_KINDS):
                for _ in range(known_in_hand[q, k]):
                    j = front
                    while j < n and KIND_OF_CARD[cards[j]] != k:
                        j += 1
                    if j == n:  # (cannot be: each was taken from this hand into the pool)
                        raise AssertionError("determinize: a known natural is missing from the pool")
                    cards[front], cards[j] = cards[j], cards[front]
                    add_card(s, q, cards[front], False)
                    front += 1
                    hand_sizes[q] -= 1
    # Hands next, from the cards a hand may hold (never a red three where they are laid down).
    for q in range(rules.num_players):
        for _ in range(hand_sizes[q]):
            j = front
            while rules.red_threes_laid_down and KIND_OF_CARD[cards[j]] == RED_THREE:
                j += 1
            cards[front], cards[j] = cards[j], cards[front]
            add_card(s, q, cards[front], False)
            front += 1
    for q in range(rules.num_players):
        for _ in range(foot_sizes[q]):
            add_card(s, q, cards[front], True)
            front += 1
    for i in range(stock):
        s.stock[i] = cards[front + i]


@njit(cache=True)
def determinize_kernel(states, rules, rows, seats, seeds):
    """Determinize game ``rows[i]`` from seat ``seats[i]``'s view, with seed ``seeds[i]``."""
    for i in range(rows.shape[0]):
        determinize(states[rows[i]], rules[0], seats[i], seeds[i])
