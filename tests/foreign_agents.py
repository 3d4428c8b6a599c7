"""Foreign agents the tests enter: one that breaks the rules exactly where it is told to."""

from __future__ import annotations

import numpy as np

from agents import make_agent
from handfoot_env.reference import Game
from handfoot_env.reference.observe import observe
from handfoot_env.rules import Rules

# Plays the first legal action, except in one position (read from trap.npy beside it), where
# it returns the first illegal one.
TRAP_AGENT = """
from pathlib import Path

import numpy as np

TRAP = np.load(Path(__file__).with_suffix(".npy"))


class FirstLegal:
    name = "trap"

    def act(self, observations, masks):
        actions = masks.argmax(axis=1)
        for row, observation in enumerate(observations):
            if np.array_equal(observation, TRAP):
                actions[row] = np.flatnonzero(~masks[row])[0]
        return actions


def make():
    return FirstLegal()
"""


def trap_agent(folder, rules: Rules, seed: int, step: int) -> tuple[str, int]:
    """A ``py:`` agent that first breaks the rules at ``step`` of game ``seed`` against greedy,
    and the side it must sit on for that (the side whose player moves there)."""
    greedy = make_agent("greedy")
    for side in range(rules.num_owners):
        game = Game(rules, seed)
        while len(game.actions) < step:
            mask, mine = game.legal_mask(), rules.owner_of(game.current) == side
            game.step(int(mask.argmax()) if mine else int(greedy.act(observe(game, game.current)[None], mask[None])[0]))
        if rules.owner_of(game.current) == side:
            np.save(folder / "trap.npy", observe(game, game.current))
            (folder / "trap.py").write_text(TRAP_AGENT)
            return f"py:{folder / 'trap.py'}:make", side
    raise AssertionError("no side moves at that step")
