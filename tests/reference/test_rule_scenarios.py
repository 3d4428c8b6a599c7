"""One scenario test per rule of docs/rules.md (shared rules, classic, partnership, staging)."""

from __future__ import annotations

import textwrap

import pytest
from helpers import A, assert_illegal_actions_refused, kind, rank, scenario

from handfoot_env.cards import RED_THREE
from handfoot_env.errors import IllegalActionError
from handfoot_env.reference import Game
from handfoot_env.rules import Rules

K, Q, NINE = rank("K"), rank("Q"), rank("9")


def opened_classic(hand: str, groups: str = "", extra: str = "", phase: str = "play") -> Game:
    """Classic, seat 0 to move, already opened with the given groups."""
    group_list = ", ".join(f"'{g}'" for g in groups.split("|") if g.strip()) or "'A A A'"
    return scenario(
        f"""
        preset: classic
        phase: {phase}
        seats:
          - {{hand: '{hand}', foot: random 11}}
          - {{hand: random 11, foot: random 11}}
        tables:
          - {{opened: true, groups: [{group_list}]}}
          - {{}}
        {extra}
        """
    )


# ----------------------------------------------------------------------------- the cards
def test_card_values_score_as_the_table_says():
    game = opened_classic("5 5", "A A A|K K 2|4 4 Jk")
    side = game.sides[0]
    assert [g.value for g in side.groups] == [60, 40, 60]


def test_classic_pack_has_players_plus_one_decks():
    assert Rules.preset("classic").total_cards == 162
    assert Rules.preset("classic", num_players=4).total_cards == 5 * 54
    assert Rules.preset("partnership").total_cards == 270


# ----------------------------------------------------------------------------- groups
def test_group_of_three_with_one_wild_is_legal_but_two_wilds_are_not():
    game = opened_classic("K K 2 Jk 5 6")
    game.step(A.start_group(K, 1))  # K K 2
    assert game.why_illegal(A.add_joker(K)) is not None  # 2 naturals, 2 wilds
    with pytest.raises(IllegalActionError, match="wild"):
        game.step(A.add_joker(K))


def test_at_most_three_wilds_and_naturals_outnumber_them():
    game = opened_classic("K K K K 2 2 Jk Jk 5")
    game.step(A.start_group(K, 0))
    game.step(A.add_natural(K))  # 4 naturals
    game.step(A.add_two(K))
    game.step(A.add_two(K))
    game.step(A.add_joker(K))  # 4 naturals + 3 wilds = a dirty book
    clean_dirty = [(g.size, g.wilds) for g in game.sides[0].groups if g.rank == K]
    assert clean_dirty == [(7, 3)]
    # The book is closed: nothing more is added to it.
    assert "no unfinished" in game.why_illegal(A.add_joker(K))


def test_fourth_wild_is_refused_even_with_room():
    rules = Rules.preset("classic")
    assert rules.wilds_allowed(4, 3)
    assert not rules.wilds_allowed(3, 4)
    assert not rules.wilds_allowed(3, 3)
    assert not rules.wilds_allowed(0, 3)


def test_group_is_a_book_at_seven_and_a_new_group_of_the_rank_may_start():
    game = opened_classic("K K K K K K K K K K 5", "A A A")
    game.step(A.start_group(K, 0))
    assert "already an unfinished group" in game.why_illegal(A.start_group(K, 0))
    for _ in range(4):
        game.step(A.add_natural(K))
    assert game.why_illegal(A.start_group(K, 0)) is None  # the first is a book now
    game.step(A.start_group(K, 0))
    sizes = sorted(g.size for g in game.sides[0].groups if g.rank == K)
    assert sizes == [3, 7]


def test_wild_limit_variations():
    by_size = Rules.preset("classic", wild_limit="by_size")
    assert by_size.wilds_allowed(2, 1) and not by_size.wilds_allowed(3, 2)
    assert by_size.wilds_allowed(4, 2) and not by_size.wilds_allowed(4, 3)
    four = Rules.preset("classic", wild_limit="four_naturals")
    assert not four.wilds_allowed(2, 1) and four.wilds_allowed(4, 1) and four.wilds_allowed(4, 3)
    game = scenario(
        """
        preset: classic
        rules: {wild_limit: four_naturals}
        seats: [{hand: K K 2 5 6, foot: random 11}, {hand: random 11, foot: random 11}]
        tables: [{opened: true, groups: [A A A]}, {}]
        """
    )
    assert "wild" in game.why_illegal(A.start_group(K, 1))


