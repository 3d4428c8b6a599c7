"""Training configuration: typed sections, every hyperparameter visible, loaded from YAML.

    name: scratch                  # the run folder: run_dir/name
    preset: partnership            # and rules: {...} overrides
    algorithm: ppo                 # ppo or dmc (train/algorithms/); its section below
    env:      {num_envs, reward_mode, shaping, win_prob_games}
    network:  {arch, shared, compact, clip, precision, advisor, advisor_prior, privileged_critic, ...}
    ppo:      {n_steps, batch_size, n_epochs, learning_rate, gamma, ...}
    dmc:      {n_steps, batch_size, learning_rate, epsilon, horizon, ...}
    tune:     {generations, population, ...}      # warm start, step 0: search the heuristic
    imitation: {decisions, learning_rate, passes} # warm start, step 1: imitate it
    league:   {opponents: {name: weight}, snapshot_every, max_snapshots}
    eval:     {every, pairs, opponents, select_pairs, keep_best_vs, final_pairs}
    ray:      {workers, address}

An unknown key or a bad value is a ``ValueError`` naming it; a key of the flat configs of
handfoot 0.4 is refused with its new name.  ``--set section.key=value`` overrides (values
parsed as YAML: ``--set ppo.learning_rate=1e-4``, ``--set league.opponents.greedy=0.5``).
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.evaluation.ray import split_ray_address
from handfoot_env.cards import MAX_RUN_SEED
from handfoot_env.rules import PRESET_NAMES
from handfoot_env.seating.rewards import REWARD_MODES
from handfoot_env.strict_yaml import load_yaml
from train.tune import TuneConfig


@dataclass
class EnvConfig:
    num_envs: int = 256  # games stepped together on the vector engine
    # "deal" (score margin each deal), "game" (+1 / -1 at the end) or "win_prob" (the change
    # in the chance of winning over each deal: train/win_prob.py, handfoot_env/seating/rewards.py)
    reward_mode: str = "deal"
    shaping: float = 0.0  # weight of potential-based shaping on the running deal margin
    win_prob_games: int = 20_000  # games the win-probability model is fitted on (reward_mode win_prob)


@dataclass
class NetworkConfig:
    arch: list[int] = field(default_factory=lambda: [256, 256])  # hidden layers
    shared: bool = False  # one trunk under the actor and critic heads (half the work)
    compact: bool = True  # read only the observation columns these rules can fill
    mask_input: bool = False  # the legal actions are an input too (what can be done now)
    clip: float = 5.0  # scaled inputs are clipped to +-clip spreads
    precision: str = "auto"  # "fp32", "bf16" matrix products, or "auto": bf16 where the CPU has it
    advisor: bool = False  # the heuristic's choice is an input (the warm start's advisor)
    # With advisor: the actor is a residual on a fixed prior giving the advisor's move this
    # chance and the rest evenly to the other legal moves (0: no prior; agents/policy.py)
    advisor_prior: float = 0.0
    privileged_critic: bool = False  # the critic also reads every hand and foot (training only)
    scaling_positions: int = 50_000  # positions from whole games the input scaling is fitted on


@dataclass
class PPOConfig:
    n_steps: int = 32  # per game per rollout: rollout = num_envs * n_steps
    batch_size: int = 4096
    n_epochs: int = 2
    learning_rate: float = 3e-4
    # The learning rate falls linearly to 0 at total_timesteps (CleanRL's anneal_lr): late
    # updates take small steps instead of jittering around the plateau.  (A run resumed with
    # another total_timesteps follows the new schedule from its step.)
    anneal_lr: bool = False
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5  # clipped for the actor and the critic separately
    value_warmup_rollouts: int = 0  # rollouts in which only the critic learns
    # Weight of KL(warm-start policy || policy): fine-tuning stays near the imitation (0: off).
    anchor_coef: float = 0.0


@dataclass
class DMCConfig:
    n_steps: int = 32  # per game per collection
    batch_size: int = 4096
    learning_rate: float = 1e-4
    gamma: float = 1.0  # discount of the Monte-Carlo returns (shaping uses it too)
    epsilon: float = 0.05  # exploration: a uniformly random legal action this often
    # Where a return ends: "deal" (the deal's end: with win_prob rewards the fitted chance
    # after the deal stands for the rest of the game) or "game"
    horizon: str = "deal"
    max_grad_norm: float = 1.0


@dataclass
class ImitationConfig:
    """Warm start, step 1: the actor imitates the (tuned) heuristic (train/imitation.py)."""

    decisions: int = 0  # heuristic decisions imitated (0: none)
    # Who teaches and advises when no search runs: "" the default heuristic, "tuned" the
    # shipped tuned variant of these rules, "tuned:PATH" a variant saved by handfoot tune.
    teacher: str = ""
    learning_rate: float = 1e-3
    passes: int = 3  # passes over each chunk of demonstrations


@dataclass
class LeagueConfig:
    # Opponents drawn per game with these weights: agents by name (random, greedy, heuristic,
    # tuned, tuned:PATH), "self" for the learner's frozen snapshots.
    opponents: dict[str, float] = field(default_factory=lambda: {"random": 0.3, "greedy": 0.4, "heuristic": 0.3})
    snapshot_every: int = 0  # steps between snapshots added to the pool (0: never)
    max_snapshots: int = 5


@dataclass
class EvalConfig:
    every: int = 100_000  # steps between evaluations (0: none)
    pairs: int = 200  # duplicate pairs per opponent in each periodic evaluation (the curves)
    opponents: list[str] = field(default_factory=lambda: ["random", "greedy", "heuristic"])
    # An opponent's name: the final model is the policy that evaluated best against it, on
    # select_pairs duplicate pairs (the same deals at every evaluation: a paired comparison).
    keep_best_vs: str = ""
    select_pairs: int = 500
    final_pairs: int = 500  # the final table, on deals no evaluation or selection played


@dataclass
class RayConfig:
    workers: int = 0  # rollout workers on a Ray cluster, num_envs split evenly (0: all in this process)
    address: str = ""  # "" starts Ray on this machine; "auto" joins `ray start` here; HOST:PORT a head


# The learning algorithms, each by the name of its config section; ``train/algorithms/`` holds a
# class of that name for each (checked there when it is imported).
ALGORITHM_SECTIONS: dict[str, type] = {"ppo": PPOConfig, "dmc": DMCConfig}
ALGORITHM_NAMES = tuple(ALGORITHM_SECTIONS)

SECTIONS: dict[str, type] = {
    "env": EnvConfig,
    "network": NetworkConfig,
    **ALGORITHM_SECTIONS,
    "tune": TuneConfig,
    "imitation": ImitationConfig,
    "league": LeagueConfig,
    "eval": EvalConfig,
    "ray": RayConfig,
}


@dataclass
class TrainConfig:
    name: str = "quick"
    preset: str = "partnership"
    # Overrides of the preset's rules, e.g. {num_players: 4} for house in teams, {num_deals: 4}.
    rules: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    algorithm: str = "ppo"
    total_timesteps: int = 500_000
    # Stop learning after this many minutes of training (warm start and evaluations included;
    # the final table not), whatever the steps: a budget in wall time (0: none).
    time_limit_minutes: float = 0.0
    checkpoint_every: int = 50_000
    # Threads of torch and of the engine's kernels.  1 is fastest on a busy machine (two
    # jobs on 2 cores: measured 5-10x faster than 2 threads there).
    threads: int = 1
    device: str = "cpu"  # where the learner's network runs: cpu, cuda, or auto (cuda when there is one)
    run_dir: str = "runs"  # the run lives in run_dir/name
    env: EnvConfig = field(default_factory=EnvConfig)
    network: NetworkConfig = field(default_factory=NetworkConfig)
    ppo: PPOConfig = field(default_factory=PPOConfig)
    dmc: DMCConfig = field(default_factory=DMCConfig)
    # Warm start, step 0: search the heuristic's numbers (train/tune.py); 0 generations: none.  Its
    # seed and final_pairs are the run's (seed, eval.final_pairs).
    tune: TuneConfig = field(default_factory=lambda: TuneConfig(generations=0))
    imitation: ImitationConfig = field(default_factory=ImitationConfig)
    league: LeagueConfig = field(default_factory=LeagueConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    ray: RayConfig = field(default_factory=RayConfig)

    def make_rules(self):
        """The game these runs train on: the preset with the ``rules`` overrides."""
        from handfoot_env.rules import Rules

        return Rules.from_overrides(self.preset, self.rules)

    @property
    def algo(self):
        """The chosen algorithm's section (``ppo`` or ``dmc``)."""
        return getattr(self, self.algorithm)

    @property
    def rollout_steps(self) -> int:
        """Learner steps in one collection: games x steps per game."""
        return self.env.num_envs * self.algo.n_steps

    @property
    def path(self) -> Path:
        return Path(self.run_dir) / self.name

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> TrainConfig:
        """A config from ``to_dict``'s output (checked as a YAML file's would be)."""
        return build(data)


