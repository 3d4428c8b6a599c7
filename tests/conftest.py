import os
import subprocess
import sys
from pathlib import Path

import pytest

from handfoot_env.kernel_cache import prepare_kernels

prepare_kernels()  # before torch loads OpenMP: its threads wait passively (handfoot_env/kernel_cache.py)
import torch

sys.path.insert(0, os.path.dirname(__file__))

ROOT = Path(__file__).resolve().parents[1]


def untracked_files() -> set[str] | None:
    """The checkout's files git neither tracks nor ignores (None outside a git checkout)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return set(listed.stdout.splitlines())


@pytest.fixture(scope="session", autouse=True)
def the_checkout_is_left_as_it_was():
    """A test writes into its own temporary folders, never into the checkout (a record, a
    faults/ folder, a run): what a test run leaves there fails the run's last test."""
    before = untracked_files()
    yield
    after = untracked_files()
    if before is not None and after is not None and after - before:
        pytest.fail(f"the tests left files in the checkout: {sorted(after - before)[:10]}")


@pytest.fixture(scope="session", autouse=True)
def sb3_logs_in_a_temporary_folder(tmp_path_factory):
    """SB3 makes a log folder at every ``learn`` (``/tmp/SB3-<time>`` unless ``SB3_LOGDIR``
    names one): the tests' go under pytest's own temporary folder, not into /tmp."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SB3_LOGDIR", str(tmp_path_factory.mktemp("sb3_logs")))
        yield


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Every test runs torch on one thread, as the trainer does (``threads: 1``): on a busy
    2-core machine a small network's forward pass takes about 15 ms on two threads and 0.2 ms
    on one (and a guarded agent's decision can pass its time limit)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
