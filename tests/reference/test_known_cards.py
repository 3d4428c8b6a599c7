"""What the table knows a seat holds: cards it took from the pile face up, until they are
seen to leave its hand (``Seat.known``, observation field ``seat_known``).  Every scenario
runs on both engines (``helpers.scenario``), so the vector engine is checked step by step."""

from __future__ import annotations

from helpers import A, kind, rank, scenario

from handfoot_env.cards import NUM_KINDS
from handfoot_env.observation import ObservationView
from handfoot_env.reference.observe import observe

TAKE = """
preset: classic
phase: draw
seats: [{hand: 9 9 5 5 6 K, foot: random 11}, {hand: random 11, foot: random 11}]
tables: [{opened: true, groups: [K K K]}, {}]
pile: 4 4 5 6 7 8 J Q 9
"""


def known_counts(game, seat: int) -> dict[str, int]:
    names = ("Jk", "2", "3b", "3r", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    return {names[k]: c for k, c in enumerate(game.seats[seat].known) if c}


def test_cards_taken_from_the_pile_are_known_and_shown_in_every_view():
    game = scenario(TAKE)
    game.step(A.TAKE_PILE)  # the 9 and the pair go down; 5 6 7 8 J Q come into the hand
    assert known_counts(game, 0) == {"5": 1, "6": 1, "7": 1, "8": 1, "J": 1, "Q": 1}
    assert known_counts(game, 1) == {}
    mine, theirs = ObservationView(observe(game.game, 0)), ObservationView(observe(game.game, 1))
    assert list(mine.known(0)) == list(theirs.known(1)) == game.seats[0].known
    assert not theirs.known(0).any()


def test_a_meld_or_a_discard_shows_cards_and_the_known_count_falls_but_never_below_zero():
    game = scenario(TAKE)
    game.step(A.TAKE_PILE)
    game.step(A.start_group(rank("5")))  # three 5s: the known one may be among them
    assert game.seats[0].known[kind("5")] == 0
    game.step(A.add_natural(rank("K")))  # a K was never known: nothing changes
    assert known_counts(game, 0) == {"6": 1, "7": 1, "8": 1, "J": 1, "Q": 1}
    game.step(A.discard(kind("6")))  # two 6s held, one known: at least 0 remain known
    assert known_counts(game, 0) == {"7": 1, "8": 1, "J": 1, "Q": 1}


def test_the_pair_that_takes_the_pile_is_shown():
    game = scenario(TAKE)
    game.seats[0].known[kind("9")] = 2  # as if both 9s had come from an earlier take
    game.current = 0  # (setting an attribute copies the position to the vector engine again)
    game.step(A.TAKE_PILE)
    assert game.seats[0].known[kind("9")] == 0


def test_a_new_deal_forgets_what_was_known():
    game = scenario("""
        preset: classic
        seats: [{hand: 5 9, foot: 4}, {hand: 8 8, foot: 4}]
        stock: 7
        """)
    game.seats[1].known[kind("8")] = 2  # as if both 8s had come from a take
    game.current = 0  # (setting an attribute copies the position to the vector engine again)
    assert game.seats[1].known[kind("8")] == 2
    game.step(A.discard(kind("5")))  # seat 1 cannot draw two: the deal ends, the next is dealt
    assert game.deal_index == 1 and game.phase != "game_over"
    assert all(seat.known == [0] * NUM_KINDS for seat in game.seats)


def test_house_top_discard_taken_is_known():
    game = scenario("""
        preset: house
        phase: draw
        seats: [{hand: 5h 6h, foot: random 13}, {hand: random 13, foot: random 13}]
        tables: [{}, {}]
        pile: 9c Kd
        stock: 7s 8s
        """)
    game.step(A.TAKE_PILE)  # the stock's 8s (unseen), then the Kd (face up)
    assert known_counts(game, 0) == {"K": 1}


def test_groups_staged_before_a_take_are_shown_when_it_opens():
    game = scenario("""
        preset: partnership
        phase: draw
        seats: [{hand: 9 9 K K K 5 6, foot: random 11}, {hand: random 11, foot: random 11},
                {hand: random 11, foot: random 11}, {hand: random 11, foot: random 11}]
        tables: [{}, {}]
        pile: 4 4 5 6 7 8 J Q 9
        """)
    game.seats[0].known[kind("K")] = 2  # (no deal of these rules gets here: a take opens the side)
    game.current = 0  # (setting an attribute copies the position to the vector engine again)
    game.step(A.start_group(rank("K")))  # staged before the draw: still hidden
    assert game.seats[0].known[kind("K")] == 2
    game.step(A.TAKE_PILE)  # the take opens the side: the staged Ks go down
    assert game.seats[0].known[kind("K")] == 0
