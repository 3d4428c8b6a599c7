"""The action layout: one fixed size, decodes cleanly, documented from the constants."""

from __future__ import annotations

import pytest

from handfoot_env import actions as A


def test_layout_is_fixed_and_well_under_200():
    assert A.NUM_ACTIONS == 187
    assert A.NUM_ACTIONS_BY_VERSION == {1: 173, 2: 187}  # version 2 (0.5.0) appended 173-186
    assert sum(count for _, count, _ in A.layout_table()) == A.NUM_ACTIONS


def test_every_action_decodes_and_describes():
    kinds = set()
    for action in range(A.NUM_ACTIONS):
        act = A.decode(action)
        kinds.add(act.kind)
        assert not A.describe(action).startswith("<invalid")
    assert kinds == set(A.ACTION_KINDS)


def test_encoders_round_trip():
    for r in range(11):
        for c in range(3):
            assert A.decode(A.start_group(r, c)) == A.Action("start_group", rank=r, composition=c)
        assert A.decode(A.add_natural(r)).rank == r
        assert A.decode(A.add_two(r)).kind == "add_two"
        assert A.decode(A.add_joker(r)).kind == "add_joker"
    for k in range(15):
        assert A.decode(A.discard(k)).card == k


@pytest.mark.parametrize("bad", [-1, A.NUM_ACTIONS, "1", 2.0, None, True])
def test_bad_actions_are_value_errors(bad):
    with pytest.raises(ValueError):
        A.decode(bad)


def test_module_docstring_table_matches_the_constants():
    doc = A.__doc__
    for index, count, _ in A.layout_table():
        assert f"| {index}" in doc, index


def test_the_docs_action_table_matches_the_layout():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "env.md").read_text()
    for index, count, _ in A.layout_table():
        assert f"| {index} | {count} |" in page, index