# The flat keys of handfoot 0.4's configs, and where each lives now.
MOVED = {
    **{k: f"env.{k}" for k in ("num_envs", "reward_mode", "shaping")},
    "net_arch": "network.arch",
    "torch_threads": "threads",
    "advisor": "network.advisor",
    "precision": "network.precision",
    **{
        f"tune_{k}": f"tune.{k}"
        for k in (f.name for f in dataclasses.fields(TuneConfig))
        if k not in ("seed", "final_pairs")
    },
    **{f"imitation_{k}": f"imitation.{k}" for k in ("learning_rate", "passes")},
    "imitation_decisions": "imitation.decisions",
    **{
        k: f"ppo.{k}"
        for k in (
            "n_steps",
            "batch_size",
            "n_epochs",
            "learning_rate",
            "gamma",
            "gae_lambda",
            "clip_range",
            "ent_coef",
            "vf_coef",
            "max_grad_norm",
            "value_warmup_rollouts",
            "anchor_coef",
        )
    },
    **{k: f"league.{k}" for k in ("opponents", "snapshot_every", "max_snapshots")},
    "eval_every": "eval.every",
    "eval_pairs": "eval.pairs",
    "eval_opponents": "eval.opponents",
    "final_eval_pairs": "eval.final_pairs",
    "keep_best_vs": "eval.keep_best_vs",
    "ray_workers": "ray.workers",
    "ray_address": "ray.address",
}


