"""The learning algorithms behind the lab loop (``train/loop.py``), one file each.

An algorithm is a class with the small interface of :class:`~train.algorithms.base.Algorithm`
(explore: how the collector picks the learner's moves; update on a batch; save and restore its
state; the loop builds the network and collects);
adding one is one file here, its class in ``ALGORITHMS``, and its config section in
``train/config.py``'s ``ALGORITHM_SECTIONS`` (the list of names a config may choose).
"""

from train.algorithms.base import Algorithm
from train.algorithms.dmc import DMC
from train.algorithms.ppo import PPO
from train.config import ALGORITHM_SECTIONS

ALGORITHMS: dict[str, type[Algorithm]] = {cls.name: cls for cls in (PPO, DMC)}
if ALGORITHMS.keys() != ALGORITHM_SECTIONS.keys():  # a class without a config section, or the reverse
    raise ImportError(f"train/algorithms has {sorted(ALGORITHMS)}, train/config.py {sorted(ALGORITHM_SECTIONS)}")

__all__ = ["ALGORITHMS", "DMC", "PPO", "Algorithm"]
