"""Transitions, compiled: deal, draw, take, meld, discard, scoring — mirroring ``reference/game.py``.

Every function works on one game's record ``s``; the batch kernels at the bottom loop over
games in compiled code (``prange`` splits the batch over the cores).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from handfoot_env import actions as A
from handfoot_env.cards import (
    BLACK_THREE, FIRST_NATURAL, JOKER, NUM_KINDS, NUM_NATURALS, NUM_SUITS, RED_THREE, TWO,
)
from handfoot_env.rewards import DEAL_REWARD_SCALE
from handfoot_env.vector.masks import has_legal_action
from handfoot_env.vector.rules_kernel import (
    KIND_OF_CARD, START_JOKERS, START_NATURALS, START_TWOS, SUIT_OF_CARD, VALUES, action_reason,
    current_take_reason, hand_total, minimum, owner_of,
)
from handfoot_env.vector.state import (
    C_BLACK_PENALTY, C_BOOK, C_CLEAN, C_DEALS, C_DIRTY, C_DRAW, C_FOOT, C_HAND, C_ONE_PLUS_DISCARD,
    C_OUT_BONUS, C_OWNERS, C_PLAYERS, C_RED_BONUS, C_RED_LAID, C_RED_UNLAID, C_RED_UNOPENED,
    C_REWARD_GAME, C_RUNS, C_TAKE_COUNT, C_TARGET, C_UPCARD, DRAW, OVER, PLAY,
)


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
def lay_down_red_threes(s, cfg, seat):
    if cfg[C_RED_LAID] == 0:  # house: threes are held
        return
    owner = owner_of(cfg, seat)
    while s.hand[seat, RED_THREE] > 0:
        s.hand[seat, RED_THREE] -= 1
        s.table_cards[owner, RED_THREE] += 1
        if s.stock_len > 0:
            add_card(s, seat, pop_stock(s), False)


@njit(cache=True)
def receive(s, cfg, seat, card):
    add_card(s, seat, card, False)
    if card == RED_THREE:
        lay_down_red_threes(s, cfg, seat)


@njit(cache=True)
def pick_up_foot(s, cfg, seat):
    for k in range(NUM_KINDS):
        s.hand[seat, k] = s.foot[seat, k]
        s.foot[seat, k] = 0
    if cfg[C_RUNS]:
        for suit in range(NUM_SUITS):
            for r in range(NUM_NATURALS):
                s.hand_suits[seat, suit, r] = s.foot_suits[seat, suit, r]
                s.foot_suits[seat, suit, r] = 0
    s.on_foot[seat] = 1
    lay_down_red_threes(s, cfg, seat)


# ---------------------------------------------------------------------------- the deal
@njit(cache=True)
def start_deal(s, cfg, packs):
    """Reference ``_start_deal``: deal the cards, then ``open_deal``."""
    n = cfg[C_PLAYERS]
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
    for i in range(cfg[C_HAND] * n):
        add_card(s, (s.current + i) % n, pack[position], False)
        position += 1
    for i in range(cfg[C_FOOT] * n):
        add_card(s, (s.current + i) % n, pack[position], True)
        position += 1
    s.stock_len = cards - position
    for j in range(s.stock_len):
        s.stock[j] = pack[cards - 1 - j]
    open_deal(s, cfg)


@njit(cache=True)
def open_deal(s, cfg):
    """Reference ``open_deal`` without its ``_begin_turn`` (see ``settle``): the upcard,
    then the dealt red threes seat by seat from the first player."""
    n = cfg[C_PLAYERS]
    if cfg[C_UPCARD]:
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
        lay_down_red_threes(s, cfg, (s.current + i) % n)


@njit(cache=True)
def held_penalty(cfg, cards):
    cost = 0
    for k in range(NUM_KINDS):
        if k == BLACK_THREE:
            cost += cards[k] * cfg[C_BLACK_PENALTY]
        elif k == RED_THREE:
            cost += cards[k] * cfg[C_RED_UNLAID]
        else:
            cost += cards[k] * VALUES[k]
    return cost


@njit(cache=True)
def end_deal(s, cfg, packs, went_out, rewards):
    """Reference ``_end_deal`` and ``score_deal``; adds the seats' rewards to ``rewards``."""
    n = cfg[C_PLAYERS]
    owners = cfg[C_OWNERS]
    s.went_out = went_out
    scores = np.zeros(owners, dtype=np.int64)
    for o in range(owners):
        score = 0
        for k in range(NUM_KINDS):
            score += s.table_cards[o, k] * VALUES[k]
        score += s.books[o, 0] * cfg[C_CLEAN] + s.books[o, 1] * cfg[C_DIRTY]
        per_red = cfg[C_RED_BONUS]
        if cfg[C_RED_UNOPENED] and s.opened[o] == 0:
            per_red = -per_red
        score += s.table_cards[o, RED_THREE] * per_red
        if went_out >= 0 and owner_of(cfg, went_out) == o:
            score += cfg[C_OUT_BONUS]
        for seat in range(n):
            if owner_of(cfg, seat) != o:
                continue
            score -= held_penalty(cfg, s.hand[seat])
            if seat == s.current:
                score -= held_penalty(cfg, s.staged_cards)
            if s.on_foot[seat] == 0:
                score -= held_penalty(cfg, s.foot[seat])
        scores[o] = score
        s.deal_scores[s.deal, o] = score
        s.totals[o] += score
    if cfg[C_REWARD_GAME] == 0:
        total = 0
        for o in range(owners):
            total += scores[o]
        for seat in range(n):
            own = owner_of(cfg, seat)
            others = (total - scores[own]) / (owners - 1)
            rewards[seat] += (scores[own] - others) / DEAL_REWARD_SCALE
    reached = False
    if cfg[C_TARGET] > 0:
        for o in range(owners):
            reached = reached or s.totals[o] >= cfg[C_TARGET]
    if s.deal + 1 >= cfg[C_DEALS] or reached:
        s.phase = OVER
        if cfg[C_REWARD_GAME]:
            best = s.totals[0]
            for o in range(owners):
                best = max(best, s.totals[o])
            winners = 0
            winner = -1
            for o in range(owners):
                if s.totals[o] == best:
                    winners += 1
                    winner = o
            for seat in range(n):
                if winners == 1:
                    rewards[seat] += 1.0 if owner_of(cfg, seat) == winner else -1.0
        return
    s.deal += 1
    start_deal(s, cfg, packs)


