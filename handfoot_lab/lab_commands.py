"""The lab's measuring commands: ``bench``, ``eval``, ``tune`` and ``train`` (``cli.py`` parses
their arguments; errors are ``ValueError`` and become one line there)."""

from __future__ import annotations

import argparse
import dataclasses
import contextlib
import json
import sys
from pathlib import Path

from handfoot_env.rules import Rules
from handfoot_lab.cli_common import require_positive, rules_from_args, writable_path


def cmd_bench(args: argparse.Namespace) -> int:
    """Steps per second, games per second and peak memory of both engines (or of training)."""
    from handfoot_lab.bench import TABLE_HEADER, format_row, machine_description, run_bench

    if args.train:
        return _bench_training(args)

    batches = _int_list(args.batches, "--batches")
    if not args.seconds > 0:
        raise ValueError(f"--seconds must be a positive number of seconds, got {args.seconds}")
    configs = []
    for item in args.configs.split(","):
        preset, _, players = item.strip().partition(":")
        if not players.strip().isdigit():
            raise ValueError(f"--configs takes preset:players entries such as classic:2,house:4, got {item!r}")
        configs.append((preset, int(players)))
        Rules.preset(preset, num_players=int(players))  # a clear error before any process starts
    if args.load < 0:
        raise ValueError(f"--load is a number of busy processes, 0 or more, got {args.load}")
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
        if not item.strip().isdigit() or int(item) < 1:
            raise ValueError(f"{option} takes positive whole numbers separated by commas, got {item!r}")
        values.append(int(item))
    return tuple(values)


def _bench_training(args: argparse.Namespace) -> int:
    """Learner steps/s of a training run (evaluations off) and the share of each part."""
    import tempfile

    from handfoot_lab.bench import machine_description
    from train.config import load_config

    require_positive(args, "train_steps")
    with tempfile.TemporaryDirectory() as folder:
        try:
            from train.loop import LEARNING_PARTS, bench_overrides, train
        except ImportError as exc:
            raise ValueError(f"training needs the training extras (pip install 'handfoot[train]'): {exc}") from None
        config = load_config(args.config, args.set + bench_overrides(folder, args.train_steps))
        summary = train(config, progress=not args.json)
    timing = summary["timing"]
    learning = sum(timing.get(k, 0.0) for k in LEARNING_PARTS)
    row = {
        "mode": "train",
        "config": str(args.config),
        "preset": config.preset,
        "steps": summary["num_timesteps"],
        "learner_steps_per_sec": summary["num_timesteps"] / learning,
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
    }
    if args.json:
        print(json.dumps(row, indent=2))
    else:
        print(
            f"machine: {row['machine']}\n{config.preset}, {row['steps']:,} learner steps: "
            f"{row['learner_steps_per_sec']:,.0f} steps/s; "
            + ", ".join(f"{k} {v:.0%}" for k, v in row["shares"].items())
        )
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """A duplicate-deal match between two lineups, or a round robin over several agents (--ray: on a cluster)."""
    rules = rules_from_args(args)
    require_positive(args, "pairs")
    if args.chart:
        if not args.round_robin:
            raise ValueError("--chart draws the ratings of a round robin: add --round-robin")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise ValueError("--chart needs matplotlib: pip install 'handfoot[train]'") from None
        writable_path(args.chart, "--chart")
    if args.round_robin and args.records:
        raise ValueError("--records saves the games of one match: leave out --round-robin")
    if args.ray is not None and args.records:
        raise ValueError("--records saves games on this machine: leave out --ray")
    with _ray_cluster(args.ray) as cluster:
        return _eval(args, rules, cluster)


def _ray_cluster(address: str | None):
    """The Ray cluster ``--ray [ADDRESS]`` names, closed on leaving the ``with`` block (None
    inside it without --ray)."""
    if address is None:
        return contextlib.nullcontext()
    from train.cluster import Cluster

    return Cluster(address)


