"""Deep Monte-Carlo (Zha et al. 2021, DouZero): Q(s, a) regressed on Monte-Carlo returns.

The network is the lab's ``Policy`` read as a Q-network: its actor head gives one Q-value
per action of the fixed layout (an action's features are its one-hot: with 187 actions one
head costs less than DouZero's action-feature input, which its 27,472 actions need).  The
learner acts epsilon-greedily on the masked Q-values; every decision's target is the sum of
the rewards from it to the end of its horizon (``dmc.horizon``: the deal, where with
``win_prob`` rewards the fitted chance after the deal stands for the rest of the game; or the
game), discounted by ``dmc.gamma``.  Decisions wait in ``pending`` until their horizon ends,
then join the next update: one pass of mean squared error over them.  No bootstrapping, no
target network, no replay of old data: what DouZero showed works for card games.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from agents.policy import Policy
from train.algorithms.base import clip_each
from train.config import TrainConfig

KEPT = ("x", "masks", "actions", "rewards", "ends")


def epsilon_greedy(epsilon: float):
    """The acting rule: a uniformly random legal action with chance ``epsilon``, else the best."""

    def explore(policy: Policy, x, masks, extra, generator) -> tuple[np.ndarray, dict]:
        q = policy.logits(x, masks).cpu()
        best = q.argmax(-1)
        uniform = torch.multinomial(masks.cpu().float(), 1, generator=generator).squeeze(-1)
        explore_now = torch.rand(len(best), generator=generator) < epsilon
        return torch.where(explore_now, uniform, best).numpy(), {}

    return explore


def monte_carlo_returns(rewards: np.ndarray, ends: np.ndarray, gamma: float) -> tuple[np.ndarray, np.ndarray]:
    """(returns, complete) ``[steps, envs]``: the discounted sum of rewards up to and including
    the step whose ``ends`` flag closes the horizon; ``complete`` where such a step is known."""
    returns = np.zeros_like(rewards)
    complete = np.zeros(rewards.shape, dtype=bool)
    running = np.zeros(rewards.shape[1], dtype=rewards.dtype)
    closed = np.zeros(rewards.shape[1], dtype=bool)
    for t in reversed(range(len(rewards))):
        end = ends[t] > 0
        running = rewards[t] + gamma * np.where(end, 0.0, running)
        closed = end | closed
        returns[t], complete[t] = running, closed
    return returns, complete


class DMC:
    name = "dmc"
    samples_snapshots = False  # a Q-network's snapshots play their best

    def after_warm_start(self) -> None:
        pass  # Q-values are learned from scratch: nothing to keep from the warm start

    def __init__(self, config: TrainConfig, policy: Policy):
        self.config, self.hp = config, config.dmc
        self.policy = policy
        self.optimizer = torch.optim.Adam(policy.parameters(), lr=self.hp.learning_rate, eps=1e-5)
        self.generator = torch.Generator().manual_seed(config.seed)
        self.pending: dict[str, np.ndarray] | None = None  # decisions whose horizon has not ended
        self.emitted = np.zeros((0, config.env.num_envs), dtype=bool)  # pending decisions already learned from

    @property
    def explore(self):
        return epsilon_greedy(self.hp.epsilon)

    def _ready(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The decisions whose horizon ended by now, with their returns; the rest wait."""
        new = {k: batch[k] for k in ("x", "masks", "actions", "rewards")}
        new["ends"] = batch["deal_ends"] if self.hp.horizon == "deal" else batch["dones"]
        new["ends"] = np.maximum(new["ends"], batch["dones"])  # a game's end closes every horizon
        emitted = np.zeros(new["actions"].shape, dtype=bool)
        if self.pending is not None:
            pending = self.pending
            new = {k: np.concatenate([pending[k], new[k]]) for k in KEPT}
            emitted = np.concatenate([self.emitted, emitted])
        returns, complete = monte_carlo_returns(new["rewards"], new["ends"], self.hp.gamma)
        take = complete & ~emitted
        ready = {k: new[k][take] for k in ("x", "masks", "actions")}
        ready["returns"] = returns[take]
        # keep from the first step that some game has not closed yet
        open_steps = np.flatnonzero((~complete).any(axis=1))
        first = open_steps[0] if len(open_steps) else len(complete)
        self.pending = {k: v[first:] for k, v in new.items()}
        self.emitted = (emitted | take)[first:]
        return ready

    def update(self, batch: dict[str, np.ndarray], step: int) -> dict[str, float]:
        ready = self._ready(batch)
        size = len(ready["actions"])
        if size == 0:
            return {"waiting": float((~self.emitted).sum())}
        data = {k: torch.as_tensor(v, device=self.policy.device) for k, v in ready.items()}
        order = torch.randperm(size, generator=self.generator).to(self.policy.device)
        losses = []
        for lo in range(0, size, self.hp.batch_size):
            rows = order[lo : lo + self.hp.batch_size]
            q = self.policy.logits(data["x"][rows], data["masks"][rows])
            chosen = q.gather(1, data["actions"][rows][:, None]).squeeze(1)
            loss = (chosen - data["returns"][rows]).pow(2).mean()
            self.optimizer.zero_grad()
            loss.backward()
            clip_each([self.policy.actor_parameters()], self.hp.max_grad_norm)
            self.optimizer.step()
            losses.append(float(loss.detach()))
        return {
            "q_loss": float(np.mean(losses)),
            "learned_decisions": float(size),
            "mean_return": float(ready["returns"].mean()),
            "waiting": float((~self.emitted).sum()),
        }

    # ------------------------------------------------------------------ resume
    def state_dict(self) -> dict[str, Any]:
        # Decisions still waiting for their horizon are not kept: a resumed run's games start
        # afresh, so their returns would never come.
        return {"optimizer": self.optimizer.state_dict(), "generator": self.generator.get_state()}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.optimizer.load_state_dict(state["optimizer"])
        for group in self.optimizer.param_groups:
            group["lr"] = self.hp.learning_rate
        self.generator.set_state(state["generator"])


__all__ = ["DMC", "epsilon_greedy", "monte_carlo_returns"]
