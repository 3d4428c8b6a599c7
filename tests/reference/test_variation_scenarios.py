"""One scenario test per variation of docs/rules.md ("Variations") that the presets leave out.

Every scenario runs in both engines at once (``helpers.scenario``: masks, every seat's
observation, scores, the seat to act and the permission question compared after each step),
so each test holds the reference engine and the vector engine to the rule.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import A, kind, rank, scenario

from handfoot_env import observation as O
from handfoot_env.cards import JOKER, TWO
from handfoot_env.reference.observe import observe
from handfoot_env.reference.state import ThreesGroup, WildBook, count_books
from handfoot_env.rules import Rules

K, NINE = rank("K"), rank("9")
# Classic, seat 0 on its foot with ``hand``; its table holds ``groups`` (a clean and a dirty book
# by default: what classic needs to go out).
CLASSIC_OUT = """
preset: classic
rules: {{num_deals: 1, {rules}}}
seats:
  - {{hand: '{hand}', on_foot: true}}
  - {{hand: 4 4, foot: 5}}
tables: [{{opened: true, groups: [{groups}]}}, {{}}]
"""
BOOKS = "Q Q Q Q Q Q Q, J J J J J 2 2"


def classic_out(hand: str, rules: str, groups: str = BOOKS):
    return scenario(CLASSIC_OUT.format(hand=hand, rules=rules, groups=groups))


# Partnership, seat 0 on its foot with ``hand``; its team holds 2 clean and 2 dirty books.
PARTNERSHIP_OUT = """
preset: partnership
rules: {{num_deals: 1, {rules}}}
seats:
  - {{hand: '{hand}', on_foot: true}}
  - {{hand: 4 4, foot: 5}}
  - {{hand: 6 6, {partner_foot}}}
  - {{hand: 8 8, foot: 5}}
tables:
  - {{opened: true, groups: [Q Q Q Q Q Q Q, A A A A A A A, J J J J J 2 2, 10 10 10 10 10 Jk 2]}}
  - {{}}
