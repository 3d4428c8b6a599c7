"""The batched TorchRL env (handfoot_env/envs/torchrl.py): TorchRL's check_env_specs, every game step
for step the PettingZoo env's game, partial resets and seeding (its example: test_batched_examples.py)."""

from __future__ import annotations

import numpy as np
import pytest

torchrl = pytest.importorskip("torchrl")

import torch
from interop.tables import TABLES
from torchrl.envs.utils import MarlGroupMapType, check_env_specs

from handfoot_env import Rules, handfoot_v0
from handfoot_env import actions as A
from handfoot_env.envs.torchrl import HandFootTorchRLEnv
from handfoot_env.errors import IllegalActionError


def one_deal(preset: str, players: int) -> Rules:
    return Rules.preset(preset, num_players=players, num_deals=1)


def random_actions(env: HandFootTorchRLEnv, td, generator: torch.Generator):
    """A random legal action for every agent, drawn from its ``action_mask``."""
    for group in env.group_map:
        mask = td[group, "action_mask"].float()
        td[group, "action"] = torch.multinomial(mask.reshape(-1, mask.shape[-1]), 1, generator=generator).reshape(
            mask.shape[:-1]
        )
    return td


@pytest.mark.parametrize("preset,players", TABLES)
def test_check_env_specs_and_groups_one_per_side(preset, players):
    env = HandFootTorchRLEnv(num_envs=3, rules=one_deal(preset, players))
    check_env_specs(env, seed=0)
    rules = env.rules
    assert len(env.group_map) == rules.num_owners
    for side in range(rules.num_owners):
        seats = [s for s in range(players) if rules.seat_owners[s] == side]
        assert env.group_map[f"side_{side}"] == [f"player_{s}" for s in seats]


@pytest.mark.parametrize("group_map", [MarlGroupMapType.ALL_IN_ONE_GROUP, MarlGroupMapType.ONE_GROUP_PER_AGENT])
def test_other_group_maps_pass_the_checks(group_map):
    env = HandFootTorchRLEnv(num_envs=2, group_map=group_map, observe="mover")
    check_env_specs(env, seed=1)
    assert sum(len(agents) for agents in env.group_map.values()) == 4


@pytest.mark.parametrize("preset,players", [("classic", 3), ("partnership", 4), ("house", 2)])
def test_every_game_is_the_pettingzoo_envs_game(preset, players):
    """Game i of the env seeded s is handfoot_v0's game reset with seed s + i: the same views for
    every agent, the same mover and legal actions, the same rewards and ending, step for step."""
    rules, n, seed = one_deal(preset, players), 3, 40
    env = HandFootTorchRLEnv(num_envs=n, rules=rules)
    env.set_seed(seed)
    td = env.reset()
    games = [handfoot_v0.env(rules=rules) for _ in range(n)]
    for i, game in enumerate(games):
        game.reset(seed=seed + i)
    generator = torch.Generator().manual_seed(0)
    seat_of = {agent: (group, k) for group, agents in env.group_map.items() for k, agent in enumerate(agents)}
    finished = np.zeros(n, dtype=bool)
    for step in range(3000):
        for i, game in enumerate(games):
            if finished[i]:
                continue
            for agent, (group, k) in seat_of.items():
                expected = game.observe(agent)
                assert np.array_equal(td[group, "observation"][i, k].numpy(), expected["observation"]), (step, agent)
                acting = agent == game.agent_selection
                assert bool(td[group, "mask"][i, k]) == acting
                if acting:
                    assert np.array_equal(td[group, "action_mask"][i, k].numpy(), expected["action_mask"].astype(bool))
                else:
                    assert td[group, "action_mask"][i, k].all()
        td = random_actions(env, td, generator)
        out = env.step(td)["next"]
        for i, game in enumerate(games):
            if finished[i]:
                continue
            group, k = seat_of[game.agent_selection]
            game.step(int(td[group, "action"][i, k]))
            for agent, (group, k) in seat_of.items():
                assert float(out[group, "reward"][i, k]) == pytest.approx(game.rewards[agent]), (step, agent)
                assert bool(out[group, "done"][i, k]) == game.terminations[agent]
            assert bool(out["done"][i]) == all(game.terminations.values())
            finished[i] = bool(out["done"][i])
        if finished.all():
            break
        td = out.clone()
    assert finished.all(), "every game ended within the steps"


def test_a_partial_reset_restarts_only_the_named_games():
    env = HandFootTorchRLEnv(num_envs=4, rules=one_deal("classic", 2))
    env.set_seed(5)
    td = env.reset()
    generator = torch.Generator().manual_seed(1)
    for _ in range(30):
        td = env.step(random_actions(env, td, generator))["next"].clone()
    before = env.engine.states.copy()
    reset = torch.tensor([[False], [True], [False], [False]])
    after = env.reset(td.set("_reset", reset))
    states = env.engine.states
    assert (states[[0, 2, 3]] == before[[0, 2, 3]]).all() and states[1] != before[1]
    assert int(states["seed"][1]) == 5 + 4  # the next unused seed
    assert torch.equal(after["side_0", "observation"][[0, 2, 3]], td["side_0", "observation"][[0, 2, 3]])


