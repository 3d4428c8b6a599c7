"""Cards: the fifteen kinds that matter in the rank-only presets, their values, and the deal.

A physical card is a code 0..53 within its deck: ``suit * 13 + rank_index`` for the 52
suited cards (rank_index 0 is the 2, 12 the ace; suits clubs, diamonds, hearts, spades)
and 52, 53 for the two jokers.  In ``classic`` and ``partnership`` only a card's *kind*
matters (suits matter only to tell red threes from black threes), so the engines hold
hands as counts per kind and the stock and the pile as sequences of kinds.

The ``house`` preset plays runs, so there a natural's suit matters too.  Its cards are
*card ids*: the kinds 0..14 for the cards whose suit never matters (jokers, 2s, threes), and
``15 + 11 * suit + rank`` for a natural of a suit (``suited_id``).  The rank-only presets
deal kinds, which are their own card ids, so they pay nothing for suits.

The shuffle is defined here, once, so that both engines deal the same cards from the
same seed: deal ``d`` of the game seeded with ``s`` uses
``numpy.random.default_rng([s, d]).permutation`` of the decks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# The largest game seed: the vector engine keeps seeds as int64, and both engines take the same range.
MAX_SEED = 2**63 - 1
# The largest seed of a run, a match or a search, from which many game seeds are derived
# (seed + i, seed * 10**8 + ...): small enough that every derived seed is still a game seed.
MAX_RUN_SEED = 2**32 - 1


def check_seed(seed: Any, what: str = "seed", most: int | None = MAX_SEED) -> int:
    """``seed`` as an int; a ``ValueError`` naming ``what`` unless it is a whole number from 0
    to ``most`` (None: no limit, for seeds that only seed numpy generators)."""
    in_range = not isinstance(seed, bool) and isinstance(seed, (int, np.integer)) and seed >= 0
    if not in_range or (most is not None and seed > most):
        limit = "0 or more" if most is None else f"from 0 to {most}"
        raise ValueError(f"{what} must be a whole number {limit}, got {seed!r}")
    return int(seed)


# Kind indices.  Naturals 4..A are kinds 4..14, so ``kind - FIRST_NATURAL`` is the
# natural's rank index 0..10 used by the action layout.
JOKER, TWO, BLACK_THREE, RED_THREE = 0, 1, 2, 3
FIRST_NATURAL = 4
NUM_KINDS = 15
NUM_NATURALS = 11
NATURAL_KINDS = tuple(range(FIRST_NATURAL, NUM_KINDS))

KIND_NAMES = ("Jk", "2", "3b", "3r", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
KIND_BY_NAME = {name.lower(): kind for kind, name in enumerate(KIND_NAMES)}

# Card values (docs/rules.md "Cards"); a red three has no card value.
KIND_VALUES = (50, 20, 5, 0, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20)

# How many of each kind one 54-card deck holds.
KINDS_PER_DECK = (2, 4, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4)
CARDS_PER_DECK = 54
assert sum(KINDS_PER_DECK) == CARDS_PER_DECK


# Suits in code order (clubs, diamonds, hearts, spades); only runs (house) look at them.
NUM_SUITS = 4
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_LETTERS = "cdhs"
NUM_CARD_IDS = NUM_KINDS + NUM_SUITS * NUM_NATURALS  # 59


def suited_id(suit: int, rank: int) -> int:
    """Card id of the natural of ``suit`` and rank index ``rank`` (house)."""
    return NUM_KINDS + NUM_NATURALS * suit + rank


def is_natural(kind: int) -> bool:
    return kind >= FIRST_NATURAL


def is_wild(kind: int) -> bool:
    return kind == JOKER or kind == TWO


def rank_of(kind: int) -> int:
    """Rank index 0..10 of a natural kind (4 is 0, ace is 10)."""
    return kind - FIRST_NATURAL


def natural_kind(rank: int) -> int:
    return rank + FIRST_NATURAL


def kind_name(kind: int) -> str:
    return KIND_NAMES[kind]


def parse_kind(token: str) -> int:
    """Parse a card name such as ``K``, ``10``, ``Jk``, ``2``, ``3b`` or ``3r``."""
    kind = KIND_BY_NAME.get(token.strip().lower())
    if kind is None:
        raise ValueError(
            f"unknown card {token!r}: use one of {', '.join(KIND_NAMES)} (Jk = joker, 3b/3r = black/red three)"
        )
    return kind


def _kind_of_code() -> np.ndarray:
    kinds = np.empty(CARDS_PER_DECK, dtype=np.int8)
    for code in range(52):
        suit, rank_index = divmod(code, 13)
        face = rank_index + 2  # 2..14, 14 = ace
        if face == 2:
            kinds[code] = TWO
        elif face == 3:
            kinds[code] = RED_THREE if suit in (1, 2) else BLACK_THREE
        else:
            kinds[code] = face  # 4..14 coincide with the natural kinds
    kinds[52:] = JOKER
    return kinds


KIND_OF_CODE = _kind_of_code()
assert tuple(np.bincount(KIND_OF_CODE, minlength=NUM_KINDS)) == KINDS_PER_DECK

# Card id -> kind, and card id -> suit (-1 where the suit does not matter).
CARD_KIND = np.array(
    list(range(NUM_KINDS)) + [natural_kind(r) for _ in range(NUM_SUITS) for r in range(NUM_NATURALS)], dtype=np.int8
)
CARD_SUIT = np.array([-1] * NUM_KINDS + [s for s in range(NUM_SUITS) for _ in range(NUM_NATURALS)], dtype=np.int8)


def _suited_id_of_code() -> np.ndarray:
    ids = KIND_OF_CODE.astype(np.int8).copy()
    for code in range(52):
        suit, _ = divmod(code, 13)
        if is_natural(int(KIND_OF_CODE[code])):
            ids[code] = suited_id(suit, rank_of(int(KIND_OF_CODE[code])))
    return ids


SUITED_ID_OF_CODE = _suited_id_of_code()
assert np.array_equal(CARD_KIND[SUITED_ID_OF_CODE], KIND_OF_CODE)


def card_name(card: int) -> str:
    """``Kh``, ``10s`` for a suited natural; the kind's name otherwise."""
    suit = int(CARD_SUIT[card])
    name = KIND_NAMES[int(CARD_KIND[card])]
    return name if suit < 0 else name + SUIT_LETTERS[suit]