# ----------------------------------------------------------------------------- opening
OPENING_EXAMPLE = """
preset: classic
deal: {deal}
seats:
  - {{hand: K K K Q Q Q 5 9, foot: random 11}}
  - {{hand: random 11, foot: random 11}}
"""


def test_the_opening_example_opens_in_deal_1():
    game = scenario(OPENING_EXAMPLE.format(deal=1))
    assert game.minimum(0) == 50
    game.step(A.start_group(K, 0))  # 30 points staged: not yet down
    assert not game.sides[0].opened and len(game.seats[0].staged) == 1
    game.step(A.start_group(Q, 0))  # 60 >= 50: both go down together
    assert game.sides[0].opened
    assert sorted(g.rank for g in game.sides[0].groups) == [Q, K]
    assert game.seats[0].staged == []


def test_the_opening_example_does_not_open_in_deal_3():
    game = scenario(OPENING_EXAMPLE.format(deal=3))
    assert game.minimum(0) == 120
    before = sorted(game.seats[0].hand)
    game.step(A.start_group(K, 0))
    game.step(A.start_group(Q, 0))
    assert not game.sides[0].opened and game.sides[0].groups == []
    game.step(A.discard(kind("5")))  # the staged groups go back to the hand
    hand = game.seats[0].hand
    assert hand[kind("K")] == 3 and hand[kind("Q")] == 3 and hand[kind("9")] == 1
    assert game.seats[0].staged == [] and not game.sides[0].opened
    assert sum(before) - 1 == sum(game.seats[0].hand)


@pytest.mark.parametrize("deal,minimum", [(1, 50), (2, 90), (3, 120), (4, 150)])
def test_minimum_rises_each_deal(deal, minimum):
    for preset in ("classic", "partnership"):
        n = 4 if preset == "partnership" else 2
        seats = "\n".join("  - {hand: random 11, foot: random 11}" for _ in range(n))
        game = scenario(f"preset: {preset}\ndeal: {deal}\nseats:\n{seats}\n")
        assert game.minimum(0) == minimum


def test_after_opening_further_groups_need_no_minimum():
    game = scenario(OPENING_EXAMPLE.format(deal=1).replace("5 9", "4 4 4 9"))
    game.step(A.start_group(K, 0))
    game.step(A.start_group(Q, 0))
    game.step(A.start_group(rank("4"), 0))  # 15 points, laid straight down
    assert len(game.sides[0].groups) == 3 and game.seats[0].staged == []


def test_minimum_ladder_variation():
    """deal_minimums (60, 90, 120, 150): in deal 1, 55 points staged stay staged (they would
    open under the usual 50) and 85 open."""
    game = scenario(
        {  # a scenario's YAML cannot write the tuple deal_minimums is
            "preset": "classic",
            "rules": {"deal_minimums": (60, 90, 120, 150)},
            "seats": [
                {"hand": "K K K 5 5 5 5 5 9 9 9 4", "foot": "random 11"},
                {"hand": "random 11", "foot": "random 11"},
            ],
        }
    )
    assert game.minimum(0) == 60
    game.step(A.start_group(K, 0))  # K K K: 30
    game.step(A.start_group(rank("5"), 0))  # 5 5 5: 45
    game.step(A.add_natural(rank("5")))  # 50: the usual minimum, not this ladder's
    game.step(A.add_natural(rank("5")))  # 55
    assert not game.sides[0].opened and len(game.seats[0].staged) == 2
    game.step(A.start_group(NINE, 0))  # 9 9 9: 85 >= 60
    assert game.sides[0].opened and game.seats[0].staged == []


