"""Transitions: what each legal action does to a reference game (docs/rules.md, turn by turn).

``apply`` checks the action (``legality.why_illegal``) and refuses an illegal one with the
state untouched; the rest of this module is one function per rule step.  Decisions of
handfoot's own: a hand used up by the discard is replaced by the foot at once (its red
threes go down then) and played from on the next turn (docs/rules.md "The foot and going out"); in ``house`` a natural
going into a book leaves the hand from its shortest suit (``book_suit``), and taking the
top discard draws the stock card first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from handfoot_env import actions as A
from handfoot_env.cards import (
    CARD_KIND,
    CARD_SUIT,
    JOKER,
    NUM_KINDS,
    NUM_NATURALS,
    NUM_SUITS,
    RED_THREE,
    TWO,
    natural_kind,
    rank_of,
    suited_id,
)
from handfoot_env.errors import IllegalActionError
from handfoot_env.reference import deal, legality
from handfoot_env.reference.melds import MeldPlan, meld_plan
from handfoot_env.reference.scoring import score_deal
from handfoot_env.reference.state import (
    ASKED,
    DRAW_PHASE,
    GAME_OVER,
    GOING_OUT,
    GRANTED,
    NO_LEGAL_ACTION,
    NOT_ASKED,
    PLAY_PHASE,
    REFUSED,
    STOCK_EXHAUSTED,
    Group,
    Seat,
    Side,
    unfinished_group,
)

if TYPE_CHECKING:
    from handfoot_env.reference.state import GameState


def apply(game: GameState, action: int) -> None:
    """Apply one legal action; raise :class:`IllegalActionError` (state untouched) otherwise."""
    reason = legality.why_illegal(game, action)
    if reason is not None:
        raise IllegalActionError(action, A.describe(action, game.rules), reason)
    act = A.decode(action)
    game.actions.append(int(action))
    if act.kind == "draw":
        draw(game)
    elif act.kind == "take_pile":
        take_top_discard(game) if game.rules.draw_one_plus_discard else take_pile(game)
    elif act.kind == "take_with_wild":
        take_pile(game, wild=act.card)
    elif act.kind == "take_onto_table":
        take_pile(game, onto_table=True)
    elif act.kind == "ask_to_go_out":
        game.permission = ASKED  # the partner is to move until it answers
    elif act.kind in ("answer_yes", "answer_no"):
        game.permission = GRANTED if act.kind == "answer_yes" else REFUSED
    elif act.kind == "discard":
        discard(game, act.card)
    elif act.kind == "discard_suited":
        discard(game, suited_id(act.suit, act.rank))
    else:
        meld(game, act)
    end_deal_if_stuck(game)


def end_deal_if_stuck(game: GameState) -> None:
    """docs/rules.md "When the stock runs out", during a turn: red-three replacements can empty the stock
    mid-turn and leave the mover without a legal action; the deal then ends, no bonus."""
    if game.phase != GAME_OVER and not game.stock and not legality.legal_mask(game).any():
        end_deal(game, went_out=None, ended_by=NO_LEGAL_ACTION)


def draw(game: GameState) -> None:
    for _ in range(game.rules.draw_count):
        if game.stock:  # red-three replacements may have emptied it
            deal.receive(game, game.current, game.stock.pop())
    game.phase = PLAY_PHASE


def show(seat: Seat, kind: int, count: int) -> None:
    """``count`` cards of ``kind`` leave the hand in sight of the table: the seat surely
    holds that many fewer of its known cards of the kind (it may have played unknown ones)."""
    seat.known[kind] = max(seat.known[kind] - count, 0)


def show_staged(seat: Seat) -> None:
    """The staged melds go down: their cards are seen to leave the hand."""
    for group in seat.staged:
        for kind, count in enumerate(group.counts()):
            show(seat, kind, count)


def receive_in_sight(game: GameState, card: int) -> None:
    """A card from the pile enters the mover's hand face up: the table knows it is held
    (a red three that goes straight down is not)."""
    deal.receive(game, game.current, card)
    kind = int(CARD_KIND[card])
    if not (game.rules.red_threes_laid_down and kind == RED_THREE):
        game.seats[game.current].known[kind] += 1


def take_top_discard(game: GameState) -> None:
    """House: one card from the stock, then the top discard, into the hand."""
    deal.receive(game, game.current, game.stock.pop())
    receive_in_sight(game, game.pile.pop())
    game.phase = PLAY_PHASE


def take_pile(game: GameState, wild: int | None = None, onto_table: bool = False) -> None:
    """Take the pile: its top card goes down with a pair of it from the hand, or (variations)
    with one natural and the wild ``wild``, or alone onto the side's group (``onto_table``);
    then the next cards of the pile go to the hand."""
    rules = game.rules
    seat = game.seats[game.current]
    side = game.sides[game.owner()]
    top = int(CARD_KIND[game.pile.pop()])
    from_hand = [0] * NUM_KINDS  # the cards that go down with the top card
    if not onto_table:
        from_hand[top] = 2 if wild is None else 1
        if wild is not None:
            from_hand[wild] = 1
    for kind, count in enumerate(from_hand):
        seat.hand[kind] -= count
        show(seat, kind, count)
    if not side.opened:  # groups staged before the take go down with it
        show_staged(seat)
    groups = side.groups if side.opened else seat.staged
    target = unfinished_group(groups, rank_of(top), rules.book_size)
    if target is None:
        target = Group(rank_of(top))
        groups.append(target)
    target.naturals += 1 + from_hand[top]
    target.twos += from_hand[TWO]
    target.jokers += from_hand[JOKER]
    if not side.opened:  # the take reached the minimum together with the staged groups
        open_side(game, seat, side)
    count = len(game.pile) if rules.pile_take_count is None else rules.pile_take_count - 1
    for _ in range(min(count, len(game.pile))):
        receive_in_sight(game, game.pile.pop())
    game.phase = PLAY_PHASE
    after_meld(game)


def open_side(game: GameState, seat: Seat, side: Side) -> None:
    side.groups.extend(seat.staged)
    seat.staged = []
    seat.staged_suits = [[0] * NUM_NATURALS for _ in range(NUM_SUITS)]
    side.opened = True


def book_suit(game: GameState, seat: Seat, rank: int) -> int:
    """The suit a natural of ``rank`` leaves the hand from when it goes into a book:
    the suit the hand holds fewest cards of (ties: clubs first), keeping runs' suits."""
    held = [suit for suit in range(NUM_SUITS) if seat.hand_suits[suit][rank] > 0]
    return min(held, key=lambda suit: (sum(seat.hand_suits[suit]), suit))


