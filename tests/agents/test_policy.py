"""The network: its advisor travels with the weights; its inputs are compact, scaled and
clipped; every caller runs it in its own precision; old model files load as they played."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from agents.policy import Policy, compact_columns, device_label, resolve_device, rule_actions
from agents.trained import PPOAgent
from handfoot_env.actions import NUM_ACTIONS
from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic
from handfoot_env.baselines.heuristic_params import DEFAULT_PARAMS, NAMES, NAMES_BEFORE_0_4, params_array
from handfoot_env.observation import OBS_SIZE, PILE_COUNTS, PILE_SIZE
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine
from train.imitation import demonstrations

VARIANT = params_array({"extra_protected": 2, "feed_penalty": -20, "feed_pile_min": 0})
RULES = Rules.preset("partnership")


def positions(count: int = 64, steps: int = 300, rules: Rules = RULES):
    engine = VectorEngine(rules, batch_size=count, seed=2)
    heuristic = CompiledHeuristic(rules)
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


def test_a_prior_gives_the_advisors_move_its_chance_and_the_other_legal_moves_the_rest_evenly(tmp_path):
    observations, masks = positions()
    policy = Policy((16,), advisor=True, advisor_params=VARIANT, advisor_prior=0.9, precision="fp32")
    x = policy.inputs(observations, masks, RULES)
    policy.set_scaling(x)
    probs = torch.softmax(policy.logits(torch.as_tensor(x), torch.as_tensor(masks)), -1).detach().numpy()
    advised = CompiledHeuristic(RULES, VARIANT).act(observations, masks)
    rows, legal = np.arange(len(masks)), masks.sum(1)
    assert (legal > 2).any() and (legal == 1).any()
    expected = np.where(legal > 1, 0.9, 1.0)
    assert np.allclose(probs[rows, advised], expected, atol=1e-5)
    others = masks.copy()
    others[rows, advised] = False
    spread = np.where(legal > 1, 0.1 / np.maximum(legal - 1, 1), 0.0)
    assert np.allclose(np.where(others, probs, 0.0), others * spread[:, None], atol=1e-5)
    assert (probs[~masks] == 0).all()
    # forward gives the same logits, and a saved model keeps its prior
    logits, _ = policy(torch.as_tensor(x), torch.as_tensor(masks))
    assert torch.equal(logits, policy.logits(torch.as_tensor(x), torch.as_tensor(masks)))
    policy.save(tmp_path / "m.pt", RULES)
    loaded, _, _ = Policy.load(tmp_path / "m.pt")
    assert loaded.advisor_prior == 0.9
    # version 3, which a handfoot from before priors refuses (it would play the residual alone)
    assert torch.load(tmp_path / "m.pt", weights_only=False)["version"] == 3
    assert np.array_equal(PPOAgent(loaded, RULES).act(observations, masks), advised)
    with pytest.raises(ValueError, match="advisor_prior"):
        Policy((16,), advisor=False, advisor_prior=0.9)


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
        data["state_dict"][name] = data["state_dict"][name][OBS_SIZE - 509 :]
    data["version"] = 1  # files of that time
    torch.save(data, path)
    with pytest.raises(
        ValueError, match="observations of 509 numbers and this handfoot reads files of version 1 with 599"
    ):
        Policy.load(path)


@pytest.mark.parametrize("preset, players", [("partnership", 4), ("classic", 3), ("house", 2)])
def test_compact_inputs_leave_out_only_columns_these_rules_never_fill(preset, players):
    rules = Rules.preset(preset, num_players=players)
    engine = VectorEngine(rules, batch_size=64, seed=3)
    heuristic = CompiledHeuristic(rules)
    kept = compact_columns(rules)
    dropped = np.setdiff1d(np.arange(OBS_SIZE), kept)
    filled = np.zeros(OBS_SIZE, dtype=bool)
    for _ in range(600):
        observations = engine.observe()
        assert not observations[:, dropped].any()
        filled |= (observations != 0).any(axis=0)
        engine.step(heuristic.act(observations, engine.legal_mask()))
    assert filled[kept].mean() > 0.5  # the kept columns do carry the game
    assert len(kept) < OBS_SIZE


def test_inputs_beyond_the_sample_are_clipped_so_they_cannot_saturate_the_network():
    """A pile far larger than any in the scaling sample reads as the clip bound (5 spreads),
    not as a z-score in the hundreds (the scaling of 0.4's models let 90 inputs pass 10)."""
    observations, masks = positions()
    policy = Policy((16,), clip=5.0)
    x = policy.inputs(observations, masks, RULES)
    policy.set_scaling(x)
    for column in (PILE_SIZE, PILE_COUNTS + 5):
        at_bound, far = x.copy(), x.copy()
        at_bound[:, column] = policy.mean[column].item() + 5.0 / policy.scale[column].item()
        far[:, column] = 10_000.0
        with torch.no_grad():
            near_logits = policy.logits(torch.as_tensor(at_bound), torch.as_tensor(masks))
            far_logits = policy.logits(torch.as_tensor(far), torch.as_tensor(masks))
        assert torch.allclose(near_logits, far_logits, atol=1e-5)


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_rollouts_sample_from_exactly_the_logits_evaluation_plays(precision):
    """The network computes in its own precision for every caller: the trainer's rollouts
    (``policy(x, masks)``), its updates and the evaluated agent (``PPOAgent``) see one set of
    logits.  (0.4's rollouts sampled bf16 logits and evaluation played the fp32 argmax.)"""
    observations, masks = positions()
    policy = Policy((64, 64), precision=precision)
    x = policy.inputs(observations, masks, RULES)
    policy.set_scaling(x)
    torch.nn.init.normal_(policy.actor[-1].weight, std=1.0)  # logits with real differences
    with torch.no_grad():
        rollout_logits, _ = policy(torch.as_tensor(x), torch.as_tensor(masks))
    assert torch.equal(rollout_logits, policy.logits(torch.as_tensor(x), torch.as_tensor(masks)))
    played = PPOAgent(policy, RULES, deterministic=True).act(observations, masks)
    assert np.array_equal(played, rollout_logits.argmax(-1).numpy())


def test_shipped_models_of_version_1_load_as_they_played():
    """0.4's model files (the partnership agent shipped in 0.4, kept here): every column, no
    clipping, fp32, separate actor and critic."""
    policy, rules, _ = Policy.load(Path(__file__).with_name("ppo_partnership_v1.pt"))
    assert rules.preset_name == "partnership"
    # the 599 columns of observation layout version 1 (the layout grew by appending since)
    assert policy.columns.tolist() == list(range(599)) and (policy.clip, policy.precision, policy.shared) == (
        0.0,
        "fp32",
        False,
    )
    observations, masks = positions(rules=rules)
    actions = PPOAgent(policy, rules).act(observations, masks)
    assert masks[np.arange(len(masks)), actions].all()


def test_a_model_saved_and_loaded_keeps_its_shape_and_its_choices(tmp_path):
    rules = RULES
    observations, masks = positions()
    policy = Policy((32,), columns=compact_columns(rules), shared=True, clip=3.0, precision="bf16")
    policy.set_scaling(policy.inputs(observations, masks, rules))
    policy.save(tmp_path / "m.pt", rules)
    loaded, _, _ = Policy.load(tmp_path / "m.pt")
    assert loaded.shape() == policy.shape()
    assert np.array_equal(
        PPOAgent(loaded, rules).act(observations, masks), PPOAgent(policy, rules).act(observations, masks)
    )


def test_the_legal_actions_can_be_an_input_and_are_not_rescaled():
    observations, masks = positions()
    rules = RULES
    policy = Policy((16,), columns=compact_columns(rules), mask_actions=rule_actions(rules))
    x = policy.inputs(observations, masks, rules)
    width = len(compact_columns(rules))
    assert x.shape[1] == width + 83  # partnership never allows the house actions (83 on)
    assert np.array_equal(x[:, width:].astype(bool), masks[:, :83])
    policy.set_scaling(x)
    assert (policy.mean[width:] == 0).all() and (policy.scale[width:] == 1).all()


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


@pytest.mark.parametrize("shared, advisor, extra", [(False, True, 0), (True, False, 0), (False, True, 120)])
def test_a_model_from_a_smaller_action_layout_is_padded_and_chooses_as_before(tmp_path, shared, advisor, extra):
    """The action layout grows only by appending: a model saved when it had fewer actions
    (here: as if the last five house actions were new) loads, padded, and plays partnership,
    where those actions are never legal, exactly as it did."""
    observations, masks = positions()
    policy = Policy((16,), advisor=advisor, columns=compact_columns(RULES), shared=shared, critic_extra=extra)
    policy.set_scaling(policy.inputs(observations, masks, RULES))
    for layer in policy.modules():
        if isinstance(layer, torch.nn.Linear):
            torch.nn.init.normal_(layer.weight)
    path = tmp_path / "small.pt"
    policy.save(path, RULES)
    data = torch.load(path, weights_only=False)
    grow, state = 5, data["state_dict"]
    out = "actor_head" if shared else "actor.1"
    state[f"{out}.weight"], state[f"{out}.bias"] = state[f"{out}.weight"][:-grow], state[f"{out}.bias"][:-grow]
    if advisor:
        width = len(compact_columns(RULES)) + NUM_ACTIONS - grow
        state["mean"], state["scale"] = state["mean"][:width], state["scale"][:width]
        for key in ["trunk.0.weight"] if shared else ["actor.0.0.weight", "critic.0.0.weight"]:
            w = state[key]
            state[key] = torch.cat([w[:, :width], w[:, width + grow :]], dim=1)
    data["num_actions"] = NUM_ACTIONS - grow
    torch.save(data, path)
    loaded, _, _ = Policy.load(path)
    assert masks[:, NUM_ACTIONS - grow :].sum() == 0
    assert np.array_equal(
        PPOAgent(loaded, RULES).act(observations, masks), PPOAgent(policy, RULES).act(observations, masks)
    )
    data["num_actions"] = NUM_ACTIONS + 1
    torch.save(data, path)
    with pytest.raises(ValueError, match="from a newer one"):
        Policy.load(path)


def test_the_legal_action_inputs_are_those_the_rules_can_allow():
    """The presets read the actions they read before layout version 2; a variation adds the
    actions appended for it (173-186), so that a network learning from scratch sees them."""
    from handfoot_env import actions as A

    assert rule_actions(Rules.preset("partnership")).tolist() == list(range(A.DISCARD_SUITED))
    assert rule_actions(Rules.preset("house")).tolist() == list(range(173))
    varied = rule_actions(Rules.preset("partnership", permission_to_go_out=True)).tolist()
    assert varied == list(range(A.DISCARD_SUITED)) + list(range(173, A.NUM_ACTIONS))


def test_device_auto_falls_back_to_the_cpu_and_the_label_names_the_kind():
    if torch.cuda.is_available():  # a GPU machine: scripts/gpu_check.sh, docs/training.md "On a GPU"
        assert device_label(resolve_device("auto")).startswith("cuda (")
        return
    assert resolve_device("auto") == torch.device("cpu") and device_label(resolve_device("auto")) == "cpu"
    with pytest.raises(ValueError, match="device cuda: this machine has no CUDA GPU"):
        resolve_device("cuda")
    with pytest.raises(ValueError, match="must be auto, cpu or cuda"):
        resolve_device("tpu")
