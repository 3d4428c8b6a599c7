"""One step of expert iteration past ``tuned``: regress what each move is worth, deviate where it pays.

1. **Positions.** ``tuned`` plays itself (partnership) on the vector engine; a share of the
   decisions with two or more legal moves is sampled.
2. **Values.** In each sampled position ``tuned``'s move and up to K-1 other legal moves (drawn
   at random) are each played out to the end of the deal by ``tuned`` in every seat, on R
   redeals of the cards the mover cannot see (``agents.evaluation.rollouts.RolloutEvaluator``: the same
   redeals for every move, so the differences are paired).  A move's value on a redeal is its
   side's chance of winning the game from the totals after the deal (the win-probability model
   of ``reward_mode: win_prob``; the game's result where the deal ended it).
3. **Regression.** A network of the ``ppo`` agent's shape reads the position and ``tuned``'s move
   (the advisor one-hot) and outputs, per action, its advantage over ``tuned``'s move in
   percentage points of winning chance (``tuned``'s own move: 0).  Each target is a single
   position's noisy mean over R redeals; the network averages them over many positions, which
   finds small edges that no single position's play-outs can show (docs/runs_past_the_teacher.md).
   The agent (``ImprovedAgent``) leaves ``tuned``'s move only where the network predicts a gain
   larger than ``margin``.
4. **Checks.** On held-out positions, per margin: how often the agent would switch, and the
   measured advantage of the moves it switches to; then duplicate matches against ``tuned``.

    .venv/bin/python scripts/experiments/expert_iteration.py --win-prob runs/scratch_s2/win_prob.json \
        --positions 30000 --out runs/exit1

The regression network is saved as ``policy.pt`` (a policy file whose logits are the
predicted advantages; ``ImprovedAgent`` adds the margin to ``tuned``'s move).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numba
import numpy as np
import torch

from agents.evaluation.matches import play_match
from agents.evaluation.rollouts import RolloutEvaluator
from agents.policy import Policy, compact_columns
from agents.trained import load_tuned
from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.baselines.heuristic_params import read_params
from handfoot_env.rules import Rules
from handfoot_env.seating.rewards import WinProbability
from handfoot_env.vector import VectorEngine

POSITION_SEEDS = 6_000_000_000  # the games positions are drawn from: a range no run or table uses


def collect(rules, teacher, evaluator, positions, candidates, redeals, seed, rate=0.05, chunk=512, say=print) -> dict:
    """Sampled positions of ``teacher``'s self-play, each with K candidate moves' values on R
    redeals; positions are gathered ``chunk`` at a time, so the play-outs run in full batches."""
    rng = np.random.default_rng(seed)
    games = VectorEngine(rules, batch_size=64, seed=POSITION_SEEDS + seed * 1_000_000, auto_reset=True)
    held = VectorEngine(rules, batch_size=chunk, seed=0, auto_reset=False)
    out: dict[str, list] = {"obs": [], "masks": [], "candidates": [], "values": []}
    found, started, batch = 0, time.perf_counter(), 0
    while found < positions:
        n = 0
        while n < min(chunk, positions - found):
            masks = games.legal_mask()
            moves = teacher.act(games.observe(), masks)
            for row in np.flatnonzero((masks.sum(1) >= 2) & (rng.random(games.batch_size) < rate)):
                if n < min(chunk, positions - found):
                    held.states[n] = games.states[row]
                    held.packs[n] = games.packs[row]
                    n += 1
            games.step(moves)
        masks, observations = held.legal_mask()[:n], held.observe()[:n]
        moves = teacher.act(observations, masks)
        cands = np.full((n, candidates), -1, dtype=np.int64)
        for i in range(n):
            others = rng.permutation(np.setdiff1d(np.flatnonzero(masks[i]), [moves[i]]))[: candidates - 1]
            cands[i, : 1 + len(others)] = [moves[i], *others]
        values = evaluator.values(held, np.arange(n), cands, redeals, seed=seed * 1_000_000 + batch)
        out["obs"].append(observations.copy())
        out["masks"].append(masks.copy())
        out["candidates"].append(cands)
        out["values"].append(values.astype(np.float32))
        found += n
        batch += 1
        say(f"  {found:,} positions, {evaluator.rollout_steps:,} play-out steps, {time.perf_counter() - started:.0f} s")
    return {key: np.concatenate(parts) for key, parts in out.items()}


def targets(data: dict) -> tuple[np.ndarray, np.ndarray]:
    """Per position and candidate: the measured advantage over the teacher's move in
    percentage points (the teacher's own: 0), and whether there is a candidate."""
    values = data["values"]  # [N, K, R], NaN where there is no candidate
    present = data["candidates"] >= 0
    adv = 100.0 * np.where(present[:, :, None], values - values[:, :1, :], 0.0).mean(axis=2)
    return adv, present


def fit(data: dict, rules: Rules, params: np.ndarray, epochs: int, seed: int, say=print) -> Policy:
    torch.manual_seed(seed)
    policy = Policy(arch=(256, 256), advisor=True, advisor_params=params, columns=compact_columns(rules))
    x = policy.inputs(data["obs"], data["masks"], rules)
    policy.set_scaling(x)
    adv, present = targets(data)
    x_t, cand_t = torch.as_tensor(x), torch.as_tensor(np.maximum(data["candidates"], 0))
    adv_t, present_t = torch.as_tensor(adv, dtype=torch.float32), torch.as_tensor(present)
    optimizer = torch.optim.Adam(policy.actor.parameters(), lr=3e-4)
    n = len(x)
    for epoch in range(epochs):
        order = torch.randperm(n)
        total = 0.0
        for lo in range(0, n, 512):
            idx = order[lo : lo + 512]
            out = policy.actor(policy._scaled(x_t[idx], policy.mean, policy.scale))
            predicted = out.gather(1, cand_t[idx])
            err = (predicted - adv_t[idx]) ** 2 * present_t[idx]
            loss = err.sum() / present_t[idx].sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(idx)
        say(f"  epoch {epoch + 1}: mean squared error {total / n:.2f} (percentage points squared)")
    policy.eval()
    return policy


class ImprovedAgent:
    """``tuned``'s move unless the regression network predicts another legal move gains more
    than ``margin`` percentage points of winning chance (batched agent protocol)."""

    def __init__(self, policy: Policy, rules: Rules, margin: float, name: str = "improved"):
        self.policy, self.rules, self.margin, self.name = policy, rules, margin, name

    @torch.no_grad()
    def predicted(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(predicted advantages with the margin on the teacher's move, the teacher's moves)."""
        x = self.policy.inputs(observations, masks, self.rules)
        teacher = x[:, -NUM_ACTIONS:].argmax(1)  # the advisor one-hot: tuned's move
        logits = self.policy.logits(torch.as_tensor(x), torch.as_tensor(np.asarray(masks, dtype=bool))).numpy()
        logits[np.arange(len(x)), teacher] = self.margin  # tuned's own move: 0 gain, plus the margin
        return logits, teacher

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return self.predicted(observations, masks)[0].argmax(1)


def held_out_check(agent: ImprovedAgent, data: dict) -> dict:
    """Where the agent would leave the teacher's move: how often, and, where it switches to a
    candidate that was played out, that move's measured advantage (95% interval)."""
    logits, teacher = agent.predicted(data["obs"], data["masks"])
    choice = logits.argmax(1)
    adv, present = targets(data)
    hit = (data["candidates"] == choice[:, None]) & present
    switched = hit[:, 1:].any(1)
    measured = adv[np.arange(len(adv)), hit.argmax(1)][switched]
    row = {
        "margin": agent.margin,
        "switches": float((choice != teacher).mean()),
        "switches_to_a_played_out_move": int(switched.sum()),
        "predicted_gain_pp": float(logits.max(1)[switched].mean()) if switched.any() else 0.0,
        "measured_gain_pp": float(measured.mean()) if len(measured) else 0.0,
    }
    if len(measured) > 1:
        se = measured.std(ddof=1) / np.sqrt(len(measured))
        row["measured_gain_ci95"] = [float(measured.mean() - 1.96 * se), float(measured.mean() + 1.96 * se)]
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40_000)
    parser.add_argument("--candidates", type=int, default=4)
    parser.add_argument("--redeals", type=int, default=8)
    parser.add_argument("--margins", default="0,0.5,1,2,4", help="margins to check on held-out positions")
    parser.add_argument("--play-margins", default="1", help="margins to play the duplicate matches with")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--win-prob",
        required=True,
        help="a win-probability model: the win_prob.json of a run with reward_mode win_prob",
    )
    parser.add_argument("--data", help="reuse the positions and values saved by an earlier run (its data.npz)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.set_num_threads(1)
    numba.set_num_threads(1)  # parallel kernels beside other jobs wait on each other: 5x slower here
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rules = Rules.preset("partnership")
    teacher = load_tuned(rules=rules)
    params, _ = read_params(Path("agents/models/tuned_partnership.json"))
    win_prob = WinProbability.from_dict(json.loads(Path(args.win_prob).read_text()))
    started = time.perf_counter()
    if args.data:
        data = dict(np.load(args.data))
    else:
        evaluator = RolloutEvaluator(rules, batch=2048, player=teacher, win_prob=win_prob)
        data = collect(rules, teacher, evaluator, args.positions, args.candidates, args.redeals, args.seed)
        np.savez_compressed(out / "data.npz", **data)
        print(f"collected {len(data['obs']):,} positions in {time.perf_counter() - started:.0f} s")
    n = len(data["obs"])
    held = np.arange(n) >= int(n * 0.9)
    train = {k: v[~held] for k, v in data.items()}
    test = {k: v[held] for k, v in data.items()}
    policy = fit(train, rules, params, args.epochs, args.seed)
    policy.save(out / "policy.pt", rules, extra={"expert_iteration": vars(args)})
    report: dict = {"args": vars(args), "positions": n, "held_out": [], "vs_tuned": []}
    for margin in map(float, args.margins.split(",")):
        report["held_out"].append(held_out_check(ImprovedAgent(policy, rules, margin), test))
        print("held out:", report["held_out"][-1])
    for margin in map(float, args.play_margins.split(",")) if args.pairs else []:
        agent = ImprovedAgent(policy, rules, margin, name=f"improved (margin {margin})")
        result = play_match(rules, agent, teacher, deals=args.pairs, seed=3_000_000, progress=False)
        report["vs_tuned"].append({"margin": margin, **result.to_dict()})
        print(f"margin {margin}: vs tuned, {args.pairs} pairs on seeds 3,000,000+: {result.win_rate:.1%} {result.ci95}")
    (out / "report.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
