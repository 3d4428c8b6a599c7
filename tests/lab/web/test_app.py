"""The web server: what it tells a player, how it refuses, and whole games through its API."""

from __future__ import annotations

import copy
import json
import random

import pytest
from starlette.testclient import TestClient

from handfoot_env.cards import CARD_KIND
from handfoot_env.rules import PRESET_NAMES
from handfoot_lab.web.app import create_app
from handfoot_lab.web.views import position


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def table_of(client: TestClient):
    """The server-side table of ``client``'s session (white-box, for the anti-cheat checks)."""
    tables = client.app.state.tables
    return tables.by_session[client.cookies.get("handfoot_session")]


def play_moves(client: TestClient, state: dict, moves: int, rng: random.Random) -> dict:
    for _ in range(moves):
        if state["over"]:
            break
        answer = client.post("/api/act", json={"turn": state["turn"], "action": rng.choice(state["legal"])["action"]})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return state


# ---------------------------------------------------------------------- anti-cheat
def swap_hidden_card(game) -> bool:
    """Swap one card between seat 1's hand and the stock (sizes kept): a position seat 0
    cannot tell apart from the first.  False when no such swap exists."""
    other, stock = game.seats[1], game.stock
    for i, card in enumerate(stock):
        stock_kind = int(CARD_KIND[card])
        for kind, count in enumerate(other.hand):
            if count and kind != stock_kind and kind >= 4 and stock_kind >= 4:  # naturals both
                replacement = next(c for c in range(len(CARD_KIND)) if int(CARD_KIND[c]) == kind)
                other.hand[kind] -= 1
                other.hand[stock_kind] += 1
                stock[i] = replacement
                return True
    return False


@pytest.mark.parametrize("preset", ["classic", "partnership"])
def test_a_player_sees_nothing_of_other_hands_or_the_stock(client, preset):
    state = client.post(
        "/api/play", json={"preset": preset, "seed": 5, "opponents": "random", "partner": "random"}
    ).json()
    state = play_moves(client, state, 30, random.Random(1))
    game = table_of(client).game
    changed = copy.deepcopy(game)
    assert swap_hidden_card(changed)
    assert position(changed, 0) == position(game, 0)  # what seat 0 is told does not depend on hidden cards
    assert not any(key in json.dumps(state) for key in ("hand_cards", "foot_cards"))
    # a player cannot ask for another seat's view or for the hidden cards
    peek = client.get("/api/table?seat=1&reveal=1").json()
    assert peek["seat"] == 0 and "hand_cards" not in json.dumps(peek)


def test_watching_and_replaying_may_reveal(client):
    client.post("/api/watch", json={"preset": "classic", "seed": 2, "agents": ["greedy"]})
    hidden = client.post("/api/advance?seat=1&reveal=0", json={"steps": 5}).json()
    shown = client.get("/api/table?seat=1&reveal=1").json()
    assert "hand_cards" not in hidden["seats"][0] and "hand_cards" in shown["seats"][0]
    assert hidden["seat"] == 1


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
    for raw in (b"{not json", b"[1, 2]", b"\xff\xfe"):
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
        ("/api/watch", {"agents": "heuristic"}, "agents"),
        ("/api/replay", {"format": "nonsense"}, "record"),
    ],
)
def test_bad_new_tables_are_refused(client, path, data, words):
    answer = client.post(path, json=data)
    assert answer.status_code == 400
    assert words in answer.json()["error"]


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
    assert record["result"]["over"] and len(record["actions"]) == state["turn"]

    replay = client.post("/api/replay", json=record).json()
    assert replay["step"] == 0 and replay["steps"] == state["turn"]
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
    assert options["presets"]["partnership"]["players"] == [4] and "heuristic" in options["agents"]


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
