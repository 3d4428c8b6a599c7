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
    group = next(iter(env.group_map))
    masks = rollout[group, "action_mask"]
    assert masks.any(-1).any(), "some agent had a legal move at every step"
