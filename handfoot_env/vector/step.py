"""Transitions, compiled: deal, draw, take, meld, discard, scoring — mirroring ``reference/game.py``.

Every function works on one game's record ``s``; the batch kernels at the bottom loop over
games in compiled code (``prange`` splits the batch over the cores).
"""

from __future__ import annotations

from numba import njit, prange

from handfoot_env import actions as A
from handfoot_env.cards import (
    FIRST_NATURAL,
    JOKER,
    NUM_KINDS,
    NUM_NATURALS,
    NUM_SUITS,
    RED_THREE,
    TWO,
)
from handfoot_env.rule_facts import owner_of
from handfoot_env.vector.masks import has_legal_action
from handfoot_env.vector.rules_kernel import (
    KIND_OF_CARD,
    START_JOKERS,
    START_NATURALS,
    START_TWOS,
    SUIT_OF_CARD,
    VALUES,
    action_reason,
    current_take_reason,
    hand_total,
    minimum,
)
from handfoot_env.vector.scoring import owner_deal_score
from handfoot_env.vector.state import DRAW, OVER, PLAY


# ---------------------------------------------------------------------------- cards moving
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
    if rules.red_laid == 0:  # house: threes are held
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


# ---------------------------------------------------------------------------- the deal
@njit(cache=True)
def start_deal(s, rules, packs):
    """Reference ``_start_deal``: deal the cards, then ``open_deal``."""
    n = rules.players
    s.dealer = (s.first_dealer + s.deal) % n
    s.current = (s.dealer + 1) % n
    s.phase = DRAW
    s.went_out = -1
    s.hand[:] = 0
    s.foot[:] = 0
    s.hand_suits[:] = 0
    s.foot_suits[:] = 0
    s.on_foot[:] = 0
    clear_staged(s)
    s.groups[:] = 0
    s.runs[:] = 0
    s.twos[:] = 0
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
    """Reference ``open_deal`` without its ``_begin_turn`` (see ``settle``): the upcard,
    then the dealt red threes seat by seat from the first player."""
    n = rules.players
    if rules.upcard:
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


@njit(cache=True)
def end_deal(s, rules, packs, went_out):
    """Reference ``_end_deal`` and ``score_deal``: score the deal, then the next deal or the end."""
    s.went_out = went_out
    s.deals_ended += 1
    for o in range(rules.owners):
        score = owner_deal_score(s, rules, o, went_out)
        s.deal_scores[s.deal, o] = score
        s.totals[o] += score
    reached = False
    if rules.target > 0:
        for o in range(rules.owners):
            reached = reached or s.totals[o] >= rules.target
    if s.deal + 1 >= rules.deals or reached:
        s.phase = OVER
        return
    s.deal += 1
    start_deal(s, rules, packs)


@njit(cache=True)
def settle(s, rules, packs):
    """Reference ``_begin_turn``: while the player to move can neither draw nor take, the deal ends."""
    while s.phase != OVER and s.stock_len < rules.draw_count and current_take_reason(s, rules) != 0:
        end_deal(s, rules, packs, -1)


# ---------------------------------------------------------------------------- groups
@njit(cache=True)
def clear_staged(s):
    s.staged_cards[:] = 0
    s.staged_suits[:] = 0
    s.staged_runs[:] = 0
    s.staged_twos = 0
    s.staged_groups[:] = 0
    s.staged_books[:] = 0
    s.staged_book_ranks[:] = 0
    s.staged_value = 0


@njit(cache=True)
def add_to_table(s, rules, owner, rank, n, t, j):
    """Add cards to the owner's unfinished group of ``rank`` (starting it if there is none)."""
    s.groups[owner, rank, 0] += n
    s.groups[owner, rank, 1] += t
    s.groups[owner, rank, 2] += j
    s.table_cards[owner, rank + FIRST_NATURAL] += n
    s.table_cards[owner, TWO] += t
    s.table_cards[owner, JOKER] += j
    if s.groups[owner, rank, 0] + s.groups[owner, rank, 1] + s.groups[owner, rank, 2] >= rules.book_size:
        dirty = 0 if s.groups[owner, rank, 1] + s.groups[owner, rank, 2] == 0 else 1
        s.books[owner, dirty] += 1
        s.book_ranks[owner, rank, dirty] += 1
        s.groups[owner, rank, :] = 0


