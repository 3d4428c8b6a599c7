"""Differential testing: the reference and vector engines played side by side.

Both engines start from the same seeds; at every step the legal masks, the mover's
observations, the rewards, the scores and the done flags must be identical.  The same
random legal action is then applied to both.  A divergence raises :class:`Divergence`
with the seed, the step and a replay record of the reference game up to that step.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from handfoot_env.reference import Game
from handfoot_env.reference.observe import observe
from handfoot_env.reference.record import to_record
from handfoot_env.rewards import deal_rewards, game_rewards
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine


class Divergence(AssertionError):
    def __init__(self, what: str, game: Game, step: int, detail: str):
        self.record = to_record(game)
        self.record.pop("result")
        super().__init__(
            f"engines diverge on {what} (seed {game.seed}, step {step} of that game): {detail}\n"
            f"replay record: {json.dumps(self.record, separators=(',', ':'))}"
        )


@dataclass
class DiffReport:
    steps: int = 0
    games_finished: int = 0


def reference_rewards(game: Game, deals_before: int, mode: str) -> np.ndarray:
    """The rewards the reference game earned since it had ``deals_before`` finished deals."""
    rewards = np.zeros(game.rules.num_players, dtype=np.float32)
    if mode == "deal":
        for result in game.deal_results[deals_before:]:
            rewards += np.asarray(deal_rewards(result.scores, game.rules), dtype=np.float32)
    elif game.is_over and len(game.deal_results) > deals_before:
        rewards += np.asarray(game_rewards(game.totals, game.rules), dtype=np.float32)
    return rewards


def run_differential(
    rules: Rules,
    batch_size: int,
    steps: int,
    seed: int = 0,
    reward_mode: str = "deal",
    agent=None,
    explore: float = 0.1,
) -> DiffReport:
    """Play ``steps`` batch steps on both engines, comparing everything.

    Actions are random legal ones, or an ``agent``'s (batched protocol of ``agents/``) with
    probability ``1 - explore`` each: scripted play reaches what random play rarely does
    (long runs, frozen melds, going out, games that end at the target score)."""
    engine = VectorEngine(rules, batch_size=batch_size, seed=seed, reward_mode=reward_mode)
    refs = [Game(rules, int(s)) for s in engine.states["seed"]]
    rng = np.random.default_rng(seed)
    report = DiffReport()
    for _ in range(steps):
        masks = engine.legal_mask()
        observations = engine.observe()
        for b, game in enumerate(refs):
            step = len(game.actions)
            ref_mask = game.legal_mask()
            if not np.array_equal(ref_mask, masks[b]):
                diff = np.flatnonzero(ref_mask != masks[b]).tolist()
                raise Divergence("legal mask", game, step, f"actions {diff} differ (reference {ref_mask[diff].tolist()})")
            ref_obs = observe(game, game.current)
            if not np.array_equal(ref_obs, observations[b]):
                diff = np.flatnonzero(ref_obs != observations[b]).tolist()
                raise Divergence("observation", game, step, f"indices {diff[:10]} differ")
        choice = rng.random(masks.shape)
        choice[~masks] = -1.0
        actions = choice.argmax(axis=1)
        if agent is not None:
            chosen = np.asarray(agent.act(observations, masks))
            actions = np.where(rng.random(batch_size) < explore, actions, chosen)
        deals_before = [len(g.deal_results) for g in refs]
        rewards, dones = engine.step(actions)
        report.steps += batch_size
        for b, game in enumerate(refs):
            game.step(int(actions[b]))
            step = len(game.actions)
            ref_rewards = reference_rewards(game, deals_before[b], reward_mode)
            if not np.allclose(ref_rewards, rewards[b], atol=1e-6):
                raise Divergence("rewards", game, step, f"reference {ref_rewards.tolist()}, vector {rewards[b].tolist()}")
            if bool(dones[b]) != game.is_over:
                raise Divergence("done flag", game, step, f"reference {game.is_over}, vector {bool(dones[b])}")
            totals = engine.final_totals[b] if dones[b] else engine.totals[b]
            if totals.tolist() != game.totals:
                raise Divergence("scores", game, step, f"reference {game.totals}, vector {totals.tolist()}")
            if dones[b]:
                report.games_finished += 1
                refs[b] = Game(rules, int(engine.states["seed"][b]))
    return report
