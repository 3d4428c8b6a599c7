"""``handfoot bench``: steps per second, games per second and peak memory of both engines, or
the throughput of training (``--train``)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import sys

from handfoot_env.rules import Rules
from handfoot_lab.cli_common import require_positive

MAX_BATCH = 262_144  # games in one engine: about 2.5 GB of state, more than any row here needs
MAX_LOAD = 64  # busy processes beside a row: a load test, not a fork bomb


def add_parser(sub) -> None:
    p = sub.add_parser(
        "bench",
        help="steps/s, games/s and peak memory of both engines (or of training)",
        description="Random masked play on both engines, the legal mask and the mover's observation "
        "computed every step, each row in its own process (rows print as they finish); "
        "--load N adds N busy processes beside every row; --train measures training.",
    )
    p.add_argument("--json", action="store_true", help="print a JSON list of rows")
    p.add_argument("--batches", default="1,64,1024,4096,16384", help="vector engine batch sizes, comma-separated")
    p.add_argument("--configs", default="classic:2,partnership:4,house:2,house:4", help="preset:players,...")
    p.add_argument("--seconds", type=float, default=3.0, help="timed seconds per row")
    p.add_argument("--no-reference", action="store_true", help="skip the reference engine rows")
    p.add_argument(
        "--load",
        type=int,
        default=0,
        help="busy processes (one core each) running beside every row, to measure a loaded machine",
    )
    p.add_argument(
        "--train",
        action="store_true",
        help="measure training instead: learner steps/s and the share of simulation, scripted opponents, "
        "inference and updates (evaluations off)",
    )
    p.add_argument("--config", default="configs/quick.yaml", help="--train: the training config")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="--train: override a config key")
    p.add_argument("--train-steps", type=int, default=400_000, help="--train: learner steps to time")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Steps per second, games per second and peak memory of both engines (or of training)."""
    from agents.evaluation.benchmark import machine_description
    from handfoot_lab.speed import TABLE_HEADER, format_row, run_bench

    if args.train:
        return _bench_training(args)

    batches = _int_list(args.batches, "--batches")
    if not (math.isfinite(args.seconds) and args.seconds > 0):
        raise ValueError(f"--seconds must be a positive number of seconds, got {args.seconds}")
    configs = []
    for item in args.configs.split(","):
        preset, _, players = item.strip().partition(":")
        if not re.fullmatch(r"\s*[0-9]+\s*", players):
            raise ValueError(f"--configs takes preset:players entries such as classic:2,house:4, got {item!r}")
        configs.append((preset, int(players)))
        Rules.preset(preset, num_players=int(players))  # a clear error before any process starts
    if not 0 <= args.load <= MAX_LOAD:
        raise ValueError(f"--load is a number of busy processes from 0 to {MAX_LOAD}, got {args.load}")
    rows = run_bench(batches, configs, seconds=args.seconds, reference=not args.no_reference, load=args.load)
    if args.json:  # a JSON list at the end; each row's progress on standard error meanwhile
        done = []
        for row in rows:
            done.append(row)
            print(f"bench: {format_row(row)}", file=sys.stderr, flush=True)
        print(json.dumps(done, indent=2))
    else:  # rows stream as they finish
        print(f"machine: {machine_description()}\n\n{TABLE_HEADER}", flush=True)
        for row in rows:
            print(format_row(row), flush=True)
    return 0


def _int_list(text: str, option: str) -> tuple[int, ...]:
    values = []
    for item in text.split(","):
        if not re.fullmatch(r"\s*[0-9]+\s*", item) or not 1 <= int(item) <= MAX_BATCH:
            raise ValueError(f"{option} takes whole numbers from 1 to {MAX_BATCH:,} separated by commas, got {item!r}")
        values.append(int(item))
    return tuple(values)


def _bench_training(args: argparse.Namespace) -> int:
    """Learner steps/s of a training run (evaluations off) and the share of each part."""
    import tempfile

    from agents.evaluation.benchmark import machine_description
    from agents.policy import device_label, resolve_device
    from train.config import load_config

    require_positive(args, "train_steps")
    with tempfile.TemporaryDirectory() as folder:
        try:
            from train.loop import bench_overrides, train
        except ImportError as exc:
            raise ValueError(f"training needs the training extras (pip install 'handfoot[train]'): {exc}") from None
        config = load_config(args.config, args.set + bench_overrides(folder, args.train_steps))
        summary = train(config, progress=not args.json)
    timing = summary["timing"]
    row = {
        "mode": "train",
        "config": str(args.config),
        "preset": config.preset,
        "steps": summary["num_timesteps"],
        "learner_steps_per_sec": summary["learner_steps_per_sec"],  # over the learning seconds
        "shares": summary["timing_shares"],
        "seconds": timing,
        "algorithm": config.algorithm,
        "opponents": config.league.opponents,
        "n_epochs": getattr(config.algo, "n_epochs", 1),
        "batch_size": config.algo.batch_size,
        "num_envs": config.env.num_envs,
        "network": dataclasses.asdict(config.network),
        "ray": summary["ray"],
        "machine": machine_description(),
        "learner": device_label(resolve_device(config.device)),
        "threads": config.threads,
    }
    if args.json:
        print(json.dumps(row, indent=2))
    else:
        print(
            f"machine: {row['machine']}; learner on {row['learner']}, torch threads {row['threads']}\n"
            f"{config.preset}, {row['steps']:,} learner steps: "
            f"{row['learner_steps_per_sec']:,.0f} steps/s; "
            + ", ".join(f"{k} {v:.0%}" for k, v in row["shares"].items())
        )
    return 0
