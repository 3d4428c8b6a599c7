"""Legality: why an action is refused in a reference position, or None when it is legal.

``legal_mask`` is exactly the actions for which ``why_illegal`` is None.  Each check is one
readable function per rule of docs/rules.md; the vector engine's compiled checks
(``vector/legality.py``) mirror them and the differential tests hold the two to identical
masks.  Decision of handfoot's own (docs/rules.md "Decisions handfoot made"): before the draw, staging that would leave the
player no legal draw or take is refused, so that every position has a legal action.

Going out (docs/rules.md "The foot and going out") is judged in one place, ``go_out_problem``:
the books of the deal and, in the variations, a wild book, a book of 7s, the partner on its
foot and the partner's permission.  The 2-card rule holds a player on its foot until going out
is possible (``cards_left_problem``), so that a discard always remains.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from handfoot_env import actions as A
from handfoot_env.cards import (
    BLACK_THREE,
    CARD_KIND,
    CARD_SUIT,
    JOKER,
    KIND_NAMES,
    KIND_VALUES,
    NUM_KINDS,
    NUM_NATURALS,
    NUM_SUITS,
    SUIT_NAMES,
    TWO,
    card_name,
    is_natural,
    is_wild,
    natural_kind,
    rank_of,
    suited_id,
)
from handfoot_env.reference import rule_facts as facts
from handfoot_env.reference.melds import meld_plan
from handfoot_env.reference.state import (
    ASKED,
    DRAW_PHASE,
    GAME_OVER,
    GRANTED,
    NOT_ASKED,
    PLAY_PHASE,
    REFUSED,
    Books,
    Group,
    Meld,
    Run,
    TwosBook,
    count_books,
    unfinished_group,
)

if TYPE_CHECKING:
    from handfoot_env.reference.state import GameState


def legal_mask(game: GameState) -> np.ndarray:
    """Boolean mask over the action layout: True exactly for the legal actions."""
    mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
    if game.phase == GAME_OVER:
        return mask
    for action in candidates(game):
        mask[action] = why_illegal(game, action) is None
    return mask


def candidates(game: GameState) -> list[int]:
    """Actions worth asking ``why_illegal`` about: the others need cards the player lacks.

    Only a shortcut: every candidate is still judged by ``why_illegal``."""
    if game.permission == ASKED:
        return [A.ANSWER_YES, A.ANSWER_NO]
    rules = game.rules
    seat = game.seats[game.current]
    hand = seat.hand
    out = [A.DRAW, *A.TAKE_ACTIONS]
    if rules.permission_to_go_out:
        out.append(A.ASK_TO_GO_OUT)
    for rank in range(NUM_NATURALS):
        kind = natural_kind(rank)
        if hand[kind] >= 2:
            out.append(A.start_group(rank, 0))
            if hand[TWO]:
                out.append(A.start_group(rank, 1))
            if hand[JOKER]:
                out.append(A.start_group(rank, 2))
        if hand[kind]:
            out.append(A.add_natural(rank))
        if hand[TWO]:
            out.append(A.add_two(rank))
        if hand[JOKER]:
            out.append(A.add_joker(rank))
    if rules.runs:
        for suit in range(NUM_SUITS):
            held = seat.hand_suits[suit]
            out.extend(A.start_run(suit, r) for r in range(A.RUN_STARTS) if held[r] and held[r + 1] and held[r + 2])
            out.extend((A.extend_run_down(suit), A.extend_run_up(suit)))
    if rules.books_of_twos and hand[TWO]:
        out.extend((A.START_TWOS_BOOK, A.ADD_TWO_TO_TWOS_BOOK))
    if rules.wild_books and (hand[TWO] or hand[JOKER]):
        out.extend(A.start_wild_book(c) for c in range(len(A.WILD_BOOK_COMPOSITIONS)))
        out.extend((A.ADD_TWO_TO_WILD_BOOK, A.ADD_JOKER_TO_WILD_BOOK))
    if rules.black_three_books and hand[BLACK_THREE]:
        out.extend((A.START_THREES_GROUP, A.ADD_BLACK_THREE))
    if game.phase == PLAY_PHASE:
        out.extend(A.discard(kind) for kind in range(NUM_KINDS) if hand[kind])
        if rules.runs:
            out.extend(
                A.discard_suited(suit, r)
                for suit in range(NUM_SUITS)
                for r in range(NUM_NATURALS)
                if seat.hand_suits[suit][r]
            )
    return out


def why_illegal(game: GameState, action: int) -> str | None:
    """Why ``action`` is not allowed now, or None if it is legal."""
    try:
        act = A.decode(action)
    except ValueError as exc:
        return str(exc)
    if game.phase == GAME_OVER:
        return "the game is over"
    if game.permission == ASKED:  # only the partner's answer may follow the question
        if act.kind in ("answer_yes", "answer_no"):
            return None
        return "your partner is asked whether you may go out: only an answer (yes or no) may follow"
    if act.kind in ("answer_yes", "answer_no"):
        return "no question stands: only a partner asked 'may I go out?' answers"
    if act.kind == "ask_to_go_out":
        return ask_problem(game)
    if act.kind == "draw":
        return draw_problem(game)
    if act.kind == "take_pile":
        return take_problem(game)
    if act.kind == "take_with_wild":
        return take_problem(game, wild=act.card)
    if act.kind == "take_onto_table":
        return table_take_problem(game)
    if act.kind == "discard":
        if game.rules.runs and is_natural(act.card):
            return "with runs a natural's suit matters: discard it with the suited discard action"
        return discard_problem(game, act.card)
    if act.kind == "discard_suited":
        if not game.rules.runs:
            return "suited discards belong to rules with runs (house); discard by kind"
        return discard_problem(game, suited_id(act.suit, act.rank))
    return meld_problem(game, act)


def draw_problem(game: GameState) -> str | None:
    if game.phase != DRAW_PHASE:
        return "you have already drawn this turn"
    if len(game.stock) < game.rules.draw_count:
        return f"the stock holds {len(game.stock)} cards; drawing needs {game.rules.draw_count}"
    return None


def any_take_problem(game: GameState, hand: list[int] | None = None, staged: list[Meld] | None = None) -> str | None:
    """None if the current player may take the pile in some way (with a pair, a natural and a
    wild, or by the table), optionally with a hypothetical hand and staged melds; else why not
    (the reason of the take with a pair)."""
    first = take_problem(game, hand, staged)
    if first is None or not game.rules.takes_with_a_pair:
        return first
    if game.rules.take_with_natural_and_wild and any(
        take_problem(game, hand, staged, wild=wild) is None for wild in (TWO, JOKER)
    ):
        return None
    if game.rules.take_onto_table and table_take_problem(game, hand) is None:
        return None
    return first


def pile_problem(game: GameState, frozen_blocks: bool) -> str | None:
    """The conditions every take of the pile shares (docs/rules.md "Taking the discard pile"):
    instead of drawing, a pile that may be taken, a natural on top, the minimum pile size;
    ``frozen_blocks``: a pile that holds a wild card is frozen (``wild_freezes_pile``)."""
    rules = game.rules
    if game.phase != DRAW_PHASE:
        return "the pile can only be taken instead of drawing"
    if rules.pile_take_count == 0:
        return "these rules do not allow taking the pile"
    if not game.pile:
        return "the discard pile is empty"
    top = int(CARD_KIND[game.pile[-1]])
    if not is_natural(top):
        return f"the top card ({KIND_NAMES[top]}) is not a natural: a wild or a three blocks the pile"
    if len(game.pile) < rules.pile_min_size:
        return f"the pile holds {len(game.pile)} cards; taking it needs at least {rules.pile_min_size}"
    if frozen_blocks and rules.wild_freezes_pile and any(is_wild(int(CARD_KIND[c])) for c in game.pile):
        return "the pile holds a wild card and is frozen: only a natural pair takes it"
    return None


def cards_to_hand(game: GameState) -> int:
    """How many cards of the pile a take brings to the hand, besides its top card."""
    to_hand = len(game.pile) - 1
    if game.rules.pile_take_count is not None:
        to_hand = min(to_hand, game.rules.pile_take_count - 1)
    return to_hand


def take_problem(
    game: GameState, hand: list[int] | None = None, staged: list[Meld] | None = None, wild: int | None = None
) -> str | None:
    """Why the current player may not take the pile with a pair of its top card (``wild``
    None) or with one natural and the wild ``wild`` (TWO or JOKER; a variation), optionally
    with a hypothetical hand and staged melds."""
    rules = game.rules
    if rules.draw_one_plus_discard:
        return top_discard_problem(game) if wild is None else "these rules take the top discard with a stock card"
    if wild is not None and not rules.take_with_natural_and_wild:
        return "these rules take the pile with a natural pair (rules field take_with_natural_and_wild)"
    seat = game.seats[game.current]
    side = game.sides[game.owner()]
    hand = seat.hand if hand is None else hand
    staged = seat.staged if staged is None else staged
    problem = pile_problem(game, frozen_blocks=wild is not None)
    if problem is not None:
        return problem
    top = int(CARD_KIND[game.pile[-1]])
    if rules.take_requires_opened and not side.opened:
        return "you must open (lay down your first groups) before taking the pile"
    naturals = 2 if wild is None else 1
    if hand[top] < naturals:
        if wild is None:
            return f"taking the pile needs two natural {KIND_NAMES[top]} in your hand"
        return f"taking the pile with a wild needs a natural {KIND_NAMES[top]} in your hand"
    if wild is not None and hand[wild] < 1:
        return f"you hold no {KIND_NAMES[wild]} to take the pile with"
    rank = rank_of(top)
    groups = side.groups if side.opened else staged
    target = unfinished_group(groups, rank, rules.book_size)
    result = Group(rank) if target is None else target.copy()
    result.naturals += naturals + 1
    if wild == TWO:
        result.twos += 1
    elif wild == JOKER:
        result.jokers += 1
    if result.size > rules.book_size:
        return (
            f"your group of {KIND_NAMES[top]} has {result.size - 3} cards; "
            f"the top card and your two cards would make it more than {rules.book_size}"
        )
    if not facts.wilds_allowed(rules, result.naturals, result.wilds):
        return f"a group of {result.naturals} naturals and {result.wilds} wilds breaks the wild-card limit"
    if not side.opened:
        total = (
            sum(g.value for g in staged)
            + (naturals + 1) * KIND_VALUES[top]
            + (KIND_VALUES[wild] if wild is not None else 0)
        )
        minimum = game.minimum(game.owner())
        if total < minimum:
            return (
                f"the top card, your cards and your staged groups make {total} points; the opening minimum is {minimum}"
            )
    # The 2-card rule applies to the take as to any meld.
    cards_left = sum(hand) - 2 + cards_to_hand(game)
    melded = [g for g in groups if g is not target] + [result]
    books = count_books(melded, rules.book_size)  # an unopened side has no table groups
    return cards_left_problem(game, cards_left, books)


def table_take_problem(game: GameState, hand: list[int] | None = None) -> str | None:
    """Variation: may the current player take the pile by adding its top card to an unfinished
    group of its side's table (no pair needed; the take then goes on as usual)?"""
    rules = game.rules
    if not rules.take_onto_table:
        return "these rules take the pile with cards from the hand (rules field take_onto_table)"
    problem = pile_problem(game, frozen_blocks=True)
    if problem is not None:
        return problem
    side = game.sides[game.owner()]
    top = int(CARD_KIND[game.pile[-1]])
    target = unfinished_group(side.groups, rank_of(top), rules.book_size) if side.opened else None
    if target is None:
        return f"your side has no unfinished group of {KIND_NAMES[top]} on the table to take the pile onto"
    hand = game.seats[game.current].hand if hand is None else hand
    result = target.copy()
    result.naturals += 1
    melded = [g for g in side.groups if g is not target] + [result]
    return cards_left_problem(game, sum(hand) + cards_to_hand(game), count_books(melded, rules.book_size))


