"""The web app behind ``handfoot serve``: a page (``static/``) and a small JSON API.

One table per browser session (a cookie), several sessions at once.  Every answer about a
game is ``views.position`` for that browser's seat: during play, only what that seat may
know.  A game played here without a seed deals from an unpredictable one (62 bits from
``secrets``); its record, which holds the seed, is given only once the game is over; the
agents and the Coach draw their randomness from a secret the server picks when it starts.
A watched game or a replay shows hidden cards only when asked (``reveal=1``).  Every
refusal — an illegal or stale move, an unknown table, a body that is not JSON, a number too
large — is a status code and ``{"error": "<one clear line>"}``, the game unchanged
(``inputs.py``).  Strangers cannot push a game out: tables are limited per client address
and in all, and a new one past a limit is refused (429, 503) rather than an old one dropped
(``sessions.py``); a record to replay is limited in size and in the time its replay takes.

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
import secrets
import threading
import typing
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
from handfoot_env.cards import MAX_SEED, check_seed
from handfoot_env.render.rules_doc import FIELD_DOCS
from handfoot_env.rules import KERNEL_CHOICES, PRESET_NAMES, Rules
from handfoot_lab.play import unpredictable_seed
from handfoot_lab.web.inputs import Refused, quoted, read_body, small_whole_number
from handfoot_lab.web.sessions import DEFAULT_LIMITS, Limits, Tables
from handfoot_lab.web.tables import PlayTable, ReplayTable, WatchTable

STATIC = Path(__file__).parent / "static"
COOKIE = "handfoot_session"
RECORD_BODY_LIMIT = 1024 * 1024  # bytes of a record to replay (a 30-deal house game needs about 100 KB)
REPLAYS_AT_ONCE = 2  # records being opened at one time; more wait their turn with a 503


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


def readable(name: str) -> str:
    """A rules field's name as a form's label: ``pile_take_count`` is "Pile take count",
    ``num_decks`` "Number of decks" (the field's name stays the one vocabulary; this only
    spells it out)."""
    words = ["number of" if word == "num" else word for word in name.split("_")]
    return " ".join(words).capitalize()


def page_settings() -> list[dict[str, Any]]:
    """Each setting of :func:`settable_fields` as a page draws its control: its name and label, what it is
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
            "label": readable(name),
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
    if not isinstance(preset, str) or preset not in PRESET_NAMES:
        raise Refused(f"unknown preset {quoted(preset)}: choose one of {', '.join(PRESET_NAMES)}")
    changes = data.get("rules")
    changes = {} if changes is None else changes
    if not isinstance(changes, dict):
        raise Refused(f"'rules' must be an object of settings, e.g. {{\"num_deals\": 1}}, got {quoted(changes)}")
    for name in changes:
        if name not in settable_fields():
            known = name in {field.name for field in dataclasses.fields(Rules)}
            what = "cannot be changed in 'rules'" if known else "is unknown"
            raise Refused(f"rules field {quoted(name)} {what}: GET /api/options lists the settings 'rules' may change")
    players = small_whole_number(data.get("players"), "'players'", most_digits=2)
    try:
        if players is not None:
            changes = {**changes, "num_players": players}
        return Rules.from_overrides(preset, changes)
    except (TypeError, ValueError, OverflowError) as exc:
        raise Refused(str(exc)) from None


def agent_name(data: dict[str, Any], key: str, default: str, offered: Sequence[str] = AGENT_NAMES) -> str:
    name = data.get(key, default)
    # Only the offered names: a page must not make the server load files (ppo:PATH) or code
    # (py:...) of its choosing; those the server was started with (serve --agent) are offered.
    if not isinstance(name, str) or name not in offered:
        raise Refused(f"'{key}' must be one of {', '.join(offered)}, got {quoted(name)}")
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
    if isinstance(seed, str) and seed.isascii() and seed.isdigit() and len(seed) <= 20:
        seed = int(seed)  # more digits than an int64 holds are refused below, never converted
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise Refused(f"'seed' must be a whole number from 0 to {MAX_SEED} (or its digits as text), got {quoted(seed)}")
    try:
        return check_seed(seed, "'seed'")
    except ValueError as exc:
        raise Refused(str(exc)) from None


