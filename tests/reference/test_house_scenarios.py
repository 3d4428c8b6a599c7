"""One scenario test per rule of the ``house`` section of docs/rules.md."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import A, assert_illegal_actions_refused, fingerprint, kind, rank, scenario

from handfoot_env import observation as O
from handfoot_env.cards import BLACK_THREE, RED_THREE, suited_id
from handfoot_env.errors import IllegalActionError
from handfoot_env.reference import Game
from handfoot_env.reference.observe import observe
from handfoot_env.reference.state import Run, TwosBook
from handfoot_env.rules import Rules

K, Q, FOUR, ACE = rank("K"), rank("Q"), rank("4"), rank("A")
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)


def house(
    hand: str,
    table: str = "",
    extra: str = "",
    phase: str = "play",
    foot: str = "random 13",
    scores: str = "[0, 0]",
    on_foot: bool = False,
) -> Game:
    """House, two players, seat 0 to move; ``table`` is seat 0's melds (opened if any)."""
    melds = ", ".join(f"'{m}'" for m in table.split("|") if m.strip())
    extra = extra.replace("\n", "\n        ")  # keep extra YAML lines at the template's indent
    foot_entry = "on_foot: true" if on_foot else f"foot: {foot}"
    return scenario(
        f"""
        preset: house
        phase: {phase}
        scores: {scores}
        seats:
          - {{hand: '{hand}', {foot_entry}}}
          - {{hand: random 13, foot: random 13}}
        tables:
          - {{opened: {str(bool(melds)).lower()}, groups: [{melds}]}}
          - {{}}
        {extra}
        """
    )


# ----------------------------------------------------------------------------- the preset
def test_house_table_five_decks_thirteen_and_thirteen():
    game = Game(Rules.preset("house"), seed=1)
    assert game.rules.total_cards == 270
    assert all(seat.hand_size == 13 and sum(seat.foot) == 13 for seat in game.seats)
    assert not game.pile  # the pile starts empty
    assert len(game.stock) == 270 - 2 * 26
    team = Game(Rules.preset("house", num_players=4, partnerships=True), seed=1)
    assert team.rules.num_owners == 2 and len(team.stock) == 270 - 4 * 26


def test_suits_are_dealt_and_agree_with_the_kinds():
    game = Game(Rules.preset("house"), seed=5)
    for seat in game.seats:
        for r in range(11):
            assert sum(seat.hand_suits[s][r] for s in range(4)) == seat.hand[4 + r]


# ----------------------------------------------------------------------------- runs
def test_run_of_three_in_one_suit_goes_down_and_extends_both_ways():
    game = house("5h 6h 7h 4h 8h 9c", table="A A A")
    game.step(A.start_run(HEARTS, rank("5")))
    run = game.sides[0].groups[-1]
    assert isinstance(run, Run) and (run.suit, run.low, run.length) == (HEARTS, rank("5"), 3)
    game.step(A.extend_run_down(HEARTS))
    game.step(A.extend_run_up(HEARTS))
    assert (run := game.sides[0].groups[-1]).length == 5 and run.low == FOUR
    assert "already starts at 4" in game.why_illegal(A.extend_run_down(HEARTS))
    assert "do not hold the 9h" in game.why_illegal(A.extend_run_up(HEARTS))


def test_run_needs_the_suited_cards_in_sequence():
    game = house("5h 6h 7c 8h 9h", table="A A A")
    assert "do not hold the 7h" in game.why_illegal(A.start_run(HEARTS, rank("5")))
    assert game.why_illegal(A.start_run(CLUBS, rank("5"))) is not None


def test_run_ends_at_the_ace_and_closes_at_seven_as_a_red_canasta():
    game = house("QS KS AS 6S 7S 8S 9S 10S JS 5S 9c", table="A A A")
    game.step(A.start_run(SPADES, Q))
    assert "already ends at the ace" in game.why_illegal(A.extend_run_up(SPADES))
    for _ in range(4):
        game.step(A.extend_run_down(SPADES))  # J 10 9 8
    assert game.sides[0].groups[-1].length == 7
    assert game.sides[0].groups[-1] == Run(SPADES, rank("8"), 7)
    assert "no unfinished run" in game.why_illegal(A.extend_run_down(SPADES))
    game.step(A.start_run(SPADES, rank("5")))  # … but a new run of the suit may start (5 decks)


def test_one_unfinished_run_per_suit():
    game = house("4d 5d 6d 9d 10d Jd 2", table="A A A")
    game.step(A.start_run(DIAMONDS, FOUR))
    assert "already an unfinished run" in game.why_illegal(A.start_run(DIAMONDS, rank("9")))


