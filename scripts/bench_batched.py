"""The batched envs against the raw engine, side by side in one run: random masked play at N games,
the observations and the legal masks handed to the player every step.

    python scripts/bench_batched.py                       # 1,024 partnership games, 3 s a row, 3 rounds
    python scripts/bench_batched.py --num-envs 256 --seconds 2 --rounds 5 --threads 2

Rows (each in a fresh process, the rounds interleaved so that a changing load hits every row alike):

* ``engine``: ``VectorEngine`` — legal masks, the mover's observations, a random legal action, a step;
  every step is one decision in each game (the "raw engine steps/s" the other rows are measured against).
* ``gym-vector``: ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` against the
  random opponent, the learner's random legal action from ``infos["action_mask"]``; a step is one
  learner decision per game and carries the opponents' moves (``gym-vector-same-step``: SAME_STEP).
* ``torchrl``: ``HandFootTorchRLEnv`` through ``step_and_maybe_reset`` (TorchRL's rollout step), every
  agent's view every step; ``torchrl-mover``: ``observe="mover"``.  Every seat is a learner, so a step
  is one learner decision per game; the random player draws the action of the agent to move (its
  ``"mask"``), as the engine row draws one per game, not one for every agent.
  ``torchrl-vs-random``: ``observe="mover"`` with ``opponent="random"`` built in (as the
  ``gym-vector`` row): the learner's side is the one group, and a step is one learner decision per
  game that carries the opponents' moves.
  ``torchrl-mover-merge`` (not run by default): ``observe="mover"`` restarting ended games TorchRL's
  own way (``EnvBase.maybe_reset``: a partial reset merged into every row with ``torch.where``),
  to show what the env's own ``maybe_reset`` saves.
* ``torchrl-turn``: ``HandFootTurnEnv`` (the player to move at the root, as TorchRL's
  ``TicTacToeEnv``) through ``step_and_maybe_reset``; a step is one decision per game, made by
  one policy for every seat (self-play).

Every row first plays ``--warmup`` steps (default 1,100, about a random partnership game) and
counts the steps and games ended while timed.  Games dealt together end together (random games
last 988-1,208 decisions), so a short run from a fresh deal would time no game ending at all and
no reset; a run goes on for hours with about one game ending a step at 1,024 games.  The engine
and TorchRL rows therefore restart a tenth of their games at each tenth of the warm-up (the
engine's ``reset_games``, TorchRL's partial ``reset`` with ``"_reset"`` flags), so that their games
are of every age when timing starts; the Gymnasium rows, whose learner steps each carry about
four decisions, play the warm-up through, four games' lengths.

Prints one JSON row per row and round, then a table of the medians with each row's share of the
engine's: steps per wall-clock second, and steps per second of the row's own CPU time (on a machine
shared with other jobs the wall-clock rate swings with the share of a core a row happens to get;
the CPU-time rate is what a step costs).  ``--threads`` sets numba's and torch's threads in every
row (1 is fastest on a busy 2-core machine, and makes the CPU time one thread's).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROWS = (
    "engine",
    "gym-vector",
    "gym-vector-same-step",
    "torchrl",
    "torchrl-mover",
    "torchrl-vs-random",
    "torchrl-mover-merge",
    "torchrl-turn",
)
DEFAULT_ROWS = (*ROWS[:6], "torchrl-turn")
PRESET = "partnership"


def timed(step, seconds: float, per_step: int, warmup: int, restart=None) -> dict:
    """Steps/s of ``step()`` (which returns the number of games that ended) over ``seconds``, after
    ``warmup`` steps: per wall-clock second, and per second of this process's CPU time (what the
    steps cost, whatever share of a busy machine the process got).  ``restart(part)``, where given,
    restarts the games of ``part`` (a tenth of them) at each tenth of the warm-up."""
    every = max(warmup // 10, 1)
    for i in range(warmup):
        if restart is not None and i % every == 0 and i // every < 10:
            restart(i // every)
        step()
    steps, ended, start, cpu_start = 0, 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        ended += step()
        steps += per_step
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return {"steps_per_sec": steps / wall, "steps_per_cpu_sec": steps / cpu, "steps": steps, "games_ended": ended}


def tenth(n: int, part: int) -> np.ndarray:
    """The games of the ``part``-th tenth of ``n`` (every tenth game, from ``part``)."""
    return np.arange(part % 10, n, 10)


def legal_random(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per row; action 0 in a row without one (a game that just ended)."""
    from handfoot_env.vector.sampling import random_legal_actions

    masks = masks.astype(bool, copy=False)
    empty = ~masks.any(axis=1)
    if empty.any():
        masks = masks.copy()
        masks[empty, 0] = True
    return random_legal_actions(masks, rng)


