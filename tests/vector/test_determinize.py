"""Determinization: the redeal of the cards one seat cannot see depends only on what it can see."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from helpers import HIDDEN_SWAPS, swap_hidden_cards

from handfoot_env.reference import Game
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine
from handfoot_env.vector.determinize import determinize_kernel

CONFIGS = [("classic", 2), ("classic", 4), ("partnership", 4), ("house", 2), ("house", 4)]


def mid_deal(preset: str, players: int, actions: int) -> Game:
    """A game ``actions`` random legal actions into its first deal."""
    game = Game(Rules.preset(preset, num_players=players), seed=players)
    rng = np.random.default_rng(actions)
    for _ in range(actions):
        game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
    assert not game.deal_results, "the first deal is still on"
    return game


@pytest.mark.parametrize("preset,players", CONFIGS)
def test_a_redeal_is_the_same_for_positions_the_seat_cannot_tell_apart(preset, players):
    """Hidden cards swapped every way (other hands and feet, the stock's top, the seat's own
    foot): with the same seed, determinizing from the mover's view gives the same position."""
    rng = random.Random(players)
    for actions in (0, 40, 90):
        game = mid_deal(preset, players, actions)
        seat = game.current
        twins = [game]
        for swap in HIDDEN_SWAPS:
            twin = copy.deepcopy(game)
            if swap_hidden_cards(twin, seat, swap, rng):
                twins.append(twin)
        assert len(twins) >= 4
        engine = VectorEngine(game.rules, batch_size=len(twins), auto_reset=False)
        for row, twin in enumerate(twins):
            engine.load_position(row, twin)
        assert all(engine.states[0].tobytes() != engine.states[r].tobytes() for r in range(1, len(twins)))
        seen = engine.observe(np.full(len(twins), seat)).copy()
        rows = np.arange(len(twins))
        determinize_kernel(engine.states, engine.kernel_rules, rows, np.full(len(twins), seat), np.full(len(twins), 5))
        for row in rows[1:]:
            for field in ("hand", "hand_suits", "foot", "foot_suits", "stock", "known"):
                assert np.array_equal(engine.states[0][field], engine.states[row][field]), (actions, field)
        if not game.rules.runs:  # house cuts the other seats' known cards to what the redeal gave them
            assert np.array_equal(engine.observe(np.full(len(twins), seat)), seen)  # the seat's view is untouched


def test_different_seeds_redeal_differently():
    game = mid_deal("partnership", 4, 30)
    engine = VectorEngine(game.rules, batch_size=2, auto_reset=False)
    for row in (0, 1):
        engine.load_position(row, game)
    determinize_kernel(engine.states, engine.kernel_rules, np.arange(2), np.full(2, game.current), np.array([1, 2]))
    assert not np.array_equal(engine.states[0]["stock"], engine.states[1]["stock"])
