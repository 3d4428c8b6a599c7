"""Self-play training: PPO with masked actions on the vector engine, read top to bottom.

    handfoot train --config configs/quick.yaml [--set key=value] [--resume]

0. **Heuristic search** (``tune_generations``, optional): the cross-entropy method over the
   heuristic's own numbers by duplicate matches (``tune.py``); the variant found is the
   teacher and advisor below.
1. **Warm start** (``imitation_decisions``): the actor imitates the compiled heuristic on
   positions of its own games (``imitation.py``); then ``value_warmup_rollouts`` rollouts
   train the critic alone, so that the first policy updates have honest advantages.
2. **PPO** (Schulman et al. 2017, as CleanRL writes it): ``num_envs`` games on the vector
   engine, the learner on one side of each (both partners in partnership), opponents drawn
   per game from the league (``league.py``: scripted baselines and frozen snapshots of the
   learner).  Each rollout is ``n_steps`` learner decisions per game with GAE advantages
   (``collect.py``; with ``ray_workers``, collected by rollout workers on a Ray cluster,
   ``cluster.py``); then ``n_epochs`` passes of clipped policy and value losses over minibatches.
3. **The lab around it**: duplicate-deal evaluations against the baselines every
   ``eval_every`` steps (TensorBoard, against steps and against wall time), checkpoints
   every ``checkpoint_every`` steps and ``--resume`` (``run.py``), Ctrl-C saves, and a
   final evaluation table.  Time is accounted per part: simulation, scripted opponents,
   learner inference, updates and evaluation (``summary["timing"]``).

The result is one policy file, ``model.pt`` (``agents/policy.py``), loadable as
``ppo:runs/NAME/model.pt`` by ``handfoot eval``, ``handfoot play`` and the shells.
"""

from __future__ import annotations

import copy
import signal
import sys
import time
from pathlib import Path

import numpy as np
import torch

from agents import make_agent
from agents.policy import Policy, autocast, with_advisor_by_name
from agents.ppo import PPOAgent
from handfoot_env.baselines.heuristic_params import NAMES, save_params
from handfoot_env.rules import Rules
from train.collect import RolloutCollector
from train.config import TrainConfig
from train.evaluate import play_match
from train.imitation import imitate
from train.league import League
from train.run import RunFolder, write_atomically, write_json
from train.tune import TuneConfig, tune


# ---------------------------------------------------------------------------- evaluation
def evaluate(
    policy: Policy, rules: Rules, opponents: list[str], pairs: int, seed: int, runners: list | None = None
) -> list[dict]:
    """Duplicate matches of the (deterministic) policy against each baseline, here or spread
    over ``runners`` (the Ray rollout workers; the same results)."""
    if runners:
        from train.cluster import AgentSpec, play_matches_on_ray, policy_spec

        team = policy_spec(policy, rules)
        found = play_matches_on_ray(
            rules, [(team, AgentSpec(name)) for name in opponents], pairs, seed=seed, progress=False, runners=runners
        )
        return [result.to_dict() for result in found]
    agent = PPOAgent(policy, rules, deterministic=True, threads=torch.get_num_threads())
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


# ---------------------------------------------------------------------------- the run
# Where a training step's time goes: in this process (simulation, opponents, inference), or
# waiting on the Ray rollout workers (rollouts), and the update.
LEARNING_PARTS = ("simulation", "opponents", "inference", "rollouts", "update")


class StopOnInterrupt:
    """Ctrl-C asks the training loop to stop after the current step (twice: at once)."""

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