@njit(cache=True)
def settle(s, cfg, packs, rewards):
    """Reference ``_begin_turn``: while the player to move can neither draw nor take, the deal ends."""
    while s.phase != OVER and s.stock_len < cfg[C_DRAW] and current_take_reason(s, cfg) != 0:
        end_deal(s, cfg, packs, -1, rewards)


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
def add_to_table(s, cfg, owner, rank, n, t, j):
    """Add cards to the owner's unfinished group of ``rank`` (starting it if there is none)."""
    s.groups[owner, rank, 0] += n
    s.groups[owner, rank, 1] += t
    s.groups[owner, rank, 2] += j
    s.table_cards[owner, rank + FIRST_NATURAL] += n
    s.table_cards[owner, TWO] += t
    s.table_cards[owner, JOKER] += j
    if s.groups[owner, rank, 0] + s.groups[owner, rank, 1] + s.groups[owner, rank, 2] >= cfg[C_BOOK]:
        dirty = 0 if s.groups[owner, rank, 1] + s.groups[owner, rank, 2] == 0 else 1
        s.books[owner, dirty] += 1
        s.book_ranks[owner, rank, dirty] += 1
        s.groups[owner, rank, :] = 0


@njit(cache=True)
def add_to_staged(s, cfg, rank, n, t, j):
    s.staged_groups[rank, 0] += n
    s.staged_groups[rank, 1] += t
    s.staged_groups[rank, 2] += j
    s.staged_cards[rank + FIRST_NATURAL] += n
    s.staged_cards[TWO] += t
    s.staged_cards[JOKER] += j
    s.staged_value += n * VALUES[rank + FIRST_NATURAL] + t * VALUES[TWO] + j * VALUES[JOKER]
    if s.staged_groups[rank, 0] + s.staged_groups[rank, 1] + s.staged_groups[rank, 2] >= cfg[C_BOOK]:
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
def after_meld(s, cfg, packs, rewards):
    p = s.current
    if hand_total(s, p) > 0:
        return
    if s.on_foot[p]:
        end_deal(s, cfg, packs, p, rewards)
        settle(s, cfg, packs, rewards)
    else:
        pick_up_foot(s, cfg, p)


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
def finish_meld(s, cfg, packs, owner, opened, rewards):
    """After a run or book-of-2s card: open once the staged melds reach the minimum, then
    the foot (reference ``_meld``'s end)."""
    if not opened:
        if s.staged_value < minimum(s, cfg, owner):
            return  # still staging
        open_side(s, owner)
    after_meld(s, cfg, packs, rewards)