def engine_row(n: int, seconds: float, warmup: int) -> dict:
    from handfoot_env import Rules
    from handfoot_env.vector import VectorEngine

    engine = VectorEngine(Rules.preset(PRESET), batch_size=n, seed=0)
    rng = np.random.default_rng(0)

    def step() -> int:
        masks = engine.legal_mask()
        engine.observe()
        return int(engine.step(legal_random(masks, rng)).game_over.sum())  # (restarted by the engine)

    return timed(step, seconds, n, warmup, lambda part: engine.reset_games(tenth(n, part)))


def gym_row(n: int, seconds: float, mode: str, warmup: int) -> dict:
    import gymnasium

    import handfoot_env

    envs = gymnasium.make_vec(
        handfoot_env.GYMNASIUM_ID,
        num_envs=n,
        vectorization_mode="vector_entry_point",
        preset=PRESET,
        opponent="random",
        autoreset_mode=mode,
    )
    rng = np.random.default_rng(0)
    state = {"infos": envs.reset(seed=0)[1]}
    engine = envs.unwrapped.engine
    computed = {"masks": 0}
    legal_mask = engine.legal_mask

    def counted_mask(rows=None):
        computed["masks"] += n if rows is None else len(rows)
        return legal_mask() if rows is None else legal_mask(rows=rows)

    engine.legal_mask = counted_mask  # how many games' masks a learner step computes

    def step() -> int:
        observations, _, terminated, truncated, infos = envs.step(legal_random(state["infos"]["action_mask"], rng))
        assert observations.shape[0] == n
        state["infos"] = infos
        return int((terminated | truncated).sum())

    result = timed(step, seconds, n, warmup)
    # Legal masks computed per learner step, in whole batches: the learner's, plus one per opponent move.
    result["masks_per_step"] = round(computed["masks"] / (result["steps"] + warmup * n), 2)
    return result


def torchrl_restart(env, state: dict, n: int):
    """A warm-up's restart for a TorchRL env: TorchRL's partial ``reset`` (``"_reset"`` flags) of
    the ``part``-th tenth of the games, into ``state["td"]``."""
    import torch

    def restart(part: int) -> None:
        flags = torch.zeros((n, 1), dtype=torch.bool)
        flags[torch.from_numpy(tenth(n, part))] = True
        state["td"] = env.reset(state["td"].set("_reset", flags))

    return restart


def torchrl_row(
    n: int, seconds: float, observe: str, warmup: int, merge: bool = False, opponent: str | None = None
) -> dict:
    import torch

    from handfoot_env.envs.torchrl import HandFootTorchRLEnv

    env = HandFootTorchRLEnv(num_envs=n, preset=PRESET, observe=observe, opponent=opponent)
    if merge:
        from torchrl.envs import EnvBase

        env.maybe_reset = lambda td: EnvBase.maybe_reset(env, td)  # TorchRL's own restart
    rng = np.random.default_rng(0)
    state = {"td": env.reset()}

    def step() -> int:
        # The random player decides for the agents to move (one per game, as in the engine row);
        # the others' actions are ignored by the env and stay 0.
        td = state["td"]
        for group, agents in env.group_map.items():
            masks = td[group, "action_mask"].numpy().reshape(n * len(agents), -1)
            movers = np.flatnonzero(td[group, "mask"].numpy())
            assert td[group, "observation"].shape[:2] == (n, len(agents))
            actions = np.zeros(n * len(agents), dtype=np.int64)
            actions[movers] = legal_random(masks[movers], rng)
            td[group, "action"] = torch.from_numpy(actions.reshape(n, len(agents)))
        transition, state["td"] = env.step_and_maybe_reset(td)  # (TorchRL's collector step)
        return int(transition["next", "done"].sum())

    return timed(step, seconds, n, warmup, torchrl_restart(env, state, n))


def torchrl_turn_row(n: int, seconds: float, warmup: int) -> dict:
    import torch

    from handfoot_env.envs.torchrl_turn import HandFootTurnEnv

    env = HandFootTurnEnv(num_envs=n, preset=PRESET)
    rng = np.random.default_rng(0)
    state = {"td": env.reset()}

    def step() -> int:
        td = state["td"]
        td["action"] = torch.from_numpy(legal_random(td["action_mask"].numpy(), rng))
        transition, state["td"] = env.step_and_maybe_reset(td)  # (TorchRL's collector step)
        return int(transition["next", "done"].sum())

    return timed(step, seconds, n, warmup, torchrl_restart(env, state, n))


