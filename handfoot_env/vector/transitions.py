"""Transitions, compiled: what each legal action does to one game (reference
``reference/transitions.py``), and the end of a deal.  Every function works on one game's
record ``s``; ``batch.py`` loops them over the games."""

from __future__ import annotations

from numba import njit

from handfoot_env.cards import BLACK_THREE, FIRST_NATURAL, JOKER, NUM_KINDS, NUM_NATURALS, NUM_SUITS, RED_THREE, TWO
from handfoot_env.rule_facts import owner_of
from handfoot_env.vector.counts import (
    KIND_OF_CARD,
    SUIT_OF_CARD,
    VALUES,
    group_size,
    group_wilds,
    hand_total,
    melds_row,
    minimum,
)
from handfoot_env.vector.deal import clear_staged, pick_up_foot, pop_stock, receive, start_deal
from handfoot_env.vector.decode import (
    ANSWER_YES,
    ASK,
    DISCARD_ACTION,
    DRAW_ACTION,
    GROUP_ACTION,
    PAIR,
    PERMISSION_ACTION,
    RUN_ACTION,
    START_JOKERS,
    START_NATURALS,
    START_TWOS,
    SUITED_DISCARD_ACTION,
    TAKE_ACTION,
    THREES_ACTION,
    WILD_BOOK_ACTION,
    WILD_START_JOKERS,
    WILD_START_TWOS,
    WITH_JOKER,
    WITH_TWO,
    decode,
)
from handfoot_env.vector.legality import any_take_legal
from handfoot_env.vector.masks import has_legal_action
from handfoot_env.vector.scoring import owner_deal_score
from handfoot_env.vector.state import ASKED, DRAW, GRANTED, NOT_ASKED, OVER, PLAY, REFUSED, STAGED


# ---------------------------------------------------------------------------- the end of a deal
@njit(cache=True)
def end_deal(s, rules, packs, went_out):
    """Reference ``end_deal`` and ``score_deal``: score the deal, then the next deal or the end."""
    s.went_out = went_out
    s.deals_ended += 1
    for o in range(rules.num_owners):
        score = owner_deal_score(s, rules, o, went_out)
        s.deal_scores[s.deal, o] = score
        s.totals[o] += score
    reached = False
    if rules.target_score > 0:
        for o in range(rules.num_owners):
            reached = reached or s.totals[o] >= rules.target_score
    if s.deal + 1 >= rules.num_deals or reached:
        s.phase = OVER
        return
    s.deal += 1
    start_deal(s, rules, packs)


@njit(cache=True)
def begin_turn(s, rules, packs):
    """Reference ``begin_turn``: while the player to move can neither draw nor take, the deal ends."""
    while s.phase != OVER and s.stock_len < rules.draw_count and not any_take_legal(s, rules):
        end_deal(s, rules, packs, -1)


@njit(cache=True)
def end_deal_if_stuck(s, rules, packs):
    """Reference ``end_deal_if_stuck``: an empty stock and no legal action end the deal."""
    if s.phase != OVER and s.stock_len == 0 and not has_legal_action(s, rules):
        end_deal(s, rules, packs, -1)
        begin_turn(s, rules, packs)


# ---------------------------------------------------------------------------- what the table saw
@njit(cache=True)
def show(s, p, kind, n):
    """``n`` cards of ``kind`` leave seat ``p``'s hand in sight of the table (reference
    ``show``): it surely holds that many fewer of its known cards of the kind, or none."""
    s.known[p, kind] = max(s.known[p, kind] - n, 0)


@njit(cache=True)
def show_staged(s):
    """The staged melds go down: their cards are seen to leave the mover's hand."""
    for k in range(NUM_KINDS):
        show(s, s.current, k, s.table_cards[STAGED, k])


@njit(cache=True)
def receive_in_sight(s, rules, p, card):
    """A card from the pile enters the hand face up: the table knows the seat holds it
    (a red three that goes straight down is not held)."""
    receive(s, rules, p, card)
    if not (rules.red_threes_laid_down and KIND_OF_CARD[card] == RED_THREE):
        s.known[p, KIND_OF_CARD[card]] += 1


