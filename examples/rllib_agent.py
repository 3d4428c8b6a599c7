"""An RLlib checkpoint trained on the lab's env (``handfoot_env.envs.rllib``: the PettingZoo env and
the masked PPO module, new API stack), as a handfoot agent: the module of the policy it names
(``shared`` when every seat shared one), acting greedily.

    handfoot benchmark py:examples/rllib_agent.py:make:/path/to/checkpoint

(the folder ``algorithm.save_to_path()`` wrote; ``examples/rllib_ppo.py --save FOLDER`` writes one,
with ``handfoot_rules.json`` beside it: the table it was trained for, the only one it then plays).
"""

import json
from pathlib import Path

import torch
from ray.rllib.core.rl_module.rl_module import RLModule


class RLlibAgent:
    def __init__(self, module, rules=None):
        self.module, self.rules, self.name = module.eval(), rules, "rllib-ppo"

    def supports(self, rules):  # the benchmark plays it only at the table it was trained for
        return self.rules is None or (rules.preset_name, rules.num_players) == (
            self.rules["preset_name"],
            self.rules["num_players"],
        )

    def act(self, observations, masks):
        batch = {"obs": {"observation": torch.as_tensor(observations), "action_mask": torch.as_tensor(masks).float()}}
        with torch.no_grad():
            return self.module.forward_inference(batch)["action_dist_inputs"].argmax(-1).numpy()


def make(checkpoint, policy="shared"):
    folder = Path(checkpoint)
    module = RLModule.from_checkpoint(folder / "learner_group" / "learner" / "rl_module" / policy)
    rules = folder / "handfoot_rules.json"
    return RLlibAgent(module, json.loads(rules.read_text()) if rules.exists() else None)
