"""tianshou 2.0, unchanged, on the PettingZoo env: its PettingZooEnv wrapper, a Collector,
and a short DQN update for one seat against masked random play at the others."""

from __future__ import annotations

import numpy as np
import pytest

tianshou = pytest.importorskip("tianshou")

from interop.setups import dqn_beside_random
from interop.tables import TABLES
from tianshou.algorithm.algorithm_base import policy_within_training_step
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv

from handfoot_env import Rules, handfoot_v0


@pytest.mark.parametrize("preset,players", TABLES)
def test_tianshou_collects_whole_games_and_updates_a_dqn(preset, players):
    rules = Rules.preset(preset, num_players=players, num_deals=1)  # one deal keeps the games short

    def make():
        return PettingZooEnv(handfoot_v0.env(rules=rules))

    env = make()
    _, algorithm = dqn_beside_random(env, players)
    envs = DummyVectorEnv([make, make])
    envs.seed(0)
    collector = Collector[CollectStats](algorithm, envs, VectorReplayBuffer(20_000, len(envs)), exploration_noise=True)
    collector.reset()
    stats = collector.collect(n_episode=2)
    assert stats.n_collected_episodes >= 2 and stats.n_collected_steps > 50
    # Every collected move was legal (the env would have raised), and a DQN update runs on them.
    with policy_within_training_step(algorithm.policy):
        losses = algorithm.update(sample_size=64, buffer=collector.buffer)
    assert np.isfinite(list(losses.get_loss_stats_dict().values())).all()
