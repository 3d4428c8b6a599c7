"""``handfoot serve``: the web table (play, watch agents, replay records in a browser)."""

from __future__ import annotations

import argparse
import warnings

from handfoot_lab.web.sessions import DEFAULT_LIMITS as DEFAULTS
from handfoot_lab.web.sessions import Limits


def add_parser(sub) -> None:
    p = sub.add_parser(
        "serve",
        help="play, watch agents and replay records in the browser",
        description="A local web app: play any preset against the agents (with Hint, the Coach and "
        "the score sheet), watch agents play each other, step through a record. "
        "Open the printed address in a browser; Ctrl-C stops it.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port to listen on")
    p.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="NAME",
        help="offer this agent on the page too (repeatable): py:FILE_OR_MODULE:FACTORY, ppo:PATH or "
        "tuned:PATH; the page itself can name only these and the built-in agents",
    )
    tables = p.add_argument_group("tables", "how many games the server keeps; past a limit a new table is refused")
    tables.add_argument(
        "--tables", type=int, default=DEFAULTS.tables, help=f"tables in all (default {DEFAULTS.tables})"
    )
    tables.add_argument(
        "--tables-per-client",
        type=int,
        default=DEFAULTS.per_client,
        help=f"tables one client address may hold (default {DEFAULTS.per_client})",
    )
    tables.add_argument(
        "--idle-minutes",
        type=float,
        default=DEFAULTS.idle_minutes,
        help=f"a table left this long without a request closes (default {DEFAULTS.idle_minutes:g})",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The web table: play, watch agents, replay records in a browser."""
    from agents import AGENT_NAMES, make_agent
    from handfoot_lab.web.app import serve

    if not 0 < args.port < 65536:
        raise ValueError(f"--port must be from 1 to 65535, got {args.port}")
    limits = Limits(args.tables, args.tables_per_client, args.idle_minutes)
    with warnings.catch_warnings():  # a preset mismatch is said at the table that plays it
        warnings.simplefilter("ignore")
        for name in args.agent:
            make_agent(name)  # a name that cannot load is one line now, not an error on the page later
    serve(args.host, args.port, agents=tuple(dict.fromkeys([*AGENT_NAMES, *args.agent])), limits=limits)
    return 0
