"""The pair model: features as both heuristics compute them, labels from the engine, and a fit
that predicts the next player's pairs better than their base rate."""

from __future__ import annotations

import numpy as np

from handfoot_env.baselines.heuristic import HeuristicAgent
from handfoot_env.baselines.heuristic_params import NUM_PAIR_FEATURES, PAIR_FEATURES, PAIR_WEIGHTS
from handfoot_env.cards import NUM_NATURALS
from handfoot_env.observation import ObservationView
from handfoot_env.rules import Rules
from train.pair_model import fit_pair_model, pair_examples
from train.tune import TuneConfig, tune

RULES = Rules.preset("partnership")


def test_features_are_the_readable_heuristics_and_labels_are_about_the_next_player():
    features, labels = pair_examples(RULES, 600, seed=1, batch=64)
    assert features.shape == (600, NUM_NATURALS, NUM_PAIR_FEATURES) and labels.shape == (600, NUM_NATURALS)
    assert 0.02 < labels.mean() < 0.5  # some ranks paired, most not
    # the compiled features equal the readable heuristic's, position by position
    from handfoot_env.baselines.compiled.heuristic import pair_feature_rows
    from handfoot_env.vector import VectorEngine

    engine = VectorEngine(RULES, batch_size=32, seed=2)
    from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic

    heuristic, readable = CompiledHeuristic(RULES), HeuristicAgent(RULES)
    for _ in range(200):
        engine.step(heuristic.act(engine.observe(), engine.legal_mask()))
    observations = engine.observe()
    out = np.empty((32, NUM_NATURALS, NUM_PAIR_FEATURES))
    pair_feature_rows(np.ascontiguousarray(observations), out)
    for b in range(32):
        view = ObservationView(observations[b])
        for r in range(NUM_NATURALS):
            assert np.array_equal(out[b, r], readable.pair_features(view, r))
    assert next(iter(PAIR_FEATURES)) == "bias" and (out[:, :, 0] == 1).all()


def test_the_fit_predicts_better_than_the_base_rate():
    weights, info = fit_pair_model(RULES, 3000, seed=3)
    assert weights.shape == (NUM_PAIR_FEATURES,)
    assert info["log_loss"] < info["base_log_loss"] - 0.02
    # more cards in the next player's hand, more pairs; the rank on its side's table, fewer
    assert weights[list(PAIR_FEATURES).index("hand_size")] > 0
    assert weights[list(PAIR_FEATURES).index("on_table")] < 0


def test_house_has_no_pair_takes_to_predict():
    import pytest

    with pytest.raises(ValueError, match="without one"):
        tune(Rules.preset("house"), TuneConfig(generations=1, population=2, elite=1, pairs=2, pair_positions=100))


def test_tuning_with_a_pair_model_carries_its_weights():
    result = tune(
        Rules.preset("partnership", num_deals=1),
        TuneConfig(generations=1, population=2, elite=1, pairs=3, final_pairs=3, pair_positions=2000),
    )
    weights = result.params[PAIR_WEIGHTS : PAIR_WEIGHTS + NUM_PAIR_FEATURES]
    assert np.any(weights != 0) and result.pair_model["positions"] == 2000
