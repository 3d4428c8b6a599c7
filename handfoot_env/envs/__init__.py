"""The env in other frameworks' shapes: one module per framework, each a thin shell that holds no
rules and translates the engines' arrays into that framework's API.

    pettingzoo.py         the AEC env (``handfoot_v0.env()``), every seat an agent
    gymnasium.py          one game, the learner's side against opponents (``gymnasium.make``)
    gymnasium_vector.py   N games on the vector engine (``gymnasium.make_vec``)
    sb3.py                Stable-Baselines3's ``VecEnv``
    torchrl.py            TorchRL: N games, each seat an agent (grouped) or the player to move
    rllib.py              RLlib: an env creator and a masked PPO module
    spaces.py             the observation and action spaces they share

The single-learner shells (Gymnasium, its vector env, SB3, TorchRL) all drive the learner's loop
of ``handfoot_env.seating``; no shell imports another.
"""
