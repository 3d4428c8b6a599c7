"""The web server: what it tells a player, how it refuses, and whole games through its API."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import random

import numpy as np
import pytest
from helpers import HIDDEN_SWAPS, swap_hidden_cards
from starlette.testclient import TestClient

from handfoot_env import actions as A
from handfoot_env.render.rules_doc import FIELD_DOCS
from handfoot_env.rules import PRESET_NAMES, WILD_LIMITS, Rules
from handfoot_lab.web.app import Limits, create_app


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def table_of(client: TestClient):
    """The server-side table of ``client``'s session (white-box, for the anti-cheat checks)."""
    tables = client.app.state.tables
    return tables.table_of(client.cookies.get("handfoot_session"))


def play_moves(client: TestClient, state: dict, moves: int, rng: random.Random) -> dict:
    for _ in range(moves):
        if state["over"]:
            break
        answer = client.post("/api/act", json={"turn": state["turn"], "action": rng.choice(state["legal"])["action"]})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return state


# ---------------------------------------------------------------------- anti-cheat
LEAK_TABLES = [("classic", 2), ("classic", 3), ("partnership", 4), ("house", 2), ("house", 4)]
BIG_SEED = 3_141_592_653_589_793_238  # 62 bits: its digits would show in any answer that gave it away
# A player's questions; the last asks for another seat's view with the hidden cards shown,
# which a game being played answers as /api/table.
QUESTIONS = ("/api/table", "/api/hint", "/api/record", "/api/options", "/api/table?seat=1&reveal=1")
MELD_KINDS = {
    "start_group",
    "add_natural",
    "add_two",
    "add_joker",
    "start_run",
    "extend_run_down",
    "extend_run_up",
    "start_twos_book",
    "add_two_to_twos_book",
}
SWAPS_KEEPING_MY_FOOT = [swap for swap in HIDDEN_SWAPS if not swap.startswith("your foot")]


def answers(client: TestClient) -> list[tuple[str, int, bytes]]:
    """Every question a player may ask between moves, with the server's answer byte for byte."""
    return [(path, answer.status_code, answer.content) for path, answer in ((p, client.get(p)) for p in QUESTIONS)]


def in_sync(real: TestClient, twin: TestClient) -> None:
    """The twin client's table holds the real one's position again (a fresh copy)."""
    for part in ("game", "log", "talk", "moves_seen"):
        setattr(table_of(twin), part, copy.deepcopy(getattr(table_of(real), part)))


@pytest.mark.parametrize("preset,players", LEAK_TABLES)
def test_no_answer_during_play_depends_on_a_hidden_card(preset, players):
    """Two sessions play the same game (same seed, agents and server secret).  Before each of
    the person's moves the twin's hidden cards are swapped, each way of ``HIDDEN_SWAPS`` in
    turn (other hands and feet, the stock's top, the person's own foot), and every question
    (table, hint, record, options) gets the same answer, byte for byte.  A meld (nothing
    drawn, nobody else moves) is also played on a swapped twin and answered the same; those
    swapped positions are the ones the Coach weighs at the deal's end, whose answer (review
    included) must be the same too.  No answer holds the game's seed."""
    app = create_app(secret=11)
    real, twin = TestClient(app), TestClient(app)
    setup = {"preset": preset, "players": players, "seed": BIG_SEED, "hint": "heuristic"}
    first = real.post("/api/play", json=setup)
    assert first.content == twin.post("/api/play", json=setup).content
    state = first.json()
    rng = random.Random(players)
    swaps, meld_swaps = itertools.cycle(HIDDEN_SWAPS), itertools.cycle(SWAPS_KEEPING_MY_FOOT)
    questioned = weighed_on_swapped_cards = 0
    while not state["reviews"]:
        game = table_of(real).game
        expected = answers(real)
        assert expected[-1] == ("/api/table?seat=1&reveal=1", *expected[0][1:])
        for path, _, body in expected:
            assert str(BIG_SEED) not in body.decode(), f"{path} gives the game's seed away"
        for swap in (next(swaps), next(swaps)):
            swapped = copy.deepcopy(game)
            if swap_hidden_cards(swapped, 0, swap, rng):
                table_of(twin).game = swapped
                assert answers(twin) == expected, swap
                questioned += 1
        in_sync(real, twin)

        # The person's move: the hint's, or now and then another meld (one the Coach weighs).
        hint = real.get("/api/hint").json()["action"]
        melds = [move["action"] for move in state["legal"] if move["kind"] in MELD_KINDS]
        other_melds = [meld for meld in melds if meld != hint]
        action = rng.choice(other_melds) if other_melds and rng.random() < 0.6 else hint
        swapped = copy.deepcopy(game)
        on_swapped_cards = action in melds and swap_hidden_cards(swapped, 0, next(meld_swaps), rng)
        if on_swapped_cards:
            table_of(twin).game = swapped
            weighed_on_swapped_cards += action != hint
        request = {"turn": state["turn"], "action": action}
        mine, theirs = real.post("/api/act", json=request), twin.post("/api/act", json=request)
        assert mine.status_code == theirs.status_code == 200, mine.text
        state = mine.json()
        assert str(BIG_SEED) not in mine.text, "/api/act gives the game's seed away"
        if on_swapped_cards and state["score_sheet"]:  # went out by the meld: held cards scored
            assert state["reviews"] == theirs.json()["reviews"]
        else:
            assert mine.content == theirs.content, A.describe(action, game.rules)
        in_sync(real, twin)
    assert questioned >= 20 and weighed_on_swapped_cards >= 1
    assert state["reviews"][0]["notes"]


