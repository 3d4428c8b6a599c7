"""Shared helpers for the tests: scenario shorthands and a fingerprint of a game's state."""

from __future__ import annotations

import json
import random

import numpy as np

from handfoot_env import actions as A
from handfoot_env.cards import (
    CARD_KIND,
    CARD_SUIT,
    FIRST_NATURAL,
    NUM_KINDS,
    NUM_SUITS,
    RED_THREE,
    parse_kind,
    rank_of,
    suited_id,
)
from handfoot_env.reference import Game
from handfoot_env.reference.deal import add_card
from handfoot_lab.differential import TwinGame


def rank(name: str) -> int:
    """Rank index of a natural by name: rank('K') == 9."""
    return rank_of(parse_kind(name))


def kind(name: str) -> int:
    return parse_kind(name)


def scenario(text: str) -> TwinGame:
    """The scenario's position in both engines: every step is compared (masks, every seat's
    observation, rewards, scores), while the test reads the reference game's state."""
    return TwinGame.from_scenario(text)


def fingerprint(game: Game) -> str:
    """Everything that makes up the state, as a string, to prove a refused action changed nothing."""
    return json.dumps(
        {
            "places": game.card_counts_by_place(),
            "stock": game.stock,
            "pile": game.pile,
            "phase": game.phase,
            "current": game.current,
            "deal": game.deal_index,
            "totals": game.totals,
            "actions": game.actions,
            "sides": [(s.opened, s.red_threes, [repr(g) for g in s.groups]) for s in game.sides],
            "seats": [(s.on_foot, s.known, [repr(g) for g in s.staged]) for s in game.seats],
            "suits": [(s.hand_suits, s.foot_suits, s.staged_suits) for s in game.seats],
        },
        sort_keys=True,
    )


def assert_illegal_actions_refused(game: Game) -> None:
    """Every masked action raises an error naming it and leaves the state exactly as it was."""
    import pytest

    from handfoot_env.errors import IllegalActionError

    mask = game.legal_mask()
    before = fingerprint(game)
    for action in np.flatnonzero(~mask):
        with pytest.raises(IllegalActionError, match=f"illegal action {action} "):
            game.step(int(action))
        assert fingerprint(game) == before


def play_random(game: Game, seed: int, max_actions: int = 50_000, check=None) -> Game:
    """Play uniformly random legal actions to the end of the game."""
    rng = np.random.default_rng(seed)
    for _ in range(max_actions):
        if game.is_over:
            return game
        game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
        if check is not None:
            check(game)
    raise AssertionError(f"game did not end within {max_actions} actions")


# ---------------------------------------------------------------------- hidden cards
# Ways to exchange one card between two places a seat cannot see (sizes kept): a position the
# seat cannot tell from the first.  Each names the two places.
HIDDEN_SWAPS = (
    "two other hands",
    "another hand and a foot",
    "two other feet",
    "the stock's top and another hand",
    "the stock and another foot",
    "your foot and the stock's top",
    "your foot and another hand",
)


def _unseen_cards(game: Game, place: tuple[str, int]) -> list[int]:
    """The card ids at ``place`` that may leave it unseen: not a red three, and not a card its
    hand was seen to take from the pile (``known``)."""
    part, where = place
    if part == "stock":
        return [game.stock[where]] if game.stock[where] != RED_THREE else []
    seat = game.seats[where]
    counts, suits = (seat.hand, seat.hand_suits) if part == "hand" else (seat.foot, seat.foot_suits)
    cards = []
    for k in range(NUM_KINDS):
        if k == RED_THREE or counts[k] <= (seat.known[k] if part == "hand" else 0):
            continue
        if game.rules.runs and k >= FIRST_NATURAL:
            cards += [suited_id(s, rank_of(k)) for s in range(NUM_SUITS) if suits[s][rank_of(k)]]
        else:
            cards.append(k)
    return cards


def _replace(game: Game, place: tuple[str, int], old: int, new: int) -> None:
    part, where = place
    if part == "stock":
        game.stock[where] = new
        return
    seat = game.seats[where]
    counts, suits = (seat.hand, seat.hand_suits) if part == "hand" else (seat.foot, seat.foot_suits)
    counts[int(CARD_KIND[old])] -= 1
    if CARD_SUIT[old] >= 0:
        suits[int(CARD_SUIT[old])][rank_of(int(CARD_KIND[old]))] -= 1
    add_card(seat, new, part)


def swap_hidden_cards(game: Game, seat: int, swap: str, rng: random.Random) -> bool:
    """Exchange two cards of different kinds between the two places ``swap`` (one of
    :data:`HIDDEN_SWAPS`) names, both hidden from ``seat``; False when there is no such pair."""
    others = [s for s in range(game.rules.num_players) if s != seat]
    hands = [("hand", s) for s in others if game.seats[s].hand_size]
    feet = [("foot", s) for s in others if not game.seats[s].on_foot]
    mine = [("foot", seat)] if not game.seats[seat].on_foot else []
    top = [("stock", len(game.stock) - 1)] if game.stock else []
    anywhere = [("stock", i) for i in range(len(game.stock))]
    firsts, seconds = {
        "two other hands": (hands, hands),
        "another hand and a foot": (hands, feet),
        "two other feet": (feet, feet),
        "the stock's top and another hand": (top, hands),
        "the stock and another foot": (anywhere, feet),
        "your foot and the stock's top": (mine, top),
        "your foot and another hand": (mine, hands),
    }[swap]
    pairs = [(a, b) for a in firsts for b in seconds if a != b]
    rng.shuffle(pairs)
    for a, b in pairs:
        options = [
            (x, y) for x in _unseen_cards(game, a) for y in _unseen_cards(game, b) if CARD_KIND[x] != CARD_KIND[y]
        ]
        if options:
            x, y = rng.choice(options)
            _replace(game, a, x, y)
            _replace(game, b, y, x)
            return True
    return False


__all__ = [
    "HIDDEN_SWAPS",
    "A",
    "assert_illegal_actions_refused",
    "fingerprint",
    "kind",
    "play_random",
    "rank",
    "scenario",
    "swap_hidden_cards",
]


def assert_unpredictable(draw, bits: int, count: int = 200) -> None:
    """``draw()`` gives seeds nobody can guess or search for: ``bits`` random bits each (every
    bit set in about half of ``count`` draws: a clock's high bits stand still, its low bits
    count), none reproduced by reseeding Python's or numpy's shared generators, and new ones
    with the clocks stopped."""
    import time

    import pytest

    seeds = [draw() for _ in range(count)]
    assert len(set(seeds)) == count and all(0 <= seed < 2**bits for seed in seeds)
    for bit in range(bits):
        share = sum((seed >> bit) & 1 for seed in seeds) / count
        assert 0.3 < share < 0.7, f"bit {bit} is set in {share:.0%} of the seeds"
    random.seed(0)
    np.random.seed(0)
    first = draw()
    random.seed(0)
    np.random.seed(0)
    assert draw() != first, "reseeding the shared generators repeats the seed"
    with pytest.MonkeyPatch.context() as patch:
        for clock in ("time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic_ns"):
            patch.setattr(time, clock, lambda: 1)
        assert len({draw() for _ in range(5)}) == 5, "the seed follows the clock"
