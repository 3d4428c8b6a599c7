"""The ``handfoot`` command line: its parser, and demo, game, replay, fuzz, play, serve,
warmup, actions and rules (bench, eval, tune and train are in ``lab_commands.py``).

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
from handfoot_lab.cli_common import require_positive, rules_from_args, writable_path
from handfoot_lab.lab_commands import cmd_bench, cmd_eval, cmd_train, cmd_tune

FUZZ_POLICIES = ("random", "greedy", "heuristic", "eager", "ppo", "mixed")  # handfoot_lab.fuzz.POLICIES


def play_game(rules: Rules, seed: int, agent_names: Sequence[str]):
    """One game with an agent per seat (names cycle over the seats), played at the table on
    the vector engine; returns the reference game replayed from its actions (for the score
    sheet and the record)."""
    from agents import make_agent
    from handfoot_env.reference import Game
    from handfoot_env.table import Table
    from handfoot_env.vector import VectorEngine

    engine = VectorEngine(rules, batch_size=1, seed=seed, auto_reset=False)
    table = Table(
        engine,
        [
            make_agent(agent_names[i % len(agent_names)], seed=seed * 101 + i, rules=rules)
            for i in range(rules.num_players)
        ],
    )
    table.seat([0], np.arange(rules.num_players))
    played: list[int] = []
    table.play(on_step=lambda outcome, stepped, actions: played.append(int(actions[0])))
    game = Game(rules, seed)
    for action in played:
        game.step(action)
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

    rules = rules_from_args(args)
    names = [name.strip() for name in args.agents.split(",")]
    if len(names) > rules.num_players:
        raise ValueError(f"--agents names {len(names)} agents for {rules.num_players} seats")
    if args.record:
        writable_path(args.record, "--record")
    game = play_game(rules, args.seed, names)
    print(render_scores(game))
    winners = game.winners()
    sides = "player" if not rules.partnerships else "team"
    names = ", ".join(
        f"{sides} {w} (seat{'s' if rules.partnerships else ''} {', '.join(map(str, rules.members_of(w)))})"
        for w in winners
    )
    print(("tie between " if len(winners) > 1 else "winner: ") + names + f"  ({len(game.actions)} actions)")
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


def _fuzz_one(job: tuple) -> dict:
    from handfoot_lab.fuzz import fuzz_reference, fuzz_vector

    engine, rules_dict, policy, size, seed, progress = job
    rules = Rules.from_dict(rules_dict)
    if engine == "reference":
        return fuzz_reference(rules, policy, games=size, seed=seed, progress=progress).to_dict()
    return fuzz_vector(rules, policy, steps=size, seed=seed, progress=progress).to_dict()


def cmd_fuzz(args: argparse.Namespace) -> int:
    """Whole games under a policy: invariants at every step (reference), or both engines compared (vector)."""
    from handfoot_lab.fuzz import CORNERS, default_configs

    require_positive(args, "games", "steps", "jobs")
    configs = [rules_from_args(args)] if args.preset or args.players or args.deals else default_configs()
    if args.policy == "ppo":
        from agents import make_agent

        make_agent("ppo")  # a clear error now rather than in every worker
    size = args.games if args.engine == "reference" else max(1, args.steps // len(configs))
    jobs = [
        (args.engine, rules.to_dict(), args.policy, size, args.seed, args.jobs == 1 and not args.json)
        for rules in configs
    ]
    if args.jobs == 1:
        reports = map(_fuzz_one, jobs)
    else:
        import multiprocessing as mp

        pool = mp.get_context("spawn").Pool(min(args.jobs, len(jobs)))
        reports = pool.imap(_fuzz_one, jobs)
    failed = False
    rows = []
    for report in reports:
        failed |= bool(report["divergences"] or report["dead_ends"] or report["invariant_failures"])
        rows.append(report)
        if args.json:
            print(json.dumps(report), flush=True)
            continue
        unit = "actions checked" if args.engine == "reference" else "steps compared"
        print(
            f"{report['preset']} {report['num_players']}p, {report['policy']}: {report['steps']:,} {unit}, "
            f"{report['games']:,} games, {report['divergences']} divergences, {report['dead_ends']} dead ends, "
            f"{report['invariant_failures']} invariant failures "
            f"({report['steps'] / max(report['seconds'], 1e-9):,.0f}/s)",
            flush=True,
        )
        for message in report["failures"]:
            print(f"  FAILURE: {message}", file=sys.stderr)
    if not args.json:
        names = [f"{r['preset']} {r['num_players']}p" for r in rows]
        print("\n| corner | " + " | ".join(names) + " |\n|---|" + "---|" * len(rows))
        for corner in CORNERS:
            print(f"| {corner} | " + " | ".join(f"{r['corners'][corner]:,}" for r in rows) + " |")
    return 1 if failed else 0


def cmd_play(args: argparse.Namespace) -> int:
    """A terminal game for one person against agents, with Hint and Coach."""
    from handfoot_lab.play import run_play

    return run_play(args.preset, args.opponents, args.partner, args.hint, args.seed, not args.no_coach, args.players)


def cmd_serve(args: argparse.Namespace) -> int:
    """The web table: play, watch agents, replay records in a browser."""
    from handfoot_lab.web.app import serve

    if not 0 < args.port < 65536:
        raise ValueError(f"--port must be from 1 to 65535, got {args.port}")
    serve(args.host, args.port)
    return 0


def cmd_warmup(args: argparse.Namespace) -> int:
    """Compile every kernel now (the engine's and the scripted baselines'), once per install."""
    from handfoot_env.baselines.compiled import compile_baselines
    from handfoot_env.kernel_cache import cache_folder, compile_once
    from handfoot_env.vector.engine import compile_engine

    compile_once("engine", compile_engine, "about a minute on 2 cores")
    compile_once("baselines", compile_baselines, "half a minute")
    print(f"kernels ready in {cache_folder()}")
    return 0


def cmd_actions(args: argparse.Namespace) -> int:
    print("| index | count | action |\n|---|---|---|")
    for index, count, text in A.layout_table():
        print(f"| {index} | {count} | {text} |")
    print(f"\n{A.NUM_ACTIONS} actions in all")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    print(json.dumps(rules_from_args(args).to_dict(), indent=2))
    return 0


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

    def add_rules_args(p: argparse.ArgumentParser, preset_default: str | None = "classic") -> None:
        p.add_argument("--preset", default=preset_default, help=f"one of {', '.join(PRESET_NAMES)}")
        p.add_argument(
            "--players",
            type=int,
            default=None,
            help="number of players (classic: 2-6; partnership: 4; house: 2, or 4 in two teams)",
        )
        p.add_argument(
            "--deals",
            type=int,
            default=None,
            help="number of deals (classic, partnership: 1, 2 or 4; house: the cap, default 30)",
        )

    p = sub.add_parser(
        "demo",
        help="seeded games between scripted players, with a score table",
        description="Seeded games between the scripted players in every preset (on the reference "
        "engine), with wins, mean totals and actions per second.",
    )
    p.add_argument("--games", type=int, default=20, help="games per lineup")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser(
        "game",
        help="play one game between agents and save its record",
        description="One game between named agents (one per seat, cycled): the score sheet, the "
        "winner, and optionally a record that 'handfoot replay' plays back exactly.",
    )
    add_rules_args(p)
    p.add_argument("--agents", default="greedy,random", help="comma-separated agent names, one per seat (cycled)")
    p.add_argument("--seed", type=int, default=0, help="the game's seed: the same seed deals the same cards")
    p.add_argument("--record", help="write the game record (JSON) here")
    p.set_defaults(func=cmd_game)

    p = sub.add_parser(
        "replay",
        help="replay a game record, printing the table turn by turn",
        description="Check a record whole (every action legal, the stored result reproduced), then "
        "print the table turn by turn and the score sheet.",
    )
    p.add_argument("file", help="a record written by 'handfoot game --record'")
    p.add_argument("--quiet", action="store_true", help="print only the actions and the score sheet")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "fuzz",
        help="whole games under a policy, every check at every step",
        description="Whole games under a policy that seeks the rules' corners. reference: every invariant "
        "after every action; vector: both engines side by side, everything compared. Prints a "
        "line per configuration and a table of the rare situations met; exit status 1 on any "
        "divergence, dead end or invariant failure.",
    )
    add_rules_args(p, preset_default=None)
    p.add_argument(
        "--engine",
        default="reference",
        choices=["reference", "vector"],
        help="reference: invariants at every step; vector: compare with the reference",
    )
    p.add_argument(
        "--policy",
        default="random",
        choices=list(FUZZ_POLICIES),
        help="who plays: a baseline, eager (melds everything at once, races to the foot), "
        "ppo (the shipped agent) or mixed (a policy per seat per game)",
    )
    p.add_argument("--games", type=int, default=20, help="reference: games per configuration")
    p.add_argument("--steps", type=int, default=200_000, help="vector: compared steps in all configurations")
    p.add_argument("--jobs", type=int, default=1, help="configurations run in parallel processes")
    p.add_argument("--seed", type=int, default=0, help="first game seed")
    p.add_argument("--json", action="store_true", help="one JSON object per configuration, one per line")
    p.set_defaults(func=cmd_fuzz)

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
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser(
        "eval",
        help="duplicate-deal match between lineups (or a round robin), with intervals",
        description="Duplicate deals: every shuffled deal is played once with each lineup on each "
        "side, so both get the same cards; win rate and score difference with 95% "
        "intervals over the duplicate sets. --round-robin plays every pair and rates them.",
    )
    add_rules_args(p)
    p.add_argument("--team", default="heuristic", help="agent of the first lineup")
    p.add_argument("--vs", default="greedy", help="agent of the other side(s)")
    p.add_argument(
        "--pairs",
        type=int,
        default=200,
        help="duplicate sets: each shuffled deal played once per side (a pair of games when two sides)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the first duplicate set")
    p.add_argument("--round-robin", help="comma-separated agents: every pair plays; Elo table and crosstable")
    p.add_argument("--chart", help="with --round-robin: save a PNG chart of the ratings here")
    p.add_argument("--records", help="save every game's record in this folder (for handfoot replay and serve)")
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="spread the games over a Ray cluster: alone, one started on this machine; 'auto' the one "
        "'ray start' runs here; HOST:PORT a head node (same results as without --ray)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser(
        "train",
        help="self-play PPO training with a warm start, evaluations and checkpoints",
        description="Train an agent with a YAML config (configs/quick.yaml, full.yaml, classic.yaml, "
        "house.yaml): warm start, PPO against a league, duplicate evaluations, "
        "checkpoints; Ctrl-C saves, --resume continues. Prints the final evaluation.",
    )
    p.add_argument("--config", help="YAML config (configs/quick.yaml, configs/full.yaml)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key")
    p.add_argument("--resume", action="store_true", help="continue the run from its last checkpoint")
    p.set_defaults(func=cmd_train)

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
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="play each generation's matches on a Ray cluster, as eval --ray does (same result)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_tune)

    p = sub.add_parser(
        "play",
        help="play against the agents in the terminal, with Hint and Coach",
        description="A game for one person at seat 0 against agents, in the terminal or over a pipe: "
        "type ? for the commands, h for a hint; the Coach notes the tips you broke.",
    )
    p.add_argument("--preset", default="classic", choices=list(PRESET_NAMES), help="the rules to play")
    p.add_argument("--players", type=int, default=None, help="classic: 2-6 players; house: 2, or 4 in teams")
    p.add_argument(
        "--opponents",
        default="heuristic",
        help="agent for the other side(s): random, greedy, heuristic, tuned, ppo (or ppo:PATH, tuned:PATH)",
    )
    p.add_argument(
        "--partner", default=None, help="partnership (or house with 4): your partner's agent (default heuristic)"
    )
    p.add_argument(
        "--hint",
        default="heuristic",
        help="the agent behind Hint and Coach: random, greedy, heuristic, tuned, ppo, ppo:PATH or tuned:PATH",
    )
    p.add_argument("--seed", type=int, default=0, help="the game's seed: the same seed deals the same cards")
    p.add_argument("--no-coach", action="store_true", help="no Coach notes after your turns")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "serve",
        help="play, watch agents and replay records in the browser",
        description="A local web app: play any preset against the agents (with Hint, the Coach and "
        "the score sheet), watch agents play each other, step through a record. "
        "Open the printed address in a browser; Ctrl-C stops it.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port to listen on")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser(
        "warmup",
        help="compile the kernels now (otherwise the first use does, with a message)",
        description="Compile every compiled kernel (the engines' and the scripted baselines') into "
        "the cache, once per install or source change; later starts load them in "
        "well under a second.",
    )
    p.set_defaults(func=cmd_warmup)

    p = sub.add_parser(
        "actions",
        help="print the action layout table",
        description="The 173 actions every preset shares, by index range.",
    )
    p.set_defaults(func=cmd_actions)

    p = sub.add_parser(
        "rules",
        help="print the rules of a preset as JSON",
        description="Every field of a preset's rules (with --players and --deals applied), as JSON; "
        "docs/rules.md explains them.",
    )
    add_rules_args(p)
    p.set_defaults(func=cmd_rules)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version, or bad arguments (one line, status 2)
        return exc.code if isinstance(exc.code, int) else 0
    try:
        if getattr(args, "seed", None) is not None and args.seed < 0:
            raise ValueError(f"--seed must be a non-negative integer, got {args.seed}")
        return args.func(args)
    except (RecordError, ScenarioError, IllegalActionError, ValueError) as exc:
        print(f"handfoot: error: {exc}", file=sys.stderr)
        return 2
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
