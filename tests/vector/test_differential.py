"""Reference and vector engines, side by side: identical masks, observations, rewards, scores, dones.

The default run compares 200,000+ steps; ``handfoot fuzz --engine vector --steps N`` runs more."""

from __future__ import annotations

import pytest

from handfoot_env import actions as A
from handfoot_env.cards import parse_kind as kind
from handfoot_env.cards import rank_of
from handfoot_env.rules import Rules
from handfoot_lab.differential import Divergence, run_differential
from handfoot_lab.fuzz import VARIATION_CONFIGS

CONFIGS = [("classic", 2), ("classic", 3), ("classic", 4), ("classic", 6), ("partnership", 4)]


@pytest.mark.parametrize("preset,players", CONFIGS)
def test_engines_agree_step_for_step(preset, players):
    report = run_differential(Rules.preset(preset, num_players=players), batch_size=16, steps=2600, seed=players)
    assert report.games_finished >= 10  # whole games, deal ends and scoring included
    assert report.deal_ends >= 4 * report.games_finished  # every finished game's four deal ends compared
    # (random play ends its deals by running out of stock: going out is compared below)


@pytest.mark.parametrize("preset,players", [("classic", 2), ("partnership", 4)])
def test_engines_agree_where_deals_end_by_going_out(preset, players):
    # Scripted play goes out, which random play never does: the going-out bonus and the
    # scores of a deal that a seat ended compared too.
    from agents import make_agent

    rules = Rules.preset(preset, num_players=players)
    report = run_differential(rules, batch_size=8, steps=1500, seed=players, agent=make_agent("heuristic"), explore=0.2)
    assert report.games_finished >= 5
    assert report.went_out >= report.deal_ends // 2


@pytest.mark.parametrize("players", [2, 4])
def test_engines_agree_on_house(players):
    # Random play, with a low target so that games also end by reaching it.
    rules = Rules.preset("house", num_players=players, num_deals=3, target_score=300)
    report = run_differential(rules, batch_size=8, steps=2500, seed=players)
    assert report.games_finished >= 10


@pytest.mark.parametrize("players", [2, 4])
def test_engines_agree_on_house_under_scripted_play(players):
    # The heuristic lays runs, books of 2s and canastas, meets frozen melds and goes out.
    from agents import make_agent

    rules = Rules.preset("house", num_players=players, target_score=5000)
    report = run_differential(rules, batch_size=8, steps=1500, seed=players, agent=make_agent("heuristic"))
    assert report.games_finished >= 2


@pytest.mark.parametrize(
    "overrides",
    [
        dict(pile_take_count=None, pile_min_size=0, take_requires_opened=False),
        dict(wild_limit="by_size", go_out_by_meld=False, hand_size=13, foot_size=13),
        dict(wild_limit="four_naturals", deal_minimums=(60, 90, 120, 150), num_deals=2),
        dict(pile_take_count=5, clean_book_bonus=300, dirty_book_bonus=100, black_three_penalty=100),
        dict(pile_take_count=0, red_three_unlaid_penalty=100, books_to_go_out=((1, 1), (2, 1), (2, 2), (3, 2))),
    ],
)
def test_engines_agree_on_variations(overrides):
    from agents import make_agent

    for preset in ("classic", "partnership"):
        rules = Rules.preset(preset, **overrides)
        run_differential(rules, batch_size=4, steps=1200, seed=11)  # random play: odd corners
        # Scripted play, to reach what the variations change at going out (the books it
        # needs, going out by a meld or only by a discard).
        report = run_differential(rules, batch_size=4, steps=1200, seed=11, agent=make_agent("heuristic"), explore=0.2)
        assert report.games_finished >= 1 and report.went_out >= 1


def test_a_planted_difference_is_caught():
    """The harness must fail when the engines differ: change one rule in the vector engine only."""
    import handfoot_lab.differential as diff
    from handfoot_env.vector import VectorEngine

    class Planted(VectorEngine):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.kernel_rules = self.kernel_rules.copy()
            self.kernel_rules[0]["dirty_book_bonus"] = 301

    original = diff.VectorEngine
    diff.VectorEngine = Planted
    try:
        with pytest.raises(Divergence, match=r"(?s)seed \d+, step \d+ .*replay record"):
            run_differential(Rules.preset("classic"), batch_size=8, steps=3000, seed=1)
    finally:
        diff.VectorEngine = original


def test_twin_scenarios_catch_a_planted_difference():
    """Scenario tests run through TwinGame: a one-point difference in a loaded position fails them."""
    from handfoot_lab.differential import TwinGame

    twin = TwinGame.from_scenario(
        """
        preset: classic
        seats: [{hand: K K K 5 9, foot: random 11}, {hand: random 11, foot: random 11}]
        tables: [{opened: true, groups: [A A A]}, {}]
        """
    )
    twin.step(A.start_group(rank_of(kind("K")), 0))
    twin.engine.states[0]["totals"][1] += 1
    with pytest.raises(Divergence, match="observation|scores"):  # totals are observed too
        twin.step(A.discard(kind("5")))
    twin = TwinGame.from_scenario("preset: classic\nseats: [{hand: 5 9, foot: 4}, {hand: 8 8, foot: 4}]\n")
    twin.engine.states[0]["hand"][0][kind("9")] += 1  # a card only the vector engine holds
    with pytest.raises(Divergence, match="legal mask|observation"):
        twin.step(A.discard(kind("5")))


@pytest.mark.parametrize("preset,overrides", VARIATION_CONFIGS, ids=lambda v: v if isinstance(v, str) else "-".join(v))
def test_engines_agree_on_the_variations_the_presets_leave_out(preset, overrides):
    # Random play with a little heuristic: wild books, black threes, the three takes, the permission
    # question, the partner's foot, books of 7s and six players in three teams (docs/rules.md "Variations").
    from agents import make_agent

    rules = Rules.preset(preset, **overrides)
    # Six players with seven decks play about 1,500-2,500 decisions a game here: fewer, longer games.
    batch, steps = (4, 2500) if rules.num_players == 6 else (8, 1500)
    report = run_differential(rules, batch_size=batch, steps=steps, seed=29, agent=make_agent("heuristic"), explore=0.5)
    assert report.games_finished >= 1
