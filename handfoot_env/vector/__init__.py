"""The vector engine: batch-first numpy state stepped by compiled (numba) kernels."""

from handfoot_env.vector.engine import VectorEngine, games_stepped_together

__all__ = ["VectorEngine", "games_stepped_together"]
