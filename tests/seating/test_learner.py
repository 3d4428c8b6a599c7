"""LearnerGames (under the Gymnasium env, the SB3 VecEnv and the trainer): the learner sees
its own seat's view — in partnership a side has two seats with different hands."""

from __future__ import annotations

import numpy as np
import pytest

from handfoot_env.baselines import make_baseline
from handfoot_env.rules import Rules
from handfoot_env.seating.learner import LearnerGames
from handfoot_env.seating.rewards import seat_owners


@pytest.mark.parametrize("preset, players", [("partnership", 4), ("house", 4), ("classic", 3)])
def test_the_learner_sees_the_view_of_the_seat_it_moves_for(preset, players):
    rules = Rules.preset(preset, num_players=players)
    games = LearnerGames(rules, 32, [make_baseline("greedy", rules=rules)], seed=4)
    owners = seat_owners(rules)
    rng = np.random.default_rng(0)
    checked = {seat: 0 for seat in range(players)}
    for _ in range(300):
        live = ~games.engine.is_over
        movers = games.engine.current_player
        assert (owners[movers[live]] == games.learner_side[live]).all()  # the learner is to move
        mover_views = games.engine.observe(movers).copy()
        assert np.array_equal(games.observe()[live], mover_views[live])
        for seat in movers[live]:
            checked[int(seat)] += 1
        masks = games.action_masks()
        games.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    assert all(count > 0 for count in checked.values())  # every seat's view was checked


def test_the_gymnasium_env_observes_its_own_seat_in_partnership():
    from handfoot_env.envs.gymnasium import HandFootGymEnv

    env = HandFootGymEnv(preset="partnership")
    observation, _ = env.reset(seed=2)
    rng = np.random.default_rng(1)
    seats = set()
    for _ in range(200):
        engine = env.games.engine
        seats.add(int(engine.current_player[0]))
        assert np.array_equal(observation, engine.observe()[0])  # the mover's own view
        observation, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated or truncated:
            observation, _ = env.reset()
    assert len(seats) == 2  # both of the learner's seats were seen


def _first_games(games: LearnerGames, seed: int) -> list[np.ndarray]:
    """Each row's learner rewards, step by step, over the first game it plays (random moves)."""
    rng = np.random.default_rng(seed)
    episodes: list[list[float]] = [[] for _ in range(games.batch_size)]
    open_rows = set(range(games.batch_size))
    while open_rows:
        masks = games.action_masks()
        _, rewards, dones, _ = games.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        for b in list(open_rows):
            episodes[b].append(float(rewards[b]))
            if dones[b]:
                open_rows.discard(b)
    return [np.array(e) for e in episodes]


def test_shaping_is_discounted_so_that_it_cannot_change_the_optimum():
    """Potential-based shaping gamma * phi(s') - phi(s) (Ng, Harada and Russell 1999): over a
    whole game the discounted shaping rewards add up to -phi(start) whatever is played, so the
    discounted return with shaping is the return without it minus a constant.  (Shaping
    without the discount, phi(s') - phi(s), pays for staying ahead on the running score and
    fails this.)"""
    rules = Rules.preset("classic", num_players=2, num_deals=1)
    gamma = 0.9
    opponents = [make_baseline("greedy", rules=rules)]
    plain = LearnerGames(rules, 6, opponents, seed=11)
    shaped = LearnerGames(rules, 6, opponents, seed=11, shaping=1.0, gamma=gamma)
    start = shaped.potential().copy()  # the potential where each row's first game starts
    assert np.abs(start).max() > 0  # the potential is not trivially zero (red threes, the deal)
    for b, (without, with_shaping) in enumerate(zip(_first_games(plain, 3), _first_games(shaped, 3))):
        assert len(without) == len(with_shaping)  # the same game, move for move
        shaping = (gamma ** np.arange(len(without))) @ (with_shaping - without)
        assert shaping == pytest.approx(-start[b], abs=1e-4)


def test_win_prob_rewards_add_up_to_the_result_minus_the_chance_at_the_start():
    """reward_mode win_prob pays the change in the chance of winning over each deal, and at the
    end the result (1, 0.5 tied, 0): a game's rewards telescope to result - P(start)."""
    from handfoot_env.seating.rewards import WinProbability, game_points

    rules = Rules.preset("classic", num_players=2, num_deals=2)
    rng = np.random.default_rng(0)
    model = WinProbability(rules, [rng.normal(size=(6, 4)), rng.normal(size=4), rng.normal(size=(4, 1)), np.zeros(1)])
    games = LearnerGames(
        rules, 6, [make_baseline("greedy", rules=rules)], seed=5, reward_mode="win_prob", win_prob=model
    )
    sides = games.learner_side.copy()
    at_start = model(np.zeros((6, 2)), sides, np.zeros(6))
    finals = {}
    original_finish = games._finish

    def remember(finished, dones, ends):
        for b in np.flatnonzero(finished & ~dones):
            finals.setdefault(int(b), games.engine.final_totals[b].copy())
        original_finish(finished, dones, ends)

    games._finish = remember
    for b, rewards in enumerate(_first_games(games, 4)):
        result = game_points(finals[b][None, :], sides[b : b + 1])[0]
        assert rewards.sum() == pytest.approx(result - at_start[b], abs=1e-5)
        assert np.count_nonzero(rewards) <= rules.num_deals  # paid at the end of each deal only
