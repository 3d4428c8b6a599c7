"""Observations, compiled: the layout of ``handfoot_env/observation.py`` for each game's mover.

Mirrors ``reference/observe.py`` field for field."""

from __future__ import annotations

from numba import njit

from handfoot_env import observation as O
from handfoot_env.cards import NUM_KINDS, NUM_NATURALS, NUM_SUITS, RED_THREE
from handfoot_env.rule_facts import SEVEN_RANK, SEVENS_ANY, SEVENS_CLEAN, SEVENS_DIRTY, owner_of
from handfoot_env.vector.counts import KIND_OF_CARD, SUIT_OF_CARD, VALUES, hand_total, minimum, staged_total
from handfoot_env.vector.state import ASKED, DRAW, GRANTED, PLAY, REFUSED, STAGED


@njit(cache=True)
def observe(s, rules, seat, obs):
    obs[:] = 0.0
    n = rules.num_players
    owners = rules.num_owners
    my_owner = owner_of(rules, seat)
    for k in range(NUM_KINDS):
        obs[O.HAND + k] = s.hand[seat, k]
    if seat == s.current:
        for k in range(NUM_KINDS):
            obs[O.STAGED + k] = s.table_cards[STAGED, k]
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
        obs[base + O.SEAT_PRESENT] = 1.0
        obs[base + O.SEAT_PARTNER] = 1.0 if other != seat and owner_of(rules, other) == my_owner else 0.0
        obs[base + O.SEAT_HELD] = held
        obs[base + O.SEAT_FOOT] = foot
        obs[base + O.SEAT_ON_FOOT] = s.on_foot[other]
        for k in range(NUM_KINDS):
            obs[O.SEAT_KNOWN + slot * NUM_KINDS + k] = s.known[other, k]

    for slot in range(owners):
        owner = (my_owner + slot) % owners
        base = O.OWNERS + slot * O.OWNER_FIELDS
        melded = 0
        for k in range(NUM_KINDS):
            melded += s.table_cards[owner, k] * VALUES[k]
        obs[base + O.OWNER_PRESENT] = 1.0
        obs[base + O.OWNER_OPENED] = s.opened[owner]
        obs[base + O.OWNER_RED_THREES] = s.table_cards[owner, RED_THREE]
        obs[base + O.OWNER_CLEAN_BOOKS] = s.books[owner, 0]
        obs[base + O.OWNER_DIRTY_BOOKS] = s.books[owner, 1]
        obs[base + O.OWNER_MELDED] = melded / 100.0
        obs[base + O.OWNER_TOTAL] = s.totals[owner] / 1000.0
        obs[base + O.OWNER_MINIMUM] = minimum(s, rules, owner) / 100.0
        for r in range(NUM_NATURALS):
            for c in range(3):
                obs[base + O.OWNER_GROUPS + 3 * r + c] = s.groups[owner, r, c]

    obs[O.PILE_SIZE] = s.pile_len
    if s.pile_len > 0:
        obs[O.PILE_TOP + KIND_OF_CARD[s.pile[s.pile_len - 1]]] = 1.0
        for i in range(s.pile_len):
            obs[O.PILE_COUNTS + KIND_OF_CARD[s.pile[i]]] += 1.0
        window = s.pile_len - 1
        if rules.draw_one_plus_discard:
            window = 0  # house: only the top discard is ever taken
        elif rules.pile_take_count >= 0:
            window = min(window, max(rules.pile_take_count - 1, 0))
        for i in range(s.pile_len - 1 - window, s.pile_len - 1):
            obs[O.PILE_TAKE_WINDOW + KIND_OF_CARD[s.pile[i]]] += 1.0

    obs[O.GAME_DRAW_PHASE] = 1.0 if s.phase == DRAW else 0.0
    obs[O.GAME_PLAY_PHASE] = 1.0 if s.phase == PLAY else 0.0
    obs[O.GAME_DEAL] = s.deal
    obs[O.GAME_DEALS] = rules.num_deals
    obs[O.GAME_STOCK] = s.stock_len
    obs[O.GAME_MINIMUM] = minimum(s, rules, my_owner) / 100.0
    obs[O.GAME_CLEAN_NEEDED] = rules.books_to_go_out[s.deal, 0]
    obs[O.GAME_DIRTY_NEEDED] = rules.books_to_go_out[s.deal, 1]
    obs[O.GAME_PARTNERSHIP] = rules.partnerships
    obs[O.GAME_PLAYERS] = n
    obs[O.GAME_OPENED] = s.opened[my_owner]
    if rules.runs or rules.books_of_twos:
        observe_house(s, rules, seat, my_owner, obs)
    if rules.plays_variations:
        observe_variations(s, rules, seat, my_owner, obs)


