"""``handfoot eval``: a duplicate-deal match between two lineups, or a round robin with
ratings, here or on a Ray cluster (``--ray``)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
from pathlib import Path

from handfoot_lab.cli_common import (
    add_ray_arg,
    add_rules_args,
    print_match,
    ray_cluster,
    require_positive,
    rules_from_args,
    writable_path,
)


def add_parser(sub) -> None:
    from agents import agent_usage
    from agents.foreign import DEFAULT_DECISION_SECONDS

    p = sub.add_parser(
        "eval",
        help="duplicate-deal match between lineups (or a round robin), with intervals",
        description="Duplicate deals: every shuffled deal is played once with each lineup on each "
        "side, so both get the same cards; win rate and score difference with 95% "
        "intervals over the duplicate sets. --round-robin plays every pair and rates them. "
        f"Agents: {agent_usage()}.",
    )
    add_rules_args(p)
    p.add_argument("--team", default="heuristic", help="agent of the first lineup")
    p.add_argument("--vs", default="greedy", help="agent of the other side(s)")
    p.add_argument(
        "--pairs",
        type=int,
        default=200,
        help="duplicate sets: each shuffled deal played once per side (a pair of games when two sides)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the first duplicate set")
    p.add_argument("--round-robin", help="comma-separated agents: every pair plays; Elo table and crosstable")
    p.add_argument("--chart", help="with --round-robin: save a PNG chart of the ratings here")
    p.add_argument("--records", help="save every game's record in this folder (for handfoot replay and serve)")
    p.add_argument(
        "--decision-seconds",
        type=float,
        default=DEFAULT_DECISION_SECONDS,
        help=f"a py: or cmd: agent's time for each decision (default {DEFAULT_DECISION_SECONDS:g} s; a batched "
        "call of B decisions has as long): an agent still thinking then is stopped, a fault of kind slow",
    )
    p.add_argument(
        "--faults",
        default="faults",
        help="where the record of a game a py: or cmd: agent broke is saved (default: ./faults)",
    )
    p.add_argument(
        "--keep-going",
        action="store_true",
        help="a game an agent breaks is lost by its side (its record saved) and the match goes on "
        "(default: the first fault ends the match)",
    )
    add_ray_arg(
        p,
        "spread the games over a Ray cluster: alone, one started on this machine; 'auto' the one "
        "'ray start' runs here; HOST:PORT a head node (same results as without --ray)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A duplicate-deal match between two lineups, or a round robin over several agents (--ray: on a cluster).
    Ctrl-C prints the result of the duplicate sets that had ended (exit status 130)."""
    from handfoot_env.cards import MAX_SEED

    rules = rules_from_args(args)
    require_positive(args, "pairs")
    if args.seed + args.pairs - 1 > MAX_SEED:
        raise ValueError(
            f"--pairs {args.pairs:,} from --seed {args.seed:,}: the last deal's seed would pass {MAX_SEED:,}"
        )
    if not 0 < args.decision_seconds < math.inf:  # sent to programs as JSON, which has no infinity
        raise ValueError(
            f"--decision-seconds must be a positive, finite number of seconds, got {args.decision_seconds}"
        )
    if args.chart:
        if not args.round_robin:
            raise ValueError("--chart draws the ratings of a round robin: add --round-robin")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise ValueError("--chart needs matplotlib: pip install 'handfoot[train]'") from None
        writable_path(args.chart, "--chart")
    if args.round_robin and args.records:
        raise ValueError("--records saves the games of one match: leave out --round-robin")
    if args.ray is not None and args.records:
        raise ValueError("--records saves games on this machine: leave out --ray")
    _check_agent_names(args)  # before a cluster starts: a typo costs no Ray start-up
    with ray_cluster(args.ray) as cluster:
        return _eval(args, rules, cluster)


def _round_robin_names(args: argparse.Namespace) -> list[str]:
    names = [name.strip() for name in args.round_robin.split(",")]
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError(f"--round-robin needs two or more different agents, got {args.round_robin!r}")
    return names


def _check_agent_names(args: argparse.Namespace) -> None:
    from agents import check_agent_name

    for name in _round_robin_names(args) if args.round_robin else [args.team, args.vs]:
        check_agent_name(name)


