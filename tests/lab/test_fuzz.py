"""The corner-seeking fuzzer: policies, corner counts, failures counted, and the long run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.rules import Rules
from handfoot_lab.fuzz import (
    CORNERS,
    VARIATION_CONFIGS,
    EagerAgent,
    config_label,
    default_configs,
    fuzz_reference,
    fuzz_vector,
    preset_configs,
)

ROOT = Path(__file__).resolve().parents[2]
# The variations the presets leave out (docs/rules.md "Variations"), besides six players.
VARIATION_FIELDS = (
    "wild_books",
    "wild_book_to_go_out",
    "permission_to_go_out",
    "partner_foot_first",
    "black_three_books",
    "sevens_book_to_go_out",
    "take_onto_table",
    "take_with_natural_and_wild",
    "wild_freezes_pile",
)


def test_eager_melds_before_anything_else_and_draws_rather_than_takes():
    agent = EagerAgent(0)
    masks = np.zeros((3, NUM_ACTIONS), dtype=bool)
    masks[0, [0, 1, 5, 70]] = True  # draw, take, a meld, a discard
    masks[1, [0, 1]] = True
    masks[2, [70, 71]] = True
    actions = agent.act(None, masks)
    assert actions[0] == 5 and actions[1] == 0 and actions[2] in (70, 71)


def test_every_variation_is_fuzzed():
    """Each rules field the presets leave at its default is changed by some fuzz configuration."""
    preset_fields = {(f, repr(v)) for r in preset_configs() for f, v in r.to_dict().items()}
    varied = {f for r in default_configs() for f, v in r.to_dict().items() if (f, repr(v)) not in preset_fields}
    for name in VARIATION_FIELDS:
        assert name in varied, name
    assert any(r.partnerships and r.num_players == 6 for r in default_configs())  # three teams of two


@pytest.mark.parametrize("name,overrides", VARIATION_CONFIGS)
def test_reference_fuzz_of_each_variation_finds_no_failure(name, overrides):
    report = fuzz_reference(Rules.preset(name, **overrides), "mixed", games=1, seed=29)
    assert report.ok and report.games == 1, report.failures


def test_reference_fuzz_counts_corners_and_finds_no_failure():
    report = fuzz_reference(Rules.preset("partnership"), "eager", games=2, seed=3)
    assert report.ok and report.games == 2 and report.steps > 500
    assert set(report.corners) == set(CORNERS)
    assert report.corners["foot_by_discard"] > 0 and report.corners["staging_returned"] > 0


def test_a_divergence_is_counted_with_its_replay_record_not_raised():
    from handfoot_env.vector import VectorEngine
    from handfoot_lab import fuzz

    class Planted(VectorEngine):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.kernel_rules = self.kernel_rules.copy()
            self.kernel_rules[0]["going_out_bonus"] = 101

    original = fuzz.VectorEngine
    fuzz.VectorEngine = Planted
    try:
        report = fuzz_vector(Rules.preset("classic"), "greedy", steps=6000, seed=2)
    finally:
        fuzz.VectorEngine = original
    assert report.divergences > 0 and not report.ok
    assert "replay record" in report.failures[0] and len(report.failures) <= 5


EVERY_TABLE = {
    ("classic", 2),
    ("classic", 3),
    ("classic", 4),
    ("classic", 6),
    ("partnership", 4),
    ("house", 2),
    ("house", 4),
}


def mixed_fuzz(steps: int) -> list[dict]:
    """``handfoot fuzz --engine vector --policy mixed --steps STEPS --json --jobs 2``: both
    engines side by side over every preset and player count; one report per table."""
    command = ["fuzz", "--engine", "vector", "--policy", "mixed", "--steps", str(steps), "--json", "--jobs", "2"]
    proc = subprocess.run(
        [sys.executable, "-m", "handfoot_lab.cli", *command], check=False, capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return [json.loads(line) for line in proc.stdout.splitlines()]


def assert_clean_run(rows: list[dict], steps: int) -> None:
    """Every table ran under mixed policies with no divergence, dead end or invariant failure,
    and together at least ``steps`` steps were compared: counted both as actions whose outcome
    was compared and as positions whose mask and observation were (the run stops on the
    first count, so the second is the one that can come up short)."""
    labels = [config_label(rules) for rules in default_configs()]  # every table, then every variation
    assert {(r["preset"], r["num_players"]) for r in rows} >= EVERY_TABLE and sorted(
        r["label"] for r in rows
    ) == sorted(labels)
    assert all(r["policy"] == "mixed" and r["positions"] > 0 for r in rows)
    # Whole games on every preset table; the variations' slices are short (whole games of each
    # are compared by tests/vector/test_differential.py and the longer runs of the command).
    assert all(r["games"] > 0 for r in rows if (r["preset"], r["num_players"]) in EVERY_TABLE and "=" not in r["label"])
    failed = {r["label"]: (r["divergences"], r["dead_ends"], r["invariant_failures"]) for r in rows}
    assert all(counts == (0, 0, 0) for counts in failed.values()), failed
    assert sum(r["steps"] for r in rows) >= steps
    assert sum(r["positions"] for r in rows) >= steps


def test_a_mixed_fuzz_slice_on_every_table():
    """The default run's slice of the long fuzz run below: 750,000+ compared steps, 44,000 per
    configuration (7 preset tables and 10 variation configurations; about 2.5 minutes with 2 jobs)."""
    assert_clean_run(mixed_fuzz(751_000), 750_000)


@pytest.mark.slow
def test_ten_million_compared_steps_with_mixed_policies():
    """The long run (20-30 minutes on 2 idle cores): handfoot fuzz --engine vector --policy mixed
    --steps 10000000 --json --jobs 2, every preset table and one configuration per variation."""
    assert_clean_run(mixed_fuzz(10_000_000), 10_000_000)