# ----------------------------------------------------------------------------- the turn
def test_turn_is_draw_meld_discard():
    game = scenario(
        """
        preset: classic
        phase: draw
        seats: [{hand: K K K 5, foot: random 11}, {hand: random 11, foot: random 11}]
        tables: [{opened: true, groups: [A A A]}, {}]
        stock: 7 8 9 10
        """
    )
    assert "draw or take" in game.why_illegal(A.start_group(K, 0))
    assert "before discarding" in game.why_illegal(A.discard(kind("5")))
    game.step(A.DRAW)
    assert game.seats[0].hand[kind("7")] == 1 and game.seats[0].hand[kind("8")] == 1
    assert "already drawn" in game.why_illegal(A.DRAW)
    game.step(A.start_group(K, 0))
    game.step(A.discard(kind("5")))
    assert game.current == 1 and game.phase == "draw" and game.pile[-1] == kind("5")


# ----------------------------------------------------------------------------- red threes
def test_red_threes_dealt_go_down_and_are_replaced():
    for seed in range(30):
        game = Game(Rules.preset("classic"), seed)
        for seat in game.seats:
            assert seat.hand[RED_THREE] == 0
            assert sum(seat.hand) == 11  # each red three was replaced
        if any(s.red_threes for s in game.sides):
            return
    pytest.fail("no seed dealt a red three")


def test_drawn_red_three_goes_down_and_is_replaced():
    game = scenario(
        """
        preset: classic
        phase: draw
        seats: [{hand: 5 6, foot: random 11}, {hand: random 11, foot: random 11}]
        stock: 3r 7 8
        """
    )
    game.step(A.DRAW)
    assert game.sides[0].red_threes == 1
    hand = game.seats[0].hand
    assert hand[kind("7")] == 1 and hand[kind("8")] == 1 and sum(hand) == 4


def test_red_three_with_empty_stock_gets_no_replacement():
    game = scenario(
        """
        preset: classic
        phase: draw
        seats: [{hand: 5 6, foot: random 11}, {hand: random 11, foot: random 11}]
        stock: 7 3r
        """
    )
    game.step(A.DRAW)
    assert game.sides[0].red_threes == 1 and sum(game.seats[0].hand) == 3 and game.stock == []


def test_red_threes_in_the_foot_go_down_when_it_is_picked_up():
    game = scenario(
        """
        preset: classic
        seats: [{hand: K K K, foot: 3r 3r 5 6 7 8 9 10 J Q A}, {hand: random 11, foot: random 11}]
        tables: [{opened: true, groups: [A A A]}, {}]
        stock: 4 4 9
        """
    )
    game.step(A.start_group(K, 0))  # hand used up by melding: the foot comes up
    seat = game.seats[0]
    assert seat.on_foot and game.sides[0].red_threes == 2
    assert seat.hand[RED_THREE] == 0 and seat.hand[kind("4")] == 2 and sum(seat.hand) == 11


# ----------------------------------------------------------------------------- the pile
CLASSIC_TAKE = """
preset: classic
phase: draw
seats: [{{hand: 9 9 5 6, foot: random 11}}, {{hand: random 11, foot: random 11}}]
tables: [{{opened: {opened}, groups: [{groups}]}}, {{}}]
pile: {pile}
"""


def take_game(pile="4 4 5 6 7 8 J Q 9", opened="true", groups="K K K"):
    return scenario(CLASSIC_TAKE.format(pile=pile, opened=opened, groups=groups))


def test_take_pile_melds_top_and_pair_and_takes_six():
    game = take_game()
    game.step(A.TAKE_PILE)
    nines = [g for g in game.sides[0].groups if g.rank == NINE]
    assert len(nines) == 1 and nines[0].naturals == 3
    assert game.pile == [kind("4"), kind("4")]  # the rest of the pile stays
    hand = game.seats[0].hand
    for name, count in (("5", 2), ("6", 2), ("7", 1), ("8", 1), ("J", 1), ("Q", 1), ("9", 0)):
        assert hand[kind(name)] == count, name
    assert game.phase == "play"


def test_take_onto_an_existing_group_up_to_seven():
    game = take_game(groups="9 9 9 9")
    game.step(A.TAKE_PILE)
    assert [g.size for g in game.sides[0].groups if g.rank == NINE] == [7]


def test_take_refused_when_the_group_would_pass_seven():
    game = take_game(groups="9 9 9 9 9")
    assert "more than 7" in game.why_illegal(A.TAKE_PILE)