def test_runs_never_take_wilds():
    # No action adds a wild to a run, and the ace is high only: no Q-K-A-2 wraparound.
    assert not any(
        "run" in A.describe(a) and ("2" in A.describe(a) or "joker" in A.describe(a)) for a in range(A.NUM_ACTIONS)
    )
    game = house("Qh Kh Ah 2 Jk", table="A A A")
    game.step(A.start_run(HEARTS, Q))
    assert "ends at the ace" in game.why_illegal(A.extend_run_up(HEARTS))


# ----------------------------------------------------------------------------- books
def test_books_hold_at_most_three_wilds():
    game = house("K K K K 2 2 Jk Jk 5", table="A A A")
    game.step(A.start_group(K, 0))
    game.step(A.add_natural(K))
    for action in (A.add_two(K), A.add_two(K), A.add_joker(K)):
        game.step(action)
    assert game.sides[0].groups[-1].size == 7  # 4 naturals + 3 wilds: a black canasta
    game = house("K 2 Jk 5", table="A A A|K K K 2 2")
    assert "wild" in game.why_illegal(A.add_joker(K))  # 3 naturals may not hold 3 wilds


def test_book_naturals_leave_the_hand_from_the_shortest_suit():
    # Suits held: clubs 2, diamonds 3, hearts 3 (with Q J), spades 1.  The kings leave from
    # spades, then clubs, then diamonds (tied with hearts, first in suit order).
    game = house("Kc Kh Qh Jh Ks Kd 5c 9d 9d", table="A A A")
    game.step(A.start_group(K, 0))
    seat = game.seats[0]
    assert [seat.hand_suits[s][K] for s in range(4)] == [0, 0, 1, 0]


def test_book_of_twos_is_twos_only_and_a_red_canasta():
    game = house("2 2 2 2 2 2 2 Jk 5", table="A A A")
    game.step(A.START_TWOS_BOOK)
    for _ in range(4):
        game.step(A.ADD_TWO_TO_TWOS_BOOK)
    book = game.sides[0].groups[-1]
    assert isinstance(book, TwosBook) and book.size == 7 and book.is_clean
    assert "no unfinished book of 2s" in game.why_illegal(A.ADD_TWO_TO_TWOS_BOOK)
    assert game.why_illegal(A.START_TWOS_BOOK) is not None  # no 2s left
    # The joker has no way in: the layout has no joker action for the book of 2s.
    assert game.seats[0].hand[0] == 1


def test_twos_book_needs_three_twos_to_start():
    game = house("2 2 5 6", table="A A A")
    assert "not hold enough 2" in game.why_illegal(A.START_TWOS_BOOK)


# ----------------------------------------------------------------------------- scoring canastas
def test_red_and_black_canastas_score_500_and_300():
    game = house(
        "5d",
        on_foot=True,
        table="K K K K K K K|4c 5c 6c 7c 8c 9c 10c|2 2 2 2 2 2 2|Q Q Q Q 2 Jk Jk|J J J J J 2 Jk|A A A",
    )
    game.step(A.discard_suited(DIAMONDS, rank("5")))
    assert game.deal_results[0].went_out == 0
    me = game.deal_results[0].owners[0]
    assert me.book_bonus == 3 * 500 + 2 * 300  # red: clean book, run, book of 2s; black: two with wilds
    assert me.going_out == 100 and me.red_threes == 0


def test_going_out_needs_two_red_and_two_black_canastas():
    table = "K K K K K K K|4c 5c 6c 7c 8c 9c 10c|2 2 2 2 2 2 2|Q Q Q Q 2 Jk Jk"
    game = house("5d", on_foot=True, table=table)
    assert "lacks the books" in game.why_illegal(A.discard_suited(DIAMONDS, rank("5")))


# ----------------------------------------------------------------------------- threes
def test_threes_are_held_never_laid_down_and_count_against():
    game = house("3r 3r 3b 5h 5h 5h 9c", table="")
    assert game.seats[0].hand[RED_THREE] == 2 and game.sides[0].red_threes == 0
    game = scenario(
        """
        preset: house
        rules: {num_deals: 1}
        seats: [{hand: 3r 3b 5h, on_foot: true}, {hand: 3r 9c, foot: 3b 3b}]
        stock: []
        """
    )
    game.step(A.discard_suited(HEARTS, rank("5")))  # empty stock: no draw, no take; the deal ends
    assert game.is_over and game.deal_results[0].went_out is None
    me, them = game.deal_results[0].owners
    assert me.held == -(500 + 5)
    assert them.held == -(500 + 10 + 5 + 5)