class Stager:
    """An opponent that draws, stages every group it can start (back to the hand at the discard
    if they fall short of the opening minimum) and discards its lowest card."""

    name = "stager"

    def act(self, observations, masks):
        legal = [int(a) for a in np.flatnonzero(masks[0])]
        starts = [a for a in legal if A.decode(a).kind == "start_group"]
        if A.DRAW in legal:
            return np.array([A.DRAW])
        return np.array([starts[0] if starts else next(a for a in legal if A.decode(a).kind == "discard")])


def test_an_opponents_staging_that_comes_to_nothing_leaves_no_trace():
    """Staged melds are set aside in the hand, not shown (docs/rules.md "Opening"): an
    opponent that stages K K K, short of the minimum, and takes them back shows the person
    exactly what one staging Q Q Q would; its opening, when it comes, shows what it laid down."""
    from handfoot_env.reference.scenario import build_scenario
    from handfoot_lab.web.tables import PlayTable

    seen = []
    for triple in ("K K K", "Q Q Q"):
        table = PlayTable(
            Rules.preset("classic"), seed=1, opponents="greedy", partner="greedy", hint="greedy", secret=3
        )
        table.game, _ = build_scenario(f"""
            preset: classic
            seats: [{{hand: 5 6 7 8, foot: random 11}}, {{hand: {triple} 4 4 5, foot: random 11}}]
            stock: 9 10 J 6 7 8 9 10 J 6 7 8
            """)
        table.agents[1] = Stager()
        seen.append(json.dumps(table.act(table.moves_seen, command="d 8")))
    assert seen[0] == seen[1]
    log = [entry["words"] for entry in json.loads(seen[0])["log"]]
    assert log == ["discard {8}", "draw two cards from the stock", "discard {4}"]
    assert [entry["move"] for entry in json.loads(seen[0])["log"]] == [1, 2, 3]

    table.game, _ = build_scenario("""
        preset: classic
        seats: [{hand: 5 6 7 8, foot: random 11}, {hand: K K K A A A 4 4 5, foot: random 11}]
        stock: 9 10 J 6 7 8 9 10 J 6 7 8
        """)
    log = [entry["words"] for entry in table.act(table.moves_seen, command="d 8")["log"][-3:]]
    assert log == ["draw two cards from the stock", "opens, laying down {K} {K} {K}, {A} {A} {A}", "discard {4}"]


