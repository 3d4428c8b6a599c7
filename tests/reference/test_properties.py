"""Property tests over random legal play: conservation, legal groups, recounted scores, games end."""

from __future__ import annotations

import copy

import numpy as np
from helpers import assert_illegal_actions_refused, play_random
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot_env.reference import Game
from handfoot_env.reference.invariants import check_position, recount_deal
from handfoot_env.rules import Rules

CONFIGS = [
    ("classic", 2),
    ("classic", 3),
    ("classic", 4),
    ("classic", 6),
    ("partnership", 4),
    ("house", 2),
    ("house", 4),
]


def rules_for(preset: str, players: int) -> Rules:
    if preset == "house":  # 4 players are two teams; 3 deals keep random games short
        return Rules.preset(preset, num_players=players, partnerships=players == 4, num_deals=3)
    return Rules.preset(preset, num_players=players)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31 - 1))
def test_random_games_keep_every_invariant(config, seed):
    rules = rules_for(*config)
    game = Game(rules, seed)
    check_position(game)
    play_random(game, seed, check=check_position)
    assert len(game.deal_results) == rules.num_deals
    for result in game.deal_results:
        assert recount_deal(result, rules) == result.scores
    assert game.totals == [sum(d.scores[o] for d in game.deal_results) for o in range(rules.num_owners)]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), deal=st.integers(0, 3))
def test_every_deal_places_every_card_once(seed, deal):
    """At the start of deal ``deal`` (reached by random play), every card is in one place."""
    rng = np.random.default_rng(seed)
    for preset, players in CONFIGS:
        rules = rules_for(preset, players).replace(num_deals=4)
        game = Game(rules, seed)
        while game.deal_index < deal:
            game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
        assert game.deal_index == deal and not game.is_over
        check_position(game)
        dealt = sum(sum(s.hand) + sum(s.foot) for s in game.seats)
        red = sum(s.red_threes for s in game.sides)
        assert not any(side.opened for side in game.sides)  # nothing melded yet this deal
        assert dealt + red + len(game.stock) + len(game.pile) == rules.total_cards


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_same_seed_same_game(seed):
    rules = Rules.preset("partnership")
    a = play_random(Game(rules, seed), seed)
    b = play_random(Game(rules, seed), seed)
    assert a.actions == b.actions and a.totals == b.totals


def test_scripted_play_keeps_every_invariant():
    from agents import make_agent
    from handfoot_env.reference.observe import observe

    for preset, players in CONFIGS:
        rules = rules_for(preset, players)
        for seed in range(2):
            game = Game(rules, seed)
            agents = [make_agent("greedy"), make_agent("heuristic")]
            while not game.is_over:
                agent = agents[game.current % 2]
                game.step(int(agent.act(observe(game, game.current)[None], game.legal_mask()[None])[0]))
                check_position(game)
            assert any(d.went_out is not None for d in game.deal_results) or preset == "classic"
            for result in game.deal_results:
                assert recount_deal(result, rules) == result.scores


def test_masked_actions_are_exactly_the_legal_ones():
    """The mask and step agree: every unmasked action steps (on a copy), every masked one is
    refused with the position left as it was."""
    rng = np.random.default_rng(0)
    for preset, players in CONFIGS:
        game = Game(rules_for(preset, players), 11)
        for position in range(150):
            if game.is_over:
                break
            mask = game.legal_mask()
            for action in np.flatnonzero(mask):
                copy.deepcopy(game).step(int(action))  # raises if the mask let an illegal one through
            for action in np.flatnonzero(~mask):
                assert game.why_illegal(int(action)) is not None
            if position % 10 == 0:  # stepping every masked action too, on some positions
                assert_illegal_actions_refused(game)
            game.step(int(rng.choice(np.flatnonzero(mask))))
