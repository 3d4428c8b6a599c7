import os
import sys

import pytest

from handfoot_env.kernel_cache import prepare_kernels

prepare_kernels()  # before torch loads OpenMP: its threads wait passively (handfoot_env/kernel_cache.py)
import torch

sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Every test runs torch on one thread, as the trainer does (``threads: 1``): on a busy
    2-core machine a small network's forward pass takes about 15 ms on two threads and 0.2 ms
    on one (and a guarded agent's decision can pass its time limit)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