def test_watching_and_replaying_show_hidden_cards_only_when_asked(client):
    watched = client.post("/api/watch", json={"preset": "classic", "seed": 2, "agents": ["greedy"]})
    hidden = client.post("/api/advance?seat=1", json={"steps": 5}).json()
    shown = client.get("/api/table?seat=1&reveal=1").json()
    for answer in (watched.json(), hidden, client.get("/api/table").json(), client.get("/api/table?seat=0").json()):
        assert not any("hand_cards" in seat or "foot_cards" in seat for seat in answer["seats"])
    assert all("hand_cards" in seat and "foot_cards" in seat for seat in shown["seats"])
    assert hidden["seat"] == 1 and shown["seat"] == 1
    # a watcher's view of a seat does not depend on the cards that seat cannot see
    game = table_of(client).game
    view = client.get("/api/table?seat=1").content
    table_of(client).game = copy.deepcopy(game)
    assert swap_hidden_cards(table_of(client).game, 1, "the stock's top and another hand", random.Random(0))
    assert client.get("/api/table?seat=1").content == view
    record = client.get("/api/record").json()  # a watcher sees every card: the record may be had at once

    opened = client.post("/api/replay", json=record).json()
    stepped = client.post("/api/goto?seat=0", json={"step": 3}).json()
    for answer in (opened, stepped, client.get("/api/table").json()):
        assert not any("hand_cards" in seat or "foot_cards" in seat for seat in answer["seats"])
    shown = client.get("/api/table?seat=0&reveal=1").json()
    assert all("hand_cards" in seat for seat in shown["seats"])


def test_a_record_of_a_game_in_play_waits_for_its_end(client):
    state = client.post("/api/play", json={"preset": "classic", "opponents": "greedy", "hint": "greedy"}).json()
    seed = table_of(client).game.seed
    answer = client.get("/api/record")
    assert answer.status_code == 409
    assert answer.json()["error"] == (
        "the record of a game in play becomes available when the game is over: its seed rebuilds every hidden card"
    )
    rng = random.Random(5)
    while not state["over"]:
        assert str(seed) not in json.dumps(state)
        state = play_moves(client, state, 1, rng)
    record = client.get("/api/record")
    assert record.status_code == 200 and record.json()["seed"] == seed
    end = client.post("/api/replay", content=record.content).json()  # a 62-bit seed replays
    assert client.post("/api/goto", json={"step": end["steps"]}).json()["score_sheet"] == state["score_sheet"]


def test_a_default_seed_is_unpredictable_and_a_typed_one_is_kept(monkeypatch):
    """A game without a seed deals from ``unpredictable_seed`` (62 random bits: tests/lab/test_play.py)."""
    import handfoot_lab.web.app

    drawn = iter([2**61 + 5, 2**61 + 6])
    monkeypatch.setattr(handfoot_lab.web.app, "unpredictable_seed", lambda: next(drawn))
    app = create_app(limits=Limits(per_client=64))
    seeds = []
    for _ in range(2):
        client = TestClient(app)
        client.post("/api/watch", json={"preset": "classic", "agents": ["greedy"]})
        seeds.append(table_of(client).game.seed)
    assert seeds == [2**61 + 5, 2**61 + 6]
    client = TestClient(app)
    client.post("/api/play", json={"preset": "classic", "seed": "9007199254740993"})  # digits past 2**53, as text
    assert table_of(client).game.seed == 9007199254740993


# ---------------------------------------------------------------------- refusals
def test_bad_requests_are_refused_in_words_and_change_nothing(client):
    state = client.post("/api/play", json={"preset": "classic", "seed": 7}).json()
    draw = next(m for m in state["legal"] if m["kind"] == "draw")
    illegal = 172 if all(m["action"] != 172 for m in state["legal"]) else 171
    cases = [
        ({"turn": state["turn"], "action": illegal}, 400),
        ({"turn": state["turn"] + 3, "action": draw["action"]}, 409),  # stale
        ({"turn": "x", "action": draw["action"]}, 400),
        ({"turn": state["turn"], "action": 10_000}, 400),
        ({"turn": state["turn"], "command": "m K K"}, 400),
        ({"turn": state["turn"], "command": "zz"}, 400),
        ({"turn": state["turn"]}, 400),
        ({"turn": state["turn"], "action": draw["action"], "command": "s"}, 400),
    ]
    for request, status in cases:
        answer = client.post("/api/act", json=request)
        assert answer.status_code == status, (request, answer.text)
        error = answer.json()["error"]
        assert error and "\n" not in error
        assert client.get("/api/table").json() == state
    for raw in (b"{not json", b"[1, 2]", b"\xff\xfe", b"[" * 60_000):
        answer = client.post("/api/act", content=raw)
        assert answer.status_code == 400 and "JSON" in answer.json()["error"]
    assert client.get("/api/table").json() == state


