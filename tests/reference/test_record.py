"""Records replay exactly; truncated, corrupt or mismatched records get clear errors."""

from __future__ import annotations

import json
import time

import pytest
from helpers import fingerprint, play_random

from handfoot_env.errors import RecordError, ScenarioError
from handfoot_env.reference import Game
from handfoot_env.reference.record import load_record, replay, save_record, to_record
from handfoot_env.reference.scenario import load_scenario
from handfoot_env.rules import Rules


@pytest.fixture
def finished_game():
    return play_random(Game(Rules.preset("classic", num_players=3), seed=9), seed=9)


def test_record_replays_exactly(tmp_path, finished_game):
    path = tmp_path / "game.json"
    save_record(finished_game, path)
    record = load_record(path)
    assert set(record) >= {"format", "version", "rules", "seed", "actions"}
    again = replay(record)
    assert fingerprint(again) == fingerprint(finished_game)
    assert again.totals == finished_game.totals
    assert path.stat().st_size < 20_000  # small: rules, seed and action numbers


@pytest.mark.parametrize("players", [2, 4])
def test_house_record_replays_exactly(tmp_path, players):
    from agents import make_agent
    from handfoot_env.reference.observe import observe

    game = Game(Rules.preset("house", num_players=players, target_score=4000), seed=3)
    agent = make_agent("heuristic")
    while not game.is_over:
        game.step(int(agent.act(observe(game, game.current)[None], game.legal_mask()[None])[0]))
    path = tmp_path / "house.json"
    save_record(game, path)
    again = replay(load_record(path))
    assert fingerprint(again) == fingerprint(game) and again.totals == game.totals and max(game.totals) >= 4000


def test_partial_game_record_replays(finished_game):
    game = Game(Rules.preset("partnership"), 4)
    play_random_steps = 37
    import numpy as np

    rng = np.random.default_rng(1)
    for _ in range(play_random_steps):
        game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
    assert fingerprint(replay(to_record(game))) == fingerprint(game)


def test_truncated_file_is_reported(tmp_path, finished_game):
    path = tmp_path / "game.json"
    save_record(finished_game, path)
    path.write_text(path.read_text()[:50])
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record(path)


def test_truncated_actions_are_reported(finished_game):
    record = to_record(finished_game)
    record["actions"] = record["actions"][:-5]
    with pytest.raises(RecordError, match="(truncated|does not match)"):
        replay(record)


def test_mismatched_totals_are_reported(finished_game):
    record = to_record(finished_game)
    record["result"]["totals"] = [t + 1 for t in record["result"]["totals"]]
    with pytest.raises(RecordError, match="does not match"):
        replay(record)


def test_illegal_action_in_record_names_the_step(finished_game):
    record = to_record(finished_game)
    record["actions"][0] = 70  # a discard before drawing
    with pytest.raises(RecordError, match="record step 0: action 70"):
        replay(record)


@pytest.mark.parametrize(
    "mutate,message",
    [
        (lambda r: r.update(format="other"), "not a handfoot record"),
        (lambda r: r.update(version=99), "version 99"),
        (lambda r: r.pop("seed"), "missing field 'seed'"),
        (lambda r: r.update(seed=-3), "seed must be"),
        (lambda r: r.update(actions=[0, "x"]), "actions must be"),
        (lambda r: r.update(actions=[999]), "actions must be"),
        (lambda r: r["rules"].update(num_players=9), "bad rules"),
        (lambda r: r["rules"].update(colour="red"), "unknown rules field"),
    ],
)
def test_corrupt_records_are_reported(mutate, message, finished_game):
    record = json.loads(json.dumps(to_record(finished_game)))
    mutate(record)
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_missing_file(tmp_path):
    with pytest.raises(RecordError, match="cannot read record"):
        load_record(tmp_path / "nope.json")