def top_discard_problem(game: GameState) -> str | None:
    """House: may the player draw one card from the stock plus the top discard?"""
    if game.phase != DRAW_PHASE:
        return "the top discard can only be taken as part of the draw"
    if not game.pile:
        return "the discard pile is empty"
    if not game.stock:
        return "the stock is empty: the top discard is taken together with one card from the stock"
    frozen = frozen_meld(game, game.pile[-1]) if game.rules.frozen_six else None
    if frozen is not None:
        return (
            f"your {frozen} holds {game.rules.book_size - 1} cards and is frozen: "
            f"you may not take the {card_name(game.pile[-1])} that would complete it"
        )
    return None


def frozen_meld(game: GameState, card: int) -> str | None:
    """The owner's meld one card short of a book that ``card`` would complete, named, or None."""
    kind, suit = int(CARD_KIND[card]), int(CARD_SUIT[card])
    for meld in game.sides[game.owner()].groups:
        if meld.size != game.rules.book_size - 1:
            continue
        if isinstance(meld, Group) and is_natural(kind) and meld.rank == rank_of(kind):
            return f"book of {KIND_NAMES[kind]}"
        if isinstance(meld, Run) and suit == meld.suit and rank_of(kind) in (meld.low - 1, meld.high + 1):
            return f"run of {SUIT_NAMES[suit]}"
        if isinstance(meld, TwosBook) and kind == TWO:
            return "book of 2s"
    return None