def test_set_seed_repeats_a_rollout_and_another_seed_differs():
    def rollout(seed: int):
        env = HandFootTorchRLEnv(num_envs=3)
        env.set_seed(seed)
        torch.manual_seed(0)
        return env.rollout(40)

    assert (rollout(2) == rollout(2)).all()
    assert not torch.equal(rollout(2)["side_0", "observation"], rollout(3)["side_0", "observation"])


def test_the_mover_view_mode_gives_the_movers_view_and_zeros():
    full, mover = HandFootTorchRLEnv(num_envs=3), HandFootTorchRLEnv(num_envs=3, observe="mover")
    a, b = full.reset(), mover.reset()
    for group in full.group_map:
        acting = a[group, "mask"]
        assert torch.equal(a[group, "observation"][acting], b[group, "observation"][acting])
        assert (b[group, "observation"][~acting] == 0).all()


def test_the_mover_view_mode_stays_right_through_reused_arrays_and_partial_resets():
    """The mover mode writes only what changed into its reused observation arrays (the slot a
    view left, the mover's): through TorchRL's own stepping, with games ending and reset at
    different times, every step's observations equal the full view's mover rows and zeros, and
    its masks the engine's legal masks for the mover and all True for the others."""
    rules = one_deal("partnership", 4)
    full = HandFootTorchRLEnv(num_envs=6, rules=rules)
    mover = HandFootTorchRLEnv(num_envs=6, rules=rules, observe="mover")
    full.set_seed(3)
    mover.set_seed(3)
    a, b = full.reset(), mover.reset()
    generator = torch.Generator().manual_seed(2)
    handed_out = []
    for _ in range(1500):
        legal = torch.from_numpy(mover.engine.legal_mask().copy())
        for group in full.group_map:
            acting = a[group, "mask"]
            assert torch.equal(a[group, "observation"][acting], b[group, "observation"][acting])
            assert (b[group, "observation"][~acting] == 0).all()
            for td in (a, b):
                games = acting.any(1)
                assert torch.equal(td[group, "action_mask"][acting], legal[games])
                assert td[group, "action_mask"][~acting].all()
        a = random_actions(full, a, generator)
        for group in full.group_map:
            b[group, "action"] = a[group, "action"]
        _, a = full.step_and_maybe_reset(a)
        _, b = mover.step_and_maybe_reset(b)
        handed_out.append(b["side_0", "observation"].data_ptr())
    assert full.engine.states["seed"].max() >= 3 + 6 + 2, "games were reset along the way"
    # (a step with a reset hands out TorchRL's own merged tensor; the others reuse this env's arrays)
    assert max(handed_out.count(pointer) for pointer in set(handed_out)) > 300, "arrays were handed out again"


@pytest.mark.parametrize("observe", ["all", "mover"])
def test_restarting_ended_games_is_torchrls_maybe_reset(observe):
    """The env's ``maybe_reset`` (the ended games' rows written into copies) hands out what
    TorchRL's own ``maybe_reset`` (a partial ``reset`` merged with ``torch.where``) does, step for
    step through many restarts; the transition keeps each ended game's last view; and the
    action specs' masks follow the new deals (``rand_action`` plays legally)."""
    from torchrl.envs import EnvBase
    from torchrl.envs.utils import step_mdp

    rules = one_deal("classic", 2)
    ours, theirs = (HandFootTorchRLEnv(num_envs=5, rules=rules, observe=observe) for _ in range(2))
    ours.set_seed(8)
    theirs.set_seed(8)
    a, b = ours.reset(), theirs.reset()
    generator = torch.Generator().manual_seed(4)
    restarts = 0
    for _ in range(1200):
        a = random_actions(ours, a, generator)
        for group in ours.group_map:
            b[group, "action"] = a[group, "action"].clone()
        transition, a = ours.step_and_maybe_reset(a)
        their_transition = theirs.step(b)
        b = EnvBase.maybe_reset(theirs, step_mdp(their_transition))
        restarts += int(transition["next", "done"].sum())
        keys = [*theirs.full_observation_spec.keys(True, True), *theirs.full_done_spec.keys(True, True)]
        for key in keys:
            assert torch.equal(a[key], b[key]), key
            # the restart wrote into copies: the transition keeps the ended games' last step
            assert torch.equal(transition["next", key], their_transition["next", key]), key
        for group in ours.group_map:
            assert torch.equal(ours.full_action_spec[group, "action"].mask, a[group, "action_mask"])
        rand = ours.rand_action(a.clone())
        assert all(a[g, "action_mask"].gather(-1, rand[g, "action"].unsqueeze(-1)).all() for g in ours.group_map)
    assert restarts >= 10, restarts


