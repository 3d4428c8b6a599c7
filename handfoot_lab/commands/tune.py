"""``handfoot tune``: the cross-entropy method over the heuristic's numbers; the variant found
plays as ``tuned:FILE``."""

from __future__ import annotations

import argparse
import json
import sys

from handfoot_lab.cli_common import (
    add_ray_arg,
    add_rules_args,
    print_match,
    ray_cluster,
    rules_from_args,
    writable_path,
)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "tune",
        help="search the heuristic's numbers for a variant that beats it",
        description="The cross-entropy method over the heuristic's numbers "
        "(handfoot_env/baselines/heuristic_params.py): each generation plays every "
        "candidate against the default heuristic on fresh duplicate deals; the result is "
        "judged on deals no generation saw. Play the saved variant as tuned:FILE.",
    )
    add_rules_args(p)
    p.add_argument("--generations", type=int, default=10, help="generations of the search")
    p.add_argument("--population", type=int, default=20, help="candidates per generation")
    p.add_argument("--elite", type=int, default=5, help="best candidates the next generation centres on")
    p.add_argument("--pairs", type=int, default=300, help="duplicate sets each candidate plays per generation")
    p.add_argument("--final-pairs", type=int, default=1000, help="duplicate sets of the final judgement")
    p.add_argument(
        "--pair-positions",
        type=int,
        default=None,
        help="positions the pair model (will the next player take the pile with a pair?) is fitted on "
        "first; 0: none (default: 100,000 where a take needs a pair, 0 in house)",
    )
    p.add_argument(
        "--fitness",
        choices=("win_rate", "score_diff"),
        default="win_rate",
        help="what ranks the candidates (default: win_rate)",
    )
    p.add_argument(
        "--validate-generations",
        type=int,
        default=0,
        help="keep the best of the final mean and the means of this many last generations, on fresh "
        "validation deals (default 0: the final mean)",
    )
    p.add_argument("--validate-pairs", type=int, default=1000, help="duplicate sets of the validation")
    p.add_argument("--seed", type=int, default=0, help="seed of the search and of its deals")
    p.add_argument("--out", help="save the variant here as JSON")
    add_ray_arg(p, "play each generation's matches on a Ray cluster, as eval --ray does (same result)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Search the heuristic's numbers for a variant that beats it; save the variant."""
    from handfoot_env.baselines.heuristic_params import save_params

    try:
        from train.tune import TuneConfig, tune
    except ImportError as exc:  # its pair model is a small torch network
        raise ValueError(f"the search needs the training extras (pip install 'handfoot[train]'): {exc}") from None

    rules = rules_from_args(args)
    if args.out:
        writable_path(args.out, "--out")
    config = TuneConfig(
        generations=args.generations,
        population=args.population,
        elite=args.elite,
        pairs=args.pairs,
        seed=args.seed,
        final_pairs=args.final_pairs,
        pair_positions=args.pair_positions
        if args.pair_positions is not None
        else 100_000
        if rules.takes_with_a_pair
        else 0,
        fitness=args.fitness,
        validate_generations=args.validate_generations,
        validate_pairs=args.validate_pairs,
    )
    config.check()  # before a cluster starts
    say = lambda line: print(line, file=sys.stderr, flush=True)
    with ray_cluster(args.ray) as cluster:
        if cluster is None:
            result = tune(rules, config, log=say)
        else:
            from agents.evaluation.ray import play_variants_on_ray

            result = tune(rules, config, log=say, play=play_variants_on_ray)
    summary = result.summary()
    if args.out:
        save_params(
            args.out,
            result.params,
            preset=rules.preset_name,
            players=rules.num_players,
            rules=rules.to_dict(),  # the variations too: tuned:FILE warns when played under other rules
            tune=vars(config),
            final=summary["final"],
        )
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(
        "changed from the default heuristic: "
        + (", ".join(f"{k}={v:g}" for k, v in summary["changed"].items()) or "nothing")
    )
    result.final.team = f"tuned:{args.out}" if args.out else "tuned"
    print_match(rules, result.final, config.final_pairs)
    if args.out:
        print(f"saved to {args.out} (play it as tuned:{args.out})")
    return 0
