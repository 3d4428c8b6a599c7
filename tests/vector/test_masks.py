"""The legal mask against ``why_illegal``: the mask asks each kind's check directly (masks.py),
so here every action of every position met is asked both ways and must agree."""

from __future__ import annotations

import numpy as np
import pytest

from handfoot_env import actions as A
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine, batch
from handfoot_lab.fuzz import VARIATION_CONFIGS

CONFIGS = [("classic", dict(num_players=2)), ("partnership", {}), ("house", dict(num_players=4))]
CONFIGS += list(VARIATION_CONFIGS)


@pytest.mark.parametrize("preset,overrides", CONFIGS, ids=lambda v: v if isinstance(v, str) else "-".join(v))
def test_the_mask_allows_exactly_what_why_illegal_allows(preset, overrides):
    engine = VectorEngine(Rules.preset(preset, **overrides), batch_size=16, seed=3)
    rng = np.random.default_rng(3)
    everyone = np.ones(engine.batch_size, dtype=np.bool_)
    errors = np.zeros(engine.batch_size, dtype=np.int64)
    legal_seen = np.zeros(A.NUM_ACTIONS, dtype=bool)
    for _ in range(250):
        masks = engine.legal_mask().copy()
        for action in range(A.NUM_ACTIONS):
            actions = np.full(engine.batch_size, action, dtype=np.int64)
            batch.check_kernel_serial(engine.states, engine.kernel_rules, actions, everyone, errors)
            disagree = np.flatnonzero(masks[:, action] != (errors == 0))
            assert disagree.size == 0, f"action {action} ({A.describe(action)}) in game {disagree[0]}"
        legal_seen |= masks.any(axis=0)
        scores = rng.random(masks.shape)
        scores[~masks] = -1
        engine.step(scores.argmax(axis=1))
    assert legal_seen[A.START_GROUP : A.DISCARD].sum() >= 20  # the positions met reach the melds