def test_scenario_games_record_and_replay():
    text = """
    preset: classic
    seats: [{hand: K K K Q Q Q 5 9, foot: random 11}, {hand: random 11, foot: random 11}]
    """
    game = load_scenario(text)
    play_random(game, 3)
    again = replay(to_record(game, scenario=text))
    assert again.totals == game.totals


@pytest.mark.parametrize(
    "text,message",
    [
        ("preset: classic\nseats: []", "one entry per player"),
        ("preset: nope", "unknown preset"),
        ("colour: red", "unknown scenario keys"),
        ("seats: [{hand: K K X}, {hand: 4}]", "unknown card 'X'"),
        ("seats: [{hand: 2 2 2 2 2 2 2 2 2 2 2 2 2}, {hand: 4}]", "more 2 than the pack holds"),
        ("seats: [{hand: 4}, {hand: 4}]\ntables: [{groups: [K 2 2]}, {}]", "not legal"),
        ("seats: [{hand: 3r}, {hand: 4}]", "red threes are never held"),
        ("seats: [{hand: 4}, {hand: 4}]\ndeal: 9", "deal must be"),
        ("- just a list", "mapping"),
    ],
)
def test_bad_scenarios_get_clear_errors(text, message):
    with pytest.raises(ScenarioError, match=message):
        load_scenario(text)


def alias_bomb(levels: int) -> str:
    """A scenario of a few hundred bytes whose aliases name 10**levels cards in one setting
    (each list is named, then repeated ten times by the next)."""
    lists = ["&a0 [K, K, K, K, K, K, K, K, K, K]"]
    lists += [f"&a{level} [{', '.join([f'*a{level - 1}'] * 10)}]" for level in range(1, levels + 1)]
    return f"preset: classic\nrules: {{num_deals: [{', '.join(lists)}]}}"


def test_a_scenario_with_yaml_aliases_is_refused_at_once_in_a_line():
    """A record's scenario is data from anywhere: its aliases are refused before any value is
    built (a billion-laughs scenario had been expanded, and its value quoted in the error)."""
    record = to_record(Game(Rules.preset("classic"), seed=1), scenario=alias_bomb(6))
    start = time.perf_counter()
    with pytest.raises(RecordError) as refused:
        replay(record)
    assert time.perf_counter() - start < 1
    message = str(refused.value)
    assert "alias" in message and "\n" not in message and len(message) < 400
    with pytest.raises(ScenarioError, match="alias"):
        load_scenario("seats: &s [{hand: 4}, {hand: 4}]\ntables: *s")


def test_record_names_the_winners_and_says_when_a_game_is_a_tie(finished_game):
    result = to_record(finished_game)["result"]
    assert result["winners"] == finished_game.winners() and result["tie"] is False
    assert result["winning_seats"] == result["winners"]  # classic: each player is a side
    assert len(result["deal_ends"]) == 4 and set(result["deal_ends"]) <= {
        "going out",
        "stock exhausted",
        "no legal action",
    }
    tie = load_scenario(
        """
        preset: classic
        rules: {num_deals: 1}
        seats: [{hand: 5 5 9, foot: 4}, {hand: 9 5, foot: 4}]
        stock: 7
        """
    )
    from handfoot_env.actions import discard
    from handfoot_env.cards import parse_kind

    tie.step(discard(parse_kind("5")))
    result = to_record(tie)["result"]
    assert result["tie"] is True and result["winners"] == [0, 1] and result["deal_ends"] == ["stock exhausted"]
    team = play_random(Game(Rules.preset("partnership", num_deals=1), seed=2), seed=2)
    result = to_record(team)["result"]
    assert result["winning_seats"] == [s for w in result["winners"] for s in (w, w + 2)]


def test_a_record_whose_winners_do_not_match_is_refused(finished_game):
    record = to_record(finished_game)
    record["result"]["winners"] = [o for o in range(3) if o not in finished_game.winners()][:1]
    record["result"].pop("totals")
    with pytest.raises(RecordError, match="winners"):
        replay(record)
