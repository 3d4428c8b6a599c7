"""``handfoot benchmark AGENT...``: the standard, versioned benchmark of agents (protocol in
``agents/evaluation/benchmark.py`` and docs/benchmark.md): a JSON file and a Markdown table."""

from __future__ import annotations

import argparse
import json
import math
import signal
import sys
from pathlib import Path

from handfoot_lab.cli_common import add_ray_arg, ray_cluster, require_positive, signal_ignored


def add_parser(sub) -> None:
    from agents import agent_usage
    from agents.evaluation.benchmark import OPPONENTS, PAIRS, PROTOCOL, TABLES

    tables = ",".join(f"{p}:{n}" for p, n in TABLES)
    p = sub.add_parser(
        "benchmark",
        help="the standard benchmark of an agent: every table, the fixed opponents, ratings",
        description=f"Benchmark protocol {PROTOCOL} (docs/benchmark.md): on each table the agent plays "
        f"({tables}), {PAIRS:,} duplicate sets on fixed deals against each of {', '.join(OPPONENTS)}; "
        "win rates and score differences with 95% intervals, a rating anchored at the opponents' "
        f"round robin. Writes DIR/benchmark.json and DIR/benchmark.md. Agents: {agent_usage()}.",
    )
    p.add_argument("agents", nargs="+", metavar="AGENT", help="the agents to benchmark (each against the opponents)")
    p.add_argument("--tables", default=tables, help=f"the tables to play, among {tables} (default: all)")
    p.add_argument(
        "--pairs",
        type=int,
        default=PAIRS,
        help=f"duplicate sets per opponent (default {PAIRS:,}, the protocol's; others are marked not standard)",
    )
    p.add_argument("--out", default="benchmark", help="folder for benchmark.json, benchmark.md and faults/")
    p.add_argument(
        "--decision-seconds",
        type=float,
        default=None,
        help="a py: or cmd: agent's time for each decision (default 1 s; a batched call of B decisions "
        "has as long): an agent still thinking then is stopped, a fault of kind slow",
    )
    p.add_argument(
        "--keep-going",
        action="store_true",
        help="a game an agent breaks is lost (its record saved) and the match goes on; the table shows "
        "the forfeits (default: stop at the first fault)",
    )
    add_ray_arg(p, "play the matches on a Ray cluster (same numbers): alone, one started here; or ADDRESS")
    p.add_argument("--json", action="store_true", help="print the JSON report instead of the Markdown table")
    p.add_argument("--no-progress", action="store_true", help="no progress bars on standard error")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Benchmark the agents; write the report (Ctrl-C: with the matches finished, marked
    interrupted; exit status 130); exit status 1 if an agent faulted."""
    from agents.evaluation.benchmark import Benchmark, Settings, markdown, parse_tables
    from agents.foreign import DEFAULT_DECISION_SECONDS

    require_positive(args, "pairs")
    seconds = DEFAULT_DECISION_SECONDS if args.decision_seconds is None else args.decision_seconds
    if not 0 < seconds < math.inf:  # sent to programs as JSON, which has no infinity
        raise ValueError(f"--decision-seconds must be a positive, finite number of seconds, got {seconds}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} is a file; give a folder")
    settings = Settings(
        tables=parse_tables(args.tables),
        pairs=args.pairs,
        decision_seconds=seconds,
        keep_going=args.keep_going,
        faults=out / "faults",
        progress=not args.no_progress,
    )
    benchmark = Benchmark(args.agents, settings)  # names checked before a cluster starts
    out.mkdir(parents=True, exist_ok=True)  # only once the agents and tables are known good
    with ray_cluster(args.ray) as cluster:
        benchmark.cluster = cluster
        report = benchmark.run()
    with signal_ignored(signal.SIGINT):  # a second Ctrl-C does not cut the report short
        table = markdown(report)
        (out / "benchmark.json").write_text(json.dumps(report, indent=2) + "\n")
        (out / "benchmark.md").write_text(table + "\n")
        print(json.dumps(report, indent=2) if args.json else table, flush=True)
        seconds = report["seconds"]
        print(f"written: {out / 'benchmark.json'}, {out / 'benchmark.md'} ({seconds:.0f} s)", file=sys.stderr)
    if report["interrupted"]:
        print("handfoot: interrupted: the report holds the matches that had finished", file=sys.stderr)
        return 130
    return 1 if report["faults"] else 0
