"""Test-sized training set-ups the interop tests share (each framework imported where used)."""

from __future__ import annotations


def masked_ppo(preset: str, players: int):
    """RLlib's PPO config on the registered ``"handfoot"`` env with the lab's masked module: one
    shared policy, a 32-unit network, 400 steps an iteration, one epoch."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from handfoot_env.envs.rllib import MaskedPPOTorchRLModule

    return (
        PPOConfig()
        .environment("handfoot", env_config={"preset": preset, "num_players": players})
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent, *args, **kwargs: "shared")
        .rl_module(
            rl_module_spec=RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config={"fcnet_hiddens": [32]})
        )
        .env_runners(num_env_runners=0)
        .training(train_batch_size_per_learner=400, minibatch_size=100, num_epochs=1)
        .debugging(seed=0)
    )


def dqn_beside_random(env, players: int):
    """A tianshou DQN (32 units) learning the first seat of ``env`` (tianshou's ``PettingZooEnv``)
    and masked random play at the other ``players - 1``: (the DQN, the multi-agent algorithm)."""
    from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.utils.net.common import Net

    net = Net(
        state_shape=env.observation_space["observation"].shape, action_shape=env.action_space.n, hidden_sizes=[32]
    )
    learner = DQN(
        policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.1),
        optim=AdamOptimizerFactory(lr=1e-3),
        n_step_return_horizon=1,
        gamma=0.99,
        target_update_freq=50,
    )
    others = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in range(players - 1)]
    return learner, MultiAgentOffPolicyAlgorithm(algorithms=[learner, *others], env=env)