@pytest.mark.parametrize(
    "path, data, words",
    [
        ("/api/play", {"preset": "poker"}, "unknown preset"),
        ("/api/play", {"preset": "partnership", "players": 3}, "players"),
        ("/api/play", {"opponents": "ppo:/etc/passwd"}, "opponents"),
        ("/api/play", {"seed": -1}, "seed"),
        ("/api/play", {"seed": 2**63}, "seed"),
        ("/api/play", {"seed": "12ab"}, "seed"),
        ("/api/watch", {"agents": "heuristic"}, "agents"),
        ("/api/replay", {"format": "nonsense"}, "record"),
        # rules settings: each refusal names the field, in the words of Rules where it is one
        ("/api/play", {"rules": {"wild_bookz": True}}, "'wild_bookz' is unknown"),
        ("/api/watch", {"rules": {"deal_minimums": [50]}}, "'deal_minimums' cannot be changed in 'rules'"),
        ("/api/play", {"rules": {"num_players": 6}}, "'num_players' cannot be changed in 'rules'"),
        ("/api/play", {"rules": {"wild_books": "yes"}}, "'wild_books': must be true or false"),
        ("/api/play", {"rules": {"num_deals": 3}}, "'num_deals'"),
        ("/api/play", {"rules": {"pile_take_count": 7.5}}, "'pile_take_count'"),
        ("/api/play", {"rules": {"wild_limit": "some"}}, "'wild_limit': must be one of"),
        ("/api/watch", {"preset": "classic", "rules": {"permission_to_go_out": True}}, "'permission_to_go_out'"),
        ("/api/play", {"rules": ["wild_books"]}, "'rules' must be an object"),
        ("/api/play", {"rules": False}, "'rules' must be an object"),
    ],
)
def test_bad_new_tables_are_refused(client, path, data, words):
    answer = client.post(path, json=data)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert words in error and "\n" not in error


def test_requests_without_a_game_or_for_the_wrong_table(client):
    assert client.post("/api/act", json={"turn": 0, "action": 0}).status_code == 404
    assert client.get("/api/table").status_code == 404
    client.post("/api/watch", json={"preset": "classic", "seed": 1})
    assert client.post("/api/act", json={"turn": 0, "action": 0}).status_code == 409
    assert client.get("/api/hint").status_code == 409
    assert client.post("/api/goto", json={"step": 1}).status_code == 409
    assert client.post("/api/advance", json={"steps": 0}).status_code == 400


def test_sessions_are_separate():
    app = create_app()
    first, second = TestClient(app), TestClient(app)
    a = first.post("/api/play", json={"preset": "classic", "seed": 1}).json()
    b = second.post("/api/play", json={"preset": "house", "seed": 2}).json()
    a = play_moves(first, a, 10, random.Random(0))
    assert second.get("/api/table").json() == b
    assert first.get("/api/table").json() == a


# ---------------------------------------------------------------------- whole games
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_whole_game_through_the_api_then_its_replay(client, preset):
    rng = random.Random(3)
    state = client.post(
        "/api/play", json={"preset": preset, "seed": 11, "opponents": "greedy", "partner": "greedy", "hint": "greedy"}
    ).json()
    hints = 0
    while not state["over"]:
        if hints < 3 and rng.random() < 0.2:
            hint = client.get("/api/hint").json()
            assert hint["action"] in [m["action"] for m in state["legal"]] and hint["why"]
            hints += 1
        state = play_moves(client, state, 1, rng)
    assert len(state["score_sheet"]) == len(state["reviews"]) >= 1
    assert all({"move", "instead", "cost"} <= set(note) for r in state["reviews"] for note in r["notes"])
    assert state["winners"]
    record = client.get("/api/record").json()
    assert record["result"]["over"] and len(record["actions"]) >= state["turn"]  # the moves seen, and staging

    replay = client.post("/api/replay", json=record).json()
    assert replay["step"] == 0 and replay["steps"] == len(record["actions"])
    end = client.post("/api/goto", json={"step": replay["steps"]}).json()
    assert end["over"] and end["score_sheet"] == state["score_sheet"]
    if len(replay["deal_starts"]) > 1:
        second = client.post("/api/goto", json={"deal": 2}).json()
        assert second["deal"] == 2 and second["step"] == replay["deal_starts"][1]
    back = client.post("/api/goto", json={"step": 1}).json()
    assert back["step"] == 1 and back["turn"] == 1
    assert client.post("/api/goto", json={"step": replay["steps"] + 1}).status_code == 400


