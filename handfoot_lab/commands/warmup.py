"""``handfoot warmup``: compile every kernel now, once per install."""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    p = sub.add_parser(
        "warmup",
        help="compile the kernels now (otherwise the first use does, with a message)",
        description="Compile every compiled kernel (the engines' and the scripted baselines') into "
        "the cache, once per install or source change; later starts load them in "
        "well under a second.",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Compile every kernel now (the engine's and the scripted baselines'), once per install."""
    from handfoot_env.baselines.compiled.heuristic import compile_baselines
    from handfoot_env.kernel_cache import cache_folder, compile_once
    from handfoot_env.vector.engine import load_engine_kernels

    load_engine_kernels()
    compile_once("baselines", compile_baselines, "half a minute")
    print(f"kernels ready in {cache_folder()}")
    return 0