def run_row(row: str, n: int, seconds: float, threads: int, warmup: int) -> dict:
    import numba
    import torch

    numba.set_num_threads(threads)
    torch.set_num_threads(threads)
    if row == "engine":
        result = engine_row(n, seconds, warmup)
    elif row == "torchrl-turn":
        result = torchrl_turn_row(n, seconds, warmup)
    elif row.startswith("gym-vector"):
        result = gym_row(n, seconds, "SameStep" if row.endswith("same-step") else "NextStep", warmup)
    else:
        observe = "mover" if "mover" in row or row.endswith("vs-random") else "all"
        opponent = "random" if row.endswith("vs-random") else None
        result = torchrl_row(n, seconds, observe, warmup, merge=row.endswith("merge"), opponent=opponent)
    return {"row": row, "num_envs": n, "threads": threads, "warmup": warmup, **result}


def main() -> int:
    p = argparse.ArgumentParser(description="The batched envs against the raw engine, side by side.")
    p.add_argument("--num-envs", type=int, default=1024)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--warmup", type=int, default=1100, help="steps played before timing (0: time a fresh deal)")
    p.add_argument("--rows", default=",".join(DEFAULT_ROWS), help=f"comma-separated, from {', '.join(ROWS)}")
    p.add_argument("--row", help=argparse.SUPPRESS)  # one row, in a child process
    args = p.parse_args()
    if args.warmup < 0:
        print("bench_batched: --warmup must be zero or a positive integer", file=sys.stderr)
        return 2
    for name in ("num_envs", "rounds", "threads"):
        if getattr(args, name) < 1:
            print(f"bench_batched: --{name.replace('_', '-')} must be a positive integer", file=sys.stderr)
            return 2
    if not args.seconds > 0:
        print("bench_batched: --seconds must be positive", file=sys.stderr)
        return 2
    if args.row:
        print(json.dumps(run_row(args.row, args.num_envs, args.seconds, args.threads, args.warmup)))
        return 0
    rows = [r.strip() for r in args.rows.split(",")]
    unknown = [r for r in rows if r not in ROWS]
    if unknown:
        print(f"bench_batched: unknown rows {', '.join(unknown)}; choose from {', '.join(ROWS)}", file=sys.stderr)
        return 2
    results: dict[str, list[dict]] = {r: [] for r in rows}
    for _ in range(args.rounds):
        for row in rows:
            command = [sys.executable, str(Path(__file__).resolve()), "--row", row]
            command += [
                "--num-envs",
                str(args.num_envs),
                "--seconds",
                str(args.seconds),
                "--threads",
                str(args.threads),
                "--warmup",
                str(args.warmup),
            ]
            out = subprocess.run(command, capture_output=True, text=True, check=False)
            if out.returncode != 0:
                print(f"bench_batched: row {row} failed:\n{out.stderr[-2000:]}", file=sys.stderr)
                return 1
            result = json.loads(out.stdout.strip().splitlines()[-1])
            print(json.dumps(result), flush=True)
            results[row].append(result)
    print(
        f"\n{PRESET}, {args.num_envs} games, {args.threads} thread(s), median of {args.rounds} rounds of "
        f"{args.seconds} s after {args.warmup} steps"
    )
    print(
        "| row | learner steps/s (median) | runs | vs engine | steps per CPU-second (median) | vs engine "
        "| games ended a step |\n|---|---|---|---|---|---|---|"
    )
    for r in rows:
        cells = [f"| {r} "]
        for key in ("steps_per_sec", "steps_per_cpu_sec"):
            median = statistics.median(x[key] for x in results[r])
            base = statistics.median(x[key] for x in results["engine"]) if "engine" in results else None
            if key == "steps_per_sec":
                cells.append(f"| {median:,.0f} | {', '.join(f'{x[key]:,.0f}' for x in results[r])} ")
            else:
                cells.append(f"| {median:,.0f} ")
            cells.append(f"| {median / base:.2f} " if base else "| ")
        ended = statistics.median(x["games_ended"] * x["num_envs"] / x["steps"] for x in results[r])
        print("".join(cells) + f"| {ended:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
