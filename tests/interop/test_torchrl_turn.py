"""The turn-based TorchRL env (handfoot_env/envs/torchrl_turn.py): TorchRL's check_env_specs, every
game step for step the grouped TorchRL env's game, restarts as TorchRL's own, reused arrays,
partial resets, seeding, and a TorchRL collector with a masked policy on it."""

from __future__ import annotations

import numpy as np
import pytest

torchrl = pytest.importorskip("torchrl")

import torch
from interop.tables import TABLES
from torchrl.envs.utils import check_env_specs

from handfoot_env import Rules
from handfoot_env import actions as A
from handfoot_env.envs.torchrl import HandFootTorchRLEnv
from handfoot_env.envs.torchrl_turn import HandFootTurnEnv
from handfoot_env.errors import IllegalActionError


def one_deal(preset: str, players: int) -> Rules:
    return Rules.preset(preset, num_players=players, num_deals=1)


def random_action(td, generator: torch.Generator):
    """A random legal action in every game, drawn from its ``action_mask``."""
    td["action"] = torch.multinomial(td["action_mask"].float(), 1, generator=generator).reshape(-1)
    return td


@pytest.mark.parametrize("preset,players", TABLES)
def test_check_env_specs_and_a_reward_per_side(preset, players):
    env = HandFootTurnEnv(num_envs=3, preset=preset, num_players=players)
    check_env_specs(env)
    assert [key for key in env.full_reward_spec.keys(True, True)] == [
        (f"side_{side}", "reward") for side in range(env.rules.num_owners)
    ]
    td = env.reset()
    assert td["observation"].shape == (3, 655) and td["action_mask"].shape == (3, A.NUM_ACTIONS)
    assert torch.equal(td["turn"].reshape(-1), torch.from_numpy(env.engine.current_player.astype(np.int64)))


@pytest.mark.parametrize("preset,players", [("classic", 3), ("partnership", 4), ("house", 2)])
def test_every_game_is_the_grouped_envs_game(preset, players):
    """Step for step through TorchRL's stepping, with games ending and restarting: the turn env's
    view is the grouped env's mover view (``observe="mover"``: one slot a game holds a view), its
    mask the mover's, its rewards and done flags the groups'."""
    rules = one_deal(preset, players)
    turn, grouped = (
        HandFootTurnEnv(num_envs=5, rules=rules),
        HandFootTorchRLEnv(num_envs=5, rules=rules, observe="mover"),
    )
    turn.set_seed(6)
    grouped.set_seed(6)
    a, b = turn.reset(), grouped.reset()
    generator = torch.Generator().manual_seed(3)
    restarts = 0
    for _ in range(900):
        views = sum(b[group, "observation"].sum(1) for group in grouped.group_map)
        assert torch.equal(a["observation"], views)
        for group in grouped.group_map:
            acting = b[group, "mask"]
            assert torch.equal(a["action_mask"][acting.any(1)], b[group, "action_mask"][acting])
            seats = torch.as_tensor(grouped._group_seats[group])
            games, slots = acting.nonzero(as_tuple=True)
            assert torch.equal(a["turn"][games, 0], seats[slots])  # the seat of the acting slot
        a = random_action(a, generator)
        for group, agents in grouped.group_map.items():  # the mover's action in every slot (others are ignored)
            b[group, "action"] = a["action"][:, None].expand(5, len(agents)).clone()
        transition, a = turn.step_and_maybe_reset(a)
        their_transition, b = grouped.step_and_maybe_reset(b)
        for side, group in enumerate(grouped.group_map):
            assert torch.equal(
                transition["next", f"side_{side}", "reward"], their_transition["next", group, "reward"][:, 0]
            )
        assert torch.equal(transition["next", "done"], their_transition["next", "done"])
        restarts += int(transition["next", "done"].sum())
    assert restarts >= 3, restarts


def test_restarting_ended_games_is_torchrls_maybe_reset():
    """The env's ``maybe_reset`` (the ended games' rows written into copies) hands out what
    TorchRL's own does (a partial ``reset`` merged with ``torch.where``), step for step through
    many restarts; the transition keeps each ended game's last step; the action spec's mask
    follows the new deals (``rand_action`` plays legally)."""
    from torchrl.envs import EnvBase
    from torchrl.envs.utils import step_mdp

    rules = one_deal("classic", 2)
    ours, theirs = (HandFootTurnEnv(num_envs=5, rules=rules) for _ in range(2))
    ours.set_seed(8)
    theirs.set_seed(8)
    a, b = ours.reset(), theirs.reset()
    generator = torch.Generator().manual_seed(4)
    restarts = 0
    for _ in range(1200):
        a = random_action(a, generator)
        b["action"] = a["action"].clone()
        transition, a = ours.step_and_maybe_reset(a)
        their_transition = theirs.step(b)
        b = EnvBase.maybe_reset(theirs, step_mdp(their_transition))
        restarts += int(transition["next", "done"].sum())
        for key in [*theirs.full_observation_spec.keys(True, True), *theirs.full_done_spec.keys(True, True)]:
            assert torch.equal(a[key], b[key]), key
            assert torch.equal(transition["next", key], their_transition["next", key]), key
        ended = transition["next", "done"].reshape(-1)
        assert not transition["next", "observation"][ended].any()  # a finished game's view: zeros
        assert torch.equal(ours.full_action_spec["action"].mask, a["action_mask"])
        rand = ours.rand_action(a.clone())
        assert a["action_mask"].gather(-1, rand["action"].unsqueeze(-1)).all()
    assert restarts >= 10, restarts


