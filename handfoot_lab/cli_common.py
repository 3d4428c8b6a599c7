"""What every ``handfoot`` command checks the same way: output paths, counts, the rules asked
for, the Ray cluster ``--ray`` names, and how a match's result is printed."""

from __future__ import annotations

import argparse
import contextlib

from handfoot_env.rules import PRESET_NAMES, Rules


def add_rules_args(p: argparse.ArgumentParser, preset_default: str | None = "classic") -> None:
    """``--preset``, ``--players``, ``--deals`` and ``--rule``, as every command that plays some
    rules takes them."""
    p.add_argument("--preset", default=preset_default, help=f"one of {', '.join(PRESET_NAMES)}")
    p.add_argument(
        "--players",
        type=int,
        default=None,
        help="number of players (classic: 2-6; partnership: 4, or 6 in three teams; house: 2, or 4 in two teams)",
    )
    p.add_argument(
        "--deals",
        type=int,
        default=None,
        help="number of deals (classic, partnership: 1, 2 or 4; house: the cap, default 30)",
    )
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="any rules field (docs/rules.md, 'Variations'; handfoot rules prints them), e.g. "
        "--rule wild_books=true --rule sevens_book_to_go_out=clean; repeat for several",
    )


def add_ray_arg(p: argparse.ArgumentParser, help: str) -> None:
    """``--ray [ADDRESS]``: alone, a Ray instance started here; else the cluster at ADDRESS."""
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS", help=help)


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


def rule_overrides(texts: list[str]) -> dict:
    """``FIELD=VALUE`` texts as rules overrides; each value is read as YAML (``true``, ``13``,
    ``clean``, ``[60, 90, 120, 150]``, ``null``).  A malformed one is a ``ValueError``."""
    from handfoot_env.strict_yaml import load_yaml

    overrides = {}
    for text in texts:
        name, equals, value = text.partition("=")
        if not equals or not name.strip():
            raise ValueError(f"--rule {text!r}: write it as FIELD=VALUE, e.g. --rule wild_books=true")
        overrides[name.strip()] = load_yaml(value, f"--rule {name.strip()}'s value")
    return overrides


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules of ``--preset`` with ``--players``, ``--deals`` and every ``--rule``."""
    overrides = rule_overrides(getattr(args, "rule", None) or [])
    if getattr(args, "players", None) is not None:
        overrides["num_players"] = args.players
    if getattr(args, "deals", None) is not None:
        overrides["num_deals"] = args.deals
    return Rules.from_overrides(args.preset or "classic", overrides)


def require_positive(args: argparse.Namespace, *names: str) -> None:
    """Refuse a count option below 1 (``--pairs 0``), naming it."""
    for name in names:
        value = getattr(args, name, None)
        if value is not None and value < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1, got {value}")


@contextlib.contextmanager
def signal_ignored(signum: int):
    """Ignore the signal inside the block, where this thread may (the main thread)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signum, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signum, previous)


def ray_cluster(address: str | None):
    """The Ray cluster ``--ray [ADDRESS]`` names, closed on leaving the ``with`` block (None
    inside it without --ray)."""
    if address is None:
        return contextlib.nullcontext()
    from agents.evaluation.ray import Cluster

    return Cluster(address)


def print_match(rules: Rules, result, pairs: int) -> None:
    """A duplicate match's result, as ``handfoot eval`` and ``handfoot tune`` print it."""
    print(
        f"{result.team} vs {result.vs}: {rules.preset_name}, {rules.num_players} players, "
        f"{pairs} duplicate sets ({result.games} games)"
    )
    print(f"  win / draw / loss   {result.wins} / {result.draws} / {result.losses}")
    forfeits = f";  {result.forfeits} forfeited (lost by the side that broke them)" if result.forfeits else ""
    print(
        f"  win rate            {result.win_rate:.1%}  (95% CI {result.ci95[0]:.1%} - {result.ci95[1]:.1%}){forfeits}"
    )
    print(
        f"  score difference    {result.score_diff:+.0f}  (95% CI {result.score_diff_ci95[0]:+.0f} - "
        f"{result.score_diff_ci95[1]:+.0f})"
    )
    print(f"  mean game length    {result.mean_actions:.0f} actions;  {result.steps_per_sec:,.0f} steps/s")