@njit(cache=True)
def observe_variations(s, rules, seat, my_owner, obs):
    """The fields of layout version 2 (reference ``_observe_variations``)."""
    if s.permission == ASKED:
        obs[O.QUESTION_STANDS] = 1.0
        obs[O.QUESTION_MINE] = 1.0 if seat == s.current else 0.0
        partner = seat != s.current and owner_of(rules, seat) == owner_of(rules, s.current)
        obs[O.QUESTION_PARTNERS] = 1.0 if partner else 0.0
    obs[O.QUESTION_GRANTED] = 1.0 if s.permission == GRANTED else 0.0
    obs[O.QUESTION_REFUSED] = 1.0 if s.permission == REFUSED else 0.0
    obs[O.RULE_WILD_BOOKS] = rules.wild_books
    obs[O.RULE_WILD_BOOK_TO_GO_OUT] = rules.wild_book_to_go_out
    obs[O.RULE_WILD_BOOK_BONUS] = rules.wild_book_bonus / 1000.0 if rules.wild_books else 0.0
    obs[O.RULE_BLACK_THREE_BOOKS] = rules.black_three_books
    obs[O.RULE_SEVENS_ANY] = 1.0 if rules.sevens_book_to_go_out == SEVENS_ANY else 0.0
    obs[O.RULE_SEVENS_CLEAN] = 1.0 if rules.sevens_book_to_go_out == SEVENS_CLEAN else 0.0
    obs[O.RULE_SEVENS_DIRTY] = 1.0 if rules.sevens_book_to_go_out == SEVENS_DIRTY else 0.0
    obs[O.RULE_TAKE_ONTO_TABLE] = rules.take_onto_table
    obs[O.RULE_TAKE_WITH_WILD] = rules.take_with_natural_and_wild
    obs[O.RULE_WILD_FREEZES_PILE] = rules.wild_freezes_pile
    obs[O.RULE_PARTNER_FOOT_FIRST] = rules.partner_foot_first
    obs[O.RULE_PERMISSION] = rules.permission_to_go_out
    owners = rules.num_owners
    for slot in range(owners):
        owner = (my_owner + slot) % owners
        base = O.VARIATION_SIDES + slot * O.VARIATION_SIDE_FIELDS
        obs[base + O.SIDE_WILD_TWOS] = s.wild_book[owner, 0]
        obs[base + O.SIDE_WILD_JOKERS] = s.wild_book[owner, 1]
        obs[base + O.SIDE_WILD_BOOKS] = s.wild_books[owner]
        obs[base + O.SIDE_THREES] = s.threes[owner]
        obs[base + O.SIDE_SEVENS_CLEAN] = s.book_ranks[owner, SEVEN_RANK, 0]
        obs[base + O.SIDE_SEVENS_DIRTY] = s.book_ranks[owner, SEVEN_RANK, 1]
    if seat == s.current:
        obs[O.STAGED_WILD_TWOS] = s.wild_book[STAGED, 0]
        obs[O.STAGED_WILD_JOKERS] = s.wild_book[STAGED, 1]
        obs[O.STAGED_THREES] = s.threes[STAGED]


@njit(cache=True)
def observe_house(s, rules, seat, my_owner, obs):
    """The ``house`` block (reference ``_observe_house``)."""
    for suit in range(NUM_SUITS):
        for r in range(NUM_NATURALS):
            obs[O.HOUSE_HAND + NUM_NATURALS * suit + r] = s.hand_suits[seat, suit, r]
    if s.pile_len > 0 and SUIT_OF_CARD[s.pile[s.pile_len - 1]] >= 0:
        obs[O.HOUSE_PILE_SUIT + SUIT_OF_CARD[s.pile[s.pile_len - 1]]] = 1.0
    if seat == s.current:
        for suit in range(NUM_SUITS):
            obs[O.HOUSE_STAGED_RUNS + 2 * suit] = s.runs[STAGED, suit, 0]
            obs[O.HOUSE_STAGED_RUNS + 2 * suit + 1] = s.runs[STAGED, suit, 1]
        obs[O.HOUSE_STAGED_TWOS] = s.twos[STAGED]
    owners = rules.num_owners
    for slot in range(owners):
        owner = (my_owner + slot) % owners
        base = O.HOUSE_OWNERS + slot * O.HOUSE_OWNER_FIELDS
        for suit in range(NUM_SUITS):
            obs[base + O.HOUSE_OWNER_RUNS + 2 * suit] = s.runs[owner, suit, 0]
            obs[base + O.HOUSE_OWNER_RUNS + 2 * suit + 1] = s.runs[owner, suit, 1]
        obs[base + O.HOUSE_OWNER_TWOS] = s.twos[owner]
    obs[O.HOUSE_RULE_RUNS] = rules.runs
    obs[O.HOUSE_RULE_TWOS_BOOKS] = rules.books_of_twos
    obs[O.HOUSE_RULE_ONE_PLUS_DISCARD] = rules.draw_one_plus_discard
    obs[O.HOUSE_RULE_FROZEN] = rules.frozen_six