def train(config: TrainConfig, resume: bool = False, progress: bool = True) -> dict:
    """Train (or resume) a run; returns its summary (``summary["interrupted"]`` when Ctrl-C
    stopped it: the checkpoint is saved and ``--resume`` continues)."""
    torch.set_num_threads(config.torch_threads)
    torch.manual_seed(config.seed)
    rules = config.make_rules()
    folder = RunFolder(config)
    resuming = resume and folder.has_checkpoint()
    changes = folder.resume_changes() if resuming else None
    saved = folder.load_state() if resuming else None
    if resume and not resuming:
        print(f"no checkpoint in {folder.checkpoint}: starting afresh", file=sys.stderr)
    cluster = None
    if config.ray_workers:  # before the run folder: an unfit cluster leaves nothing behind
        from train.cluster import Cluster

        cluster = Cluster(config.ray_address)
    try:
        if cluster is not None:
            cluster.require_workers(config)
        folder.open()
        try:
            return Trainer(config, rules, folder, saved, changes, progress).run()
        finally:
            folder.close()
    finally:
        if cluster is not None:
            cluster.close()


class Trainer:
    def __init__(
        self, config: TrainConfig, rules: Rules, folder: RunFolder, saved: dict | None, changes, progress: bool
    ):
        from torch.utils.tensorboard import SummaryWriter

        self.config, self.rules, self.folder, self.progress = config, rules, folder, progress
        self.league = League(config.opponents, config.max_snapshots, seed=config.seed, rules=rules)
        self.generator = torch.Generator().manual_seed(config.seed)
        if config.ray_workers:
            from train.cluster import RayCollector

            self.collector = RayCollector(config, say=self._say)
            self.runners = self.collector.workers  # evaluations run on the rollout workers too
            self._say(
                f"Ray: {config.ray_workers} rollout workers of {config.num_envs // config.ray_workers} games each"
            )
        else:
            self.collector = RolloutCollector(
                config, rules, *self.league.pool(), seed=config.seed, num_envs=config.num_envs, generator=self.generator
            )
            self.runners = None
        self.timer = self.collector.timer
        self.policy = Policy(tuple(config.net_arch), advisor=config.advisor)
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=config.learning_rate, eps=1e-5)
        self.anchor: Policy | None = None  # the warm-start policy, frozen (anchor_coef)
        self.state = {
            "num_timesteps": 0,
            "next_eval": config.eval_every,
            "next_checkpoint": config.checkpoint_every,
            "next_snapshot": config.snapshot_every,
            "evals": [],
            "train_seconds": 0.0,
            "warm_start": None,
            "rollouts": 0,
            "tuned": None,
        }
        if saved is not None:
            checkpoint = torch.load(folder.checkpoint / "trainer.pt", map_location="cpu", weights_only=False)
            names = checkpoint.get("advisor_param_names")  # none in checkpoints from before 0.4.0
            try:
                self.policy.load_state_dict(with_advisor_by_name(checkpoint["policy"], names))
                self.optimizer.load_state_dict(checkpoint["optimizer"])
                if checkpoint.get("anchor") is not None:
                    self.anchor = self._frozen_copy()
                    self.anchor.load_state_dict(with_advisor_by_name(checkpoint["anchor"], names))
            except (RuntimeError, ValueError) as exc:  # another network, or a checkpoint from another handfoot
                raise ValueError(
                    f"cannot resume from {folder.checkpoint}: its network does not fit this config "
                    f"and handfoot ({str(exc).splitlines()[0]}); start afresh in another run_dir"
                ) from None
            if checkpoint.get("anchor") is None and config.anchor_coef > 0:
                raise ValueError(
                    "anchor_coef needs the warm-start policy, which this run did not keep "
                    "(it started with anchor_coef 0): resume it with anchor_coef=0"
                )
            for group in self.optimizer.param_groups:
                group["lr"] = config.learning_rate  # a changed learning rate takes effect
            # the saved state, with the best evaluation so far (kept by keep_best_vs) when there was one
            self.state.update({k: saved[k] for k in (*self.state, "best_win_rate", "best_step") if k in saved})
            self.league.load(saved.get("snapshots", []), self.policy, rules)
            changed = ", ".join(f"{k} {old!r} -> {new!r}" for k, (old, new) in (changes or {}).items())
            print(
                f"resuming {config.name} at {self.state['num_timesteps']:,} steps"
                + (f"; changed: {changed}" if changed else ""),
                file=sys.stderr,
            )
        folder.record_config(self.state["num_timesteps"], changes)
        self.collector.set_league(self.league)
        self.writer = SummaryWriter(str(folder.path / "tensorboard"))
        print(
            f"TensorBoard logs: {folder.path / 'tensorboard'}  (tensorboard --logdir {folder.path / 'tensorboard'})",
            file=sys.stderr,
        )

    # ------------------------------------------------------------------ the loop
    def run(self) -> dict:
        config, state = self.config, self.state
        started = time.perf_counter()
        self.seconds_before = state["train_seconds"]
        if state["num_timesteps"] == 0 and state["warm_start"] is None:
            self.warm_start()
        bar = self._bar()
        with StopOnInterrupt() as interrupt:
            while state["num_timesteps"] < config.total_timesteps and not interrupt.requested:
                batch = self.rollout(interrupt)
                if batch is None:
                    break
                self.update(batch, train_actor=state["rollouts"] >= config.value_warmup_rollouts)
                state["rollouts"] += 1
                state["num_timesteps"] += config.num_envs * config.n_steps
                if bar is not None:
                    bar.update(config.num_envs * config.n_steps)
                state["train_seconds"] = self.seconds_before + time.perf_counter() - started
                self.periodic(bar)
        if bar is not None:
            bar.close()
        state["train_seconds"] = self.seconds_before + time.perf_counter() - started
        self.save_checkpoint()
        summary = self.summary(interrupted=interrupt.requested)
        if interrupt.requested:
            print(
                f"interrupted at {state['num_timesteps']:,} steps; checkpoint saved in {self.folder.checkpoint}.\n"
                f"resume with: handfoot train --config {self.folder.path / 'config.json'} --resume",
                file=sys.stderr,
            )
            return summary
        model = self.folder.path / "model.pt"
        write_atomically(model, lambda handle: self.policy.save(handle, self.rules, {"steps": state["num_timesteps"]}))
        if config.keep_best_vs and (self.folder.path / "best.pt").exists():
            # keep what works: the policy that evaluated best against keep_best_vs (the final
            # evaluation below plays fresh deals, so its numbers are not chosen by luck)
            self.policy, _, _ = Policy.load(self.folder.path / "best.pt")
            write_atomically(
                model,
                lambda handle: self.policy.save(
                    handle, self.rules, {"steps": state["best_step"], "kept_as_best_vs": config.keep_best_vs}
                ),
            )
            self._say(
                f"kept the policy of step {state['best_step']:,} "
                f"({state['best_win_rate']:.0%} against {config.keep_best_vs} in its evaluation)"
            )
            summary["kept_step"] = state["best_step"]
        try:
            self._say(
                "final evaluation: "
                f"{config.final_eval_pairs} duplicate pairs against {', '.join(config.eval_opponents)}"
            )
            summary["final"] = evaluate(
                self.policy,
                self.rules,
                config.eval_opponents,
                config.final_eval_pairs,
                seed=1_000_000,
                runners=self.runners,
            )
        except BaseException:
            print(f"the final evaluation failed; the trained model is saved at {model}", file=sys.stderr)
            raise
        write_json(self.folder.path / "final_eval.json", summary)
        self.writer.close()
        return summary

    def tune_heuristic(self) -> None:
        """Search the heuristic's numbers (``tune.py``); the variant found teaches and advises."""
        config = self.config
        self._say(
            f"heuristic search: {config.tune_generations} generations of {config.tune_population} variants, "
            f"{config.tune_pairs} duplicate sets each against the heuristic"
        )
        search = TuneConfig(
            generations=config.tune_generations,
            population=config.tune_population,
            elite=config.tune_elite,
            pairs=config.tune_pairs,
            seed=config.seed,
            final_pairs=config.final_eval_pairs,
            pair_positions=config.tune_pair_positions,
            fitness=config.tune_fitness,
            validate_generations=config.tune_validate_generations,
            validate_pairs=config.tune_validate_pairs,
        )
        if self.runners:  # on Ray the rollout workers play the search's matches too
            from train.cluster import play_variants_on_ray

            result = tune(
                self.rules,
                search,
                log=self._say,
                play=lambda rules, variants, deals, seed: play_variants_on_ray(
                    rules, variants, deals, seed, runners=self.runners
                ),
            )
        else:
            result = tune(self.rules, search, log=self._say)
        self.policy.advisor_params.copy_(torch.as_tensor(result.params))
        save_params(
            self.folder.path / "tuned.json",
            result.params,
            preset=self.rules.preset_name,
            players=self.rules.num_players,
            final=result.final.to_dict(),
            validation=result.validation,
        )
        self.timer.add("tuning", result.seconds)
        self.state["tuned"] = result.summary()
        self._say(
            f"heuristic search: the variant found wins {result.final.win_rate:.1%} "
            f"({result.final.ci95[0]:.1%} - {result.final.ci95[1]:.1%}) of {result.final.games} fresh games "
            f"against the heuristic ({result.seconds:.0f} s); saved as {self.folder.path / 'tuned.json'}"
        )

    def warm_start(self) -> None:
        """Imitate the (tuned) heuristic, then let the critic catch up (``value_warmup_rollouts``)."""
        config = self.config
        if config.tune_generations > 0:
            self.tune_heuristic()
        teacher = "the tuned heuristic" if config.tune_generations > 0 else "the heuristic"
        if config.imitation_decisions > 0:
            self._say(f"warm start: imitating {teacher} on {config.imitation_decisions:,} of its decisions")
            result = imitate(
                self.policy,
                self.rules,
                config.imitation_decisions,
                seed=config.seed + 99,
                learning_rate=config.imitation_learning_rate,
                passes=config.imitation_passes,
                log=lambda key, value, step: self.writer.add_scalar(key, value, step),
            )
            self.timer.add("imitation", result["seconds"])
            self._say(
                f"warm start: {result['accuracy']:.1%} of {teacher}'s choices matched ({result['seconds']:.0f} s)"
            )
            self.state["warm_start"] = result
            if config.anchor_coef > 0:
                self.anchor = self._frozen_copy()
            if config.eval_every > 0:
                self._evaluate(None)  # where the warm start stands, before any reinforcement
        else:
            observations, masks = self.collector.sample_inputs()
            self.policy.set_scaling(self.policy.inputs(observations, masks, self.rules))
            self.state["warm_start"] = {}

    def _frozen_copy(self) -> Policy:
        anchor = copy.deepcopy(self.policy).eval()
        anchor.requires_grad_(False)
        return anchor

    def rollout(self, interrupt: StopOnInterrupt) -> dict | None:
        """``n_steps`` learner decisions in every game, with everything PPO needs (``collect.py``)."""
        return self.collector.collect(self.policy, stop=lambda: interrupt.requested)

    def update(self, batch: dict, train_actor: bool) -> None:
        """``n_epochs`` passes of clipped PPO over the rollout (the critic alone while warming up)."""
        config = self.config
        tick = time.perf_counter()
        flat = {k: torch.as_tensor(v.reshape((-1,) + v.shape[2:])) for k, v in batch.items()}
        size = len(flat["actions"])
        stats: dict[str, list[float]] = {
            "policy_loss": [],
            "value_loss": [],
            "entropy": [],
            "approx_kl": [],
            "clip_fraction": [],
            "anchor_kl": [],
        }
        for _ in range(config.n_epochs):
            order = torch.randperm(size, generator=self.generator)
            for lo in range(0, size, config.batch_size):
                rows = order[lo : lo + config.batch_size]
                with autocast(config.precision):
                    logits, value = self.policy(flat["x"][rows], flat["masks"][rows])
                log_probs = torch.log_softmax(logits, -1)
                new_logprob = log_probs.gather(1, flat["actions"][rows][:, None]).squeeze(1)
                ratio = torch.exp(new_logprob - flat["logprobs"][rows])
                advantages = flat["advantages"][rows]
                advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
                policy_loss = torch.max(
                    -advantages * ratio, -advantages * ratio.clamp(1 - config.clip_range, 1 + config.clip_range)
                ).mean()
                value_loss = 0.5 * (value - flat["returns"][rows]).pow(2).mean()
                probs = log_probs.exp()
                entropy = -(probs * log_probs.masked_fill(~flat["masks"][rows], 0.0)).sum(-1).mean()
                loss = config.vf_coef * value_loss
                if train_actor:
                    loss = loss + policy_loss - config.ent_coef * entropy
                if train_actor and self.anchor is not None:
                    with torch.no_grad(), autocast(config.precision):
                        anchor_logits, _ = self.anchor(flat["x"][rows], flat["masks"][rows])
                    anchor_log_probs = torch.log_softmax(anchor_logits, -1)
                    anchor_kl = (
                        torch.where(flat["masks"][rows], anchor_log_probs.exp() * (anchor_log_probs - log_probs), 0.0)
                        .sum(-1)
                        .mean()
                    )
                    loss = loss + config.anchor_coef * anchor_kl
                    stats["anchor_kl"].append(float(anchor_kl.detach()))
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.policy.parameters(), config.max_grad_norm)
                self.optimizer.step()
                with torch.no_grad():
                    stats["policy_loss"].append(float(policy_loss))
                    stats["value_loss"].append(float(value_loss))
                    stats["entropy"].append(float(entropy))
                    stats["approx_kl"].append(float(((ratio - 1) - torch.log(ratio)).mean()))
                    stats["clip_fraction"].append(float(((ratio - 1).abs() > config.clip_range).float().mean()))
        self.timer.add("update", time.perf_counter() - tick)
        step = self.state["num_timesteps"]
        for key, values in stats.items():
            if not values:
                continue
            self.writer.add_scalar(f"train/{key}", float(np.mean(values)), step)
        returns, values = flat["returns"].numpy(), batch["values"].reshape(-1)
        self.writer.add_scalar(
            "train/explained_variance", 1 - np.var(returns - values) / (np.var(returns) + 1e-8), step
        )

    # ------------------------------------------------------------------ around the loop
    def _due(self, key: str, every: int) -> bool:
        if every <= 0 or self.state["num_timesteps"] < self.state[key]:
            return False
        while self.state[key] <= self.state["num_timesteps"]:
            self.state[key] += every
        return True

    def periodic(self, bar) -> None:
        config, step = self.config, self.state["num_timesteps"]
        seconds = sum(self.timer.seconds.get(k, 0.0) for k in LEARNING_PARTS)
        self.writer.add_scalar("time/learner_steps_per_sec", step / max(self.state["train_seconds"], 1e-9), step)
        for part, spent in self.timer.seconds.items():
            self.writer.add_scalar(f"time/share_{part}", spent / max(seconds, 1e-9), step)
        if self._due("next_snapshot", config.snapshot_every):
            self.league.add_snapshot(self.policy, self.rules, step)
            self.collector.set_league(self.league)
        if self._due("next_eval", config.eval_every):
            self._evaluate(bar)
        if self._due("next_checkpoint", config.checkpoint_every):
            self.save_checkpoint()

    def _evaluate(self, bar) -> None:
        config, step = self.config, self.state["num_timesteps"]
        self._say(
            f"[{step:,} steps] evaluating: {config.eval_pairs} duplicate pairs against "
            f"{', '.join(config.eval_opponents)}",
            bar,
        )
        tick = time.perf_counter()
        results = evaluate(
            self.policy,
            self.rules,
            config.eval_opponents,
            config.eval_pairs,
            seed=10_000 + len(self.state["evals"]),
            runners=self.runners,
        )
        self.timer.add("evaluation", time.perf_counter() - tick)
        wall = self.state["train_seconds"]
        for r in results:
            self.writer.add_scalar(f"eval/{r['vs']}/win_rate", r["win_rate"], step)
            self.writer.add_scalar(f"eval/{r['vs']}/score_diff", r["score_diff"], step)
            self.writer.add_scalar(f"eval_by_seconds/{r['vs']}/win_rate", r["win_rate"], int(wall))
        self.state["evals"].append({"step": step, "seconds": wall, "results": results})
        kept = next((r["win_rate"] for r in results if r["vs"] == config.keep_best_vs), None)
        if kept is not None and kept > self.state.get("best_win_rate", -1.0):
            self.state["best_win_rate"], self.state["best_step"] = kept, step
            write_atomically(
                self.folder.path / "best.pt",
                lambda handle: self.policy.save(
                    handle, self.rules, {"steps": step, "win_rate_vs": {config.keep_best_vs: kept}}
                ),
            )
        self._say(
            f"[{step:,} steps, {wall:.0f} s] "
            + ", ".join(f"vs {r['vs']}: {r['win_rate']:.0%}" for r in results)
            + f" ({time.perf_counter() - tick:.0f} s)",
            bar,
        )

    def save_checkpoint(self) -> None:
        folder = self.folder.checkpoint
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(
            folder / "trainer.pt",
            lambda handle: torch.save(
                {
                    "policy": self.policy.state_dict(),
                    "optimizer": self.optimizer.state_dict(),
                    "anchor": None if self.anchor is None else self.anchor.state_dict(),
                    "advisor_param_names": list(NAMES),
                },
                handle,
            ),
        )
        write_json(folder / "state.json", dict(self.state, snapshots=self.league.save(folder / "league")))

    def summary(self, interrupted: bool) -> dict:
        state, timing = self.state, dict(self.timer.seconds)
        learning = sum(timing.get(k, 0.0) for k in LEARNING_PARTS)
        return {
            "config": self.config.to_dict(),
            "num_timesteps": state["num_timesteps"],
            "train_seconds": state["train_seconds"],  # all segments of the run, resumed ones included
            "train_steps_per_sec": state["num_timesteps"] / max(state["train_seconds"], 1e-9),
            "timing": timing,
            "timing_shares": {k: v / max(learning, 1e-9) for k, v in timing.items() if k in LEARNING_PARTS},
            "warm_start": state.get("warm_start"),
            "tuned": state.get("tuned"),  # the heuristic search, when the config asks for one
            "evals": state["evals"],
            "interrupted": interrupted,
            # on Ray: the rollout workers' own seconds per part (summed over workers) and restarts
            "ray": None
            if not self.config.ray_workers
            else {
                "workers": self.config.ray_workers,
                "worker_timing": dict(self.collector.worker_timer.seconds),
                "worker_restarts": self.collector.restarts,
            },
        }

    def _bar(self):
        if not self.progress:
            return None
        from tqdm import tqdm

        return tqdm(
            total=self.config.total_timesteps,
            initial=self.state["num_timesteps"],
            unit="step",
            file=sys.stderr,
            desc=self.config.name,
            smoothing=0.1,
        )

    def _say(self, text: str, bar=None) -> None:
        (bar.write if bar is not None else lambda t: print(t, file=sys.stderr))(text)


