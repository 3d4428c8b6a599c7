"""The versioned PettingZoo module, as PettingZoo's own classic games are imported:

    from handfoot_env import handfoot_v0
    env = handfoot_v0.env(preset="partnership")

The spec page is ``handfoot_env/envs/pettingzoo.py``'s docstring.
"""

from handfoot_env.envs.pettingzoo import env, raw_env

__all__ = ["env", "raw_env"]
