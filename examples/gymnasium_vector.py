"""N games at once through Gymnasium's own API: ``gymnasium.make_vec`` on the vector engine, masks in
``infos["action_mask"]``, Gymnasium's ``RecordEpisodeStatistics`` counting the games.

    python examples/gymnasium_vector.py                    # 1,024 partnership games, random masked play
    python examples/gymnasium_vector.py --num-envs 64 --opponent heuristic --games 200

The learner here plays uniformly among its legal actions; put a policy in ``act``.  Next-step
autoreset (Gymnasium's default): after a game ends, the next step's action for it is ignored and a
new game starts, so the mask of an ended game is all zeros.
"""

import argparse
import json
import time

import gymnasium as gym
import numpy as np

import handfoot_env


def act(observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per game (action 0 where the game has just ended)."""
    legal = masks.astype(bool)
    counts = legal.sum(axis=1)
    picks = np.floor(rng.random(len(legal)) * counts).astype(np.int64)
    chosen = np.argmax(legal & (np.cumsum(legal, axis=1) - 1 == picks[:, None]), axis=1)
    return np.where(counts > 0, chosen, 0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--num-envs", type=int, default=1024)
    p.add_argument("--preset", default="partnership")
    p.add_argument("--opponent", default="random", help="random, greedy or heuristic")
    p.add_argument("--games", type=int, default=100, help="stop after this many finished games")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    envs = gym.make_vec(
        handfoot_env.GYMNASIUM_ID,
        num_envs=args.num_envs,
        vectorization_mode="vector_entry_point",
        preset=args.preset,
        opponent=args.opponent,
    )
    envs = gym.wrappers.vector.RecordEpisodeStatistics(envs)
    rng = np.random.default_rng(args.seed)
    observations, infos = envs.reset(seed=args.seed)
    returns, lengths, steps = [], [], 0
    started = time.perf_counter()
    while len(returns) < args.games:
        observations, _, _, _, infos = envs.step(act(observations, infos["action_mask"], rng))
        steps += args.num_envs
        if "episode" in infos:
            ended = infos["_episode"]
            returns += infos["episode"]["r"][ended].tolist()
            lengths += infos["episode"]["l"][ended].tolist()
    seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "games": len(returns),
                "mean_return": float(np.mean(returns)),
                "mean_length": float(np.mean(lengths)),
                "learner_steps": steps,
                "learner_steps_per_sec": round(steps / seconds),
            }
        )
    )


if __name__ == "__main__":
    main()
