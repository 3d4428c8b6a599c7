"""Trained agents behind the agent protocol.

``make_agent("ppo", rules=...)`` loads the shipped agent of the preset being played
(``agents/models/ppo_<preset>.pt``); ``make_agent("ppo:PATH")`` any model saved by
``handfoot train`` (a ``.pt`` policy file, or a MaskablePPO ``.zip`` from SB3).
``make_agent("scratch", rules=...)`` is the agent PPO learned from scratch for exactly that
table (``agents/models/scratch_<table>.pt``; a table without one is refused in one line). ``make_agent("tuned")`` is the heuristic variant
0.4's search found (``agents/models/tuned_<preset>.json``), on whose move the shipped ``ppo``
is a residual; ``tuned:PATH`` any saved by ``handfoot tune``.
An agent used under other rules than it was trained on says so, once, as a
:class:`TableWarning` (the command line shows it as one line); a saved file without rules
given plays the table it was made on.
"""

from __future__ import annotations

import functools
import json
import warnings
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from handfoot_env.rules import Rules

MODELS = Path(__file__).parent / "models"
# The shipped agents: (preset, players) -> name; ppo_<name>.pt and tuned_<name>.json.
# Other tables use their preset's agent.
SHIPPED = {("partnership", 4): "partnership", ("classic", 2): "classic", ("house", 4): "house"}
# The agent ``scratch``: PPO from random weights by configs/scratch.yaml, one model per table it
# was trained for, scratch_<table>.pt with its config beside it (``shipped_scratch`` picks one).
SCRATCH_MODEL = MODELS / "scratch_partnership.pt"  # the partnership table's


class TableWarning(UserWarning):
    """A trained or tuned agent plays a table other than the one it was made on."""


@contextmanager
def torch_threads(count: int):
    """Run torch with ``count`` threads inside the block (the setting is process-wide)."""
    import torch

    before = torch.get_num_threads()
    if count != before:
        torch.set_num_threads(count)
    try:
        yield
    finally:
        if count != before:
            torch.set_num_threads(before)


def shipped_model(rules: Rules | None, kind: str = "ppo") -> Path:
    """The shipped model (``kind`` ppo) or tuned heuristic (``kind`` tuned) for these rules:
    same preset and players, else the preset's, else partnership's."""
    rules = rules or Rules.preset("partnership")
    name = SHIPPED.get((rules.preset_name, rules.num_players))
    if name is None:
        name = next(
            (f for (preset, _), f in SHIPPED.items() if preset == rules.preset_name), SHIPPED[("partnership", 4)]
        )
    return MODELS / (f"ppo_{name}.pt" if kind == "ppo" else f"tuned_{name}.json")


@functools.cache
def scratch_tables() -> tuple[tuple[Path, Rules], ...]:
    """Every shipped ``scratch`` model with the rules it was trained on (read once)."""
    import torch

    found = []
    for path in sorted(MODELS.glob("scratch_*.pt")):
        saved = torch.load(path, map_location="cpu", weights_only=False)
        found.append((path, Rules.from_dict(saved["rules"])))
    return tuple(found)


def shipped_scratch(rules: Rules | None) -> Path:
    """The shipped ``scratch`` model trained for exactly these rules (every setting the same;
    None: the partnership preset), or a one-line ``ValueError`` naming the tables there are and
    the command that trains one for this table."""
    rules = rules or Rules.preset("partnership")
    tables = scratch_tables()
    for path, trained_on in tables:
        if trained_on.to_dict() == rules.to_dict():
            return path
    there = "; ".join(table_summary(r) for _, r in tables)
    sets = " ".join(f"--set {key}={value}" for key, value in table_settings(rules).items())
    raise ValueError(
        f"no shipped scratch agent for this table ({table_summary(rules)}; shipped for: {there}): train one with "
        f"'handfoot train --config configs/scratch.yaml {sets}' and play it as scratch:runs/scratch/model.pt"
    )


def table_settings(rules: Rules) -> dict[str, str]:
    """A table as a config's settings: its preset, and each rule that differs from the preset's."""
    settings = {"preset": rules.preset_name}
    if rules.num_players != Rules.preset(rules.preset_name).num_players:
        settings["rules.num_players"] = str(rules.num_players)
    # what follows from the number of players (decks, house's teams) is the preset's, not a change
    preset = Rules.preset(rules.preset_name, num_players=rules.num_players).to_dict()
    for key, value in rules.to_dict().items():
        if preset.get(key) != value:
            settings[f"rules.{key}"] = json.dumps(value)
    return settings


def table_summary(rules: Rules) -> str:
    """A table in a few words: its preset, players, and the settings that differ from the preset."""
    changed = [f"{k.removeprefix('rules.')}={v}" for k, v in table_settings(rules).items() if k.startswith("rules.")]
    changed = [c for c in changed if not c.startswith("num_players=")]
    return f"{rules.preset_name}, {rules.num_players} players" + (f", {', '.join(changed)}" if changed else "")


def load_tuned(path: str | Path | None = None, rules: Rules | None = None, name: str = "tuned"):
    """A tuned heuristic (``handfoot tune``'s JSON), or the shipped one for ``rules``; compiled."""
    from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic
    from handfoot_env.baselines.heuristic_params import read_params

    path = Path(path) if path is not None else shipped_model(rules, "tuned")
    if not path.exists():
        raise ValueError(f"no tuned heuristic at {path}: make one with 'handfoot tune --out FILE' and pass tuned:FILE")
    params, info = read_params(path)
    tuned_on = _tuned_rules(info)
    playing = rules or tuned_on
    names_a_table = info.get("preset") is not None or isinstance(info.get("rules"), dict)
    differ = _other_table(tuned_on, playing) if names_a_table else None
    if differ:
        warnings.warn(f"the tuned heuristic {path.name} was tuned on {differ}", TableWarning, stacklevel=2)
    return CompiledHeuristic(playing, params, name=name)