def test_a_record_from_handfoot_game_replays(client, tmp_path):
    from handfoot_lab.cli import main

    path = tmp_path / "game.json"
    assert main(["game", "--preset", "classic", "--seed", "4", "--record", str(path)]) == 0
    state = client.post("/api/replay", content=path.read_bytes()).json()
    assert state["kind"] == "replay" and state["steps"] > 0
    done = client.post("/api/goto", json={"step": state["steps"]}).json()
    assert done["over"]


def test_records_from_an_evaluation_replay(client, tmp_path):
    from handfoot_env.reference.record import load_record, replay
    from handfoot_lab.cli import main

    assert (
        main(
            [
                "eval",
                "--preset",
                "partnership",
                "--team",
                "heuristic",
                "--vs",
                "greedy",
                "--pairs",
                "2",
                "--records",
                str(tmp_path),
                "--no-progress",
            ]
        )
        == 0
    )
    paths = sorted(tmp_path.glob("*.json"))
    assert len(paths) == 4  # two duplicate sets, each played with the team on both sides
    for path in paths:
        assert replay(load_record(path)).is_over  # every action legal, the stored result reproduced
    state = client.post("/api/replay", content=paths[0].read_bytes()).json()
    assert client.post("/api/goto", json={"step": state["steps"]}).json()["over"]


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="hand"' in page.text
    assert client.get("/static/app.js").status_code == 200
    options = client.get("/api/options").json()
    assert options["presets"]["partnership"]["players"] == [4, 6] and "heuristic" in options["agents"]


def test_the_options_list_the_rules_settings_a_page_may_change(client):
    """Every field of Rules one control can edit, with its words from docs/rules.md's table and
    its default in each preset at each player count; not the preset, the player count (the
    form chooses those) or the per-deal tables."""
    options = client.get("/api/options").json()
    settings = options["settings"]
    by_form = {"preset_name", "num_players", "partnerships"}
    tables = {"deal_minimums", "minimums_by_score", "books_to_go_out"}
    offered = [f.name for f in dataclasses.fields(Rules) if f.name not in by_form | tables]
    assert [s["name"] for s in settings] == offered
    for setting in settings:
        name = setting["name"]
        assert (setting["values"], setting["about"]) == FIELD_DOCS[name]
        for preset in PRESET_NAMES:
            assert setting["defaults"][preset] == {
                str(players): getattr(Rules.preset(preset, num_players=players), name)
                for players in options["presets"][preset]["players"]
            }
    kinds = {s["name"]: (s["control"], s["nullable"], s.get("choices")) for s in settings}
    assert kinds["permission_to_go_out"] == ("bool", False, None)
    assert kinds["wild_limit"] == ("choice", False, list(WILD_LIMITS))
    assert kinds["num_deals"] == ("int", False, None)
    assert kinds["pile_take_count"] == ("int", True, None)  # null: the whole pile


def test_a_game_is_played_under_the_rules_a_page_sends(client):
    """Wild books: after the first draw, seed 0 gives the person three wilds, and starting a
    wild book is among the legal moves only when the page asked for the variation."""

    def kinds_after_the_draw(request: dict) -> tuple[set[str], dict]:
        state = client.post("/api/play", json=request).json()
        state = client.post("/api/act", json={"turn": state["turn"], "command": "s"}).json()
        return {move["kind"] for move in state["legal"]}, state

    plain, state = kinds_after_the_draw({"preset": "classic", "seed": 0})
    assert "start_wild_book" not in plain and state["changed_rules"] == {}
    varied, state = kinds_after_the_draw({"preset": "classic", "seed": 0, "rules": {"wild_books": True}})
    assert "start_wild_book" in varied and state["changed_rules"] == {"wild_books": True}
    assert table_of(client).game.rules == Rules.preset("classic", wild_books=True)

    rules = {"permission_to_go_out": True, "num_deals": 1}
    watched = client.post("/api/watch", json={"preset": "partnership", "players": 6, "seed": 1, "rules": rules})
    assert watched.status_code == 200, watched.text
    assert watched.json()["changed_rules"] == rules and watched.json()["deals"] == 1
    assert table_of(client).game.rules == Rules.preset("partnership", num_players=6, **rules)


