"""Module paths of 0.4 that moved in 0.5.0 still import, with a warning naming the new place.

    from handfoot_env.gym_env import HandFootGymEnv   # DeprecationWarning: now handfoot_env.envs.gymnasium

Each old path gives a module holding the public names of its new home (or homes, where one module
became two) and the old names of renamed classes.  The old paths go in 0.6.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings

# old module -> (new modules, {old name: new name}); names of the upper packages are strings here,
# so the env imports none of them.
MOVED: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "handfoot_env.aec": (("handfoot_env.envs.pettingzoo",), {}),
    "handfoot_env.gym_env": (("handfoot_env.envs.gymnasium", "handfoot_env.seating.learner"), {}),
    "handfoot_env.gym_vector": (("handfoot_env.envs.gymnasium_vector",), {}),
    "handfoot_env.vec_env": (("handfoot_env.envs.sb3",), {}),
    "handfoot_env.torchrl_env": (("handfoot_env.envs.torchrl",), {}),
    "handfoot_env.torchrl_turn_env": (("handfoot_env.envs.torchrl_turn",), {}),
    "handfoot_env.rllib": (("handfoot_env.envs.rllib",), {}),
    "handfoot_env.spaces": (("handfoot_env.envs.spaces",), {}),
    "handfoot_env.seated": (("handfoot_env.seating.learner",), {"SeatedGames": "LearnerGames"}),
    "handfoot_env.table": (("handfoot_env.seating.seats",), {"Table": "Seating"}),
    "handfoot_env.rewards": (("handfoot_env.seating.rewards",), {}),
    "handfoot_env.picture": (("handfoot_env.render.picture",), {}),
    "handfoot_env.rules_table": (("handfoot_env.render.rules_doc",), {}),
    "handfoot_env.baselines.compiled_reads": (("handfoot_env.baselines.compiled.reads",), {}),
    "handfoot_env.baselines.compiled_melds": (("handfoot_env.baselines.compiled.melds",), {}),
    "agents.base": (("agents.registry",), {}),
    "agents.ppo": (("agents.trained",), {}),
    "train.evaluate": (("agents.evaluation.matches", "agents.evaluation.ratings"), {}),
    "train.rollouts": (("agents.evaluation.rollouts",), {}),
    "train.cluster": (("agents.evaluation.ray", "train.ray_workers"), {}),
    "handfoot_lab.benchmark": (("agents.evaluation.benchmark",), {}),
    "handfoot_lab.bench": (("handfoot_lab.speed",), {}),
}
# Paths that are now packages keep their old module's names at the package: ``handfoot_env.render``
# (was the text module) and ``handfoot_env.baselines.compiled`` (was the compiled heuristic) are
# imported by their new homes' ``__init__`` files, so they need no entry here.


class _MovedLoader(importlib.abc.Loader):
    def __init__(self, old: str):
        self.old = old

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        targets, renamed = MOVED[self.old]
        warnings.warn(
            f"{self.old} moved in handfoot 0.5.0 to {' and '.join(targets)}; the old path goes in 0.6",
            DeprecationWarning,
            stacklevel=2,
        )
        module = types.ModuleType(self.old, f"Moved to {', '.join(targets)}.")
        for target in targets:
            new = importlib.import_module(target)
            names = getattr(new, "__all__", None) or [n for n in vars(new) if not n.startswith("_")]
            for name in names:
                setattr(module, name, getattr(new, name))
        for old_name, new_name in renamed.items():
            setattr(module, old_name, getattr(module, new_name))
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        pass


class _MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, _MovedLoader(fullname))


def install() -> None:
    """Let the old paths import (once per process)."""
    if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(_MovedFinder())
