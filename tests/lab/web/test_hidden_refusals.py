"""No refusal the person gets tells a card they cannot see.

At positions of the person's turn, and while the partner's "may I go out?" stands, every move
the person could send (each action index, and typed commands of every kind for every card) is
sent to the table, then sent again after cards hidden from the person were exchanged (each way
of ``helpers.HIDDEN_SWAPS``, the asker's hand included); each refusal must read the same, word
for word.  Refusals are the table's (``PlayTable.act`` raising ``Refused``): the app answers
one with its status and words unchanged.  The same commands go through the terminal game's
parser, so the terminal game is held to it too.
"""

from __future__ import annotations

import copy
import random

import pytest
from helpers import HIDDEN_SWAPS, swap_hidden_cards

from handfoot_env import actions as A
from handfoot_env.cards import KIND_NAMES, NATURAL_KINDS, SUIT_LETTERS
from handfoot_env.reference import Game
from handfoot_env.reference.scenario import build_scenario
from handfoot_env.rules import Rules
from handfoot_lab.fuzz import VARIATION_CONFIGS
from handfoot_lab.play import QUESTION_STANDS, PlaySession
from handfoot_lab.web.tables import PlayTable, Refused

SECRET = 5

# The partner (seat 2, or 3 of six) is on its foot with the books to go out: it asks at once.
ASKING_PARTNER = {
    "partnership 4p": """
        preset: partnership
        rules: {num_deals: 1, permission_to_go_out: true}
        to_move: 2
        seats:
          - {hand: 4 5 6 K 9 9 Jk, foot: random 11}
          - {hand: random 9, foot: random 11}
          - {hand: K K K 8 8 8, on_foot: true}
          - {hand: random 9, foot: random 11}
        tables:
          - {opened: true, groups: [Q Q Q Q Q Q Q, A A A A A A A, J J J J J 2 2, 10 10 10 10 10 Jk 2]}
          - {}
        """,
    "house 4p": """
        preset: house
        rules: {num_players: 4, num_deals: 1, permission_to_go_out: true}
        to_move: 2
        seats:
          - {hand: 4c 5d 6s Kh 9c 9d Jk, foot: random 13}
          - {hand: random 9, foot: random 13}
          - {hand: Kc Ks Kd 8h 8s 8c, on_foot: true}
          - {hand: random 9, foot: random 13}
        tables:
          - {opened: true, groups: [Q Q Q Q Q Q Q, 4h 5h 6h 7h 8h 9h 10h, J J J J J 2 2, 10 10 10 10 10 Jk 2]}
          - {}
        """,
    "partnership 6p, every variation": """
        preset: partnership
        rules: {num_players: 6, num_deals: 1, permission_to_go_out: true, wild_books: true,
                black_three_books: true, take_onto_table: true, take_with_natural_and_wild: true}
        to_move: 3
        seats:
          - {hand: 4 5 6 K 9 9 Jk 3b, foot: random 11}
          - {hand: random 9, foot: random 11}
          - {hand: random 9, foot: random 11}
          - {hand: K K K 8 8 8, on_foot: true}
          - {hand: random 9, foot: random 11}
          - {hand: random 9, foot: random 11}
        tables:
          - {opened: true, groups: [Q Q Q Q Q Q Q, A A A A A A A, J J J J J 2 2, 10 10 10 10 10 Jk 2]}
          - {}
          - {}
        """,
}


def typed_moves(rules: Rules) -> list[str]:
    """Commands of every kind for every card: draws, takes, the question and its answers,
    discards (with and without a suit), melds, wilds onto groups, runs and books of 2s."""
    commands = ["s", "p", "ask", "yes", "no", "h", "m 2 2 2", "m 2", "m 3b 3b 3b", "m Jk 2 2"]
    commands += [f"d {name}" for name in KIND_NAMES]
    for kind in NATURAL_KINDS:
        name = KIND_NAMES[kind]
        commands += [f"m {name} {name} {name}", f"m {name} {name} 2", f"m {name}", f"m {name}: 2 Jk"]
        commands.append(f"m {name} {name} {name}, 9 9 9")
        if rules.runs:
            commands += [f"d {name}{suit}" for suit in SUIT_LETTERS]
    if rules.runs:
        for suit in SUIT_LETTERS:
            commands += [f"r 4{suit} 5{suit} 6{suit}", f"r 9{suit} 10{suit} J{suit} Q{suit}", f"r J{suit}"]
    commands += [f"a {index}" for index in (A.ASK_TO_GO_OUT, A.ANSWER_YES, A.ANSWER_NO, A.TAKE_ONTO_TABLE)]
    return commands


def answers_to_every_move(table: PlayTable, game: Game) -> list[tuple]:
    """What the table answers to each action index and each typed move in ``game`` (restored
    after any move it accepts): ``("refused", status, words)`` or ``("accepted",)``."""
    out = []
    probes = [{"action": a} for a in range(A.NUM_ACTIONS)] + [{"command": c} for c in typed_moves(game.rules)]
    table.game, seen = copy.deepcopy(game), table.moves_seen
    for probe in probes:
        try:
            table.act(table.moves_seen, **probe)
        except Refused as exc:
            out.append(("refused", exc.status, str(exc)))
            continue
        out.append(("accepted",))
        table.game, table.log, table.talk, table.reviews, table.moves_seen = copy.deepcopy(game), [], [], [], seen
        table._to_weigh, table._moves_this_deal, table._changed_this_deal = [], 0, 0
    return out


