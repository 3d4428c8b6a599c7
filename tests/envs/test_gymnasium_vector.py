"""The Gymnasium vector env (handfoot_env/envs/gymnasium_vector.py): made by ``gymnasium.make_vec``, step for step
what Gymnasium's own SyncVectorEnv of single-game envs returns, seeded, and under Gymnasium's vector
wrappers."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers import vector as vector_wrappers

import handfoot_env
from handfoot_env import Rules
from handfoot_env import actions as A
from handfoot_env.envs.gymnasium_vector import HandFootVectorEnv
from handfoot_env.errors import IllegalActionError
from handfoot_env.observation import OBS_SIZE

ONE_DEAL = {"classic": Rules.preset("classic", num_players=3, num_deals=1), "partnership": None}


def make_vec(num_envs: int, **kwargs) -> HandFootVectorEnv:
    return gymnasium.make_vec(
        handfoot_env.GYMNASIUM_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs
    )


def pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per row (0 where none is legal)."""
    masks = masks.astype(bool)
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def test_make_vec_builds_it_on_the_vector_engine_by_default():
    envs = gymnasium.make_vec(handfoot_env.GYMNASIUM_ID, num_envs=3, opponent="greedy")
    assert isinstance(envs, HandFootVectorEnv) and envs.num_envs == 3
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert envs.spec.kwargs["opponent"] == "greedy"
    observations, infos = envs.reset(seed=0)
    assert envs.observation_space.contains(observations) and observations.shape == (3, OBS_SIZE)
    assert infos["action_mask"].dtype == np.int8 and infos["action_mask"].shape == (3, A.NUM_ACTIONS)
    assert (infos["action_mask"].sum(axis=1) > 0).all() and infos["_action_mask"].all()
    same = make_vec(3, autoreset_mode="SameStep")
    assert same.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert HandFootVectorEnv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP  # the class keeps its default


def _rows(value, rows):
    """Rows of a batched info value; SyncVectorEnv keeps the single env's lists as an object array."""
    value = value[rows]
    return np.stack([np.asarray(v) for v in value]) if value.dtype == object else value


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("preset,opponent", [("classic", "heuristic"), ("partnership", "greedy")])
def test_every_game_matches_a_sync_vector_env_of_single_game_envs(mode, preset, opponent):
    """Same seeds, same actions: each env's first game is step for step the single-game env's game
    (observations, rewards, endings, masks, scores, sides, deals, final totals), in both autoreset modes."""
    n = 4
    kwargs = dict(preset=preset, rules=ONE_DEAL[preset], opponent=opponent)
    ours = make_vec(n, autoreset_mode=mode, **kwargs)
    sync = gymnasium.make_vec(
        handfoot_env.GYMNASIUM_ID,
        num_envs=n,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": mode},
        **kwargs,
    )
    rng = np.random.default_rng(0)
    obs_a, info_a = ours.reset(seed=11)
    obs_b, info_b = sync.reset(seed=11)
    first_game = np.ones(n, dtype=bool)  # still in the first game (later games differ in seed)
    keys = ("action_mask", "scores", "learner_side", "deal")
    steps = 0
    while first_game.any():
        rows = np.flatnonzero(first_game)
        assert data_equivalence(obs_a[rows], obs_b[rows], exact=True), f"step {steps}: observations differ"
        for key in keys:
            assert data_equivalence(_rows(info_a[key], rows), _rows(info_b[key], rows)), f"step {steps}: {key}"
        actions = pick(info_a["action_mask"], rng)
        obs_a, rew_a, term_a, trunc_a, info_a = ours.step(actions)
        obs_b, rew_b, term_b, trunc_b, info_b = sync.step(actions)
        steps += 1
        assert data_equivalence(rew_a[rows], rew_b[rows]) and data_equivalence(term_a[rows], term_b[rows])
        assert not trunc_a.any() and not trunc_b.any()
        ended = rows[term_a[rows]]
        if len(ended):
            if mode == AutoresetMode.NEXT_STEP:
                assert data_equivalence(obs_a[ended], obs_b[ended], exact=True)
                assert (info_a["action_mask"][ended] == 0).all()
                assert data_equivalence(info_a["action_mask"][ended], info_b["action_mask"][ended])
                assert data_equivalence(_rows(info_a["final_totals"], ended), _rows(info_b["final_totals"], ended))
            else:
                for b in ended:
                    assert data_equivalence(info_a["final_obs"][b], info_b["final_obs"][b], exact=True)
                    final_a = {k: np.asarray(info_a["final_info"][k][b]) for k in (*keys, "final_totals")}
                    final_b = {k: np.asarray(info_b["final_info"][k][b]) for k in final_a}
                    assert data_equivalence(final_a, final_b), f"step {steps}: final_info of env {b}"
            first_game[ended] = False
    assert steps > 20


