"""Masked IPPO on Hand and Foot with TorchRL's own pieces: the batched multi-agent env
(``handfoot_env.envs.torchrl``), a ``Collector`` (TorchRL 0.14's name for SyncDataCollector), ``MaskedCategorical`` actors, ``GAE`` and
``ClipPPOLoss``.

    python examples/torchrl_ippo.py                      # partnership, 64 games, 20 iterations
    python examples/torchrl_ippo.py --iterations 3 --num-envs 16 --steps 32
    python examples/torchrl_ippo.py --preset classic --players 2 --save policy.pt   # then:
    handfoot benchmark py:examples/policy_agent.py:make:policy.pt    # (docs/benchmark.md)

Self-play: one policy and one critic serve every side (each agent reads its own seat-relative
view).  The game is turn-based, so at every step one agent per game acts (its group's ``"mask"``):
GAE runs over every step of every agent (rewards reach every seat of a side), and the PPO loss
sees only the agent-steps that acted.  Prints one line per iteration and a JSON summary at the end.
"""

from __future__ import annotations

import argparse
import json
import time

import torch
from tensordict import TensorDict
from tensordict.nn import TensorDictModule, TensorDictSequential
from torch import nn
from torchrl.collectors import Collector
from torchrl.modules import MaskedCategorical, ProbabilisticActor
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value import GAE

from handfoot_env import Rules
from handfoot_env.envs.torchrl import HandFootTorchRLEnv


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="partnership")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the preset's)")
    p.add_argument("--deals", type=int, default=None, help="deals per game (default: the preset's)")
    p.add_argument("--num-envs", type=int, default=64, help="games stepped together")
    p.add_argument("--steps", type=int, default=64, help="steps per game per iteration")
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--lmbda", type=float, default=0.95)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch threads (one is fastest on a busy machine)")
    p.add_argument("--save", default=None, help="save the trained policy here (examples/policy_agent.py plays it)")
    return p.parse_args()


def actor(policy_net: nn.Module, prefix: tuple) -> ProbabilisticActor:
    """A masked categorical actor on ``policy_net`` reading ``prefix + ("observation",)``."""
    logits = TensorDictModule(policy_net, in_keys=[(*prefix, "observation")], out_keys=[(*prefix, "logits")])
    return ProbabilisticActor(
        logits,
        in_keys={"logits": (*prefix, "logits"), "mask": (*prefix, "action_mask")},
        out_keys=[(*prefix, "action")],
        distribution_class=MaskedCategorical,
        return_log_prob=True,
        log_prob_key=(*prefix, "action_log_prob"),
    )


def main() -> None:
    args = parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    fields = {} if args.deals is None else {"num_deals": args.deals}
    rules = Rules.preset(args.preset, **fields, **({} if args.players is None else {"num_players": args.players}))
    env = HandFootTorchRLEnv(num_envs=args.num_envs, rules=rules, seed=args.seed)
    groups = list(env.group_map)
    observation_size = env.observation_spec[groups[0], "observation"].shape[-1]
    actions = env.full_action_spec[groups[0], "action"].space.n
    policy_net = nn.Sequential(
        nn.Linear(observation_size, 256), nn.Tanh(), nn.Linear(256, 256), nn.Tanh(), nn.Linear(256, actions)
    )
    value_net = nn.Sequential(nn.Linear(observation_size, 256), nn.Tanh(), nn.Linear(256, 1))
    start = [p.detach().clone() for p in policy_net.parameters()]

    # Collection: the shared networks act for every group.
    collector = Collector(
        env,
        TensorDictSequential(*[actor(policy_net, (g,)) for g in groups]),
        frames_per_batch=args.num_envs * args.steps,
        total_frames=args.num_envs * args.steps * args.iterations,
        auto_register_policy_transforms=False,  # a feed-forward policy needs no transforms
    )
    advantages = {}
    for g in groups:
        critic = TensorDictModule(value_net, in_keys=[(g, "observation")], out_keys=[(g, "state_value")])
        advantages[g] = GAE(gamma=args.gamma, lmbda=args.lmbda, value_network=critic, average_gae=False)
        advantages[g].set_keys(
            reward=(g, "reward"),
            done=(g, "done"),
            terminated=(g, "terminated"),
            value=(g, "state_value"),
            advantage=(g, "advantage"),
            value_target=(g, "value_target"),
        )
    # Learning: the same networks on flat agent-steps (plain keys).
    loss_module = ClipPPOLoss(
        actor(policy_net, ()),
        TensorDictModule(value_net, in_keys=["observation"], out_keys=["state_value"]),
        clip_epsilon=0.2,
        entropy_coeff=0.01,
        critic_coeff=0.5,
        normalize_advantage=True,
    )
    loss_module.set_keys(sample_log_prob="action_log_prob")
    optimizer = torch.optim.Adam(loss_module.parameters(), lr=args.lr)

    history, agent_steps, games = [], 0, 0
    started = time.perf_counter()
    for iteration, data in enumerate(collector, start=1):
        with torch.no_grad():
            for g in groups:
                advantages[g](data)
        # Only the agent to move acted: keep its agent-steps, flat.
        acted = TensorDict.cat(
            [
                data[g][data[g, "mask"]].select(
                    "observation", "action_mask", "action", "action_log_prob", "advantage", "value_target"
                )
                for g in groups
            ]
        )
        agent_steps += acted.batch_size[0]
        games += int(data["next", "done"].sum())
        for _ in range(args.epochs):
            for batch in acted[torch.randperm(len(acted))].split(max(1, len(acted) // args.minibatches)):
                losses = loss_module(batch)
                total = losses["loss_objective"] + losses["loss_critic"] + losses["loss_entropy"]
                optimizer.zero_grad()
                total.backward()
                nn.utils.clip_grad_norm_(loss_module.parameters(), 1.0)
                optimizer.step()
        row = {
            "iteration": iteration,
            "agent_steps": agent_steps,
            "games_finished": games,
            "loss_objective": losses["loss_objective"].item(),
            "loss_critic": losses["loss_critic"].item(),
            "entropy": losses["entropy"].item(),
        }
        history.append(row)
        print(" ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()), flush=True)
    collector.shutdown()
    change = sum(float((p.detach() - s).norm()) for p, s in zip(policy_net.parameters(), start, strict=True))
    summary = {
        "iterations": len(history),
        "agent_steps": agent_steps,
        "games_finished": games,
        "policy_change": change,
        "seconds": round(time.perf_counter() - started, 1),
        "history": history,
    }
    if args.save:  # the policy network (observations -> logits) and its table: py:examples/policy_agent.py:make:PATH
        torch.save({"module": policy_net, "rules": rules.to_dict(), "trained_by": "torchrl-ippo"}, args.save)
        summary["saved"] = args.save
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