def build(name: str, seed: int, rules, decision_seconds: float):
    """``make_agent``, with a foreign agent's time for each decision set."""
    from agents import ForeignAgent, make_agent

    agent = make_agent(name, seed=seed, rules=rules)
    if isinstance(agent, ForeignAgent):
        agent.decision_seconds = decision_seconds
    return agent


def _eval(args: argparse.Namespace, rules, cluster) -> int:
    from agents.evaluation.matches import MatchInterrupted

    try:
        return _play(args, rules, cluster)
    except MatchInterrupted as stop:
        print("handfoot: interrupted", file=sys.stderr)
        for result in stop.finished:
            _show(args, rules, result, args.pairs)
        if stop.result is None:
            if not stop.finished:
                print("handfoot: no duplicate set had ended: nothing measured", file=sys.stderr)
        else:
            sets = stop.result.games // rules.num_owners
            print(f"handfoot: the match stopped after {sets:,} of {stop.planned:,} duplicate sets:", file=sys.stderr)
            _show(args, rules, stop.result, sets)
        return 130


def _show(args: argparse.Namespace, rules, result, pairs: int) -> None:
    if args.json:
        print(json.dumps(result.to_dict(), indent=2), flush=True)
        return
    labels = result.extra.get("labels", {})
    shown = dataclasses.replace(result, team=labels.get("team", result.team), vs=labels.get("vs", result.vs))
    print_match(rules, shown, pairs)


def _play(args: argparse.Namespace, rules, cluster) -> int:
    from agents.evaluation.matches import MatchFault, play_match
    from agents.evaluation.ratings import crosstable_markdown, ratings_chart, round_robin

    def say(line: str) -> None:
        print(f"handfoot: {line}", file=sys.stderr, flush=True)

    play_matches = None
    if cluster is not None:
        from agents.evaluation.ray import agent_spec, play_matches_on_ray

        def play_matches(pairs: list[tuple[str, str]]):
            specs = {
                name: agent_spec(name, rules, decision_seconds=args.decision_seconds) for pair in pairs for name in pair
            }
            try:
                return play_matches_on_ray(
                    rules,
                    [(specs[a], specs[b]) for a, b in pairs],
                    args.pairs,
                    seed=args.seed,
                    progress=not args.no_progress,
                    keep_going=args.keep_going,
                    faults=args.faults,
                )
            except MatchFault as fault:
                fault.save_record(args.faults)
                raise

    if args.round_robin:
        names = _round_robin_names(args)
        table = round_robin(
            rules,
            {n: build(n, args.seed, rules, args.decision_seconds) for n in names},
            args.pairs,
            seed=args.seed,
            progress=not args.no_progress,
            play_matches=play_matches,
            faults=args.faults,
            keep_going=args.keep_going,
        )
        if args.json:
            print(json.dumps(table, indent=2))
        else:
            print(crosstable_markdown(table))
        if args.chart:
            ratings_chart(table, args.chart)
            print(f"chart saved to {args.chart}", file=sys.stderr)
        return 1 if any(r.get("forfeits") for r in table["results"]) else 0  # as a single match
    team = build(args.team, args.seed, rules, args.decision_seconds)
    vs = build(args.vs, args.seed + 1, rules, args.decision_seconds)
    if args.records:
        Path(args.records).mkdir(parents=True, exist_ok=True)
    if play_matches is not None:
        result = play_matches([(args.team, args.vs)])[0]
    else:
        result = play_match(
            rules,
            team,
            vs,
            args.pairs,
            seed=args.seed,
            progress=not args.no_progress,
            records=args.records,
            faults=args.faults,
            keep_going=args.keep_going,
            say=say,
        )
    result.team, result.vs = args.team, args.vs
    result.extra["labels"] = {"team": _shown(args.team, team), "vs": _shown(args.vs, vs)}
    if args.records:
        print(f"{result.games} game records saved in {args.records}", file=sys.stderr)
    _show(args, rules, result, args.pairs)
    return 1 if result.forfeits else 0


def _shown(name: str, agent) -> str:
    """An agent's name, with the name it gives itself when that says more (``py:a.py:make (my-bot)``)."""
    label = getattr(agent, "label", None)
    return f"{name} ({label})" if isinstance(label, str) and label and label != name else name
