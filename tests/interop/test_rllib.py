"""RLlib (new API stack), with its env check left on: PPO on the PettingZoo env with the
project's masked module, one training iteration per table on a local Ray instance."""

from __future__ import annotations

import numpy as np
import pytest

ray = pytest.importorskip("ray")
from interop.setups import masked_ppo
from interop.tables import TABLES
from ray.tune.registry import register_env

from handfoot_env.envs.rllib import rllib_env


@pytest.fixture(scope="module")
def local_ray():
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    register_env("handfoot", rllib_env)
    yield
    ray.shutdown()


@pytest.mark.parametrize("preset,players", TABLES)
def test_rllib_ppo_trains_an_iteration_with_masks(local_ray, preset, players):
    algorithm = masked_ppo(preset, players).build_algo()
    try:
        trainable = [name for name, p in algorithm.get_module("shared").named_parameters() if p.requires_grad]
        before = algorithm.learner_group.get_weights()["shared"]
        result = algorithm.train()
        after = algorithm.learner_group.get_weights()["shared"]
    finally:
        algorithm.stop()
    # The iteration trained the masked module: every trainable tensor moved, on finite losses.
    unmoved = [name for name in trainable if np.array_equal(np.asarray(before[name]), np.asarray(after[name]))]
    assert len(trainable) >= 4 and not unmoved, f"never changed: {unmoved}"
    learner = result["learners"]["shared"]
    assert np.isfinite(learner["total_loss"]) and np.isfinite(learner["policy_loss"])
