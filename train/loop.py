"""The lab loop: everything around learning, for every algorithm (``train/algorithms/``).

    handfoot train --config configs/experiments/scratch.yaml [--set key=value] [--resume]

1. **Before learning** (``warm_start.py``): the input scaling from whole games; optionally a
   search over the heuristic's numbers and imitation of the variant found.
2. **Learning**: ``env.num_envs`` games on the vector engine, the learner on one side of
   each (both partners in partnership), opponents drawn per game from the league
   (``league.py``: scripted agents and frozen snapshots of the learner); each round the
   collector gathers ``n_steps`` decisions per game (``collect.py``; with ``ray.workers``,
   rollout workers on a Ray cluster, ``ray_workers.py``) and the algorithm updates.
3. **Around it**: duplicate-deal evaluations every ``eval.every`` steps (TensorBoard against
   steps and wall time); with ``eval.keep_best_vs`` a selection match on the same
   ``eval.select_pairs`` deals each time, the best policy kept as ``best.pt``; checkpoints
   and ``--resume`` (``run.py``), Ctrl-C saves; a final table on deals no evaluation played.

Deals are kept apart by seed (``agents/evaluation/seeds.py``: training, the warm start, the
curves, selection and the final table each have their own range).  A resumed run continues on
new deals: the games in progress at the checkpoint are not saved, so
it is not bit-for-bit the run that never stopped.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch

from agents import make_agent
from agents.evaluation.matches import play_match
from agents.evaluation.seeds import CURVE_SEEDS, FINAL_SEEDS, SELECTION_SEEDS, WIN_PROB_SEEDS
from agents.policy import Policy, compact_columns, device_label, resolve_device, rule_actions, with_advisor_by_name
from agents.trained import PPOAgent
from handfoot_env.baselines.heuristic_params import NAMES
from handfoot_env.cards import NUM_KINDS
from handfoot_env.errors import first_line
from handfoot_env.rules import Rules
from handfoot_env.seating.rewards import WinProbability
from train.algorithms import ALGORITHMS
from train.collect import RolloutCollector, deals_after, training_seed
from train.config import TrainConfig
from train.league import League
from train.run import RunFolder, read_json, write_atomically, write_json
from train.warm_start import warm_start

if TYPE_CHECKING:
    from train.ray_workers import RayCollector

# Where a training step's time goes: in this process (simulation, opponents, inference), or
# waiting on the Ray rollout workers (rollouts), and the update.
LEARNING_PARTS = ("simulation", "opponents", "inference", "rollouts", "update")


def learning_time(timing: dict[str, float]) -> tuple[float, dict[str, float]]:
    """The learning seconds in ``timing`` (its LEARNING_PARTS; the warm start and the evaluations
    are not) and each learning part's share of them."""
    seconds = sum(timing.get(part, 0.0) for part in LEARNING_PARTS)
    return seconds, {part: spent / max(seconds, 1e-9) for part, spent in timing.items() if part in LEARNING_PARTS}


# ---------------------------------------------------------------------------- parts
def make_policy(config: TrainConfig, rules: Rules) -> Policy:
    """The network the config describes (``network:``)."""
    net = config.network
    return Policy(
        tuple(net.arch),
        advisor=net.advisor,
        columns=compact_columns(rules) if net.compact else None,
        mask_actions=rule_actions(rules) if net.mask_input else None,
        shared=net.shared,
        clip=net.clip,
        precision=net.precision,
        critic_extra=rules.num_players * 2 * NUM_KINDS if net.privileged_critic else 0,
        advisor_prior=net.advisor_prior,
    )