# ---------------------------------------------------------------------------- reading
def _check_type(name: str, value: Any, default: Any) -> Any:
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


def _unknown(key: str, known: list[str]) -> ValueError:
    if key in MOVED and "." not in MOVED[key]:
        return ValueError(f"config key {key!r} is {MOVED[key]!r} since handfoot 0.5")
    if key in MOVED:
        section, _, inner = MOVED[key].partition(".")
        return ValueError(f"config key {key!r} moved in handfoot 0.5: write it as {section}: {{{inner}: ...}}")
    return ValueError(f"unknown config key {key!r}; known keys: {', '.join(known)}")


def _section(name: str, cls: type, data: Any) -> Any:
    data = {} if data is None else data  # "tune:" with nothing under it
    if not isinstance(data, dict):
        raise ValueError(f"config key {name!r} is a section: a mapping of its keys to values, got {data!r}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    defaults = getattr(TrainConfig(), name)  # the section as a run has it by default
    values = {}
    for key, value in data.items():
        if key not in fields:
            raise ValueError(
                f"unknown config key '{name}.{key}'; the {name} section's keys: {', '.join(sorted(fields))}"
            )
        values[key] = _check_type(f"{name}.{key}", value, getattr(defaults, key))
    return dataclasses.replace(defaults, **values)


def build(data: dict[str, Any]) -> TrainConfig:
    """A checked :class:`TrainConfig` from nested data."""
    top = {f.name for f in dataclasses.fields(TrainConfig)}
    defaults = TrainConfig()
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in top:
            raise _unknown(key, sorted(top))
        if key in SECTIONS:
            values[key] = _section(key, SECTIONS[key], value)
        else:
            values[key] = _check_type(key, value, getattr(defaults, key))
    return validate(TrainConfig(**values))


# ---------------------------------------------------------------------------- checking
def agent_name_problem(name: Any) -> str | None:
    """Why ``name`` names no agent (None when it does); nothing is loaded (``agents.registry``)."""
    from agents.registry import check_agent_name

    try:
        check_agent_name(name)
    except ValueError as exc:
        return str(exc)
    return None


def validate(config: TrainConfig) -> TrainConfig:
    def fail(key: str, message: str) -> None:
        raise ValueError(f"config key {key!r}: {message}")

    def at_least(section: Any, prefix: str, keys: tuple[str, ...], low: int) -> None:
        for key in keys:
            if getattr(section, key) < low:
                what = "at least 1" if low == 1 else "0 (never) or more"
                fail(f"{prefix}{key}", f"must be {what}, got {getattr(section, key)}")

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
    if config.device not in ("auto", "cpu", "cuda"):
        fail("device", f"must be auto, cpu or cuda, got {config.device!r}")
    if config.device == "cuda":
        import torch

        if not torch.cuda.is_available():
            fail("device", "cuda: this machine has no CUDA GPU that torch can use (use cpu or auto)")
    if config.algorithm not in ALGORITHM_NAMES:
        fail("algorithm", f"must be one of {', '.join(ALGORITHM_NAMES)}, got {config.algorithm!r}")
    if not 0 <= config.seed <= MAX_RUN_SEED:  # a run derives its deals' seeds from it
        fail("seed", f"must be a whole number from 0 to {MAX_RUN_SEED}, got {config.seed}")
    at_least(config, "", ("total_timesteps", "threads"), 1)
    at_least(config, "", ("checkpoint_every",), 0)
    if not config.time_limit_minutes >= 0 or math.isinf(config.time_limit_minutes):  # NaN fails >= too
        fail("time_limit_minutes", f"must be 0 (no limit) or a number of minutes, got {config.time_limit_minutes}")

    env, net = config.env, config.network
    at_least(env, "env.", ("num_envs", "win_prob_games"), 1)
    if not 0 <= env.shaping < math.inf:
        fail("env.shaping", f"is the weight of the shaping reward: 0 (none) or more, got {env.shaping}")
    if env.reward_mode not in REWARD_MODES:
        fail("env.reward_mode", f"must be one of {', '.join(REWARD_MODES)}, got {env.reward_mode!r}")
    if not net.arch or not all(isinstance(w, int) and not isinstance(w, bool) and w > 0 for w in net.arch):
        fail("network.arch", f"must be a list of positive layer widths, got {net.arch!r}")
    if net.precision not in ("fp32", "bf16", "auto"):
        fail("network.precision", f"must be fp32, bf16 or auto, got {net.precision!r}")
    if not (net.clip == 0 or 1 <= net.clip < math.inf):  # below 1 it would clamp the 0/1 inputs
        fail("network.clip", f"must be 0 (no clipping) or a number of spreads of at least 1, got {net.clip}")
    if net.shared and net.privileged_critic:
        fail("network.privileged_critic", "needs a critic of its own: set network.shared to false")
    at_least(net, "network.", ("scaling_positions",), 1)

    ppo, dmc = config.ppo, config.dmc
    at_least(ppo, "ppo.", ("n_steps", "batch_size", "n_epochs"), 1)
    at_least(ppo, "ppo.", ("value_warmup_rollouts",), 0)
    at_least(dmc, "dmc.", ("n_steps", "batch_size"), 1)
    for prefix, section in (("ppo.", ppo), ("dmc.", dmc)):
        if not 0 < section.learning_rate < 1:
            fail(prefix + "learning_rate", f"must be between 0 and 1, got {section.learning_rate}")
        if not 0 < section.gamma <= 1:
            fail(prefix + "gamma", f"must be in (0, 1], got {section.gamma}")
        if not 0 < section.max_grad_norm < math.inf:
            fail(prefix + "max_grad_norm", f"must be positive, got {section.max_grad_norm}")
    if not 0 < ppo.clip_range < math.inf:
        fail("ppo.clip_range", f"must be positive, got {ppo.clip_range}")
    for name in ("ent_coef", "vf_coef"):
        if not 0 <= getattr(ppo, name) < math.inf:
            fail(f"ppo.{name}", f"must be 0 or more, got {getattr(ppo, name)}")
    if not 0 <= ppo.gae_lambda <= 1:
        fail("ppo.gae_lambda", f"must be in [0, 1], got {ppo.gae_lambda}")
    if config.algorithm == "ppo" and ppo.batch_size > config.env.num_envs * ppo.n_steps:
        fail("ppo.batch_size", "must not exceed env.num_envs * ppo.n_steps")
    if not 0 <= ppo.anchor_coef < math.inf:
        fail(
            "ppo.anchor_coef",
            f"is the weight of the KL term to the warm start: 0 (none) or more, got {ppo.anchor_coef}",
        )
    if ppo.anchor_coef > 0 and config.imitation.decisions == 0 and not net.advisor_prior:
        fail(
            "ppo.anchor_coef",
            "anchors to the warm start: it needs imitation.decisions > 0 or network.advisor_prior (the prior)",
        )
    if not 0 <= net.advisor_prior < 1:
        fail("network.advisor_prior", f"is the advisor's chance under the prior, in [0, 1), got {net.advisor_prior}")
    if net.advisor_prior and not net.advisor:
        fail("network.advisor_prior", "is a prior on the advisor's move: it needs network.advisor: true")
    if net.advisor_prior and config.algorithm == "dmc":
        fail("network.advisor_prior", "shapes a policy's chances; dmc learns Q-values: set it to 0")
    if not 0 <= dmc.epsilon <= 1:
        fail("dmc.epsilon", f"is a probability, got {dmc.epsilon}")
    if dmc.horizon not in ("deal", "game"):
        fail("dmc.horizon", f"must be deal or game, got {dmc.horizon!r}")
    if config.algorithm == "dmc" and env.reward_mode == "game" and dmc.horizon == "deal":
        fail("dmc.horizon", "with env.reward_mode game every deal but the last returns 0: set it to game")
    if config.algorithm == "dmc" and (net.privileged_critic or config.imitation.decisions):
        fail("algorithm", "dmc learns Q-values from scratch: it has no critic to give hidden cards and no imitation")

    tune, imitation = config.tune, config.imitation
    at_least(tune, "tune.", ("generations",), 0)
    at_least(imitation, "imitation.", ("decisions",), 0)
    at_least(imitation, "imitation.", ("passes",), 1)
    if not 0 < imitation.learning_rate < 1:
        fail("imitation.learning_rate", f"must be between 0 and 1, got {imitation.learning_rate}")
    run_default = TrainConfig().tune
    for key, owner in (("seed", "the run's seed"), ("final_pairs", "eval.final_pairs")):
        if getattr(tune, key) != getattr(run_default, key):
            fail(f"tune.{key}", f"the search in a run takes {owner}: leave tune.{key} out")
    if tune.generations:
        search_problem = tune.problem()
        if search_problem is not None:
            fail(f"tune.{search_problem[0]}", search_problem[1])
        if tune.pair_positions and not config.make_rules().takes_with_a_pair:
            fail(
                "tune.pair_positions",
                "the pair model predicts takes of the pile with a pair; these rules take it without one (house): "
                "set it to 0",
            )
    if imitation.teacher and not (imitation.teacher == "tuned" or imitation.teacher.startswith("tuned:")):
        fail("imitation.teacher", f"must be empty, tuned or tuned:PATH, got {imitation.teacher!r}")
    if imitation.teacher and tune.generations:
        fail("imitation.teacher", "the heuristic search finds the teacher: set tune.generations to 0 to name one")
    if tune.generations and not net.advisor and imitation.decisions == 0:
        fail("tune.generations", "the searched heuristic teaches (imitation.decisions) or advises (network.advisor)")

    league = config.league
    at_least(league, "league.", ("snapshot_every",), 0)
    at_least(league, "league.", ("max_snapshots",), 1)
    if not league.opponents:
        fail("league.opponents", "needs at least one opponent")
    for name, weight in league.opponents.items():
        problem = None if name == "self" else agent_name_problem(name)
        if problem:
            fail("league.opponents", f"{problem} (or self: the learner's snapshots)")
        if not isinstance(weight, (int, float)) or isinstance(weight, bool) or weight < 0:
            fail("league.opponents", f"weight of {name!r} must be a non-negative number")
    if sum(w for n, w in league.opponents.items() if n != "self") <= 0:
        fail("league.opponents", "a scripted opponent needs a positive weight (the pool starts without snapshots)")
    if "self" in league.opponents and league.snapshot_every == 0:
        fail("league.snapshot_every", "opponent 'self' needs league.snapshot_every > 0")

    ev = config.eval
    at_least(ev, "eval.", ("every",), 0)
    at_least(ev, "eval.", ("pairs", "select_pairs", "final_pairs"), 1)
    for name in ev.opponents:
        problem = agent_name_problem(name)
        if problem:
            fail("eval.opponents", problem)
    if ev.keep_best_vs and ev.keep_best_vs not in ev.opponents:
        fail("eval.keep_best_vs", f"must be one of eval.opponents ({', '.join(ev.opponents)}) or empty")
    if ev.keep_best_vs and ev.every == 0:
        fail("eval.keep_best_vs", "selects at each evaluation: it needs eval.every > 0")
    # each use has its own range of deals (agents/evaluation/seeds.py): 900,000 curve deals from 100,000 on, ...
    for name, most in (("pairs", 900_000), ("final_pairs", 1_000_000), ("select_pairs", 1_000_000)):
        if getattr(ev, name) > most:
            fail(
                f"eval.{name}",
                f"must be at most {most:,} (its deals would reach another use's), got {getattr(ev, name)}",
            )

    # each Ray worker deals from its own 10^7 of the run's 10^8 (train/collect.py, training_seed)
    if not 0 <= config.ray.workers <= 9:
        fail("ray.workers", f"must be 0 (train in this process) or 1 to 9 workers, got {config.ray.workers}")
    try:
        split_ray_address(config.ray.address)
    except ValueError as exc:
        fail("ray.address", str(exc))
    if config.ray.workers and env.num_envs % config.ray.workers:
        fail("ray.workers", f"must divide env.num_envs ({env.num_envs}): each worker steps an equal share of the games")
    return config


def load_config(path: str | Path | None = None, overrides: list[str] | None = None) -> TrainConfig:
    """A validated config from a YAML file (or the defaults) plus ``key=value`` overrides
    (``section.key=value`` inside a section, ``league.opponents.NAME=weight``)."""
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
        *outer, last = key.split(".")
        place, default = data, dataclasses.asdict(TrainConfig())
        for part in outer:  # into the section (from its defaults when the file has none)
            if part not in default or not isinstance(default[part], dict):
                if place is data:
                    raise _unknown(part, sorted(default))
                raise ValueError(f"--set {key}: {part!r} is not a section")
            current = place.get(part)
            if current is not None and not isinstance(current, dict):
                raise ValueError(f"--set {key}: the config's {part!r} is not a section")
            place[part] = dict(default[part] if current is None else current)
            place, default = place[part], default[part]
        place[last] = value
    return build(data)