def test_handfoot_serve_prints_its_address_and_serves(tmp_path):
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "handfoot_lab.cli", "serve", "--port", str(port)], stdout=subprocess.PIPE, text=True
    )
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/options") as answer:
                    assert "partnership" in answer.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server never answered")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_person_answers_the_partners_question_at_the_web_table():
    """Permission to go out: the heuristic partner asks, the page offers the person yes and no,
    and after the answer the partner plays on (docs/rules.md "Variations")."""
    from handfoot_env.reference.scenario import build_scenario
    from handfoot_lab.web.tables import PlayTable

    rules = Rules.preset("partnership", permission_to_go_out=True, num_deals=1)
    table = PlayTable(rules, seed=1, opponents="heuristic", partner="heuristic", hint="heuristic", secret=7)
    table.game, _ = build_scenario(
        """
        preset: partnership
        rules: {num_deals: 1, permission_to_go_out: true}
        to_move: 2
        seats:
          - {hand: 4 5 6, foot: random 11}
          - {hand: 4 4, foot: 5}
          - {hand: K K K, on_foot: true}
          - {hand: 8 8, foot: 5}
        tables:
          - {opened: true, groups: [Q Q Q Q Q Q Q, A A A A A A A, J J J J J 2 2, 10 10 10 10 10 Jk 2]}
          - {}
        """
    )
    table._agents_play()  # seat 2 may go out but for the permission: it asks
    state = table.state()
    assert (state["current"], state["to_act"], state["question"]) == (2, 0, "asked")
    assert [move["action"] for move in state["legal"]] == [A.ANSWER_YES, A.ANSWER_NO]
    state = table.act(state["turn"], action=A.ANSWER_NO)
    assert table.game.deal_results == [] and state["to_act"] == 0 and state["current"] == 0  # seat 2 discarded


def asking_table(books: str, phase: str):
    """Partnership with permission to go out: the person (seat 0) on the foot holding K K K 8,
    its side's table ``books``."""
    from handfoot_env.reference.scenario import build_scenario
    from handfoot_lab.web.tables import PlayTable

    rules = Rules.preset("partnership", permission_to_go_out=True, num_deals=1)
    table = PlayTable(rules, seed=1, opponents="heuristic", partner="heuristic", hint="heuristic", secret=7)
    table.game, _ = build_scenario(f"""
        preset: partnership
        rules: {{num_deals: 1, permission_to_go_out: true}}
        phase: {phase}
        seats:
          - {{hand: K K K 8, on_foot: true}}
          - {{hand: 4 4 5 6 7, foot: random 11}}
          - {{hand: 9 9 10 J, on_foot: true}}
          - {{hand: 8 8 6 7 9, foot: random 11}}
        tables:
          - {{opened: true, groups: [{books}]}}
          - {{}}
        """)
    return table


def test_hint_and_coach_treat_asking_as_a_decision():
    """Once its side has the books, the hint agent asks "may I go out?" (Hint says so, with why),
    and the person's ask counts as that decision whenever in the turn it comes (here before the
    draw, where the hint agent would draw first); without the books an ask is a change the
    Coach weighs (docs/rules.md "Variations": asking stays legal from the draw on)."""
    ready = "Q Q Q Q Q Q Q, A A A A A A A, J J J J J 2 2, 10 10 10 10 10 Jk 2"
    table = asking_table(ready, "play")
    hint = table.hint()
    assert hint["kind"] == "ask_to_go_out" and hint["words"] == "ask partner: may I go out?"
    assert "your side has what it needs to go out" in hint["why"]

    for books, counted in ((ready, 0), ("Q Q Q Q Q Q Q, A A A", 1)):
        table = asking_table(books, "draw")
        assert table.hint()["kind"] == "draw"
        state = table.act(table.moves_seen, command="ask")
        assert table._moves_this_deal == 1 and table._changed_this_deal == counted, books
        mine = state["sides"][0]["still_needed"]
        assert mine == ([] if counted == 0 else ["1 clean book", "2 dirty books"])