@pytest.mark.parametrize("top", ["2", "Jk", "3b"])
def test_wild_or_black_three_on_top_blocks_the_pile(top):
    game = take_game(pile=f"4 4 5 6 7 8 J Q {top}")
    assert "blocks the pile" in game.why_illegal(A.TAKE_PILE)


def test_black_three_blocks_only_until_covered():
    game = take_game(pile="4 4 5 6 7 8 J 3b 9")
    assert game.why_illegal(A.TAKE_PILE) is None


def test_take_needs_a_natural_pair_in_hand():
    game = take_game(pile="4 4 5 6 7 8 J Q K")
    assert "two natural K" in game.why_illegal(A.TAKE_PILE)


def test_classic_take_needs_seven_cards_and_an_opened_player():
    assert "at least 7" in take_game(pile="5 6 7 8 J 9").why_illegal(A.TAKE_PILE)
    assert "must open" in take_game(opened="false", groups="").why_illegal(A.TAKE_PILE)


def test_classic_pile_starts_with_a_natural_upcard():
    for seed in range(20):
        game = Game(Rules.preset("classic"), seed)
        assert len(game.pile) == 1 and game.pile[0] >= 4


def test_classic_upcard_wild_or_three_goes_to_the_bottom():
    game = scenario(
        """
        preset: classic
        start: true
        dealer: 1
        seats: [{hand: random 11, foot: random 11}, {hand: random 11, foot: random 11}]
        stock: 2 3b 7 8
        """
    )
    assert game.pile == [kind("7")]
    assert game.stock == [kind("3b"), kind("2"), kind("8")]  # top is the end: 8, then 2, then 3b
    assert game.current == 0 and game.phase == "draw"


def test_dealt_red_threes_go_down_seat_by_seat_from_the_player_left_of_the_dealer():
    game = scenario(
        """
        preset: classic
        start: true
        dealer: 0
        seats: [{hand: 3r 5 6, foot: random 11}, {hand: 3r 9 9, foot: random 11}]
        stock: Q K A 7 8 9 10
        """
    )
    # Top first: the upcard (Q); then seat 1, left of the dealer, replaces its three with K,
    # then seat 0 with A.
    assert game.pile == [kind("Q")] and game.deal_index == 0
    assert game.seats[1].hand[kind("K")] == 1 and game.seats[0].hand[kind("A")] == 1
    assert [side.red_threes for side in game.sides] == [1, 1]
    assert game.current == 1 and game.dealer == 0


def test_the_dealer_moves_left_after_a_scenario_deal():
    game = scenario(
        """
        preset: classic
        rules: {num_deals: 2}
        dealer: 0
        to_move: 1
        phase: play
        seats: [{hand: 5 9, foot: 4}, {hand: 8 8, foot: 4}]
        stock: 7
        """
    )
    game.step(A.discard(kind("8")))  # seat 0 cannot draw or take: the deal ends
    assert game.deal_index == 1 and game.dealer == 1 and game.current == 0


def test_pile_take_variations():
    game = scenario(
        CLASSIC_TAKE.format(pile="4 4 5 6 7 8 J Q 9", opened="true", groups="K K K").replace(
            "preset: classic", "preset: classic\nrules: {pile_take_count: 5}"
        )
    )
    game.step(A.TAKE_PILE)
    assert len(game.pile) == 4  # top + 4 taken
    game = scenario(
        CLASSIC_TAKE.format(pile="4 4 5 6 7 8 J Q 9", opened="true", groups="K K K").replace(
            "preset: classic", "preset: classic\nrules: {pile_take_count: null}"
        )
    )
    game.step(A.TAKE_PILE)
    assert game.pile == []
    game = scenario(
        CLASSIC_TAKE.format(pile="4 4 5 6 7 8 J Q 9", opened="true", groups="K K K").replace(
            "preset: classic", "preset: classic\nrules: {pile_take_count: 0}"
        )
    )
    assert "do not allow" in game.why_illegal(A.TAKE_PILE)


# ----------------------------------------------------------------------------- the foot
def test_hand_used_up_by_melding_picks_up_the_foot_and_the_turn_goes_on():
    game = opened_classic("K K K")
    game.step(A.start_group(K, 0))
    seat = game.seats[0]
    assert seat.on_foot and sum(seat.hand) == 11 and sum(seat.foot) == 0
    assert game.current == 0 and game.phase == "play"