@njit(cache=True)
def meld_run(s, cfg, packs, op, suit, rank, rewards):
    """Start a run of ``suit`` at ``rank`` (op 0), or extend it down (1) or up (2)."""
    p = s.current
    owner = owner_of(cfg, p)
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
    if length >= cfg[C_BOOK]:  # a red canasta: closed
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
    finish_meld(s, cfg, packs, owner, opened, rewards)


@njit(cache=True)
def meld_twos(s, cfg, packs, op, rewards):
    """Start the book of 2s with three (op 0) or add one (op 1)."""
    owner = owner_of(cfg, s.current)
    opened = s.opened[owner] != 0
    count = 3 if op == 0 else 1
    for _ in range(count):
        lay_card(s, owner, opened, TWO)
    size = (s.twos[owner] if opened else s.staged_twos) + count
    if size >= cfg[C_BOOK]:  # a red canasta: closed
        size = 0
        if opened:
            s.books[owner, 0] += 1
        else:
            s.staged_books[0] += 1
    if opened:
        s.twos[owner] = size
    else:
        s.staged_twos = size
    finish_meld(s, cfg, packs, owner, opened, rewards)


@njit(cache=True)
def meld(s, cfg, packs, op, rank, comp, rewards):
    p = s.current
    owner = owner_of(cfg, p)
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
    if cfg[C_RUNS]:  # the naturals leave the hand by suit (reference ``_book_suit``)
        for _ in range(n):
            suit = book_suit(s, p, rank)
            s.hand_suits[p, suit, rank] -= 1
            if s.opened[owner] == 0:
                s.staged_suits[suit, rank] += 1
    if s.opened[owner]:
        add_to_table(s, cfg, owner, rank, n, t, j)
    else:
        add_to_staged(s, cfg, rank, n, t, j)
        if s.staged_value < minimum(s, cfg, owner):
            return  # still staging
        open_side(s, owner)
    after_meld(s, cfg, packs, rewards)


@njit(cache=True)
def take_pile(s, cfg, packs, rewards):
    p = s.current
    owner = owner_of(cfg, p)
    s.pile_len -= 1
    top = KIND_OF_CARD[s.pile[s.pile_len]]
    s.hand[p, top] -= 2
    if s.opened[owner]:
        add_to_table(s, cfg, owner, top - FIRST_NATURAL, 3, 0, 0)
    else:
        add_to_staged(s, cfg, top - FIRST_NATURAL, 3, 0, 0)
        open_side(s, owner)
    count = s.pile_len if cfg[C_TAKE_COUNT] < 0 else cfg[C_TAKE_COUNT] - 1
    for _ in range(min(count, s.pile_len)):
        s.pile_len -= 1
        receive(s, cfg, p, s.pile[s.pile_len])
    s.phase = PLAY
    after_meld(s, cfg, packs, rewards)


@njit(cache=True)
def take_top_discard(s, cfg):
    """House: one card from the stock, then the top discard, into the hand."""
    receive(s, cfg, s.current, pop_stock(s))
    s.pile_len -= 1
    receive(s, cfg, s.current, s.pile[s.pile_len])
    s.phase = PLAY


@njit(cache=True)
def discard(s, cfg, packs, card, rewards):
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
    if cfg[C_RUNS]:
        for suit in range(NUM_SUITS):
            for r in range(NUM_NATURALS):
                s.hand_suits[p, suit, r] += s.staged_suits[suit, r]
    clear_staged(s)
    if hand_total(s, p) == 0:
        if s.on_foot[p]:
            end_deal(s, cfg, packs, p, rewards)
            settle(s, cfg, packs, rewards)
            return
        pick_up_foot(s, cfg, p)
    s.current = (p + 1) % cfg[C_PLAYERS]
    s.phase = DRAW
    settle(s, cfg, packs, rewards)


