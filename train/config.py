"""Training configuration: one typed dataclass, every hyperparameter visible, loaded from YAML.

An unknown key or a bad value is a ``ValueError`` naming it; ``--set key=value`` overrides
(values parsed as YAML, so ``--set opponents.greedy=0.5`` and ``--set net_arch=[128,128]``).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from handfoot_env.baselines import BASELINE_NAMES
from handfoot_env.rewards import REWARD_MODES
from handfoot_env.rules import PRESET_NAMES
from handfoot_env.strict_yaml import load_yaml


@dataclass
class TrainConfig:
    name: str = "quick"
    preset: str = "partnership"
    # Overrides of the preset's rules, e.g. {num_players: 4} for house in teams, {num_deals: 4}.
    rules: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    total_timesteps: int = 500_000

    # --- environment --------------------------------------------------------------------
    num_envs: int = 256  # games stepped together on the vector engine
    reward_mode: str = "deal"  # "deal" (score difference each deal) or "game" (+1 / -1)
    shaping: float = 0.0  # weight of potential-based shaping on the running deal score

    # --- the network ------------------------------------------------------------------------
    net_arch: list[int] = field(default_factory=lambda: [256, 256])  # actor and critic hidden layers
    advisor: bool = True  # the heuristic's choice is an input: the network learns where to do better

    # --- heuristic search (train/tune.py) ---------------------------------------------------
    # Before the warm start, search the heuristic's numbers for a variant that beats it; that
    # variant then teaches (imitation) and advises (the advisor input). 0: the default heuristic.
    tune_generations: int = 0
    tune_population: int = 20  # candidates per generation
    tune_elite: int = 5  # best candidates the next generation centres on
    tune_pairs: int = 300  # duplicate sets each candidate plays per generation
    tune_pair_positions: int = 0  # positions the pair model is fitted on before the search (0: none)
    tune_fitness: str = "win_rate"  # what ranks the variants: win_rate or score_diff (train/tune.py)
    tune_validate_generations: int = 0  # the means of this many last generations and the final one play
    tune_validate_pairs: int = 1000  # ... this many fresh duplicate sets; the best is kept (0: the final mean)

    # --- warm start -----------------------------------------------------------------------
    imitation_decisions: int = 0  # heuristic decisions the actor imitates first (0: none)
    imitation_learning_rate: float = 1e-3
    imitation_passes: int = 3  # passes over each chunk of demonstrations
    value_warmup_rollouts: int = 0  # rollouts in which only the critic learns
    # Weight of KL(warm-start policy || policy) in the loss: PPO fine-tuning stays near the
    # imitated heuristic except where its advantages consistently say otherwise (0: off).
    anchor_coef: float = 0.0

    # --- PPO ------------------------------------------------------------------------------
    n_steps: int = 32  # per game per rollout: rollout = num_envs * n_steps
    batch_size: int = 2048
    n_epochs: int = 2
    learning_rate: float = 3e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    precision: str = "auto"  # "bf16" matrix products (fp32 weights), "fp32", or "auto": bf16 where the CPU has it
    torch_threads: int = 2

    # --- league: opponents drawn per game with these weights -------------------------------
    # Names are scripted agents; "self" draws a frozen past snapshot of the learner.
    opponents: dict[str, float] = field(default_factory=lambda: {"random": 0.3, "greedy": 0.4, "heuristic": 0.3})
    snapshot_every: int = 0  # steps between snapshots added to the pool (0: never)
    max_snapshots: int = 5

    # --- evaluation and checkpoints --------------------------------------------------------
    eval_every: int = 100_000
    eval_pairs: int = 50
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "greedy", "heuristic"])
    final_eval_pairs: int = 200
    keep_best_vs: str = ""  # a baseline's name: the final model is the one that evaluated best against it
    checkpoint_every: int = 50_000
    run_dir: str = "runs"  # the run lives in run_dir/name

    # --- Ray (train/cluster.py) --------------------------------------------------------------
    ray_workers: int = 0  # rollout workers on a Ray cluster, num_envs split evenly (0: all in this process)
    ray_address: str = ""  # "" starts Ray on this machine; "auto" joins `ray start` here; HOST:PORT a head

    def make_rules(self):
        """The game these runs train on: the preset with the ``rules`` overrides."""
        from handfoot_env.rules import Rules

        return Rules.preset(self.preset, **self.rules)

    @property
    def path(self) -> Path:
        return Path(self.run_dir) / self.name

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


_FIELDS = {f.name: f for f in dataclasses.fields(TrainConfig)}


def _check_type(name: str, value: Any) -> Any:
    default = getattr(TrainConfig(), name)
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        value = _whole_number(value)  # 1e5 and 100_000 both mean 100000
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        if isinstance(value, str):  # YAML 1.1 reads "1e-3" as a string
            try:
                value = float(value)
            except ValueError:
                pass
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif isinstance(default, str):
        value = "" if value is None else value  # "--set key=" is empty
        ok = isinstance(value, str)
    elif isinstance(default, list):
        ok = isinstance(value, list)
    elif isinstance(default, dict):
        ok = isinstance(value, dict)
    else:
        ok = True
    if not ok:
        raise ValueError(f"config key {name!r}: expected {type(default).__name__}, got {value!r}")
    return value


def _whole_number(value: Any) -> Any:
    """``1e5`` (YAML reads it as a string), ``1.0e5`` and ``100000.0`` as the int 100000."""
    if isinstance(value, str):
        try:
            value = float(value.replace("_", ""))
        except ValueError:
            return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def split_ray_address(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of a Ray head address ``HOST:PORT`` (or ``ray://HOST:PORT``); None for
    ``""``/``"local"`` (start Ray here) and ``"auto"``; ``ValueError`` for anything else."""
    if address in ("", "local", "auto"):
        return None
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"a Ray address is HOST:PORT (or 'auto', or empty for Ray on this machine), got {address!r}")
    return host, int(port)


