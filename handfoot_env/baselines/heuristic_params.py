"""The heuristic's numbers, in one table.

Each number has its default (what ``heuristic`` plays: the readable ``HeuristicAgent`` and
its compiled port), the range a search may try (``train/tune.py``, which looks for a
variant that beats the default in duplicate matches), and what it decides.  The compiled
heuristic takes them as one float array in this table's order, so any variant plays at
engine speed; ``tuned`` agents are such arrays saved as JSON by name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

import numpy as np

OFF = 1e9  # a threshold never reached: the habit is off


class Param(NamedTuple):
    default: float
    low: float  # the range a search tries (a value at ``high`` of a threshold means OFF)
    high: float
    whole: bool  # a count or a switch: the search rounds it
    what: str


PARAMS: dict[str, Param] = {
    "pair_bonus": Param(
        40.0, 0, 100, False, "discard score added to a card of a held natural pair (a ticket to the pile)"
    ),
    "feed_penalty": Param(
        3.0,
        -40,
        30,
        False,
        "discard score added to a rank on the next side's table when it may take the "
        "pile (negative: such a rank is a safe discard, since they put those naturals down)",
    ),
    "late_stock": Param(
        4.0, 0, 10, False, "the deal is late below this many stock cards per player (wilds then go anywhere)"
    ),
    "keep_two_stock": Param(
        30.0, 0, 100, False, "on the foot, keep two cards while the stock holds more than this, unless going out wins"
    ),
    "held_card_value": Param(
        8.0, 0, 20, False, "points an opponent's held card (hand or foot) is guessed to cost them"
    ),
    "own_group_bonus": Param(30.0, 0, 60, False, "discard score added to a card that would go on our own group"),
    "out_margin": Param(
        0.0, -500, 500, False, "points added to our side's estimate when judging whether going out wins"
    ),
    "take_min_pile": Param(
        0.0, 0, 6, False, "take the discard pile (classic, partnership) only when it holds at least this many cards"
    ),
    "wild_pairs": Param(1.0, 1, 1, True, "1: put a natural pair down with a wild; 0: keep pairs in hand"),
    "extra_protected": Param(0.0, 0, 5, True, "clean groups kept clean beyond the clean books still needed"),
    "black_three_worth_score": Param(
        -100.0, -100, -100, False, "discard score of a black three when the pile is worth taking"
    ),
    "black_three_score": Param(-40.0, -40, -40, False, "discard score of a black three otherwise"),
    "wild_stock": Param(OFF, 20, 300, False, "wilds go onto groups only while the stock holds fewer cards than this"),
    "new_group_min": Param(3.0, 3, 3, True, "naturals in hand needed to start a new clean group after opening"),
    "clean_min_size": Param(OFF, 3, 8, True, "a clean group of at least this many cards is kept clean"),
    "wild_min_group": Param(0.0, 0, 6, True, "wilds go only onto groups of at least this many cards"),
    "max_group_wilds": Param(3.0, 2, 4, True, "wilds go only onto groups holding fewer wilds than this"),
    "hold_pairs_pile": Param(
        OFF,
        OFF,
        OFF,
        False,
        "while the pile holds at least this many cards, natural pairs stay in hand (tickets to it)",
    ),
    "block_pile_size": Param(
        OFF, 5, 60, False, "discard a 2 (blocking the next take) once the pile holds this many cards"
    ),
    "wilds_first": Param(0.0, 0, 0, True, "1: wilds go onto groups before pairs go down with a wild"),
    "protect_always": Param(
        0.0, 0, 1, True, "1: keep extra_protected clean groups clean even once the clean books are made"
    ),
    "dirty_preference": Param(
        0.0, 0, 8, False, "group sizes a dirty group is treated as bigger by when choosing where a wild goes"
    ),
    "partner_card_weight": Param(
        1.0, -1, 1, False, "a partner's held cards in the going-out estimate: 1 as an opponent's, -1 as ours"
    ),
    "late_out_near": Param(
        0.0, 0, 1, True, "1: the deal counts as late once another side could go out (wilds go anywhere)"
    ),
    "rush_out_near": Param(0.0, 0, 1, True, "1: stop keeping two cards on the foot once another side could go out"),
    "feed_pile_min": Param(
        6.0, 0, 10, True, "the next side 'may take the pile' (feed_penalty) when it holds at least this many cards"
    ),
    "window_rank_score": Param(
        0.0, -40, 40, False, "discard score added to a rank among the pile's top cards (thrown lately)"
    ),
    "value_weight": Param(
        1.0, -1, 3, False, "weight of a natural's card value in its discard score (low cards go first)"
    ),
    "danger_weight": Param(
        0.0,
        0,
        200,
        False,
        "discard score added to a natural times the pair model's chance that the "
        "next player holds a pair of it (and so may take the pile)",
    ),
    "keep_wilds": Param(
        0.0,
        0,
        2,
        True,
        "wilds kept in hand rather than put on groups (they start new groups with "
        "pairs, and go down whenever needed to go out)",
    ),
    "keep_wilds_min_hand": Param(
        2.0,
        2,
        4,
        True,
        "keep_wilds holds only while at least this many other cards are in hand "
        "(with fewer, the wild goes down: the hand empties sooner)",
    ),
    # The variations' habits (0.5.0).  Fixed ranges: a search over the presets stays as it was
    # (a range would change every search's draws); set them by name to try others.
    "wild_book_min_bonus": Param(
        1000.0,
        1000,
        1000,
        False,
        "with wild books, wilds go to a wild book (started with three) when its bonus is at least "
        "this, or when one is needed to go out",
    ),
    "wild_take_min_pile": Param(
        4.0, 4, 4, True, "take the pile with a natural and a wild only when it holds at least this many cards"
    ),
    "permission_margin": Param(
        0.0,
        0,
        0,
        False,
        "asked 'may I go out?', say yes when the going-out bonus plus this covers what my cards "
        "still held cost (the foot's unseen cards at held_card_value each)",
    ),
    "sevens_keep": Param(
        100.0, 100, 100, False, "discard score added to a 7 while a book of 7s is needed to go out and missing"
    ),
}
# The pair model: a logistic regression over these features of a rank, as the discarding
# seat sees them, for "the next player holds two or more of this rank".  Its weights are
# numbers of the table too (pair_<feature>), fitted on heuristic games where the engine
# knows the answer (``train/pair_model.py``), not searched.
PAIR_FEATURES: dict[str, str] = {
    "bias": "1",
    "hand_size": "cards in the next player's hand / 10",
    "opened": "the next player's side has opened",
    "on_table": "the next player's side has an unfinished group of the rank",
    "visible": "naturals of the rank in sight (the pile, my hand, every unfinished group) / 5",
    "on_foot": "the next player is on the foot",
    "mine": "naturals of the rank in my hand",
    "value": "the rank's card value / 20",
    "window": "the rank is among the pile's top cards",
    "known_one": "the next player surely holds exactly one of the rank (it took it from the pile)",
    "known_two": "the next player surely holds two or more of the rank (it took them from the pile)",
}
PARAMS.update(
    {
        f"pair_{feature}": Param(0.0, 0.0, 0.0, False, f"pair model weight of: {what}")
        for feature, what in PAIR_FEATURES.items()
    }
)
NAMES = tuple(PARAMS)
DEFAULT_PARAMS = np.array([p.default for p in PARAMS.values()], dtype=np.float64)
# Model files store their advisor's numbers as an array with these names beside it; files
# from before 0.4.0 have no names: their arrays are in this order (the table without the
# entries added since; files older still stop short of the last pair-model weights).
ADDED_IN_0_4 = ("keep_wilds", "keep_wilds_min_hand")
ADDED_IN_0_5 = ("wild_book_min_bonus", "wild_take_min_pile", "permission_margin", "sevens_keep")
NAMES_BEFORE_0_4 = tuple(name for name in NAMES if name not in ADDED_IN_0_4 + ADDED_IN_0_5)

# The compiled heuristic indexes the array with these, each found by its name (the table may grow
# or be reordered without shifting them).
PAIR_BONUS = NAMES.index("pair_bonus")
FEED_PENALTY = NAMES.index("feed_penalty")
LATE_STOCK = NAMES.index("late_stock")
KEEP_TWO_STOCK = NAMES.index("keep_two_stock")
HELD_CARD_VALUE = NAMES.index("held_card_value")
OWN_GROUP_BONUS = NAMES.index("own_group_bonus")
OUT_MARGIN = NAMES.index("out_margin")
TAKE_MIN_PILE = NAMES.index("take_min_pile")
WILD_PAIRS = NAMES.index("wild_pairs")
EXTRA_PROTECTED = NAMES.index("extra_protected")
BLACK_THREE_WORTH_SCORE = NAMES.index("black_three_worth_score")
BLACK_THREE_SCORE = NAMES.index("black_three_score")
WILD_STOCK = NAMES.index("wild_stock")
NEW_GROUP_MIN = NAMES.index("new_group_min")
CLEAN_MIN_SIZE = NAMES.index("clean_min_size")
WILD_MIN_GROUP = NAMES.index("wild_min_group")
MAX_GROUP_WILDS = NAMES.index("max_group_wilds")
HOLD_PAIRS_PILE = NAMES.index("hold_pairs_pile")
BLOCK_PILE_SIZE = NAMES.index("block_pile_size")
WILDS_FIRST = NAMES.index("wilds_first")
PROTECT_ALWAYS = NAMES.index("protect_always")
DIRTY_PREFERENCE = NAMES.index("dirty_preference")
PARTNER_CARD_WEIGHT = NAMES.index("partner_card_weight")
LATE_OUT_NEAR = NAMES.index("late_out_near")
RUSH_OUT_NEAR = NAMES.index("rush_out_near")
FEED_PILE_MIN = NAMES.index("feed_pile_min")
WINDOW_RANK_SCORE = NAMES.index("window_rank_score")
VALUE_WEIGHT = NAMES.index("value_weight")
DANGER_WEIGHT = NAMES.index("danger_weight")
KEEP_WILDS = NAMES.index("keep_wilds")
KEEP_WILDS_MIN_HAND = NAMES.index("keep_wilds_min_hand")
WILD_BOOK_MIN_BONUS = NAMES.index("wild_book_min_bonus")
WILD_TAKE_MIN_PILE = NAMES.index("wild_take_min_pile")
PERMISSION_MARGIN = NAMES.index("permission_margin")
SEVENS_KEEP = NAMES.index("sevens_keep")
PAIR_WEIGHTS = NAMES.index("pair_bias")  # the pair model's weights follow, in PAIR_FEATURES order
NUM_PAIR_FEATURES = len(PAIR_FEATURES)


def params_array(values: dict[str, float] | None = None) -> np.ndarray:
    """The defaults with ``values`` (by name) put in; an unknown name is an error."""
    array = DEFAULT_PARAMS.copy()
    for name, value in (values or {}).items():
        if name not in PARAMS:
            raise ValueError(f"unknown heuristic parameter {name!r}: choose from {', '.join(NAMES)}")
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not np.isfinite(value):
            raise ValueError(f"heuristic parameter {name!r} must be a finite number, got {value!r}")
        array[NAMES.index(name)] = float(value)
    return array


def params_from_names(names: tuple[str, ...] | list[str] | None, values: np.ndarray) -> np.ndarray:
    """The table's array from ``values`` listed in the order of ``names`` (``None``: an array
    saved before 0.4.0, in ``NAMES_BEFORE_0_4``'s order or a prefix of it); missing entries
    take their defaults."""
    values = np.asarray(values, dtype=np.float64)
    if names is None:
        names = NAMES if len(values) == len(NAMES) else NAMES_BEFORE_0_4[: len(values)]
    if len(names) != len(values):
        raise ValueError(f"{len(values)} heuristic numbers for {len(names)} names")
    return params_array(dict(zip(names, values)))


def params_dict(array: np.ndarray) -> dict[str, float]:
    """The array as ``{name: value}``."""
    return {name: float(v) for name, v in zip(NAMES, array)}


def read_params(path: str | Path) -> tuple[np.ndarray, dict]:
    """A variant saved by ``save_params`` and the rest of its file (preset, players, ...)."""
    try:
        data = json.loads(Path(path).read_text())
        return params_array(data["params"]), data
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"cannot read heuristic parameters from {path}: {exc}") from None


def load_params(path: str | Path) -> np.ndarray:
    """A variant saved by ``save_params`` (``{"format": ..., "params": {name: value}, ...}``)."""
    return read_params(path)[0]


def params_json(array: np.ndarray, **info) -> str:
    """A variant as the JSON ``save_params`` writes: every number by name, the changed ones
    listed apart, and ``info`` (preset, players, how it was found)."""
    changed = {n: v for n, v in params_dict(array).items() if v != PARAMS[n].default}
    return (
        json.dumps(
            {"format": "handfoot-heuristic-params", "params": params_dict(array), "changed": changed, **info}, indent=2
        )
        + "\n"
    )


def save_params(path: str | Path, array: np.ndarray, **info) -> None:
    """Save a variant (``params_json``); ``tuned:PATH`` plays it."""
    Path(path).write_text(params_json(array, **info))
