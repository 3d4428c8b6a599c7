"""The ``handfoot`` command line: the parser, put together from one module per command
(``handfoot_lab/commands/``), and the one place errors become messages.

Every user error (unknown preset, bad rules value, corrupt record) is one clear line on
standard error and exit status 2, never a traceback; a foreign agent's fault (``py:``) is one
line too, with exit status 1.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence

from handfoot_env.cards import MAX_RUN_SEED, MAX_SEED, check_seed
from handfoot_env.errors import IllegalActionError, RecordError, ScenarioError
from handfoot_lab.commands import COMMANDS


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments get one line and exit status 2 (argparse would print the usage first;
    ``--help`` still shows it)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    from handfoot_env import __version__

    parser = OneLineParser(prog="handfoot", description="Hand and Foot: engine, agents and RL lab")
    parser.add_argument("--version", action="version", version=f"handfoot {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


# Commands whose --seed is one game's seed; the others derive many game seeds from theirs.
GAME_SEED_COMMANDS = ("game", "play")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version, or bad arguments (one line, status 2)
        return exc.code if isinstance(exc.code, int) else 0
    with warnings.catch_warnings():
        warnings.showwarning = _one_line_warning
        return _run(args)


def _one_line_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A trained agent on another table than its own: one line, as the lab's notes are;
    any other warning as Python shows it."""
    from agents.trained import TableWarning

    if issubclass(category, TableWarning):
        print(f"handfoot: note: {message}", file=sys.stderr, flush=True)
    else:
        sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def _run(args: argparse.Namespace) -> int:
    from agents.foreign import AgentFault, MatchFault

    try:
        if getattr(args, "seed", None) is not None:
            check_seed(args.seed, "--seed", MAX_SEED if args.command in GAME_SEED_COMMANDS else MAX_RUN_SEED)
        return args.func(args)
    except (RecordError, ScenarioError, IllegalActionError, ValueError) as exc:
        print(f"handfoot: error: {exc}", file=sys.stderr)
        return 2
    except (AgentFault, MatchFault) as exc:  # the agent's fault, not the command's
        print(f"handfoot: fault: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a file or folder the user named: say which, in one line
        where = f" {exc.filename}" if exc.filename else ""
        print(f"handfoot: error:{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("handfoot: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
