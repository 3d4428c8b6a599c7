"""``handfoot actions``: the action layout table."""

from __future__ import annotations

import argparse

from handfoot_env import actions as A


def add_parser(sub) -> None:
    p = sub.add_parser(
        "actions",
        help="print the action layout table",
        description="The 187 actions every preset shares, by index range.",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print("| index | count | action |\n|---|---|---|")
    for index, count, text in A.layout_table():
        print(f"| {index} | {count} | {text} |")
    print(f"\n{A.NUM_ACTIONS} actions in all")
    return 0