def test_a_drawn_red_three_stays_in_the_hand():
    game = house("5h 6h", phase="draw", extra="stock: 3r 9c")
    game.step(A.DRAW)
    assert game.seats[0].hand[RED_THREE] == 1 and game.sides[0].red_threes == 0
    assert game.why_illegal(A.discard(RED_THREE)) is None  # threes may be discarded


# ----------------------------------------------------------------------------- drawing
def test_draw_one_plus_the_top_discard_needs_no_pair():
    game = house("5h 6h", phase="draw", extra="pile: 9c Kd\nstock: 7s 8s")
    game.step(A.TAKE_PILE)
    seat = game.seats[0]
    assert seat.hand_suits[DIAMONDS][K] == 1 and seat.hand_suits[SPADES][rank("7")] == 1
    assert game.pile == [suited_id(CLUBS, rank("9"))] and len(game.stock) == 1


@pytest.mark.parametrize("top", ["2", "Jk", "3b", "3r"])
def test_any_top_card_may_be_taken_when_nothing_is_frozen(top):
    game = house("5h 6h", phase="draw", extra=f"pile: 9c {top}\nstock: 7s 8s")
    assert game.why_illegal(A.TAKE_PILE) is None


def test_taking_the_top_discard_needs_a_card_in_the_stock():
    game = house("5h 6h", phase="draw", extra="pile: 9c Kd\nstock: []")
    assert "stock is empty" in game.why_illegal(A.TAKE_PILE)


def test_plain_discard_of_a_natural_is_refused_suited_discard_shows_the_suit():
    game = house("5h 6h 9c", table="")
    assert "suited discard" in game.why_illegal(A.discard(kind("9")))
    game.step(A.discard_suited(CLUBS, rank("9")))
    obs = observe(game, 1)
    assert obs[O.HOUSE_PILE_SUIT + CLUBS] == 1 and obs[O.PILE_TOP + kind("9")] == 1


# ----------------------------------------------------------------------------- frozen melds
@pytest.mark.parametrize(
    "table,top,frozen",
    [
        ("K K K K K 2", "Kd", True),  # six cards toward a book of kings
        ("K K K K K", "Kd", False),  # five: not frozen
        ("4c 5c 6c 7c 8c 9c", "10c", True),  # a run it extends
        ("4c 5c 6c 7c 8c 9c", "10d", False),  # another suit
        ("5c 6c 7c 8c 9c 10c", "4c", True),  # extends it downward
        ("2 2 2 2 2 2", "2", True),  # the book of 2s
        ("K K K K K 2", "2", False),  # docs/rules.md "`house`": a book of its rank; a 2 is not a king
        ("K K K K K 2", "Jk", False),
    ],
)
def test_six_card_meld_is_frozen_against_the_top_discard(table, top, frozen):
    game = house("5h 6h", table=table + "|A A A", phase="draw", extra=f"pile: 9c {top}\nstock: 7s 8s")
    reason = game.why_illegal(A.TAKE_PILE)
    assert (reason is not None and "frozen" in reason) == frozen
    if frozen:
        before = fingerprint(game)
        with pytest.raises(IllegalActionError, match="frozen"):
            game.step(A.TAKE_PILE)
        assert fingerprint(game) == before
        assert game.why_illegal(A.DRAW) is None  # drawing two is still allowed


# ----------------------------------------------------------------------------- opening
@pytest.mark.parametrize("total,minimum", [(-800, 50), (4995, 50), (5000, 90), (9995, 90), (10000, 120), (15000, 150)])
def test_opening_minimum_follows_the_running_total(total, minimum):
    game = house("5h 6h", scores=f"[{total}, 0]")
    assert game.minimum(0) == minimum and game.minimum(1) == 50


def test_runs_and_books_of_twos_count_toward_the_opening():
    # 60 points of 2s is enough at 0 (minimum 50); the run of 3 (15) alone is not.
    game = house("4h 5h 6h 2 2 2 9c")
    game.step(A.start_run(HEARTS, FOUR))
    assert not game.sides[0].opened and game.seats[0].staged
    game.step(A.START_TWOS_BOOK)
    assert game.sides[0].opened and len(game.sides[0].groups) == 2


