"""Where the compiled kernels are cached: one folder per version of the kernels' source.

numba caches each compiled function beside its source file and checks only that file's
date, so a kernel that inlines a function from another file (every kernel inlines
``rule_facts.py``) would keep running the old code after that file changed.  Here the
cache lives in a folder named by a hash of every source file the kernels are compiled
from: change any of them and the kernels compile afresh, once.  The folder is
``$HANDFOOT_CACHE`` (default ``~/.cache/handfoot``), so a read-only install works too; a
user's own ``NUMBA_CACHE_DIR`` is left alone.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
# Everything the compiled code is built from (the vector engine, its rules and layouts).
KERNEL_SOURCES = ("rule_facts.py", "cards.py", "actions.py", "observation.py", "vector")


def source_hash() -> str:
    digest = hashlib.sha256()
    for name in KERNEL_SOURCES:
        path = PACKAGE / name
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.name.encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def cache_folder() -> Path:
    root = Path(os.environ.get("HANDFOOT_CACHE") or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
                / "handfoot")
    return root / f"numba-{source_hash()}"


def use_kernel_cache() -> None:
    """Point numba's cache at this version's folder (before any kernel is compiled or loaded)."""
    if "NUMBA_CACHE_DIR" not in os.environ:
        os.environ["NUMBA_CACHE_DIR"] = str(cache_folder())
