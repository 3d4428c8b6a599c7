"""handfoot: Hand and Foot as an exact rules engine, a vectorized simulator and an RL lab."""

from handfoot_env.rules import Rules

__version__ = "0.1.0"
__all__ = ["Rules", "__version__"]
