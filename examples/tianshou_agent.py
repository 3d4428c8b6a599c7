"""A tianshou policy trained on the lab's PettingZoo env, as a handfoot agent.

Save the policy of the seat you trained (tianshou 2.0, e.g. a DQN's ``DiscreteQLearningPolicy``
over ``PettingZooEnv(handfoot_v0.env(...))``) with its table, as ``examples/tianshou_dqn.py --save``
does, ``torch.save({"policy": policy, "rules": rules.to_dict()}, "policy.pt")`` (or the policy
alone: it then plays any table); then

    handfoot benchmark py:examples/tianshou_agent.py:make:policy.pt
"""

import numpy as np
import torch
from tianshou.data import Batch


class TianshouAgent:
    def __init__(self, policy, rules=None):
        self.policy, self.rules, self.name = policy.eval(), rules, "tianshou"

    def supports(self, rules):  # the benchmark plays it only at the table it was trained for
        return self.rules is None or (rules.preset_name, rules.num_players) == (
            self.rules["preset_name"],
            self.rules["num_players"],
        )

    def act(self, observations, masks):  # tianshou reads the legal actions from obs.mask, as PettingZooEnv gives them
        with torch.no_grad():
            return np.asarray(self.policy(Batch(obs=Batch(obs=observations, mask=masks), info=Batch())).act)


def make(path):
    saved = torch.load(path, weights_only=False)
    return TianshouAgent(saved["policy"], saved["rules"]) if isinstance(saved, dict) else TianshouAgent(saved)
