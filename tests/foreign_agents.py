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


# Plays the first legal action and, every few calls, searches its own process for a live game:
# every object on the heap and every local variable of every thread's frames whose type is one
# of the engines' or the game's; what it finds goes to the report file named by its argument.
SNOOP_AGENT = """
import gc
import sys
from pathlib import Path

LOOKING_FOR = {"VectorEngine", "Game", "GameState", "Seating", "LearnerGames", "PlaySession", "Table"}


def live_games():
    found = set()
    frames = []
    for frame in sys._current_frames().values():
        while frame is not None:
            frames.append(frame)
            frame = frame.f_back
    candidates = gc.get_objects() + [value for frame in frames for value in list(frame.f_locals.values())]
    for candidate in candidates:
        kind = type(candidate)
        if kind.__name__ in LOOKING_FOR and kind.__module__.split(".")[0] in ("handfoot_env", "handfoot_lab", "agents"):
            found.add(f"{kind.__module__}.{kind.__name__}")
    return sorted(found)


class Snoop:
    name = "snoop"

    def __init__(self, report):
        self.report, self.calls = Path(report), 0

    def act(self, observations, masks):
        if self.calls % 20 == 0:
            with self.report.open("a") as out:
                out.write(f"searched {len(gc.get_objects())} objects, found {live_games()}\\n")
        self.calls += 1
        return masks.argmax(axis=1)


def make(report):
    return Snoop(report)
"""


def snoop_agent(folder) -> tuple[str, object]:
    """A ``py:`` agent that searches its own process for a live engine or game, and the file
    it reports to: one line ``searched N objects, found [...]`` per search."""
    (folder / "snoop.py").write_text(SNOOP_AGENT)
    report = folder / "snoop_report.txt"
    return f"py:{folder / 'snoop.py'}:make:{report}", report


# Plays the first legal action, but raises on every EVERY-th call (its argument) and, when
# told, sleeps SLEEP seconds on its CALL-th call (arguments EVERY[,CALL,SLEEP]).
FLAKY_AGENT = """
import time


class Flaky:
    name = "flaky"

    def __init__(self, every, call=-1, sleep=0.0):
        self.every, self.call, self.sleep, self.calls = every, call, sleep, 0

    def act(self, observations, masks):
        self.calls += 1
        if self.calls == self.call:
            time.sleep(self.sleep)
        if self.every and self.calls % self.every == 0:
            raise RuntimeError(f"call {self.calls}: a bug")
        return masks.argmax(axis=1)


def make(argument):
    every, call, sleep = (argument.split(",") + ["-1", "0"])[:3]
    return Flaky(int(every), int(call), float(sleep))
"""


def flaky_agent(folder, every: int, call: int = -1, sleep: float = 0.0) -> str:
    """A ``py:`` agent that raises on every ``every``-th call (0: never) and sleeps ``sleep``
    seconds on call number ``call``."""
    (folder / "flaky.py").write_text(FLAKY_AGENT)
    return f"py:{folder / 'flaky.py'}:make:{every},{call},{sleep}"
