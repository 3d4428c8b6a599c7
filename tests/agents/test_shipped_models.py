"""The shipped models and tuned heuristics still play exactly as they were recorded.

Layout version 2 (0.5.0) appended actions 173-186 and observation fields 599-654 for the
variations.  A model saved with the old layout loads (``Policy.load`` pads its action layer and
reads its saved columns) and, under the presets, where the appended actions are never legal
and the appended fields are zero, must choose exactly what it chose before: the partnership
``ppo`` of 0.4 (``ppo_partnership_v1.pt`` here, shipped until the residual agents replaced it)
and the tuned heuristics were recorded with the code of layout version 1
(commit 7635b7c) by running this module's ``write`` there::

    PYTHONPATH=<a checkout of 7635b7c> python -c \\
        "import sys; sys.path.insert(0, 'tests/agents'); import test_shipped_models as t; t.write(t.V1_KEYS)"

An agent shipped later is recorded by the code that ships it, ``write(["ppo partnership 4p"])``
(the three ``ppo`` agents, residual agents of ``configs/residual*.yaml``: layout-version-2
models with a prior) and ``scratch`` (``configs/scratch.yaml``, no prior), so that a later change
of the loader or the engine that changes their play fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

RECORDED = Path(__file__).with_name("shipped_play.json")
# (agent name, preset, players): every shipped model and tuned heuristic, on the rules it ships for.
AGENTS = (
    ("ppo", "classic", 2),
    ("ppo", "partnership", 4),
    ("ppo", "house", 4),
    ("scratch", "partnership", 4),
    ("tuned", "classic", 2),
    ("tuned", "partnership", 4),
    ("tuned", "house", 4),
    # the shipped partnership ppo of 0.4, a layout-version-1 file (recorded under its old key)
    (f"ppo:{Path(__file__).with_name('ppo_partnership_v1.pt')}", "partnership", 4),
)
V1_KEY = "ppo 0.4 partnership 4p"
# the entries recorded by the code of layout version 1 (the rest by the code that shipped them)
V1_KEYS = [V1_KEY, "tuned classic 2p", "tuned partnership 4p", "tuned house 4p"]


def key_of(name: str, preset: str, players: int) -> str:
    return V1_KEY if name.endswith("ppo_partnership_v1.pt") else f"{name} {preset} {players}p"


BATCH, STEPS, SEED = 4, 300, 2029


def record(name: str, preset: str, players: int) -> list[list[int]]:
    """The agent in every seat of ``BATCH`` games for ``STEPS`` steps: the actions it chose."""
    from agents import make_agent
    from handfoot_env.rules import Rules
    from handfoot_env.vector import VectorEngine

    rules = Rules.preset(preset, num_players=players)
    agent = make_agent(name, seed=0, rules=rules)
    engine = VectorEngine(rules, batch_size=BATCH, seed=SEED, auto_reset=True)
    chosen = []
    for _ in range(STEPS):
        actions = np.asarray(agent.act(engine.observe(), engine.legal_mask()), dtype=np.int64)
        chosen.append(actions.tolist())
        engine.step(actions)
    return chosen


def record_all() -> dict[str, list[list[int]]]:
    return {key_of(name, preset, players): record(name, preset, players) for name, preset, players in AGENTS}


def write(keys: list[str] | None = None) -> None:
    """Record every agent, or only the entries ``keys`` (``"ppo partnership 4p"``), keeping the rest."""
    if keys is None:
        RECORDED.write_text(json.dumps(record_all()) + "\n")
        return
    unknown = set(keys) - {key_of(*agent) for agent in AGENTS}
    if unknown:
        raise ValueError(f"no such entries: {sorted(unknown)}")
    recorded = json.loads(RECORDED.read_text())
    for name, preset, players in AGENTS:
        key = key_of(name, preset, players)
        if key in keys:
            recorded[key] = record(name, preset, players)
    RECORDED.write_text(json.dumps(recorded) + "\n")


@pytest.mark.parametrize("name,preset,players", AGENTS, ids=[key_of(*agent) for agent in AGENTS])
def test_shipped_agent_plays_as_recorded(name, preset, players):
    expected = json.loads(RECORDED.read_text())[key_of(name, preset, players)]
    assert record(name, preset, players) == expected
