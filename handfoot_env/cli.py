"""The ``handfoot`` command line: demo, game, replay, fuzz, actions, rules.

Every user error (unknown preset, bad rules value, corrupt record) is one clear line on
standard error and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

import numpy as np

from handfoot_env import actions as A
from handfoot_env.errors import IllegalActionError, RecordError, ScenarioError
from handfoot_env.rules import PRESET_NAMES, Rules


def _rules_from_args(args: argparse.Namespace) -> Rules:
    overrides = {}
    if getattr(args, "players", None) is not None:
        overrides["num_players"] = args.players
    if getattr(args, "deals", None) is not None:
        overrides["num_deals"] = args.deals
    return Rules.preset(args.preset or "classic", **overrides)


def play_game(rules: Rules, seed: int, agent_names: Sequence[str]):
    """Play one reference game with scripted agents, one per seat (names cycle over seats)."""
    from agents import make_agent
    from handfoot_env.reference import Game
    from handfoot_env.reference.observe import observe

    game = Game(rules, seed)
    seat_agents = [make_agent(agent_names[i % len(agent_names)], seed=seed * 101 + i) for i in range(rules.num_players)]
    while not game.is_over:
        observation = observe(game, game.current)[None, :]
        action = seat_agents[game.current].act(observation, game.legal_mask()[None, :])[0]
        game.step(int(action))
    return game


def cmd_demo(args: argparse.Namespace) -> int:
    """A few seeded games between scripted players, with a score table."""
    print("handfoot demo: seeded games between scripted players (reference engine)\n")
    lineups = [
        (Rules.preset("classic"), ("greedy", "random")),
        (Rules.preset("classic"), ("heuristic", "greedy")),
        (Rules.preset("partnership"), ("greedy", "random")),
        (Rules.preset("partnership"), ("heuristic", "greedy")),
        (Rules.preset("house"), ("greedy", "random")),
        (Rules.preset("house"), ("heuristic", "greedy")),
    ]
    print("| preset | lineup | games | wins A | draws | wins B | mean total A | mean total B | actions/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for rules, (a, b) in lineups:
        wins = draws = losses = 0
        totals_a, totals_b, steps = [], [], 0
        start = time.perf_counter()
        for g in range(args.games):
            seed = args.seed + g
            # Alternate which side the first agent sits on, so neither always starts.
            swap = g % 2 == 1
            names = (b, a) if swap else (a, b)
            game = play_game(rules, seed, names)
            steps += len(game.actions)
            side_a = 1 if swap else 0
            ta, tb = game.totals[side_a], game.totals[1 - side_a]
            totals_a.append(ta)
            totals_b.append(tb)
            wins += ta > tb
            draws += ta == tb
            losses += ta < tb
        rate = steps / (time.perf_counter() - start)
        label = f"{a} vs {b}" + (" (teams)" if rules.partnerships else "")
        print(
            f"| {rules.preset_name} | {label} | {args.games} | {wins} | {draws} | {losses} | "
            f"{np.mean(totals_a):.0f} | {np.mean(totals_b):.0f} | {rate:,.0f} |"
        )
    return 0


def cmd_game(args: argparse.Namespace) -> int:
    """Play one game between named scripted agents; print the score sheet; save a record."""
    from handfoot_env.reference.record import save_record
    from handfoot_env.render import render_scores

    rules = _rules_from_args(args)
    game = play_game(rules, args.seed, args.agents.split(","))
    print(render_scores(game))
    print(f"winner(s): {game.winners()}  ({len(game.actions)} actions)")
    if args.record:
        save_record(game, args.record)
        print(f"record saved to {args.record}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Print a recorded game turn by turn."""
    from handfoot_env.reference.record import iter_replay, load_record, replay
    from handfoot_env.render import render_scores, render_table

    record = load_record(args.file)
    final = replay(record)  # checks the whole record (legality, result) before printing
    last_turn = None
    deals_seen = 0
    for game, index, action in iter_replay(record):
        if len(game.deal_results) > deals_seen:
            deals_seen = len(game.deal_results)
            print(f"\n=== deal {deals_seen} ended ===\n{render_scores(game)}\n")
        turn = (game.deal_index, game.current)
        if turn != last_turn and not args.quiet:
            print(render_table(game))
        last_turn = turn
        print(f"  [{index}] seat {game.current}: {A.describe(action, game.rules)}")
    print(f"\n{render_scores(final)}")
    print(f"totals {final.totals}; " + ("game over" if final.is_over else "game not finished"))
    return 0


