"""The lab on top of the engines and shells: the ``handfoot`` command line, the terminal game,
benchmarks, fuzzing and the differential harness that holds the two engines identical."""