def test_disabled_autoreset_and_partial_resets_match_a_sync_vector_env():
    """autoreset_mode DISABLED: an ended env waits (stepping it raises ResetNeeded) for
    reset(options={"reset_mask": ...}), which restarts those envs alone, each from its seed, as
    Gymnasium's SyncVectorEnv of single-game envs restarts them; the others go on unchanged."""
    n = 4
    kwargs = dict(rules=ONE_DEAL["classic"], opponent="greedy")
    ours = make_vec(n, autoreset_mode=AutoresetMode.DISABLED, **kwargs)
    sync = gymnasium.make_vec(
        handfoot_env.GYMNASIUM_ID,
        num_envs=n,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": AutoresetMode.DISABLED},
        **kwargs,
    )
    assert ours.metadata["autoreset_mode"] == AutoresetMode.DISABLED
    rng = np.random.default_rng(0)
    obs_a, info_a = ours.reset(seed=5)
    obs_b, _ = sync.reset(seed=5)
    restarts = 0
    for step in range(5000):
        assert data_equivalence(obs_a, obs_b, exact=True), f"step {step}: observations differ"
        actions = pick(info_a["action_mask"], rng)
        obs_a, rew_a, term_a, _, info_a = ours.step(actions)
        obs_b, rew_b, term_b, _, info_b = sync.step(actions)
        assert data_equivalence(rew_a, rew_b) and data_equivalence(term_a, term_b), f"step {step}"
        assert data_equivalence(info_a["action_mask"], _rows(info_b["action_mask"], slice(None)))
        if not term_a.any():
            continue
        with pytest.raises(gymnasium.error.ResetNeeded, match="reset_mask"):
            ours.step(actions)
        seeds = [1_000 + 10 * step + i for i in range(n)]  # new seeds: not the first games again
        ended = np.flatnonzero(term_a)
        obs_a, info_a = ours.reset(seed=seeds, options={"reset_mask": term_a.copy()})
        obs_b, info_b = sync.reset(seed=seeds, options={"reset_mask": term_b.copy()})
        for key in ("action_mask", "scores", "learner_side", "deal"):  # sync's: the restarted envs' alone
            assert data_equivalence(_rows(info_a[key], ended), _rows(info_b[key], ended)), key
        restarts += 1
        if restarts == 3:
            break
    assert restarts == 3
    # Gymnasium's vector wrappers read the mask after the env (it is left in the options).
    wrapped = vector_wrappers.RecordEpisodeStatistics(make_vec(2, autoreset_mode="Disabled"))
    wrapped.reset(seed=0)
    options = {"reset_mask": np.array([True, False])}
    wrapped.reset(options=options)
    assert "reset_mask" not in options  # popped by the wrapper, after the env read it


def test_next_step_autoreset_ignores_the_action_after_an_ending_and_starts_a_new_game():
    envs = make_vec(2, rules=ONE_DEAL["classic"], opponent="random", illegal_action="raise")
    _, infos = envs.reset(seed=3)
    rng = np.random.default_rng(1)
    while True:
        _, rewards, terminated, _, infos = envs.step(pick(infos["action_mask"], rng))
        if terminated.any():
            break
    ended = np.flatnonzero(terminated)
    assert (infos["action_mask"][ended] == 0).all() and infos["_final_totals"][ended].all()
    actions = pick(infos["action_mask"], rng)
    actions[ended] = A.ADD_TWO_TO_TWOS_BOOK  # house only, never legal here; ignored in a restarting env
    _, rewards, terminated, _, infos = envs.step(actions)
    assert (rewards[ended] == 0).all() and not terminated[ended].any()
    assert (infos["action_mask"][ended].sum(axis=1) > 0).all() and (infos["deal"][ended] == 1).all()


def test_reset_seeds_everything_and_different_seeds_differ():
    def run(seed: int) -> list:
        envs = make_vec(5, opponent=["random", "greedy"])
        out = [envs.reset(seed=seed)]
        for _ in range(40):
            out.append(envs.step(envs.action_space.sample()))
        return out

    assert data_equivalence(run(7), run(7))
    assert not data_equivalence(run(7), run(8))
    assert data_equivalence(run(2**64), run(2**64))  # any seed numpy takes, as the single-game env


