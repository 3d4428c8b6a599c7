"""Determinization: the redeal of the cards one seat cannot see depends only on what it can see."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from helpers import HIDDEN_SWAPS, swap_hidden_cards

from handfoot_env.cards import FIRST_NATURAL, NUM_CARD_IDS, NUM_KINDS, RED_THREE
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
        assert np.array_equal(engine.observe(np.full(len(twins), seat)), seen)  # the seat's view is untouched


def test_different_seeds_redeal_differently():
    game = mid_deal("partnership", 4, 30)
    engine = VectorEngine(game.rules, batch_size=2, auto_reset=False)
    for row in (0, 1):
        engine.load_position(row, game)
    determinize_kernel(engine.states, engine.kernel_rules, np.arange(2), np.full(2, game.current), np.array([1, 2]))
    assert not np.array_equal(engine.states[0]["stock"], engine.states[1]["stock"])


def hidden_cards(state, seat: int, players: int) -> np.ndarray:
    """Every card ``seat`` cannot see, counted by card id: the other hands, every unplayed foot,
    the stock."""
    counts = np.bincount(state["stock"][: state["stock_len"]].astype(np.int64), minlength=NUM_CARD_IDS)
    for q in range(players):
        places = [("foot", "foot_suits")] if q == seat else [("hand", "hand_suits"), ("foot", "foot_suits")]
        for kinds, suits in places:
            counts[:FIRST_NATURAL] += state[kinds][q][:FIRST_NATURAL]
            if state[suits][q].any():  # house: naturals by suit
                counts[NUM_KINDS:] += state[suits][q].reshape(-1)
            else:
                counts[FIRST_NATURAL:NUM_KINDS] += state[kinds][q][FIRST_NATURAL:]
    return counts


@pytest.mark.parametrize("preset,players", CONFIGS)
def test_a_redeal_keeps_every_card_every_count_and_what_the_seat_sees(preset, players):
    game = mid_deal(preset, players, 60)
    seat = game.current
    engine = VectorEngine(game.rules, batch_size=1, auto_reset=False)
    engine.load_position(0, game)
    before = engine.states[0].copy()
    seen = engine.observe(np.array([seat]))[0].copy()
    determinize_kernel(engine.states, engine.kernel_rules, np.array([0]), np.array([seat]), np.array([11]))
    after = engine.states[0]

    assert np.array_equal(hidden_cards(after, seat, players), hidden_cards(before, seat, players))
    assert after["stock_len"] == before["stock_len"]
    assert (after["hand"].sum(axis=1) == before["hand"].sum(axis=1)).all()  # every hand and foot its size
    assert (after["foot"].sum(axis=1) == before["foot"].sum(axis=1)).all()
    assert not np.array_equal(after["stock"], before["stock"])  # something was redealt
    for field in ("pile", "groups", "runs", "books", "table_cards", "staged_suits", "totals"):
        assert np.array_equal(after[field], before[field]), field
    assert np.array_equal(after["hand"][seat], before["hand"][seat])
    assert np.array_equal(after["hand_suits"][seat], before["hand_suits"][seat])
    assert np.array_equal(after["known"], before["known"])  # what the table knows each hand holds
    assert np.array_equal(engine.observe(np.array([seat]))[0], seen)  # the seat's view is untouched
    assert (after["known"] <= after["hand"]).all()  # a seat surely holds only cards it holds
    if game.rules.red_threes_laid_down:  # red threes go down at once: never into a hand
        assert (after["hand"][:, RED_THREE] == 0).all()


@pytest.mark.parametrize("players", [2, 4])
def test_house_deals_a_hand_the_naturals_it_is_known_to_hold(players):
    """In house the state keeps ``known`` by kind and a natural's suit apart: a hand known to
    hold some naturals gets that many of each kind again (suits from the unseen ones), so
    the seat's view of what the others hold stays true in every redeal."""
    game = mid_deal("house", players, 60)
    seat = game.current
    engine = VectorEngine(game.rules, batch_size=1, auto_reset=False)
    engine.load_position(0, game)
    state = engine.states[0]
    for q in range(players):  # as if every natural the others hold had been taken from the pile
        if q != seat:
            state["known"][q][FIRST_NATURAL:] = state["hand"][q][FIRST_NATURAL:]
    assert state["known"][:, FIRST_NATURAL:].sum() > 0
    known, seen = state["known"].copy(), engine.observe(np.array([seat]))[0].copy()
    original = state.copy()
    for seed in range(20):
        engine.states[0] = original
        determinize_kernel(engine.states, engine.kernel_rules, np.array([0]), np.array([seat]), np.array([seed]))
        after = engine.states[0]
        assert np.array_equal(after["known"], known)
        assert (after["hand"] >= after["known"]).all()  # each known natural is in its hand again
        assert np.array_equal(engine.observe(np.array([seat]))[0], seen)
        assert (after["hand_suits"].sum(axis=1) == after["hand"][:, FIRST_NATURAL:]).all()


ASKED_PARTNER = """
preset: house
rules: {num_players: 4, permission_to_go_out: true}
phase: draw
to_move: 0
seats:
  - {hand: Kh Kd Ks, foot: [], on_foot: true}
  - {hand: random 11, foot: random 11}
  - {hand: random 11, foot: random 11}
  - {hand: random 11, foot: random 11}
pile: 7d Kc
"""


def test_a_redeal_for_the_asked_partner_keeps_the_askers_staged_known_cards_apart():
    """Seat 0 (on its foot, known to hold a K) takes another K from the pile, stages four Ks
    and asks its partner, seat 2, who is now to act: the known Ks may all be among the staged
    ones, which seat 2 sees, so none is dealt back into seat 0's hand (which used to grow a
    card, and with every K in sight read past the unseen cards)."""
    from helpers import A, kind, rank

    from handfoot_env.reference.scenario import load_scenario

    game = load_scenario(ASKED_PARTNER)
    game.seats[0].known[kind("K")] = 1  # taken from the pile on an earlier turn
    game.step(A.TAKE_PILE)
    game.step(A.start_group(rank("K")))
    game.step(A.add_natural(rank("K")))
    game.step(A.ASK_TO_GO_OUT)
    engine = VectorEngine(game.rules, batch_size=1, auto_reset=False)
    engine.load_position(0, game)
    assert engine.current_player[0] == 2 and engine.states[0]["known"][0][kind("K")] == 2
    before = engine.states[0].copy()
    seen = engine.observe(np.array([2]))[0].copy()
    for seed in range(10):
        engine.states[0] = before
        determinize_kernel(engine.states, engine.kernel_rules, np.array([0]), np.array([2]), np.array([seed]))
        after = engine.states[0]
        assert np.array_equal(hidden_cards(after, 2, 4), hidden_cards(before, 2, 4))
        assert (after["hand"].sum(axis=1) == before["hand"].sum(axis=1)).all()
        assert np.array_equal(engine.observe(np.array([2]))[0], seen)