def test_hand_used_up_by_the_discard_foot_waits_for_next_turn():
    game = opened_classic("5")
    game.step(A.discard(kind("5")))
    seat = game.seats[0]
    assert seat.on_foot and sum(seat.hand) == 11
    assert game.current == 1


def test_two_card_rule_from_the_foot():
    base = """
    preset: classic
    seats:
      - {{hand: K K K 5, on_foot: true}}
      - {{hand: random 11, foot: random 11}}
    tables: [{{opened: true, groups: [{groups}]}}, {{}}]
    """
    game = scenario(base.format(groups="Q Q Q Q Q Q Q"))  # one clean book, no dirty book
    assert "at least 2 cards" in game.why_illegal(A.start_group(K, 0))
    game = scenario(base.format(groups="Q Q Q Q Q Q Q, J J J J J 2 2"))
    assert game.why_illegal(A.start_group(K, 0)) is None


def test_two_card_rule_does_not_apply_to_the_hand():
    game = opened_classic("K K K 5")
    assert game.why_illegal(A.start_group(K, 0)) is None


# ----------------------------------------------------------------------------- going out
GOING_OUT = """
preset: classic
rules: {{num_deals: 1{extra}}}
seats:
  - {{hand: '{hand}', on_foot: true}}
  - {{hand: 4 4, foot: 5}}
tables: [{{opened: true, groups: [Q Q Q Q Q Q Q, J J J J J 2 2]}}, {{}}]
"""


def test_going_out_by_melding_the_last_cards():
    game = scenario(GOING_OUT.format(hand="K K K", extra=""))
    game.step(A.start_group(K, 0))
    assert game.is_over
    result = game.deal_results[0]
    assert result.went_out == 0 and result.owners[0].going_out == 100 and result.owners[1].going_out == 0


def test_going_out_by_discarding_the_last_card():
    game = scenario(GOING_OUT.format(hand="K K K 5", extra=""))
    game.step(A.start_group(K, 0))
    game.step(A.discard(kind("5")))
    assert game.is_over and game.deal_results[0].went_out == 0


def test_must_finish_with_a_discard_variation():
    game = scenario(GOING_OUT.format(hand="K K K", extra=", go_out_by_meld: false"))
    assert "finish with a discard" in game.why_illegal(A.start_group(K, 0))


def test_going_out_needs_the_foot_played():
    game = scenario(GOING_OUT.format(hand="5", extra="").replace("on_foot: true", "foot: random 11"))
    game.step(A.discard(kind("5")))  # hand used up by a discard: the foot comes up, no going out
    assert not game.is_over and game.seats[0].on_foot and game.current == 1


# ----------------------------------------------------------------------------- stock out
def test_stock_exhausted_ends_the_deal_without_bonus():
    game = scenario(
        """
        preset: classic
        rules: {num_deals: 1}
        seats: [{hand: 5 9, foot: 4}, {hand: 8 8, foot: 4}]
        stock: 7
        """
    )
    game.step(A.discard(kind("5")))
    assert game.is_over
    assert game.deal_results[0].went_out is None
    assert all(o.going_out == 0 for o in game.deal_results[0].owners)


def test_low_stock_with_a_legal_take_plays_on():
    game = scenario(
        """
        preset: classic
        seats: [{hand: 8 9, foot: 4}, {hand: 8 8 6, foot: 4}]
        tables: [{}, {opened: true, groups: [A A A]}]
        pile: 4 4 4 4 5 6
        stock: 7
        """
    )
    game.step(A.discard(kind("8")))
    assert not game.is_over and game.current == 1
    assert game.why_illegal(A.DRAW) is not None and game.why_illegal(A.TAKE_PILE) is None


# ----------------------------------------------------------------------------- stock emptied mid-turn
STUCK = """
preset: {preset}
rules: {{num_deals: 1}}
to_move: {seat}
phase: draw
seats:
{seats}
tables:
{tables}
pile: 4 5
stock: 3r 3r
"""


