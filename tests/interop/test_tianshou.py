"""tianshou 2.0, unchanged, on the PettingZoo env: its PettingZooEnv wrapper, a Collector,
and a short DQN update for one seat against masked random play at the others."""

from __future__ import annotations

import numpy as np
import pytest

tianshou = pytest.importorskip("tianshou")

from interop.tables import TABLES
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.algorithm_base import policy_within_training_step
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.utils.net.common import Net

from handfoot_env import Rules, handfoot_v0


@pytest.mark.parametrize("preset,players", TABLES)
def test_tianshou_collects_whole_games_and_updates_a_dqn(preset, players):
    rules = Rules.preset(preset, num_players=players, num_deals=1)  # one deal keeps the games short

    def make():
        return PettingZooEnv(handfoot_v0.env(rules=rules))

    env = make()
    observation_space = env.observation_space["observation"]
    net = Net(state_shape=observation_space.shape, action_shape=env.action_space.n, hidden_sizes=[32])
    learner = DQN(
        policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.1),
        optim=AdamOptimizerFactory(lr=1e-3),
        n_step_return_horizon=1,
        gamma=0.99,
        target_update_freq=50,
    )
    others = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in range(players - 1)]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner] + others, env=env)
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
