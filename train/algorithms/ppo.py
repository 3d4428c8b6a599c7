"""PPO with masked actions (Schulman et al. 2017), as CleanRL's ``ppo.py`` writes it.

Each batch is ``num_envs`` games x ``n_steps`` learner decisions, sampled from the policy
(``explore``); advantages by GAE (Schulman et al. 2016), bootstrapped from the critic after
the last step; then ``n_epochs`` passes of the clipped policy loss, the value loss and an
entropy bonus over shuffled minibatches, advantages normalised per minibatch.  The actor's
and the critic's gradients are clipped separately.  Options the lab's warm start uses:
``value_warmup_rollouts`` (the critic learns alone first, so the first policy steps get
honest advantages) and ``anchor_coef`` (a KL term to the frozen warm-start policy).  With a
privileged critic the value reads every hand (``Policy.critic_extra``); the actor never does.
"""

from __future__ import annotations

import copy
from typing import Any, NamedTuple

import numpy as np
import torch

from agents.policy import Policy
from train.algorithms.base import clip_each
from train.config import TrainConfig


def sample(probs: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One action per row drawn from ``probs`` ``[B, A]`` (rows summing to 1, zero where
    illegal) by the inverse of the cumulative distribution: one uniform number per row.
    ``torch.multinomial`` draws one per action, a third of a rollout step's inference."""
    cumulative = probs.cumsum(-1)
    uniform = torch.rand((len(probs), 1), generator=generator) * cumulative[:, -1:]
    # the first action whose cumulative probability exceeds the draw: never one of chance 0
    actions = torch.searchsorted(cumulative, uniform, right=True).squeeze(-1)
    # a draw rounded up to the total finds none: take the row's likeliest action then
    return torch.where(actions < probs.shape[-1], actions, probs.argmax(-1))


def explore(policy: Policy, x, masks, extra, generator) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Sample the policy; keep the action's log-probability and the critic's value."""
    logits, value = policy(x, masks, extra)
    log_probs = torch.log_softmax(logits, -1).cpu()  # sampled on the CPU: one generator wherever the network runs
    actions = sample(log_probs.exp(), generator)
    return actions.numpy(), {
        "logprobs": log_probs.gather(1, actions[:, None]).squeeze(1).numpy(),
        "values": value.cpu().numpy(),
    }


def gae(rewards, values, dones, last_value, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """(advantages, returns) ``[steps, envs]``; a finished game's next value is 0."""
    steps = len(rewards)
    advantages = np.zeros_like(rewards)
    running = np.zeros_like(last_value)
    next_value = last_value
    for t in reversed(range(steps)):
        alive = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_value * alive - values[t]
        running = delta + gamma * lam * alive * running
        advantages[t] = running
        next_value = values[t]
    return advantages, advantages + values


def normalise(advantages: torch.Tensor) -> torch.Tensor:
    """A minibatch's advantages to mean 0 and spread 1 (CleanRL's ``norm_adv``; the spread is
    the sample standard deviation); a one-row minibatch has no spread (NaN): left as it is."""
    if len(advantages) < 2:
        return advantages
    return (advantages - advantages.mean()) / (advantages.std() + 1e-8)


class Terms(NamedTuple):
    """PPO's loss terms on one minibatch, and two measures of how far the policy moved."""

    policy_loss: torch.Tensor  # the clipped surrogate, negated (minimised)
    value_loss: torch.Tensor
    entropy: torch.Tensor  # of the policy over the legal actions, mean over rows
    approx_kl: torch.Tensor  # KL(old || new), estimated from the ratios (Schulman's k3)
    clip_fraction: torch.Tensor  # rows whose ratio is outside the clip range
    anchor_kl: torch.Tensor | None  # KL(anchor || new) over the legal actions (with an anchor)


def ppo_terms(
    log_probs: torch.Tensor,
    masks: torch.Tensor,
    actions: torch.Tensor,
    old_log_probs: torch.Tensor,
    advantages: torch.Tensor,
    values: torch.Tensor,
    returns: torch.Tensor,
    clip_range: float,
    anchor_log_probs: torch.Tensor | None = None,
) -> Terms:
    """The loss terms of one minibatch, as CleanRL's ``ppo.py`` writes them.  ``log_probs``
    ``[B, A]``: the policy's log-probabilities now (-inf where illegal); ``old_log_probs`` ``[B]``:
    the taken actions' when collected; ``advantages`` as they are used (normalised already)."""
    log_ratio = log_probs.gather(1, actions[:, None]).squeeze(1) - old_log_probs
    ratio = log_ratio.exp()
    # the pessimistic bound: the larger loss of the ratio and the ratio clipped to 1 +- clip_range
    unclipped = -advantages * ratio
    clipped = -advantages * ratio.clamp(1 - clip_range, 1 + clip_range)
    probs = log_probs.exp()
    anchor_kl = None
    if anchor_log_probs is not None:
        anchor_kl = torch.where(masks, anchor_log_probs.exp() * (anchor_log_probs - log_probs), 0.0).sum(-1).mean()
    with torch.no_grad():
        approx_kl = ((ratio - 1) - log_ratio).mean()
        clip_fraction = ((ratio - 1).abs() > clip_range).float().mean()
    return Terms(
        policy_loss=torch.max(unclipped, clipped).mean(),
        value_loss=0.5 * (values - returns).pow(2).mean(),
        entropy=-(probs * log_probs.masked_fill(~masks, 0.0)).sum(-1).mean(),
        approx_kl=approx_kl,
        clip_fraction=clip_fraction,
        anchor_kl=anchor_kl,
    )


def ppo_loss(terms: Terms, vf_coef: float, ent_coef: float, anchor_coef: float, train_actor: bool) -> torch.Tensor:
    """What one optimiser step minimises: the value loss, and (once the actor trains) the
    policy loss, less the entropy bonus, plus the anchor's KL."""
    loss = vf_coef * terms.value_loss
    if train_actor:
        loss = loss + terms.policy_loss - ent_coef * terms.entropy
        if terms.anchor_kl is not None:
            loss = loss + anchor_coef * terms.anchor_kl
    return loss


class PPO:
    name = "ppo"
    samples_snapshots = True

    def __init__(self, config: TrainConfig, policy: Policy):
        self.config, self.hp = config, config.ppo
        self.policy = policy
        self.optimizer = torch.optim.Adam(policy.parameters(), lr=self.hp.learning_rate, eps=1e-5)
        self.generator = torch.Generator().manual_seed(config.seed)
        self.anchor: Policy | None = None  # the warm-start policy, frozen (anchor_coef)
        self.updates = 0

    @property
    def explore(self):
        return explore

    def after_warm_start(self) -> None:
        """With ``anchor_coef``, freeze the warm-started policy as the KL anchor."""
        if self.hp.anchor_coef > 0:
            self.set_anchor()

    def set_anchor(self) -> None:
        """Freeze the policy as it stands as the KL anchor."""
        self.anchor = copy.deepcopy(self.policy).eval()
        self.anchor.requires_grad_(False)

    # ------------------------------------------------------------------ the update
    def learning_rate(self, step: int) -> float:
        """The step size at learner step ``step``: constant, or (``anneal_lr``) falling
        linearly from ``learning_rate`` to 0 at ``total_timesteps``."""
        if not self.hp.anneal_lr:
            return self.hp.learning_rate
        return self.hp.learning_rate * max(0.0, 1.0 - step / self.config.total_timesteps)

    def targets(self, batch: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """(advantages, returns) ``[steps, envs]`` of a rollout by GAE, cut where a game ended
        (a deal's end is no cut: the value is the game's) and bootstrapped from the critic's
        value of the inputs after the last step."""
        device = self.policy.device
        with torch.no_grad():
            extra = batch.get("last_extra")
            _, last_value = self.policy(
                torch.as_tensor(batch["last_x"], device=device),
                torch.as_tensor(batch["last_masks"], device=device),
                None if extra is None else torch.as_tensor(extra, device=device),
            )
        hp = self.hp
        return gae(batch["rewards"], batch["values"], batch["dones"], last_value.cpu().numpy(), hp.gamma, hp.gae_lambda)

    def update(self, batch: dict[str, np.ndarray], step: int) -> dict[str, float]:
        hp, policy = self.hp, self.policy
        device = policy.device
        for group in self.optimizer.param_groups:
            group["lr"] = self.learning_rate(step)
        advantages, returns = self.targets(batch)
        keys = ["x", "masks", "actions", "logprobs"] + (["extra"] if "extra" in batch else [])
        flat = {k: torch.as_tensor(batch[k].reshape((-1,) + batch[k].shape[2:]), device=device) for k in keys}
        flat["advantages"] = torch.as_tensor(advantages.reshape(-1), device=device)
        flat["returns"] = torch.as_tensor(returns.reshape(-1), device=device)
        train_actor = self.updates >= hp.value_warmup_rollouts
        anchored = train_actor and self.anchor is not None and hp.anchor_coef > 0
        size = len(flat["actions"])
        stats: dict[str, list[float]] = {}  # each term's value in each minibatch
        for _ in range(hp.n_epochs):
            order = torch.randperm(size, generator=self.generator).to(device)
            for lo in range(0, size, hp.batch_size):
                rows = order[lo : lo + hp.batch_size]
                masks = flat["masks"][rows]
                logits, value = policy(flat["x"][rows], masks, flat["extra"][rows] if "extra" in flat else None)
                anchor_log_probs = None
                if anchored:
                    assert self.anchor is not None
                    with torch.no_grad():
                        anchor_log_probs = torch.log_softmax(self.anchor.logits(flat["x"][rows], masks), -1)
                terms = ppo_terms(
                    torch.log_softmax(logits, -1),
                    masks,
                    flat["actions"][rows],
                    flat["logprobs"][rows],
                    normalise(flat["advantages"][rows]),
                    value,
                    flat["returns"][rows],
                    hp.clip_range,
                    anchor_log_probs,
                )
                loss = ppo_loss(terms, hp.vf_coef, hp.ent_coef, hp.anchor_coef, train_actor)
                self.optimizer.zero_grad()
                loss.backward()
                clip_each([policy.actor_parameters(), policy.critic_parameters()], hp.max_grad_norm)
                self.optimizer.step()
                for key, term in terms._asdict().items():
                    if term is not None:
                        stats.setdefault(key, []).append(float(term.detach()))
        self.updates += 1
        out = {key: float(np.mean(values)) for key, values in stats.items()}
        out["learning_rate"] = self.optimizer.param_groups[0]["lr"]
        out["explained_variance"] = float(1 - np.var(returns - batch["values"]) / (np.var(returns) + 1e-8))
        return out

    # ------------------------------------------------------------------ resume
    def state_dict(self) -> dict[str, Any]:
        return {
            "optimizer": self.optimizer.state_dict(),
            "anchor": None if self.anchor is None else self.anchor.state_dict(),
            "updates": self.updates,
            "generator": self.generator.get_state(),
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.optimizer.load_state_dict(state["optimizer"])
        # (a changed learning rate takes effect on resume: update() sets it every time)
        if state.get("anchor") is not None:
            self.set_anchor()
            assert self.anchor is not None
            self.anchor.load_state_dict(state["anchor"])
        elif self.hp.anchor_coef > 0:
            raise ValueError(
                "ppo.anchor_coef needs the policy it anchors to (the warm start, or the prior of "
                "network.advisor_prior), which this run did not keep (it started with anchor_coef 0): "
                "resume it with ppo.anchor_coef=0"
            )
        self.updates = state.get("updates", 0)
        if "generator" in state:
            self.generator.set_state(state["generator"])


__all__ = ["PPO", "Terms", "explore", "gae", "normalise", "ppo_loss", "ppo_terms", "sample"]