# The other seats' cards in the stuck deals: held, they cost 10+5+50+20+5 = 90 (hand) and
# 20+20+10+10+10+5+5+5+5+5+5 = 100 (foot), by the card values of docs/rules.md.
OTHER_SEAT = "  - {hand: K 5 Jk 2 4, foot: A A 9 9 8 7 6 5 4 4 3b}"


def stuck_game(preset: str, seat: int, hand: str = "9"):
    """Seat ``seat`` on its foot with ``hand``, its side short of books, the stock two red threes."""
    n = 4 if preset == "partnership" else 2
    seats = "\n".join(f"  - {{hand: '{hand}', on_foot: true}}" if i == seat else OTHER_SEAT for i in range(n))
    tables = "  - {opened: true, groups: [A A A]}\n  - {opened: true, groups: [Q Q Q Q Q Q Q]}"
    if preset == "partnership" and seat % 2 == 1:
        tables = "  - {opened: true, groups: [Q Q Q Q Q Q Q]}\n  - {opened: true, groups: [A A A]}"
    return scenario(STUCK.format(preset=preset, seat=seat, seats=seats, tables=tables))


@pytest.mark.parametrize("preset,seat,partner_cost", [("classic", 0, 0), ("partnership", 3, 90 + 100)])
def test_stock_emptied_mid_turn_without_a_legal_action_ends_the_deal(preset, seat, partner_cost):
    # The regression of a trained agent's evaluation (partnership, seat 3): on its foot with one
    # card, its side without the books, the draw's red-three replacements emptied the stock.
    # No meld is possible and the discard would go out without the books: the deal ends.
    game = stuck_game(preset, seat)
    game.step(A.DRAW)
    assert game.is_over
    result = game.deal_results[0]
    owner = game.rules.owner_of(seat)
    assert result.went_out is None and all(o.going_out == 0 for o in result.owners)
    assert result.ended_by == "no legal action"
    mine = result.owners[owner]
    # Scored as usual: the 9 still in hand counts against (10, with a partner's hand and foot),
    # the two red threes for, the A A A on the table at 20 each.
    assert (mine.melded, mine.red_threes, mine.held) == (60, 200, -10 - partner_cost)


def test_stock_emptied_mid_turn_plays_on_while_a_legal_action_remains():
    game = stuck_game("classic", 0, hand="9 9 5")
    game.step(A.DRAW)
    assert game.stock == [] and not game.is_over and game.phase == "play"
    game.step(A.discard(kind("5")))
    # The next turn begins with no stock and no take: the deal ends by exhaustion.
    assert game.is_over and game.deal_results[0].went_out is None
    assert game.deal_results[0].ended_by == "stock exhausted"


def test_every_position_after_the_stuck_deal_has_a_legal_action():
    game = stuck_game("partnership", 3)
    game.game.rules = game.rules.replace(num_deals=2)
    game.engine.__init__(game.rules, batch_size=1, auto_reset=False)
    game.engine.load_position(0, game.game)
    game.step(A.DRAW)
    assert not game.is_over and game.deal_index == 1
    assert game.legal_mask().any() and game.current == 0 and game.dealer == 3


# ----------------------------------------------------------------------------- scoring
def test_deal_scoring_breakdown():
    game = scenario(
        """
        preset: classic
        rules: {num_deals: 1}
        seats:
          - {hand: 5 A, foot: 4 4}
          - {hand: 4 3b, foot: Jk 2}
        tables:
          - {opened: true, red_threes: 1, groups: [K K K K K K K, Q Q Q Q Q 2 Jk, 9 9 9]}
          - {}
        stock: 7
        """
    )
    so_far = game.score_so_far()  # the public score sheet of the deal in progress
    assert so_far.ended_by == "in progress" and so_far.owners[0].held == -(5 + 20 + 5 + 5)
    game.step(A.discard(kind("5")))
    assert game.is_over
    p0, p1 = game.deal_results[0].owners
    assert (p0.melded, p0.book_bonus, p0.red_threes, p0.going_out, p0.held) == (220, 800, 100, 0, -30)
    assert p0.total == 1090
    assert p1.total == -80  # a score may be negative
    assert game.totals == [1090, -80]


