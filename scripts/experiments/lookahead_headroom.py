"""How much better than the heuristic's move is the best move one step of lookahead finds?

Positions come from heuristic-vs-heuristic partnership games on the vector engine.  In each
sampled position (two or more legal actions) the heuristic's move and up to K-1 other legal
moves are each played out R times to the end of the deal by the heuristic
(``agents.evaluation.rollouts.RolloutEvaluator``: the cards the mover cannot see redealt, the same
redeals for every candidate).  Reported: how often some other move beats the heuristic's by
more than two standard errors of the paired difference (the best other move chosen on half the
redeals, judged on the other half), and by how many points, per phase.

    .venv/bin/python scripts/experiments/lookahead_headroom.py --positions 400 --redeals 16
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from agents.evaluation.rollouts import RolloutEvaluator
from handfoot_env import actions as A
from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic
from handfoot_env.rules import Rules
from handfoot_env.seating.rewards import DEAL_REWARD_SCALE
from handfoot_env.seating.seats import Seating
from handfoot_env.vector import VectorEngine


def phase(action: int) -> str:
    kind = A.decode(action).kind
    if kind in ("draw", "take_pile"):
        return "draw or take"
    if kind in ("discard", "discard_suited"):
        return "discard"
    return "meld"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--candidates", type=int, default=6)
    parser.add_argument("--redeals", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)

    args = parser.parse_args()
    rules = Rules.preset("partnership")
    heuristic = CompiledHeuristic(rules)
    rng = np.random.default_rng(args.seed)
    games = VectorEngine(rules, batch_size=64, seed=args.seed, auto_reset=True)
    positions = VectorEngine(rules, batch_size=args.positions, seed=0, auto_reset=False)
    seating = Seating(games, [heuristic])
    found = 0
    while found < args.positions:  # sample positions along heuristic play, ~2% of decisions
        masks = games.legal_mask()
        pick = np.flatnonzero((masks.sum(1) >= 2) & (rng.random(games.batch_size) < 0.02))
        for b in pick[: args.positions - found]:
            positions.states[found] = games.states[b]
            positions.packs[found] = games.packs[b]
            found += 1
        seating.play(max_steps=1)
    masks, observations = positions.legal_mask(), positions.observe()
    chosen = heuristic.act(observations, masks)
    candidates = np.full((args.positions, args.candidates), -1, dtype=np.int64)
    for i in range(args.positions):
        others = np.setdiff1d(np.flatnonzero(masks[i]), [chosen[i]])
        others = rng.permutation(others)[: args.candidates - 1]
        candidates[i, : 1 + len(others)] = [chosen[i], *others]
    evaluator = RolloutEvaluator(rules)
    started = time.perf_counter()
    values = evaluator.values(positions, np.arange(args.positions), candidates, args.redeals, seed=args.seed)
    seconds = time.perf_counter() - started
    # Paired with the heuristic's move on the same redeals.  The best other move is picked on
    # the first half of the redeals and judged on the second half, so picking the luckiest of
    # several moves does not count as finding a better one.
    diff = (values - values[:, :1, :]) * DEAL_REWARD_SCALE  # in points
    half = args.redeals // 2
    pick_on = np.where(candidates[:, 1:] >= 0, diff[:, 1:, :half].mean(axis=2), -np.inf)  # NaN: no candidate
    best = 1 + pick_on.argmax(1)
    judged = diff[np.arange(args.positions), best, half:]
    mean = judged.mean(1)
    se = judged.std(1, ddof=1) / np.sqrt(judged.shape[1])
    has_other = candidates[:, 1] >= 0
    gains = np.where(has_other & (mean > 2 * se + 1e-9), mean, -np.inf)
    print(
        f"mean of (best other move - heuristic's move), judged on held-out redeals: {np.nanmean(mean[has_other]):+.1f} "
        "points"
    )
    rows = {}
    for i in range(args.positions):
        rows.setdefault(phase(int(chosen[i])), []).append(i)
    print(
        f"{args.positions} positions, {args.candidates} candidates, {args.redeals} redeals: "
        f"{evaluator.rollouts:,} play-outs, {evaluator.rollout_steps:,} steps in {seconds:.0f} s"
    )
    print("(a one-sided test at 2 SE 'finds' a better move in about 2.3% of positions where none is better)")
    print("| heuristic's move | positions | a better move found (> 2 SE) | mean gain where found (points) |")
    print("|---|---|---|---|")
    for name, idx in sorted(rows.items()):
        idx = np.array(idx)
        hit = np.isfinite(gains[idx])
        print(f"| {name} | {len(idx)} | {hit.mean():.1%} | {gains[idx][hit].mean() if hit.any() else 0:.0f} |")
    hit = np.isfinite(gains)
    print(f"| all | {args.positions} | {hit.mean():.1%} | {gains[hit].mean() if hit.any() else 0:.0f} |")


if __name__ == "__main__":
    main()
