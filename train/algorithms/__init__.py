"""The learning algorithms behind the lab loop (``train/loop.py``), one file each.

An algorithm is a class with the small interface of :class:`~train.algorithms.base.Algorithm`
(build its network, collect a batch with the loop's collector, update, save its state);
adding one is one file here, one entry in ``ALGORITHMS``, and one config section
(``train/config.py``).
"""

from train.algorithms.base import Algorithm
from train.algorithms.dmc import DMC
from train.algorithms.ppo import PPO

ALGORITHMS: dict[str, type[Algorithm]] = {"ppo": PPO, "dmc": DMC}

__all__ = ["ALGORITHMS", "DMC", "PPO", "Algorithm"]
