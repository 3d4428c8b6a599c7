"""scripts/plant_faults.py can plant every fault it lists: each line it replaces stands exactly
once in its file (code that moved leaves a fault nothing plants, and the table in
docs/learner_tests.md would go stale)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("plant_faults", ROOT / "scripts" / "plant_faults.py")
assert spec is not None and spec.loader is not None
plant_faults = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plant_faults)


@pytest.mark.parametrize("fault", plant_faults.FAULTS, ids=lambda fault: fault[0])
def test_every_fault_plants_where_its_line_stands_once(fault):
    fault_id, path, line, planted, _ = fault
    assert (ROOT / path).read_text().count(line) == 1, f"{fault_id}: its line is not in {path} exactly once"
    assert planted != line


def test_fault_ids_are_unique():
    ids = [fault[0] for fault in plant_faults.FAULTS]
    assert len(ids) == len(set(ids))


def test_every_test_path_it_runs_exists():
    paths = [path for paths in plant_faults.TESTS.values() for path in paths] + plant_faults.BROAD
    missing = [path for path in paths if not (ROOT / path.split("::")[0]).exists()]
    assert not missing