def test_arrays_reused_between_steps_never_change_what_a_caller_holds():
    env = HandFootTurnEnv(num_envs=4, rules=one_deal("partnership", 4))
    generator = torch.Generator().manual_seed(0)
    td, kept, views, copies = env.reset(), [], [], []
    for step in range(300):
        _, td = env.step_and_maybe_reset(random_action(td, generator))
        if step % 3 == 0:
            kept.append(td)
            views.append(td["observation"][1:])
            copies.append(td.clone())
    for held, copy in zip(kept, copies, strict=True):
        for key in ("observation", "action_mask", "turn"):
            assert torch.equal(held[key], copy[key])
    assert all(torch.equal(view, copy["observation"][1:]) for view, copy in zip(views, copies, strict=True))
    del kept, views, copies, held, copy
    pooled = {array.ctypes.data for array in env._recycled["observation"]}
    handed_out = []
    for _ in range(10):
        _, td = env.step_and_maybe_reset(random_action(td, generator))
        handed_out.append(td["observation"].data_ptr())
    assert set(handed_out[4:]) <= pooled  # once nothing holds a step, its arrays are used again


def test_a_partial_reset_restarts_only_the_named_games():
    env = HandFootTurnEnv(num_envs=4, rules=one_deal("classic", 2))
    env.set_seed(5)
    td = env.reset()
    generator = torch.Generator().manual_seed(1)
    for _ in range(30):
        td = env.step(random_action(td, generator))["next"].clone()
    before, handed = env.engine.states.copy(), td.clone()
    after = env.reset(td.set("_reset", torch.tensor([[False], [True], [False], [False]])))
    states = env.engine.states
    assert (states[[0, 2, 3]] == before[[0, 2, 3]]).all() and states[1] != before[1]
    assert int(states["seed"][1]) == 5 + 4  # the next unused seed
    for key in ("observation", "action_mask", "turn"):
        assert torch.equal(after[key][[0, 2, 3]], handed[key][[0, 2, 3]])
    assert torch.equal(after["observation"][1], torch.from_numpy(env.engine.observe()[1]))


def test_set_seed_repeats_a_rollout_and_another_seed_differs():
    def rollout(seed: int):
        env = HandFootTurnEnv(num_envs=3)
        env.set_seed(seed)
        torch.manual_seed(0)
        return env.rollout(40)

    assert (rollout(2) == rollout(2)).all()
    assert not torch.equal(rollout(2)["observation"], rollout(3)["observation"])


def test_a_collector_with_a_masked_policy_plays_legal_moves():
    """TorchRL's own parts on the env: a ``Collector`` running a ``MaskedCategorical`` actor."""
    from tensordict.nn import TensorDictModule
    from torchrl.collectors import Collector  # (TorchRL 0.14's name for SyncDataCollector)
    from torchrl.modules import MaskedCategorical, ProbabilisticActor

    env = HandFootTurnEnv(num_envs=8, rules=one_deal("classic", 2))
    logits = TensorDictModule(torch.nn.Linear(655, A.NUM_ACTIONS), in_keys=["observation"], out_keys=["logits"])
    actor = ProbabilisticActor(
        logits,
        in_keys={"logits": "logits", "mask": "action_mask"},
        distribution_class=MaskedCategorical,
        return_log_prob=True,
        log_prob_key="action_log_prob",
    )
    collector = Collector(
        env, actor, frames_per_batch=8 * 200, total_frames=8 * 600, auto_register_policy_transforms=False
    )
    batches = 0
    for batch in collector:
        assert batch["action_mask"].gather(-1, batch["action"].unsqueeze(-1)).all()
        assert torch.isfinite(batch["action_log_prob"]).all()
        batches += 1
    collector.shutdown()
    assert batches == 3


def test_an_illegal_action_is_refused_in_words():
    env = HandFootTurnEnv(num_envs=2)
    td = env.reset()
    td["action"] = torch.full((2,), A.ADD_TWO_TO_TWOS_BOOK)  # house only: never legal here
    with pytest.raises(IllegalActionError, match="game 0"):
        env.step(td)


@pytest.mark.parametrize(
    "kwargs,words",
    [
        ({"num_envs": 0}, "num_envs"),
        ({"num_envs": True}, "num_envs"),
        ({"rules": Rules.preset("classic", num_players=3), "num_players": 2}, "contradicts"),
    ],
)
def test_bad_arguments_are_one_clear_error(kwargs, words):
    with pytest.raises(ValueError, match=words):
        HandFootTurnEnv(**kwargs)
