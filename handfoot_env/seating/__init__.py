"""Agents at the vector engine's games: who sits where, and what the learner's seats earn.

seats.py     ``Seating``: an agent in every seat of B games, all moving batched (evaluation,
             ``handfoot game``, the benchmark)
learner.py   ``LearnerGames``: the learner's seats against opponent agents, the one loop every
             single-learner shell and the trainer's collector drive
rewards.py   what a deal or a game is worth to a side or a seat
"""