"""


def partnership_out(hand: str, rules: str, partner_on_foot: bool = True):
    partner_foot = "on_foot: true" if partner_on_foot else "foot: 5 5"
    return scenario(PARTNERSHIP_OUT.format(hand=hand, rules=rules, partner_foot=partner_foot))


# ----------------------------------------------------------------------------- wild books
def test_a_wild_book_starts_with_three_wilds_and_completes_at_seven_for_1500():
    game = classic_out("2 2 Jk 2 Jk 2 2 5 6", "wild_books: true", groups="A A A")
    game.step(A.start_wild_book(1))  # two 2s and a joker
    for wild in (TWO, JOKER, TWO, TWO):
        game.step(A.add_to_wild_book(wild))
    (book,) = [g for g in game.sides[0].groups if isinstance(g, WildBook)]
    assert (book.twos, book.jokers) == (5, 2)
    books = count_books(game.sides[0].groups, 7)
    assert (books.clean, books.dirty, books.wild) == (0, 0, 1)  # neither clean nor dirty
    assert game.score_so_far().owners[0].book_bonus == 1500
    assert "no unfinished wild book" in game.why_illegal(A.add_to_wild_book(TWO))  # closed at 7


def test_without_the_rule_wilds_never_form_a_group_of_their_own():
    game = classic_out("2 2 Jk 5 6", "wild_books: false", groups="A A A")
    assert "no wild books" in game.why_illegal(A.start_wild_book(1))


def test_a_wild_book_may_be_needed_to_go_out():
    rules = "wild_books: true, wild_book_to_go_out: true"
    game = classic_out("K K K", rules)
    assert "wild book" in game.why_illegal(A.start_group(K, 0))
    game = classic_out("K K K", rules, groups=BOOKS + ", 2 2 2 Jk Jk 2 2")
    game.step(A.start_group(K, 0))
    assert game.is_over and game.deal_results[0].went_out == 0


# ----------------------------------------------------------------------------- permission
def test_going_out_needs_the_partners_yes_and_the_partner_answers():
    game = partnership_out("K K K", "permission_to_go_out: true")
    assert "ask your partner" in game.why_illegal(A.start_group(K, 0))
    game.step(A.ASK_TO_GO_OUT)
    assert (game.current, game.mover) == (0, 2)  # the partner is to act while the question stands
    assert np.flatnonzero(game.legal_mask()).tolist() == [A.ANSWER_YES, A.ANSWER_NO]
    partner_view, asker_view = (O.ObservationView(observe(game.game, seat)) for seat in (2, 0))
    assert partner_view.asked_by_partner and partner_view.question_stands
    assert asker_view.question_stands and not asker_view.asked_by_partner
    game.step(A.ANSWER_YES)
    assert game.mover == 0 and game.permission == "granted"
    game.step(A.start_group(K, 0))
    assert game.is_over and game.deal_results[0].went_out == 0


def test_a_no_holds_the_player_for_the_rest_of_the_turn():
    game = partnership_out("K K K 5", "permission_to_go_out: true")
    game.step(A.ASK_TO_GO_OUT)
    game.step(A.ANSWER_NO)
    assert "said no" in game.why_illegal(A.start_group(K, 0))  # it would leave the player 1 card
    assert game.why_illegal(A.ASK_TO_GO_OUT) is not None  # once a turn
    assert game.why_illegal(A.discard(kind("5"))) is None


# ----------------------------------------------------------------------------- partner on the foot first
def test_going_out_waits_for_the_partner_to_pick_up_the_foot():
    game = partnership_out("K K K", "partner_foot_first: true", partner_on_foot=False)
    assert "partner has not picked up" in game.why_illegal(A.start_group(K, 0))
    game = partnership_out("K K K", "partner_foot_first: true", partner_on_foot=True)
    game.step(A.start_group(K, 0))
    assert game.is_over and game.deal_results[0].went_out == 0


# ----------------------------------------------------------------------------- black threes
def test_black_threes_form_a_group_of_their_own_and_a_clean_book_at_seven():
    game = classic_out("3b 3b 3b 3b 3b 3b 3b 5 6", "black_three_books: true, num_decks: 4", groups="A A A")
    game.step(A.START_THREES_GROUP)
    for _ in range(4):
        game.step(A.ADD_BLACK_THREE)
    (threes,) = [g for g in game.sides[0].groups if isinstance(g, ThreesGroup)]
    assert threes.size == 7
    assert count_books(game.sides[0].groups, 7).clean == 1
    assert game.score_so_far().owners[0].book_bonus == 500
    game = classic_out("3b 3b 3b 5 6", "black_three_books: false", groups="A A A")
    assert "never meld black threes" in game.why_illegal(A.START_THREES_GROUP)


# ----------------------------------------------------------------------------- a book of 7s
@pytest.mark.parametrize(
    "need,sevens,allowed",
    [
        ("any", "", False),
        ("any", "7 7 7 7 7 2 2", True),
        ("clean", "7 7 7 7 7 2 2", False),
        ("clean", "7 7 7 7 7 7 7", True),
    ],
)
def test_going_out_may_need_a_book_of_sevens(need, sevens, allowed):
    groups = BOOKS + (f", {sevens}" if sevens else "")
    game = classic_out("K K K", f"sevens_book_to_go_out: {need}", groups=groups)
    problem = game.why_illegal(A.start_group(K, 0))
    assert (problem is None) == allowed, problem
    if not allowed:
        assert "book of 7s" in problem


# ----------------------------------------------------------------------------- taking the pile
TAKE = """
preset: {preset}
phase: draw
seats:
{seats}
tables: [{{opened: true, groups: [{groups}]}}, {{}}]
pile: {pile}
rules: {{{rules}}}
"""


def take_game(hand: str, rules: str, groups: str = "9 9 9", pile: str = "4 4 5 6 7 8 J Q 9", preset="classic"):
    seats = [f"  - {{hand: '{hand}', foot: random 11}}"] + ["  - {hand: random 11, foot: random 11}"] * (
        3 if preset == "partnership" else 1
    )
    return scenario(TAKE.format(preset=preset, seats="\n".join(seats), groups=groups, pile=pile, rules=rules))


def test_the_pile_is_taken_by_the_table_onto_an_unfinished_group():
    game = take_game("5 6 K", "take_onto_table: true")
    assert "two natural 9" in game.why_illegal(A.TAKE_PILE)
    game.step(A.TAKE_ONTO_TABLE)
    assert [g.naturals for g in game.sides[0].groups if getattr(g, "rank", None) == NINE] == [4]
    assert game.seats[0].hand[kind("Q")] == 1 and game.pile == [kind("4"), kind("4")]  # six cards to the hand
    assert game.phase == "play"


def test_a_take_by_the_table_needs_the_rule_and_a_group_of_the_rank():
    assert "take_onto_table" in take_game("5 6 K", "take_onto_table: false").why_illegal(A.TAKE_ONTO_TABLE)
    problem = take_game("5 6 K", "take_onto_table: true", groups="K K K").why_illegal(A.TAKE_ONTO_TABLE)
    assert "no unfinished group of 9" in problem


def test_the_pile_is_taken_with_one_natural_and_a_wild():
    game = take_game("9 2 5 6", "take_with_natural_and_wild: true", groups="K K K", preset="partnership")
    assert game.why_illegal(A.TAKE_WITH_JOKER) is not None  # no joker in hand
    game.step(A.TAKE_WITH_TWO)
    (nines,) = [g for g in game.sides[0].groups if getattr(g, "rank", None) == NINE]
    assert (nines.naturals, nines.twos) == (2, 1)
    problem = take_game("9 2 5 6", "take_with_natural_and_wild: false", preset="partnership").why_illegal(
        A.TAKE_WITH_TWO
    )
    assert "take_with_natural_and_wild" in problem


def test_a_wild_in_the_pile_freezes_it_for_the_take_with_a_wild():
    rules = "take_with_natural_and_wild: true, wild_freezes_pile: true"
    game = take_game("9 9 2 5", rules, groups="K K K", pile="4 2 5 6 9", preset="partnership")
    assert "frozen" in game.why_illegal(A.TAKE_WITH_TWO)
    assert game.why_illegal(A.TAKE_PILE) is None  # a natural pair still takes it


# ----------------------------------------------------------------------------- six players
def test_six_players_play_in_three_teams_of_two():
    rules = Rules.preset("partnership", num_players=6)
    assert (rules.num_owners, rules.num_decks) == (3, 7)  # one more deck than players
    assert [rules.owner_of(seat) for seat in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [rules.partner_of(seat) for seat in range(6)] == [3, 4, 5, 0, 1, 2]
    game = scenario(
        """
        preset: partnership
        rules: {num_players: 6}
        to_move: 3
        seats:
          - {hand: random 11, foot: random 11}
          - {hand: random 11, foot: random 11}
          - {hand: random 11, foot: random 11}
          - {hand: K 5 6, foot: random 11}
          - {hand: random 11, foot: random 11}
          - {hand: random 11, foot: random 11}
        tables: [{opened: true, groups: [K K K]}, {}, {}]
        """
    )
    game.step(A.add_natural(K))  # seat 3 adds to the group of its partner, seat 0
    assert [g.size for g in game.sides[0].groups] == [4]
