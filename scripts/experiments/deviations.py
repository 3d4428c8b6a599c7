"""Where does a residual policy leave its advisor's move, and do its surest deviations carry the gain?

For each model (a ``ppo`` policy with an advisor, e.g. the residual runs'), a duplicate match
against ``tuned`` in which the policy plays its argmax except where the argmax beats the
advisor's move by less than ``margin`` in logits (margin 0: the plain argmax).  Printed per model
and margin: the win rate, and how often the move played differs from the advisor's, in all and
per kind of action.

    .venv/bin/python scripts/experiments/deviations.py --pairs 500 --margins 0,1,2,4 \
        agents/models/ppo_partnership.pt runs/A/best.pt
"""

from __future__ import annotations

import argparse
import collections

import numpy as np
import torch

from agents import make_agent
from agents.evaluation.matches import play_match
from agents.policy import Policy
from agents.trained import PPOAgent, torch_threads
from handfoot_env import actions as A


class MarginAgent(PPOAgent):
    """The policy's argmax where it beats the advisor's move by ``margin`` logits, else the
    advisor's move; counts the moves that differ from the advisor's, per kind."""

    def __init__(self, policy: Policy, rules, margin: float):
        super().__init__(policy, rules)
        self.margin = margin
        self.decisions: collections.Counter[str] = collections.Counter()
        self.deviations: collections.Counter[str] = collections.Counter()

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks, dtype=bool)
        x = self.policy.inputs(observations, masks, self.rules)
        with torch_threads(1), torch.no_grad():
            logits = self.policy.logits(torch.as_tensor(x), torch.as_tensor(masks)).numpy()
        advised = x[:, -A.NUM_ACTIONS :].argmax(1)  # the advisor's move: the inputs' last block, one-hot
        best = logits.argmax(1)
        rows = np.arange(len(logits))
        played = np.where(logits[rows, best] - logits[rows, advised] >= self.margin, best, advised)
        for advice, move in zip(advised, played, strict=True):
            kind = A.decode(int(advice)).kind
            self.decisions[kind] += 1
            self.deviations[kind] += int(advice != move)
        return played.astype(np.int64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+")
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=5_000_000, help="first deal (no run selects on these)")
    parser.add_argument("--margins", default="0", help="comma-separated logit margins")
    args = parser.parse_args()
    for path in args.models:
        policy, rules, _ = Policy.load(path)
        if not policy.advisor:
            raise SystemExit(f"{path}: the policy has no advisor to deviate from")
        for margin in (float(m) for m in args.margins.split(",")):
            agent = MarginAgent(policy, rules, margin)
            tuned = make_agent("tuned", seed=args.seed, rules=rules)
            result = play_match(rules, agent, tuned, args.pairs, seed=args.seed, progress=False)
            total, left = sum(agent.decisions.values()), sum(agent.deviations.values())
            kinds = ", ".join(
                f"{k} {agent.deviations[k]}/{agent.decisions[k]}" for k in agent.decisions if agent.deviations[k]
            )
            low, high = result.ci95
            print(
                f"{path} margin {margin:g}: {100 * result.win_rate:.1f}% ({100 * low:.1f}-{100 * high:.1f}) vs tuned; "
                f"left the advisor on {left}/{total} decisions ({100 * left / max(total, 1):.2f}%): {kinds}",
                flush=True,
            )


if __name__ == "__main__":
    main()
