"""RLlib (the new API stack) on the PettingZoo env: an env creator and a masked PPO module.

RLlib's own masking example reads the key ``"observations"``; PettingZoo's classic envs, and
this one, name it ``"observation"`` beside ``"action_mask"``.  ``MaskedPPOTorchRLModule`` is
PPO's default torch module run on the observation alone, with the logits of illegal
actions pushed to the minimum, so that no illegal action is ever sampled::

    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env
    from handfoot_env.envs.rllib import MaskedPPOTorchRLModule, rllib_env

    register_env("handfoot", rllib_env)
    config = (PPOConfig().environment("handfoot", env_config={"preset": "partnership"})
              .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent, *a, **k: "shared")
              .rl_module(rl_module_spec=RLModuleSpec(module_class=MaskedPPOTorchRLModule)))

The env check RLlib runs at start steps an unmasked ``action_space.sample()``; the env's
action spaces draw a legal move then (``spaces.LegalDiscrete``), so the check stays on.
Import this module only with RLlib installed (``pip install 'handfoot[interop]'``).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.ppo_torch_rl_module import PPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN
from ray.rllib.utils.typing import TensorType

from handfoot_env.envs.pettingzoo import env as aec_env


def rllib_env(config: dict[str, Any] | None = None) -> PettingZooEnv:
    """The PettingZoo env as an RLlib multi-agent env; ``config`` holds the env's keywords."""
    return PettingZooEnv(aec_env(**dict(config or {})))


class MaskedPPOTorchRLModule(PPOTorchRLModule):
    """PPO's torch module over ``observation``, masking logits with ``action_mask``."""

    def __init__(self, *, observation_space: gym.spaces.Dict | None = None, **kwargs: Any):
        if not isinstance(observation_space, gym.spaces.Dict) or set(observation_space) != {
            "observation",
            "action_mask",
        }:
            raise ValueError(
                f"MaskedPPOTorchRLModule needs the env's Dict space of 'observation' and "
                f"'action_mask', got {observation_space}"
            )
        self.spaces_with_mask = observation_space
        super().__init__(observation_space=observation_space["observation"], **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self.spaces_with_mask  # what the env hands over

    @staticmethod
    def _split(batch: dict) -> tuple[torch.Tensor, dict]:
        """The mask, and the batch with the plain observation in place of the Dict."""
        observation = batch[Columns.OBS]
        return observation["action_mask"], dict(batch, **{Columns.OBS: observation["observation"]})

    @staticmethod
    def _mask(outputs: dict, action_mask: torch.Tensor) -> dict:
        outputs[Columns.ACTION_DIST_INPUTS] = outputs[Columns.ACTION_DIST_INPUTS] + torch.clamp(
            torch.log(action_mask.float()), min=FLOAT_MIN
        )
        return outputs

    def _forward_inference(self, batch: dict, **kwargs: Any) -> dict:
        mask, batch = self._split(batch)
        return self._mask(super()._forward_inference(batch, **kwargs), mask)

    def _forward_exploration(self, batch: dict, **kwargs: Any) -> dict:
        mask, batch = self._split(batch)
        return self._mask(super()._forward_exploration(batch, **kwargs), mask)

    def _forward_train(self, batch: dict, **kwargs: Any) -> dict:
        mask, batch = self._split(batch)
        return self._mask(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict, embeddings: Any = None) -> TensorType:
        if isinstance(batch[Columns.OBS], dict):
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)


__all__ = ["MaskedPPOTorchRLModule", "rllib_env"]
