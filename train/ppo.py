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

import signal
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
from train.run import RunFolder, write_atomically, write_json


def evaluate(policy, rules: Rules, opponents: list[str], pairs: int, seed: int) -> list[dict]:
    """Duplicate matches of the (deterministic) policy against each baseline."""
    agent = PPOAgent(policy, deterministic=True)
    results = []
    for name in opponents:
        result = play_match(rules, agent, make_agent(name, seed=seed, rules=rules), pairs, seed=seed, progress=False)
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

    def __init__(self, config: TrainConfig, rules: Rules, league: League, venv: HandFootVecEnv, state: dict,
                 folder: RunFolder):
        super().__init__()
        self.config, self.rules, self.league, self.venv, self.state = config, rules, league, venv, state
        self.folder = folder
        self.bar = None
        self.started = time.perf_counter()
        self.seconds_before = state.get("train_seconds", 0.0)  # earlier segments of a resumed run
        self.steps_at_start = 0
        self.interrupt = None

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
        if self.interrupt is not None and self.interrupt.requested:
            return False  # SB3 stops learning; train() saves the checkpoint
        self.bar.update(self.venv.num_envs)
        config = self.config
        if self._due("next_snapshot", config.snapshot_every):
            self.league.add_snapshot(self.model.policy, self.num_timesteps)
            self.venv.set_opponents(*self.league.pool())
        if self._due("next_eval", config.eval_every):
            self._evaluate()
        if self._due("next_checkpoint", config.checkpoint_every):
            self.state["train_seconds"] = self.seconds_before + time.perf_counter() - self.started
            save_checkpoint(self.model, self.league, self.state, self.folder)
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


def save_checkpoint(model: MaskablePPO, league: League, state: dict, folder: RunFolder) -> None:
    """The model, the league and the run's progress, each written whole or not at all."""
    folder.checkpoint.mkdir(parents=True, exist_ok=True)
    write_atomically(folder.checkpoint / "model.zip", model.save)
    state = dict(state, num_timesteps=model.num_timesteps, snapshots=league.save(folder.checkpoint / "league"))
    write_json(folder.checkpoint / "state.json", state)


def _apply_changes(model: MaskablePPO, config: TrainConfig) -> None:
    """A resumed model takes the config's changeable settings (see ``train/run.py``)."""
    from stable_baselines3.common.utils import ConstantSchedule

    model.learning_rate = config.learning_rate
    model._setup_lr_schedule()
    model.clip_range = ConstantSchedule(config.clip_range)
    model.batch_size, model.n_epochs = config.batch_size, config.n_epochs
    model.ent_coef, model.vf_coef, model.max_grad_norm = config.ent_coef, config.vf_coef, config.max_grad_norm
    model.gamma = model.rollout_buffer.gamma = config.gamma
    model.gae_lambda = model.rollout_buffer.gae_lambda = config.gae_lambda


class _StopOnInterrupt:
    """Ctrl-C asks the training loop to stop at the next step (a second Ctrl-C stops at once)."""

    def __init__(self):
        self.requested = False

    def __enter__(self):
        self.previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum, frame):
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        print("\nstopping: saving a checkpoint (Ctrl-C again to stop at once)", file=sys.stderr)

    def __exit__(self, *exc):
        signal.signal(signal.SIGINT, self.previous)
        return False


def train(config: TrainConfig, resume: bool = False) -> dict:
    """Train (or resume) a run; returns the final evaluation (``summary["interrupted"]`` when
    Ctrl-C stopped it: the checkpoint is saved and ``--resume`` continues)."""
    torch.set_num_threads(config.torch_threads)
    rules = config.make_rules()
    folder = RunFolder(config)
    resuming = resume and folder.has_checkpoint()
    changes = folder.resume_changes() if resuming else None
    saved = folder.load_state() if resuming else None
    if resume and not resuming:
        print(f"no checkpoint in {folder.checkpoint}: starting afresh", file=sys.stderr)
    folder.open()
    try:
        return _train(config, rules, folder, saved, changes)
    finally:
        folder.close()


