"""The web table against bad input and strangers: every malformed request is one short line
and a 4xx (a property test feeds it generated bodies), records are data of bounded cost, and
no one can push a game in progress out."""

from __future__ import annotations

import json
import os
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from handfoot_env.reference import Game
from handfoot_env.reference.record import to_record
from handfoot_env.rules import Rules
from handfoot_lab.web.app import Limits, create_app
from handfoot_lab.web.inputs import MAX_ERROR
from handfoot_lab.web.tables import ReplayTable


def refused_in_a_line(answer, status: int | None = None) -> str:
    """The refusal's words, checked: ``status`` (else any 4xx), one JSON line, short."""
    if status is None:
        assert 400 <= answer.status_code < 500, (answer.status_code, answer.text[:300])
    else:
        assert answer.status_code == status, answer.text[:300]
    assert len(answer.content) < 1024
    error = answer.json()["error"]
    assert error and "\n" not in error and len(error) <= MAX_ERROR
    return error


def record_of(moves: int = 30) -> dict:
    """The record of ``moves`` random moves of a classic game."""
    game, rng = Game(Rules.preset("classic"), seed=2), random.Random(2)
    for _ in range(moves):
        game.step(rng.choice(game.legal_actions()))
    return to_record(game)


# ---------------------------------------------------------------------- numbers
def test_malformed_numbers_are_one_line_refusals():
    """Numbers too large for a float or for Python's int conversion, anywhere: each refused in
    a line (each had answered 500)."""
    client = TestClient(create_app(secret=1))
    huge = "9" * 5000
    cases = [
        ("/api/play", b'{"preset": "classic", "players": 1e400}', "too large"),
        ("/api/play", b'{"preset": "classic", "x": [' + huge.encode() + b"]}", "digits"),
        ("/api/play", b'{"preset": "classic", "seed": "' + huge.encode() + b'"}', "'seed'"),
        ("/api/play", b'{"preset": "classic", "players": "' + huge.encode() + b'"}', "'players'"),
        ("/api/play", b'{"preset": "classic", "seed": NaN}', "NaN"),
        ("/api/play", b'{"preset": "classic", "rules": {"num_deals": 1e308}}', "num_deals"),
        ("/api/replay", b'{"format": "handfoot-record", "seed": -Infinity}', "Infinity"),
    ]
    for path, raw, words in cases:
        assert words in refused_in_a_line(client.post(path, content=raw)), raw[:60]
    client.post("/api/watch", json={"preset": "classic", "seed": 1, "agents": ["greedy"]})
    for query in (huge, "²", "-1", "1.5", "9" * 20):
        assert "'seat'" in refused_in_a_line(client.get(f"/api/table?seat={query}"))


def test_an_error_quotes_no_more_than_a_line_of_the_input():
    client = TestClient(create_app(secret=1))
    state = client.post("/api/play", json={"preset": "classic", "seed": 3}).json()
    for command in ("x" * 100_000, "d " + "K" * 50_000, "m " + "K " * 30_000):
        refused_in_a_line(client.post("/api/act", json={"turn": state["turn"], "command": command}))
    refused_in_a_line(client.post("/api/play", json={"preset": "p" * 60_000}))
    refused_in_a_line(client.post("/api/play", json={"preset": "classic", "rules": {"wild_books": "y" * 60_000}}))
    refused_in_a_line(client.post("/api/act", content=b"{" + b" " * 70_000 + b"}"), 413)
    record = record_of()
    record["result"] = {"totals": ["x" * 100] * 5_000}
    refused_in_a_line(client.post("/api/replay", json=record))


# The fields the endpoints read, so that generated bodies reach past the first checks.
FIELDS = ["preset", "players", "rules", "opponents", "partner", "hint", "seed", "agents", "turn", "action"]
FIELDS += ["command", "steps", "step", "deal", "record", "format", "version", "actions", "scenario", "result"]
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | st.sampled_from(["classic", "partnership", "house", "heuristic", "greedy", "s", "d K", "m K K K", "7"])
    | st.sampled_from(["handfoot-record", 1, "num_deals", "permission_to_go_out", "preset: house"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), inner),
    max_leaves=12,
)
BODIES = st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=6)
RAW_NUMBERS = st.sampled_from([b"1e400", b"-1e999", b"NaN", b"Infinity", b"9" * 5000, b"1" * 30, b"-0", b"1E5"])
EXAMPLES = int(os.environ.get("HANDFOOT_WEB_EXAMPLES", "250"))  # 4,000 found no 500 either
ENDPOINTS = ["/api/play", "/api/watch", "/api/act", "/api/advance", "/api/replay", "/api/goto"]


@pytest.fixture(scope="module")
def fuzzed_client() -> TestClient:
    """One session at a game of every kind in turn: the property test's bodies go to tables
    that exist, so that they reach the moves, steps and records."""
    return TestClient(create_app(secret=3, limits=Limits(per_client=4)))


