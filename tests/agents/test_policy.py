"""The network's advisor: which heuristic advises it travels with the weights."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.policy import Policy
from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.baselines.compiled import CompiledHeuristic
from handfoot_env.baselines.heuristic_params import DEFAULT_PARAMS, NAMES, NAMES_BEFORE_0_4, params_array
from handfoot_env.observation import OBS_SIZE
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine
from train.imitation import demonstrations

VARIANT = params_array({"extra_protected": 2, "feed_penalty": -20, "feed_pile_min": 0})
RULES = Rules.preset("partnership")


def positions(count: int = 64, steps: int = 300):
    engine = VectorEngine(RULES, batch_size=count, seed=2)
    heuristic = CompiledHeuristic(RULES)
    for _ in range(steps):
        engine.step(heuristic.act(engine.observe(), engine.legal_mask()))
    return engine.observe().copy(), engine.legal_mask().copy()


def test_the_advice_input_is_the_advising_variants_choice():
    observations, masks = positions()
    policy = Policy((16,), advisor=True, advisor_params=VARIANT)
    x = policy.inputs(observations, masks, RULES)
    assert x.shape == (len(masks), OBS_SIZE + NUM_ACTIONS)
    advised = x[:, OBS_SIZE:].argmax(1)
    assert np.array_equal(advised, CompiledHeuristic(RULES, VARIANT).act(observations, masks))
    default = Policy((16,), advisor=True).inputs(observations, masks, RULES)[:, OBS_SIZE:].argmax(1)
    assert np.array_equal(default, CompiledHeuristic(RULES).act(observations, masks))


def test_the_advisor_is_saved_with_the_model_and_old_files_get_the_default(tmp_path):
    policy = Policy((16,), advisor=True, advisor_params=VARIANT)
    policy.save(tmp_path / "m.pt", RULES)
    loaded, _, _ = Policy.load(tmp_path / "m.pt")
    assert np.array_equal(loaded.advisor_params.numpy(), VARIANT)
    # a model file from before advisors could be tuned has no advisor_params: the default heuristic advised it
    data = torch.load(tmp_path / "m.pt", weights_only=False)
    del data["state_dict"]["advisor_params"]
    torch.save(data, tmp_path / "old.pt")
    old, _, _ = Policy.load(tmp_path / "old.pt")
    assert np.array_equal(old.advisor_params.numpy(), DEFAULT_PARAMS)


def test_advisor_numbers_load_by_name_whatever_the_table_held_when_saved(tmp_path):
    variant = params_array({"extra_protected": 2, "keep_wilds": 1, "pair_known_two": 3.0})
    Policy((16,), advisor=True, advisor_params=variant).save(tmp_path / "m.pt", RULES)
    data = torch.load(tmp_path / "m.pt", weights_only=False)
    # a file from before 0.4.0: no names, the array in the table's order of then (no keep_wilds)
    del data["advisor_param_names"]
    data["state_dict"]["advisor_params"] = torch.as_tensor(
        [variant[NAMES.index(n)] for n in NAMES_BEFORE_0_4], dtype=torch.float64
    )
    torch.save(data, tmp_path / "old.pt")
    old, _, _ = Policy.load(tmp_path / "old.pt")
    expected = variant.copy()
    expected[NAMES.index("keep_wilds")] = DEFAULT_PARAMS[NAMES.index("keep_wilds")]  # unknown then: the default
    assert np.array_equal(old.advisor_params.numpy(), expected)
    # a file from a newer handfoot, with a number this one does not know: refused in one line
    data["advisor_param_names"] = list(NAMES_BEFORE_0_4[:-1]) + ["a_future_number"]
    torch.save(data, tmp_path / "new.pt")
    with pytest.raises(ValueError, match="its advising heuristic does not fit"):
        Policy.load(tmp_path / "new.pt")


def test_imitation_learns_from_the_advising_variant():
    observations, masks, actions = next(demonstrations(RULES, 2048, seed=4, batch=64, params=VARIANT))
    assert np.array_equal(actions, CompiledHeuristic(RULES, VARIANT).act(observations, masks))
    assert not np.array_equal(
        actions, CompiledHeuristic(RULES).act(observations, masks)
    )  # the variant plays its own way


def test_a_model_trained_on_another_observation_layout_is_refused_in_one_line(tmp_path):
    path = tmp_path / "old.pt"
    Policy((8,), advisor=True).save(path, RULES)
    data = torch.load(path, weights_only=False)
    for name in ("mean", "scale"):  # as a file from before seat_known (509 observation numbers)
        data["state_dict"][name] = data["state_dict"][name][90:]
    torch.save(data, path)
    with pytest.raises(ValueError, match=f"observations of 509 numbers and this handfoot's have {OBS_SIZE}"):
        Policy.load(path)


def test_acting_runs_the_actor_alone_and_picks_what_forward_would():
    policy = Policy((16,), advisor=False)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, OBS_SIZE)).astype(np.float32)
    masks = rng.random((64, NUM_ACTIONS)) < 0.1
    masks[np.arange(64), rng.integers(0, NUM_ACTIONS, 64)] = True
    logits, _ = policy(torch.as_tensor(x), torch.as_tensor(masks))
    expected = logits.argmax(-1).numpy()

    def no_critic(*args):
        raise AssertionError("acting ran the critic")

    policy.critic.forward = no_critic  # acting needs no value: the critic must not run
    assert np.array_equal(policy.act(x, masks), expected) and masks[np.arange(64), expected].all()