def test_book_bonus_variation():
    """clean_book_bonus 300 and dirty_book_bonus 100: the deal of the scoring breakdown above,
    a clean and a dirty book, scores 300 + 100 in book bonuses."""
    game = scenario(
        """
        preset: classic
        rules: {num_deals: 1, clean_book_bonus: 300, dirty_book_bonus: 100}
        seats:
          - {hand: 5 A, foot: 4 4}
          - {hand: 4 3b, foot: Jk 2}
        tables:
          - {opened: true, red_threes: 1, groups: [K K K K K K K, Q Q Q Q Q 2 Jk, 9 9 9]}
          - {}
        stock: 7
        """
    )
    game.step(A.discard(kind("5")))
    p0 = game.deal_results[0].owners[0]
    assert (p0.melded, p0.book_bonus, p0.total) == (220, 400, 220 + 400 + 100 - 30)


def test_equal_totals_tie():
    game = scenario(
        """
        preset: classic
        rules: {num_deals: 1}
        seats: [{hand: 5 5 9, foot: 4}, {hand: 9 5, foot: 4}]
        stock: 7
        """
    )
    game.step(A.discard(kind("5")))
    assert game.is_over and game.totals[0] == game.totals[1] and game.winners() == [0, 1]


def test_four_deals_dealer_moves_left():
    from helpers import play_random

    for n in (2, 3):
        game = Game(Rules.preset("classic", num_players=n), seed=5)
        seen = []

        def watch(g, seen=seen):
            if not g.is_over and (not seen or seen[-1][0] != g.deal_index):
                seen.append((g.deal_index, g.dealer))

        seen.append((0, game.dealer))
        assert game.current == 0  # seat 0 starts deal 1
        play_random(game, 5, check=watch)
        assert [d for d, _ in seen] == [0, 1, 2, 3]
        assert [dealer for _, dealer in seen] == [(n - 1 + d) % n for d in range(4)]
        assert len(game.deal_results) == 4
        assert game.totals == [sum(d.scores[o] for d in game.deal_results) for o in range(n)]


@pytest.mark.parametrize("deals", [1, 2])
def test_short_games(deals):
    from helpers import play_random

    game = play_random(Game(Rules.preset("classic", num_deals=deals), seed=1), 1)
    assert len(game.deal_results) == deals


# ----------------------------------------------------------------------------- staging
def test_staging_may_not_leave_no_card_to_discard():
    game = scenario(OPENING_EXAMPLE.format(deal=3).replace("K K K Q Q Q 5 9", "K K K"))
    assert "no card to discard" in game.why_illegal(A.start_group(K, 0))
    game = scenario(OPENING_EXAMPLE.format(deal=3).replace("K K K Q Q Q 5 9", "K K K 5"))
    assert game.why_illegal(A.start_group(K, 0)) is None


def test_classic_does_not_stage_before_the_draw():
    game = scenario(OPENING_EXAMPLE.format(deal=1) + "phase: draw\n")
    assert "draw or take" in game.why_illegal(A.start_group(K, 0))


def test_staged_wild_counts_toward_the_minimum():
    game = scenario(OPENING_EXAMPLE.format(deal=1).replace("Q Q Q 5 9", "Jk 5 9"))
    game.step(A.start_group(K, 0))
    assert not game.sides[0].opened
    game.step(A.add_joker(K))  # 30 + 50 = 80 >= 50
    assert game.sides[0].opened


# ----------------------------------------------------------------------------- partnership
def partnership(extra: str, hand0: str = "random 11", phase: str = "play", deal: int = 1) -> Game:
    return scenario(
        textwrap.dedent(f"""
        preset: partnership
        deal: {deal}
        phase: {phase}
        seats:
          - {{hand: '{hand0}', foot: random 11}}
          - {{hand: random 11, foot: random 11}}
          - {{hand: K 5 6, foot: random 11}}
          - {{hand: random 11, foot: random 11}}
        """)
        + extra
    )


def test_partnership_pack_and_empty_pile():
    game = Game(Rules.preset("partnership"), 3)
    assert game.rules.total_cards == 270 and game.pile == []
    assert game.rules.owner_of(0) == game.rules.owner_of(2) == 0
    assert game.rules.owner_of(1) == game.rules.owner_of(3) == 1