def deck_counts(num_decks: int) -> np.ndarray:
    """Count of each kind in the full pack of ``num_decks`` decks."""
    return np.asarray(KINDS_PER_DECK, dtype=np.int64) * num_decks


def shuffled_codes(seed: int, deal_index: int, num_decks: int) -> np.ndarray:
    """The shuffled pack (card codes) for one deal; index 0 is dealt first."""
    pack = np.tile(np.arange(CARDS_PER_DECK, dtype=np.int16), num_decks)
    rng = np.random.default_rng([int(seed), int(deal_index)])
    return rng.permutation(pack)


def shuffled_cards(seed: int, deal_index: int, num_decks: int, suited: bool) -> np.ndarray:
    """The shuffled pack as card ids: kinds, or with suits on the naturals when ``suited``."""
    table = SUITED_ID_OF_CODE if suited else KIND_OF_CODE
    return table[shuffled_codes(seed, deal_index, num_decks)]


def card_id_counts(num_decks: int, suited: bool) -> np.ndarray:
    """Count of each card id in the full pack."""
    table = SUITED_ID_OF_CODE if suited else KIND_OF_CODE
    return np.bincount(table, minlength=NUM_CARD_IDS).astype(np.int64) * num_decks


def format_counts(counts) -> str:
    """``K K Q 2`` style listing of a per-kind count vector, naturals high to low."""
    order = list(range(NUM_KINDS - 1, FIRST_NATURAL - 1, -1)) + [TWO, JOKER, BLACK_THREE, RED_THREE]
    return " ".join(KIND_NAMES[k] for k in order for _ in range(int(counts[k])))


def parse_cards(text: str) -> list[int]:
    """Parse a space-separated list of card names into kinds."""
    return [parse_kind(tok) for tok in text.replace(",", " ").split()]


def parse_card(token: str) -> tuple[int, int]:
    """Parse ``Kh``, ``10s``, ``K`` or ``Jk`` into (kind, suit); suit is -1 when not given."""
    text = token.strip()
    if len(text) >= 2 and text[-1].lower() in SUIT_LETTERS and text.lower() not in KIND_BY_NAME:
        kind = parse_kind(text[:-1])
        if not is_natural(kind):
            raise ValueError(f"card {token!r}: only naturals 4..A carry a suit")
        return kind, SUIT_LETTERS.index(text[-1].lower())
    return parse_kind(text), -1
