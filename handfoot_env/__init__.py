"""handfoot: Hand and Foot as an exact rules engine, a vectorized simulator and an RL lab."""

from handfoot_env.kernel_cache import prepare_kernels

prepare_kernels()  # before numba loads: the kernels' cache follows their source; threads wait passively

from handfoot_env import moved
from handfoot_env.rules import Rules

moved.install()  # 0.4's module paths still import, with a warning naming the new place

# What each version changed: CHANGELOG.md.  The benchmark's stored anchors name the version they
# were made with (agents/models/leaderboard.json: scripts/leaderboard.py regenerates them).
__version__ = "0.5.0"
__all__ = ["GYMNASIUM_ID", "Rules", "__version__", "env", "raw_env"]

# gymnasium.make(GYMNASIUM_ID, preset="partnership", opponent="heuristic"): one game;
# gymnasium.make_vec(GYMNASIUM_ID, num_envs=1024, vectorization_mode="vector_entry_point"): N games
# on the vector engine (handfoot_env/envs/gymnasium_vector.py).
GYMNASIUM_ID = "handfoot/HandFoot-v0"


def _register_with_gymnasium() -> None:
    import gymnasium

    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(
            id=GYMNASIUM_ID,
            entry_point="handfoot_env.envs.gymnasium:HandFootGymEnv",
            vector_entry_point="handfoot_env.envs.gymnasium_vector:HandFootVectorEnv",
        )


_register_with_gymnasium()


def __getattr__(name: str):
    # The PettingZoo env is imported on first use so that the engines need no RL libraries.
    if name in ("env", "raw_env"):
        import importlib

        return getattr(importlib.import_module("handfoot_env.envs.pettingzoo"), name)
    raise AttributeError(f"module 'handfoot_env' has no attribute {name!r}")