def _tuned_rules(info: dict) -> Rules:
    """The rules a tuned heuristic's file was tuned on (partnership's, for a file that says none)."""
    if isinstance(info.get("rules"), dict):
        try:
            return Rules.from_dict(info["rules"])
        except (ValueError, TypeError):
            pass
    if info.get("preset") is not None:
        players = {"num_players": info["players"]} if info.get("players") is not None else {}
        return Rules.preset(info["preset"], **players)
    return Rules.preset("partnership")


def _same_table(a: Rules, b: Rules) -> bool:
    return a.to_dict() == b.to_dict()


def _other_table(made_on: Rules, playing: Rules) -> str | None:
    """How the table played differs from the one an agent was made on, in words (None: the same)."""
    if _same_table(made_on, playing):
        return None
    if (made_on.preset_name, made_on.num_players) != (playing.preset_name, playing.num_players):
        return (
            f"{made_on.preset_name} with {made_on.num_players} players and plays "
            f"{playing.preset_name} with {playing.num_players} players here"
        )
    return f"other rules of {playing.preset_name} (they differ in {', '.join(sorted(playing.changes_from(made_on)))})"


class PPOAgent:
    """Acts with a trained policy: the most likely legal action (or a sample).

    It acts with ``threads`` torch threads (one by default): a batch of decisions is small
    work, and torch's default pool, one thread per core, stalls on a machine that is busy
    with other jobs (a batch-1 decision took 24-64 ms there against 0.4 ms with one thread)."""

    def __init__(
        self, policy, rules: Rules, deterministic: bool = True, name: str = "ppo", threads: int = 1, seed: int = 0
    ):
        import torch

        self.policy = policy
        self.rules = rules  # the rules it plays (for the heuristic advice it reads)
        self.deterministic = deterministic
        self.name = name
        self.threads = threads
        self.generator = torch.Generator().manual_seed(seed)
        self.trained_on: Rules | None = None  # the rules of its model file, when loaded from one

    def supports(self, rules: Rules) -> bool:
        """Whether it was trained on these rules (the benchmark plays it only there)."""
        return self.trained_on is None or _same_table(self.trained_on, rules)

    def seed(self, seed: int) -> None:
        """Seed the sampling of a non-deterministic agent."""
        self.generator.manual_seed(seed)

    @classmethod
    def load(
        cls, path: str | Path | None = None, rules: Rules | None = None, deterministic: bool = True, threads: int = 1
    ) -> PPOAgent | SB3Agent:
        """A saved agent (``path``; a ``.zip`` is a MaskablePPO model), or the shipped agent for ``rules``."""
        path = Path(path) if path is not None else shipped_model(rules)
        if not path.exists():
            raise ValueError(f"no trained model at {path}: train one with 'handfoot train' or pass ppo:PATH")
        try:
            import torch  # noqa: F401
        except ImportError:
            raise ValueError("a trained agent needs torch: pip install 'handfoot[play]'") from None
        if path.suffix == ".zip":
            return SB3Agent.load(path, threads=threads)
        from agents.policy import Policy

        try:
            policy, trained_on, _ = Policy.load(path)
        except Exception as exc:  # noqa: BLE001 (a corrupt or foreign file: say so in one line)
            raise ValueError(f"cannot load a trained policy from {path}: {exc}") from None
        playing = rules or trained_on
        differ = _other_table(trained_on, playing)
        if differ:
            warnings.warn(f"the agent {path.name} was trained on {differ}", TableWarning, stacklevel=2)
        agent = cls(policy, playing, deterministic=deterministic, threads=threads)
        agent.trained_on = trained_on
        return agent

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:

        masks = np.asarray(masks, dtype=bool)
        x = self.policy.inputs(observations, masks, self.rules)
        with torch_threads(self.threads):
            return self.policy.act(x, masks, self.deterministic, self.generator).astype(np.int64)


class SB3Agent:
    """A MaskablePPO model saved by Stable-Baselines3 (sb3-contrib), behind the agent protocol."""

    def __init__(self, policy, name: str = "ppo", threads: int = 1):
        self.policy = policy
        self.name = name
        self.threads = threads

    @classmethod
    def load(cls, path: Path, threads: int = 1) -> SB3Agent:
        try:
            from sb3_contrib import MaskablePPO
        except ImportError:
            raise ValueError("a MaskablePPO model needs the training extras: pip install 'handfoot[train]'") from None
        try:
            model = MaskablePPO.load(str(path), device="cpu")
        except Exception as exc:  # noqa: BLE001 (a corrupt or foreign file: one line)
            raise ValueError(f"cannot load a MaskablePPO model from {path}: {exc}") from None
        return cls(model.policy, threads=threads)

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch_threads(self.threads):
            actions, _ = self.policy.predict(
                np.asarray(observations, dtype=np.float32),
                deterministic=True,
                action_masks=np.asarray(masks, dtype=bool),
            )
        return np.asarray(actions, dtype=np.int64).reshape(-1)


__all__ = ["SHIPPED", "PPOAgent", "SB3Agent", "TableWarning", "shipped_model", "torch_threads"]
