"""The PettingZoo AEC env passes PettingZoo's own conformance tests, for every preset and table size."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import handfoot_env
from handfoot_env import Rules
from handfoot_env.errors import IllegalActionError

TABLES = [("classic", n) for n in range(2, 7)] + [("partnership", 4), ("house", 2), ("house", 4)]


@pytest.mark.parametrize("preset,players", TABLES)
def test_api_test(preset, players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # masks of idle agents are all zero, by design
        api_test(handfoot_env.env(preset=preset, num_players=players), num_cycles=1000)


def test_env_keeps_pettingzoos_order_checks_and_last_reads_the_env():
    """env()'s wrapper is PettingZoo's OrderEnforcingWrapper: last() before reset() is refused as
    PettingZoo refuses it, and after it is the raw env's last(), step by step."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = handfoot_env.env(preset="house", num_players=2)
    assert isinstance(env, OrderEnforcingWrapper) and str(env) == "handfoot_v0"
    for name in ("last", "agents", "agent_selection"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(env, name)() if name == "last" else getattr(env, name)
    env.reset(seed=3)
    assert env.agents == env.unwrapped.agents and env.agent_selection == env.unwrapped.agent_selection
    rng = np.random.default_rng(0)
    for _ in range(200):
        observation, reward, termination, truncation, info = env.last()
        raw = env.unwrapped.last()
        assert np.array_equal(observation["observation"], raw[0]["observation"])
        assert np.array_equal(observation["action_mask"], raw[0]["action_mask"])
        assert (reward, termination, truncation, info) == raw[1:]
        assert env.last(observe=False)[0] is None
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


@pytest.mark.parametrize("preset,players", TABLES)
def test_seed_test(preset, players):
    seed_test(lambda: handfoot_env.env(preset=preset, num_players=players), num_cycles=300)


@pytest.mark.parametrize("preset", ["classic", "partnership", "house"])
def test_render_test(preset):
    render_test(lambda render_mode=None: handfoot_env.env(preset=preset, render_mode=render_mode))


def test_render_shows_hand_tables_pile_and_scores():
    env = handfoot_env.env(preset="partnership", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "holds:" in text and "team 0" in text and "pile" in text and "totals" in text


def play_out(env, seed):
    env.reset(seed=seed)
    returns = {agent: 0.0 for agent in env.agents}
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        returns[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    return returns, info


@pytest.mark.parametrize("preset,players", [("classic", 3), ("partnership", 4), ("house", 4)])
def test_each_agent_receives_its_own_sides_score_difference(preset, players):
    env = handfoot_env.env(preset=preset, num_players=players)
    returns, info = play_out(env, seed=5)
    totals = info["scores"]
    rules = env.unwrapped.rules
    for agent, total in returns.items():
        side = rules.owner_of(int(agent.split("_")[1]))
        others = (sum(totals) - totals[side]) / (rules.num_owners - 1)
        assert total == pytest.approx((totals[side] - others) / 1000, abs=1e-4)


def test_game_result_rewards():
    env = handfoot_env.env(preset="partnership", reward_mode="game")
    returns, info = play_out(env, seed=2)
    totals = info["scores"]
    winner = int(np.argmax(totals))
    for agent, total in returns.items():
        side = int(agent.split("_")[1]) % 2
        assert total == (0.0 if totals[0] == totals[1] else (1.0 if side == winner else -1.0))


def test_same_agent_acts_until_its_discard():
    env = handfoot_env.env(preset="classic")
    env.reset(seed=3)
    first = env.agent_selection
    env.step(0)  # draw: the turn goes on
    assert env.agent_selection == first
    observation, *_ = env.last()
    discard = next(a for a in np.flatnonzero(observation["action_mask"]) if 68 <= a <= 82)
    env.step(int(discard))
    assert env.agent_selection != first


def test_illegal_action_is_a_clear_error_and_changes_nothing():
    env = handfoot_env.env(preset="classic")
    env.reset(seed=3)
    before = env.unwrapped.engine.states.tobytes()
    with pytest.raises(IllegalActionError, match="illegal action 70 .*before discarding"):
        env.step(70)
    assert env.unwrapped.engine.states.tobytes() == before


def test_infos_and_spaces():
    env = handfoot_env.env(preset="partnership")
    env.reset(seed=0)
    info = env.infos["player_1"]
    assert info["team"] == 1 and info["deal"] == 1 and info["scores"] == [0, 0]
    obs = env.observe("player_0")
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert env.observation_space("player_0")["observation"].contains(obs["observation"])


def test_infos_follow_the_totals_and_the_deal_through_a_whole_game():
    """The infos are rebuilt only when a deal ends; at every step they still say what the
    engine holds."""
    env = handfoot_env.env(preset="classic", num_players=2)
    env.reset(seed=5)
    raw, rng, deals = env.unwrapped, np.random.default_rng(5), set()
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        state = raw.engine.states[0]
        for name in env.agents:
            assert env.infos[name]["scores"] == state["totals"][: raw.rules.num_owners].tolist()
            assert env.infos[name]["deal"] == int(state["deal"]) + 1
        deals.add(int(state["deal"]))
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert len(deals) > 1  # the infos changed with the deals


@pytest.mark.parametrize("permission", [False, True])  # with it, the asked partner is to act at times
def test_every_agent_observes_its_own_view_at_every_step(permission):
    """The mover's view is kept from the step (one engine call); every agent's observation,
    the mover's included, is its own view of the engine's state as it stands, whole games."""
    env = handfoot_env.env(rules=Rules.preset("partnership", permission_to_go_out=permission))
    env.reset(seed=11)
    raw, rng = env.unwrapped, np.random.default_rng(11)
    for _ in range(3):
        for agent in env.agent_iter():
            for name in raw.possible_agents:  # the mover last too, after the others' fresh views
                for other in (*raw.possible_agents, name):
                    expected = raw.engine.observe(np.array([raw._seat[other]]))[0]
                    assert np.array_equal(env.observe(other)["observation"], expected)
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            assert raw._seat[agent] == int(raw.engine.current_player[0])
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        env.reset()


def test_bad_keywords_are_clear_errors():
    with pytest.raises(ValueError, match="unknown preset"):
        handfoot_env.env(preset="bridge")
    with pytest.raises(ValueError, match="render_mode"):
        handfoot_env.env(render_mode="pixels")
    with pytest.raises(ValueError, match="illegal_action"):
        handfoot_env.env(illegal_action="ignore")


def test_every_shell_refuses_a_player_count_that_contradicts_its_rules():
    from handfoot_env.envs.gymnasium import HandFootGymEnv
    from handfoot_env.envs.gymnasium_vector import HandFootVectorEnv
    from handfoot_env.envs.sb3 import HandFootVecEnv

    three = Rules.preset("classic", num_players=3)
    for make in (handfoot_env.env, handfoot_env.raw_env, HandFootGymEnv, HandFootVectorEnv, HandFootVecEnv):
        with pytest.raises(ValueError, match="contradicts"):
            make(rules=three, num_players=2)
        agreeing = make(rules=three, num_players=3)
        assert getattr(agreeing, "unwrapped", agreeing).rules is three


def test_spec_page_tables_match_the_layouts():
    from handfoot_env import observation as O
    from handfoot_env.envs import pettingzoo as aec

    for name, indices, size in O.layout_table():
        assert f"| {name} | {indices} |" in aec.__doc__, name


def test_the_wrapped_env_refuses_out_of_range_actions_in_words():
    import pytest

    from handfoot_env import handfoot_v0

    env = handfoot_v0.env(preset="partnership")
    env.reset(seed=1)
    for bad, words in ((187, "out of range"), (-1, "out of range"), ("x", "must be an integer")):
        with pytest.raises(ValueError, match=words):
            env.step(bad)
    env.step(int(env.last()[0]["action_mask"].argmax()))  # the game goes on


def test_shells_refuse_float_actions_step_before_reset_and_empty_batches():
    import gymnasium
    import pytest

    from handfoot_env.envs.gymnasium import HandFootGymEnv
    from handfoot_env.envs.pettingzoo import raw_env
    from handfoot_env.envs.sb3 import HandFootVecEnv
    from handfoot_env.errors import IllegalActionError

    env = raw_env(preset="partnership")
    env.reset(seed=3)
    for bad in (1.9, 0.0, True, "0"):
        with pytest.raises(ValueError, match="must be an integer"):
            env.step(bad)
    with pytest.raises(IllegalActionError) as refused:
        env.step(170)
    assert "game 0" not in str(refused.value)  # one game: no game index in the message
    gym_env = HandFootGymEnv(illegal_action="raise")
    with pytest.raises(gymnasium.error.ResetNeeded):
        gym_env.step(0)
    gym_env.reset(seed=1)
    with pytest.raises(ValueError, match="must be an integer"):
        gym_env.step(1.9)
    with pytest.raises(IllegalActionError) as refused:
        gym_env.step(170)
    assert "game 0" not in str(refused.value)
    gym_env = HandFootGymEnv()  # the default: PettingZoo's convention, the episode ends with a penalty
    gym_env.reset(seed=1)
    _, reward, terminated, _, info = gym_env.step(170)
    assert terminated and reward == -1.0 and "house preset" in info["illegal_action"]
    with pytest.raises(gymnasium.error.ResetNeeded):
        gym_env.step(0)
    with pytest.raises(ValueError, match="num_envs"):
        HandFootVecEnv(num_envs=0)
    venv = HandFootVecEnv(num_envs=2)
    venv.reset()
    with pytest.raises(ValueError, match="integer actions"):
        venv.step(np.array([1.9, 0.0]))


def test_pettingzoo_conventions_fixed_infos_done_steps_and_unmasked_samples():
    from handfoot_env import handfoot_v0

    env = handfoot_v0.raw_env()
    assert env.rules.preset_name == "partnership"  # every shell's default
    env.reset(seed=5)
    agent = env.agent_selection
    assert env.infos[agent].keys() == {"team", "scores", "deal"}  # no variable-length entries
    with pytest.raises(ValueError, match="step\\(None\\)"):
        env.step(None)
    for _ in range(50):  # unmasked samples are legal moves of the agent to move
        env.step(env.action_space(env.agent_selection).sample())
    low, high = env.observation_space(agent)["observation"].low, env.observation_space(agent)["observation"].high
    assert np.isfinite(low).all() and np.isfinite(high).all()
    env = handfoot_v0.env(preset="classic")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
    with pytest.raises(Exception, match="reset"):
        env.unwrapped.step(0)


def test_illegal_action_can_end_the_game_with_a_penalty():
    env = handfoot_env.raw_env(preset="classic", illegal_action="terminate", illegal_reward=-2.0)
    env.reset(seed=3)
    offender = env.agent_selection
    env.step(170)  # a house action: never legal here
    assert all(env.terminations.values())
    assert env.rewards[offender] == -2.0 and all(r == 0 for a, r in env.rewards.items() if a != offender)
    assert "house preset" in env.infos[offender]["illegal_action"]


def test_rgb_array_pictures_for_every_preset():
    from handfoot_env.render.picture import WIDTH, height

    for preset, players in (("classic", 6), ("partnership", 4), ("house", 2)):
        env = handfoot_env.raw_env(preset=preset, num_players=players, render_mode="rgb_array")
        env.reset(seed=1)
        for _ in range(40):
            env.step(env.action_space(env.agent_selection).sample())
        image = env.render()
        assert image.shape == (height(env.rules.num_owners), WIDTH, 3) and image.dtype == np.uint8
        assert len(np.unique(image.reshape(-1, 3), axis=0)) > 20  # cards and text, not an empty canvas


def test_gymnasium_id_and_reset_seed_fix_everything():
    import gymnasium

    env = gymnasium.make(handfoot_env.GYMNASIUM_ID, opponent="random")
    runs = []
    for _ in range(2):
        obs, _ = env.reset(seed=9)
        trail = [obs]
        for _ in range(200):
            obs, _, terminated, _, _ = env.step(env.action_space.sample())
            trail.append(obs)
            if terminated:
                break
        runs.append(np.array(trail))
    assert np.array_equal(runs[0], runs[1])


VARIATION_TABLES = {
    "permission": dict(permission_to_go_out=True),
    "six_players": dict(num_players=6),
    "every_variation": dict(
        num_players=6,
        wild_books=True,
        wild_book_to_go_out=True,
        permission_to_go_out=True,
        partner_foot_first=True,
        black_three_books=True,
        sevens_book_to_go_out="clean",
        take_onto_table=True,
        take_with_natural_and_wild=True,
        wild_freezes_pile=True,
    ),
}


@pytest.mark.parametrize("name", VARIATION_TABLES)
def test_api_test_on_the_variations(name):
    from handfoot_env.rules import Rules

    rules = Rules.preset("partnership", **VARIATION_TABLES[name])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(handfoot_env.env(rules=rules), num_cycles=1000)


def test_the_asked_partner_is_the_agent_to_act_while_the_question_stands():
    """Permission to go out: after "may I go out?" the partner is ``agent_selection``, may only
    answer, and both see the question; after the answer the asker acts again."""
    from agents import act_one, make_agent
    from handfoot_env import actions as A
    from handfoot_env import observation as O
    from handfoot_env.rules import Rules

    rules = Rules.preset("partnership", permission_to_go_out=True)
    env = handfoot_env.env(rules=rules)
    agent = make_agent("heuristic", rules=rules)
    questions = 0
    for seed in range(6):
        env.reset(seed=seed)
        for agent_name in env.agent_iter(max_iter=3000):
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            action = act_one(agent, observation)
            if action != A.ASK_TO_GO_OUT:
                env.step(action)
                continue
            asker = agent_name
            env.step(action)
            questions += 1
            partner = env.agent_selection
            assert env.unwrapped.rules.partner_of(int(asker.split("_")[1])) == int(partner.split("_")[1])
            assert np.flatnonzero(env.observe(partner)["action_mask"]).tolist() == [A.ANSWER_YES, A.ANSWER_NO]
            assert env.observe(partner)["observation"][O.QUESTION_PARTNERS] == 1
            assert env.observe(asker)["observation"][O.QUESTION_MINE] == 1
            env.step(A.ANSWER_NO)
            assert env.agent_selection == asker and env.observe(asker)["observation"][O.QUESTION_REFUSED] == 1
        if questions >= 3:
            break
    assert questions >= 3
