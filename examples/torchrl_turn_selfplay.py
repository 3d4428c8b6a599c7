"""Masked PPO self-play on Hand and Foot with TorchRL's own pieces on the turn-based batched env
(``handfoot_env.envs.torchrl_turn``, the player to move at the root): a ``Collector``, a
``MaskedCategorical`` actor, TorchRL's GAE function and ``ClipPPOLoss``.

    python examples/torchrl_turn_selfplay.py                      # partnership, 256 games, 20 iterations
    python examples/torchrl_turn_selfplay.py --iterations 3 --num-envs 16 --steps 32
    python examples/torchrl_turn_selfplay.py --preset classic --players 2 --save policy.pt   # then:
    handfoot benchmark py:examples/policy_agent.py:make:policy.pt    # (docs/benchmark.md)

One policy moves for whichever seat is to move (``"turn"``), reading that seat's view.  The sides'
rewards come in the same step (a deal ends on one seat's move and pays both sides), so the critic
predicts every side's return from the position (``[..., sides]``), GAE runs once per side over
every step, and each step's advantage is that of the side that moved.  Prints one line per
iteration and a JSON summary at the end, with the share of games side 0 wins against random
play (``--eval-games``; side 0 starts the first deal; a tie counts half) before and after training.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.collectors import Collector
from torchrl.modules import MaskedCategorical, ProbabilisticActor
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value.functional import generalized_advantage_estimate

from handfoot_env import Rules
from handfoot_env.envs.torchrl_turn import HandFootTurnEnv
from handfoot_env.seating.rewards import game_points


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="partnership")
    p.add_argument("--players", type=int, default=None, help="number of players (default: the preset's)")
    p.add_argument("--deals", type=int, default=None, help="deals per game (default: the preset's)")
    p.add_argument("--num-envs", type=int, default=256, help="games stepped together")
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
    p.add_argument("--eval-games", type=int, default=64, help="games against random play, before and after")
    return p.parse_args()


class SideCritic(nn.Module):
    """Every side's value from the mover's view and the mover's side (one-hot)."""

    def __init__(self, observation_size: int, seat_sides: torch.Tensor, sides: int):
        super().__init__()
        self.seat_sides, self.sides = seat_sides, sides
        self.net = nn.Sequential(nn.Linear(observation_size + sides, 256), nn.Tanh(), nn.Linear(256, sides))

    def forward(self, observation: torch.Tensor, turn: torch.Tensor) -> torch.Tensor:
        mover_side = nn.functional.one_hot(self.seat_sides[turn.squeeze(-1)], self.sides).to(observation.dtype)
        return self.net(torch.cat([observation, mover_side], dim=-1))


def share_won_against_random(policy_net: nn.Module, rules: Rules, games: int, seed: int) -> float:
    """Side 0 moves by the policy's most likely legal action, the other sides at random, until
    every game is over; the share of points side 0 takes (a win 1, a tie for the top 0.5)."""
    env = HandFootTurnEnv(num_envs=games, rules=rules, seed=seed)
    seat_sides = torch.as_tensor(env.seat_sides)
    generator = torch.Generator().manual_seed(seed)
    td, over = env.reset(), torch.zeros(games, dtype=torch.bool)
    while not over.all():  # a game that is over stays over (nothing restarts it here)
        mask = td["action_mask"]
        with torch.no_grad():
            best = policy_net(td["observation"]).masked_fill(~mask, -torch.inf).argmax(-1)
        anyone = torch.multinomial(mask.float(), 1, generator=generator).reshape(-1)
        td["action"] = torch.where(seat_sides[td["turn"].reshape(-1)] == 0, best, anyone)
        td = env.step(td)["next"]
        over |= td["done"].reshape(-1)
    return float(game_points(env.engine.final_totals, np.zeros(games, dtype=np.int64)).mean())