def test_an_opponent_pool_seats_every_agent():
    envs = make_vec(64, opponent=["random", "heuristic"])
    envs.reset(seed=0)
    assert set(envs.unwrapped.opponent_index.tolist()) == {0, 1}


def test_each_game_of_an_opponent_pool_plays_as_against_its_opponent_alone():
    """The pool's opponents move only in their own games, each seeing its own games' masks and
    observations: game b against the pool is game b of the env seated with b's opponent alone."""
    pool = ("greedy", "heuristic")
    n = 24
    envs = {name: make_vec(n, opponent=name, illegal_action="skip") for name in pool}
    mixed = make_vec(n, opponent=list(pool))
    obs, info = mixed.reset(seed=5)
    alone = {name: env.reset(seed=5)[0] for name, env in envs.items()}
    seated = np.array(pool)[mixed.unwrapped.opponent_index]
    assert len(set(seated)) == 2
    first_game = np.ones(n, dtype=bool)
    rng = np.random.default_rng(1)
    while first_game.any():
        for name in pool:
            rows = np.flatnonzero(first_game & (seated == name))
            assert np.array_equal(obs[rows], alone[name][rows]), name
        actions = pick(info["action_mask"], rng)
        obs, _, terminated, _, info = mixed.step(actions)
        alone = {name: env.step(actions)[0] for name, env in envs.items()}
        first_game &= ~terminated


def test_gymnasium_vector_wrappers_record_and_normalize():
    envs = make_vec(8, rules=ONE_DEAL["classic"], opponent="greedy")
    recorded = vector_wrappers.RecordEpisodeStatistics(envs)
    _, infos = recorded.reset(seed=0)
    rng = np.random.default_rng(0)
    returns, lengths, episodes = np.zeros(8), np.zeros(8, dtype=int), 0
    while episodes < 8:
        _, rewards, terminated, _, infos = recorded.step(pick(infos["action_mask"], rng))
        returns, lengths = returns + rewards, lengths + 1
        if terminated.any():
            ended = terminated & infos["_episode"]
            assert np.allclose(infos["episode"]["r"][ended], returns[ended])
            assert (infos["episode"]["l"][ended] == lengths[ended]).all()
            episodes += int(ended.sum())
            returns[terminated], lengths[terminated] = 0.0, -1  # the reset step (next-step) is not counted
    normalized = vector_wrappers.NormalizeObservation(vector_wrappers.NormalizeReward(make_vec(8), gamma=0.99))
    observations, infos = normalized.reset(seed=0)
    raw = make_vec(8)
    raw.reset(seed=0)
    seen = 0
    for _ in range(300):
        actions = pick(infos["action_mask"], rng)
        observations, rewards, _, _, infos = normalized.step(actions)
        _, raw_rewards, _, _, _ = raw.step(actions)
        nonzero = raw_rewards != 0
        if nonzero.any():  # NormalizeReward divides every env's reward by one running scale
            scale = rewards[nonzero] / raw_rewards[nonzero]
            assert np.allclose(scale, scale[0]) and scale[0] > 0
            seen += 1
        assert np.isfinite(observations).all() and abs(observations.mean()) < 5
    assert seen > 0


