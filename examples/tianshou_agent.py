"""A tianshou policy trained on the lab's PettingZoo env, as a handfoot agent.

Save the policy of the seat you trained (tianshou 2.0, e.g. a DQN's ``DiscreteQLearningPolicy``
over ``PettingZooEnv(handfoot_v0.env(...))``) with ``torch.save(policy, "policy.pt")``; then

    handfoot benchmark py:examples/tianshou_agent.py:make:policy.pt
"""

import numpy as np
import torch
from tianshou.data import Batch


class TianshouAgent:
    def __init__(self, policy):
        self.policy = policy.eval()

    def act(self, observations, masks):  # tianshou reads the legal actions from obs.mask, as PettingZooEnv gives them
        with torch.no_grad():
            return np.asarray(self.policy(Batch(obs=Batch(obs=observations, mask=masks), info=Batch())).act)


def make(path):
    return TianshouAgent(torch.load(path, weights_only=False))