def move_natural(seat: Seat, suit: int, rank: int, staging: bool) -> None:
    seat.hand_suits[suit][rank] -= 1
    if staging:  # remembered so that the card can go back to the hand
        seat.staged_suits[suit][rank] += 1


def meld(game: GameState, act: A.Action) -> None:
    rules = game.rules
    seat = game.seats[game.current]
    side = game.sides[game.owner()]
    groups = side.groups if side.opened else seat.staged
    plan = meld_plan(rules, act, groups, not side.opened)
    assert isinstance(plan, MeldPlan), plan  # apply checked the action: the plan is no reason
    need, suited, current, result = plan.need, plan.suited, plan.current, plan.result
    if rules.runs:  # the naturals leave the hand by suit: a run's own, a book's by _book_suit
        for suit, r in suited:
            move_natural(seat, suit, r, staging=not side.opened)
        if act.is_group_action:
            for _ in range(need[natural_kind(act.rank)]):
                move_natural(seat, book_suit(game, seat, act.rank), act.rank, staging=not side.opened)
    for k in range(NUM_KINDS):
        seat.hand[k] -= need[k]
        if side.opened:
            show(seat, k, need[k])
    if current is None:
        groups.append(result)
    else:
        groups[next(i for i, g in enumerate(groups) if g is current)] = result
    if not side.opened:
        if seat.staged_value < game.minimum(game.owner()):
            return  # still staging
        show_staged(seat)
        open_side(game, seat, side)
    after_meld(game)


def after_meld(game: GameState) -> None:
    """A hand used up by melding: go out from the foot, or pick the foot up and go on."""
    seat = game.seats[game.current]
    if seat.hand_size > 0:
        return
    if seat.on_foot:
        end_deal(game, went_out=game.current)
    else:
        deal.pick_up_foot(game, game.current)


def discard(game: GameState, card: int) -> None:
    seat = game.seats[game.current]
    kind, suit = int(CARD_KIND[card]), int(CARD_SUIT[card])
    seat.hand[kind] -= 1
    show(seat, kind, 1)
    if suit >= 0:
        seat.hand_suits[suit][rank_of(kind)] -= 1
    game.pile.append(card)
    for group in seat.staged:  # staged melds that never reached the minimum go back
        for k, c in enumerate(group.counts()):
            seat.hand[k] += c
    for suit in range(NUM_SUITS):
        for r in range(NUM_NATURALS):
            seat.hand_suits[suit][r] += seat.staged_suits[suit][r]
    seat.staged = []
    seat.staged_suits = [[0] * NUM_NATURALS for _ in range(NUM_SUITS)]
    if seat.hand_size == 0:
        if seat.on_foot:
            end_deal(game, went_out=game.current)
            return
        deal.pick_up_foot(game, game.current)  # decision: the foot waits for the next turn
    game.current = (game.current + 1) % game.rules.num_players
    game.phase = DRAW_PHASE
    game.permission = NOT_ASKED  # a question holds for the turn it was asked in
    begin_turn(game)


def begin_turn(game: GameState) -> None:
    """Stock exhausted: no legal draw and no legal take ends the deal with no bonus."""
    if len(game.stock) < game.rules.draw_count and legality.any_take_problem(game) is not None:
        end_deal(game, went_out=None, ended_by=STOCK_EXHAUSTED)


def end_deal(game: GameState, went_out: int | None, ended_by: str = GOING_OUT) -> None:
    game.went_out = went_out
    result = score_deal(game, went_out, ended_by)
    game.deal_results.append(result)
    for owner, score in enumerate(result.scores):
        game.totals[owner] += score
    target = game.rules.target_score
    if game.deal_index + 1 >= game.rules.num_deals or (target is not None and max(game.totals) >= target):
        game.phase = GAME_OVER
        return
    game.deal_index += 1
    deal.start_deal(game)
    begin_turn(game)