def _eval(args: argparse.Namespace, rules, cluster) -> int:
    from agents import make_agent
    from train.evaluate import crosstable_markdown, play_match, ratings_chart, round_robin

    play_matches = None
    if cluster is not None:
        from train.cluster import agent_spec, play_matches_on_ray

        def play_matches(pairs: list[tuple[str, str]]):
            specs = {name: agent_spec(name, rules) for pair in pairs for name in pair}
            return play_matches_on_ray(
                rules,
                [(specs[a], specs[b]) for a, b in pairs],
                args.pairs,
                seed=args.seed,
                progress=not args.no_progress,
            )

    if args.round_robin:
        names = [name.strip() for name in args.round_robin.split(",")]
        if len(names) < 2 or len(set(names)) != len(names):
            raise ValueError(f"--round-robin needs two or more different agents, got {args.round_robin!r}")
        table = round_robin(
            rules,
            {n: make_agent(n, seed=args.seed, rules=rules) for n in names},
            args.pairs,
            seed=args.seed,
            progress=not args.no_progress,
            play_matches=play_matches,
        )
        if args.json:
            print(json.dumps(table, indent=2))
        else:
            print(crosstable_markdown(table))
        if args.chart:
            ratings_chart(table, args.chart)
            print(f"chart saved to {args.chart}", file=sys.stderr)
        return 0
    team = make_agent(args.team, seed=args.seed, rules=rules)
    vs = make_agent(args.vs, seed=args.seed + 1, rules=rules)
    if args.records:
        Path(args.records).mkdir(parents=True, exist_ok=True)
    if play_matches is not None:
        result = play_matches([(args.team, args.vs)])[0]
    else:
        result = play_match(
            rules, team, vs, args.pairs, seed=args.seed, progress=not args.no_progress, records=args.records
        )
    result.team, result.vs = args.team, args.vs
    if args.records:
        print(f"{result.games} game records saved in {args.records}", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    _print_match(rules, result, args.pairs)
    return 0


def _print_match(rules: Rules, result, pairs: int) -> None:
    print(
        f"{result.team} vs {result.vs}: {rules.preset_name}, {rules.num_players} players, "
        f"{pairs} duplicate sets ({result.games} games)"
    )
    print(f"  win / draw / loss   {result.wins} / {result.draws} / {result.losses}")
    print(f"  win rate            {result.win_rate:.1%}  (95% CI {result.ci95[0]:.1%} - {result.ci95[1]:.1%})")
    print(
        f"  score difference    {result.score_diff:+.0f}  (95% CI {result.score_diff_ci95[0]:+.0f} - "
        f"{result.score_diff_ci95[1]:+.0f})"
    )
    print(f"  mean game length    {result.mean_actions:.0f} actions;  {result.steps_per_sec:,.0f} steps/s")


def cmd_train(args: argparse.Namespace) -> int:
    """MaskablePPO self-play training, then the evaluation table against the baselines."""
    from train.config import load_config

    config = load_config(args.config, args.set)
    try:
        from train.loop import print_summary, train
    except ImportError as exc:
        raise ValueError(f"training needs the training extras (pip install 'handfoot[train]'): {exc}") from None
    summary = train(config, resume=args.resume)
    print_summary(summary)
    return 130 if summary.get("interrupted") else 0


def cmd_tune(args: argparse.Namespace) -> int:
    """Search the heuristic's numbers for a variant that beats it; save the variant."""
    from handfoot_env.baselines.heuristic_params import save_params
    from train.tune import TuneConfig, tune

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
    say = lambda line: print(line, file=sys.stderr, flush=True)
    with _ray_cluster(args.ray) as cluster:
        if cluster is None:
            result = tune(rules, config, log=say)
        else:
            from train.cluster import play_variants_on_ray

            result = tune(rules, config, log=say, play=play_variants_on_ray)
    summary = result.summary()
    if args.out:
        save_params(
            args.out,
            result.params,
            preset=rules.preset_name,
            players=rules.num_players,
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
    _print_match(rules, result.final, config.final_pairs)
    if args.out:
        print(f"saved to {args.out} (play it as tuned:{args.out})")
    return 0
