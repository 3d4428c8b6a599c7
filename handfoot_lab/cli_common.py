"""What every ``handfoot`` command checks the same way: output paths, counts, the rules asked for."""

from __future__ import annotations

import argparse

from handfoot_env.rules import Rules


def writable_path(path: str, option: str) -> str:
    """Refuse, before any work, an output file whose folder is missing or not writable."""
    import os

    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"{option} {path}: the folder {folder} is not writable")
    if os.path.isdir(path):
        raise ValueError(f"{option} {path} is a folder; give a file name")
    return path


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules of ``--preset`` with ``--players`` and ``--deals``."""
    overrides = {}
    if getattr(args, "players", None) is not None:
        overrides["num_players"] = args.players
    if getattr(args, "deals", None) is not None:
        overrides["num_deals"] = args.deals
    return Rules.preset(args.preset or "classic", **overrides)


def require_positive(args: argparse.Namespace, *names: str) -> None:
    """Refuse a count option below 1 (``--pairs 0``), naming it."""
    for name in names:
        value = getattr(args, name, None)
        if value is not None and value < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1, got {value}")