def create_app(
    secret: int | None = None, agents: Sequence[str] = AGENT_NAMES, limits: Limits = DEFAULT_LIMITS
) -> Starlette:
    """The app; ``secret`` (drawn with ``secrets`` when not given: tests pin it) seeds the
    agents and the Coach's redeals, so that their moves say nothing of a game's seed;
    ``agents``: the names a page may choose from; ``limits``: how many tables it keeps."""
    tables = Tables(limits)
    offered = tuple(agents)
    secret = secrets.randbits(128) if secret is None else secret
    settings = page_settings()
    replays = threading.BoundedSemaphore(REPLAYS_AT_ONCE)

    async def opened(request: Request, build, *args) -> Response:
        """A new table for the request's browser: room for it first (or one line: 429, 503),
        then ``build(*args)`` in a worker thread; the answer carries the cookie of its new session."""
        client = request.client.host if request.client else "unknown"
        with tables.opening(client, replacing=request.cookies.get(COOKIE)) as seat:
            table = await run_in_threadpool(build, *args)
            session = seat(table)
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
        players = table.game.rules.num_players
        seat = small_whole_number(request.query_params.get("seat"), "'seat'", most_digits=2)
        if seat is not None and seat >= players:
            raise Refused(f"'seat' must be a seat from 0 to {players - 1}")
        return seat, request.query_params.get("reveal", "0") in ("1", "true", "yes")

    def state_of(table, request: Request) -> dict[str, Any]:
        if table.kind == "play":
            return table.state()  # a player sees its own seat, never hidden cards
        return table.state(*seat_and_reveal(request, table))

    def moved(table, request: Request, move, *args) -> dict[str, Any]:
        move(*args)
        return state_of(table, request)

    def open_record(record: Any) -> ReplayTable:
        """A replay of ``record``, at most ``REPLAYS_AT_ONCE`` being opened at one time."""
        if not replays.acquire(blocking=False):
            raise Refused("the server is busy opening other records: try again in a moment", 503)
        try:
            return ReplayTable(record)
        finally:
            replays.release()

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
        data = await read_body(request)
        rules = rules_from(data)
        opponents, partner, hint = (
            agent_name(data, key, "heuristic", offered) for key in ("opponents", "partner", "hint")
        )
        return await opened(request, PlayTable, rules, seed_from(data), opponents, partner, hint, secret)

    async def act(request: Request) -> Response:
        data = await read_body(request)
        table = table_of(request, "play", "this table is watching or replaying: start a game to play")
        return await under_lock(table, table.act, data.get("turn"), data.get("action"), data.get("command"))

    async def hint(request: Request) -> Response:
        table = table_of(request, "play", "hints are for a game you play")
        return await under_lock(table, table.hint)

    async def watch(request: Request) -> Response:
        data = await read_body(request)
        rules = rules_from(data)
        names = data.get("agents", ["heuristic", "greedy"])
        if not isinstance(names, list) or not 1 <= len(names) <= rules.num_players:
            raise Refused("'agents' must be a list of agent names, one per seat (cycled)")
        names = [agent_name({"a": n}, "a", "", offered) for n in names]
        return await opened(request, WatchTable, rules, seed_from(data), names, secret)

    async def advance(request: Request) -> Response:
        data = await read_body(request)
        table = table_of(request, "watch", "only a watched game advances on its own")
        return await under_lock(table, moved, table, request, table.advance, data.get("steps", 1))

    async def replay(request: Request) -> Response:
        data = await read_body(request, RECORD_BODY_LIMIT)
        return await opened(request, open_record, data.get("record", data))

    async def goto(request: Request) -> Response:
        data = await read_body(request)
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
        record = await run_in_threadpool(locked, table, table.record)
        return JSONResponse(record, headers={"Content-Disposition": 'attachment; filename="handfoot.json"'})

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
    handlers: dict[Any, Any] = {Refused: refused, AgentFault: faulted}  # Starlette types them loosely
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.state.tables = tables
    return app


def serve(
    host: str = "127.0.0.1", port: int = 8765, agents: Sequence[str] = AGENT_NAMES, limits: Limits = DEFAULT_LIMITS
) -> None:
    """Run the app with uvicorn until Ctrl-C; a port that cannot be had is one clear error;
    ``agents``: the names the page offers; ``limits``: how many tables it keeps."""
    import socket

    import uvicorn

    try:
        sock = socket.create_server((host, port))
    except OSError as exc:
        raise ValueError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    print(f"handfoot: serving on http://{host}:{sock.getsockname()[1]}/  (Ctrl-C stops)", flush=True)
    server = uvicorn.Server(uvicorn.Config(create_app(agents=agents, limits=limits), log_level="warning"))
    server.run(sockets=[sock])


__all__ = ["Limits", "create_app", "serve"]
