"""The deal, compiled: cards moving into hands, dealing and opening a deal (reference
``reference/deal.py``).  Every function works on one game's record ``s``."""

from __future__ import annotations

from numba import njit

from handfoot_env.cards import FIRST_NATURAL, NUM_KINDS, NUM_NATURALS, NUM_SUITS, RED_THREE
from handfoot_env.rule_facts import owner_of
from handfoot_env.vector.counts import KIND_OF_CARD, SUIT_OF_CARD
from handfoot_env.vector.state import DRAW, NOT_ASKED, STAGED


@njit(cache=True)
def pop_stock(s):
    s.stock_len -= 1
    return s.stock[s.stock_len]


@njit(cache=True)
def add_card(s, seat, card, to_foot):
    """Card id ``card`` into the seat's hand or foot, by kind and (if it has one) by suit."""
    kind = KIND_OF_CARD[card]
    suit = SUIT_OF_CARD[card]
    if to_foot:
        s.foot[seat, kind] += 1
        if suit >= 0:
            s.foot_suits[seat, suit, kind - FIRST_NATURAL] += 1
    else:
        s.hand[seat, kind] += 1
        if suit >= 0:
            s.hand_suits[seat, suit, kind - FIRST_NATURAL] += 1


@njit(cache=True)
def lay_down_red_threes(s, rules, seat):
    if rules.red_threes_laid_down == 0:  # house: threes are held
        return
    owner = owner_of(rules, seat)
    while s.hand[seat, RED_THREE] > 0:
        s.hand[seat, RED_THREE] -= 1
        s.table_cards[owner, RED_THREE] += 1
        if s.stock_len > 0:
            add_card(s, seat, pop_stock(s), False)


@njit(cache=True)
def receive(s, rules, seat, card):
    add_card(s, seat, card, False)
    if card == RED_THREE:
        lay_down_red_threes(s, rules, seat)


@njit(cache=True)
def pick_up_foot(s, rules, seat):
    for k in range(NUM_KINDS):
        s.hand[seat, k] = s.foot[seat, k]
        s.foot[seat, k] = 0
    if rules.runs:
        for suit in range(NUM_SUITS):
            for r in range(NUM_NATURALS):
                s.hand_suits[seat, suit, r] = s.foot_suits[seat, suit, r]
                s.foot_suits[seat, suit, r] = 0
    s.on_foot[seat] = 1
    lay_down_red_threes(s, rules, seat)


@njit(cache=True)
def clear_staged(s):
    """Empty the staged row: nothing is staged."""
    s.groups[STAGED, :, :] = 0
    s.runs[STAGED, :, :] = 0
    s.twos[STAGED] = 0
    s.wild_book[STAGED, :] = 0
    s.wild_books[STAGED] = 0
    s.threes[STAGED] = 0
    s.books[STAGED, :] = 0
    s.book_ranks[STAGED, :, :] = 0
    s.table_cards[STAGED, :] = 0
    s.staged_suits[:] = 0
    s.staged_value = 0


@njit(cache=True)
def start_deal(s, rules, packs):
    """Reference ``start_deal``: deal the cards, then ``open_deal``."""
    n = rules.num_players
    s.dealer = (s.first_dealer + s.deal) % n
    s.current = (s.dealer + 1) % n
    s.phase = DRAW
    s.permission = NOT_ASKED
    s.went_out = -1
    s.hand[:] = 0
    s.foot[:] = 0
    s.hand_suits[:] = 0
    s.foot_suits[:] = 0
    s.on_foot[:] = 0
    s.known[:] = 0
    clear_staged(s)
    s.groups[:] = 0
    s.runs[:] = 0
    s.twos[:] = 0
    s.wild_book[:] = 0
    s.wild_books[:] = 0
    s.threes[:] = 0
    s.books[:] = 0
    s.book_ranks[:] = 0
    s.table_cards[:] = 0
    s.opened[:] = 0
    s.pile_len = 0
    pack = packs[s.deal]
    cards = pack.shape[0]
    position = 0
    for i in range(rules.hand_size * n):
        add_card(s, (s.current + i) % n, pack[position], False)
        position += 1
    for i in range(rules.foot_size * n):
        add_card(s, (s.current + i) % n, pack[position], True)
        position += 1
    s.stock_len = cards - position
    for j in range(s.stock_len):
        s.stock[j] = pack[cards - 1 - j]
    open_deal(s, rules)


@njit(cache=True)
def open_deal(s, rules):
    """Reference ``open_deal`` without its ``begin_turn`` (``transitions.begin_turn``): the upcard,
    then the dealt red threes seat by seat from the first player."""
    n = rules.num_players
    if rules.pile_upcard:
        for _ in range(s.stock_len):
            card = pop_stock(s)
            if KIND_OF_CARD[card] >= FIRST_NATURAL:
                s.pile[0] = card
                s.pile_len = 1
                break
            for j in range(s.stock_len, 0, -1):  # a wild or a three goes to the bottom
                s.stock[j] = s.stock[j - 1]
            s.stock[0] = card
            s.stock_len += 1
    for i in range(n):
        lay_down_red_threes(s, rules, (s.current + i) % n)
