"""The rules configuration: presets, overrides and clear errors."""

from __future__ import annotations

import dataclasses

import pytest

from handfoot_env.cards import NUM_KINDS
from handfoot_env.cards import parse_kind as kind
from handfoot_env.rules import (
    KERNEL_CHOICES,
    KERNEL_NONE,
    KERNEL_TABLES,
    PRESET_NAMES,
    Rules,
    require_supported,
    rules_or_preset,
    unsupported_by_engines,
)


def test_presets_match_the_rules_table():
    classic = Rules.preset("classic")
    assert (classic.num_players, classic.num_decks, classic.hand_size, classic.foot_size) == (2, 3, 11, 11)
    assert classic.books_to_go_out[0] == (1, 1) and classic.pile_upcard and classic.pile_min_size == 7
    part = Rules.preset("partnership")
    assert (part.num_players, part.num_decks, part.partnerships) == (4, 5, True)
    assert part.books_to_go_out[0] == (2, 2) and not part.pile_upcard and part.pile_min_size == 0
    assert part.members_of(0) == (0, 2) and part.members_of(1) == (1, 3)
    house = Rules.preset("house")
    assert (house.hand_size, house.foot_size, house.num_decks, house.target_score) == (13, 13, 5, 20000)
    assert house.opening_minimum(0, -300) == 50 and house.opening_minimum(0, 5000) == 90
    assert house.opening_minimum(0, 14995) == 120 and house.opening_minimum(0, 15000) == 150
    assert Rules.preset("house", num_players=4).partnerships  # 4 players are two teams
    with pytest.raises(ValueError, match="2 players alone or 4 in two teams"):
        Rules.preset("house", num_players=3)
    with pytest.raises(ValueError, match="2 players alone or 4 in two teams"):
        Rules.preset("house", num_players=4, partnerships=False)


def test_classic_decks_follow_the_player_count():
    for n in range(2, 7):
        assert Rules.preset("classic", num_players=n).num_decks == n + 1
    assert Rules.preset("classic", num_players=4, num_decks=6).num_decks == 6


def test_rules_are_frozen_and_round_trip():
    rules = Rules.preset("partnership", hand_size=13, foot_size=13)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.hand_size = 5  # type: ignore[misc]
    assert Rules.from_dict(rules.to_dict()) == rules
    for name in PRESET_NAMES:
        assert Rules.from_dict(Rules.preset(name).to_dict()) == Rules.preset(name)


@pytest.mark.parametrize(
    "overrides,field",
    [
        ({"num_players": 7}, "num_players"),
        ({"num_players": 1}, "num_players"),
        ({"num_players": "two"}, "num_players"),
        ({"hand_size": 0}, "hand_size"),
        ({"wild_limit": "anything"}, "wild_limit"),
        ({"num_deals": 5}, "deal_minimums"),
        ({"pile_take_count": -1}, "pile_take_count"),
        ({"num_decks": 1, "num_players": 4}, "num_decks"),
        ({"go_out_by_meld": "yes"}, "go_out_by_meld"),
        ({"books_to_go_out": ((1, 1),)}, "books_to_go_out"),
        ({"frozen_six": True}, "frozen_six"),
        ({"minimums_by_score": ((5000, 50), (100, 90))}, "minimums_by_score"),
        ({"minimums_by_score": ((5000, "fifty"),)}, "minimums_by_score"),
        ({"draw_one_plus_discard": True, "staging_before_draw": True}, "staging_before_draw"),
    ],
)
def test_bad_values_name_the_field(overrides, field):
    with pytest.raises(ValueError, match=field):
        Rules.preset("classic", **overrides)


def test_partnerships_need_four_players():
    with pytest.raises(ValueError, match="num_players"):
        Rules.preset("partnership", num_players=3)


def test_unknown_preset_and_field():
    with pytest.raises(ValueError, match="unknown preset 'bridge'"):
        Rules.preset("bridge")
    with pytest.raises(ValueError, match="unknown rules field 'handsize'"):
        Rules.preset("classic", handsize=13)


