"""A policy network trained with any framework, as a handfoot agent: a torch module that maps
observations ``float32[B, 655]`` to logits ``[B, 187]``, saved with the rules it was trained on.
The training examples' ``--save PATH`` writes one (``cleanrl_ppo_masked.py``, ``torchrl_ippo.py``,
``torchrl_turn_selfplay.py``):

    torch.save({"module": policy_net, "rules": rules.to_dict()}, "policy.pt")

    handfoot benchmark py:examples/policy_agent.py:make:policy.pt

It plays the most likely legal action, and only at the table it was trained for (``supports``:
the same preset and number of players).
"""

import numpy as np
import torch


class PolicyAgent:
    def __init__(self, module, rules=None, name="policy"):
        self.module, self.rules, self.name = module.eval(), rules, name
        torch.set_num_threads(1)  # a batch of decisions is small work; one thread is fastest on a busy machine

    def supports(self, rules):  # the benchmark plays it only at the table it was trained for
        return self.rules is None or (rules.preset_name, rules.num_players) == (
            self.rules["preset_name"],
            self.rules["num_players"],
        )

    def act(self, observations, masks):
        with torch.no_grad():
            logits = self.module(torch.as_tensor(observations))
        return logits.masked_fill(~torch.as_tensor(masks), -torch.inf).argmax(-1).numpy().astype(np.int64)


def make(path):
    saved = torch.load(path, weights_only=False)
    if isinstance(saved, torch.nn.Module):  # a module saved alone: it plays any table
        return PolicyAgent(saved)
    rules = saved.get("rules")
    table = f" ({rules['preset_name']}, {rules['num_players']} players)" if rules else ""
    return PolicyAgent(saved["module"], rules, name=f"{saved.get('trained_by', 'policy')}{table}")