def cmd_fuzz(args: argparse.Namespace) -> int:
    """Random legal play: invariants at every step (reference), or both engines compared (vector)."""
    configs = [_rules_from_args(args)] if args.preset or args.players or args.deals else [
        Rules.preset("classic", num_players=n) for n in (2, 3, 4, 6)
    ] + [Rules.preset("partnership"), Rules.preset("house"), Rules.preset("house", num_players=4)]
    if args.engine == "vector":
        return _fuzz_vector(args, configs)
    from handfoot_env.reference import Game
    from handfoot_env.reference.invariants import check_position, recount_deal

    for rules in configs:
        start = time.perf_counter()
        steps = 0
        for g in range(args.games):
            seed = args.seed + g
            game = Game(rules, seed)
            rng = np.random.default_rng(seed)
            while not game.is_over:
                mask = game.legal_mask()
                check_position(game, mask)
                game.step(int(rng.choice(np.flatnonzero(mask))))
                steps += 1
            check_position(game)
            for d in game.deal_results:
                if recount_deal(d, rules) != d.scores:
                    raise AssertionError(f"seed {seed} deal {d.deal_index + 1}: score {d.scores} != recount")
            if sum(sum(d.scores[o] for d in game.deal_results) for o in range(rules.num_owners)) != sum(game.totals):
                raise AssertionError(f"seed {seed}: totals do not add up")
        elapsed = time.perf_counter() - start
        print(
            f"{rules.preset_name} {rules.num_players}p: {args.games} games, {steps} actions, "
            f"every invariant held ({steps / elapsed:,.0f} actions/s)"
        )
    return 0