@njit(cache=True)
def add_to_staged(s, rules, rank, n, t, j):
    s.staged_groups[rank, 0] += n
    s.staged_groups[rank, 1] += t
    s.staged_groups[rank, 2] += j
    s.staged_cards[rank + FIRST_NATURAL] += n
    s.staged_cards[TWO] += t
    s.staged_cards[JOKER] += j
    s.staged_value += n * VALUES[rank + FIRST_NATURAL] + t * VALUES[TWO] + j * VALUES[JOKER]
    if s.staged_groups[rank, 0] + s.staged_groups[rank, 1] + s.staged_groups[rank, 2] >= rules.book_size:
        dirty = 0 if s.staged_groups[rank, 1] + s.staged_groups[rank, 2] == 0 else 1
        s.staged_books[dirty] += 1
        s.staged_book_ranks[rank, dirty] += 1
        s.staged_groups[rank, :] = 0


@njit(cache=True)
def open_side(s, owner):
    """The staged groups go down together; the owner has opened."""
    for r in range(NUM_NATURALS):
        for c in range(3):
            s.groups[owner, r, c] += s.staged_groups[r, c]
        for c in range(2):
            s.book_ranks[owner, r, c] += s.staged_book_ranks[r, c]
    for suit in range(NUM_SUITS):
        s.runs[owner, suit, 0] = s.staged_runs[suit, 0]
        s.runs[owner, suit, 1] = s.staged_runs[suit, 1]
    s.twos[owner] = s.staged_twos
    s.books[owner, 0] += s.staged_books[0]
    s.books[owner, 1] += s.staged_books[1]
    for k in range(NUM_KINDS):
        s.table_cards[owner, k] += s.staged_cards[k]
    clear_staged(s)
    s.opened[owner] = 1


@njit(cache=True)
def after_meld(s, rules, packs):
    p = s.current
    if hand_total(s, p) > 0:
        return
    if s.on_foot[p]:
        end_deal(s, rules, packs, p)
        settle(s, rules, packs)
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
def lay_card(s, owner, opened, kind):
    """One card leaves the player's hand for a meld: onto the table, or staged."""
    s.hand[s.current, kind] -= 1
    if opened:
        s.table_cards[owner, kind] += 1
    else:
        s.staged_cards[kind] += 1
        s.staged_value += VALUES[kind]


@njit(cache=True)
def finish_meld(s, rules, packs, owner, opened):
    """After a run or book-of-2s card: open once the staged melds reach the minimum, then
    the foot (reference ``_meld``'s end)."""
    if not opened:
        if s.staged_value < minimum(s, rules, owner):
            return  # still staging
        open_side(s, owner)
    after_meld(s, rules, packs)


@njit(cache=True)
def meld_run(s, rules, packs, op, suit, rank):
    """Start a run of ``suit`` at ``rank`` (op 0), or extend it down (1) or up (2)."""
    p = s.current
    owner = owner_of(rules, p)
    opened = s.opened[owner] != 0
    length = s.runs[owner, suit, 0] if opened else s.staged_runs[suit, 0]
    low = s.runs[owner, suit, 1] if opened else s.staged_runs[suit, 1]
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
        lay_card(s, owner, opened, r + FIRST_NATURAL)
    if length >= rules.book_size:  # a red canasta: closed
        length = 0
        low = 0
        if opened:
            s.books[owner, 0] += 1
        else:
            s.staged_books[0] += 1
    if opened:
        s.runs[owner, suit, 0] = length
        s.runs[owner, suit, 1] = low
    else:
        s.staged_runs[suit, 0] = length
        s.staged_runs[suit, 1] = low
    finish_meld(s, rules, packs, owner, opened)