def win_probability(
    config: TrainConfig, rules: Rules, folder: Path, say, resuming: bool = False
) -> WinProbability | None:
    """The fitted win-probability model (``reward_mode: win_prob``): a resumed run's own file (it
    keeps the reward it started with), else a cached fit for these rules, else a new fit (cached
    for the next run); the run's folder keeps a copy."""
    if config.env.reward_mode != "win_prob":
        return None
    own = folder / "win_prob.json"
    if resuming and own.exists():  # a fresh run in an old folder fits for its own rules
        return WinProbability.from_dict(read_json(own, "win-probability model"))
    from agents import agent_model_file
    from train.win_prob import AGENTS, MODEL_VERSION, fit_win_prob

    # the cache holds a fit while what it was fitted from is unchanged: rules, games, the model's
    # features (MODEL_VERSION) and the agents that played (the shipped tuned file's bytes)
    tuned_file = agent_model_file("tuned", rules)
    tuned = hashlib.sha256(tuned_file.read_bytes()).hexdigest() if tuned_file and tuned_file.exists() else ""
    fitted_from = [rules.to_dict(), config.env.win_prob_games, MODEL_VERSION, list(AGENTS), tuned]
    key = hashlib.sha256(json.dumps(fitted_from, sort_keys=True).encode())
    cache = Path.home() / ".cache" / "handfoot" / "win_prob" / f"{key.hexdigest()[:16]}.json"
    if cache.exists():
        data = read_json(cache, "cached win-probability model", remedy="delete it to fit the model again")
        say(f"win-probability model: cached fit on {data['report']['games']:,} games ({cache})")
    else:
        model, report = fit_win_prob(rules, config.env.win_prob_games, seed=WIN_PROB_SEEDS, log=say)
        data = {**model.to_dict(), "report": report}
        cache.parent.mkdir(parents=True, exist_ok=True)
        write_json(cache, data)
    write_json(own, data)
    return WinProbability.from_dict(data)


def evaluate(
    policy: Policy, rules: Rules, opponents: list[str], pairs: int, seed: int, runners: list | None = None
) -> list[dict]:
    """Duplicate matches of the policy (its most likely legal action) against each opponent,
    here or spread over ``runners`` (the Ray rollout workers; the same results)."""
    if runners:
        from agents.evaluation.ray import agent_spec, play_matches_on_ray, policy_spec

        team = policy_spec(policy, rules)
        pairings = [(team, agent_spec(name, rules)) for name in opponents]  # a tuned file travels along
        found = play_matches_on_ray(rules, pairings, pairs, seed=seed, progress=False, runners=runners)
        return [result.to_dict() for result in found]
    agent = PPOAgent(policy, rules, deterministic=True, threads=torch.get_num_threads())
    results = []
    for name in opponents:
        result = play_match(rules, agent, make_agent(name, seed=seed, rules=rules), pairs, seed=seed, progress=False)
        result.team, result.vs = "ppo", name
        results.append(result.to_dict())
    return results


