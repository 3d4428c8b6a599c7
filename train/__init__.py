"""Reinforcement-learning training: the lab loop (``loop.py``), its typed config, the league, the
collector, the warm start, and one module per algorithm (``algorithms/``)."""

import handfoot_env  # noqa: F401  (0.4's module paths, such as train.evaluate, still import: handfoot_env/moved.py)
