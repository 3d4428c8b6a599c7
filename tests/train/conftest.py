"""The training tests run torch on one thread, as the trainer does (``threads: 1``): on a busy
2-core machine a small network's forward pass takes 15 ms on two threads and 0.2 ms on one."""

from __future__ import annotations

import pytest
import torch


@pytest.fixture(autouse=True)
def one_torch_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
