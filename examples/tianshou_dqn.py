"""DQN for one seat with tianshou 2.0, unchanged, on the lab's PettingZoo env (tianshou's
``PettingZooEnv`` wrapper, a ``Collector``), the other seats played at random among the legal
actions; ``--save`` keeps the seat's policy for the benchmark.

    python examples/tianshou_dqn.py --epochs 20 --save dqn.pt
    handfoot benchmark py:examples/tianshou_agent.py:make:dqn.pt      # (docs/benchmark.md)

Prints one line per epoch and a JSON summary at the end.
"""

import argparse
import json
import time

import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.algorithm_base import policy_within_training_step
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.utils.net.common import Net

from handfoot_env import Rules, handfoot_v0


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="classic")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--deals", type=int, default=1, help="deals per game (0: the preset's; one keeps games short)")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--episodes", type=int, default=4, help="games collected per epoch")
    p.add_argument("--updates", type=int, default=20, help="gradient steps per epoch")
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--save", default=None, help="save the trained seat's policy here (examples/tianshou_agent.py plays it)"
    )
    return p.parse_args()


def main() -> None:
    args = parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rules = Rules.preset(args.preset, num_players=args.players, **({"num_deals": args.deals} if args.deals else {}))

    def make():
        return PettingZooEnv(handfoot_v0.env(rules=rules))

    env = make()
    net = Net(
        state_shape=env.observation_space["observation"].shape,
        action_shape=env.action_space.n,
        hidden_sizes=[args.hidden, args.hidden],
    )
    learner = DQN(
        policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.1),
        optim=AdamOptimizerFactory(lr=1e-3),
        n_step_return_horizon=1,
        gamma=0.99,
        target_update_freq=100,
    )
    others = [
        MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in range(args.players - 1)
    ]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, *others], env=env)
    envs = DummyVectorEnv([make, make])
    envs.seed(args.seed)
    collector = Collector[CollectStats](algorithm, envs, VectorReplayBuffer(50_000, len(envs)), exploration_noise=True)
    collector.reset()
    started, history = time.perf_counter(), []
    for epoch in range(1, args.epochs + 1):
        stats = collector.collect(n_episode=args.episodes)
        with policy_within_training_step(algorithm.policy):
            for _ in range(args.updates):
                losses = algorithm.update(sample_size=args.batch, buffer=collector.buffer)
        row = {
            "epoch": epoch,
            "steps": int(stats.n_collected_steps),
            "loss": float(next(iter(losses.get_loss_stats_dict().values()))),
        }
        history.append(row)
        print(" ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()), flush=True)
    summary = {"epochs": args.epochs, "seconds": round(time.perf_counter() - started, 1), "history": history}
    if args.save:  # the seat's policy and its table: py:examples/tianshou_agent.py:make:PATH
        torch.save({"policy": learner.policy, "rules": rules.to_dict()}, args.save)
        summary["saved"] = args.save
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