@pytest.mark.parametrize("observe", ["all", "mover"])
def test_arrays_reused_between_steps_never_change_what_a_caller_holds(observe):
    """The env writes a step's observations and masks into arrays of earlier steps that nothing
    holds any more; every step a caller keeps, and every view of it, stays as it was handed out."""
    env = HandFootTorchRLEnv(num_envs=4, observe=observe)
    generator = torch.Generator().manual_seed(0)
    td, kept, views, copies = env.reset(), [], [], []
    for step in range(30):
        _, td = env.step_and_maybe_reset(random_actions(env, td, generator))
        if step % 3 == 0:  # keep every third step whole, and a view of one group's observations
            kept.append(td)
            views.append(td["side_1", "observation"][1:])
            copies.append(td.clone())
    for held, copy in zip(kept, copies, strict=True):  # (the step after adds actions and "next" to it)
        for group in env.group_map:
            for key in ("observation", "action_mask"):
                assert torch.equal(held[group, key], copy[group, key])
    assert all(torch.equal(view, copy["side_1", "observation"][1:]) for view, copy in zip(views, copies, strict=True))
    # and once nothing holds a step, its arrays are handed out again (the point of it)
    del kept, views, copies, held, copy
    pooled = {array.ctypes.data for array, _ in env._recycled["side_0", "observation"]}
    handed_out = []
    for _ in range(10):
        _, td = env.step_and_maybe_reset(random_actions(env, td, generator))
        handed_out.append(td["side_0", "observation"].data_ptr())
    assert set(handed_out[4:]) <= pooled


@pytest.mark.parametrize("preset,players", TABLES)
def test_built_in_opponents_leave_one_group_that_passes_the_checks(preset, players):
    env = HandFootTorchRLEnv(num_envs=3, rules=one_deal(preset, players), opponent="random", observe="mover")
    check_env_specs(env, seed=0)
    learners = [f"player_{s}" for s in range(players) if env.rules.seat_owners[s] == 0]
    assert env.group_map == {"side_0": learners}
    env.reset()
    assert (np.asarray(env.rules.seat_owners)[env.engine.current_player] == 0).all(), "a learner moves after a reset"


@pytest.mark.parametrize(
    "preset,players,side,opponent",
    [("partnership", 4, 1, "greedy"), ("classic", 3, 2, "greedy"), ("partnership", 4, 1, "heuristic")],
)
@pytest.mark.parametrize("seed", [11, 12])
def test_built_in_opponents_play_the_gymnasium_vector_envs_games(preset, players, side, opponent, seed):
    """With an opponent, the env plays the game the Gymnasium vector env plays from the same deal
    (its ``reset(seed=s)`` deals from a seed drawn from ``s``: given to ``set_seed`` here), with
    the same learner side and opponent: the learner's view, legal actions, rewards (those earned on
    the opponent's turns included) and ending, step for step."""
    import gymnasium

    import handfoot_env

    rules = one_deal(preset, players)
    gym_envs = gymnasium.make_vec(
        handfoot_env.GYMNASIUM_ID,
        num_envs=1,
        vectorization_mode="vector_entry_point",
        rules=rules,
        opponent=opponent,
        learner_side=side,
    )
    observations, infos = gym_envs.reset(seed=seed)
    env = HandFootTorchRLEnv(num_envs=1, rules=rules, opponent=opponent, learner_side=side, observe="mover")
    env.set_seed(int(gym_envs.unwrapped.engine.states["seed"][0]))
    td = env.reset()
    (group,) = env.group_map
    rng = np.random.default_rng(seed)
    for step in range(3000):
        acting = td[group, "mask"][0].numpy()
        assert acting.sum() == 1
        assert np.array_equal(td[group, "observation"][0, acting].numpy()[0], observations[0]), step
        assert np.array_equal(td[group, "action_mask"][0, acting].numpy()[0], infos["action_mask"][0] == 1)
        action = rng.choice(np.flatnonzero(infos["action_mask"][0]))
        td[group, "action"] = torch.full((1, len(acting)), int(action))
        out = env.step(td)["next"]
        observations, rewards, terminated, _, infos = gym_envs.step(np.array([action]))
        assert np.allclose(out[group, "reward"][0].numpy(), rewards[0]), step
        assert bool(out["done"][0]) == terminated[0]
        if terminated[0]:
            break
        td = out.clone()
    assert terminated[0], "the game ended within the steps"
    assert rewards[0] != 0, "the last step paid the deal"


