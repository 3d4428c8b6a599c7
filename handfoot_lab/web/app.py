"""The web app behind ``handfoot serve``: a page (``static/``) and a small JSON API.

One table per browser session (a cookie), several sessions at once.  Every answer about a
game is ``views.position`` for that browser's seat: during play, only what that seat may
know.  A game played here without a seed deals from an unpredictable one (62 bits from
``secrets``); its record, which holds the seed, is given only once the game is over; the
agents and the Coach draw their randomness from a secret the server picks when it starts.
A watched game or a replay shows hidden cards only when asked (``reveal=1``).  Every
refusal — an illegal or stale move, an unknown table, a body that is not JSON — is a
status code and ``{"error": "<one clear line>"}``, the game unchanged.

    POST /api/play    {preset, players, rules, opponents, partner, hint, seed}    a new game against agents
    POST /api/act     {turn, action | command}                                    your move, then theirs
    GET  /api/hint                                                                the hint agent's move, and why
    POST /api/watch   {preset, players, rules, agents, seed}                      agents only
    POST /api/advance {steps}                                                     the watched game moves on
    POST /api/replay  <a record>                                                  open a record
    POST /api/goto    {step} | {deal}                                             move through the replay
    GET  /api/table   ?seat=N&reveal=1                                            the browser's table
    GET  /api/record                                                              the game as a record (JSON):
                                                                                  a game you play, once it is over
    GET  /api/options                                                             presets, player counts, agents and
                                                                                  the rules settings a page may change

``rules`` is ``{setting: value}``, changes to the preset's rules (``{"permission_to_go_out":
true, "num_deals": 1}``), checked by ``Rules`` itself; the settings are those of ``/api/options``.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import secrets
import threading
import typing
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from agents import AGENT_NAMES, AgentFault
from handfoot_env.cards import check_seed
from handfoot_env.render.rules_doc import FIELD_DOCS
from handfoot_env.rules import KERNEL_CHOICES, PRESET_NAMES, Rules
from handfoot_lab.play import unpredictable_seed
from handfoot_lab.web.tables import PlayTable, Refused, ReplayTable, WatchTable

STATIC = Path(__file__).parent / "static"
COOKIE = "handfoot_session"
MAX_TABLES = 256  # the oldest sessions' tables go first


class Tables:
    """The tables of the sessions, the least recently used dropped beyond ``MAX_TABLES``."""

    def __init__(self):
        self.by_session: OrderedDict[str, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, session: str | None):
        with self.lock:
            table = self.by_session.get(session) if session else None
            if table is None:
                raise Refused("no game for this browser session: start one (it may have ended with the server)", 404)
            self.by_session.move_to_end(session)
            return table

    def put(self, session: str, table) -> None:
        with self.lock:
            self.by_session[session] = table
            self.by_session.move_to_end(session)
            while len(self.by_session) > MAX_TABLES:
                self.by_session.popitem(last=False)


async def body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    try:
        data = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise Refused("the request body is not valid JSON (or nests too deeply)") from None
    if not isinstance(data, dict):
        raise Refused("the request body must be a JSON object")
    return data


# The rules settings a page may change: the fields of Rules that one control can edit, known by
# their type hints (a per-deal table, a tuple, has no one control), less those the form's Preset
# and Players choose (partnerships follow the player count).
CONTROLS: dict[Any, tuple[str, bool]] = {  # type hint: (control, whether empty means None)
    bool: ("bool", False),
    str: ("choice", False),  # its choices: rules.KERNEL_CHOICES
    int: ("int", False),
    int | None: ("int", True),
}
SET_BY_THE_FORM = ("preset_name", "num_players", "partnerships")


@functools.cache
def settable_fields() -> tuple[str, ...]:
    """The names of the Rules fields a page may set in ``rules``, in the order of Rules."""
    hints = typing.get_type_hints(Rules)
    return tuple(
        field.name
        for field in dataclasses.fields(Rules)
        if hints[field.name] in CONTROLS and field.name not in SET_BY_THE_FORM
    )


def page_settings() -> list[dict[str, Any]]:
    """Each setting of :func:`settable_fields` as a page draws its control: its name, what it is
    and its values (the "Variations" table of docs/rules.md, ``rules_doc.FIELD_DOCS``), its
    control, and its default in each preset at each player count (``defaults[preset]["4"]``:
    ``num_decks`` follows the player count)."""
    hints = typing.get_type_hints(Rules)
    tables = {name: {str(n): Rules.preset(name, num_players=n) for n in player_counts(name)} for name in PRESET_NAMES}
    settings = []
    for name in settable_fields():
        values, about = FIELD_DOCS[name]
        control, nullable = CONTROLS[hints[name]]
        setting = {
            "name": name,
            "about": about,
            "values": values,
            "control": control,
            "nullable": nullable,
            "defaults": {
                preset: {players: getattr(rules, name) for players, rules in sizes.items()}
                for preset, sizes in tables.items()
            },
        }
        if control == "choice":
            setting["choices"] = list(KERNEL_CHOICES[name])
        settings.append(setting)
    return settings


def rules_from(data: dict[str, Any]) -> Rules:
    """The rules of a new table: ``preset`` at ``players``, changed by ``rules``; a bad setting is
    refused in the words of ``Rules``, which names the field."""
    preset = data.get("preset", "partnership")
    if preset not in PRESET_NAMES:
        raise Refused(f"unknown preset {preset!r}: choose one of {', '.join(PRESET_NAMES)}")
    changes = data.get("rules")
    changes = {} if changes is None else changes
    if not isinstance(changes, dict):
        raise Refused(f"'rules' must be an object of settings, e.g. {{\"num_deals\": 1}}, got {changes!r}")
    for name in changes:
        if name not in settable_fields():
            known = name in {field.name for field in dataclasses.fields(Rules)}
            what = "cannot be changed in 'rules'" if known else "is unknown"
            raise Refused(f"rules field {name!r} {what}: GET /api/options lists the settings 'rules' may change")
    players = data.get("players")
    try:
        if players not in (None, ""):
            changes = {**changes, "num_players": int(players)}
        return Rules.from_overrides(preset, changes)
    except (TypeError, ValueError) as exc:
        raise Refused(str(exc)) from None


def agent_name(data: dict[str, Any], key: str, default: str, offered: Sequence[str] = AGENT_NAMES) -> str:
    name = data.get(key, default)
    # Only the offered names: a page must not make the server load files (ppo:PATH) or code
    # (py:...) of its choosing; those the server was started with (serve --agent) are offered.
    if not isinstance(name, str) or name not in offered:
        raise Refused(f"'{key}' must be one of {', '.join(offered)}, got {name!r}")
    return name


def locked(table, work, *args):
    """``work(*args)`` holding the table's lock: one request at a time changes a table."""
    with table.lock:
        return work(*args)