@njit(cache=True)
def meld_twos(s, rules, packs, op):
    """Start the book of 2s with three (op 0) or add one (op 1)."""
    owner = owner_of(rules, s.current)
    opened = s.opened[owner] != 0
    count = 3 if op == 0 else 1
    for _ in range(count):
        lay_card(s, owner, opened, TWO)
    size = (s.twos[owner] if opened else s.staged_twos) + count
    if size >= rules.book_size:  # a red canasta: closed
        size = 0
        if opened:
            s.books[owner, 0] += 1
        else:
            s.staged_books[0] += 1
    if opened:
        s.twos[owner] = size
    else:
        s.staged_twos = size
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
    if rules.runs:  # the naturals leave the hand by suit (reference ``_book_suit``)
        for _ in range(n):
            suit = book_suit(s, p, rank)
            s.hand_suits[p, suit, rank] -= 1
            if s.opened[owner] == 0:
                s.staged_suits[suit, rank] += 1
    if s.opened[owner]:
        add_to_table(s, rules, owner, rank, n, t, j)
    else:
        add_to_staged(s, rules, rank, n, t, j)
        if s.staged_value < minimum(s, rules, owner):
            return  # still staging
        open_side(s, owner)
    after_meld(s, rules, packs)


@njit(cache=True)
def take_pile(s, rules, packs):
    p = s.current
    owner = owner_of(rules, p)
    s.pile_len -= 1
    top = KIND_OF_CARD[s.pile[s.pile_len]]
    s.hand[p, top] -= 2
    if s.opened[owner]:
        add_to_table(s, rules, owner, top - FIRST_NATURAL, 3, 0, 0)
    else:
        add_to_staged(s, rules, top - FIRST_NATURAL, 3, 0, 0)
        open_side(s, owner)
    count = s.pile_len if rules.take_count < 0 else rules.take_count - 1
    for _ in range(min(count, s.pile_len)):
        s.pile_len -= 1
        receive(s, rules, p, s.pile[s.pile_len])
    s.phase = PLAY
    after_meld(s, rules, packs)


@njit(cache=True)
def take_top_discard(s, rules):
    """House: one card from the stock, then the top discard, into the hand."""
    receive(s, rules, s.current, pop_stock(s))
    s.pile_len -= 1
    receive(s, rules, s.current, s.pile[s.pile_len])
    s.phase = PLAY


@njit(cache=True)
def discard(s, rules, packs, card):
    p = s.current
    kind = KIND_OF_CARD[card]
    suit = SUIT_OF_CARD[card]
    s.hand[p, kind] -= 1
    if suit >= 0:
        s.hand_suits[p, suit, kind - FIRST_NATURAL] -= 1
    s.pile[s.pile_len] = card
    s.pile_len += 1
    for k in range(NUM_KINDS):  # staged melds that never reached the minimum go back
        s.hand[p, k] += s.staged_cards[k]
    if rules.runs:
        for suit in range(NUM_SUITS):
            for r in range(NUM_NATURALS):
                s.hand_suits[p, suit, r] += s.staged_suits[suit, r]
    clear_staged(s)
    if hand_total(s, p) == 0:
        if s.on_foot[p]:
            end_deal(s, rules, packs, p)
            settle(s, rules, packs)
            return
        pick_up_foot(s, rules, p)
    s.current = (p + 1) % rules.players
    s.phase = DRAW
    settle(s, rules, packs)


