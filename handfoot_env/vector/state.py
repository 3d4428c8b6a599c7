"""Vector engine state: one numpy record per game (batch first).

The record's dtype is fixed by the largest table the rules allow, so that one compiled
kernel serves every rule set; the kernels read the rules from ``Rules.kernel`` (a record
of named fields, built in ``rules.py``).
"""

from __future__ import annotations

import numpy as np

from handfoot_env.cards import CARDS_PER_DECK, NUM_KINDS, NUM_NATURALS, NUM_SUITS, shuffled_cards
from handfoot_env.rules import MAX_DEALS, MAX_DECKS, MAX_PLAYERS, Rules

# Phases (the reference engine's "draw", "play", "game_over").
DRAW, PLAY, OVER = 0, 1, 2
PHASE_NAMES = {DRAW: "draw", PLAY: "play", OVER: "game_over"}
# The permission question of the turn (the reference's "not asked", "asked", "granted", "refused").
NOT_ASKED, ASKED, GRANTED, REFUSED = 0, 1, 2, 3
PERMISSION_NAMES = {NOT_ASKED: "not asked", ASKED: "asked", GRANTED: "granted", REFUSED: "refused"}

# The record is sized for the largest table the rules allow (rules.py's capacity limits).
MAX_OWNERS = MAX_PLAYERS
MAX_CARDS = MAX_DECKS * CARDS_PER_DECK
# The row of the table arrays (groups, runs, twos, books, book_ranks, table_cards) that holds
# the staged melds: staging is laying down on a table of one's own until the opening, when
# the row moves onto the owner's (the reference: ``seat.staged`` or ``side.groups``).
STAGED = MAX_OWNERS


def state_dtype() -> np.dtype:
    """The record of one game, sized for the largest table so that one compiled kernel
    serves every rule set (about 3.6 KiB; the shuffled packs are held beside it)."""
    players, owners, deals, cards = MAX_PLAYERS, MAX_OWNERS, MAX_DEALS, MAX_CARDS
    rows = MAX_OWNERS + 1  # the owners' tables, then STAGED
    return np.dtype(
        [
            ("seed", np.int64),
            ("deal", np.int16),  # deal index, 0-based
            ("dealer", np.int8),
            ("first_dealer", np.int8),  # dealer of deal 1; the dealer moves left each deal
            ("current", np.int8),  # the seat to move
            ("phase", np.int8),  # DRAW, PLAY or OVER
            ("permission", np.int8),  # this turn's question: NOT_ASKED, ASKED, GRANTED or REFUSED
            ("went_out", np.int8),  # seat that went out in the last finished deal, -1 if none
            ("num_steps", np.int32),  # actions applied in this game
            ("deals_ended", np.int16),  # deals finished so far (deal_scores holds their scores)
            # Card ids (cards.py): kinds, or suited naturals when runs are played.
            ("stock", np.int8, (cards,)),  # the top is stock[stock_len - 1]
            ("stock_len", np.int16),
            ("pile", np.int8, (cards,)),  # the top is pile[pile_len - 1]
            ("pile_len", np.int16),
            ("hand", np.int16, (players, NUM_KINDS)),
            ("foot", np.int16, (players, NUM_KINDS)),
            ("on_foot", np.int8, (players,)),
            # Cards each seat surely holds: taken from the pile in sight, not shown since.
            ("known", np.int16, (players, NUM_KINDS)),
            # With runs: the naturals of hand, foot and staged cards by [suit, rank].
            ("hand_suits", np.int8, (players, NUM_SUITS, NUM_NATURALS)),
            ("foot_suits", np.int8, (players, NUM_SUITS, NUM_NATURALS)),
            ("staged_suits", np.int8, (NUM_SUITS, NUM_NATURALS)),  # the staged naturals by suit
            ("staged_value", np.int32),  # points of the staged melds
            # Each owner's table, and in the last row (STAGED) the melds the player to move has
            # staged before opening (only the player to move ever stages).
            ("groups", np.int8, (rows, NUM_NATURALS, 3)),  # unfinished group per rank: naturals, 2s, jokers
            ("runs", np.int8, (rows, NUM_SUITS, 2)),  # unfinished run per suit: length, low
            ("twos", np.int8, (rows,)),  # cards in the unfinished book of 2s
            ("books", np.int16, (rows, 2)),  # clean, dirty (house: red, black canastas)
            ("book_ranks", np.int8, (rows, NUM_NATURALS, 2)),  # books per rank: clean, dirty
            ("wild_book", np.int8, (rows, 2)),  # the unfinished wild book: 2s, jokers (variation)
            ("wild_books", np.int16, (rows,)),  # complete wild books (neither clean nor dirty)
            ("threes", np.int8, (rows,)),  # cards in the unfinished group of black threes (variation)
            ("table_cards", np.int16, (rows, NUM_KINDS)),  # every card in the row, red threes too
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
