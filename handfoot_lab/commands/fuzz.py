"""``handfoot fuzz``: whole games under a policy, every invariant at every step (reference), or
both engines side by side (vector); exit status 1 on any failure."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator

from handfoot_env.rules import Rules
from handfoot_lab.cli_common import add_rules_args, require_positive, rules_from_args


def add_parser(sub) -> None:
    from agents import agent_usage

    p = sub.add_parser(
        "fuzz",
        help="whole games under a policy, every check at every step",
        description="Whole games under a policy that seeks the rules' corners. reference: every invariant "
        "after every action; vector: both engines side by side, everything compared. Without "
        "--preset, --players, --deals or --rule: every preset and table size, then one "
        "configuration per variation the presets leave out. Prints a line per configuration and "
        "a table of the rare situations met; exit status 1 on any divergence, dead end or "
        "invariant failure.",
    )
    add_rules_args(p, preset_default=None)
    p.add_argument(
        "--engine",
        default="reference",
        choices=["reference", "vector"],
        help="reference: invariants at every step; vector: compare with the reference",
    )
    p.add_argument(
        "--policy",
        default="random",
        help=f"who plays: any agent ({agent_usage()}), eager (melds everything at once, races to the "
        "foot) or mixed (a policy per seat per game)",
    )
    p.add_argument("--games", type=int, default=20, help="reference: games per configuration")
    p.add_argument("--steps", type=int, default=200_000, help="vector: compared steps in all configurations")
    p.add_argument("--jobs", type=int, default=1, help="configurations run in parallel processes")
    p.add_argument("--seed", type=int, default=0, help="first game seed")
    p.add_argument("--json", action="store_true", help="one JSON object per configuration, one per line")
    p.set_defaults(func=run)


def _fuzz_one(job: tuple) -> dict:
    from handfoot_lab.fuzz import fuzz_reference, fuzz_vector

    engine, rules_dict, policy, size, seed, progress = job
    rules = Rules.from_dict(rules_dict)
    if engine == "reference":
        return fuzz_reference(rules, policy, games=size, seed=seed, progress=progress).to_dict()
    return fuzz_vector(rules, policy, steps=size, seed=seed, progress=progress).to_dict()


def run(args: argparse.Namespace) -> int:
    """Whole games under a policy: invariants at every step (reference), or both engines compared (vector)."""
    from handfoot_lab.fuzz import CORNERS, default_configs, fuzz_player

    require_positive(args, "games", "steps", "jobs")
    chosen = args.preset or args.players or args.deals or args.rule
    configs = [rules_from_args(args)] if chosen else default_configs()
    if args.policy != "mixed":
        fuzz_player(args.policy, rules=configs[0])  # a clear error now rather than in every worker
    size = args.games if args.engine == "reference" else max(1, args.steps // len(configs))
    jobs = [
        (args.engine, rules.to_dict(), args.policy, size, args.seed, args.jobs == 1 and not args.json)
        for rules in configs
    ]
    reports: Iterator[dict]
    if args.jobs == 1:
        reports = map(_fuzz_one, jobs)
    else:
        import multiprocessing as mp

        pool = mp.get_context("spawn").Pool(min(args.jobs, len(jobs)))
        reports = pool.imap(_fuzz_one, jobs)
    failed = False
    rows = []
    for report in reports:
        failed |= bool(report["divergences"] or report["dead_ends"] or report["invariant_failures"])
        rows.append(report)
        if args.json:
            print(json.dumps(report), flush=True)
            continue
        unit = "actions checked" if args.engine == "reference" else "steps compared"
        print(
            f"{report['label']}, {report['policy']}: {report['steps']:,} {unit}, "
            f"{report['games']:,} games, {report['divergences']} divergences, {report['dead_ends']} dead ends, "
            f"{report['invariant_failures']} invariant failures "
            f"({report['steps'] / max(report['seconds'], 1e-9):,.0f}/s)",
            flush=True,
        )
        for message in report["failures"]:
            print(f"  FAILURE: {message}", file=sys.stderr)
    if not args.json:
        names = [r["label"] for r in rows]
        print("\n| corner | " + " | ".join(names) + " |\n|---|" + "---|" * len(rows))
        for corner in CORNERS:
            print(f"| {corner} | " + " | ".join(f"{r['corners'][corner]:,}" for r in rows) + " |")
    return 1 if failed else 0
