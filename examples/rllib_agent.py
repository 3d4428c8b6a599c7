"""An RLlib checkpoint trained on the lab's env (``handfoot_env.envs.rllib``: the PettingZoo env and
the masked PPO module, new API stack), as a handfoot agent: the module of the policy it names
(``shared`` when every seat shared one), acting greedily.

    handfoot benchmark py:examples/rllib_agent.py:make:/path/to/checkpoint

(the folder ``algorithm.save_to_path()`` wrote).
"""

from pathlib import Path

import torch
from ray.rllib.core.rl_module.rl_module import RLModule


class RLlibAgent:
    def __init__(self, module):
        self.module = module.eval()

    def act(self, observations, masks):
        batch = {"obs": {"observation": torch.as_tensor(observations), "action_mask": torch.as_tensor(masks).float()}}
        with torch.no_grad():
            return self.module.forward_inference(batch)["action_dist_inputs"].argmax(-1).numpy()


def make(checkpoint, policy="shared"):
    return RLlibAgent(RLModule.from_checkpoint(Path(checkpoint) / "learner_group" / "learner" / "rl_module" / policy))