def test_dict_info_to_list_reads_the_batched_infos():
    envs = vector_wrappers.DictInfoToList(make_vec(3, opponent="greedy"))
    _, infos = envs.reset(seed=0)
    assert isinstance(infos, list) and len(infos) == 3
    assert set(infos[0]) == {"action_mask", "scores", "learner_side", "deal"}
    assert infos[1]["action_mask"].shape == (A.NUM_ACTIONS,)


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_illegal_actions_terminate_skip_or_raise(mode):
    envs = make_vec(3, opponent="greedy", autoreset_mode=mode)
    observations, infos = envs.reset(seed=0)
    actions = pick(infos["action_mask"], np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(infos["action_mask"][1] == 0)[0])
    _, rewards, terminated, _, infos = envs.step(actions)
    assert terminated.tolist() == [False, True, False] and rewards[1] == -1.0
    where = infos if mode == AutoresetMode.NEXT_STEP else infos["final_info"]
    assert where["_illegal_action"].tolist() == [False, True, False] and "action" in where["illegal_action"][1]
    if mode == AutoresetMode.NEXT_STEP:
        assert infos["action_mask"][1].sum() == 0
    else:
        assert infos["action_mask"][1].sum() > 0 and infos["deal"][1] == 1

    skipping = make_vec(2, opponent="greedy", illegal_action="skip")
    observations, infos = skipping.reset(seed=0)
    actions = pick(infos["action_mask"], np.random.default_rng(0))
    actions[0] = int(np.flatnonzero(infos["action_mask"][0] == 0)[0])
    after, rewards, terminated, _, infos = skipping.step(actions)
    assert data_equivalence(after[0], observations[0]) and rewards[0] == 0 and not terminated.any()
    assert infos["_illegal_action"].tolist() == [True, False]

    raising = make_vec(2, opponent="greedy", illegal_action="raise")
    observations, infos = raising.reset(seed=0)
    before = raising.unwrapped.engine.states.copy()
    actions = pick(infos["action_mask"], np.random.default_rng(0))
    actions[1] = int(np.flatnonzero(infos["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalActionError):
        raising.step(actions)
    assert (raising.unwrapped.engine.states == before).all()


def test_sampled_actions_are_legal_everywhere():
    envs = make_vec(16, opponent="random", illegal_action="raise", rules=ONE_DEAL["classic"])
    envs.reset(seed=2)
    ended = 0
    for _ in range(400):
        _, _, terminated, _, _ = envs.step(envs.action_space.sample())
        ended += int(terminated.sum())
    assert ended > 0


@pytest.mark.parametrize(
    "kwargs,words",
    [
        ({"num_envs": 0}, "num_envs"),
        ({"autoreset_mode": "Sometimes"}, "autoreset_mode"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"opponent": "nobody"}, "opponent"),
        ({"learner_side": 5}, "learner_side"),
        ({"render_mode": "human"}, "render_mode"),
    ],
)
def test_bad_arguments_are_one_clear_error(kwargs, words):
    with pytest.raises(ValueError, match=words):
        make_vec(**{"num_envs": 2, **kwargs})


def test_bad_steps_and_resets_are_one_clear_error():
    envs = make_vec(2)
    with pytest.raises(gymnasium.error.ResetNeeded):
        envs.step(np.zeros(2, dtype=np.int64))
    envs.reset(seed=0)
    for actions in (np.zeros(3, dtype=np.int64), np.zeros(2), np.array([0, A.NUM_ACTIONS])):
        with pytest.raises(ValueError, match="actions"):
            envs.step(actions)
    with pytest.raises(ValueError, match="seed"):
        envs.reset(seed=[1])
    with pytest.raises(ValueError, match="seed"):
        envs.reset(seed=-1)
    for options in (
        {"reset_mask": np.ones(2, dtype=np.int8)},
        {"reset_mask": np.ones(3, dtype=bool)},
        {"reset_mask": np.zeros(2, dtype=bool)},
        {"reset_mask": [True, True]},
        {"reset_mask": np.ones(2, dtype=bool), "deal": 2},
        {"deal": 2},
        ["reset_mask"],
    ):
        with pytest.raises(ValueError, match="reset_mask"):
            envs.reset(options=options)
    with pytest.raises(gymnasium.error.ResetNeeded):
        make_vec(2).reset(options={"reset_mask": np.ones(2, dtype=bool)})  # a partial reset of nothing started


def test_ansi_render_shows_each_game():
    envs = make_vec(2, render_mode="ansi")
    envs.reset(seed=0)
    frames = envs.render()
    assert len(frames) == 2 and all(isinstance(f, str) and f for f in frames)


def test_an_opponent_that_keeps_its_inputs_keeps_them_unchanged():
    """The opponent gets copies, not views of the engine's buffers that its next move rewrites
    (a recording or learning opponent keeps what it was shown)."""

    class Recorder:
        name = "recorder"

        def __init__(self):
            self.seen = []
            self.rng = np.random.default_rng(0)

        def act(self, observations, masks):
            self.seen.append((observations, observations.copy(), masks, masks.copy()))
            return np.array([self.rng.choice(np.flatnonzero(m)) for m in masks])

    recorder = Recorder()
    env = HandFootVectorEnv(num_envs=4, rules=Rules.preset("classic"), opponent=recorder)
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(1)
    for _ in range(5):
        _, _, _, _, info = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]]))
    assert len(recorder.seen) > 3
    for observations, observations_then, masks, masks_then in recorder.seen:
        np.testing.assert_array_equal(observations, observations_then)
        np.testing.assert_array_equal(masks, masks_then)
