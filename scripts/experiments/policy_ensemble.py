"""Does averaging the logits of independently trained policies beat each of them?

Each model file is a ``ppo`` policy of one preset (the residual runs share the prior, so the
average of their logits is the prior plus the average of their residuals).  The ensemble plays
the argmax of the averaged masked logits; every model, and then the ensemble, plays a duplicate
match against ``tuned`` on the same deals.

    .venv/bin/python scripts/experiments/policy_ensemble.py --pairs 1000 --seed 5000000 \
        agents/models/ppo_partnership.pt runs/A/best.pt runs/B/best.pt
"""

from __future__ import annotations

import argparse

import numpy as np
import torch

from agents import make_agent
from agents.evaluation.matches import play_match
from agents.policy import Policy
from agents.trained import PPOAgent, torch_threads
from handfoot_env.rules import Rules


class EnsembleAgent:
    """The argmax of the mean of several policies' masked logits."""

    name = "ensemble"

    def __init__(self, policies: list[Policy], rules: Rules):
        self.policies, self.rules = policies, rules

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks, dtype=bool)
        legal = torch.as_tensor(masks)
        total = torch.zeros(masks.shape)
        with torch_threads(1), torch.no_grad():
            for policy in self.policies:
                x = torch.as_tensor(policy.inputs(observations, masks, self.rules))
                total += policy.logits(x, legal).masked_fill(~legal, 0.0)
        return total.masked_fill(~legal, -torch.inf).argmax(-1).numpy().astype(np.int64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+")
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=5_000_000, help="first deal (no run selects on these)")
    args = parser.parse_args()
    loaded = [Policy.load(path) for path in args.models]
    rules = loaded[0][1]
    policies = [policy for policy, _, _ in loaded]
    players = [(path, PPOAgent(policy, rules)) for path, policy in zip(args.models, policies)]
    if len(policies) > 1:
        players.append((f"ensemble of {len(policies)}", EnsembleAgent(policies, rules)))
    for label, agent in players:
        tuned = make_agent("tuned", seed=args.seed, rules=rules)
        result = play_match(rules, agent, tuned, args.pairs, seed=args.seed, progress=False)
        low, high = result.ci95
        print(f"{label}: {100 * result.win_rate:.1f}% ({100 * low:.1f}-{100 * high:.1f}) vs tuned", flush=True)


if __name__ == "__main__":
    main()