# ---------------------------------------------------------------------------- melds
@njit(cache=True)
def add_to_group(s, rules, row, rank, n, t, j):
    """Add cards to the unfinished group of ``rank`` in ``row`` (an owner's table, or STAGED),
    starting it if there is none; at ``book_size`` cards it becomes a book."""
    s.groups[row, rank, 0] += n
    s.groups[row, rank, 1] += t
    s.groups[row, rank, 2] += j
    s.table_cards[row, rank + FIRST_NATURAL] += n
    s.table_cards[row, TWO] += t
    s.table_cards[row, JOKER] += j
    if row == STAGED:
        s.staged_value += n * VALUES[rank + FIRST_NATURAL] + t * VALUES[TWO] + j * VALUES[JOKER]
    if group_size(s, row, rank) >= rules.book_size:
        dirty = 0 if group_wilds(s, row, rank) == 0 else 1
        s.books[row, dirty] += 1
        s.book_ranks[row, rank, dirty] += 1
        s.groups[row, rank, :] = 0


@njit(cache=True)
def open_side(s, owner):
    """The staged melds go down together onto the owner's table; the owner has opened."""
    for r in range(NUM_NATURALS):
        for c in range(3):
            s.groups[owner, r, c] += s.groups[STAGED, r, c]
        for c in range(2):
            s.book_ranks[owner, r, c] += s.book_ranks[STAGED, r, c]
    for suit in range(NUM_SUITS):
        s.runs[owner, suit, 0] = s.runs[STAGED, suit, 0]
        s.runs[owner, suit, 1] = s.runs[STAGED, suit, 1]
    s.twos[owner] = s.twos[STAGED]
    s.wild_book[owner, 0] += s.wild_book[STAGED, 0]
    s.wild_book[owner, 1] += s.wild_book[STAGED, 1]
    s.wild_books[owner] += s.wild_books[STAGED]
    s.threes[owner] += s.threes[STAGED]
    s.books[owner, 0] += s.books[STAGED, 0]
    s.books[owner, 1] += s.books[STAGED, 1]
    for k in range(NUM_KINDS):
        s.table_cards[owner, k] += s.table_cards[STAGED, k]
    clear_staged(s)
    s.opened[owner] = 1


@njit(cache=True)
def after_meld(s, rules, packs):
    p = s.current
    if hand_total(s, p) > 0:
        return
    if s.on_foot[p]:
        end_deal(s, rules, packs, p)
        begin_turn(s, rules, packs)
    else:
        pick_up_foot(s, rules, p)


@njit(cache=True)
def book_suit(s, p, rank):
    """The suit the hand holds fewest cards of among those holding ``rank`` (ties: clubs first)."""
    best = -1
    best_total = 1 << 30
    for suit in range(NUM_SUITS):
        if s.hand_suits[p, suit, rank] > 0:
            total = 0
            for r in range(NUM_NATURALS):
                total += s.hand_suits[p, suit, r]
            if total < best_total:
                best = suit
                best_total = total
    return best


@njit(cache=True)
def lay_card(s, row, kind):
    """One card leaves the player's hand for a meld in ``row``: onto the table, or staged."""
    s.hand[s.current, kind] -= 1
    s.table_cards[row, kind] += 1
    if row == STAGED:
        s.staged_value += VALUES[kind]
    else:
        show(s, s.current, kind, 1)


@njit(cache=True)
def finish_meld(s, rules, packs, owner, opened):
    """After a run or book-of-2s card: open once the staged melds reach the minimum, then
    the foot (reference ``after_meld``)."""
    if not opened:
        if s.staged_value < minimum(s, rules, owner):
            return  # still staging
        show_staged(s)
        open_side(s, owner)
    after_meld(s, rules, packs)


@njit(cache=True)
def meld_run(s, rules, packs, op, suit, rank):
    """Start a run of ``suit`` at ``rank`` (op 0), or extend it down (1) or up (2)."""
    p = s.current
    owner = owner_of(rules, p)
    opened = s.opened[owner] != 0
    row = melds_row(s, owner)
    length = s.runs[row, suit, 0]
    low = s.runs[row, suit, 1]
    if op == 0:
        first, count, length, low = rank, 3, 3, rank
    elif op == 1:
        first, count, length, low = low - 1, 1, length + 1, low - 1
    else:
        first, count, length = low + length, 1, length + 1
    for r in range(first, first + count):
        s.hand_suits[p, suit, r] -= 1
        if not opened:
            s.staged_suits[suit, r] += 1
        lay_card(s, row, r + FIRST_NATURAL)
    if length >= rules.book_size:  # a red canasta: closed
        length = 0
        low = 0
        s.books[row, 0] += 1
    s.runs[row, suit, 0] = length
    s.runs[row, suit, 1] = low
    finish_meld(s, rules, packs, owner, opened)


