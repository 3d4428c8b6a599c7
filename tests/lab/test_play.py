"""The terminal game: a whole game through the command parser, a pipe, Hint, refusals, Coach."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from helpers import assert_unpredictable, rank, scenario

from agents import make_agent
from handfoot_env import actions as A
from handfoot_env.reference.observe import observe
from handfoot_env.rules import Rules
from handfoot_lab.play import PlaySession, coach_note, command_for, parse_command, private_seed, unpredictable_seed


def play_through_commands(rules: Rules, hint_every: int | None = None):
    """A scripted person at seat 0 types the heuristic's move as a command (and ``h`` every
    ``hint_every`` lines) until the game ends; returns the session, the lines and the output."""
    output: list[str] = []
    typed: list[str] = []
    agent = make_agent("heuristic")

    def readline() -> str:
        game = session.game
        if hint_every and len(typed) % hint_every == 3:
            typed.append("h")
        else:
            action = int(agent.act(observe(game, 0)[None], game.legal_mask()[None])[0])
            typed.append(command_for(action, game))
        return typed[-1] + "\n"

    session = PlaySession(rules, seed=4, readline=readline, write=output.append)
    assert session.run() == 0
    return session, typed, output


@pytest.mark.parametrize("preset", ["classic", "partnership"])
def test_a_whole_game_through_the_commands(preset):
    """A scripted person types the heuristic's move as a command every time: four deals."""
    session, typed, output = play_through_commands(Rules.preset(preset), hint_every=7)
    text = "\n".join(output)
    assert session.game.is_over and len(session.game.deal_results) == 4
    assert "=== game over ===" in text and "hint:" in text
    assert (
        any(line.startswith("m ") for line in typed) and "s" in typed and any(line.startswith("d ") for line in typed)
    )


def test_play_over_a_plain_pipe():
    commands = "s\nh\nm A A A\nt\n?\nbogus\nq\n"
    proc = subprocess.run(
        [sys.executable, "-m", "handfoot_lab.cli", "play", "--seed", "3"],
        check=False,
        input=commands,
        capture_output=True,
        text=True,
        timeout=120,
    )
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


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_house_game_through_the_commands(players):
    """House: runs, books of 2s and suited discards typed as commands, to the target score."""
    rules = Rules.preset("house", num_players=players, target_score=6000)
    session, typed, _ = play_through_commands(rules)
    assert session.game.is_over and max(session.game.totals) >= 6000
    assert any(line.startswith("r ") for line in typed) and any(
        line.startswith("d ") and line[-1] in "cdhs" for line in typed
    )


def test_house_commands():
    game = scenario("""
    preset: house
    seats: [{hand: 4h 5h 6h 7h Kc Kd 2 2 2 9s, foot: random 13}, {hand: random 13, foot: random 13}]
    tables: [{opened: true, groups: [A A A]}, {}]
    """)
    hearts = 2
    assert parse_command(game, "r 4h 5h 6h 7h")[1] == [A.start_run(hearts, rank("4")), A.extend_run_up(hearts)]
    assert parse_command(game, "m 2 2 2")[1] == [A.START_TWOS_BOOK]
    assert parse_command(game, "m Kc Kd 2")[1] == [A.start_group(rank("K"), 1)]  # suits named, as the web page sends
    assert parse_command(game, "d 9")[1] == [A.discard_suited(3, rank("9"))]  # one suit of 9 held
    with pytest.raises(ValueError, match="name the suit"):
        parse_command(game, "d K")
    with pytest.raises(ValueError, match="one suit"):
        parse_command(game, "r 4h 5c 6h")
    with pytest.raises(ValueError, match="in sequence"):
        parse_command(game, "r 4h 6h 7h")
    game.step(A.start_run(hearts, rank("5")))
    assert parse_command(game, "r 4h")[1] == [A.extend_run_down(hearts)]
    assert command_for(A.extend_run_up(hearts), game) == "r 8h"


def test_a_multi_card_command_is_checked_whole_and_applied_whole_or_not_at_all():
    from helpers import fingerprint

    from handfoot_lab.play import CommandError

    game = scenario("""
    preset: classic
    seats: [{hand: 5 5 5 5 K K 10 10 Jk 2 9, foot: random 11}, {hand: random 11, foot: random 11}]
    tables: [{opened: true, groups: [A A A]}, {}]
    """)
    before = fingerprint(game)
    for bad, why in (("m 5 5 5, K K K", "do not hold enough K"), ("m 10 10 Jk 2", "wild-card limit")):
        with pytest.raises(CommandError, match=f"{why}.*nothing was played"):
            parse_command(game, bad)
        assert fingerprint(game) == before
    # A later part of the command sees what an earlier one melded: 5 5 5 starts the group, 5 adds.
    _verb, actions = parse_command(game, "m 5 5 5, 5")
    assert actions == [A.start_group(rank("5"), 0), A.add_natural(rank("5"))] and fingerprint(game) == before


def test_an_opening_reached_by_staging_is_announced_and_the_table_redrawn():
    output: list[str] = []
    lines = iter(["s\n", "m A A A, K K K\n", "q\n"])
    session = PlaySession(Rules.preset("classic"), seed=3, readline=lambda: next(lines), write=output.append)
    hand = session.game.seats[0].hand
    hand[:] = [0] * 15
    hand[14] = hand[13] = 3  # A A A K K K
    hand[5] = 1
    session.run()
    text = "\n".join(output)
    assert "your side has opened: 90 points down (the minimum was 50)" in text
    assert text.count("seat 0 holds:") >= 2  # the table was drawn again after the opening


def test_the_default_seed_is_62_random_bits_nobody_can_guess():
    assert_unpredictable(unpredictable_seed, bits=62)


