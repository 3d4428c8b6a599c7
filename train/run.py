"""A training run's folder: one live run at a time, resumable, never half written.

    runs/NAME/
      config.json      the settings really in use (the latest segment's)
      segments.json    each segment of the run: the step it started at, the settings it changed
      checkpoint/      trainer.pt (policy, optimizer, the run's state and the league's snapshots,
                       one file written at once); state.json a readable copy of the state
      model.pt         the final policy; final_eval.json its evaluation; tensorboard/ the curves
      .lock            held by the live run (an OS lock: it goes with the process)

On ``--resume`` the settings that can change (learning rate, entropy, evaluation, total
steps...) take their new values and are recorded; those that cannot (``FIXED_ON_RESUME``: the
game, the network, the batch of games, the reward mode, the seed, what selects the kept policy)
are refused in one line naming them.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from train.config import TrainConfig

# Settings a resumed run must keep: the model's shape, the games, the algorithm, what it
# learns, and what its best policy was selected on (section settings by "section.key";
# "network" fixes every key of its section).
FIXED_ON_RESUME = (
    "preset",
    "rules",
    "seed",
    "algorithm",
    "network",
    "env.num_envs",
    "env.reward_mode",
    "eval.keep_best_vs",
    "eval.select_pairs",
)


def flat_settings(config: dict[str, Any]) -> dict[str, Any]:
    """``{"ppo": {"gamma": 0.99}}`` as ``{"ppo.gamma": 0.99}`` (the rules and the opponents
    stay whole: they are one setting each)."""
    out: dict[str, Any] = {}
    for key, value in config.items():
        if isinstance(value, dict) and key != "rules":
            out.update({f"{key}.{inner}": v for inner, v in value.items()})
        else:
            out[key] = value
    return out


def write_atomically(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Write ``path`` through a temporary file and a rename, so a kill never leaves it half written."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as handle:
        write(handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def write_json(path: Path, data: Any) -> None:
    def write(handle: IO[bytes]) -> None:
        handle.write(json.dumps(data, indent=1).encode())

    write_atomically(path, write)


def read_json(
    path: Path, what: str, kind: type[dict | list] = dict, remedy: str = "start the run afresh without --resume"
) -> Any:
    """The JSON value in ``path``, a ``kind`` (an object unless said); anything else
    (unreadable, corrupt, another type) is a ``ValueError`` that ends with ``remedy``."""
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise ValueError(f"cannot read the {what} {path}: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise ValueError(f"the {what} {path} is corrupt ({exc}); {remedy}") from None
    if not isinstance(data, kind):
        raise ValueError(f"the {what} {path} is corrupt (not a JSON {'object' if kind is dict else 'array'}); {remedy}")
    return data


class RunFolder:
    """The folder of one run; :meth:`open` claims it for this process."""

    def __init__(self, config: TrainConfig):
        self.config = config
        self.path = config.path
        self.checkpoint = self.path / "checkpoint"
        self._lock: IO[str] | None = None

    def open(self) -> None:
        """Create the folder and hold its lock; a second live run in it is refused."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            lock = open(self.path / ".lock", "a+")  # noqa: SIM115 - held open: the lock lives as long as the run
        except OSError as exc:
            raise ValueError(f"cannot create the run folder {self.path}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            owner = lock.read().strip() or "another process"
            lock.close()
            raise ValueError(
                f"the run folder {self.path} is in use by a live training run ({owner}); "
                "wait for it, or choose another --set name=..."
            ) from None
        lock.seek(0)
        lock.truncate()
        lock.write(f"pid {os.getpid()}")
        lock.flush()
        self._lock = lock

    def close(self) -> None:
        if self._lock is not None:
            self._lock.close()  # releases the lock
            self._lock = None

    # ------------------------------------------------------------------ resuming
    def has_checkpoint(self) -> bool:
        return (self.checkpoint / "trainer.pt").exists() or (self.checkpoint / "state.json").exists()

    def load_state(self) -> dict:
        """The run's state from state.json: what a checkpoint written before trainer.pt held the
        state resumes from."""
        return read_json(self.checkpoint / "state.json", "checkpoint state")

    def resume_changes(self) -> dict[str, list]:
        """The settings this config changes from the run's, as {key: [old, new]}; refuses
        (``ValueError``) a change of any setting in :data:`FIXED_ON_RESUME`."""
        saved = flat_settings(read_json(self.path / "config.json", "run config"))
        current = flat_settings(self.config.to_dict())
        if any(k not in current for k in saved):  # a config of handfoot 0.4 (flat keys)
            raise ValueError(
                f"{self.path} was trained by an older handfoot (its config.json has other keys); "
                "start a new run under another name"
            )
        # a setting added since the run started had its default value then
        defaults = flat_settings(TrainConfig().to_dict())
        saved = {k: saved.get(k, defaults[k]) for k in current}
        changed = {k: [saved[k], v] for k, v in current.items() if saved[k] != v}
        fixed = [k for k in changed if k in FIXED_ON_RESUME or k.split(".")[0] in FIXED_ON_RESUME]
        if fixed:
            detail = ", ".join(f"{k} ({changed[k][0]!r} -> {changed[k][1]!r})" for k in fixed)
            raise ValueError(
                f"cannot resume {self.path} with other {detail}: these shape the model or "
                "the game it learns; start a new run under another name instead"
            )
        return changed

    def record_config(self, step: int, changes: dict[str, list] | None) -> None:
        """config.json holds the settings in use now; segments.json every segment's changes."""
        write_json(self.path / "config.json", self.config.to_dict())
        segments_path = self.path / "segments.json"
        segments = (
            read_json(segments_path, "run segments", list) if segments_path.exists() and changes is not None else []
        )
        segments.append({"start_step": step, "changes": changes or {}})
        write_json(segments_path, segments)


__all__ = ["FIXED_ON_RESUME", "RunFolder", "read_json", "write_atomically", "write_json"]
