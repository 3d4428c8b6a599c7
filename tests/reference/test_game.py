"""The reference game declares its whole state in one place (``Game.__init__``)."""

from __future__ import annotations

import numpy as np
import pytest

from handfoot_env.reference import Game
from handfoot_env.reference.scenario import load_scenario
from handfoot_env.rules import PRESET_NAMES, Rules


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_playing_sets_nothing_the_game_does_not_declare(preset):
    rules = Rules.preset(preset)
    declared = set(vars(Game(rules, seed=3, start=False)))
    game = Game(rules, seed=3)
    rng = np.random.default_rng(3)
    while not game.is_over and len(game.deal_results) < 2:
        game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
    assert set(vars(game)) == declared


def test_an_undealt_game_has_its_empty_state_and_a_scenario_fills_it():
    game = Game(Rules.preset("partnership"), seed=5, start=False)
    assert (game.deal_index, game.current, game.phase, game.went_out) == (0, 0, "draw", None)
    assert (len(game.seats), len(game.sides), game.stock, game.pile, game.totals) == (4, 2, [], [], [0, 0])
    scenario = load_scenario("preset: classic\nseed: 4\nseats:\n  - {hand: K K K 5}\n  - {hand: random 11}\n")
    assert set(vars(scenario)) == set(vars(game))


def test_a_scenario_with_a_negative_seed_is_refused_in_one_line():
    with pytest.raises(ValueError, match="seed must be a whole number from 0 to"):
        load_scenario("preset: classic\nseed: -1\nseats:\n  - {hand: K K K 5}\n  - {hand: random 11}\n")