@njit(cache=True)
def apply_action(s, cfg, packs, action, rewards):
    """Apply a legal action (the caller has checked it)."""
    s.num_steps += 1
    if action == A.DRAW:
        for _ in range(cfg[C_DRAW]):
            if s.stock_len > 0:
                receive(s, cfg, s.current, pop_stock(s))
        s.phase = PLAY
    elif action == A.TAKE_PILE:
        if cfg[C_ONE_PLUS_DISCARD]:
            take_top_discard(s, cfg)
        else:
            take_pile(s, cfg, packs, rewards)
    elif action < A.ADD_NATURAL:
        offset = action - A.START_GROUP
        meld(s, cfg, packs, 0, offset // 3, offset % 3, rewards)
    elif action < A.ADD_TWO:
        meld(s, cfg, packs, 1, action - A.ADD_NATURAL, 0, rewards)
    elif action < A.ADD_JOKER:
        meld(s, cfg, packs, 2, action - A.ADD_TWO, 0, rewards)
    elif action < A.DISCARD:
        meld(s, cfg, packs, 3, action - A.ADD_JOKER, 0, rewards)
    elif action < A.DISCARD_SUITED:
        discard(s, cfg, packs, action - A.DISCARD, rewards)
    elif action < A.START_RUN:
        discard(s, cfg, packs, NUM_KINDS + action - A.DISCARD_SUITED, rewards)  # the suited card id
    elif action < A.EXTEND_RUN_DOWN:
        offset = action - A.START_RUN
        meld_run(s, cfg, packs, 0, offset // A.RUN_STARTS, offset % A.RUN_STARTS, rewards)
    elif action < A.EXTEND_RUN_UP:
        meld_run(s, cfg, packs, 1, action - A.EXTEND_RUN_DOWN, 0, rewards)
    elif action < A.START_TWOS_BOOK:
        meld_run(s, cfg, packs, 2, action - A.EXTEND_RUN_UP, 0, rewards)
    else:
        meld_twos(s, cfg, packs, 0 if action == A.START_TWOS_BOOK else 1, rewards)


# ---------------------------------------------------------------------------- batch kernels
# Each kernel comes twice: split over the cores for large batches, serial for small ones
# (where starting the threads would cost more than the work).
@njit(cache=True)
def reset_game(s, cfg, packs):
    dummy = np.zeros(cfg[C_PLAYERS], dtype=np.float32)
    s.first_dealer = cfg[C_PLAYERS] - 1  # decision: seat 0 starts deal 1
    s.deal = 0
    s.num_steps = 0
    s.totals[:] = 0
    s.deal_scores[:] = 0
    start_deal(s, cfg, packs)
    settle(s, cfg, packs, dummy)


@njit(cache=True)
def reset_kernel(states, packs, cfg, index):
    """Start the games at ``index`` (their packs already shuffled) from deal 1."""
    for i in range(index.shape[0]):
        reset_game(states[index[i]], cfg, packs[index[i]])


@njit(cache=True)
def open_deal_kernel(states, packs, cfg, index):
    """Open the deal of the games at ``index`` whose cards are dealt (loaded positions)."""
    for i in range(index.shape[0]):
        s = states[index[i]]
        open_deal(s, cfg)
        settle(s, cfg, packs[index[i]], np.zeros(cfg[C_PLAYERS], dtype=np.float32))


@njit(cache=True, parallel=True)
def check_kernel_parallel(states, cfg, actions, active, errors):
    """Reason code (0 = legal) of each active game's action, changing nothing."""
    for b in prange(states.shape[0]):
        errors[b] = action_reason(states[b], cfg, actions[b]) if active[b] else 0


@njit(cache=True)
def check_kernel_serial(states, cfg, actions, active, errors):
    for b in range(states.shape[0]):
        errors[b] = action_reason(states[b], cfg, actions[b]) if active[b] else 0


@njit(cache=True)
def end_deal_if_stuck(s, cfg, packs, rewards):
    """Reference ``_end_deal_if_stuck``: an empty stock and no legal action end the deal."""
    if s.phase != OVER and s.stock_len == 0 and not has_legal_action(s, cfg):
        end_deal(s, cfg, packs, -1, rewards)
        settle(s, cfg, packs, rewards)


@njit(cache=True)
def apply_game(s, cfg, packs, action, rewards):
    rewards[:] = 0.0
    apply_action(s, cfg, packs, action, rewards)
    end_deal_if_stuck(s, cfg, packs, rewards)
    return s.phase == OVER


@njit(cache=True, parallel=True)
def apply_kernel_parallel(states, packs, cfg, actions, active, rewards, dones):
    """Apply each active game's (checked, legal) action; rewards per seat, done when over."""
    for b in prange(states.shape[0]):
        if active[b]:
            dones[b] = apply_game(states[b], cfg, packs[b], actions[b], rewards[b])
        else:
            rewards[b, :] = 0.0
            dones[b] = False


@njit(cache=True)
def apply_kernel_serial(states, packs, cfg, actions, active, rewards, dones):
    for b in range(states.shape[0]):
        if active[b]:
            dones[b] = apply_game(states[b], cfg, packs[b], actions[b], rewards[b])
        else:
            rewards[b, :] = 0.0
            dones[b] = False