def validate(config: TrainConfig) -> TrainConfig:
    def fail(key: str, message: str) -> None:
        raise ValueError(f"config key {key!r}: {message}")

    if config.preset not in PRESET_NAMES:
        fail("preset", f"must be one of {', '.join(PRESET_NAMES)}, got {config.preset!r}")
    if not isinstance(config.rules, dict):
        fail("rules", f"must be a mapping of rules fields to values, got {config.rules!r}")
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", config.name):
        fail("name", f"is the run's folder name under run_dir: letters, digits, '.', '_' and '-', got {config.name!r}")
    try:
        from handfoot_env.rules import require_supported

        require_supported(config.make_rules())
    except ValueError as exc:
        fail("rules", str(exc))
    if config.seed < 0:
        fail("seed", f"must be a non-negative integer, got {config.seed}")
    if config.shaping < 0:
        fail("shaping", f"is the weight of the shaping reward: 0 (none) or more, got {config.shaping}")
    for key in (
        "total_timesteps",
        "num_envs",
        "n_steps",
        "batch_size",
        "n_epochs",
        "eval_pairs",
        "final_eval_pairs",
        "torch_threads",
        "max_snapshots",
    ):
        if getattr(config, key) < 1:
            fail(key, f"must be at least 1, got {getattr(config, key)}")
    for key in (
        "eval_every",
        "checkpoint_every",
        "snapshot_every",
        "imitation_decisions",
        "value_warmup_rollouts",
        "tune_generations",
    ):
        if getattr(config, key) < 0:
            fail(key, "must be 0 (never) or a number of steps")
    if config.precision not in ("fp32", "bf16", "auto"):
        fail("precision", f"must be fp32, bf16 or auto, got {config.precision!r}")
    if config.reward_mode not in REWARD_MODES:
        fail("reward_mode", f"must be one of {', '.join(REWARD_MODES)}, got {config.reward_mode!r}")
    if not 0 < config.learning_rate < 1:
        fail("learning_rate", f"must be between 0 and 1, got {config.learning_rate}")
    if not 0 < config.gamma <= 1 or not 0 <= config.gae_lambda <= 1:
        fail("gamma", "gamma must be in (0, 1] and gae_lambda in [0, 1]")
    if (config.num_envs * config.n_steps) % config.batch_size and config.batch_size > config.num_envs * config.n_steps:
        fail("batch_size", "must not exceed num_envs * n_steps")
    if not config.net_arch or not all(isinstance(w, int) and w > 0 for w in config.net_arch):
        fail("net_arch", f"must be a list of positive layer widths, got {config.net_arch!r}")
    if not config.opponents:
        fail("opponents", "needs at least one opponent")
    for name, weight in config.opponents.items():
        if name not in BASELINE_NAMES + ("self",):
            fail("opponents", f"unknown opponent {name!r}; use {', '.join(BASELINE_NAMES)} or self")
        if not isinstance(weight, (int, float)) or weight < 0:
            fail("opponents", f"weight of {name!r} must be a non-negative number")
    if sum(w for n, w in config.opponents.items() if n != "self") <= 0:
        fail("opponents", "a scripted opponent needs a positive weight (the pool starts without snapshots)")
    if "self" in config.opponents and config.snapshot_every == 0:
        fail("snapshot_every", "opponent 'self' needs snapshot_every > 0")
    if config.tune_generations:
        for key in ("tune_population", "tune_elite", "tune_pairs", "tune_validate_pairs"):
            if getattr(config, key) < 1:
                fail(key, f"must be at least 1, got {getattr(config, key)}")
        if config.tune_pair_positions < 0:
            fail(
                "tune_pair_positions",
                f"must be 0 (no pair model) or a number of positions, got {config.tune_pair_positions}",
            )
        if config.tune_pair_positions and not config.make_rules().takes_with_a_pair:
            fail(
                "tune_pair_positions",
                "the pair model predicts takes of the pile with a pair; these rules take it "
                "without one (house): set it to 0",
            )
        if config.tune_fitness not in ("win_rate", "score_diff"):
            fail("tune_fitness", f"must be win_rate or score_diff, got {config.tune_fitness!r}")
        if not 0 <= config.tune_validate_generations <= config.tune_generations:
            fail(
                "tune_validate_generations",
                f"must be between 0 and tune_generations ({config.tune_generations}), "
                f"got {config.tune_validate_generations}",
            )
        if config.tune_elite > config.tune_population:
            fail("tune_elite", f"must not exceed tune_population ({config.tune_population}), got {config.tune_elite}")
    if config.anchor_coef < 0:
        fail(
            "anchor_coef", f"is the weight of the KL term to the warm start: 0 (none) or more, got {config.anchor_coef}"
        )
    if config.anchor_coef > 0 and config.imitation_decisions == 0:
        fail("anchor_coef", "anchors to the imitation warm start: it needs imitation_decisions > 0")
    if config.ray_workers < 0:
        fail("ray_workers", f"must be 0 (train in this process) or a number of workers, got {config.ray_workers}")
    try:
        split_ray_address(config.ray_address)
    except ValueError as exc:
        fail("ray_address", str(exc))
    if config.ray_workers and config.num_envs % config.ray_workers:
        fail("ray_workers", f"must divide num_envs ({config.num_envs}): each worker steps an equal share of the games")
    if config.keep_best_vs and config.keep_best_vs not in config.eval_opponents:
        fail("keep_best_vs", f"must be one of eval_opponents ({', '.join(config.eval_opponents)}) or empty")
    for name in config.eval_opponents:
        if name not in BASELINE_NAMES:
            fail("eval_opponents", f"unknown opponent {name!r}; use {', '.join(BASELINE_NAMES)}")
    return config


