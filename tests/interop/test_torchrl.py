"""TorchRL, unchanged, on the PettingZoo env: PettingZooWrapper with action masks, its
check_env_specs, and a rollout of masked random play."""

from __future__ import annotations

import pytest

torchrl = pytest.importorskip("torchrl")

import torch
from interop.tables import TABLES
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import check_env_specs

from handfoot_env import Rules, handfoot_v0


@pytest.mark.parametrize("preset,players", TABLES)
def test_torchrl_wrapper_specs_and_a_rollout(preset, players):
    torch.manual_seed(0)
    env = PettingZooWrapper(
        handfoot_v0.env(rules=Rules.preset(preset, num_players=players, num_deals=1)),
        use_mask=True,
        categorical_actions=True,
        seed=0,
    )
    check_env_specs(env)
    rollout = env.rollout(200)
    assert rollout.batch_size[0] >= 50
    check_masked_play(env, rollout)


def check_masked_play(env, rollout) -> None:
    """At every step exactly one agent acts (its group's ``mask``), it has a legal move, and the
    action it took is legal."""
    steps = rollout.batch_size[0]
    acting = torch.cat([rollout[group, "mask"].reshape(steps, -1) for group in env.group_map], dim=1)
    assert (acting.sum(dim=1) == 1).all(), "exactly one agent acts at every step"
    for group in env.group_map:
        masks, actions, acts = rollout[group, "action_mask"], rollout[group, "action"], rollout[group, "mask"]
        assert masks[acts].any(-1).all(), f"{group} had no legal move at a step where it acted"
        taken = masks.gather(-1, actions.unsqueeze(-1)).squeeze(-1)
        assert taken[acts].all(), f"{group} took an illegal action"
