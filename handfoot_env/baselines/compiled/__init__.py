"""The scripted baselines compiled with numba, twins of the readable ``greedy.py`` and
``heuristic.py`` (the same decision on every observation and mask, a batch at a time):
``heuristic.py`` the decisions, ``reads.py`` what they read from an observation, ``melds.py`` the
melding after the opening and the going out."""

from handfoot_env.baselines.compiled.heuristic import (
    CompiledGreedy,
    CompiledHeuristic,
    greedy_actions,
    heuristic_actions,
)

__all__ = ["CompiledGreedy", "CompiledHeuristic", "greedy_actions", "heuristic_actions"]
