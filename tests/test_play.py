"""The terminal game: a whole game through the command parser, a pipe, Hint, refusals, Coach."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from agents import make_agent
from handfoot_env import actions as A
from handfoot_env.play import PlaySession, coach_note, command_for, parse_command
from handfoot_env.reference.observe import observe
from handfoot_env.rules import Rules
from helpers import rank, scenario


@pytest.mark.parametrize("preset", ["classic", "partnership"])
def test_a_whole_game_through_the_commands(preset):
    """A scripted person types the heuristic's move as a command every time: four deals."""
    output: list[str] = []
    holder: dict = {}
    agent = make_agent("heuristic")
    typed = []

    def readline() -> str:
        game = holder["session"].game
        if len(typed) % 7 == 3:
            typed.append("h")
            return "h\n"
        action = int(agent.act(observe(game, 0)[None], game.legal_mask()[None])[0])
        typed.append(command_for(action))
        return command_for(action) + "\n"

    session = PlaySession(Rules.preset(preset), seed=4, readline=readline, write=output.append)
    holder["session"] = session
    assert session.run() == 0
    text = "\n".join(output)
    assert session.game.is_over and len(session.game.deal_results) == 4
    assert "=== game over ===" in text and "hint:" in text
    assert any(line.startswith("m ") for line in typed) and "s" in typed and any(line.startswith("d ") for line in typed)


def test_play_over_a_plain_pipe():
    commands = "s\nh\nm A A A\nt\n?\nbogus\nq\n"
    proc = subprocess.run([sys.executable, "-m", "handfoot_env.cli", "play", "--seed", "3"], input=commands,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "seat 0 holds:" in out and "stock" in out and "pile" in out
    assert "hint:" in out and "you do not hold enough A" in out and "unknown command 'bogus'" in out
    assert "commands:" in out and out.rstrip().endswith("bye.")


def test_meld_commands():
    game = scenario("""
    preset: classic
    seats: [{hand: K K K Q Q Jk 5 2, foot: random 11}, {hand: random 11, foot: random 11}]
    tables: [{opened: true, groups: [A A A]}, {}]
    """)
    verb, actions = parse_command(game, "m K K K, Q Q Jk")
    assert verb == "move" and actions == [A.start_group(rank("K"), 0), A.start_group(rank("Q"), 2)]
    assert parse_command(game, "m A: 2")[1] == [A.add_two(rank("A"))]
    assert parse_command(game, "d 5")[1] == [A.discard(5 - 4 + 4)]
    for bad in ("m K Q Q", "m 3b 3b 3b", "m K", "x"):
        with pytest.raises(ValueError):
            parse_command(game, bad)


def test_command_for_round_trips():
    game = scenario("""
    preset: classic
    seats: [{hand: K K K Q Q Jk 5 2, foot: random 11}, {hand: random 11, foot: random 11}]
    tables: [{opened: true, groups: [A A A]}, {}]
    """)
    for action in np.flatnonzero(game.legal_mask()):
        assert parse_command(game, command_for(int(action)))[1] == [int(action)]


def test_coach_flags_a_wild_on_a_clean_group_of_six():
    game = scenario("""
    preset: classic
    seats: [{hand: 2 5 6, foot: random 11}, {hand: random 11, foot: random 11}]
    tables: [{opened: true, groups: [K K K K K K]}, {}]
    """)
    note = coach_note(game, A.add_two(rank("K")), A.discard(5))
    assert note is not None and "clean group of six" in note
    assert coach_note(game, A.discard(5), A.discard(5)) is None
    assert "wild" in coach_note(game, A.discard(1), A.discard(5))
