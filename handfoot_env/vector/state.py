"""Vector engine state: one numpy record per game (batch first), and the rules as an int array.

The record dtype depends only on the table size (players, owners, cards, deals); the
compiled kernels take the records plus ``cfg``, an int64 vector of every rule the kernels
need, indexed by the constants below.
"""

from __future__ import annotations

import numpy as np

from handfoot_env.cards import CARDS_PER_DECK, NUM_KINDS, NUM_NATURALS, NUM_SUITS, shuffled_cards
from handfoot_env.rules import WILD_LIMITS, Rules

# Phases (the reference engine's "draw", "play", "game_over").
DRAW, PLAY, OVER = 0, 1, 2

# cfg indices.
(
    C_PLAYERS, C_OWNERS, C_PARTNERSHIPS, C_HAND, C_FOOT, C_DEALS, C_DRAW, C_UPCARD, C_TAKE_COUNT,
    C_PILE_MIN, C_TAKE_NEEDS_OPEN, C_STAGE_BEFORE_DRAW, C_BOOK, C_MAX_WILDS, C_WILD_LIMIT, C_CLEAN,
    C_DIRTY, C_RED_BONUS, C_RED_UNOPENED, C_RED_UNLAID, C_BLACK_PENALTY, C_OUT_BONUS, C_OUT_BY_MELD,
    C_CARDS, C_REWARD_GAME,
    # house (003)
    C_RUNS, C_TWOS_BOOKS, C_ONE_PLUS_DISCARD, C_FROZEN, C_RED_LAID, C_TARGET, C_SCORE_STEPS,
) = range(32)
C_MINIMUMS = 32  # one per deal
C_BOOKS_NEEDED = C_MINIMUMS + 32  # (clean, dirty) per deal
C_SCORE_MINIMUMS = C_BOOKS_NEEDED + 64  # up to 8 (threshold, minimum) rows, minimums_by_score
CFG_SIZE = C_SCORE_MINIMUMS + 16


def make_cfg(rules: Rules, reward_mode: str = "deal") -> np.ndarray:
    """The rules as the int64 vector the kernels read."""
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    take = rules.pile_take_count
    values = {
        C_PLAYERS: rules.num_players,
        C_OWNERS: rules.num_owners,
        C_PARTNERSHIPS: rules.partnerships,
        C_HAND: rules.hand_size,
        C_FOOT: rules.foot_size,
        C_DEALS: rules.num_deals,
        C_DRAW: rules.draw_count,
        C_UPCARD: rules.pile_upcard,
        C_TAKE_COUNT: -1 if take is None else take,  # -1: the whole pile
        C_PILE_MIN: rules.pile_min_size,
        C_TAKE_NEEDS_OPEN: rules.take_requires_opened,
        C_STAGE_BEFORE_DRAW: rules.staging_before_draw,
        C_BOOK: rules.book_size,
        C_MAX_WILDS: rules.max_wilds,
        C_WILD_LIMIT: WILD_LIMITS.index(rules.wild_limit),
        C_CLEAN: rules.clean_book_bonus,
        C_DIRTY: rules.dirty_book_bonus,
        C_RED_BONUS: rules.red_three_bonus,
        C_RED_UNOPENED: rules.red_three_unopened_penalty,
        C_RED_UNLAID: rules.red_three_unlaid_penalty,
        C_BLACK_PENALTY: rules.black_three_penalty,
        C_OUT_BONUS: rules.going_out_bonus,
        C_OUT_BY_MELD: rules.go_out_by_meld,
        C_CARDS: rules.total_cards,
        C_REWARD_GAME: reward_mode == "game",
        C_RUNS: rules.runs,
        C_TWOS_BOOKS: rules.books_of_twos,
        C_ONE_PLUS_DISCARD: rules.draw_one_plus_discard,
        C_FROZEN: rules.frozen_six,
        C_RED_LAID: rules.red_threes_laid_down,
        C_TARGET: rules.target_score or 0,  # 0: no target, the game is num_deals long
        C_SCORE_STEPS: len(rules.minimums_by_score or ()),
    }
    for index, value in values.items():
        cfg[index] = int(value)
    for deal in range(rules.num_deals):
        cfg[C_MINIMUMS + deal] = rules.deal_minimums[deal]
        cfg[C_BOOKS_NEEDED + 2 * deal] = rules.books_to_go_out[deal][0]
        cfg[C_BOOKS_NEEDED + 2 * deal + 1] = rules.books_to_go_out[deal][1]
    for row, (threshold, minimum) in enumerate(rules.minimums_by_score or ()):
        cfg[C_SCORE_MINIMUMS + 2 * row] = min(threshold, 2**62)
        cfg[C_SCORE_MINIMUMS + 2 * row + 1] = minimum
    return cfg


