"""A TorchRL policy module trained on the lab's PettingZoo env (``PettingZooWrapper(...,
use_mask=True, categorical_actions=True)``), as a handfoot agent: the module reads
``(group, "observation", "observation")`` and ``(group, "action_mask")`` and writes
``(group, "action")``, as it did in training (``group``: the seat's, e.g. ``player_0``).

Save it with ``torch.save(policy, "policy.pt")``; then

    handfoot benchmark py:examples/torchrl_agent.py:make:policy.pt
"""

import torch
from tensordict import TensorDict


class TorchRLAgent:
    def __init__(self, policy, group="player_0"):
        self.policy, self.group = policy.eval(), group

    def act(self, observations, masks):  # a batch of games, each one agent of the group
        inputs = {"observation": {"observation": torch.as_tensor(observations)[:, None]}}
        inputs["action_mask"] = torch.as_tensor(masks)[:, None]
        with torch.no_grad():
            out = self.policy(TensorDict({self.group: inputs}, batch_size=[len(masks)]))
        return out[self.group, "action"].reshape(len(masks)).numpy()


def make(path, group="player_0"):
    return TorchRLAgent(torch.load(path, weights_only=False), group)
