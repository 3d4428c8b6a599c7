"""SeatedGames (under the Gymnasium env, the SB3 VecEnv and the trainer): the learner sees
its own seat's view — in partnership a side has two seats with different hands."""

from __future__ import annotations

import numpy as np
import pytest

from handfoot_env.baselines import make_baseline
from handfoot_env.rewards import seat_owners
from handfoot_env.rules import Rules
from handfoot_env.seated import SeatedGames


@pytest.mark.parametrize("preset, players", [("partnership", 4), ("house", 4), ("classic", 3)])
def test_the_learner_sees_the_view_of_the_seat_it_moves_for(preset, players):
    rules = Rules.preset(preset, num_players=players)
    games = SeatedGames(rules, 32, [make_baseline("greedy", rules=rules)], seed=4)
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
    from handfoot_env.gym_env import HandFootGymEnv

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
