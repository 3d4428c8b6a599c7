"""Legality, compiled: why an action is illegal in one game, as a reason code (0 = legal).

Each check mirrors the reference engine's function of the same name in
``reference/legality.py``; the differential tests hold them to identical masks.  The reason
codes are ``reasons.py``, the counting helpers ``counts.py`` and the reading of an action index
``decode.py``.
"""

from __future__ import annotations

from numba import njit

from handfoot_env import actions as A
from handfoot_env import rule_facts
from handfoot_env.cards import BLACK_THREE, FIRST_NATURAL, JOKER, NUM_NATURALS, TWO
from handfoot_env.rule_facts import owner_of, wilds_allowed
from handfoot_env.vector.counts import (
    CLEAN_BOOK,
    DIRTY_BOOK,
    KIND_OF_CARD,
    NO_BOOK,
    SUIT_OF_CARD,
    VALUES,
    WILD_BOOK,
    group_size,
    group_wilds,
    hand_total,
    melds_row,
    minimum,
    row_books,
    staged_total,
    with_book,
)
from handfoot_env.vector.decode import (
    ASK,
    DISCARD_ACTION,
    DRAW_ACTION,
    GROUP_ACTION,
    ONTO_TABLE,
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
from handfoot_env.vector.reasons import (
    R_ASK_NOT_ON_FOOT,
    R_ASKED,
    R_AWAIT_ANSWER,
    R_BLOCKED,
    R_CANNOT_GO_OUT,
    R_DISCARD_PHASE,
    R_DRAWN,
    R_FROZEN,
    R_FROZEN_PILE,
    R_GROUP_EXISTS,
    R_KEEP_TWO,
    R_LEGAL,
    R_MELD_PHASE,
    R_MUST_DISCARD,
    R_NO_CARD,
    R_NO_DISCARD,
    R_NO_GROUP,
    R_NO_PAIR,
    R_NO_PERMISSION_RULE,
    R_NO_QUESTION,
    R_NO_RUN,
    R_NO_RUNS,
    R_NO_TABLE_GROUP,
    R_NO_THREES,
    R_NO_THREES_GROUP,
    R_NO_TWOS,
    R_NO_TWOS_BOOKS,
    R_NO_WILD_BOOK,
    R_NO_WILD_BOOKS,
    R_NOT_HELD,
    R_NOT_OPENED,
    R_NOT_SUITED,
    R_OUT_OF_RANGE,
    R_OVER,
    R_PILE_EMPTY,
    R_PILE_SMALL,
    R_RUN_AT_ACE,
    R_RUN_AT_FOUR,
    R_RUN_EXISTS,
    R_STOCK_EMPTY,
    R_STOCK_LOW,
    R_STRANDED,
    R_SUITED_DISCARD,
    R_TAKE_KIND,
    R_TAKE_MINIMUM,
    R_TAKE_NONE,
    R_TAKE_OVERFLOW,
    R_TAKE_PHASE,
    R_THREES_EXIST,
    R_TOO_BIG,
    R_TWOS_EXISTS,
    R_WILD_BOOK_EXISTS,
    R_WILDS,
)
from handfoot_env.vector.state import ASKED, DRAW, GRANTED, NOT_ASKED, OVER, PLAY, STAGED


@njit(cache=True)
def partners_on_foot(s, rules, seat):
    """Whether every other member of the seat's side has picked up its foot."""
    owner = owner_of(rules, seat)
    for other in range(rules.num_players):
        if other != seat and owner_of(rules, other) == owner and s.on_foot[other] == 0:
            return False
    return True


@njit(cache=True)
def go_out_problem(s, rules, books):
    """Reference ``go_out_problem``: may the player whose turn it is go out, its side holding
    ``books`` (``row_books``)?  R_LEGAL, or R_KEEP_TWO naming every other reason."""
    clean, dirty, wild, sevens_clean, sevens_dirty = books
    if not rule_facts.meets_book_requirement(rules, s.deal, clean, dirty, wild, sevens_clean, sevens_dirty):
        return R_KEEP_TWO
    if rules.partner_foot_first and not partners_on_foot(s, rules, s.current):
        return R_KEEP_TWO
    if rules.permission_to_go_out and s.permission != GRANTED:
        return R_KEEP_TWO
    return R_LEGAL


@njit(cache=True)
def cards_left_problem(s, rules, left, books):
    """The 2-card rule (reference ``cards_left_problem``)."""
    if s.on_foot[s.current] == 0 or left >= 2:
        return R_LEGAL
    if go_out_problem(s, rules, books) != R_LEGAL:
        return R_KEEP_TWO
    if left == 0 and rules.go_out_by_meld == 0:
        return R_MUST_DISCARD
    return R_LEGAL


@njit(cache=True)
def take_problem(s, rules, how):
    """Reference ``take_problem`` (``how`` PAIR, WITH_TWO or WITH_JOKER) and
    ``table_take_problem`` (ONTO_TABLE): may the player to move take the pile that way as the
    state stands?"""
    if rules.draw_one_plus_discard:
        return top_discard_problem(s, rules) if how == PAIR else R_TAKE_KIND
    p = s.current
    row = melds_row(s, owner_of(rules, p))
    naturals = 0
    size = 0
    wilds = 0
    if s.pile_len > 0:
        top = KIND_OF_CARD[s.pile[s.pile_len - 1]]
        naturals = s.hand[p, top]
        if top >= FIRST_NATURAL:
            size = group_size(s, row, top - FIRST_NATURAL)
            wilds = group_wilds(s, row, top - FIRST_NATURAL)
    return take_problem_for(
        s,
        rules,
        how,
        naturals,
        s.hand[p, TWO],
        s.hand[p, JOKER],
        hand_total(s, p),
        s.staged_value,
        size,
        wilds,
        row_books(s, row),
    )


@njit(cache=True)
def any_take_legal(s, rules):
    """Reference ``any_take_problem`` is None: some take of the pile is legal."""
    if take_problem(s, rules, PAIR) == R_LEGAL:
        return True
    if rules.take_with_natural_and_wild and (
        take_problem(s, rules, WITH_TWO) == R_LEGAL or take_problem(s, rules, WITH_JOKER) == R_LEGAL
    ):
        return True
    return rules.take_onto_table != 0 and take_problem(s, rules, ONTO_TABLE) == R_LEGAL


@njit(cache=True)
def pile_holds_wild(s):
    for i in range(s.pile_len):
        kind = KIND_OF_CARD[s.pile[i]]
        if kind == TWO or kind == JOKER:
            return True
    return False


@njit(cache=True)
def take_problem_for(s, rules, how, naturals, twos, jokers, cards_in_hand, staged_value, size, wilds, books):
    """Reference ``take_problem`` / ``table_take_problem`` with a hand and staged melds given
    (they may be hypothetical): ``naturals`` of the top card's rank, ``twos`` and ``jokers`` in
    a hand of ``cards_in_hand`` cards; ``size``/``wilds`` the unfinished group of that rank and
    ``books`` (``row_books``) where the take would go (``melds_row``)."""
    if how == ONTO_TABLE and rules.take_onto_table == 0:
        return R_TAKE_KIND
    if (how == WITH_TWO or how == WITH_JOKER) and rules.take_with_natural_and_wild == 0:
        return R_TAKE_KIND
    if s.phase != DRAW:
        return R_TAKE_PHASE
    if rules.pile_take_count == 0:
        return R_TAKE_NONE
    if s.pile_len == 0:
        return R_PILE_EMPTY
    top = KIND_OF_CARD[s.pile[s.pile_len - 1]]
    if top < FIRST_NATURAL:
        return R_BLOCKED
    if s.pile_len < rules.pile_min_size:
        return R_PILE_SMALL
    if how != PAIR and rules.wild_freezes_pile and pile_holds_wild(s):
        return R_FROZEN_PILE
    owner = owner_of(rules, s.current)
    opened = s.opened[owner] != 0
    book = rules.book_size
    rank = top - FIRST_NATURAL
    to_hand = s.pile_len - 1
    if rules.pile_take_count > 0:
        to_hand = min(to_hand, rules.pile_take_count - 1)
    if how == ONTO_TABLE:  # the top card alone onto the side's unfinished group on the table
        if not opened or size == 0:
            return R_NO_TABLE_GROUP
        if size + 1 == book:
            books = with_book(books, CLEAN_BOOK if wilds == 0 else DIRTY_BOOK, rank)
        return cards_left_problem(s, rules, cards_in_hand + to_hand, books)
    if rules.take_requires_opened and not opened:
        return R_NOT_OPENED
    need_n = 2 if how == PAIR else 1
    need_t = 1 if how == WITH_TWO else 0
    need_j = 1 if how == WITH_JOKER else 0
    if naturals < need_n or twos < need_t or jokers < need_j:
        return R_NO_PAIR
    if size + 3 > book:
        return R_TAKE_OVERFLOW
    # a pair adds naturals only: the group stays within the limit (the reference checks it anyway)
    if how != PAIR and not wilds_allowed(rules, size - wilds + need_n + 1, wilds + 1):
        return R_WILDS
    value = (need_n + 1) * VALUES[top] + need_t * VALUES[TWO] + need_j * VALUES[JOKER]
    if not opened and staged_value + value < minimum(s, rules, owner):
        return R_TAKE_MINIMUM
    if size + 3 == book:
        books = with_book(books, CLEAN_BOOK if wilds + need_t + need_j == 0 else DIRTY_BOOK, rank)
    return cards_left_problem(s, rules, cards_in_hand - 2 + to_hand, books)


@njit(cache=True)
def frozen_meld(s, rules, owner, card):
    """House: would ``card`` complete one of the owner's melds one card short of a canasta?"""
    six = rules.book_size - 1
    kind = KIND_OF_CARD[card]
    suit = SUIT_OF_CARD[card]
    if kind >= FIRST_NATURAL:
        r = kind - FIRST_NATURAL
        if group_size(s, owner, r) == six:
            return True
        if suit >= 0:
            length = s.runs[owner, suit, 0]
            low = s.runs[owner, suit, 1]
            if length == six and (r == low - 1 or r == low + length):
                return True
    return kind == TWO and s.twos[owner] == six


@njit(cache=True)
def top_discard_problem(s, rules):
    """Reference ``top_discard_problem``: one from the stock plus the top discard (house)."""
    if s.phase != DRAW:
        return R_TAKE_PHASE
    if s.pile_len == 0:
        return R_PILE_EMPTY
    if s.stock_len == 0:
        return R_STOCK_EMPTY
    if rules.frozen_six and frozen_meld(s, rules, owner_of(rules, s.current), s.pile[s.pile_len - 1]):
        return R_FROZEN
    return R_LEGAL


@njit(cache=True)
def group_problem(s, rules, op, rank, comp):
    """Reference ``meld_problem`` for groups.  ``op``: 0 start (with composition ``comp``),
    1 add a natural, 2 add a 2, 3 add a joker."""
    p = s.current
    owner = owner_of(rules, p)
    opened = s.opened[owner] != 0
    if s.phase == DRAW and not (rules.staging_before_draw and not opened):
        return R_MELD_PHASE
    row = melds_row(s, owner)
    n0 = s.groups[row, rank, 0]
    t0 = s.groups[row, rank, 1]
    j0 = s.groups[row, rank, 2]
    exists = n0 + t0 + j0 > 0
    kind = rank + FIRST_NATURAL
    need_n = 0
    need_t = 0
    need_j = 0
    if op == 0:
        if exists:
            return R_GROUP_EXISTS
        need_n = START_NATURALS[comp]
        need_t = START_TWOS[comp]
        need_j = START_JOKERS[comp]
        n, t, j = need_n, need_t, need_j
    else:
        if not exists:
            return R_NO_GROUP
        if op == 1:
            need_n = 1
        elif op == 2:
            need_t = 1
        else:
            need_j = 1
        n, t, j = n0 + need_n, t0 + need_t, j0 + need_j
    if s.hand[p, kind] < need_n or s.hand[p, TWO] < need_t or s.hand[p, JOKER] < need_j:
        return R_NOT_HELD
    book = rules.book_size
    size = n + t + j
    if size > book:
        return R_TOO_BIG
    if not wilds_allowed(rules, n, t + j):
        return R_WILDS
    left = hand_total(s, p) - need_n - need_t - need_j
    is_book = size == book
    books = row_books(s, row)
    if is_book:
        books = with_book(books, CLEAN_BOOK if t + j == 0 else DIRTY_BOOK, rank)
    if not opened:
        total = s.staged_value + need_n * VALUES[kind] + need_t * VALUES[TWO] + need_j * VALUES[JOKER]
        if total < minimum(s, rules, owner):  # staged only: the cards wait, a discard must remain
            if left < 1:
                return R_NO_DISCARD
            if s.phase == DRAW and s.stock_len < rules.draw_count:
                # Would a take still be legal after this staging?
                naturals = 0
                size_top = 0
                wilds_top = 0
                if s.pile_len > 0:
                    top = KIND_OF_CARD[s.pile[s.pile_len - 1]]
                    naturals = s.hand[p, top]
                    if top == kind:
                        naturals -= need_n
                    elif top == TWO:
                        naturals -= need_t
                    elif top == JOKER:
                        naturals -= need_j
                    if top >= FIRST_NATURAL:
                        r = top - FIRST_NATURAL
                        if r == rank:
                            if not is_book:
                                size_top = size
                                wilds_top = t + j
                        else:
                            size_top = group_size(s, STAGED, r)
                            wilds_top = group_wilds(s, STAGED, r)
                twos = s.hand[p, TWO] - need_t
                jokers = s.hand[p, JOKER] - need_j
                stranded = True
                for how in range(4):  # PAIR, ONTO_TABLE, WITH_TWO, WITH_JOKER
                    problem = take_problem_for(
                        s, rules, how, naturals, twos, jokers, left, total, size_top, wilds_top, books
                    )
                    if problem == R_LEGAL:
                        stranded = False
                        break
                if stranded:
                    return R_STRANDED
            return R_LEGAL
    return cards_left_problem(s, rules, left, books)


@njit(cache=True)
def laid_problem(s, rules, owner, used, value, book):
    """The end of the checks of the melds that never stage before the draw (runs, books of 2s,
    wild books, groups of black threes; reference ``meld_problem``): ``used`` cards leave the
    hand, adding ``value`` points; ``book`` is the book the meld completes (``with_book``)."""
    left = hand_total(s, s.current) - used
    if not s.opened[owner] and s.staged_value + value < minimum(s, rules, owner):
        return R_NO_DISCARD if left < 1 else R_LEGAL
    books = with_book(row_books(s, melds_row(s, owner)), book, -1)
    return cards_left_problem(s, rules, left, books)


@njit(cache=True)
def run_problem(s, rules, op, suit, rank):
    """Reference ``meld_problem`` for runs.  ``op``: 0 start at ``rank``, 1 extend down, 2 up."""
    if rules.runs == 0:
        return R_NO_RUNS
    if s.phase == DRAW:
        return R_MELD_PHASE
    p = s.current
    owner = owner_of(rules, p)
    row = melds_row(s, owner)
    length = s.runs[row, suit, 0]
    low = s.runs[row, suit, 1]
    if op == 0:
        if length > 0:
            return R_RUN_EXISTS
        for r in range(rank, rank + 3):
            if s.hand_suits[p, suit, r] < 1:
                return R_NOT_HELD
        value = VALUES[FIRST_NATURAL + rank] + VALUES[FIRST_NATURAL + rank + 1] + VALUES[FIRST_NATURAL + rank + 2]
        return laid_problem(s, rules, owner, 3, value, CLEAN_BOOK if rules.book_size == 3 else NO_BOOK)
    if length == 0:
        return R_NO_RUN
    if op == 1:
        if low == 0:
            return R_RUN_AT_FOUR
        r = low - 1
    else:
        if low + length - 1 == NUM_NATURALS - 1:
            return R_RUN_AT_ACE
        r = low + length
    if s.hand_suits[p, suit, r] < 1:
        return R_NOT_HELD
    if length + 1 > rules.book_size:
        return R_TOO_BIG
    book = CLEAN_BOOK if length + 1 == rules.book_size else NO_BOOK
    return laid_problem(s, rules, owner, 1, VALUES[FIRST_NATURAL + r], book)


@njit(cache=True)
def twos_problem(s, rules, op):
    """Reference ``meld_problem`` for the book of 2s.  ``op``: 0 start with three, 1 add one."""
    if rules.books_of_twos == 0:
        return R_NO_TWOS_BOOKS
    return one_kind_problem(s, rules, op, s.twos, TWO, R_TWOS_EXISTS, R_NO_TWOS)


@njit(cache=True)
def one_kind_problem(s, rules, op, sizes, kind, exists, missing):
    """Reference ``one_kind_plan`` with the position's checks, for a meld of one kind of card
    whose unfinished sizes per melds row are ``sizes`` (``s.twos``, ``s.threes``): ``op`` 0
    starts it with three, 1 adds one; ``exists``/``missing`` are the refusals when it is
    already started / not started."""
    if s.phase == DRAW:
        return R_MELD_PHASE
    p = s.current
    owner = owner_of(rules, p)
    size = sizes[melds_row(s, owner)]
    need = 3 if op == 0 else 1
    if op == 0 and size > 0:
        return exists
    if op == 1 and size == 0:
        return missing
    if s.hand[p, kind] < need:
        return R_NOT_HELD
    if size + need > rules.book_size:
        return R_TOO_BIG
    book = CLEAN_BOOK if size + need == rules.book_size else NO_BOOK
    return laid_problem(s, rules, owner, need, need * VALUES[kind], book)


@njit(cache=True)
def wild_book_problem(s, rules, op, comp):
    """Reference ``meld_problem`` for the wild book.  ``op``: 0 start with composition ``comp``,
    1 add a 2, 2 add a joker."""
    if rules.wild_books == 0:
        return R_NO_WILD_BOOKS
    if s.phase == DRAW:
        return R_MELD_PHASE
    p = s.current
    owner = owner_of(rules, p)
    row = melds_row(s, owner)
    twos = s.wild_book[row, 0]
    jokers = s.wild_book[row, 1]
    if op == 0:
        if twos + jokers > 0:
            return R_WILD_BOOK_EXISTS
        need_t = WILD_START_TWOS[comp]
        need_j = WILD_START_JOKERS[comp]
    else:
        if twos + jokers == 0:
            return R_NO_WILD_BOOK
        need_t = 1 if op == 1 else 0
        need_j = 1 if op == 2 else 0
    if s.hand[p, TWO] < need_t or s.hand[p, JOKER] < need_j:
        return R_NOT_HELD
    size = twos + jokers + need_t + need_j
    if size > rules.book_size:
        return R_TOO_BIG
    value = need_t * VALUES[TWO] + need_j * VALUES[JOKER]
    return laid_problem(s, rules, owner, need_t + need_j, value, WILD_BOOK if size == rules.book_size else NO_BOOK)


@njit(cache=True)
def threes_problem(s, rules, op):
    """Reference ``meld_problem`` for the group of black threes.  ``op``: 0 start, 1 add one."""
    if rules.black_three_books == 0:
        return R_NO_THREES
    return one_kind_problem(s, rules, op, s.threes, BLACK_THREE, R_THREES_EXIST, R_NO_THREES_GROUP)


@njit(cache=True)
def ask_problem(s, rules):
    """Reference ``ask_problem``: "may I go out?", once a turn, from the foot."""
    if rules.permission_to_go_out == 0:
        return R_NO_PERMISSION_RULE
    if s.permission != NOT_ASKED:
        return R_ASKED
    if s.on_foot[s.current] == 0:
        return R_ASK_NOT_ON_FOOT
    return R_LEGAL


@njit(cache=True)
def mover(s, rules):
    """The seat to act (reference ``Game.mover``): the player whose turn it is, or its partner
    while the question "may I go out?" stands."""
    if s.permission == ASKED:
        return (s.current + rules.num_owners) % rules.num_players
    return s.current


@njit(cache=True)
def discard_problem(s, rules, card):
    """Reference ``discard_problem`` (``card`` is a card id)."""
    p = s.current
    if s.phase != PLAY:
        return R_DISCARD_PHASE
    kind = KIND_OF_CARD[card]
    suit = SUIT_OF_CARD[card]
    held = s.hand[p, kind] if suit < 0 else s.hand_suits[p, suit, kind - FIRST_NATURAL]
    if held == 0:
        return R_NO_CARD
    going_out = s.on_foot[p] and hand_total(s, p) == 1 and staged_total(s) == 0
    if going_out and go_out_problem(s, rules, row_books(s, owner_of(rules, p))) != R_LEGAL:
        return R_CANNOT_GO_OUT
    return R_LEGAL


@njit(cache=True)
def why_illegal(s, rules, action):
    """Reference ``why_illegal``, as a reason code (``R_LEGAL``, 0, when the action is legal)."""
    if action < 0 or action >= A.NUM_ACTIONS:
        return R_OUT_OF_RANGE
    if s.phase == OVER:
        return R_OVER
    kind, op, x, y = decode(action)
    if s.permission == ASKED:  # only the partner's answer may follow the question
        if kind == PERMISSION_ACTION and op != ASK:
            return R_LEGAL
        return R_AWAIT_ANSWER
    if kind == PERMISSION_ACTION:
        return ask_problem(s, rules) if op == ASK else R_NO_QUESTION
    if kind == DRAW_ACTION:
        return draw_problem(s, rules)
    if kind == TAKE_ACTION:
        return take_problem(s, rules, op)
    if kind == DISCARD_ACTION:
        if rules.runs and x >= FIRST_NATURAL:
            return R_SUITED_DISCARD
        return discard_problem(s, rules, x)
    if kind == SUITED_DISCARD_ACTION:
        if rules.runs == 0:
            return R_NOT_SUITED
        return discard_problem(s, rules, x)
    return meld_problem(s, rules, kind, op, x, y)


@njit(cache=True)
def draw_problem(s, rules):
    """Reference ``draw_problem``: drawing needs the draw phase and enough stock."""
    if s.phase != DRAW:
        return R_DRAWN
    if s.stock_len < rules.draw_count:
        return R_STOCK_LOW
    return R_LEGAL


@njit(cache=True)
def meld_problem(s, rules, kind, op, x, y):
    """Reference ``meld_problem``: a group, run or book-of-2s action (see ``decode``)."""
    if kind == GROUP_ACTION:
        return group_problem(s, rules, op, x, y)
    if kind == RUN_ACTION:
        return run_problem(s, rules, op, x, y)
    if kind == WILD_BOOK_ACTION:
        return wild_book_problem(s, rules, op, y)
    if kind == THREES_ACTION:
        return threes_problem(s, rules, op)
    return twos_problem(s, rules, op)
