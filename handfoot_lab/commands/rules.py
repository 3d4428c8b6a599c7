"""``handfoot rules``: a preset's rules as JSON."""

from __future__ import annotations

import argparse
import json

from handfoot_lab.cli_common import add_rules_args, rules_from_args


def add_parser(sub) -> None:
    p = sub.add_parser(
        "rules",
        help="print the rules of a preset as JSON",
        description="Every field of a preset's rules (with --players and --deals applied), as JSON; "
        "docs/rules.md explains them.",
    )
    add_rules_args(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    print(json.dumps(rules_from_args(args).to_dict(), indent=2))
    return 0