def _fuzz_vector(args: argparse.Namespace, configs: list[Rules]) -> int:
    from handfoot_env.differential import Divergence, run_differential

    batch = 32
    per_config = max(1, args.steps // (batch * len(configs)))
    for rules in configs:
        start = time.perf_counter()
        try:
            report = run_differential(rules, batch_size=batch, steps=per_config, seed=args.seed)
        except Divergence as exc:
            print(f"DIVERGENCE: {exc}", file=sys.stderr)
            return 1
        print(
            f"{rules.preset_name} {rules.num_players}p: {report.steps:,} steps compared, "
            f"{report.games_finished} games finished, engines identical "
            f"({report.steps / (time.perf_counter() - start):,.0f} steps/s)"
        )
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Steps per second, games per second and peak memory of both engines."""
    from handfoot_env.bench import format_table, machine_description, run_bench

    batches = tuple(int(b) for b in args.batches.split(","))
    configs = [tuple(c.split(":")) for c in args.configs.split(",")]
    configs = [(preset, int(players)) for preset, players in configs]
    for preset, players in configs:
        Rules.preset(preset, num_players=players)  # a clear error before any process starts
    rows = run_bench(batches, configs, seconds=args.seconds, reference=not args.no_reference)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"machine: {machine_description()}\n")
        print(format_table(rows))
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """A duplicate-deal match between two lineups, or a round robin over several agents."""
    from agents import make_agent
    from train.evaluate import crosstable_markdown, play_match, ratings_chart, round_robin

    rules = _rules_from_args(args)
    if args.round_robin:
        names = args.round_robin.split(",")
        table = round_robin(rules, {n: make_agent(n, seed=args.seed) for n in names}, args.pairs, seed=args.seed,
                            progress=not args.no_progress)
        if args.json:
            print(json.dumps(table, indent=2))
        else:
            print(crosstable_markdown(table))
        if args.chart:
            ratings_chart(table, args.chart)
            print(f"chart saved to {args.chart}", file=sys.stderr)
        return 0
    team, vs = make_agent(args.team, seed=args.seed), make_agent(args.vs, seed=args.seed + 1)
    result = play_match(rules, team, vs, args.pairs, seed=args.seed, progress=not args.no_progress)
    result.team, result.vs = args.team, args.vs
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    print(f"{args.team} vs {args.vs}: {rules.preset_name}, {rules.num_players} players, "
          f"{args.pairs} duplicate sets ({result.games} games)")
    print(f"  win / draw / loss   {result.wins} / {result.draws} / {result.losses}")
    print(f"  win rate            {result.win_rate:.1%}  (95% CI {result.ci95[0]:.1%} - {result.ci95[1]:.1%})")
    print(f"  score difference    {result.score_diff:+.0f}  (95% CI {result.score_diff_ci95[0]:+.0f} - "
          f"{result.score_diff_ci95[1]:+.0f})")
    print(f"  mean game length    {result.mean_actions:.0f} actions;  {result.steps_per_sec:,.0f} steps/s")
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    """MaskablePPO self-play training, then the evaluation table against the baselines."""
    from train.config import load_config

    config = load_config(args.config, args.set)
    try:
        from train.ppo import print_summary, train
    except ImportError as exc:
        raise ValueError(f"training needs the training extras (pip install 'handfoot[train]'): {exc}") from None
    print_summary(train(config, resume=args.resume))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """A terminal game for one person against agents, with Hint and Coach."""
    from handfoot_env.play import run_play

    return run_play(args.preset, args.opponents, args.partner, args.hint, args.seed, not args.no_coach, args.players)


def cmd_actions(args: argparse.Namespace) -> int:
    print("| index | count | action |\n|---|---|---|")
    for index, count, text in A.layout_table():
        print(f"| {index} | {count} | {text} |")
    print(f"\n{A.NUM_ACTIONS} actions in all")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    print(json.dumps(_rules_from_args(args).to_dict(), indent=2))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="handfoot", description="Hand and Foot: engine, agents and RL lab")
    sub = parser.add_subparsers(dest="command", required=True)

    def add_rules_args(p: argparse.ArgumentParser, preset_default: str | None = "classic") -> None:
        p.add_argument("--preset", default=preset_default, help=f"one of {', '.join(PRESET_NAMES)}")
        p.add_argument("--players", type=int, default=None,
                       help="number of players (classic: 2-6; partnership: 4; house: 2, or 4 in two teams)")
        p.add_argument("--deals", type=int, default=None,
                       help="number of deals (classic, partnership: 1, 2 or 4; house: the cap, default 30)")

    p = sub.add_parser("demo", help="seeded games between scripted players, with a score table")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("game", help="play one game between scripted agents and save its record")
    add_rules_args(p)
    p.add_argument("--agents", default="greedy,random", help="comma-separated agent names, one per seat (cycled)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--record", help="write the game record (JSON) here")
    p.set_defaults(func=cmd_game)

    p = sub.add_parser("replay", help="replay a game record, printing the table turn by turn")
    p.add_argument("file")
    p.add_argument("--quiet", action="store_true", help="print only the actions and the score sheet")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("fuzz", help="random full games with every invariant checked at every step")
    add_rules_args(p, preset_default=None)
    p.add_argument("--engine", default="reference", choices=["reference", "vector"],
                   help="reference: invariants at every step; vector: compare with the reference")
    p.add_argument("--games", type=int, default=100, help="reference: games per configuration")
    p.add_argument("--steps", type=int, default=1_000_000, help="vector: compared steps in all")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_fuzz)

    p = sub.add_parser("bench", help="steps/s, games/s and peak memory of both engines")
    p.add_argument("--json", action="store_true", help="print a JSON list of rows")
    p.add_argument("--batches", default="1,64,1024,4096,16384")
    p.add_argument("--configs", default="classic:2,partnership:4,house:2,house:4", help="preset:players,...")
    p.add_argument("--seconds", type=float, default=3.0, help="timed seconds per row")
    p.add_argument("--no-reference", action="store_true", help="skip the reference engine rows")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("eval", help="duplicate-deal match between lineups (or a round robin), with intervals")
    add_rules_args(p)
    p.add_argument("--team", default="heuristic", help="agent of the first lineup")
    p.add_argument("--vs", default="greedy", help="agent of the other side(s)")
    p.add_argument("--pairs", type=int, default=200,
                   help="duplicate sets: each shuffled deal played once per side (a pair of games when two sides)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--round-robin", help="comma-separated agents: every pair plays; Elo table and crosstable")
    p.add_argument("--chart", help="with --round-robin: save a PNG chart of the ratings here")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("train", help="MaskablePPO self-play training with evaluation and checkpoints")
    p.add_argument("--config", help="YAML config (configs/quick.yaml, configs/full.yaml)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key")
    p.add_argument("--resume", action="store_true", help="continue the run from its last checkpoint")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("play", help="play against the agents in the terminal, with Hint and Coach")
    p.add_argument("--preset", default="classic", choices=list(PRESET_NAMES))
    p.add_argument("--players", type=int, default=None, help="classic: 2-6 players; house: 2, or 4 in teams")
    p.add_argument("--opponents", default="heuristic", help="agent for the other side(s): random, greedy, heuristic, ppo")
    p.add_argument("--partner", default="heuristic", help="partnership (or house with 4): your partner's agent")
    p.add_argument("--hint", default="heuristic", help="the agent behind Hint and Coach")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-coach", action="store_true")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("actions", help="print the action layout table")
    p.set_defaults(func=cmd_actions)

    p = sub.add_parser("rules", help="print the rules of a preset as JSON")
    add_rules_args(p)
    p.set_defaults(func=cmd_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (RecordError, ScenarioError, IllegalActionError, ValueError) as exc:
        print(f"handfoot: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
