"""``handfoot demo``: seeded games between the scripted players, with a score table."""

from __future__ import annotations

import argparse
import time

import numpy as np

from handfoot_env.rules import Rules
from handfoot_lab.cli_common import require_positive


def add_parser(sub) -> None:
    p = sub.add_parser(
        "demo",
        help="seeded games between scripted players, with a score table",
        description="Seeded games between the scripted players in every preset (on the reference "
        "engine), with wins, mean totals and actions per second.",
    )
    p.add_argument("--games", type=int, default=20, help="games per lineup")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A few seeded games between scripted players, with a score table."""
    from handfoot_lab.commands.game import play_game

    require_positive(args, "games")
    print("handfoot demo: seeded games between scripted players (reference engine)\n")
    lineups = [
        (Rules.preset("classic"), ("greedy", "random")),
        (Rules.preset("classic"), ("heuristic", "greedy")),
        (Rules.preset("partnership"), ("greedy", "random")),
        (Rules.preset("partnership"), ("heuristic", "greedy")),
        (Rules.preset("house"), ("greedy", "random")),
        (Rules.preset("house"), ("heuristic", "greedy")),
    ]
    print("| preset | lineup | games | wins A | draws | wins B | mean total A | mean total B | actions/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for rules, (a, b) in lineups:
        wins = draws = losses = 0
        totals_a, totals_b, steps = [], [], 0
        start = time.perf_counter()
        for g in range(args.games):
            seed = args.seed + g
            # Alternate which side the first agent sits on, so neither always starts.
            swap = g % 2 == 1
            names = (b, a) if swap else (a, b)
            game = play_game(rules, seed, names)
            steps += len(game.actions)
            side_a = 1 if swap else 0
            ta, tb = game.totals[side_a], game.totals[1 - side_a]
            totals_a.append(ta)
            totals_b.append(tb)
            wins += ta > tb
            draws += ta == tb
            losses += ta < tb
        rate = steps / (time.perf_counter() - start)
        label = f"{a} vs {b}" + (" (teams)" if rules.partnerships else "")
        print(
            f"| {rules.preset_name} | {label} | {args.games} | {wins} | {draws} | {losses} | "
            f"{np.mean(totals_a):.0f} | {np.mean(totals_b):.0f} | {rate:,.0f} |"
        )
    return 0
