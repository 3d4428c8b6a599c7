"""Warm start: imitate the heuristic on positions of its own games, generated at engine speed.

Every seat of a batch of games is played by the compiled heuristic (``handfoot_env/
baselines/compiled/``); each decision is a labelled example (observation, legal mask,
the heuristic's action), and the actor learns them with a cross-entropy over the legal
actions.  Data comes in chunks straight from the engine, so nothing large is stored.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import torch

from agents.policy import Policy, advice
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine


def demonstrations(rules: Rules, decisions: int, seed: int, batch: int = 512, params: np.ndarray | None = None):
    """Yield chunks (observations, masks, actions) of the heuristic's decisions in its own
    games (``params``: a variant of it, ``heuristic_params`` order)."""
    engine = VectorEngine(rules, batch_size=batch, seed=seed)
    done = 0
    while done < decisions:
        chunk_obs, chunk_masks, chunk_actions = [], [], []
        for _ in range(max(1, min(64, (decisions - done) // batch))):
            masks = engine.legal_mask().copy()
            observations = engine.observe().copy()
            actions = advice(observations, masks, rules, params)
            engine.step(actions)
            chunk_obs.append(observations)
            chunk_masks.append(masks)
            chunk_actions.append(actions)
        observations, masks = np.concatenate(chunk_obs), np.concatenate(chunk_masks)
        done += len(masks)
        yield observations, masks, np.concatenate(chunk_actions)


def imitate(
    policy: Policy,
    rules: Rules,
    decisions: int,
    seed: int,
    learning_rate: float = 1e-3,
    passes: int = 3,
    minibatch: int = 1024,
    log: Callable[[str, float, int], None] | None = None,
) -> dict:
    """Train ``policy``'s actor to choose its advising heuristic's actions (``policy.advisor_params``)
    on ``decisions`` positions.

    The input scaling is the policy's own (``warm_start.fit_scaling`` sets it first, on
    whole games).  Returns the accuracy on the last chunk (before training on it) and the
    time taken."""
    start = time.perf_counter()
    optimizer = torch.optim.Adam(policy.actor_parameters(), lr=learning_rate)
    seen = 0
    accuracy = 0.0
    for observations, masks, actions in demonstrations(
        rules, decisions, seed, params=policy.advisor_params.cpu().numpy()
    ):
        x = policy.inputs(observations, masks, rules)
        device = policy.device
        x_t, masks_t = torch.as_tensor(x, device=device), torch.as_tensor(masks, device=device)
        actions_t = torch.as_tensor(actions, device=device)
        with torch.no_grad():
            accuracy = float((policy.logits(x_t, masks_t).argmax(-1) == actions_t).float().mean())
        for _ in range(passes):
            order = torch.randperm(len(actions_t), device=device)
            for lo in range(0, len(order), minibatch):
                rows = order[lo : lo + minibatch]
                logits = policy.logits(x_t[rows], masks_t[rows])
                loss = torch.nn.functional.cross_entropy(logits, actions_t[rows])
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        seen += len(actions_t)
        if log is not None:
            log("imitation/accuracy", accuracy, seen)
            log("imitation/loss", float(loss.detach()), seen)
    return {"decisions": seen, "accuracy": accuracy, "seconds": time.perf_counter() - start}


__all__ = ["demonstrations", "imitate"]
