"""``handfoot train``: training from a YAML config, then its evaluation table."""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    p = sub.add_parser(
        "train",
        help="self-play PPO training with a warm start, evaluations and checkpoints",
        description="Train an agent with a YAML config (configs/: quick.yaml to start, scratch.yaml from "
        "random weights for any table, ppo_<preset>.yaml the shipped agents): warm start, PPO against a league, "
        "duplicate evaluations, "
        "checkpoints; Ctrl-C saves, --resume continues. Prints the final evaluation.",
    )
    p.add_argument("--config", help="YAML config (configs/quick.yaml, configs/scratch.yaml, ...)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key")
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run from its last checkpoint (a run with none yet starts, saying so)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Training (train/loop.py with the config's algorithm), then the evaluation table against the baselines."""
    from train.config import load_config

    config = load_config(args.config, args.set)
    try:
        from train.loop import print_summary, train
    except ImportError as exc:
        raise ValueError(f"training needs the training extras (pip install 'handfoot[train]'): {exc}") from None
    summary = train(config, resume=args.resume)
    print_summary(summary)
    return 130 if summary.get("interrupted") else 0
