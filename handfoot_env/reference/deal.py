"""Dealing, and cards moving into hands: the reference engine's deal (docs/rules.md).

Decisions of handfoot's own (docs/rules.md "Decisions handfoot made"): hands, then feet, are dealt a card at a time from the
seat left of the dealer, and the stock is what remains; the ``classic`` upcard is turned
before dealt red threes are replaced, seat by seat from the first player; deal ``d`` of
seed ``s`` uses ``numpy.random.default_rng([s, d]).permutation`` of the pack (``cards.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from handfoot_env.cards import (
    CARD_KIND,
    CARD_SUIT,
    NUM_KINDS,
    NUM_NATURALS,
    NUM_SUITS,
    RED_THREE,
    is_natural,
    rank_of,
    shuffled_cards,
)
from handfoot_env.reference import rule_facts as facts
from handfoot_env.reference.state import DRAW_PHASE, NOT_ASKED, Seat, Side

if TYPE_CHECKING:
    from handfoot_env.reference.state import GameState


def start_deal(game: GameState) -> None:
    """Deal the hands and feet of deal ``game.deal_index`` from its shuffled pack, then open it
    (the caller begins the first turn).  Every part of the deal's state (``GameState.__init__``
    declares them) starts afresh."""
    rules = game.rules
    n = rules.num_players
    game.dealer = (game.first_dealer + game.deal_index) % n  # the dealer moves left each deal
    game.current = (game.dealer + 1) % n
    game.phase = DRAW_PHASE
    game.permission = NOT_ASKED
    game.went_out = None
    game.seats = [Seat() for _ in range(n)]
    game.sides = [Side() for _ in range(rules.num_owners)]
    game.pile = []

    # Stock and pile hold card ids: kinds, or suited naturals when runs are played.
    pack = shuffled_cards(game.seed, game.deal_index, int(rules.num_decks), suited=rules.runs)
    position = 0
    for part in ("hand", "foot"):
        for i in range(getattr(rules, f"{part}_size") * n):
            add_card(game.seats[(game.current + i) % n], int(pack[position]), part)
            position += 1
    game.stock = [int(k) for k in pack[position:][::-1]]  # the top last
    open_deal(game)


def open_deal(game: GameState) -> None:
    """The cards are dealt: turn the upcard (classic), then lay down the dealt red threes seat
    by seat from the first player."""
    n = game.rules.num_players
    if game.rules.pile_upcard:
        turn_up_first_discard(game)
    for i in range(n):  # red threes dealt into hands go down, seat by seat
        lay_down_red_threes(game, (game.current + i) % n)


def turn_up_first_discard(game: GameState) -> None:
    """classic: turn up the stock's top card; a wild or a three goes to the bottom
    (docs/rules.md "Taking the discard pile")."""
    for _ in range(len(game.stock)):
        card = game.stock.pop()
        if is_natural(int(CARD_KIND[card])):
            game.pile.append(card)
            return
        game.stock.insert(0, card)


def add_card(seat: Seat, card: int, part: str = "hand") -> None:
    """Put card id ``card`` into the seat's hand or foot (by kind, and by suit if it has one)."""
    getattr(seat, part)[int(CARD_KIND[card])] += 1
    suit = int(CARD_SUIT[card])
    if suit >= 0:
        getattr(seat, f"{part}_suits")[suit][rank_of(int(CARD_KIND[card]))] += 1


def lay_down_red_threes(game: GameState, seat_index: int) -> None:
    """Red threes in the hand go to the owner's table, each replaced from the stock."""
    if not game.rules.red_threes_laid_down:  # house: threes are held
        return
    seat = game.seats[seat_index]
    side = game.sides[facts.owner_of(game.rules, seat_index)]
    while seat.hand[RED_THREE] > 0:
        seat.hand[RED_THREE] -= 1
        side.red_threes += 1
        if game.stock:  # with an empty stock no replacement is drawn
            add_card(seat, game.stock.pop())


def receive(game: GameState, seat_index: int, card: int) -> None:
    """A card enters the hand; a red three goes down at once and is replaced."""
    add_card(game.seats[seat_index], card)
    if card == RED_THREE:
        lay_down_red_threes(game, seat_index)


def pick_up_foot(game: GameState, seat_index: int) -> None:
    seat = game.seats[seat_index]
    seat.hand, seat.foot = seat.foot, [0] * NUM_KINDS
    seat.hand_suits, seat.foot_suits = seat.foot_suits, [[0] * NUM_NATURALS for _ in range(NUM_SUITS)]
    seat.on_foot = True
    lay_down_red_threes(game, seat_index)