def test_partners_share_groups_and_the_opening():
    game = partnership("tables: [{opened: true, groups: [K K K]}, {}]", hand0="K 5 6")
    game.current = 2
    assert game.why_illegal(A.add_natural(K)) is None  # seat 2 adds to the team's group
    assert "already an unfinished group" in game.why_illegal(A.start_group(K, 0))
    game.step(A.add_natural(K))
    assert [g.size for g in game.sides[0].groups] == [4]


def test_partnership_take_has_no_minimum_pile_size():
    game = partnership("tables: [{opened: true, groups: [A A A]}, {}]\npile: 9", hand0="9 9 5", phase="draw")
    assert game.why_illegal(A.TAKE_PILE) is None
    game.step(A.TAKE_PILE)
    assert game.pile == [] and game.phase == "play"


def test_partnership_take_opens_with_staged_groups():
    game = partnership("pile: 4 A A A A A A 9", hand0="K K K 9 9 5", phase="draw")
    # 9 + pair = 30 < 50; cards from the pile never count.
    assert "opening minimum is 50" in game.why_illegal(A.TAKE_PILE)
    game.step(A.start_group(K, 0))  # staging before the draw
    assert not game.sides[0].opened
    assert game.why_illegal(A.TAKE_PILE) is None  # 30 staged + 30 = 60
    game.step(A.TAKE_PILE)
    assert game.sides[0].opened
    assert sorted(g.rank for g in game.sides[0].groups) == [NINE, K]
    assert game.seats[0].hand[kind("A")] == 6 and game.pile == [kind("4")]


def test_partnership_red_three_penalty_for_a_team_that_never_opened():
    game = scenario(
        """
        preset: partnership
        rules: {num_deals: 1}
        seats:
          - {hand: 5 9, foot: 4}
          - {hand: 8 8, foot: 4}
          - {hand: 4, foot: 4}
          - {hand: 4, foot: 4}
        tables: [{opened: false, red_threes: 2}, {opened: true, red_threes: 1, groups: [A A A]}]
        stock: 7
        """
    )
    game.step(A.discard(kind("5")))
    assert game.is_over
    team0, team1 = game.deal_results[0].owners
    assert team0.red_threes == -200 and team1.red_threes == 100
    # Both partners' hands and feet count against the team.
    assert team0.held == -(10 + 5 + 5 + 5)  # seat 0: 9 and foot 4; seat 2: 4 and foot 4


def test_partnership_needs_two_clean_and_two_dirty_books():
    game = scenario(
        """
        preset: partnership
        seats:
          - {hand: K K K, on_foot: true}
          - {hand: random 11, foot: random 11}
          - {hand: random 11, foot: random 11}
          - {hand: random 11, foot: random 11}
        tables:
          - {opened: true, groups: [Q Q Q Q Q Q Q, J J J J J J J, 10 10 10 10 10 2 2]}
          - {}
        """
    )
    assert "2 clean and 2 dirty" in game.why_illegal(A.start_group(K, 0))


# ----------------------------------------------------------------------------- illegal actions
@pytest.mark.parametrize(
    "make",
    [
        lambda: take_game(),
        lambda: opened_classic("K K 2 Jk 5 6"),
        lambda: scenario(OPENING_EXAMPLE.format(deal=3)),
        lambda: partnership("pile: 4 A A 9", hand0="K K K 9 9 5", phase="draw"),
    ],
)
def test_every_illegal_action_is_refused_with_the_state_untouched(make):
    assert_illegal_actions_refused(make())


def test_out_of_range_and_non_integer_actions_are_refused():
    game = take_game()
    for bad in (-1, A.NUM_ACTIONS, 10**6, "draw", 1.5, None, True):
        with pytest.raises(ValueError):
            game.step(bad)


def test_classic_players_never_add_to_another_players_groups():
    game = scenario(
        """
        preset: classic
        to_move: 1
        seats: [{hand: random 11, foot: random 11}, {hand: K 5 6, foot: random 11}]
        tables: [{opened: true, groups: [K K K]}, {opened: true, groups: [A A A]}]
        """
    )
    assert "no unfinished group of K" in game.why_illegal(A.add_natural(K))