def test_staged_run_goes_back_to_the_hand_with_its_suits():
    game = house("4h 5h 6h 9c 9d", scores="[5000, 0]")
    game.step(A.start_run(HEARTS, FOUR))
    game.step(A.discard_suited(CLUBS, rank("9")))
    seat = game.seats[0]
    assert [seat.hand_suits[HEARTS][r] for r in range(3)] == [1, 1, 1] and not game.sides[0].opened


def test_partner_play_only_the_first_partner_to_open_meets_the_minimum():
    game = scenario(
        """
        preset: house
        rules: {num_players: 4, partnerships: true}
        to_move: 2
        seats:
          - {hand: random 13, foot: random 13}
          - {hand: random 13, foot: random 13}
          - {hand: 4h 5h 6h 9c, foot: random 13}
          - {hand: random 13, foot: random 13}
        tables: [{opened: true, groups: [A A A]}, {}]
        """
    )
    game.step(A.start_run(HEARTS, FOUR))  # 15 points, yet it goes straight down
    assert isinstance(game.sides[0].groups[-1], Run) and not game.seats[2].staged


# ----------------------------------------------------------------------------- the game's end
def test_game_ends_after_the_deal_that_reaches_twenty_thousand():
    table = "K K K K K K K|4c 5c 6c 7c 8c 9c 10c|Q Q Q Q 2 Jk Jk|J J J J J 2 Jk"
    game = house("Ah Ah Ah", on_foot=True, table=table, scores="[19000, 500]")
    game.step(A.start_group(ACE, 0))
    assert game.is_over and game.deal_index == 0 and game.totals[0] >= 20000
    assert game.winners() == [0]
    game = house("Ah Ah Ah", on_foot=True, table=table, scores="[1000, 500]")
    game.step(A.start_group(ACE, 0))
    assert not game.is_over and game.deal_index == 1  # below the target: another deal


def test_deal_cap_ends_games_between_weak_players():
    game = Game(Rules.preset("house", num_deals=2), seed=0)
    rng = np.random.default_rng(0)
    while not game.is_over:
        game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
    assert len(game.deal_results) == 2 and max(game.totals) < 20000


def test_stock_emptied_by_the_draw_leaves_a_legal_action_and_the_next_turn_ends_the_deal():
    # House threes are held, so a draw always brings its two cards: the player whose draw
    # empties the stock can still play (docs/rules.md "When the stock runs out", during a turn, never fires
    # in house).  The next turn begins with no stock, and the top discard needs a stock
    # card: the deal ends with no going-out bonus.
    game = house("3r 9h", extra="rules: {num_deals: 1}\nstock: 3r 3b\npile: 5c", phase="draw", on_foot=True)
    game.step(A.DRAW)
    assert game.stock == [] and not game.is_over and game.legal_mask().any()
    assert game.seats[0].hand[RED_THREE] == 2  # held, not laid down and replaced
    game.step(A.discard(BLACK_THREE))
    assert game.is_over
    result = game.deal_results[0]
    assert result.went_out is None and all(o.going_out == 0 for o in result.owners)
    assert result.owners[0].held == -(2 * 500 + 10)


def test_threes_a_partner_holds_count_against_the_team():
    # docs/rules.md, house: "Held when the deal ends, a black three costs 5 and a red three 500",
    # against the owner: in team play, the team of the seat that holds them.
    game = scenario(
        """
        preset: house
        rules: {num_players: 4, num_deals: 1}
        seats:
          - {hand: 5h 9c, on_foot: true}
          - {hand: 4c, foot: 4d}
          - {hand: 3b 3b 3r, foot: 3b 6s}
          - {hand: 4s, foot: 4h}
        stock: []
        """
    )
    game.step(A.discard_suited(HEARTS, rank("5")))  # the next turn begins with no stock: the deal ends
    team0, team1 = game.deal_results[0].owners
    assert team0.held == -(10 + 5 + 5 + 500 + 5 + 5)  # seat 0's 9; seat 2's 3b 3b 3r, and its foot's 3b 6
    assert team1.held == -(5 + 5 + 5 + 5)


@pytest.mark.parametrize(
    "make",
    [
        lambda: house("4h 5h 6h 7h K K 2 2 2 3r 9c", table="A A A|5c 6c 7c 8c 9c 10c", phase="play"),
        lambda: house("4h 5h 6h 2 2 2 9c 9d", phase="play", scores="[12000, 0]"),
        lambda: house("5h 6h", table="K K K K K 2", phase="draw", extra="pile: 9c K\nstock: 7s"),
    ],
)
def test_every_illegal_house_action_is_refused_with_the_state_untouched(make):
    assert_illegal_actions_refused(make())
