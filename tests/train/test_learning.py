"""The lab's own trainer learns: ``handfoot train``'s code path (``train.loop.train``) on a small
table (classic for 2, one deal, against random, from random weights, no warm start) for 32,768
learner steps, about half a minute on 2 busy cores.

A direction test, not a speed test.  The policy's evaluation against random, on the same 64
duplicate deals before and after, must rise by a clear margin (seed 0: from +492 to +1,331
points a game; on five seeds from -237..+492 to +788..+1,799, a rise of +656 at least; with the policy loss's
sign flipped it falls, to -742).  And each update must stay near the policy that collected its
rollout, as PPO's clip keeps it with a large step size and many epochs: the mean KL(before ||
after) over the run's 32 updates is 0.23 here, and 1.53 with the clip's bound made optimistic
instead of pessimistic (the update's own ratio-based estimate on five seeds: 0.22-0.25 against
1.2-7.4), while learning goes on regardless, so the outcome alone would not tell."""

from __future__ import annotations

import numpy as np
import torch

from handfoot_env.actions import NUM_ACTIONS
from train.algorithms.ppo import PPO
from train.config import load_config
from train.loop import train

SETTINGS = [
    "name=learns",
    "seed=0",
    "preset=classic",
    "rules={num_players: 2, num_deals: 1}",
    "env.num_envs=32",
    "env.reward_mode=deal",
    "env.shaping=0",
    "network.arch=[64]",
    "network.advisor=false",
    "network.precision=fp32",
    "network.scaling_positions=2000",
    "ppo.n_steps=32",
    "ppo.batch_size=256",
    "ppo.n_epochs=8",
    "ppo.learning_rate=0.01",  # large steps: the clip has work to do
    "ppo.ent_coef=0.0",
    "ppo.gamma=0.99",
    "ppo.value_warmup_rollouts=0",
    "imitation.decisions=0",
    "tune.generations=0",
    "league.opponents={random: 1.0}",
    "league.snapshot_every=0",
    "eval.every=32768",  # at step 0 and at the end, on the same deals
    "eval.pairs=64",
    "eval.opponents=[random]",
    "eval.keep_best_vs=",
    "eval.final_pairs=1",
    "checkpoint_every=0",
    "total_timesteps=32768",
]


def test_the_trainer_learns_to_beat_random_play_within_ppos_trust_region(tmp_path, monkeypatch):
    moved: list[float] = []  # KL(before || after) of each update, on its own rollout
    update = PPO.update

    def measured_update(self, batch, step):
        x = torch.as_tensor(batch["x"].reshape(-1, self.policy.width))
        masks = torch.as_tensor(batch["masks"].reshape(-1, NUM_ACTIONS))
        with torch.no_grad():
            before = torch.log_softmax(self.policy.logits(x, masks), -1)
        stats = update(self, batch, step)
        with torch.no_grad():
            after = torch.log_softmax(self.policy.logits(x, masks), -1)
        moved.append(float(torch.where(masks, before.exp() * (before - after), 0.0).sum(-1).mean()))
        return stats

    monkeypatch.setattr(PPO, "update", measured_update)
    summary = train(load_config(None, [*SETTINGS, f"run_dir={tmp_path}"]), progress=False)
    (start,), (end,) = (e["results"] for e in summary["evals"])
    assert [e["step"] for e in summary["evals"]] == [0, 32768] and len(moved) == 32
    assert end["score_diff"] - start["score_diff"] > 400, (start, end)
    assert end["win_rate"] > 0.75, end
    assert np.mean(moved) < 0.6, moved