@settings(
    max_examples=int(__import__("os").environ.get("FUZZ_N", 250)),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    path=st.sampled_from(ENDPOINTS),
    body=BODIES,
    raw_number=RAW_NUMBERS,
    record=st.dictionaries(st.sampled_from(["rules", "seed", "actions", "scenario", "result"]), VALUES, max_size=3),
    shape=st.sampled_from(["json", "number", "record", "query"]),
)
def test_no_generated_request_gets_a_500(fuzzed_client, path, body, raw_number, record, shape):
    """Generated bodies (fields the endpoints read, with values of every JSON type), numbers
    JSON allows but Python cannot hold, records with generated parts, and generated queries:
    every answer is a 200 or a one-line 4xx, never a 500 (the client raises on a server error)."""
    client = fuzzed_client
    if shape == "json":
        answer = client.post(path, json=body)
    elif shape == "number":
        answer = client.post(path, content=b'{"turn": 0, "seed": ' + raw_number + b', "players": ' + raw_number + b"}")
    elif shape == "record":
        answer = client.post("/api/replay", json={**record_of(moves=5), **record})
    else:
        seat = json.dumps(body.get("seat", body.get("seed", "")))[:50]
        answer = client.get("/api/table", params={"seat": seat, "reveal": str(body.get("step"))})
    assert answer.status_code < 500, answer.text[:300]
    if answer.status_code >= 400:
        refused_in_a_line(answer)


# ---------------------------------------------------------------------- records
def test_an_alias_bomb_record_is_refused_at_once_in_a_short_answer():
    """A record's scenario in YAML with nested aliases (1.7 KB naming billions of cards): refused
    under a second, the answer under 1 KB."""
    lists = ["&a0 [K, K, K, K, K, K, K, K, K, K]"]
    lists += [f"&a{n} [{', '.join([f'*a{n - 1}'] * 10)}]" for n in range(1, 9)]
    bomb = {**record_of(), "scenario": f"preset: classic\nrules: {{num_deals: [{', '.join(lists)}]}}"}
    client = TestClient(create_app(secret=1))
    start = time.perf_counter()
    answer = client.post("/api/replay", json=bomb)
    assert time.perf_counter() - start < 1
    assert "alias" in refused_in_a_line(answer, 400)


def test_a_replay_costs_a_bounded_size_and_time(monkeypatch):
    client = TestClient(create_app(secret=1))
    record = record_of(moves=450)
    too_many = {**record, "actions": record["actions"] * 100}
    assert "moves, more than" in refused_in_a_line(client.post("/api/replay", json=too_many), 413)
    assert "KB" in refused_in_a_line(client.post("/api/replay", content=b" " * (1024 * 1024 + 1)), 413)
    long_scenario = {**record, "scenario": "preset: classic\n" + "#" * 30_000}
    assert "scenario" in refused_in_a_line(client.post("/api/replay", json=long_scenario), 413)
    monkeypatch.setattr(ReplayTable, "REPLAY_SECONDS", 0.0)  # every record takes too long
    assert "takes more than" in refused_in_a_line(client.post("/api/replay", json=record), 413)
    monkeypatch.undo()
    opened = client.post("/api/replay", json=record).json()
    table = client.app.state.tables.table_of(client.cookies.get("handfoot_session"))
    assert all(isinstance(snapshot, bytes) for snapshot in table.snapshots) and len(table.snapshots) == 3
    end = client.post("/api/goto", json={"step": opened["steps"]}).json()
    assert end["turn"] == 450


# ---------------------------------------------------------------------- strangers
def test_300_new_tables_from_another_client_leave_a_game_in_progress_playable():
    app = create_app(secret=2, limits=Limits(tables=64, per_client=8))
    me = TestClient(app, client=("192.0.2.1", 50000))
    state = me.post("/api/play", json={"preset": "classic", "seed": 4, "opponents": "greedy"}).json()
    stranger = TestClient(app, client=("198.51.100.7", 50000))
    statuses = []
    for _ in range(300):
        stranger.cookies.clear()  # a new browser each time: no table to replace
        statuses.append(stranger.post("/api/play", json={"preset": "classic"}).status_code)
    assert statuses.count(200) == 8 and statuses.count(429) == 292
    refused_in_a_line(stranger.post("/api/play", json={"preset": "classic"}), 429)
    assert me.get("/api/table").json()["turn"] == state["turn"]
    moved = me.post("/api/act", json={"turn": state["turn"], "action": state["legal"][0]["action"]})
    assert moved.status_code == 200 and moved.json()["turn"] > state["turn"]


def test_a_full_server_refuses_new_tables_and_keeps_every_game():
    app = create_app(secret=2, limits=Limits(tables=5, per_client=2))
    players = [TestClient(app, client=(f"203.0.113.{n}", 5000)) for n in range(5)]
    states = [p.post("/api/play", json={"preset": "classic", "seed": n}).json() for n, p in enumerate(players)]
    late = TestClient(app, client=("203.0.113.99", 5000))
    error = refused_in_a_line(late.post("/api/play", json={"preset": "classic"}), 503)
    assert "full" in error
    for player, state in zip(players, states):
        assert player.get("/api/table").json()["turn"] == state["turn"]
    # A browser's new table takes the place of its own old one, full or not.
    again = players[0].post("/api/play", json={"preset": "house", "seed": 9})
    assert again.status_code == 200 and len(app.state.tables) == 5


def test_idle_tables_close_and_make_room():
    app = create_app(secret=2, limits=Limits(tables=2, per_client=2, idle_minutes=30))
    tables = app.state.tables
    now = [1000.0]
    tables.clock = lambda: now[0]
    first, second = TestClient(app), TestClient(app)
    first.post("/api/play", json={"preset": "classic"})
    now[0] += 20 * 60
    second.post("/api/play", json={"preset": "classic"})
    refused_in_a_line(TestClient(app).post("/api/play", json={"preset": "classic"}), 429)
    now[0] += 15 * 60  # first: 35 minutes without a request; second: 15
    assert "minutes without a request" in refused_in_a_line(first.get("/api/table"), 404)
    assert second.get("/api/table").status_code == 200
    assert TestClient(app).post("/api/play", json={"preset": "classic"}).status_code == 200