def go_out_problem(game: GameState, books: Books) -> str | None:
    """Why the player whose turn it is may not go out with its side holding ``books``, or None
    (docs/rules.md "The foot and going out"; the variations add the partner on its foot and the
    partner's permission)."""
    problem = facts.book_requirement_problem(game.rules, game.deal_index, books)
    if problem is not None:
        return problem
    if game.rules.partner_foot_first and any(
        not game.seats[p].on_foot for p in facts.partners_of(game.rules, game.current)
    ):
        return "your partner has not picked up its foot yet"
    if game.rules.permission_to_go_out and game.permission != GRANTED:
        if game.permission == REFUSED:
            return "your partner said no: you may not go out this turn"
        return "you must first ask your partner: may I go out?"
    return None


def cards_left_problem(game: GameState, cards_left: int, books: Books) -> str | None:
    """The 2-card rule: from the foot, a meld must leave 2 cards until the player may go out."""
    seat = game.seats[game.current]
    if not seat.on_foot or cards_left >= 2:
        return None
    problem = go_out_problem(game, books)
    if problem is not None:
        return f"playing from the foot you must keep at least 2 cards until you may go out: {problem}"
    if cards_left == 0 and not game.rules.go_out_by_meld:
        return "these rules require you to finish with a discard"
    return None


