"""LearnerGames, the loop under every single-learner shell and the trainer: the learner sees its
own seat's view (in partnership a side has two seats with different hands), rewards, the
opponent pool, illegal actions of the learner and of the opponents, restarts."""

from __future__ import annotations

import numpy as np
import pytest

from handfoot_env import actions as A
from handfoot_env.baselines import make_baseline
from handfoot_env.errors import IllegalActionError
from handfoot_env.observation import OBS_SIZE
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


class _Recorder:
    """An agent that plays the first legal action and notes what it was shown."""

    def __init__(self, name: str, reads: bool = True):
        self.name = name
        self.reads_observations = reads
        self.calls: list[tuple[object, np.ndarray]] = []

    def act(self, observations, masks):
        self.calls.append((observations, masks))
        return masks.argmax(axis=1)


def _state(games: LearnerGames, b: int) -> bytes:
    return games.engine.states[b].tobytes()


def _legal_actions(games: LearnerGames, rng: np.random.Generator) -> np.ndarray:
    masks = games.action_masks()
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def test_a_pool_that_grows_seats_its_new_agents():
    """set_opponents with more agents than before: new games draw from the new pool, and the
    agents drawn are the ones that move (the table is given the new pool)."""
    rules = Rules.preset("classic", num_players=2, num_deals=1)
    games = LearnerGames(rules, 8, [make_baseline("greedy", rules=rules)], seed=3)
    newcomer = _Recorder("newcomer")
    games.set_opponents([make_baseline("greedy", rules=rules), newcomer], [0.0, 1.0])
    rng = np.random.default_rng(0)
    for _ in range(3000):
        games.step(_legal_actions(games, rng))
        if newcomer.calls and (games.opponent_index == 1).any():
            break
    assert newcomer.calls, "a game that drew the newcomer was played by it"


def test_only_opponents_that_read_observations_are_shown_them():
    """An opponent that decides from the mask alone (reads_observations = False) gets None and no
    observation is computed for it; one that reads gets its games' views."""
    rules = Rules.preset("partnership")
    masked, reading = _Recorder("masked", reads=False), _Recorder("reading")
    games = LearnerGames(rules, 16, [masked, reading], seed=1)
    rng = np.random.default_rng(2)
    for _ in range(20):
        games.step(_legal_actions(games, rng))
    assert masked.calls and reading.calls
    assert all(observations is None for observations, _ in masked.calls)
    assert all(observations.shape == (len(masks), OBS_SIZE) for observations, masks in reading.calls)


def test_an_opponents_illegal_action_names_that_opponent():
    class Cheat:
        name = "cheat"

        def act(self, observations, masks):
            return np.where(masks[:, A.DRAW], A.ADD_TWO_TO_TWOS_BOOK, masks.argmax(axis=1))

    rules = Rules.preset("partnership")
    named = r"agent 'cheat' in seat \d played an illegal action .*game \d+:"
    with pytest.raises(IllegalActionError, match=named) as refused:
        LearnerGames(rules, 4, [Cheat()], seed=0, learner_side=1)  # side 0 opens: the cheat moves first
    assert refused.value.agent is not None and refused.value.game is not None


@pytest.mark.parametrize("auto_reset", [False, True])
def test_the_learners_illegal_actions_raise_skip_or_terminate(auto_reset):
    rules = Rules.preset("classic", num_players=2)
    never = A.ADD_TWO_TO_TWOS_BOOK  # house only: never legal in classic
    games = LearnerGames(rules, 3, [make_baseline("greedy", rules=rules)], seed=2, auto_reset=auto_reset)
    actions = _legal_actions(games, np.random.default_rng(0))
    actions[1] = never
    before = games.engine.states.copy()
    with pytest.raises(IllegalActionError, match="game 1: "):
        games.step(actions)
    assert (games.engine.states == before).all()

    _, rewards, dones, _ = games.step(actions, illegal="skip")
    assert rewards[1] == 0 and not dones[1] and games.illegal[1].startswith(f"action {never} (")
    assert set(games.illegal) == {1} and _state(games, 1) == before[1].tobytes()  # refused: no move
    assert _state(games, 0) != before[0].tobytes()  # the others moved

    state = _state(games, 1)
    actions = _legal_actions(games, np.random.default_rng(1))
    actions[1] = never
    _, rewards, dones, ends = games.step(actions, illegal="terminate", illegal_reward=-2.5)
    assert rewards[1] == -2.5 and dones[1] and "final_totals" not in ends[1]
    if auto_reset:  # restarted at once, its last view kept
        assert not games.over[1] and "terminal_observation" in ends[1] and games.action_masks()[1].any()
    else:  # over for the learner; the engine's game is left as it was, and nobody moves in it
        assert games.over[1] and not games.engine.is_over[1] and not games.action_masks()[1].any()
        assert _state(games, 1) == state
        games.step(_legal_actions(games, np.random.default_rng(2)))
        assert _state(games, 1) == state
        games.restart(np.array([1]))
        assert not games.over[1] and games.action_masks()[1].any()


def test_a_restart_inside_a_step_starts_new_games_there_and_moves_the_others():
    """step(restart=rows): those games are dealt anew (their actions ignored, reward 0), the
    opponents make their opening moves, the learner is to move there; the other games move."""
    rules = Rules.preset("partnership")
    games = LearnerGames(rules, 6, [make_baseline("greedy", rules=rules)], seed=5, auto_reset=False)
    owners = seat_owners(rules)
    seeds = games.engine.states["seed"].copy()
    actions = _legal_actions(games, np.random.default_rng(0))
    actions[[1, 4]] = A.ADD_TWO_TO_TWOS_BOOK  # never legal here, and ignored
    _, rewards, dones, _ = games.step(actions, illegal="raise", restart=np.array([1, 4]))
    new = games.engine.states["seed"]
    assert (new[[1, 4]] != seeds[[1, 4]]).all() and (new[[0, 2, 3, 5]] == seeds[[0, 2, 3, 5]]).all()
    assert rewards[1] == 0 and rewards[4] == 0 and not dones.any()
    assert (owners[games.engine.current_player] == games.learner_side).all()  # the learner to move everywhere
