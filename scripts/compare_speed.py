"""One row of the speed comparison: random legal play with the observation and the legal
actions read at every step, the way an agent plays.  Prints one JSON object.

    python scripts/compare_speed.py handfoot-aec          # handfoot_v0.env(), partnership
    python scripts/compare_speed.py handfoot-vector 1024  # the vector engine at a batch size
    python scripts/compare_speed.py openspiel-gin-rummy   # OpenSpiel's C++ gin_rummy (pyspiel)
    python scripts/compare_speed.py pettingzoo-gin-rummy  # PettingZoo's gin_rummy_v4 (1.24.3 + rlcard)

``scripts/compare_speed.sh`` runs every row (the references from a scratch venv) and prints
the table.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

SECONDS = 5.0


def aec_random_play(env) -> float:
    """Steps/s of random legal play on a PettingZoo AEC env, games restarted as they end."""
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
            if steps % 500 == 0 and time.perf_counter() - start > SECONDS:
                break
        else:
            env.reset()
    return steps / (time.perf_counter() - start)


def handfoot_aec() -> float:
    from handfoot_env import handfoot_v0

    return aec_random_play(handfoot_v0.env(preset="partnership"))


def handfoot_vector(batch: int) -> float:
    from handfoot_env import Rules
    from handfoot_env.vector import VectorEngine
    from handfoot_env.vector.sampling import random_legal_actions

    engine = VectorEngine(Rules.preset("partnership"), batch_size=batch, seed=0)
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        engine.observe()
        engine.step(random_legal_actions(engine.legal_mask(), rng))
        steps += batch
    return steps / (time.perf_counter() - start)


def openspiel_gin_rummy() -> float:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    state = game.new_initial_state()
    while time.perf_counter() - start < SECONDS:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
            continue
        state.observation_tensor(state.current_player())
        state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
    return steps / (time.perf_counter() - start)


def pettingzoo_gin_rummy() -> float:
    from pettingzoo.classic import gin_rummy_v4

    return aec_random_play(gin_rummy_v4.env())


def main() -> None:
    what = sys.argv[1]
    runs = {
        "handfoot-aec": handfoot_aec,
        "openspiel-gin-rummy": openspiel_gin_rummy,
        "pettingzoo-gin-rummy": pettingzoo_gin_rummy,
        "handfoot-vector": lambda: handfoot_vector(int(sys.argv[2])),
    }
    run = runs[what]
    run() if what == "handfoot-vector" else None  # the vector rows warm their kernels first
    rates = sorted(run() for _ in range(3))
    row = {
        "what": what,
        "batch": int(sys.argv[2]) if what == "handfoot-vector" else 1,
        "steps_per_sec": rates[1],
        "runs": rates,
    }
    print(json.dumps(row))


if __name__ == "__main__":
    main()