def load_config(path: str | Path | None = None, overrides: list[str] | None = None) -> TrainConfig:
    """A validated config from a YAML file (or the defaults) plus ``key=value`` overrides."""
    data: dict[str, Any] = {}
    if path is not None:
        try:
            text = Path(path).read_text()
        except OSError as exc:
            raise ValueError(f"cannot read config {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ValueError(f"config {path} is not a text file") from None
        loaded = load_yaml(text, f"config {path}")
        if loaded is not None and not isinstance(loaded, dict):
            raise ValueError(f"config {path} must be a mapping of keys to values")
        data.update(loaded or {})
    for item in overrides or []:
        if "=" not in item:
            raise ValueError(f"--set needs key=value, got {item!r}")
        key, raw = item.split("=", 1)
        value = load_yaml(raw, f"--set {key}: the value {raw!r}")
        if "." in key:  # opponents.greedy=0.5
            outer, inner = key.split(".", 1)
            if outer not in _FIELDS or not isinstance(getattr(TrainConfig(), outer), dict):
                raise ValueError(f"unknown config key {key!r}")
            merged = dict(data.get(outer, getattr(TrainConfig(), outer)))
            merged[inner] = value
            data[outer] = merged
        else:
            data[key] = value
    for key in data:
        if key not in _FIELDS:
            raise ValueError(f"unknown config key {key!r}; known keys: {', '.join(sorted(_FIELDS))}")
    values = {key: _check_type(key, value) for key, value in data.items()}
    return validate(TrainConfig(**values))