def test_built_in_opponents_are_seeded_by_set_seed():
    """``set_seed`` fixes the opponent's own draws too: envs built with other seeds, then given the
    same ``set_seed``, play the same rollout; one env seeded again repeats itself."""

    def rollout(env: HandFootTorchRLEnv, seed: int):
        env.set_seed(seed)
        torch.manual_seed(0)
        return env.rollout(60)

    first, second = (HandFootTorchRLEnv(num_envs=3, opponent="random", seed=s) for s in (0, 99))
    assert (rollout(first, 2) == rollout(second, 2)).all()
    assert (rollout(first, 2) == rollout(first, 2)).all()
    assert not torch.equal(rollout(first, 2)["side_0", "observation"], rollout(first, 3)["side_0", "observation"])


def test_no_seed_is_the_engines_own_start_with_or_without_an_opponent():
    """``seed=None`` starts where the vector engine starts unseeded (seed 0), opponent and all."""
    for opponent in (None, "random"):
        unseeded, seeded = (HandFootTorchRLEnv(num_envs=2, opponent=opponent, seed=s) for s in (None, 0))
        torch.manual_seed(0)
        first = unseeded.rollout(30)
        torch.manual_seed(0)
        assert (first == seeded.rollout(30)).all()


@pytest.mark.parametrize("observe", ["all", "mover"])
def test_built_in_opponents_through_restarts_are_torchrls_maybe_reset(observe):
    """With the opponent on the side that opens (the learner's side 1), games restart on the
    opponent's opening moves, through the env's own ``maybe_reset`` and a partial ``reset``: it
    hands out what TorchRL's own restart does, step for step, and a learner is to move in every
    game that goes on."""
    from torchrl.envs import EnvBase
    from torchrl.envs.utils import step_mdp

    rules = one_deal("classic", 2)
    ours, theirs = (
        HandFootTorchRLEnv(num_envs=5, rules=rules, observe=observe, opponent="random", learner_side=1)
        for _ in range(2)
    )
    ours.set_seed(8)
    theirs.set_seed(8)
    a, b = ours.reset(), theirs.reset()
    generator = torch.Generator().manual_seed(4)
    restarts = 0
    for step in range(800):
        a = random_actions(ours, a, generator)
        b["side_1", "action"] = a["side_1", "action"].clone()
        transition, a = ours.step_and_maybe_reset(a)
        their_transition = theirs.step(b)
        b = EnvBase.maybe_reset(theirs, step_mdp(their_transition))
        restarts += int(transition["next", "done"].sum())
        keys = [*theirs.full_observation_spec.keys(True, True), *theirs.full_done_spec.keys(True, True)]
        for key in keys:
            assert torch.equal(a[key], b[key]), key
            assert torch.equal(transition["next", key], their_transition["next", key]), key
        assert torch.equal(transition["next", "side_1", "reward"], their_transition["next", "side_1", "reward"])
        assert (a["side_1", "mask"].sum(1) == 1).all(), "a learner is to move in every game"
        if step == 400:  # and a partial reset of two games, both envs alike
            flags = torch.tensor([[True], [False], [False], [True], [False]])
            a, b = ours.reset(a.set("_reset", flags)), theirs.reset(b.set("_reset", flags.clone()))
    assert restarts >= 5, restarts


def test_an_illegal_action_is_refused_in_words():
    env = HandFootTorchRLEnv(num_envs=2)
    td = env.reset()
    for group in env.group_map:
        td[group, "action"] = torch.full(
            td[group, "mask"].shape, A.ADD_TWO_TO_TWOS_BOOK
        )  # house only: never legal here
    with pytest.raises(IllegalActionError, match="game 0"):
        env.step(td)


@pytest.mark.parametrize(
    "kwargs,words",
    [
        ({"num_envs": 0}, "num_envs"),
        ({"rules": Rules.preset("classic", num_players=3), "num_players": 2}, "contradicts"),
        ({"observe": "everyone"}, "observe"),
        ({"group_map": {"a": ["player_0"]}}, "group_map"),
        ({"group_map": "sides"}, "group_map"),
        ({"opponent": "nobody"}, "opponent"),
        ({"opponent": 3}, "opponent"),
        ({"opponent": "random", "learner_side": 2}, "learner_side"),
        ({"opponent": "random", "learner_side": True}, "learner_side"),
        ({"learner_side": 1}, "opponent="),
        ({"opponent": ["random", "greedy"]}, "one agent"),
        ({"opponent": "random", "group_map": {"them": ["player_1"]}}, "group_map"),
        ({"opponent": "random", "seed": -1}, "seed must be a whole number"),
        ({"opponent": "random", "seed": "0"}, "seed must be a whole number"),
    ],
)
def test_bad_arguments_are_one_clear_error(kwargs, words):
    with pytest.raises(ValueError, match=words):
        HandFootTorchRLEnv(**{"num_envs": 2, **kwargs})
