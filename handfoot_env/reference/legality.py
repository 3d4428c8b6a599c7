"""Legality: why an action is refused in a reference position, or None when it is legal.

``legal_mask`` is exactly the actions for which ``why_illegal`` is None.  Each check is one
readable function per rule of docs/rules.md; the vector engine's compiled checks
(``vector/legality.py``) mirror them and the differential tests hold the two to identical
masks.  Decision of handfoot's own (docs/rules.md "Decisions handfoot made"): before the draw, staging that would leave the
player no legal draw or take is refused, so that every position has a legal action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from handfoot_env import actions as A
from handfoot_env.cards import (
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
    natural_kind,
    rank_of,
    suited_id,
)
from handfoot_env.reference import rule_facts as facts
from handfoot_env.reference.melds import meld_plan
from handfoot_env.reference.state import (
    DRAW_PHASE,
    GAME_OVER,
    PLAY_PHASE,
    Group,
    Meld,
    Run,
    TwosBook,
    count_books,
    unfinished_group,
)

if TYPE_CHECKING:
    from handfoot_env.reference.game import Game


def legal_mask(game: Game) -> np.ndarray:
    """Boolean mask over the action layout: True exactly for the legal actions."""
    mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
    if game.phase == GAME_OVER:
        return mask
    for action in candidates(game):
        mask[action] = why_illegal(game, action) is None
    return mask


def candidates(game: Game) -> list[int]:
    """Actions worth asking ``why_illegal`` about: the others need cards the player lacks.

    Only a shortcut: every candidate is still judged by ``why_illegal``."""
    rules = game.rules
    seat = game.seats[game.current]
    hand = seat.hand
    out = [A.DRAW, A.TAKE_PILE]
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


def why_illegal(game: Game, action: int) -> str | None:
    """Why ``action`` is not allowed now, or None if it is legal."""
    try:
        act = A.decode(action)
    except ValueError as exc:
        return str(exc)
    if game.phase == GAME_OVER:
        return "the game is over"
    if act.kind == "draw":
        return draw_problem(game)
    if act.kind == "take_pile":
        return take_problem(game)
    if act.kind == "discard":
        if game.rules.runs and is_natural(act.card):
            return "with runs a natural's suit matters: discard it with the suited discard action"
        return discard_problem(game, act.card)
    if act.kind == "discard_suited":
        if not game.rules.runs:
            return "suited discards belong to rules with runs (house); discard by kind"
        return discard_problem(game, suited_id(act.suit, act.rank))
    return meld_problem(game, act)


def draw_problem(game: Game) -> str | None:
    if game.phase != DRAW_PHASE:
        return "you have already drawn this turn"
    if len(game.stock) < game.rules.draw_count:
        return f"the stock holds {len(game.stock)} cards; drawing needs {game.rules.draw_count}"
    return None


def take_problem(game: Game, hand: list[int] | None = None, staged: list[Meld] | None = None) -> str | None:
    """Why the current player may not take the pile (optionally with a hypothetical hand)."""
    rules = game.rules
    if rules.draw_one_plus_discard:
        return top_discard_problem(game)
    seat = game.seats[game.current]
    side = game.sides[game.owner()]
    hand = seat.hand if hand is None else hand
    staged = seat.staged if staged is None else staged
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
    if rules.take_requires_opened and not side.opened:
        return "you must open (lay down your first groups) before taking the pile"
    if hand[top] < 2:
        return f"taking the pile needs two natural {KIND_NAMES[top]} in your hand"
    rank = rank_of(top)
    groups = side.groups if side.opened else staged
    target = unfinished_group(groups, rank, rules.book_size)
    if target is not None and target.size + 3 > rules.book_size:
        return (
            f"your group of {KIND_NAMES[top]} has {target.size} cards; "
            f"the top card and the pair would make it more than {rules.book_size}"
        )
    if not side.opened:
        total = sum(g.value for g in staged) + 3 * KIND_VALUES[top]
        minimum = game.minimum(game.owner())
        if total < minimum:
            return (
                f"the top card, your pair and your staged groups make {total} points; the opening minimum is {minimum}"
            )
    # The 2-card rule applies to the take as to any meld.
    to_hand = len(game.pile) - 1
    if rules.pile_take_count is not None:
        to_hand = min(to_hand, rules.pile_take_count - 1)
    cards_left = sum(hand) - 2 + to_hand
    melded = [g.copy() for g in groups]
    grown = unfinished_group(melded, rank, rules.book_size)
    if grown is None:
        melded.append(Group(rank, naturals=3))
    else:
        grown.naturals += 3
    books = count_books(melded, rules.book_size)  # an unopened side has no table groups
    return cards_left_problem(game, cards_left, books)


def top_discard_problem(game: Game) -> str | None:
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


def frozen_meld(game: Game, card: int) -> str | None:
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


def cards_left_problem(game: Game, cards_left: int, books: tuple[int, int]) -> str | None:
    """The 2-card rule: from the foot, a meld must leave 2 cards until the owner can go out."""
    seat = game.seats[game.current]
    if not seat.on_foot or cards_left >= 2:
        return None
    if not game.meets_book_requirement(*books):
        need_clean, need_dirty = game.books_needed()
        return (
            "playing from the foot you must keep at least 2 cards until your side has "
            f"{need_clean} clean and {need_dirty} dirty books"
        )
    if cards_left == 0 and not game.rules.go_out_by_meld:
        return "these rules require you to finish with a discard"
    return None


def meld_problem(game: Game, act: A.Action) -> str | None:
    rules = game.rules
    seat = game.seats[game.current]
    side = game.sides[game.owner()]
    if game.phase == DRAW_PHASE and not (rules.staging_before_draw and not side.opened):
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
                if take_problem(game, hand, after) is not None:
                    return "with the stock nearly empty this staging would leave you no legal draw or take"
            return None
        after = after + side.groups  # the staged groups go down: books count from now
    return cards_left_problem(game, cards_left, count_books(after, rules.book_size))


def discard_problem(game: Game, card: int) -> str | None:
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
        if not game.meets_book_requirement(*count_books(side.groups, game.rules.book_size)):
            return "discarding your last card would go out, and your side lacks the books to go out"
    return None
