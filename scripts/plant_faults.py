"""Plant one-line faults in the learning and evaluation code, one at a time, and see which test
of the default run catches each (docs/learner_tests.md holds the table).

    python scripts/plant_faults.py                      # every fault; results to faults.jsonl
    python scripts/plant_faults.py --only ppo-sign dmc-horizon --out /tmp/some.jsonl
    python scripts/plant_faults.py --table faults.jsonl      # the results as a Markdown table

Each fault is one line as it stands in the source and the line planted in its place: a
realistic slip (a sign, a bound, an index, a swapped name).  The script writes the fault into
the file in this checkout (the compiled kernels' sources are never touched, so their cache
stays valid), runs the default run's tests where the fault should show (``-x``: it stops at the
first failure), puts the line back, and records whether a test failed and which.  A fault no
targeted test catches is run again against the wider selection (``BROAD``).  It refuses to
start on a file with uncommitted changes, and restores every file it touched, Ctrl-C included.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PPO = "train/algorithms/ppo.py"
DMC = "train/algorithms/dmc.py"
COLLECT = "train/collect.py"
RAY = "train/ray_workers.py"
WIN_PROB = "train/win_prob.py"
LEAGUE = "train/league.py"
LOOP = "train/loop.py"
IMITATION = "train/imitation.py"
WARM = "train/warm_start.py"
MATCHES = "agents/evaluation/matches.py"
RATINGS = "agents/evaluation/ratings.py"
ROLLOUTS = "agents/evaluation/rollouts.py"
REWARDS = "handfoot_env/seating/rewards.py"

# The Ray collector's test alone (the rest of its file takes minutes)
RAY_ROLLOUT = "tests/train/test_cluster.py::test_the_ray_rollout_is_each_workers_local_rollout_side_by_side_and_snapshots_reach_them"
# Where each file's faults should show, fastest first.
TESTS = {
    PPO: [
        "tests/train/test_ppo.py",
        "tests/train/test_returns.py",
        "tests/train/test_algorithms.py",
        "tests/train/test_collect.py",
        "tests/train/test_learning.py",
    ],
    DMC: ["tests/train/test_returns.py", "tests/train/test_algorithms.py", "tests/train/test_collect.py"],
    COLLECT: [
        "tests/train/test_collect.py",
        "tests/train/test_algorithms.py",
        "tests/train/test_learning.py",
        RAY_ROLLOUT,
    ],
    RAY: [RAY_ROLLOUT, "tests/train/test_cluster.py"],
    WIN_PROB: ["tests/train/test_win_prob.py"],
    LEAGUE: ["tests/train/test_league.py", "tests/train/test_trainer.py"],
    LOOP: ["tests/train/test_learning.py", "tests/train/test_trainer.py"],
    IMITATION: ["tests/train/test_warm_start.py", "tests/train/test_trainer.py"],
    WARM: ["tests/train/test_warm_start.py", "tests/train/test_learning.py"],
    MATCHES: [
        "tests/agents/evaluation/test_matches.py",
        "tests/agents/evaluation/test_ratings.py",
        "tests/agents/evaluation",
        "tests/train/test_faults.py",
    ],
    RATINGS: ["tests/agents/evaluation/test_ratings.py", "tests/agents/evaluation", "tests/train/test_faults.py"],
    ROLLOUTS: ["tests/agents/evaluation/test_rollouts.py"],
    REWARDS: ["tests/agents/evaluation/test_matches.py", "tests/seating", "tests/train/test_win_prob.py"],
}
BROAD = ["tests/train", "tests/agents", "tests/seating", "tests/envs", "tests/lab/test_cli.py", "tests/test_docs.py"]

# (id, file, the line as it stands (a unique part of it), the line planted, what it breaks)
FAULTS = [
    # ---------------------------------------------------------------- PPO's loss and clip
    (
        "ppo-sign",
        PPO,
        "policy_loss=torch.max(unclipped, clipped).mean(),",
        "policy_loss=-torch.max(unclipped, clipped).mean(),",
        "the policy loss's sign flipped",
    ),
    (
        "ppo-clip-inverted",
        PPO,
        "policy_loss=torch.max(unclipped, clipped).mean(),",
        "policy_loss=torch.min(unclipped, clipped).mean(),",
        "the clip's bound optimistic (min) instead of pessimistic",
    ),
    (
        "collect-ends-swapped",
        COLLECT,
        'buffers["rewards"][t], buffers["dones"][t], buffers["deal_ends"][t] = rewards, dones, games.deal_ended',
        'buffers["rewards"][t], buffers["dones"][t], buffers["deal_ends"][t] = rewards, games.deal_ended, dones',
        "game ends and deal ends swapped in the buffers",
    ),
    (
        "winprob-one-deal-fewer",
        WIN_PROB,
        "played.append(position[1][rows].copy())",
        "played.append(position[1][rows].copy() - 1)",
        "the fit records each position with one deal too few played",
    ),
    (
        "matches-rotation",
        MATCHES,
        "return Chunk(lo, seeds, games % self.owners, ",
        "return Chunk(lo, seeds, games * 0, ",
        "the duplicate rotation broken: the team always on side 0",
    ),
    (
        "draw-as-win",
        REWARDS,
        "return np.where(top, np.where(unique, 1.0, 0.5), 0.0)",
        "return np.where(top, np.where(unique, 1.0, 1.0), 0.0)",
        "a tie for the highest counted as a win",
    ),
    # ---------------------------------------------------------------- PPO
    (
        "ppo-loss-sign",
        PPO,
        "loss = loss + terms.policy_loss - ent_coef * terms.entropy",
        "loss = loss - terms.policy_loss - ent_coef * terms.entropy",
        "the policy loss subtracted in the total",
    ),
    (
        "ppo-entropy-sign",
        PPO,
        "loss = loss + terms.policy_loss - ent_coef * terms.entropy",
        "loss = loss + terms.policy_loss + ent_coef * terms.entropy",
        "the entropy bonus a penalty",
    ),
    (
        "ppo-anchor-sign",
        PPO,
        "loss = loss + anchor_coef * terms.anchor_kl",
        "loss = loss - anchor_coef * terms.anchor_kl",
        "the anchor pushes away",
    ),
    ("ppo-value-coef", PPO, "loss = vf_coef * terms.value_loss", "loss = terms.value_loss", "vf_coef ignored"),
    (
        "ppo-clip-bounds",
        PPO,
        "clipped = -advantages * ratio.clamp(1 - clip_range, 1 + clip_range)",
        "clipped = -advantages * ratio.clamp(1 - clip_range, 1 + 2 * clip_range)",
        "the upper clip bound twice as far",
    ),
    (
        "ppo-ratio-inverted",
        PPO,
        "log_ratio = log_probs.gather(1, actions[:, None]).squeeze(1) - old_log_probs",
        "log_ratio = old_log_probs - log_probs.gather(1, actions[:, None]).squeeze(1)",
        "the ratio old/new",
    ),
    (
        "ppo-value-loss",
        PPO,
        "value_loss=0.5 * (values - returns).pow(2).mean(),",
        "value_loss=0.5 * (values - returns).abs().mean(),",
        "an absolute value loss",
    ),
    (
        "ppo-entropy-formula",
        PPO,
        "entropy=-(probs * log_probs.masked_fill(~masks, 0.0)).sum(-1).mean(),",
        "entropy=(probs * log_probs.masked_fill(~masks, 0.0)).sum(-1).mean(),",
        "the entropy's sign",
    ),
    (
        "ppo-anchor-direction",
        PPO,
        "anchor_kl = torch.where(masks, anchor_log_probs.exp() * (anchor_log_probs - log_probs), 0.0).sum(-1).mean()",
        "anchor_kl = torch.where(masks, log_probs.exp() * (log_probs - anchor_log_probs), 0.0).sum(-1).mean()",
        "KL(new || anchor) instead of KL(anchor || new)",
    ),
    (
        "ppo-approx-kl",
        PPO,
        "approx_kl = ((ratio - 1) - log_ratio).mean()",
        "approx_kl = (log_ratio - (ratio - 1)).mean()",
        "the KL estimate's sign",
    ),
    (
        "ppo-clip-fraction",
        PPO,
        "clip_fraction = ((ratio - 1).abs() > clip_range).float().mean()",
        "clip_fraction = ((ratio - 1) > clip_range).float().mean()",
        "the clip fraction counts one side only",
    ),
    (
        "ppo-normalise-spread",
        PPO,
        "return (advantages - advantages.mean()) / (advantages.std() + 1e-8)",
        "return (advantages - advantages.mean()) / (advantages.var() + 1e-8)",
        "advantages divided by the variance",
    ),
    (
        "ppo-normalise-centre",
        PPO,
        "return (advantages - advantages.mean()) / (advantages.std() + 1e-8)",
        "return advantages / (advantages.std() + 1e-8)",
        "advantages not centred",
    ),
    (
        "ppo-normalise-one-row",
        PPO,
        "if len(advantages) < 2:",
        "if len(advantages) < 1:",
        "a one-row minibatch normalised (NaN)",
    ),
    (
        "ppo-no-normalise",
        PPO,
        'normalise(flat["advantages"][rows]),',
        'flat["advantages"][rows],',
        "advantages not normalised",
    ),
    (
        "ppo-returns-as-advantages",
        PPO,
        'flat["advantages"] = torch.as_tensor(advantages.reshape(-1), device=device)',
        'flat["advantages"] = torch.as_tensor(returns.reshape(-1), device=device)',
        "returns used as advantages",
    ),
    (
        "ppo-targets-deal-ends",
        PPO,
        'return gae(batch["rewards"], batch["values"], batch["dones"], last_value.cpu().numpy(), hp.gamma, hp.gae_lambda)',
        'return gae(batch["rewards"], batch["values"], batch["deal_ends"], last_value.cpu().numpy(), hp.gamma, hp.gae_lambda)',
        "GAE cut at deal ends",
    ),
    (
        "ppo-targets-gamma-lambda",
        PPO,
        'return gae(batch["rewards"], batch["values"], batch["dones"], last_value.cpu().numpy(), hp.gamma, hp.gae_lambda)',
        'return gae(batch["rewards"], batch["values"], batch["dones"], last_value.cpu().numpy(), hp.gae_lambda, hp.gamma)',
        "gamma and lambda swapped",
    ),
    ("gae-no-cut", PPO, "alive = 1.0 - dones[t]", "alive = 1.0", "GAE runs across game ends"),
    (
        "gae-delta",
        PPO,
        "delta = rewards[t] + gamma * next_value * alive - values[t]",
        "delta = rewards[t] + gamma * next_value - values[t]",
        "a finished game bootstraps from the next game's value",
    ),
    (
        "gae-lambda",
        PPO,
        "running = delta + gamma * lam * alive * running",
        "running = delta + lam * alive * running",
        "the trace decays without gamma",
    ),
    (
        "gae-returns",
        PPO,
        "return advantages, advantages + values",
        "return advantages, advantages",
        "returns are the advantages",
    ),
    (
        "ppo-warmup",
        PPO,
        "train_actor = self.updates >= hp.value_warmup_rollouts",
        "train_actor = self.updates > hp.value_warmup_rollouts",
        "one warm-up rollout too many",
    ),
    (
        "ppo-clip-grad-together",
        PPO,
        "clip_each([policy.actor_parameters(), policy.critic_parameters()], hp.max_grad_norm)",
        "clip_each([policy.actor_parameters() + policy.critic_parameters()], hp.max_grad_norm)",
        "the actor's and critic's gradients clipped together",
    ),
    (
        "ppo-anneal",
        PPO,
        "return self.hp.learning_rate * max(0.0, 1.0 - step / self.config.total_timesteps)",
        "return self.hp.learning_rate * max(0.0, step / self.config.total_timesteps)",
        "the step size rises instead of falling",
    ),
    (
        "ppo-explore-logprob",
        PPO,
        '"logprobs": log_probs.gather(1, actions[:, None]).squeeze(1).numpy(),',
        '"logprobs": log_probs.max(1).values.numpy(),',
        "the kept log-probability is the likeliest action's",
    ),
    (
        "sample-right",
        PPO,
        "actions = torch.searchsorted(cumulative, uniform, right=True).squeeze(-1)",
        "actions = torch.searchsorted(cumulative, uniform, right=False).squeeze(-1)",
        "a draw of 0 can pick an illegal action",
    ),
    (
        "sample-scale",
        PPO,
        "uniform = torch.rand((len(probs), 1), generator=generator) * cumulative[:, -1:]",
        "uniform = torch.rand((len(probs), 1), generator=generator)",
        "the draw not scaled to the row's total",
    ),
    # ---------------------------------------------------------------- DMC
    (
        "dmc-horizon",
        DMC,
        'new["ends"] = batch["deal_ends"] if self.hp.horizon == "deal" else batch["dones"]',
        'new["ends"] = batch["dones"] if self.hp.horizon == "deal" else batch["deal_ends"]',
        "the horizons swapped",
    ),
    (
        "dmc-game-closes",
        DMC,
        'new["ends"] = np.maximum(new["ends"], batch["dones"])',
        'new["ends"] = new["ends"]',
        "a game's end no longer closes the deal horizon",
    ),
    (
        "dmc-returns-cut",
        DMC,
        "running = rewards[t] + gamma * np.where(end, 0.0, running)",
        "running = rewards[t] + gamma * running",
        "returns run across horizons",
    ),
    (
        "dmc-returns-gamma",
        DMC,
        "running = rewards[t] + gamma * np.where(end, 0.0, running)",
        "running = rewards[t] + np.where(end, 0.0, running)",
        "the discount ignored",
    ),
    (
        "dmc-learned-twice",
        DMC,
        "take = complete & ~emitted",
        "take = complete",
        "a decision learned once per rollout it waits",
    ),
    (
        "dmc-epsilon",
        DMC,
        "explore_now = torch.rand(len(best), generator=generator) < epsilon",
        "explore_now = torch.rand(len(best), generator=generator) > epsilon",
        "explores with chance 1 - epsilon",
    ),
    ("dmc-greedy", DMC, "best = q.argmax(-1)", "best = q.argmin(-1)", "plays its worst action"),
    (
        "dmc-loss",
        DMC,
        'loss = (chosen - data["returns"][rows]).pow(2).mean()',
        'loss = (chosen + data["returns"][rows]).pow(2).mean()',
        "regresses on minus the return",
    ),
    # ---------------------------------------------------------------- the collector
    (
        "collect-stale-masks",
        COLLECT,
        "            obs, masks = games.observe(), games.action_masks()\n            opponents = ",
        "            obs = games.observe()\n            opponents = ",
        "the masks of the step before are kept",
    ),
    (
        "collect-actions-row",
        COLLECT,
        'buffers["x"][t], buffers["masks"][t], buffers["actions"][t] = x, masks, actions',
        'buffers["x"][t], buffers["masks"][t], buffers["actions"][t] = x, masks, np.roll(actions, 1)',
        "each action filed in its neighbour's row",
    ),
    (
        "collect-reward-next-row",
        COLLECT,
        'buffers["rewards"][t], buffers["dones"][t], buffers["deal_ends"][t] = rewards, dones, games.deal_ended',
        'buffers["rewards"][t - 1], buffers["dones"][t], buffers["deal_ends"][t] = rewards, dones, games.deal_ended',
        "each reward filed a step early",
    ),
    (
        "collect-last-x",
        COLLECT,
        'buffers["last_x"] = policy.inputs(obs, masks, self.rules)',
        'buffers["last_x"] = buffers["x"][-1]',
        "the bootstrap reads the last decision's inputs",
    ),
    (
        "collect-extra",
        COLLECT,
        'buffers["extra"][t] = extra',
        'buffers["extra"][t] = games.hidden_cards()',
        "the hidden cards after the step",
    ),
    (
        "join-axis",
        COLLECT,
        'return {key: np.concatenate([p[key] for p in parts], axis=0 if key.startswith("last_") else 1) for key in parts[0]}',
        "return {key: np.concatenate([p[key] for p in parts], axis=0) for key in parts[0]}",
        "the workers' rollouts joined step-wise",
    ),
    (
        "training-seed-worker",
        COLLECT,
        "worker_offset = 0 if worker is None else TRAINING_SEEDS_PER_WORKER * (worker + 1)",
        "worker_offset = 0 if worker is None else TRAINING_SEEDS_PER_WORKER",
        "every worker deals the same games",
    ),
    # ---------------------------------------------------------------- Ray rollout workers
    (
        "ray-worker-seed",
        RAY,
        "seed = training_seed(self.config, deal_offset, worker=index)",
        "seed = training_seed(self.config, deal_offset, worker=0)",
        "every worker deals worker 0's games",
    ),
    (
        "ray-league-version",
        RAY,
        "if league_version != self.league_version:",
        "if league_version == self.league_version:",
        "snapshots never reach the workers",
    ),
    (
        "ray-share",
        RAY,
        "share = config.env.num_envs // config.ray.workers",
        "share = config.env.num_envs",
        "each worker steps all the games",
    ),
    # ---------------------------------------------------------------- win probability
    (
        "winprob-totals-before",
        WIN_PROB,
        "position[0][ended], position[1][ended] = after, deals",
        "position[1][ended] = deals",
        "the recorded totals never move",
    ),
    (
        "winprob-next-start",
        REWARDS,
        "return np.asarray(totals_before) + np.asarray(deal_scores), np.asarray(deals_before) + 1",
        "return np.asarray(totals_before) + np.asarray(deal_scores), np.asarray(deals_before)",
        "a deal leads to a position with the same deals played",
    ),
    (
        "winprob-after-deal-over",
        REWARDS,
        "return np.where(game_over, game_points(totals, sides), self(totals, sides, played))",
        "return self(totals, sides, played)",
        "the game's last deal valued by the model, not the result",
    ),
    (
        "winprob-label-side",
        WIN_PROB,
        "y.append(game_points(finals[game_of], sides))",
        "y.append(game_points(finals[game_of], 1 - sides))",
        "labels of the other side",
    ),
    (
        "calibration-edge",
        WIN_PROB,
        "inside = (predicted >= lo) & ((predicted < hi) | (hi == 1.0))",
        "inside = (predicted >= lo) & (predicted < hi)",
        "a prediction of 1 falls out of the table",
    ),
    # ---------------------------------------------------------------- league, loop, warm start
    (
        "league-self-share",
        LEAGUE,
        "weights += [share / len(self.snapshots)] * len(self.snapshots)",
        "weights += [share] * len(self.snapshots)",
        "each snapshot gets the whole self share",
    ),
    (
        "league-oldest",
        LEAGUE,
        "oldest = self.snapshot_steps.index(min(self.snapshot_steps))",
        "oldest = self.snapshot_steps.index(max(self.snapshot_steps))",
        "the newest snapshot replaced",
    ),
    (
        "loop-steps",
        LOOP,
        'state["num_timesteps"] += config.rollout_steps',
        'state["num_timesteps"] += config.algo.n_steps',
        "steps counted per game, not per rollout",
    ),
    (
        "loop-select",
        LOOP,
        'win_rate", rate, step)\n        if rate > self.state.get("best_win_rate", -1.0):',
        'win_rate", rate, step)\n        if rate < self.state.get("best_win_rate", 2.0):',
        "the worst evaluation kept as best",
    ),
    (
        "loop-eval-sampling",
        LOOP,
        "agent = PPOAgent(policy, rules, deterministic=True, threads=torch.get_num_threads())",
        "agent = PPOAgent(policy, rules, deterministic=False, threads=torch.get_num_threads())",
        "evaluations sample instead of playing the best move",
    ),
    (
        "loop-anchor-set",
        LOOP,
        "                self.algorithm.after_warm_start()\n",
        "",
        "the anchor never set after the warm start",
    ),
    (
        "imitation-teacher",
        IMITATION,
        "loss = torch.nn.functional.cross_entropy(logits, actions_t[rows])",
        "loss = -torch.nn.functional.cross_entropy(logits, actions_t[rows])",
        "imitation pushes away from the teacher",
    ),
    (
        "warm-scaling",
        WARM,
        "fit_scaling(policy, rules, config.network.scaling_positions, seed=first_deal)",
        "pass",
        "no input scaling",
    ),
    # ---------------------------------------------------------------- matches and ratings
    (
        "matches-seats",
        MATCHES,
        "seating.seat_agents = np.where(seat_owners(rules)[None, :] == np.asarray(team_side)[:, None], 0, 1)",
        "seating.seat_agents = np.where(seat_owners(rules)[None, :] != np.asarray(team_side)[:, None], 0, 1)",
        "the team seated on the other sides",
    ),
    (
        "matches-repeat",
        MATCHES,
        "return Chunk(lo, seeds, games % self.owners, ",
        "return Chunk(lo, seeds, games * self.owners // self.games, ",
        "sides rotated in blocks, not per seed",
    ),
    (
        "matches-interval-z",
        MATCHES,
        "half = 1.96 * math.sqrt(variance / count)",
        "half = 1.645 * math.sqrt(variance / count)",
        "a 90% interval called 95%",
    ),
    (
        "matches-interval-ddof",
        MATCHES,
        "variance = max(squares - count * mean * mean, 0.0) / (count - 1)",
        "variance = max(squares - count * mean * mean, 0.0) / count",
        "the population spread",
    ),
    (
        "matches-interval-clip",
        MATCHES,
        "return [max(centre - half, 0.0), min(centre + half, 1.0)]",
        "return [centre - half, centre + half]",
        "a rate's interval past 0 or 1",
    ),
    (
        "matches-wilson-centre",
        MATCHES,
        "centre = (rate + spread / 2) / (1 + spread)",
        "centre = rate",
        "the interval centred on the rate (Wald's centre in Wilson's interval)",
    ),
    (
        "matches-per-set",
        MATCHES,
        "sets, self._pending = rows[:whole].reshape(-1, self.owners, 3), rows[whole:]",
        "sets, self._pending = rows[:whole].reshape(self.owners, -1, 3).transpose(1, 0, 2), rows[whole:]",
        "duplicate sets grouped wrongly",
    ),
    (
        "matches-diff",
        MATCHES,
        "return game_points(totals, sides), mine - others",
        "return game_points(totals, sides), mine - totals.max(axis=1)",
        "score difference against the best total",
    ),
    (
        "matches-draws",
        MATCHES,
        "self.draws += int((outcome == 0.5).sum())",
        "self.draws += int((outcome == 0).sum())",
        "losses counted as draws",
    ),
    (
        "ratings-bt-wins",
        RATINGS,
        "strength[i] = max(wins[i].sum(), 0.5) / denominator",
        "strength[i] = max(wins[:, i].sum(), 0.5) / denominator",
        "losses read as wins",
    ),
    (
        "ratings-bt-scale",
        RATINGS,
        "elo = 400 * np.log10(strength)",
        "elo = 400 * np.log(strength)",
        "natural log on the Elo scale",
    ),
    ("ratings-bt-games", RATINGS, "games = wins + wins.T", "games = wins", "games counted one way"),
    (
        "ratings-round-robin",
        RATINGS,
        "wins[j, i] += result.games - score",
        "wins[j, i] += result.losses",
        "a draw counted for one side only",
    ),
    (
        "ratings-anchor-bisection",
        RATINGS,
        "low, high = (middle, high) if grows(middle) < target else (low, middle)",
        "low, high = (middle, high) if grows(middle) > target else (low, middle)",
        "the bisection goes the wrong way",
    ),
    (
        "ratings-perfect",
        RATINGS,
        "points = min(max(sum(p for p, _ in scores.values()), 0.5), games - 0.5)",
        "points = sum(p for p, _ in scores.values())",
        "a perfect record rated at the search's edge",
    ),
    (
        "rollouts-side",
        ROLLOUTS,
        "job_sides = self.owners[job_mover]",
        "job_sides = 1 - self.owners[job_mover]",
        "play-outs valued for the other side",
    ),
    (
        "rollouts-deals",
        ROLLOUTS,
        'job_deals[jobs] = engine.states["deals_ended"][free]',
        'job_deals[jobs] = engine.states["deals_ended"][free] + 1',
        "the play-out's deal counted twice",
    ),
]


def run_tests(paths: list[str], env: dict) -> tuple[bool, str, float]:
    """(caught, the first failing test or '', seconds)."""
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", *paths, "-x", "-q", "-p", "no:cacheprovider", "--no-header", "-rf"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if proc.returncode not in (0, 1):  # pytest's 1: tests failed; 2-4: interrupted or could not run
        raise SystemExit(f"pytest stopped with exit status {proc.returncode}: {proc.stdout[-2000:]}")
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", proc.stdout, flags=re.MULTILINE)
    caught = proc.returncode == 1
    if caught and not failed:
        failed = [proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else f"exit {proc.returncode}"]
    return caught, failed[0] if failed else "", time.perf_counter() - started


def markdown_table(rows: list[dict]) -> str:
    """One line per fault, in the order of ``FAULTS`` (the latest result of each)."""
    latest = {row["id"]: row for row in rows}
    lines = ["| fault | file | the slip | caught by (the first test to fail) |", "|---|---|---|---|"]
    for fault_id, path, _, _, what in FAULTS:
        row = latest.get(fault_id)
        if row is None:
            verdict = "not run"
        elif row["caught"]:
            verdict = "`" + row["by"].replace("tests/", "", 1) + "`"
        else:
            verdict = "**missed**"
        lines.append(f"| {fault_id} | `{path}` | {what} | {verdict} |")
    caught = sum(1 for row in latest.values() if row["caught"])
    lines.append(f"\n{caught} of {len(latest)} planted faults caught.")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="fault ids to plant (default: all)")
    parser.add_argument("--out", default="faults.jsonl", help="one JSON line per fault")
    parser.add_argument("--no-broad", action="store_true", help="do not rerun a missed fault on the wider selection")
    parser.add_argument("--table", metavar="JSONL", nargs="+", help="print these results as a Markdown table and stop")
    args = parser.parse_args()
    if args.table:
        print(markdown_table([json.loads(line) for path in args.table for line in Path(path).read_text().splitlines()]))
        return 0
    by_id = {fault[0]: fault for fault in FAULTS}
    unknown = [fault_id for fault_id in args.only or [] if fault_id not in by_id]
    if unknown:
        raise SystemExit(f"no such fault: {', '.join(unknown)}")
    chosen = [by_id[fault_id] for fault_id in args.only] if args.only else list(FAULTS)  # in the order asked
    ids = [f[0] for f in FAULTS]
    if len(ids) != len(set(ids)):
        raise SystemExit("fault ids must be unique")
    files = sorted({f[1] for f in chosen})
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", *files], cwd=ROOT, capture_output=True, text=True, check=True
    )
    if dirty.stdout.strip():
        raise SystemExit(
            f"uncommitted changes in {dirty.stdout.split()}: commit them first (the script rewrites these files)"
        )
    originals = {path: (ROOT / path).read_text() for path in files}
    for fault_id, path, old, new, _ in chosen:
        if originals[path].count(old) != 1:
            raise SystemExit(f"{fault_id}: the line to replace is not exactly once in {path}")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open(args.out, "a") as out:
        try:
            for fault_id, path, old, new, what in chosen:
                (ROOT / path).write_text(originals[path].replace(old, new))
                try:
                    caught, test, seconds = run_tests(TESTS[path], env)
                    stage = "targeted"
                    if not caught and not args.no_broad:
                        caught, test, more = run_tests(BROAD, env)
                        seconds += more
                        stage = "broad"
                finally:
                    (ROOT / path).write_text(originals[path])
                row = {"id": fault_id, "file": path, "what": what, "caught": caught, "by": test, "stage": stage,
                       "seconds": round(seconds, 1)}  # fmt: skip
                print(json.dumps(row), flush=True)
                out.write(json.dumps(row) + "\n")
                out.flush()
        finally:
            for path, text in originals.items():
                (ROOT / path).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
