"""How the compiled kernels run: where they are cached, and how their threads wait.

**The cache** has one folder per version of the kernels' source.

numba caches each compiled function beside its source file and checks only that file's
date, so a kernel that inlines a function from another file (every kernel inlines
``rule_facts.py``) would keep running the old code after that file changed.  Here the
cache lives in a folder named by a hash of every source file the kernels are compiled
from: change any of them and the kernels compile afresh, once.  The folder is
``$HANDFOOT_CACHE`` (default ``~/.cache/handfoot``), so a read-only install works too; a
user's own ``NUMBA_CACHE_DIR`` is left alone.

**Threads** of the parallel kernels wait passively at the end of each parallel loop
(``OMP_WAIT_POLICY=PASSIVE``, unless set): OpenMP's default spins, and on a machine busy with
other jobs a spinning thread waits for its descheduled partner at every step — measured
here, with both cores busy with training, 33,000 steps/s with two spinning threads against
1,110,000 with one thread and 1,500,000 with two passive ones.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
# Everything the compiled code is built from: the vector engine, its rules and layouts, and the
# compiled baselines (which inline the heuristic's parameter table and read the observation).
KERNEL_SOURCES = ("rule_facts.py", "cards.py", "actions.py", "observation.py", "vector", "baselines")


def source_hash() -> str:
    digest = hashlib.sha256()
    for name in KERNEL_SOURCES:
        path = PACKAGE / name
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.name.encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def cache_folder() -> Path:
    root = Path(
        os.environ.get("HANDFOOT_CACHE") or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "handfoot"
    )
    return root / f"numba-{source_hash()}"


def prepare_kernels() -> None:
    """Before numba loads: point its cache at this version's folder and make the parallel
    kernels' threads wait passively (each only where the user has not chosen)."""
    if "NUMBA_CACHE_DIR" not in os.environ:
        os.environ["NUMBA_CACHE_DIR"] = str(cache_folder())
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def start_threads() -> None:
    """Start the parallel kernels' threads now, keeping torch's thread count where torch is
    loaded.  numba starts its OpenMP threads at the first parallel kernel, and starting them
    sets the process's OpenMP thread count to numba's, which torch (loaded and started before)
    reads as its own: a user's ``torch.set_num_threads(1)`` silently became one thread per core,
    and on a busy machine a torch copy of a few hundred kB then took 8 ms instead of 0.03."""
    torch = sys.modules.get("torch")  # not imported here: the core runs without torch
    import numba

    if torch is None:
        numba.get_num_threads()  # starts them, once per process
        return
    threads = torch.get_num_threads()
    numba.get_num_threads()
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)


_ready: set[str] = set()  # groups already compiled or loaded in this process


def compile_once(group: str, compile_all: Callable[[], None], about: str) -> None:
    """Compile a group of kernels the first time this version of them is used, saying so.

    The first use after an install (or after a kernel source changed) compiles every kernel
    of the group into the cache, with a line on standard error before and after; later uses
    find the group's marker and load the cached kernels as they are called."""
    if group in _ready:
        return
    _ready.add(group)
    folder = Path(os.environ.get("NUMBA_CACHE_DIR") or cache_folder())
    marker = folder / f"{group}.compiled"
    if marker.exists():
        return
    print(
        f"handfoot: compiling the {group} kernels once ({about}); later starts load them from {folder}",
        file=sys.stderr,
        flush=True,
    )
    start = time.perf_counter()
    start_threads()  # compiling runs the parallel kernels, which would start them unguarded
    compile_all()
    folder.mkdir(parents=True, exist_ok=True)
    marker.write_text(f"compiled in {time.perf_counter() - start:.0f} s\n")
    print(f"handfoot: {group} kernels compiled in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
