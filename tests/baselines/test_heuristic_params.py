"""The heuristic's table of numbers: one order for the names, the defaults and the array."""

from __future__ import annotations

import json

import numpy as np
import pytest

from handfoot_env.baselines import heuristic_params as H


def test_every_index_constant_names_its_entry():
    for position, name in enumerate(H.NAMES[: H.PAIR_WEIGHTS]):
        assert getattr(H, name.upper()) == position, name
    assert H.NAMES[H.PAIR_WEIGHTS :] == tuple(f"pair_{f}" for f in H.PAIR_FEATURES)
    assert len(H.DEFAULT_PARAMS) == len(H.NAMES)
    for name, p in H.PARAMS.items():
        assert p.low <= p.high and p.what, name
        assert p.low <= p.default <= p.high or p.default == H.OFF or p.low == p.high, name


def test_saved_params_round_trip_and_bad_files_are_one_line(tmp_path):
    params = H.params_array({"extra_protected": 2, "feed_penalty": -20})
    H.save_params(tmp_path / "v.json", params, preset="partnership", players=4)
    assert np.array_equal(H.load_params(tmp_path / "v.json"), params)
    assert json.loads((tmp_path / "v.json").read_text())["changed"] == {"feed_penalty": -20.0, "extra_protected": 2.0}
    (tmp_path / "bad.json").write_text('{"params": {"no_such_number": 1}}')
    with pytest.raises(ValueError, match="no_such_number"):
        H.load_params(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="cannot read"):
        H.load_params(tmp_path / "missing.json")