def assert_refusals_see_nothing_hidden(table: PlayTable, game: Game, rng: random.Random, rounds: int) -> int:
    """Every refusal at ``game`` is the same after each way of swapping hidden cards, ``rounds``
    times over; returns how many swapped positions were compared."""
    expected = answers_to_every_move(table, game)
    assert any(answer[0] == "refused" for answer in expected)
    compared = 0
    for _ in range(rounds):
        for swap in HIDDEN_SWAPS:
            swapped = copy.deepcopy(game)
            if not swap_hidden_cards(swapped, 0, swap, rng):
                continue
            got = answers_to_every_move(table, swapped)
            for probe, (mine, theirs) in enumerate(zip(expected, got)):
                assert mine == theirs, (swap, probe, mine, theirs)
            compared += 1
    return compared


def asked_table(text: str) -> PlayTable:
    """A table at the scenario, its agents played on until the person is to act: the partner
    has asked."""
    game, _ = build_scenario(text)
    table = PlayTable(game.rules, 1, "heuristic", "heuristic", "heuristic", SECRET)
    table.game = game
    table._agents_play()
    assert table.game.mover == 0 and table.game.current != 0, "the partner did not ask"
    return table


@pytest.mark.parametrize("name", list(ASKING_PARTNER))
def test_while_the_partner_asks_no_refusal_tells_its_hand(name):
    """While the question stands only an answer is taken: any other move is refused in the same
    words, whatever the asker (or anyone else) holds."""
    table = asked_table(ASKING_PARTNER[name])
    game = copy.deepcopy(table.game)
    compared = assert_refusals_see_nothing_hidden(table, game, random.Random(len(name)), rounds=6)
    assert compared >= 20
    answers = answers_to_every_move(table, game)
    accepted = [answer for answer in answers if answer == ("accepted",)]
    assert len(accepted) == 6  # the two answers: by index, typed, and typed by index
    refused = {answer[2] for answer in answers if answer[0] == "refused" and answer[2] != "'h' is not a move"}
    assert refused == {QUESTION_STANDS}


def the_persons_positions(rules: Rules, seed: int, count: int) -> list[Game]:
    """``count`` positions of the person's turns (draws, melds and discards), from a game where
    the person plays the hint's moves."""
    table = PlayTable(rules, seed, "heuristic", "heuristic", "heuristic", SECRET)
    positions, moves = [], 0
    while len(positions) < count and not table.game.is_over:
        if moves % 5 in (0, 2):
            positions.append(copy.deepcopy(table.game))
        table.act(table.moves_seen, action=table.hint()["action"])
        moves += 1
    return positions


VARIATIONS = [Rules.preset(name, **overrides) for name, overrides in VARIATION_CONFIGS] + [
    Rules.preset("house", num_players=4, permission_to_go_out=True),
    Rules.preset("house", num_players=2),
]


@pytest.mark.parametrize("rules", [VARIATIONS[-3], VARIATIONS[-2], VARIATIONS[-1]], ids=["six", "house4p", "house2p"])
def test_on_the_persons_turn_no_refusal_tells_a_hidden_card(rules):
    table = PlayTable(rules, 1, "heuristic", "heuristic", "heuristic", SECRET)
    rng = random.Random(rules.num_players)
    for game in the_persons_positions(rules, seed=3, count=3):
        assert assert_refusals_see_nothing_hidden(table, game, rng, rounds=1) >= 3


@pytest.mark.slow
@pytest.mark.parametrize("rules", VARIATIONS, ids=[str(index) for index in range(len(VARIATIONS))])
def test_on_the_persons_turn_no_refusal_tells_a_hidden_card_under_every_variation(rules):
    table = PlayTable(rules, 1, "heuristic", "heuristic", "heuristic", SECRET)
    rng = random.Random(rules.num_players)
    for game in the_persons_positions(rules, seed=4, count=8):
        assert assert_refusals_see_nothing_hidden(table, game, rng, rounds=2) >= 3


def test_the_terminal_game_takes_only_an_answer_while_the_partner_asks():
    """The terminal game reads the same way: a discard typed without a suit while the partner
    asks is refused in the same words, and the answer then goes through."""
    table = asked_table(ASKING_PARTNER["house 4p"])
    output: list[str] = []
    typed = iter(["d K", "d 8", "m 9 9 Jk", "r 4c 5c 6c", "ask", "a 1", "no", "q"])
    session = PlaySession(table.game.rules, seed=1, readline=lambda: next(typed) + "\n", write=output.append)
    session.game = table.game
    session.run()
    refusals = [line for line in output if line.startswith("  ! ")]
    assert refusals == [f"  ! {QUESTION_STANDS}"] * 6
    assert A.ANSWER_NO in session.game.actions  # the answer was played
