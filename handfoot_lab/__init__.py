"""The lab on top of the engines and shells: the ``handfoot`` command line, the terminal game,
benchmarks, fuzzing and the differential harness that holds the two engines identical."""

import handfoot_env  # noqa: F401  (0.4's module paths, such as handfoot_lab.benchmark, still import: handfoot_env/moved.py)
