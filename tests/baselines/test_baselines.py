"""Baseline agents: legal actions always, the batched protocol, and the expected strength order."""

from __future__ import annotations

import numpy as np
import pytest

from agents import act_one, make_agent
from agents.evaluation.matches import play_match
from handfoot_env import Rules
from handfoot_env.vector import VectorEngine


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic"])
@pytest.mark.parametrize("preset,players", [("classic", 2), ("classic", 4), ("partnership", 4)])
def test_agents_always_choose_legal_actions(name, preset, players):
    agent = make_agent(name, seed=1)
    engine = VectorEngine(Rules.preset(preset, num_players=players), batch_size=32, seed=9)
    for _ in range(600):
        masks = engine.legal_mask().copy()
        actions = agent.act(engine.observe().copy(), masks)
        assert actions.shape == (32,) and masks[np.arange(32), actions].all()
        engine.step(actions)


def test_seat_level_convenience_for_the_aec_env():
    import handfoot_env

    env = handfoot_env.env(preset="partnership")
    env.reset(seed=0)
    agent = make_agent("heuristic")
    for _ in range(50):
        observation, *_ = env.last()
        action = act_one(agent, observation)
        assert observation["action_mask"][action] == 1
        env.step(action)


def test_unknown_agent_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown agent 'genius'"):
        make_agent("genius")


@pytest.mark.parametrize("preset", ["classic", "partnership"])
def test_heuristic_beats_greedy_beats_random(preset):
    rules = Rules.preset(preset)
    strong = play_match(rules, make_agent("heuristic"), make_agent("greedy"), 60, seed=100, progress=False)
    assert strong.ci95[0] > 0.5, strong
    weak = play_match(rules, make_agent("greedy"), make_agent("random"), 20, seed=100, progress=False)
    assert weak.ci95[0] > 0.5, weak


def test_heuristic_opening_plan_limited_by_the_cards_it_may_stage():
    """Regression: with fewer spare cards than naturals, the plan's counts stay integers."""
    from helpers import scenario

    from handfoot_env.reference.observe import observe

    for hand in ("K K K K", "K K K K K 2", "A A A A A A A"):
        game = scenario(f"""
        preset: classic
        deal: 4
        seats: [{{hand: {hand}, foot: random 11}}, {{hand: random 11, foot: random 11}}]
        """)
        action = make_agent("heuristic").act(observe(game, 0)[None], game.legal_mask()[None])[0]
        assert game.legal_mask()[action]


def test_keep_wilds_holds_the_last_wild_back_unless_the_hand_is_nearly_empty():
    """``keep_wilds: 1``: where the heuristic would put its only wild on a group, the variant
    keeps it while two or more other cards are in hand, and still plays it with fewer."""
    from handfoot_env import actions as A
    from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic
    from handfoot_env.baselines.heuristic_params import params_array
    from handfoot_env.cards import JOKER, NUM_KINDS, TWO
    from handfoot_env.observation import HAND

    rules = Rules.preset("partnership")
    default, keeper = CompiledHeuristic(rules), CompiledHeuristic(rules, params_array({"keep_wilds": 1}))
    engine = VectorEngine(rules, batch_size=64, seed=3)
    kept = played = 0
    for _ in range(3000):
        observations, masks = engine.observe(), engine.legal_mask()
        mine, theirs = default.act(observations, masks), keeper.act(observations, masks)
        wilds = observations[:, HAND + TWO] + observations[:, HAND + JOKER]
        others = observations[:, HAND : HAND + NUM_KINDS].sum(1) - wilds
        onto_group = (mine >= A.ADD_TWO) & (mine < A.DISCARD)
        one_wild = onto_group & (wilds == 1)
        assert not ((theirs >= A.ADD_TWO) & (theirs < A.DISCARD) & one_wild & (others >= 2)).any()
        assert np.array_equal(theirs[one_wild & (others < 2)], mine[one_wild & (others < 2)])
        kept += int((one_wild & (others >= 2)).sum())
        played += int((one_wild & (others < 2)).sum())
        engine.step(mine)
    assert kept > 20 and played > 0


PERMISSION = """
preset: partnership
rules: {{num_deals: 1, permission_to_go_out: true}}
seats:
  - {{hand: K K K, on_foot: true}}
  - {{hand: 4 4, foot: 5}}
  - {{hand: '{partner_hand}', on_foot: true}}
  - {{hand: 8 8, foot: 5}}
tables:
  - {{opened: true, groups: [Q Q Q Q Q Q Q, A A A A A A A, J J J J J 2 2, 10 10 10 10 10 Jk 2]}}
  - {{}}
"""


@pytest.mark.parametrize("partner_hand,answer", [("4 5", "yes"), ("A A Jk Jk 9", "no")])
def test_the_heuristic_asks_to_go_out_and_answers_by_what_the_deal_ending_costs(partner_hand, answer):
    """Seat 0 may go out but for its partner's permission.  The heuristic asks; as the partner
    it says yes with 10 points in hand (the deal ending now costs less than going out earns)
    and no with 150 (its side would lose points by the deal ending now).  The compiled one agrees."""
    from handfoot_env import actions as A
    from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic
    from handfoot_env.baselines.heuristic import HeuristicAgent
    from handfoot_env.reference.observe import observe
    from handfoot_env.reference.scenario import build_scenario

    game, _ = build_scenario(PERMISSION.format(partner_hand=partner_hand))
    agents = [HeuristicAgent(game.rules), CompiledHeuristic(game.rules)]
    for agent in agents:
        assert act_one(agent, {"observation": observe(game, 0), "action_mask": game.legal_mask()}) == A.ASK_TO_GO_OUT
    game.step(A.ASK_TO_GO_OUT)
    expected = A.ANSWER_YES if answer == "yes" else A.ANSWER_NO
    for agent in agents:
        assert act_one(agent, {"observation": observe(game, 2), "action_mask": game.legal_mask()}) == expected