@njit(cache=True)
def meld_one_kind(s, rules, packs, op, sizes, kind):
    """Start a meld of one kind of card (the book of 2s: ``sizes`` ``s.twos``, ``kind`` TWO;
    black threes: ``s.threes``, BLACK_THREE) with three (op 0) or add one (op 1).  Complete,
    it is a clean book (for 2s, a red canasta)."""
    owner = owner_of(rules, s.current)
    opened = s.opened[owner] != 0
    row = melds_row(s, owner)
    count = 3 if op == 0 else 1
    for _ in range(count):
        lay_card(s, row, kind)
    size = sizes[row] + count
    if size >= rules.book_size:
        size = 0
        s.books[row, 0] += 1
    sizes[row] = size
    finish_meld(s, rules, packs, owner, opened)


@njit(cache=True)
def meld_wild_book(s, rules, packs, op, comp):
    """Start the wild book with composition ``comp`` (op 0), or add a 2 (1) or a joker (2)."""
    owner = owner_of(rules, s.current)
    opened = s.opened[owner] != 0
    row = melds_row(s, owner)
    if op == 0:
        add_twos, add_jokers = WILD_START_TWOS[comp], WILD_START_JOKERS[comp]
    else:
        add_twos, add_jokers = (1, 0) if op == 1 else (0, 1)
    for _ in range(add_twos):
        lay_card(s, row, TWO)
    for _ in range(add_jokers):
        lay_card(s, row, JOKER)
    twos = s.wild_book[row, 0] + add_twos
    jokers = s.wild_book[row, 1] + add_jokers
    if twos + jokers >= rules.book_size:  # a wild book: closed, neither clean nor dirty
        twos = 0
        jokers = 0
        s.wild_books[row] += 1
    s.wild_book[row, 0] = twos
    s.wild_book[row, 1] = jokers
    finish_meld(s, rules, packs, owner, opened)


@njit(cache=True)
def meld(s, rules, packs, op, rank, comp):
    p = s.current
    owner = owner_of(rules, p)
    kind = rank + FIRST_NATURAL
    n = t = j = 0
    if op == 0:
        n = START_NATURALS[comp]
        t = START_TWOS[comp]
        j = START_JOKERS[comp]
    elif op == 1:
        n = 1
    elif op == 2:
        t = 1
    else:
        j = 1
    s.hand[p, kind] -= n
    s.hand[p, TWO] -= t
    s.hand[p, JOKER] -= j
    if rules.runs:  # the naturals leave the hand by suit (reference ``book_suit``)
        for _ in range(n):
            suit = book_suit(s, p, rank)
            s.hand_suits[p, suit, rank] -= 1
            if s.opened[owner] == 0:
                s.staged_suits[suit, rank] += 1
    row = melds_row(s, owner)
    add_to_group(s, rules, row, rank, n, t, j)
    if row == STAGED:
        if s.staged_value < minimum(s, rules, owner):
            return  # still staging
        show_staged(s)
        open_side(s, owner)
    else:
        show(s, p, kind, n)
        show(s, p, TWO, t)
        show(s, p, JOKER, j)
    after_meld(s, rules, packs)


# ---------------------------------------------------------------------------- draw, take, discard
@njit(cache=True)
def draw(s, rules):
    for _ in range(rules.draw_count):
        if s.stock_len > 0:  # red-three replacements may have emptied it
            receive(s, rules, s.current, pop_stock(s))
    s.phase = PLAY


