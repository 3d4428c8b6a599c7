"""handfoot: Hand and Foot as an exact rules engine, a vectorized simulator and an RL lab."""

from handfoot_env.kernel_cache import use_kernel_cache

use_kernel_cache()  # before numba loads: the compiled kernels' cache follows their source

from handfoot_env.rules import Rules  # noqa: E402

__version__ = "0.1.0"
__all__ = ["Rules", "env", "raw_env", "__version__"]


def __getattr__(name: str):
    # The PettingZoo env is imported on first use so that the engines need no RL libraries.
    if name in ("env", "raw_env"):
        import importlib

        return getattr(importlib.import_module("handfoot_env.aec"), name)
    raise AttributeError(f"module 'handfoot_env' has no attribute {name!r}")
