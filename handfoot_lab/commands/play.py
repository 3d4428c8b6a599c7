"""``handfoot play``: a game in the terminal for one person against agents, with Hint and Coach."""

from __future__ import annotations

import argparse

from handfoot_env.rules import PRESET_NAMES


def add_parser(sub) -> None:
    from agents import agent_usage

    p = sub.add_parser(
        "play",
        help="play against the agents in the terminal, with Hint and Coach",
        description="A game for one person at seat 0 against agents, in the terminal or over a pipe: "
        "type ? for the commands, h for a hint; the Coach notes the tips you broke.",
    )
    p.add_argument("--preset", default="classic", choices=list(PRESET_NAMES), help="the rules to play")
    p.add_argument(
        "--players",
        type=int,
        default=None,
        help="classic: 2-6 players; partnership: 4, or 6 in three teams; house: 2, or 4 in teams",
    )
    p.add_argument("--opponents", default="heuristic", help=f"agent for the other side(s): {agent_usage()}")
    p.add_argument(
        "--partner", default=None, help="partnership (or house with 4): your partner's agent (default heuristic)"
    )
    p.add_argument("--hint", default="heuristic", help=f"the agent behind Hint and Coach: {agent_usage()}")
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the game's seed: the same seed deals the same cards (default: 62 unpredictable bits, never shown)",
    )
    p.add_argument("--no-coach", action="store_true", help="no Coach notes after your turns")
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="any rules field (docs/rules.md, 'Variations'), e.g. --rule permission_to_go_out=true",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """A terminal game for one person against agents, with Hint and Coach."""
    from handfoot_lab.cli_common import rule_overrides
    from handfoot_lab.play import run_play

    overrides = rule_overrides(args.rule)
    return run_play(
        args.preset, args.opponents, args.partner, args.hint, args.seed, not args.no_coach, args.players, overrides
    )