def results_table(results: list[dict], team: str = "ppo") -> str:
    """A Markdown table of match results (``MatchResult.to_dict()``), one row per opponent."""
    lines = [
        f"| {team} vs | games | win / draw / loss | win rate (95% CI) | score diff (95% CI) | mean actions |",
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


# ---------------------------------------------------------------------------- the run
def load_checkpoint(folder: RunFolder) -> dict:
    """The run's checkpoint/trainer.pt: the policy, the optimizer, the run's state and the league's
    snapshots in one file written at once, so that a kill at any moment leaves them together.
    A checkpoint written before it held them all keeps the state in state.json and the
    snapshots in league/ (``state`` read from there, ``league`` absent)."""
    path = folder.checkpoint / "trainer.pt"
    if not path.exists():
        raise ValueError(
            f"the checkpoint in {folder.checkpoint} has no trainer.pt; start the run afresh without --resume"
        )
    try:
        checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    except (pickle.UnpicklingError, EOFError, RuntimeError, ValueError, OSError) as exc:
        raise ValueError(
            f"the checkpoint {path} is corrupt ({first_line(exc)}); start the run afresh without --resume"
        ) from None
    if not isinstance(checkpoint, dict):
        raise ValueError(f"the checkpoint {path} is corrupt (not a checkpoint); start the run afresh without --resume")
    if "state" not in checkpoint:
        if not (folder.checkpoint / "state.json").exists():
            raise ValueError(
                f"the checkpoint in {folder.checkpoint} has no state.json; start the run afresh without --resume"
            )
        checkpoint["state"] = folder.load_state()
    return checkpoint


def train(config: TrainConfig, resume: bool = False, progress: bool = True) -> dict:
    """Train (or resume) a run; returns its summary (``summary["interrupted"]`` when Ctrl-C
    stopped it: the checkpoint is saved and ``--resume`` continues)."""
    import numba

    torch.set_num_threads(config.threads)
    numba.set_num_threads(min(config.threads, getattr(numba.config, "NUMBA_NUM_THREADS")))  # noqa: B009
    torch.manual_seed(config.seed)
    rules = config.make_rules()
    folder = RunFolder(config)
    resuming = resume and folder.has_checkpoint()
    changes = folder.resume_changes() if resuming else None
    if resume and not resuming:
        print(f"no checkpoint in {folder.checkpoint}: starting afresh", file=sys.stderr)
    cluster = None
    if config.ray.workers:  # before the run folder: an unfit cluster leaves nothing behind
        from agents.evaluation.ray import Cluster

        cluster = Cluster(config.ray.address)
    try:
        if cluster is not None:
            cluster.require_cpus(config.ray.workers, config.env.num_envs)
        folder.open()
        try:
            # read under the folder's lock, so that no live run writes a newer checkpoint after it
            lab = Lab(config, rules, folder, load_checkpoint(folder) if resuming else None, changes, progress)
            return lab.run()
        finally:
            folder.close()
    finally:
        if cluster is not None:
            cluster.close()


class Lab:
    """One run: the league, the collector, the algorithm and the bookkeeping around them."""

    def __init__(
        self, config: TrainConfig, rules: Rules, folder: RunFolder, checkpoint: dict | None, changes, progress
    ):
        from torch.utils.tensorboard import SummaryWriter

        self.config, self.rules, self.folder, self.progress = config, rules, folder, progress
        self.device = resolve_device(config.device)
        if config.device != "cpu":  # say what auto chose, and which GPU cuda runs on
            print(
                f"device {config.device}: the learner and inference run on {device_label(self.device)}", file=sys.stderr
            )
        self.policy = make_policy(config, rules).to(self.device)
        self.algorithm = ALGORITHMS[config.algorithm](config, self.policy)
        self.win_prob = win_probability(config, rules, folder.path, self._say, resuming=checkpoint is not None)
        self.collector: RolloutCollector | RayCollector
        self.runners: list | None = None
        # a resumed run deals new games (checkpoints from before the offset was saved: its bound)
        saved = None if checkpoint is None else checkpoint["state"]
        steps_done = 0 if saved is None else int(saved["num_timesteps"])
        self.deal_offset = 0 if saved is None else int(saved.get("deal_offset", deals_after(config, 0, steps_done)))
        first_deal = training_seed(config, self.deal_offset)
        self.league = League(config.league.opponents, config.league.max_snapshots, seed=first_deal, rules=rules)
        if config.ray.workers:
            from train.ray_workers import RayCollector

            self.collector = RayCollector(
                config, self.policy, self.win_prob, say=self._say, deal_offset=self.deal_offset
            )
            self.runners = list(self.collector.workers)  # evaluations run on the rollout workers too
            self._say(
                f"Ray: {config.ray.workers} rollout workers of {config.env.num_envs // config.ray.workers} games each"
            )
        else:
            self.collector = RolloutCollector.for_run(
                config, rules, self.league, first_deal, config.env.num_envs, self.win_prob
            )
        self.timer = self.collector.timer
        self.state: dict[str, Any] = {
            "num_timesteps": 0,
            "next_eval": config.eval.every,
            "next_checkpoint": config.checkpoint_every,
            "next_snapshot": config.league.snapshot_every,
            "evals": [],
            "selections": [],
            "train_seconds": 0.0,
            "warm_start": None,
        }
        if checkpoint is not None:
            self._resume(checkpoint, changes)
        self.steps_before = self.state["num_timesteps"]  # this segment's start: the timer counts it only
        folder.record_config(self.state["num_timesteps"], changes)
        self.collector.set_league(self.league)
        self.writer = SummaryWriter(str(folder.path / "tensorboard"))
        print(
            f"TensorBoard logs: {folder.path / 'tensorboard'}  (tensorboard --logdir {folder.path / 'tensorboard'})",
            file=sys.stderr,
        )

    def _resume(self, checkpoint: dict, changes) -> None:
        saved = checkpoint["state"]
        weights = dict(checkpoint["policy"])
        weights.setdefault("mask_actions", torch.zeros(0, dtype=torch.int64))  # checkpoints from before the input
        try:
            self.policy.load_state_dict(with_advisor_by_name(weights, checkpoint.get("advisor_param_names")))
            self.algorithm.load_state_dict(checkpoint["algorithm"])
        except (RuntimeError, ValueError, KeyError) as exc:  # another network, or another handfoot's checkpoint
            raise ValueError(
                f"cannot resume from {self.folder.checkpoint}: its network or algorithm does not fit this config "
                f"and handfoot ({first_line(exc)}); start afresh in another run_dir"
            ) from None
        self.state.update({k: saved[k] for k in (*self.state, "best_win_rate", "best_step") if k in saved})
        self._adopt_newer_best()
        if "league" in checkpoint:
            self.league.restore(checkpoint["league"], self.policy, self.rules)
        else:
            self.league.load_files(
                saved.get("snapshots", []), self.folder.checkpoint / "league", self.policy, self.rules
            )
        changed = ", ".join(f"{k} {old!r} -> {new!r}" for k, (old, new) in (changes or {}).items())
        print(
            f"resuming {self.config.name} at {self.state['num_timesteps']:,} steps"
            + (f"; changed: {changed}" if changed else ""),
            file=sys.stderr,
        )

    def _adopt_newer_best(self) -> None:
        """A run killed between a selection and the next checkpoint left a best.pt newer than the
        checkpoint's record of it: its rate stays the mark to beat, so a weaker policy of the
        resumed segment does not overwrite it."""
        against, path = self.config.eval.keep_best_vs, self.folder.path / "best.pt"
        saved = [f.stat().st_mtime_ns for f in self.folder.checkpoint.glob("*") if f.is_file()]
        if not against or not path.exists() or path.stat().st_mtime_ns <= max(saved, default=0):
            return  # none, or one the checkpoint knows (or an earlier run's left in the folder)
        try:
            _, _, extra = Policy.load(path)
        except Exception as exc:  # noqa: BLE001 (a foreign or damaged file: the checkpoint's record stands)
            print(f"note: {path} is not read as the best so far: {first_line(exc)}", file=sys.stderr)
            return
        rate, step = (extra.get("win_rate_vs") or {}).get(against), extra.get("steps")
        if not isinstance(rate, float) or not isinstance(step, int) or step <= self.state["num_timesteps"]:
            return
        if rate > self.state.get("best_win_rate", -1.0):
            self.state["best_win_rate"], self.state["best_step"] = rate, step
            self.state["selections"].append({"step": step, "win_rate": rate, "ci95": None, "after_checkpoint": True})
            print(
                f"best.pt of step {step:,} ({rate:.1%} against {against}), written after the checkpoint, "
                "stays the mark to beat",
                file=sys.stderr,
            )

    # ------------------------------------------------------------------ the loop
    def run(self) -> dict:
        """The warm start (a fresh run), then rollouts and updates until the steps or the time
        are spent or Ctrl-C; then the checkpoint and, unless interrupted, the final table."""
        try:
            return self._run()
        finally:
            self.writer.close()  # flushes the last scalars, after Ctrl-C or an error too

    def _run(self) -> dict:
        config, state = self.config, self.state
        started = time.perf_counter()
        self.seconds_before = state["train_seconds"]
        with StopOnInterrupt() as interrupt:  # Ctrl-C during the warm start stops after it
            if state["num_timesteps"] == 0 and state["warm_start"] is None:
                state["warm_start"] = warm_start(
                    config, self.rules, self.policy, self.folder.path, self.timer, self._say, self._log, self.runners
                )
                self.algorithm.after_warm_start()
                if config.eval.every > 0 and not interrupt.requested:
                    self._evaluate(None)  # where learning starts from
            bar = self._bar()
            while not self._done() and not interrupt.requested:
                batch = self.collector.collect(
                    self.policy, self.algorithm.explore, config.algo.n_steps, stop=lambda: interrupt.requested
                )
                if batch is None:
                    break
                tick = time.perf_counter()
                stats = self.algorithm.update(batch, state["num_timesteps"])
                self.timer.add("update", time.perf_counter() - tick)
                state["num_timesteps"] += config.rollout_steps
                for key, value in stats.items():
                    self.writer.add_scalar(f"train/{key}", value, state["num_timesteps"])
                self.writer.add_scalar("train/mean_reward", float(batch["rewards"].mean()), state["num_timesteps"])
                if bar is not None:
                    bar.update(config.rollout_steps)
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
        return self.finish(summary)

    def finish(self, summary: dict) -> dict:
        """Save the final policy (the best one, with keep_best_vs) and its table on fresh deals."""
        config, state = self.config, self.state
        model = self.folder.path / "model.pt"
        write_atomically(model, lambda handle: self.policy.save(handle, self.rules, {"steps": state["num_timesteps"]}))
        if config.eval.keep_best_vs and "best_step" in state:
            # keep what works: the policy that did best in the selection matches (the final
            # table below plays fresh deals, so its numbers are not chosen by luck)
            self.policy, _, _ = Policy.load(self.folder.path / "best.pt")
            write_atomically(
                model,
                lambda handle: self.policy.save(
                    handle, self.rules, {"steps": state["best_step"], "kept_as_best_vs": config.eval.keep_best_vs}
                ),
            )
            self._say(
                f"kept the policy of step {state['best_step']:,} ({state['best_win_rate']:.1%} against "
                f"{config.eval.keep_best_vs} on {config.eval.select_pairs} selection pairs)"
            )
            summary["kept_step"] = state["best_step"]
        try:
            self._say(
                f"final evaluation: {config.eval.final_pairs} duplicate pairs against {', '.join(config.eval.opponents)}"
            )
            summary["final"] = evaluate(
                self.policy, self.rules, config.eval.opponents, config.eval.final_pairs, FINAL_SEEDS, self.runners
            )
        except BaseException:
            print(f"the final evaluation failed; the trained model is saved at {model}", file=sys.stderr)
            raise
        write_json(self.folder.path / "final_eval.json", summary)
        return summary

    # ------------------------------------------------------------------ around the loop
    def _done(self) -> bool:
        """The steps are done, or the time budget (``time_limit_minutes``) is spent."""
        limit = self.config.time_limit_minutes * 60
        if limit and self.state["train_seconds"] >= limit:
            if not self.state.get("stopped_by_time"):
                self._say(f"time limit: {self.config.time_limit_minutes:g} minutes of training spent")
            self.state["stopped_by_time"] = True
            return True
        return self.state["num_timesteps"] >= self.config.total_timesteps

    def _due(self, key: str, every: int) -> bool:
        """Whether the periodic task whose next step is ``state[key]`` is due; if so, its next step
        moves past the current one (by whole ``every``s: a rollout longer than ``every`` runs it once)."""
        if every <= 0 or self.state["num_timesteps"] < self.state[key]:
            return False
        while self.state[key] <= self.state["num_timesteps"]:
            self.state[key] += every
        return True

    def periodic(self, bar) -> None:
        """After each update: TensorBoard's time figures, then whatever is due: a league snapshot,
        an evaluation (and selection), a checkpoint."""
        config, step = self.config, self.state["num_timesteps"]
        # steps over every training second so far, and the learning parts' shares: the summary's
        # train_steps_per_sec and timing_shares as the run goes
        self.writer.add_scalar("time/train_steps_per_sec", step / max(self.state["train_seconds"], 1e-9), step)
        for part, share in learning_time(self.timer.seconds)[1].items():
            self.writer.add_scalar(f"time/share_{part}", share, step)
        if self._due("next_snapshot", config.league.snapshot_every):
            self.league.add_snapshot(self.policy, self.rules, step, sample=self.algorithm.samples_snapshots)
            self.collector.set_league(self.league)
        if self._due("next_eval", config.eval.every):
            self._evaluate(bar)
        if self._due("next_checkpoint", config.checkpoint_every):
            self.save_checkpoint()

    def _evaluate(self, bar) -> None:
        config, step = self.config, self.state["num_timesteps"]
        tick = time.perf_counter()
        results = evaluate(self.policy, self.rules, config.eval.opponents, config.eval.pairs, CURVE_SEEDS, self.runners)
        wall = self.state["train_seconds"]
        for r in results:
            self.writer.add_scalar(f"eval/{r['vs']}/win_rate", r["win_rate"], step)
            self.writer.add_scalar(f"eval/{r['vs']}/score_diff", r["score_diff"], step)
            self.writer.add_scalar(f"eval_by_seconds/{r['vs']}/win_rate", r["win_rate"], int(wall))
        self.state["evals"].append({"step": step, "seconds": wall, "results": results})
        line = ", ".join(f"vs {r['vs']}: {r['win_rate']:.1%}" for r in results)
        if config.eval.keep_best_vs:
            line += self._select(step)
        self.timer.add("evaluation", time.perf_counter() - tick)
        self._say(f"[{step:,} steps, {wall:.0f} s] {line} ({time.perf_counter() - tick:.0f} s)", bar)

    def _select(self, step: int) -> str:
        """The selection match: the same deals every time, so checkpoints compare paired."""
        config = self.config
        (result,) = evaluate(
            self.policy, self.rules, [config.eval.keep_best_vs], config.eval.select_pairs, SELECTION_SEEDS, self.runners
        )
        rate = result["win_rate"]
        self.state["selections"].append({"step": step, "win_rate": rate, "ci95": result["ci95"]})
        self.writer.add_scalar(f"select/{config.eval.keep_best_vs}/win_rate", rate, step)
        if rate > self.state.get("best_win_rate", -1.0):
            self.state["best_win_rate"], self.state["best_step"] = rate, step
            write_atomically(
                self.folder.path / "best.pt",
                lambda handle: self.policy.save(
                    handle, self.rules, {"steps": step, "win_rate_vs": {config.eval.keep_best_vs: rate}}
                ),
            )
        return f"; selection vs {config.eval.keep_best_vs}: {rate:.1%} (best {self.state['best_win_rate']:.1%})"

    def save_checkpoint(self) -> None:
        """trainer.pt (weights, the algorithm's state, the run's state, the league), written at once,
        then state.json as a copy to read; the state records where a resumed segment deals from
        (``deals_after``)."""
        folder = self.folder.checkpoint
        folder.mkdir(parents=True, exist_ok=True)
        next_offset = deals_after(self.config, self.deal_offset, self.state["num_timesteps"] - self.steps_before)
        state = dict(self.state, deal_offset=next_offset)
        write_atomically(
            folder / "trainer.pt",
            lambda handle: torch.save(
                {
                    "policy": self.policy.state_dict(),
                    "algorithm": self.algorithm.state_dict(),
                    "advisor_param_names": list(NAMES),
                    "state": state,
                    "league": self.league.saved(),
                },
                handle,
            ),
        )
        shutil.rmtree(folder / "league", ignore_errors=True)  # the old layout's snapshots: trainer.pt has them
        # a copy to read (the evaluations so far); --resume reads trainer.pt's
        snapshots = [{"step": step, "sample": self.league.sample} for step in self.league.snapshot_steps]
        write_json(folder / "state.json", dict(state, snapshots=snapshots))

    def summary(self, interrupted: bool) -> dict:
        """The run's record (final_eval.json without its final table): config, steps, time and
        where it went, every evaluation and selection."""
        state, timing = self.state, dict(self.timer.seconds)
        learning, shares = learning_time(timing)
        return {
            "config": self.config.to_dict(),
            "num_timesteps": state["num_timesteps"],
            "train_seconds": state["train_seconds"],  # all segments of the run, resumed ones included
            "train_steps_per_sec": state["num_timesteps"] / max(state["train_seconds"], 1e-9),
            "learner_steps_per_sec": (state["num_timesteps"] - self.steps_before) / max(learning, 1e-9),
            "timing": timing,
            "timing_shares": shares,
            "warm_start": state.get("warm_start"),
            "evals": state["evals"],
            "selections": state["selections"],
            "interrupted": interrupted,
            "stopped_by_time": bool(state.get("stopped_by_time")),
            # on Ray: the rollout workers' own seconds per part (summed over workers) and restarts
            "ray": self._ray_summary(),
        }

    def _ray_summary(self) -> dict | None:
        collector = self.collector
        if isinstance(collector, RolloutCollector):
            return None
        return {
            "workers": self.config.ray.workers,
            "worker_timing": dict(collector.worker_timer.seconds),
            "worker_restarts": collector.restarts,
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

    def _log(self, key: str, value: float, step: int) -> None:
        self.writer.add_scalar(key, value, step)

    def _say(self, text: str, bar=None) -> None:
        (bar.write if bar is not None else lambda t: print(t, file=sys.stderr))(text)


def bench_overrides(folder: str, steps: int) -> list[str]:
    """``--set`` items that turn a config into a throughput measurement (``handfoot bench
    --train``): ``steps`` learner steps in ``folder``, no warm start, evaluation or checkpoint."""
    return [
        f"run_dir={folder}",
        "name=bench",
        f"total_timesteps={steps}",
        "eval.every=0",
        "checkpoint_every=0",
        "imitation.decisions=0",
        "tune.generations=0",
        "ppo.value_warmup_rollouts=0",
        "ppo.anchor_coef=0",
        "league.snapshot_every=0",
        "eval.keep_best_vs=",
        "eval.final_pairs=1",
        "eval.opponents=[random]",
        "network.scaling_positions=2000",
    ]


def print_summary(summary: dict) -> None:
    """The finished run's final table and where its files are (nothing for an interrupted run:
    it said how to resume)."""
    config = summary["config"]
    if summary.get("interrupted"):
        return
    shares = summary.get("timing_shares", {})
    print(
        f"\n{config['name']}: {summary['num_timesteps']:,} steps, {summary['train_seconds']:.0f} s of training "
        f"({summary['train_steps_per_sec']:,.0f} steps/s; " + ", ".join(f"{k} {v:.0%}" for k, v in shares.items()) + ")"
    )
    tuned = (summary.get("warm_start") or {}).get("tuned")
    if tuned:
        final = tuned["final"]
        print(
            f"heuristic search: the tuned heuristic won {final['win_rate']:.1%} ({final['ci95'][0]:.1%} - "
            f"{final['ci95'][1]:.1%}) of {final['games']} fresh games against the heuristic; it changed "
            + ", ".join(f"{k}={v:g}" for k, v in tuned["changed"].items())
        )
    print(f"final evaluation, {config['preset']}, {config['eval']['final_pairs']} duplicate pairs per opponent:\n")
    print(results_table(summary["final"]))
    print(
        f"\nrun folder: {Path(config['run_dir']) / config['name']}  "
        f"(agent: ppo:{Path(config['run_dir']) / config['name'] / 'model.pt'})"
    )


__all__ = [
    "LEARNING_PARTS",
    "Lab",
    "bench_overrides",
    "evaluate",
    "make_policy",
    "print_summary",
    "results_table",
    "train",
]
