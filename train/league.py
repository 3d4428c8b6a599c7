"""The opponent league: scripted baselines plus frozen snapshots of the learner.

Each new training game draws its opponent from the pool with the config's weights; the
weight of ``self`` is shared by the snapshots (none yet: it goes to the scripted agents).
"""

from __future__ import annotations

import copy
from pathlib import Path

import torch

from agents import make_agent
from agents.policy import Policy
from agents.trained import PPOAgent
from handfoot_env.rules import Rules


class League:
    def __init__(self, weights: dict[str, float], max_snapshots: int, seed: int = 0, rules: Rules | None = None):
        self.scripted = {
            name: make_agent(name, seed=seed + i, rules=rules) for i, name in enumerate(weights) if name != "self"
        }
        self.weights = dict(weights)
        self.max_snapshots = max_snapshots
        self.seed = seed
        self.snapshots: list[PPOAgent] = []
        self.sample = True  # snapshots sample their moves (PPO); a Q-network's play their best
        self.snapshot_steps: list[int] = []

    def add_snapshot(self, policy: Policy, rules: Rules, step: int, sample: bool = True) -> None:
        """Freeze a copy of the learner's policy (it samples its moves, or with ``sample``
        False plays its best: a Q-network's); the oldest leaves when the pool is full."""
        frozen = copy.deepcopy(policy).eval()
        self.sample = sample
        agent = PPOAgent(frozen, rules, deterministic=not sample, name=f"snapshot@{step}", seed=self.seed + step)
        if len(self.snapshots) < self.max_snapshots:
            self.snapshots.append(agent)
            self.snapshot_steps.append(step)
        else:  # replace in place, so games in progress keep a valid opponent index
            oldest = self.snapshot_steps.index(min(self.snapshot_steps))
            self.snapshots[oldest] = agent
            self.snapshot_steps[oldest] = step

    def pool(self) -> tuple[list, list[float]]:
        """(agents, weights) for the training games."""
        agents = list(self.scripted.values())
        weights = [self.weights[name] for name in self.scripted]
        share = self.weights.get("self", 0.0)
        if share > 0 and self.snapshots:
            agents += self.snapshots
            weights += [share / len(self.snapshots)] * len(self.snapshots)
        return agents, weights

    # ------------------------------------------------------------------ persistence
    def saved(self) -> dict:
        """The snapshots as one record for the checkpoint file: each one's step and weights, and
        whether they sample their moves."""
        return {"sample": self.sample, "snapshots": self.snapshot_states()}

    def restore(self, saved: dict, template: Policy, rules: Rules) -> None:
        """The snapshots ``saved`` recorded."""
        self.sample = saved["sample"]
        self.set_snapshots([(step, weights) for step, weights in saved["snapshots"]], template, rules)

    def load_files(self, entries: list[dict], folder: Path, template: Policy, rules: Rules) -> None:
        """The snapshots of a checkpoint written before they went into its one file: a file each in
        ``folder``, named by the ``entries`` of its state.json."""
        self.sample = all(entry.get("sample", True) for entry in entries)
        states = []
        for entry in entries:
            path = folder / entry["file"] if "file" in entry else Path(entry["path"])  # "path": before 0.5
            try:
                states.append((entry["step"], torch.load(path, map_location="cpu")))
            except OSError as exc:
                raise ValueError(f"cannot load the league's snapshot {path}: {exc.strerror or exc}") from None
        self.set_snapshots(states, template, rules)

    def snapshot_states(self) -> list[tuple[int, dict]]:
        """(step, weights on the CPU) of each snapshot: what a rollout worker needs to seat the same
        pool, and what the checkpoint keeps."""
        return [
            (step, {name: tensor.detach().cpu() for name, tensor in agent.policy.state_dict().items()})
            for agent, step in zip(self.snapshots, self.snapshot_steps)
        ]

    def set_snapshots(self, states: list[tuple[int, dict]], template: Policy, rules: Rules) -> None:
        """Replace the snapshots by these (step, weights), in this order."""
        self.snapshots, self.snapshot_steps = [], []
        for step, state_dict in states:
            policy = copy.deepcopy(template)
            policy.load_state_dict(state_dict)
            self.snapshots.append(
                PPOAgent(
                    policy.eval(), rules, deterministic=not self.sample, name=f"snapshot@{step}", seed=self.seed + step
                )
            )
            self.snapshot_steps.append(step)
