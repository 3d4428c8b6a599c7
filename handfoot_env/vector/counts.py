"""What a game's state holds, counted: cards in a hand or staged, the size of a group, a
side's books and opening minimum, a card's kind, suit and value.

Shared by the compiled checks (``legality.py``), transitions, observations and dealing, so that
each counts the same way.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from handfoot_env.cards import CARD_KIND, CARD_SUIT, KIND_VALUES, NUM_KINDS
from handfoot_env.rule_facts import SEVEN_RANK, opening_minimum
from handfoot_env.vector.state import STAGED

VALUES = np.array(KIND_VALUES, dtype=np.int64)
KIND_OF_CARD = CARD_KIND.astype(np.int64)  # card id -> kind
SUIT_OF_CARD = CARD_SUIT.astype(np.int64)  # card id -> suit, -1 when it has none
# Which book a meld completes (``with_book``): none, clean, dirty, wild.
NO_BOOK, CLEAN_BOOK, DIRTY_BOOK, WILD_BOOK = -1, 0, 1, 2


@njit(cache=True)
def hand_total(s, seat):
    total = 0
    for k in range(NUM_KINDS):
        total += s.hand[seat, k]
    return total


@njit(cache=True)
def staged_total(s):
    """Cards the player to move has staged."""
    total = 0
    for k in range(NUM_KINDS):
        total += s.table_cards[STAGED, k]
    return total


@njit(cache=True)
def melds_row(s, owner):
    """Where the owner's melds go now: its table once opened, the staged row before (the
    reference: ``side.groups`` or ``seat.staged``)."""
    return owner if s.opened[owner] else STAGED


@njit(cache=True)
def group_size(s, row, rank):
    return s.groups[row, rank, 0] + s.groups[row, rank, 1] + s.groups[row, rank, 2]


@njit(cache=True)
def group_wilds(s, row, rank):
    return s.groups[row, rank, 1] + s.groups[row, rank, 2]


@njit(cache=True)
def minimum(s, rules, owner):
    """The owner's opening minimum in this game's deal (``rule_facts.opening_minimum``)."""
    return opening_minimum(rules, s.deal, s.totals[owner])


@njit(cache=True)
def row_books(s, row):
    """The books of ``row`` as going out counts them: (clean, dirty, wild, clean 7s, dirty 7s)
    (the reference ``state.Books``)."""
    return (
        np.int64(s.books[row, 0]),
        np.int64(s.books[row, 1]),
        np.int64(s.wild_books[row]),
        np.int64(s.book_ranks[row, SEVEN_RANK, 0]),
        np.int64(s.book_ranks[row, SEVEN_RANK, 1]),
    )


@njit(cache=True)
def with_book(books, book, rank):
    """``books`` with the book a meld completes: ``book`` NO_BOOK, CLEAN_BOOK, DIRTY_BOOK or
    WILD_BOOK, of natural rank ``rank`` (-1 for none)."""
    clean, dirty, wild, sevens_clean, sevens_dirty = books
    if book == CLEAN_BOOK:
        clean += 1
        if rank == SEVEN_RANK:
            sevens_clean += 1
    elif book == DIRTY_BOOK:
        dirty += 1
        if rank == SEVEN_RANK:
            sevens_dirty += 1
    elif book == WILD_BOOK:
        wild += 1
    return (clean, dirty, wild, sevens_clean, sevens_dirty)