def test_a_private_seed_follows_its_secret_and_parts_only():
    """The same secret and parts give the same seed; another secret (a server's, unknown to a
    player) gives another, each of its 62 bits as likely 0 as 1."""
    assert private_seed(12345, 7, 2) == private_seed(12345, 7, 2)
    assert len({private_seed(12345, 7, part) for part in range(50)}) == 50
    secrets_tried = iter(range(10**6))
    assert_unpredictable(lambda: private_seed(next(secrets_tried), 7, 2), bits=62)


def test_a_session_without_a_seed_deals_an_unpredictable_game_and_never_prints_its_seed(monkeypatch):
    import handfoot_lab.play

    monkeypatch.setattr(handfoot_lab.play, "unpredictable_seed", lambda: 2**61 + 12345)
    assert PlaySession(Rules.preset("classic"), write=lambda text: None).game.seed == 2**61 + 12345
    assert PlaySession(Rules.preset("classic"), seed=7, write=lambda text: None).game.seed == 7
    monkeypatch.undo()
    output: list[str] = []
    lines = iter(["s\n", "h\n", "t\n", "?\n", "d 5\n", "q\n"])
    session = PlaySession(Rules.preset("house"), readline=lambda: next(lines), write=output.append)
    session.run()
    assert str(session.game.seed) not in "\n".join(output)


def test_the_terminal_game_deals_from_an_unpredictable_seed_unless_one_is_given():
    from handfoot_lab.cli import build_parser

    assert build_parser().parse_args(["play"]).seed is None  # a fixed default would deal known cards
    assert build_parser().parse_args(["play", "--seed", "7"]).seed == 7


def test_a_whole_game_with_every_variation_through_the_commands():
    """Six players in three teams with every variation: the variations' actions are typed by
    index (``a 176``), the permission question as ask / yes / no."""
    from handfoot_lab.fuzz import VARIATION_CONFIGS

    name, overrides = VARIATION_CONFIGS[-1]
    session, typed, _ = play_through_commands(Rules.preset(name, **{**overrides, "num_deals": 1}))
    assert session.game.is_over
    assert any(line.startswith("a ") for line in typed)  # a variation's take or meld, by index


def test_the_person_is_asked_when_the_partner_wants_to_go_out():
    from handfoot_env.reference.scenario import build_scenario

    output: list[str] = []
    typed = iter(["no", "q"])
    rules = Rules.preset("partnership", permission_to_go_out=True, num_deals=1)
    session = PlaySession(rules, seed=1, readline=lambda: next(typed) + "\n", write=output.append)
    session.game, _ = build_scenario(
        """
        preset: partnership
        rules: {num_deals: 1, permission_to_go_out: true}
        to_move: 2
        seats:
          - {hand: 4 5 6, foot: random 11}
          - {hand: 4 4, foot: 5}
          - {hand: K K K, on_foot: true}
          - {hand: 8 8, foot: 5}
        tables:
          - {opened: true, groups: [Q Q Q Q Q Q Q, A A A A A A A, J J J J J 2 2, 10 10 10 10 10 Jk 2]}
          - {}
        """
    )
    session.run()
    text = "\n".join(output)
    assert "seat 2, your partner, asks: may I go out? (yes / no)" in text
    assert "seat 2: ask your partner: may I go out?" in text and session.game.deal_results == []


def test_a_command_stops_where_the_hand_is_used_up():
    """A command whose first group uses up the hand says so and plays nothing: checking the rest
    against the foot, unseen until picked up, would tell what the foot holds."""
    from handfoot_lab.play import CommandError

    answers = []
    for foot in ("Q Q Q 5 6 7 8 9 10 J A", "4 5 6 7 8 9 10 J A A K"):
        game = scenario(f"""
        preset: classic
        seats: [{{hand: K K K, foot: {foot}}}, {{hand: random 11, foot: random 11}}]
        tables: [{{opened: true, groups: [A A A]}}, {{}}]
        """)
        with pytest.raises(CommandError) as refused:
            parse_command(game, "m K K K, Q Q Q")
        answers.append(str(refused.value))
        assert parse_command(game, "m K K K")[1] == [A.start_group(rank("K"), 0)]  # the hand alone is fine
    assert answers[0] == answers[1] and "uses up your hand" in answers[0]


def test_an_agents_staging_is_not_printed_only_its_opening():
    """An opponent that stages K K K (short of the minimum) and takes it back prints exactly what
    one staging Q Q Q would; an opening is said."""
    from handfoot_env.reference.scenario import build_scenario

    class Stager:  # draws, stages every group it can start, discards its lowest card
        def act(self, observations, masks):
            legal = [int(a) for a in np.flatnonzero(masks[0])]
            starts = [a for a in legal if A.decode(a).kind == "start_group"]
            if A.DRAW in legal:
                return np.array([A.DRAW])
            return np.array([starts[0] if starts else next(a for a in legal if A.decode(a).kind == "discard")])

    printed = []
    for hand in ("K K K 4 4 5", "Q Q Q 4 4 5", "K K K A A A 4 4 5"):
        output: list[str] = []
        lines = iter(["d 8\n", "q\n"])
        session = PlaySession(Rules.preset("classic"), seed=1, readline=lines.__next__, write=output.append)
        session.game, _ = build_scenario(f"""
            preset: classic
            seats: [{{hand: 5 6 7 8, foot: random 11}}, {{hand: {hand}, foot: random 11}}]
            stock: 9 10 J 6 7 8 9 10 J 6 7 8
            """)
        session.agents[1] = Stager()
        session.run()
        printed.append([line for line in output if line.startswith("  seat 1")])
    assert printed[0] == printed[1] == ["  seat 1: draw two from the stock", "  seat 1: discard 4"]
    assert "  seat 1 opens: its melds go down (the table shows them)" in printed[2]
