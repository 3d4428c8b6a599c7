"""Self-play training of partnership agents with sb3-contrib's MaskablePPO.

One policy plays every seat of the learner's side (both partners), against opponents drawn
from the league.  Every ``eval_every`` steps it plays duplicate matches against each
baseline and logs win rate, score difference and game length to TensorBoard (SB3 logs
entropy and steps/s itself); every ``checkpoint_every`` steps it saves the model, the
league and the evaluation history so that ``--resume`` continues a killed run.  At the
end it writes ``final_eval.json`` and prints the evaluation table.

    handfoot train --config configs/quick.yaml [--set total_timesteps=100000] [--resume]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from agents import make_agent
from agents.ppo import PPOAgent
from handfoot_env.rules import Rules
from handfoot_env.vec_env import HandFootVecEnv
from train.config import TrainConfig
from train.evaluate import play_match
from train.league import League


def evaluate(policy, rules: Rules, opponents: list[str], pairs: int, seed: int) -> list[dict]:
    """Duplicate matches of the (deterministic) policy against each baseline."""
    agent = PPOAgent(policy, deterministic=True)
    results = []
    for name in opponents:
        result = play_match(rules, agent, make_agent(name, seed=seed), pairs, seed=seed, progress=False)
        result.team, result.vs = "ppo", name
        results.append(result.to_dict())
    return results


def results_table(results: list[dict]) -> str:
    lines = [
        "| ppo vs | games | win / draw / loss | win rate (95% CI) | score diff (95% CI) | mean actions |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['vs']} | {r['games']} | {r['wins']} / {r['draws']} / {r['losses']} | "
            f"{r['win_rate']:.1%} ({r['ci95'][0]:.1%} - {r['ci95'][1]:.1%}) | "
            f"{r['score_diff']:+.0f} ({r['score_diff_ci95'][0]:+.0f} - {r['score_diff_ci95'][1]:+.0f}) | "
            f"{r['mean_actions']:.0f} |"
        )
    return "\n".join(lines)


class LabCallback(BaseCallback):
    """Evaluation, snapshots, checkpoints and the progress bar, on the step counter."""

    def __init__(self, config: TrainConfig, rules: Rules, league: League, venv: HandFootVecEnv, state: dict):
        super().__init__()
        self.config, self.rules, self.league, self.venv, self.state = config, rules, league, venv, state
        self.bar = None
        self.started = time.perf_counter()
        self.seconds_before = state.get("train_seconds", 0.0)  # earlier segments of a resumed run
        self.steps_at_start = 0

    def _on_training_start(self) -> None:
        from tqdm import tqdm

        self.steps_at_start = self.num_timesteps
        self.bar = tqdm(total=self.config.total_timesteps, initial=self.num_timesteps, unit="step",
                        file=sys.stderr, desc=self.config.name, smoothing=0.1)

    def _due(self, key: str, every: int) -> bool:
        if every <= 0 or self.num_timesteps < self.state[key]:
            return False
        while self.state[key] <= self.num_timesteps:
            self.state[key] += every
        return True

    def _on_step(self) -> bool:
        self.bar.update(self.venv.num_envs)
        config = self.config
        if self._due("next_snapshot", config.snapshot_every):
            self.league.add_snapshot(self.model.policy, self.num_timesteps)
            self.venv.games.set_opponents(*self.league.pool())
        if self._due("next_eval", config.eval_every):
            self._evaluate()
        if self._due("next_checkpoint", config.checkpoint_every):
            self.state["train_seconds"] = self.seconds_before + time.perf_counter() - self.started
            save_checkpoint(self.model, self.league, self.state, config)
        return True

    def _evaluate(self) -> None:
        results = evaluate(self.model.policy, self.rules, self.config.eval_opponents, self.config.eval_pairs,
                           seed=10_000 + len(self.state["evals"]))
        for r in results:
            prefix = f"eval/{r['vs']}"
            self.logger.record(f"{prefix}/win_rate", r["win_rate"])
            self.logger.record(f"{prefix}/score_diff", r["score_diff"])
            self.logger.record(f"{prefix}/game_length", r["mean_actions"])
        elapsed = time.perf_counter() - self.started
        self.logger.record("eval/train_steps_per_sec", (self.num_timesteps - self.steps_at_start) / max(elapsed, 1e-9))
        self.state["evals"].append({"step": self.num_timesteps, "results": results})
        self.bar.write(f"[{self.num_timesteps:,} steps] " + ", ".join(
            f"vs {r['vs']}: {r['win_rate']:.0%}" for r in results))

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.close()


def save_checkpoint(model: MaskablePPO, league: League, state: dict, config: TrainConfig) -> None:
    folder = config.path / "checkpoint"
    folder.mkdir(parents=True, exist_ok=True)
    model.save(folder / "model.zip")
    state = dict(state, num_timesteps=model.num_timesteps, snapshots=league.save(folder / "league"))
    tmp = folder / "state.json.tmp"
    tmp.write_text(json.dumps(state, indent=1))
    tmp.replace(folder / "state.json")  # atomic: a kill never leaves half a state


def train(config: TrainConfig, resume: bool = False) -> dict:
    """Train (or resume) a run; returns the final evaluation."""
    torch.set_num_threads(config.torch_threads)
    rules = config.make_rules()
    run = config.path
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(config.to_dict(), indent=1))
    league = League(config.opponents, config.max_snapshots, seed=config.seed)
    state = {"next_eval": config.eval_every, "next_checkpoint": config.checkpoint_every,
             "next_snapshot": config.snapshot_every, "evals": [], "train_seconds": 0.0}
    checkpoint = run / "checkpoint"
    venv = HandFootVecEnv(num_envs=config.num_envs, rules=rules, opponent=list(league.scripted.values()),
                          seed=config.seed, reward_mode=config.reward_mode)
    venv.games.shaping = config.shaping
    if resume and (checkpoint / "state.json").exists():
        saved = json.loads((checkpoint / "state.json").read_text())
        model = MaskablePPO.load(checkpoint / "model.zip", env=venv, device="cpu",
                                 tensorboard_log=str(run / "tensorboard"))
        league.load(saved.pop("snapshots", []), model.policy)
        state.update({k: saved[k] for k in ("next_eval", "next_checkpoint", "next_snapshot", "evals")})
        state["train_seconds"] = saved.get("train_seconds", 0.0)
        print(f"resuming {config.name} at {model.num_timesteps:,} steps", file=sys.stderr)
    else:
        if resume:
            print(f"no checkpoint in {checkpoint}: starting afresh", file=sys.stderr)
        model = MaskablePPO(
            "MlpPolicy", venv, n_steps=config.n_steps, batch_size=config.batch_size, n_epochs=config.n_epochs,
            learning_rate=config.learning_rate, gamma=config.gamma, gae_lambda=config.gae_lambda,
            clip_range=config.clip_range, ent_coef=config.ent_coef, vf_coef=config.vf_coef,
            max_grad_norm=config.max_grad_norm, policy_kwargs={"net_arch": list(config.net_arch)},
            tensorboard_log=str(run / "tensorboard"), seed=config.seed, device="cpu", verbose=0,
        )
    venv.games.set_opponents(*league.pool())
    print(f"TensorBoard logs: {run / 'tensorboard'}  (tensorboard --logdir {run / 'tensorboard'})", file=sys.stderr)
    callback = LabCallback(config, rules, league, venv, state)
    remaining = config.total_timesteps - model.num_timesteps
    start = time.perf_counter()
    if remaining > 0:
        model.learn(remaining, callback=callback, reset_num_timesteps=False, tb_log_name="ppo")
    elapsed = time.perf_counter() - start
    state["train_seconds"] = callback.seconds_before + elapsed
    save_checkpoint(model, league, state, config)
    model.save(run / "model.zip")
    final = evaluate(model.policy, rules, config.eval_opponents, config.final_eval_pairs, seed=1_000_000)
    summary = {
        "config": config.to_dict(),
        "num_timesteps": model.num_timesteps,
        "train_seconds": state["train_seconds"],  # all segments of the run, resumed ones included
        "train_steps_per_sec": remaining / elapsed if remaining > 0 and elapsed > 0 else None,
        "final": final,
        "evals": state["evals"],
    }
    (run / "final_eval.json").write_text(json.dumps(summary, indent=1))
    return summary


def print_summary(summary: dict) -> None:
    config = summary["config"]
    rate = summary["train_steps_per_sec"]
    print(f"\n{config['name']}: {summary['num_timesteps']:,} steps, {summary['train_seconds']:.0f} s of training"
          + (f" ({rate:,.0f} steps/s this segment)" if rate else ""))
    print(f"final evaluation, {config['preset']}, {config['final_eval_pairs']} duplicate pairs per opponent:\n")
    print(results_table(summary["final"]))
    print(f"\nrun folder: {Path(config['run_dir']) / config['name']}")


__all__ = ["train", "evaluate", "print_summary", "results_table"]