def print_summary(summary: dict) -> None:
    config = summary["config"]
    if summary.get("interrupted"):
        return
    shares = summary.get("timing_shares", {})
    print(
        f"\n{config['name']}: {summary['num_timesteps']:,} steps, {summary['train_seconds']:.0f} s of training "
        f"({summary['train_steps_per_sec']:,.0f} steps/s; " + ", ".join(f"{k} {v:.0%}" for k, v in shares.items()) + ")"
    )
    tuned = summary.get("tuned")
    if tuned:
        final = tuned["final"]
        print(
            f"heuristic search: the tuned heuristic won {final['win_rate']:.1%} ({final['ci95'][0]:.1%} - "
            f"{final['ci95'][1]:.1%}) of {final['games']} fresh games against the heuristic; it changed "
            + ", ".join(f"{k}={v:g}" for k, v in tuned["changed"].items())
        )
    print(f"final evaluation, {config['preset']}, {config['final_eval_pairs']} duplicate pairs per opponent:\n")
    print(results_table(summary["final"]))
    print(
        f"\nrun folder: {Path(config['run_dir']) / config['name']}  (agent: ppo:{Path(config['run_dir']) / config['name'] / 'model.pt'})"
    )


__all__ = ["Trainer", "evaluate", "print_summary", "results_table", "train"]
