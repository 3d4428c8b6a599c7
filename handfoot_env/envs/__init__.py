"""The env in other frameworks' shapes: one module per framework, each a thin shell that holds no
rules and translates the engines' arrays into that framework's API.

    pettingzoo.py         the AEC env (``handfoot_v0.env()``), every seat an agent
    gymnasium.py          one game, the learner's side against opponents (``gymnasium.make``)
    gymnasium_vector.py   N games on the vector engine (``gymnasium.make_vec``)
    sb3.py                Stable-Baselines3's ``VecEnv``
    torchrl.py            TorchRL: N games, each seat an agent (grouped), or one side against an opponent
    torchrl_turn.py       TorchRL: N games, the player to move at the root (self-play)
    rllib.py              RLlib: an env creator and a masked PPO module
    spaces.py             the observation and action spaces they share

The single-learner shells — Gymnasium's env and vector env, SB3's ``VecEnv``, TorchRL's env with a
built-in opponent — all drive one loop, seating's ``LearnerGames`` (``handfoot_env/seating/learner.py``):
it plays the opponents, credits the learner's rewards and handles illegal actions; the shells
translate (spaces, info keys, tensordicts, autoreset bookkeeping).  No shell imports another.
"""