MAX_PLAYERS = 6
MAX_OWNERS = 6
MAX_DEALS = 30
MAX_CARDS = 12 * CARDS_PER_DECK


def state_dtype() -> np.dtype:
    """The record of one game, sized for the largest table so that one compiled kernel
    serves every rule set (about 3.6 KiB; the shuffled packs are held beside it)."""
    players, owners, deals, cards = MAX_PLAYERS, MAX_OWNERS, MAX_DEALS, MAX_CARDS
    return np.dtype(
        [
            ("seed", np.int64),
            ("deal", np.int16),  # deal index, 0-based
            ("dealer", np.int8),
            ("first_dealer", np.int8),  # dealer of deal 1; the dealer moves left each deal
            ("current", np.int8),  # the seat to move
            ("phase", np.int8),  # DRAW, PLAY or OVER
            ("went_out", np.int8),  # seat that went out in the last finished deal, -1 if none
            ("num_steps", np.int32),  # actions applied in this game
            # Card ids (cards.py): kinds, or suited naturals when runs are played.
            ("stock", np.int8, (cards,)),  # the top is stock[stock_len - 1]
            ("stock_len", np.int16),
            ("pile", np.int8, (cards,)),  # the top is pile[pile_len - 1]
            ("pile_len", np.int16),
            ("hand", np.int16, (players, NUM_KINDS)),
            ("foot", np.int16, (players, NUM_KINDS)),
            ("on_foot", np.int8, (players,)),
            # With runs: the naturals of hand, foot and staged cards by [suit, rank].
            ("hand_suits", np.int8, (players, NUM_SUITS, NUM_NATURALS)),
            ("foot_suits", np.int8, (players, NUM_SUITS, NUM_NATURALS)),
            ("staged_suits", np.int8, (NUM_SUITS, NUM_NATURALS)),
            ("staged_runs", np.int8, (NUM_SUITS, 2)),  # unfinished staged run per suit: length, low
            ("staged_twos", np.int8),  # cards in the unfinished staged book of 2s
            # The player to move's staged cards (only the player to move ever stages).
            ("staged_cards", np.int16, (NUM_KINDS,)),
            ("staged_groups", np.int8, (NUM_NATURALS, 3)),  # unfinished: naturals, 2s, jokers
            ("staged_books", np.int8, (2,)),  # clean, dirty
            ("staged_value", np.int32),
            # Each owner's table.
            ("groups", np.int8, (owners, NUM_NATURALS, 3)),  # unfinished group per rank
            ("runs", np.int8, (owners, NUM_SUITS, 2)),  # unfinished run per suit: length, low
            ("twos", np.int8, (owners,)),  # cards in the unfinished book of 2s
            ("books", np.int16, (owners, 2)),  # clean, dirty (house: red, black canastas)
            ("book_ranks", np.int8, (owners, NUM_NATURALS, 2)),  # books per rank: clean, dirty
            ("staged_book_ranks", np.int8, (NUM_NATURALS, 2)),
            ("table_cards", np.int16, (owners, NUM_KINDS)),  # every card on the table, red threes too
            ("opened", np.int8, (owners,)),
            ("totals", np.int32, (owners,)),
            ("deal_scores", np.int32, (deals, owners)),
        ]
    )


def make_packs(batch_size: int, rules: Rules) -> np.ndarray:
    """Room for the shuffled pack of every deal of every game, as card ids: ``[B, deals, cards]``."""
    return np.zeros((batch_size, rules.num_deals, rules.total_cards), dtype=np.int8)


def fill_packs(states: np.ndarray, packs: np.ndarray, index: np.ndarray, seeds: np.ndarray, rules: Rules) -> None:
    """Shuffle every deal of the games at ``index`` exactly as the reference engine does.

    This is the only per-game Python loop, and it runs once per game, not per step."""
    decks = int(rules.num_decks)
    for i, seed in zip(index, seeds):
        states["seed"][i] = seed
        for deal in range(rules.num_deals):
            packs[i, deal] = shuffled_cards(int(seed), deal, decks, suited=rules.runs)