def player_counts(preset: str) -> tuple[int, ...]:
    """The player counts ``preset`` can be played with (the rules module decides)."""
    counts = []
    for players in range(2, 9):
        try:
            Rules.preset(preset, num_players=players)
        except ValueError:
            continue
        counts.append(players)
    return tuple(counts)


def seed_from(data: dict[str, Any]) -> int:
    """The seed a person typed (a whole number, or its digits as text: a page's numbers lose
    digits beyond 2**53), or an unpredictable one."""
    seed = data.get("seed")
    if seed is None or seed == "":
        return unpredictable_seed()
    if isinstance(seed, str) and seed.isascii() and seed.isdigit():
        seed = int(seed)
    try:
        return check_seed(seed, "'seed'")
    except ValueError as exc:
        raise Refused(str(exc)) from None


def create_app(secret: int | None = None, agents: Sequence[str] = AGENT_NAMES) -> Starlette:
    """The app; ``secret`` (drawn with ``secrets`` when not given: tests pin it) seeds the
    agents and the Coach's redeals, so that their moves say nothing of a game's seed;
    ``agents``: the names a page may choose from."""
    tables = Tables()
    offered = tuple(agents)
    secret = secrets.randbits(128) if secret is None else secret
    settings = page_settings()

    def opened(table) -> Response:
        """The first answer of a new table, with the cookie of its new session."""
        session = secrets.token_urlsafe(16)
        tables.put(session, table)
        response = JSONResponse(table.state())
        response.set_cookie(COOKIE, session, httponly=True, samesite="strict")
        return response

    def table_of(request: Request, kind: str | None = None, refusal: str = ""):
        """The requesting browser's table; ``refusal`` (409) when it is not of ``kind``."""
        table = tables.get(request.cookies.get(COOKIE))
        if kind is not None and table.kind != kind:
            raise Refused(refusal, 409)
        return table

    async def under_lock(table, work, *args) -> Response:
        """``work(*args)`` in a worker thread holding the table's lock (games, agents and the
        Coach's play-outs never hold up another browser's requests), answered as JSON."""
        return JSONResponse(await run_in_threadpool(locked, table, work, *args))

    def seat_and_reveal(request: Request, table) -> tuple[int | None, bool]:
        seat, reveal = request.query_params.get("seat"), request.query_params.get("reveal", "0")
        if seat not in (None, ""):
            if not seat.isdigit() or not 0 <= int(seat) < table.game.rules.num_players:
                raise Refused(f"'seat' must be a seat from 0 to {table.game.rules.num_players - 1}")
            seat = int(seat)
        else:
            seat = None
        return seat, reveal in ("1", "true", "yes")

    def state_of(table, request: Request) -> dict[str, Any]:
        if table.kind == "play":
            return table.state()  # a player sees its own seat, never hidden cards
        return table.state(*seat_and_reveal(request, table))

    def moved(table, request: Request, move, *args) -> dict[str, Any]:
        move(*args)
        return state_of(table, request)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def options(request: Request) -> Response:
        return JSONResponse(
            {
                "agents": list(offered),
                "presets": {
                    name: {"players": list(player_counts(name)), "default": Rules.preset(name).num_players}
                    for name in PRESET_NAMES
                },
                "settings": settings,
            }
        )

    async def play(request: Request) -> Response:
        data = await body(request)
        rules = rules_from(data)
        partner = agent_name(data, "partner", "heuristic", offered)
        return opened(
            await run_in_threadpool(
                PlayTable,
                rules,
                seed_from(data),
                agent_name(data, "opponents", "heuristic", offered),
                partner,
                agent_name(data, "hint", "heuristic", offered),
                secret,
            )
        )

    async def act(request: Request) -> Response:
        data = await body(request)
        table = table_of(request, "play", "this table is watching or replaying: start a game to play")
        return await under_lock(table, table.act, data.get("turn"), data.get("action"), data.get("command"))

    async def hint(request: Request) -> Response:
        table = table_of(request, "play", "hints are for a game you play")
        return await under_lock(table, table.hint)

    async def watch(request: Request) -> Response:
        data = await body(request)
        rules = rules_from(data)
        names = data.get("agents", ["heuristic", "greedy"])
        if not isinstance(names, list) or not names:
            raise Refused("'agents' must be a list of agent names, one per seat (cycled)")
        return opened(
            await run_in_threadpool(
                WatchTable, rules, seed_from(data), [agent_name({"a": n}, "a", "", offered) for n in names], secret
            )
        )

    async def advance(request: Request) -> Response:
        data = await body(request)
        table = table_of(request, "watch", "only a watched game advances on its own")
        return await under_lock(table, moved, table, request, table.advance, data.get("steps", 1))

    async def replay(request: Request) -> Response:
        data = await body(request)
        return opened(await run_in_threadpool(ReplayTable, data.get("record", data)))

    async def goto(request: Request) -> Response:
        data = await body(request)
        table = table_of(request, "replay", "only a replay moves to a step")
        return await under_lock(table, moved, table, request, table.goto, data.get("step"), data.get("deal"))

    async def table_state(request: Request) -> Response:
        table = table_of(request)
        return await under_lock(table, state_of, table, request)

    async def record(request: Request) -> Response:
        table = table_of(request)
        if table.kind == "replay":
            raise Refused("a replay is a record already", 409)
        # A game being played answers only once it is over (PlayTable.record); a watcher sees
        # every card anyway.
        with table.lock:
            return JSONResponse(table.record(), headers={"Content-Disposition": 'attachment; filename="handfoot.json"'})

    async def refused(request: Request, exc: Refused) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    async def faulted(request: Request, exc: AgentFault) -> Response:  # a py: agent broke the protocol
        return JSONResponse({"error": str(exc)}, status_code=500)

    routes = [
        Route("/", index),
        Route("/api/options", options),
        Route("/api/play", play, methods=["POST"]),
        Route("/api/act", act, methods=["POST"]),
        Route("/api/hint", hint),
        Route("/api/watch", watch, methods=["POST"]),
        Route("/api/advance", advance, methods=["POST"]),
        Route("/api/replay", replay, methods=["POST"]),
        Route("/api/goto", goto, methods=["POST"]),
        Route("/api/table", table_state),
        Route("/api/record", record),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={Refused: refused, AgentFault: faulted})
    app.state.tables = tables
    return app


def serve(host: str = "127.0.0.1", port: int = 8765, agents: Sequence[str] = AGENT_NAMES) -> None:
    """Run the app with uvicorn until Ctrl-C; a port that cannot be had is one clear error;
    ``agents``: the names the page offers."""
    import socket

    import uvicorn

    try:
        sock = socket.create_server((host, port))
    except OSError as exc:
        raise ValueError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    print(f"handfoot: serving on http://{host}:{sock.getsockname()[1]}/  (Ctrl-C stops)", flush=True)
    server = uvicorn.Server(uvicorn.Config(create_app(agents=agents), log_level="warning"))
    server.run(sockets=[sock])


__all__ = ["create_app", "serve"]
