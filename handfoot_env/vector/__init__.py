"""The vector engine: batch-first numpy state stepped by compiled (numba) kernels."""

from handfoot_env.vector.engine import VectorEngine

__all__ = ["VectorEngine"]