def test_a_shell_plays_the_given_rules_else_the_preset_and_refuses_a_contradiction():
    three = Rules.preset("classic", num_players=3)
    assert rules_or_preset(None, "classic", 3) == three
    assert rules_or_preset(None, "house", None) == Rules.preset("house")
    assert rules_or_preset(three, "partnership", None) is three  # the given rules win over the preset
    assert rules_or_preset(three, "partnership", 3) is three
    with pytest.raises(ValueError, match="num_players=2 contradicts the given rules \\(3 players\\)"):
        rules_or_preset(three, "classic", 2)


def test_variations_are_configurable():
    rules = Rules.preset(
        "classic",
        hand_size=11,
        foot_size=13,
        pile_take_count=None,
        clean_book_bonus=300,
        dirty_book_bonus=100,
        red_three_unlaid_penalty=100,
        black_three_penalty=100,
        deal_minimums=(60, 90, 120, 150),
        books_to_go_out=((1, 1), (2, 1), (2, 2), (3, 2)),
        go_out_by_meld=False,
        num_deals=2,
        wild_limit="by_size",
    )
    assert rules.books_needed(3) == (3, 2) and rules.opening_minimum(0) == 60
    require_supported(rules)


def test_engines_play_every_preset_and_every_variation():
    from handfoot_lab.fuzz import VARIATION_CONFIGS

    for name in PRESET_NAMES:
        assert unsupported_by_engines(Rules.preset(name)) == []
    require_supported(Rules.preset("house", num_players=4, partnerships=True))
    for name, overrides in VARIATION_CONFIGS:  # wild books were refused before layout version 2
        require_supported(Rules.preset(name, **overrides))


@pytest.mark.parametrize(
    "preset,overrides",
    [(name, {}) for name in PRESET_NAMES] + [("classic", {"pile_take_count": None, "wild_limit": "four_naturals"})],
)
def test_the_kernels_read_every_rule_under_its_own_name(preset, overrides):
    # The compiled rule facts and kernels read ``rules.<field>``: one vocabulary, no renaming.
    rules = Rules.preset(preset, **overrides)
    record = rules.kernel[0]
    for field in dataclasses.fields(Rules):
        value = getattr(rules, field.name)
        kept = record[field.name]
        if field.name in KERNEL_TABLES:
            rows = [list(row) if isinstance(row, tuple) else row for row in (value or ())]
            assert kept[: len(rows)].tolist() == [
                [min(x, 2**62) for x in row] if isinstance(row, list) else row for row in rows
            ]
        elif value is None:
            assert int(kept) == KERNEL_NONE[field.name]
        elif isinstance(value, str):
            assert int(kept) == KERNEL_CHOICES[field.name].index(value)
        else:
            assert int(kept) == int(value), field.name
    assert (int(record["num_owners"]), int(record["total_cards"])) == (rules.num_owners, rules.total_cards)
    assert int(record["num_score_steps"]) == len(rules.minimums_by_score or ())


def test_held_cards_cost_their_values_and_the_threes_their_penalties():
    house = Rules.preset("house")  # a red three held costs 500, a black one 5
    hand = [0] * NUM_KINDS
    hand[kind("Jk")], hand[kind("2")], hand[kind("3b")], hand[kind("3r")], hand[kind("K")] = 1, 2, 3, 1, 2
    assert house.held_penalty(hand) == 50 + 2 * 20 + 3 * 5 + 500 + 2 * 10
    heavy_black = Rules.preset("classic", black_three_penalty=100)
    assert heavy_black.held_penalty(hand) == 50 + 2 * 20 + 3 * 100 + 0 + 2 * 10


def test_changes_from_names_the_settings_that_differ_with_these_rules_values():
    preset = Rules.preset("partnership")
    varied = Rules.preset("partnership", permission_to_go_out=True, num_deals=1)
    assert varied.changes_from(preset) == {"num_deals": 1, "permission_to_go_out": True}
    assert preset.changes_from(varied) == {"num_deals": preset.num_deals, "permission_to_go_out": False}
    assert preset.changes_from(Rules.preset("partnership")) == {}