@njit(cache=True)
def take_pile(s, rules, packs, how):
    """Take the pile (reference ``take_pile``): the top card goes down with a pair of it
    (``how`` PAIR), one natural and a 2 or a joker (WITH_TWO, WITH_JOKER), or alone onto the
    side's group (ONTO_TABLE); then the next cards of the pile go to the hand."""
    p = s.current
    owner = owner_of(rules, p)
    s.pile_len -= 1
    top = KIND_OF_CARD[s.pile[s.pile_len]]
    n = 2 if how == PAIR else (1 if how == WITH_TWO or how == WITH_JOKER else 0)
    t = 1 if how == WITH_TWO else 0
    j = 1 if how == WITH_JOKER else 0
    s.hand[p, top] -= n
    s.hand[p, TWO] -= t
    s.hand[p, JOKER] -= j
    show(s, p, top, n)
    show(s, p, TWO, t)
    show(s, p, JOKER, j)
    opened = s.opened[owner] != 0
    if not opened:  # groups staged before the take go down with it
        show_staged(s)
    add_to_group(s, rules, melds_row(s, owner), top - FIRST_NATURAL, n + 1, t, j)
    if not opened:
        open_side(s, owner)
    count = s.pile_len if rules.pile_take_count < 0 else rules.pile_take_count - 1
    for _ in range(min(count, s.pile_len)):
        s.pile_len -= 1
        receive_in_sight(s, rules, p, s.pile[s.pile_len])
    s.phase = PLAY
    after_meld(s, rules, packs)


@njit(cache=True)
def take_top_discard(s, rules):
    """House: one card from the stock, then the top discard, into the hand."""
    receive(s, rules, s.current, pop_stock(s))
    s.pile_len -= 1
    receive_in_sight(s, rules, s.current, s.pile[s.pile_len])
    s.phase = PLAY


@njit(cache=True)
def discard(s, rules, packs, card):
    p = s.current
    kind = KIND_OF_CARD[card]
    suit = SUIT_OF_CARD[card]
    s.hand[p, kind] -= 1
    show(s, p, kind, 1)
    if suit >= 0:
        s.hand_suits[p, suit, kind - FIRST_NATURAL] -= 1
    s.pile[s.pile_len] = card
    s.pile_len += 1
    for k in range(NUM_KINDS):  # staged melds that never reached the minimum go back
        s.hand[p, k] += s.table_cards[STAGED, k]
    if rules.runs:
        for suit in range(NUM_SUITS):
            for r in range(NUM_NATURALS):
                s.hand_suits[p, suit, r] += s.staged_suits[suit, r]
    clear_staged(s)
    if hand_total(s, p) == 0:
        if s.on_foot[p]:
            end_deal(s, rules, packs, p)
            begin_turn(s, rules, packs)
            return
        pick_up_foot(s, rules, p)
    s.current = (p + 1) % rules.num_players
    s.phase = DRAW
    s.permission = NOT_ASKED  # a question holds for the turn it was asked in
    begin_turn(s, rules, packs)


# ---------------------------------------------------------------------------- one action, one game
@njit(cache=True)
def apply(s, rules, packs, action):
    """Reference ``apply`` without its check (``batch.py`` checks every game's action first):
    apply one legal action, then end the deal if the mover is stuck; True if a deal ended."""
    deals_before = s.deals_ended
    s.num_steps += 1
    kind, op, x, y = decode(action)
    if kind == DRAW_ACTION:
        draw(s, rules)
    elif kind == TAKE_ACTION:
        if rules.draw_one_plus_discard:
            take_top_discard(s, rules)
        else:
            take_pile(s, rules, packs, op)
    elif kind == DISCARD_ACTION or kind == SUITED_DISCARD_ACTION:
        discard(s, rules, packs, x)
    elif kind == GROUP_ACTION:
        meld(s, rules, packs, op, x, y)
    elif kind == RUN_ACTION:
        meld_run(s, rules, packs, op, x, y)
    elif kind == WILD_BOOK_ACTION:
        meld_wild_book(s, rules, packs, op, y)
    elif kind == THREES_ACTION:
        meld_one_kind(s, rules, packs, op, s.threes, BLACK_THREE)
    elif kind == PERMISSION_ACTION:
        if op == ASK:
            s.permission = ASKED  # the partner is to move until it answers
        else:
            s.permission = GRANTED if op == ANSWER_YES else REFUSED
    else:
        meld_one_kind(s, rules, packs, op, s.twos, TWO)
    end_deal_if_stuck(s, rules, packs)
    return s.deals_ended > deals_before


@njit(cache=True)
def reset_game(s, rules, packs):
    s.first_dealer = rules.num_players - 1  # decision: seat 0 starts deal 1
    s.deal = 0
    s.deals_ended = 0
    s.num_steps = 0
    s.totals[:] = 0
    s.deal_scores[:] = 0
    start_deal(s, rules, packs)
    begin_turn(s, rules, packs)
