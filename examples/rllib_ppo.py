"""PPO with RLlib (new API stack) on the lab's env (``handfoot_env.envs.rllib``: the PettingZoo
env and the masked PPO module), every seat sharing one policy, on a local Ray instance;
``--save`` keeps the checkpoint for the benchmark.

    python examples/rllib_ppo.py --iterations 20 --save ppo_checkpoint
    handfoot benchmark py:examples/rllib_agent.py:make:ppo_checkpoint   # (docs/benchmark.md)

Prints one line per iteration and a JSON summary at the end.
"""

import argparse
import json
import time
from pathlib import Path

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.tune.registry import register_env

from handfoot_env import Rules
from handfoot_env.envs.rllib import MaskedPPOTorchRLModule, rllib_env


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="classic")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--batch", type=int, default=4000, help="agent steps per iteration")
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray instance")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--save", default=None, help="save the checkpoint in this folder (examples/rllib_agent.py plays it)")
    return p.parse_args()


def main() -> None:
    args = parse_args()
    rules = Rules.preset(args.preset, num_players=args.players)
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    register_env("handfoot", rllib_env)
    config = (
        PPOConfig()
        .environment("handfoot", env_config={"preset": args.preset, "num_players": args.players})
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent, *rest, **kwargs: "shared")
        .rl_module(
            rl_module_spec=RLModuleSpec(
                module_class=MaskedPPOTorchRLModule, model_config={"fcnet_hiddens": [args.hidden, args.hidden]}
            )
        )
        .env_runners(num_env_runners=0)
        .training(train_batch_size_per_learner=args.batch, minibatch_size=min(args.batch, 500), num_epochs=2)
        .debugging(seed=args.seed)
    )
    algorithm = config.build_algo()
    started, history = time.perf_counter(), []
    try:
        for iteration in range(1, args.iterations + 1):
            learner = algorithm.train()["learners"]["shared"]
            row = {"iteration": iteration, "total_loss": float(learner["total_loss"])}
            history.append(row)
            print(f"iteration {iteration} total_loss {row['total_loss']:.4g}", flush=True)
        summary = {
            "iterations": args.iterations,
            "seconds": round(time.perf_counter() - started, 1),
            "history": history,
        }
        if args.save:  # the checkpoint, and the table it was trained for: py:examples/rllib_agent.py:make:FOLDER
            folder = Path(args.save).resolve()
            algorithm.save_to_path(str(folder))
            (folder / "handfoot_rules.json").write_text(json.dumps(rules.to_dict()))
            summary["saved"] = str(folder)
    finally:
        algorithm.stop()
        ray.shutdown()
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
