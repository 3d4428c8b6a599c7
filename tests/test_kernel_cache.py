"""The compiled kernels' cache follows every source file they are compiled from."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from handfoot_env import kernel_cache


def test_changing_any_kernel_source_changes_the_cache_folder(tmp_path, monkeypatch):
    copy = tmp_path / "handfoot_env"
    shutil.copytree(kernel_cache.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(kernel_cache, "PACKAGE", copy)
    before = kernel_cache.source_hash()
    assert kernel_cache.source_hash() == before  # stable
    changed_files = (
        "rule_facts.py",
        "vector/legality.py",
        "actions.py",
        "baselines/heuristic_params.py",  # its indices are inlined into the compiled heuristic
        "baselines/compiled/reads.py",
    )
    for changed in changed_files:
        path = copy / changed
        original = path.read_text()
        path.write_text(original + "\n# a change\n")
        assert kernel_cache.source_hash() != before, changed
        path.write_text(original)
    (copy / "reference" / "scoring.py").write_text("# the reference engine is not compiled\n")
    assert kernel_cache.source_hash() == before


def test_numba_caches_in_the_folder_of_this_source():
    import numba

    assert numba.config.CACHE_DIR == os.environ["NUMBA_CACHE_DIR"]
    assert kernel_cache.source_hash() in numba.config.CACHE_DIR


def test_a_parallel_engine_leaves_torchs_thread_count_as_the_user_set_it():
    # A fresh process: numba starts its threads once per process.  TorchRL's import starts
    # torch's threads first, as in a TorchRL user's script, where this was found.
    script = """
import torch, torchrl
torch.set_num_threads(1)
from handfoot_env import Rules
from handfoot_env.vector import VectorEngine
engine = VectorEngine(Rules.preset("partnership"), batch_size=300, seed=0)  # parallel kernels
engine.legal_mask()
print(torch.get_num_threads())
"""
    pytest.importorskip("torchrl")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.split()[-1] == "1"