def _train(config: TrainConfig, rules: Rules, folder: RunFolder, saved: dict | None, changes) -> dict:
    run = folder.path
    league = League(config.opponents, config.max_snapshots, seed=config.seed, rules=rules)
    state = {"next_eval": config.eval_every, "next_checkpoint": config.checkpoint_every,
             "next_snapshot": config.snapshot_every, "evals": [], "train_seconds": 0.0}
    venv = HandFootVecEnv(num_envs=config.num_envs, rules=rules, opponent=list(league.scripted.values()),
                          seed=config.seed, reward_mode=config.reward_mode, shaping=config.shaping)
    if saved is not None:
        model = MaskablePPO.load(folder.checkpoint / "model.zip", env=venv, device="cpu",
                                 tensorboard_log=str(run / "tensorboard"))
        _apply_changes(model, config)
        league.load(saved.pop("snapshots", []), model.policy)
        state.update({k: saved[k] for k in ("next_eval", "next_checkpoint", "next_snapshot", "evals")})
        state["train_seconds"] = saved.get("train_seconds", 0.0)
        changed = ", ".join(f"{k} {old!r} -> {new!r}" for k, (old, new) in (changes or {}).items())
        print(f"resuming {config.name} at {model.num_timesteps:,} steps" + (f"; changed: {changed}" if changed else ""),
              file=sys.stderr)
    else:
        model = MaskablePPO(
            "MlpPolicy", venv, n_steps=config.n_steps, batch_size=config.batch_size, n_epochs=config.n_epochs,
            learning_rate=config.learning_rate, gamma=config.gamma, gae_lambda=config.gae_lambda,
            clip_range=config.clip_range, ent_coef=config.ent_coef, vf_coef=config.vf_coef,
            max_grad_norm=config.max_grad_norm, policy_kwargs={"net_arch": list(config.net_arch)},
            tensorboard_log=str(run / "tensorboard"), seed=config.seed, device="cpu", verbose=0,
        )
    folder.record_config(model.num_timesteps, changes)
    venv.set_opponents(*league.pool())
    print(f"TensorBoard logs: {run / 'tensorboard'}  (tensorboard --logdir {run / 'tensorboard'})", file=sys.stderr)
    callback = LabCallback(config, rules, league, venv, state, folder)
    remaining = config.total_timesteps - model.num_timesteps
    start = time.perf_counter()
    with _StopOnInterrupt() as interrupt:
        callback.interrupt = interrupt
        if remaining > 0:
            model.learn(remaining, callback=callback, reset_num_timesteps=False, tb_log_name="ppo")
    elapsed = time.perf_counter() - start
    state["train_seconds"] = callback.seconds_before + elapsed
    save_checkpoint(model, league, state, folder)
    summary = {
        "config": config.to_dict(),
        "num_timesteps": model.num_timesteps,
        "train_seconds": state["train_seconds"],  # all segments of the run, resumed ones included
        "train_steps_per_sec": remaining / elapsed if remaining > 0 and elapsed > 0 else None,
        "evals": state["evals"],
        "interrupted": interrupt.requested,
    }
    if interrupt.requested:
        print(f"interrupted at {model.num_timesteps:,} steps; checkpoint saved in {folder.checkpoint}.\n"
              f"resume with: handfoot train --config {run / 'config.json'} --resume", file=sys.stderr)
        return summary
    write_atomically(run / "model.zip", model.save)
    try:
        summary["final"] = evaluate(model.policy, rules, config.eval_opponents, config.final_eval_pairs,
                                    seed=1_000_000)
    except BaseException:
        print(f"the final evaluation failed; the trained model is saved at {run / 'model.zip'}", file=sys.stderr)
        raise
    write_json(run / "final_eval.json", summary)
    return summary


def print_summary(summary: dict) -> None:
    config = summary["config"]
    if summary.get("interrupted"):
        return
    rate = summary["train_steps_per_sec"]
    print(f"\n{config['name']}: {summary['num_timesteps']:,} steps, {summary['train_seconds']:.0f} s of training"
          + (f" ({rate:,.0f} steps/s this segment)" if rate else ""))
    print(f"final evaluation, {config['preset']}, {config['final_eval_pairs']} duplicate pairs per opponent:\n")
    print(results_table(summary["final"]))
    print(f"\nrun folder: {Path(config['run_dir']) / config['name']}")


__all__ = ["train", "evaluate", "print_summary", "results_table"]
