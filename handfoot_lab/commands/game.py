"""``handfoot game``: one game between named agents, its score sheet, and optionally its record."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np

from handfoot_env.rules import Rules
from handfoot_lab.cli_common import add_rules_args, rules_from_args, writable_path


def add_parser(sub) -> None:
    p = sub.add_parser(
        "game",
        help="play one game between agents and save its record",
        description="One game between named agents (one per seat, cycled): the score sheet, the "
        "winner, and optionally a record that 'handfoot replay' plays back exactly.",
    )
    add_rules_args(p)
    p.add_argument("--agents", default="greedy,random", help="comma-separated agent names, one per seat (cycled)")
    p.add_argument("--seed", type=int, default=0, help="the game's seed: the same seed deals the same cards")
    p.add_argument("--record", help="write the game record (JSON) here")
    p.set_defaults(func=run)


def play_game(rules: Rules, seed: int, agent_names: Sequence[str]):
    """One game with an agent per seat (names cycle over the seats), played on
    the vector engine; returns the reference game replayed from its actions (for the score
    sheet and the record)."""
    from agents import make_agent
    from handfoot_env.reference import Game
    from handfoot_env.seating.seats import Seating
    from handfoot_env.vector import VectorEngine

    engine = VectorEngine(rules, batch_size=1, seed=seed, auto_reset=False)
    seating = Seating(
        engine,
        [
            make_agent(agent_names[i % len(agent_names)], seed=seed * 101 + i, rules=rules)
            for i in range(rules.num_players)
        ],
    )
    seating.seat(np.array([0]), np.arange(rules.num_players))
    played: list[int] = []
    seating.play(on_step=lambda outcome, stepped, actions: played.append(int(actions[0])))
    game = Game(rules, seed)
    for action in played:
        game.step(action)
    return game


def run(args: argparse.Namespace) -> int:
    """Play one game between named scripted agents; print the score sheet; save a record."""
    from handfoot_env.reference.record import save_record
    from handfoot_env.render.text import render_scores

    rules = rules_from_args(args)
    names = [name.strip() for name in args.agents.split(",")]
    if len(names) > rules.num_players:
        raise ValueError(f"--agents names {len(names)} agents for {rules.num_players} seats")
    if args.record:
        writable_path(args.record, "--record")
    game = play_game(rules, args.seed, names)
    print(render_scores(game))
    winners = game.winners()
    sides = "player" if not rules.partnerships else "team"
    named = ", ".join(
        f"{sides} {w} (seat{'s' if rules.partnerships else ''} {', '.join(map(str, rules.members_of(w)))})"
        for w in winners
    )
    print(("tie between " if len(winners) > 1 else "winner: ") + named + f"  ({len(game.actions)} actions)")
    if args.record:
        save_record(game, args.record)
        print(f"record saved to {args.record}")
    return 0
