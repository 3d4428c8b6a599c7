"""Uniform choice among legal actions, compiled: one uniform number per game, no [B, A] noise."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def sample_legal(masks, uniforms, out):
    """``out[b]`` = the ``floor(uniforms[b] * n_legal)``-th legal action of row ``b`` (-1 if
    none); returns the number of rows without a legal action."""
    stuck = 0
    for b in range(masks.shape[0]):
        count = 0
        for a in range(masks.shape[1]):
            count += masks[b, a]
        out[b] = -1
        if count == 0:
            stuck += 1
            continue
        k = min(int(uniforms[b] * count), count - 1)
        for a in range(masks.shape[1]):
            if masks[b, a]:
                if k == 0:
                    out[b] = a
                    break
                k -= 1
    return stuck


def random_legal_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``."""
    masks = np.ascontiguousarray(masks, dtype=np.bool_)
    out = np.empty(masks.shape[0], dtype=np.int64)
    if sample_legal(masks, rng.random(masks.shape[0]), out):
        raise ValueError(f"row {int(np.flatnonzero(out < 0)[0])} of the mask has no legal action")
    return out