@njit(cache=True)
def apply_action(s, rules, packs, action):
    """Apply a legal action (the caller has checked it)."""
    s.num_steps += 1
    if action == A.DRAW:
        for _ in range(rules.draw_count):
            if s.stock_len > 0:
                receive(s, rules, s.current, pop_stock(s))
        s.phase = PLAY
    elif action == A.TAKE_PILE:
        if rules.one_plus_discard:
            take_top_discard(s, rules)
        else:
            take_pile(s, rules, packs)
    elif action < A.ADD_NATURAL:
        offset = action - A.START_GROUP
        meld(s, rules, packs, 0, offset // 3, offset % 3)
    elif action < A.ADD_TWO:
        meld(s, rules, packs, 1, action - A.ADD_NATURAL, 0)
    elif action < A.ADD_JOKER:
        meld(s, rules, packs, 2, action - A.ADD_TWO, 0)
    elif action < A.DISCARD:
        meld(s, rules, packs, 3, action - A.ADD_JOKER, 0)
    elif action < A.DISCARD_SUITED:
        discard(s, rules, packs, action - A.DISCARD)
    elif action < A.START_RUN:
        discard(s, rules, packs, NUM_KINDS + action - A.DISCARD_SUITED)  # the suited card id
    elif action < A.EXTEND_RUN_DOWN:
        offset = action - A.START_RUN
        meld_run(s, rules, packs, 0, offset // A.RUN_STARTS, offset % A.RUN_STARTS)
    elif action < A.EXTEND_RUN_UP:
        meld_run(s, rules, packs, 1, action - A.EXTEND_RUN_DOWN, 0)
    elif action < A.START_TWOS_BOOK:
        meld_run(s, rules, packs, 2, action - A.EXTEND_RUN_UP, 0)
    else:
        meld_twos(s, rules, packs, 0 if action == A.START_TWOS_BOOK else 1)


# ---------------------------------------------------------------------------- batch kernels
# ``rules`` here is ``Rules.kernel``, a one-element record array (numba's parallel loops take
# a record only inside an array).  Each kernel comes twice: split over the cores for large
# batches, serial for small ones (where starting the threads would cost more than the work).
@njit(cache=True)
def reset_game(s, rules, packs):
    s.first_dealer = rules.players - 1  # decision: seat 0 starts deal 1
    s.deal = 0
    s.deals_ended = 0
    s.num_steps = 0
    s.totals[:] = 0
    s.deal_scores[:] = 0
    start_deal(s, rules, packs)
    settle(s, rules, packs)


@njit(cache=True)
def reset_kernel(states, packs, rules, index):
    """Start the games at ``index`` (their packs already shuffled) from deal 1."""
    for i in range(index.shape[0]):
        reset_game(states[index[i]], rules[0], packs[index[i]])


@njit(cache=True)
def open_deal_kernel(states, packs, rules, index):
    """Open the deal of the games at ``index`` whose cards are dealt (loaded positions)."""
    for i in range(index.shape[0]):
        open_deal(states[index[i]], rules[0])
        settle(states[index[i]], rules[0], packs[index[i]])


@njit(cache=True, parallel=True)
def check_kernel_parallel(states, rules, actions, active, errors):
    """Reason code (0 = legal) of each active game's action, changing nothing."""
    for b in prange(states.shape[0]):
        errors[b] = action_reason(states[b], rules[0], actions[b]) if active[b] else 0


@njit(cache=True)
def check_kernel_serial(states, rules, actions, active, errors):
    for b in range(states.shape[0]):
        errors[b] = action_reason(states[b], rules[0], actions[b]) if active[b] else 0


@njit(cache=True)
def end_deal_if_stuck(s, rules, packs):
    """Reference ``_end_deal_if_stuck``: an empty stock and no legal action end the deal."""
    if s.phase != OVER and s.stock_len == 0 and not has_legal_action(s, rules):
        end_deal(s, rules, packs, -1)
        settle(s, rules, packs)


@njit(cache=True)
def apply_game(s, rules, packs, action):
    """Apply one checked, legal action; True if it ended a deal."""
    deals_before = s.deals_ended
    apply_action(s, rules, packs, action)
    end_deal_if_stuck(s, rules, packs)
    return s.deals_ended > deals_before


@njit(cache=True, parallel=True)
def apply_kernel_parallel(states, packs, rules, actions, active, deal_over):
    """Apply each active game's (checked, legal) action; ``deal_over[b]``: a deal ended."""
    for b in prange(states.shape[0]):
        deal_over[b] = apply_game(states[b], rules[0], packs[b], actions[b]) if active[b] else False


@njit(cache=True)
def apply_kernel_serial(states, packs, rules, actions, active, deal_over):
    for b in range(states.shape[0]):
        deal_over[b] = apply_game(states[b], rules[0], packs[b], actions[b]) if active[b] else False
