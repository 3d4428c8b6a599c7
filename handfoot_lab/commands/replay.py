"""``handfoot replay``: a record checked whole, then printed turn by turn."""

from __future__ import annotations

import argparse

from handfoot_env import actions as A


def add_parser(sub) -> None:
    p = sub.add_parser(
        "replay",
        help="replay a game record, printing the table turn by turn",
        description="Check a record whole (every action legal, the stored result reproduced), then "
        "print the table turn by turn and the score sheet.",
    )
    p.add_argument("file", help="a record written by 'handfoot game --record'")
    p.add_argument("--quiet", action="store_true", help="print only the actions and the score sheet")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print a recorded game turn by turn."""
    from handfoot_env.reference.record import iter_replay, load_record, replay
    from handfoot_env.render.text import render_scores, render_table

    record = load_record(args.file)
    final = replay(record)  # checks the whole record (legality, result) before printing
    last_turn = None
    deals_seen = 0
    for game, index, action in iter_replay(record):
        if len(game.deal_results) > deals_seen:
            deals_seen = len(game.deal_results)
            print(f"\n=== deal {deals_seen} ended ===\n{render_scores(game)}\n")
        turn = (game.deal_index, game.current)
        if turn != last_turn and not args.quiet:
            print(render_table(game))
        last_turn = turn
        print(f"  [{index}] seat {game.current}: {A.describe(action, game.rules)}")
    print(f"\n{render_scores(final)}")
    print(f"totals {final.totals}; " + ("game over" if final.is_over else "game not finished"))
    return 0