def ask_problem(game: GameState) -> str | None:
    """Variation: may the player ask its partner "may I go out?" now (once a turn, on its foot)?"""
    if not game.rules.permission_to_go_out:
        return "these rules need no permission to go out (rules field permission_to_go_out)"
    if game.permission != NOT_ASKED:
        return "you have asked your partner this turn already"
    if not game.seats[game.current].on_foot:
        return "you may ask to go out once you play from your foot"
    return None


def meld_problem(game: GameState, act: A.Action) -> str | None:
    rules = game.rules
    seat = game.seats[game.current]
    side = game.sides[game.owner()]
    if game.phase == DRAW_PHASE and not (rules.staging_before_draw and not side.opened and act.is_group_action):
        return "draw or take the pile before melding"
    staging = not side.opened
    groups = seat.staged if staging else side.groups
    plan = meld_plan(rules, act, groups, staging)
    if isinstance(plan, str):
        return plan
    need, suited, current, result = plan.need, plan.suited, plan.current, plan.result
    for k in range(NUM_KINDS):
        if seat.hand[k] < need[k]:
            return f"you do not hold enough {KIND_NAMES[k]} (need {need[k]}, have {seat.hand[k]})"
    for suit, r in suited:
        if seat.hand_suits[suit][r] < 1:
            return f"you do not hold the {card_name(suited_id(suit, r))}"
    if result.size > rules.book_size:
        return f"a group holds at most {rules.book_size} cards"
    if isinstance(result, Group) and not facts.wilds_allowed(rules, result.naturals, result.wilds):
        return (
            f"a group of {result.naturals} naturals and {result.wilds} wilds breaks the wild-card "
            f"limit ({rules.wild_limit}, at most {rules.max_wilds} wilds, naturals outnumber wilds)"
        )
    cards_left = seat.hand_size - sum(need)
    after = [g for g in groups if g is not current] + [result]
    if staging:
        total = sum(g.value for g in after)
        minimum = game.minimum(game.owner())
        if total < minimum:  # staged only: the cards wait, a discard must remain
            if cards_left < 1:
                return f"staging these cards ({total} of the {minimum} needed to open) would leave no card to discard"
            if game.phase == DRAW_PHASE and len(game.stock) < rules.draw_count:
                hand = list(seat.hand)
                for k in range(NUM_KINDS):
                    hand[k] -= need[k]
                if any_take_problem(game, hand, after) is not None:
                    return "with the stock nearly empty this staging would leave you no legal draw or take"
            return None
        after = after + side.groups  # the staged groups go down: books count from now
    return cards_left_problem(game, cards_left, count_books(after, rules.book_size))


def discard_problem(game: GameState, card: int) -> str | None:
    seat = game.seats[game.current]
    if game.phase != PLAY_PHASE:
        return "draw or take the pile before discarding"
    kind, suit = int(CARD_KIND[card]), int(CARD_SUIT[card])
    held = seat.hand[kind] if suit < 0 else seat.hand_suits[suit][rank_of(kind)]
    if held == 0:
        return f"you hold no {card_name(card)} to discard"
    empties = seat.hand_size == 1 and not seat.staged
    if empties and seat.on_foot:
        side = game.sides[game.owner()]
        problem = go_out_problem(game, count_books(side.groups, game.rules.book_size))
        if problem is not None:
            return f"discarding your last card would go out, and {problem}"
    return None