def main() -> None:
    args = parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    fields = {} if args.deals is None else {"num_deals": args.deals}
    rules = Rules.preset(args.preset, **fields, **({} if args.players is None else {"num_players": args.players}))
    env = HandFootTurnEnv(num_envs=args.num_envs, rules=rules, seed=args.seed)
    sides = env.side_names
    seat_sides = torch.as_tensor(env.seat_sides)
    observation_size = env.observation_spec["observation"].shape[-1]
    policy_net = nn.Sequential(
        nn.Linear(observation_size, 256), nn.Tanh(), nn.Linear(256, 256), nn.Tanh(), nn.Linear(256, env.action_spec.n)
    )
    value_net = SideCritic(observation_size, seat_sides, len(sides))
    start = [p.detach().clone() for p in policy_net.parameters()]
    untrained = share_won_against_random(policy_net, rules, args.eval_games, seed=10_000 + args.seed)
    actor = ProbabilisticActor(
        TensorDictModule(policy_net, in_keys=["observation"], out_keys=["logits"]),
        in_keys={"logits": "logits", "mask": "action_mask"},
        distribution_class=MaskedCategorical,
        return_log_prob=True,
        log_prob_key="action_log_prob",
    )
    collector = Collector(
        env,
        actor,
        frames_per_batch=args.num_envs * args.steps,
        total_frames=args.num_envs * args.steps * args.iterations,
        auto_register_policy_transforms=False,  # a feed-forward policy needs no transforms
    )
    loss_module = ClipPPOLoss(
        actor,
        TensorDictModule(value_net, in_keys=["observation", "turn"], out_keys=["state_value"]),
        clip_epsilon=0.2,
        entropy_coeff=0.01,
        critic_coeff=0.5,
        normalize_advantage=True,
    )
    loss_module.set_keys(sample_log_prob="action_log_prob")
    optimizer = torch.optim.Adam(loss_module.parameters(), lr=args.lr)

    history, steps, games = [], 0, 0
    started = time.perf_counter()
    for iteration, data in enumerate(collector, start=1):  # data: [games, steps]
        with torch.no_grad():
            reward = torch.cat([data["next", side, "reward"] for side in sides], dim=-1)  # [..., sides]
            done = data["next", "done"].expand_as(reward)
            advantage, value_target = generalized_advantage_estimate(
                args.gamma,
                args.lmbda,
                value_net(data["observation"], data["turn"]),
                value_net(data["next", "observation"], data["next", "turn"]),
                reward,
                done,
                data["next", "terminated"].expand_as(reward),
            )
        # Each step's advantage is that of the side that moved.
        mover_side = seat_sides[data["turn"]]  # [..., 1]
        data.set("advantage", advantage.gather(-1, mover_side))
        data.set("value_target", value_target)
        flat = data.select(
            "observation", "turn", "action_mask", "action", "action_log_prob", "advantage", "value_target"
        )
        flat = flat.reshape(-1)
        steps += flat.batch_size[0]
        games += int(data["next", "done"].sum())
        for _ in range(args.epochs):
            for batch in flat[torch.randperm(len(flat))].split(max(1, len(flat) // args.minibatches)):
                losses = loss_module(batch)
                total = losses["loss_objective"] + losses["loss_critic"] + losses["loss_entropy"]
                optimizer.zero_grad()
                total.backward()
                nn.utils.clip_grad_norm_(loss_module.parameters(), 1.0)
                optimizer.step()
        row = {
            "iteration": iteration,
            "steps": steps,
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
        "steps": steps,
        "games_finished": games,
        "policy_change": change,
        "seconds": round(time.perf_counter() - started, 1),
        "untrained_vs_random": untrained,
        "trained_vs_random": share_won_against_random(policy_net, rules, args.eval_games, seed=10_000 + args.seed),
        "history": history,
    }
    if args.save:  # the policy network (observations -> logits) and its table: py:examples/policy_agent.py:make:PATH
        torch.save({"module": policy_net, "rules": rules.to_dict(), "trained_by": "torchrl-selfplay"}, args.save)
        summary["saved"] = args.save
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
