"""Invariants every reachable position keeps, checked by the property tests and ``handfoot fuzz``."""

from __future__ import annotations

import numpy as np

from handfoot_env.cards import (
    BLACK_THREE,
    JOKER,
    KIND_VALUES,
    NUM_KINDS,
    NUM_NATURALS,
    RED_THREE,
    TWO,
    card_id_counts,
    deck_counts,
    natural_kind,
    suited_id,
)
from handfoot_env.reference import rule_facts as facts
from handfoot_env.reference.game import GAME_OVER, Game
from handfoot_env.reference.state import NOT_ASKED, Group, Run, ThreesGroup, TwosBook, WildBook


class InvariantError(AssertionError):
    pass


def check_position(game: Game, mask: np.ndarray | None = None, whole_pack: bool = True) -> None:
    """Raise :class:`InvariantError` if the position breaks a rule of the game.

    ``mask`` is the position's legal mask when the caller already has it; ``whole_pack=False``
    skips card conservation for a scenario that wrote its stock out (and so holds only part
    of the pack)."""
    rules = game.rules
    places = game.card_counts_by_place()
    total = np.zeros(NUM_KINDS, dtype=np.int64)
    for name, counts in places.items():
        if min(counts) < 0:
            raise InvariantError(f"negative card count in {name}: {counts}")
        total += np.asarray(counts)
    expected = deck_counts(int(rules.num_decks))
    if whole_pack and not np.array_equal(total, expected):
        raise InvariantError(f"cards not conserved: {total.tolist()} != {expected.tolist()}")
    if rules.red_threes_laid_down:
        for i, seat in enumerate(game.seats):
            if seat.hand[RED_THREE]:
                raise InvariantError(f"seat {i} holds a red three")
        if RED_THREE in game.pile:
            raise InvariantError("a red three is in the discard pile")
    for o, side in enumerate(game.sides):
        unfinished = [
            (type(g).__name__, getattr(g, "rank", getattr(g, "suit", 0)))
            for g in side.groups
            if g.size < rules.book_size
        ]
        if len(unfinished) != len(set(unfinished)):
            raise InvariantError(f"owner {o} has two unfinished melds of one rank or suit: {side.groups}")
        if side.groups and not side.opened:
            raise InvariantError(f"owner {o} has groups on the table without having opened")
        if side.red_threes and not rules.red_threes_laid_down:
            raise InvariantError(f"owner {o} has red threes on the table though they are never laid down")
        for g in side.groups:
            if not _legal_meld(g, rules):
                raise InvariantError(f"owner {o} has an illegal meld {g}")
    if rules.runs:
        _check_suits(game)
    for i, seat in enumerate(game.seats):
        if seat.staged and (game.phase == GAME_OVER or game.sides[facts.owner_of(rules, i)].opened):
            raise InvariantError(f"seat {i} has staged groups after opening")
        if seat.staged and i != game.current:
            raise InvariantError(f"seat {i} has staged groups outside its turn")
        if seat.on_foot and any(seat.foot):
            raise InvariantError(f"seat {i} plays from the foot but still has one")
        held = np.asarray(seat.hand) + sum((np.asarray(g.counts()) for g in seat.staged), np.zeros(NUM_KINDS, int))
        if min(seat.known) < 0 or (np.asarray(seat.known) > held).any():
            raise InvariantError(
                f"seat {i} is known to hold {seat.known}, more than its hand and staged cards {held.tolist()}"
            )
    if game.permission != NOT_ASKED and not (rules.permission_to_go_out and game.seats[game.current].on_foot):
        raise InvariantError(f"a permission question ({game.permission}) by seat {game.current}, not on its foot")
    if game.phase != GAME_OVER and not (game.legal_mask() if mask is None else mask).any():
        raise InvariantError("no legal action in a position that is not over")


def _legal_meld(meld, rules) -> bool:
    if not 3 <= meld.size <= rules.book_size:
        return False
    if isinstance(meld, Group):
        return facts.wilds_allowed(rules, meld.naturals, meld.wilds)
    if isinstance(meld, Run):
        return rules.runs and meld.low >= 0 and meld.high < NUM_NATURALS
    if isinstance(meld, WildBook):
        return rules.wild_books
    if isinstance(meld, ThreesGroup):
        return rules.black_three_books
    return isinstance(meld, TwosBook) and rules.books_of_twos


def _check_suits(game: Game) -> None:
    """With runs, the suits of every held card agree with the kinds, and no suited card is
    in the stock or the pile more often than the pack has it."""
    for i, seat in enumerate(game.seats):
        staged_kinds = [0] * NUM_KINDS
        for g in seat.staged:
            for k, c in enumerate(g.counts()):
                staged_kinds[k] += c
        for name, kinds, suits in (
            ("hand", seat.hand, seat.hand_suits),
            ("foot", seat.foot, seat.foot_suits),
            ("staged", staged_kinds, seat.staged_suits),
        ):
            for r in range(NUM_NATURALS):
                column = [suits[s][r] for s in range(4)]
                if min(column) < 0 or sum(column) != kinds[natural_kind(r)]:
                    raise InvariantError(
                        f"seat {i}'s {name} suits {column} disagree with its {kinds[natural_kind(r)]} naturals of rank {r}"
                    )
    pack = card_id_counts(int(game.rules.num_decks), True)
    seen = np.zeros_like(pack)
    for cards in (game.stock, game.pile):
        for card in cards:
            seen[card] += 1
    for seat in game.seats:
        for suits in (seat.hand_suits, seat.foot_suits, seat.staged_suits):
            for s in range(4):
                for r in range(NUM_NATURALS):
                    seen[suited_id(s, r)] += suits[s][r]
    if (seen > pack).any():
        raise InvariantError("more copies of a suited card than the pack holds")


def count_books_of(melds, rules) -> tuple[int, int, int]:
    """(clean, dirty, wild) books among ``melds`` (each a meld's counts per kind), counted from
    the cards by docs/rules.md, not by the engine's ``count_books``: a meld of ``book_size``
    cards is a book; clean (house: a red canasta) when it holds no wild card, or is a book of
    2s where those are played; a wild book (neither) when it holds only wilds where those are
    played; dirty (a black canasta) otherwise."""
    clean = dirty = wild = 0
    for cards in melds:
        size, twos, jokers = sum(cards), cards[TWO], cards[JOKER]
        if size < rules.book_size:
            continue
        if twos + jokers == 0 or (rules.books_of_twos and twos == size):
            clean += 1
        elif rules.wild_books and twos + jokers == size:
            wild += 1
        else:
            dirty += 1
    return clean, dirty, wild


def recount_deal(result, rules) -> tuple[int, ...]:
    """Recount a finished deal's scores from the cards where they lay (independent of scoring.py
    and of the engine's book counting): the melds' cards must add up to the table's."""
    scores = []
    for owner in range(rules.num_owners):
        table = np.asarray(result.final_places[f"table{owner}"])
        melds = result.final_melds[owner]
        in_melds = np.sum([np.asarray(cards) for cards in melds], axis=0) if melds else np.zeros(NUM_KINDS, int)
        beside_melds = np.zeros(NUM_KINDS, int)
        beside_melds[RED_THREE] = table[RED_THREE]  # red threes lie on the table, in no meld
        if not np.array_equal(in_melds + beside_melds, table):
            raise InvariantError(f"owner {owner}: melds hold {in_melds.tolist()}, the table {table.tolist()}")
        values = np.asarray(KIND_VALUES)
        melded = int((table * values).sum())  # red threes have value 0
        clean, dirty, wild = count_books_of(melds, rules)
        score = melded + clean * rules.clean_book_bonus + dirty * rules.dirty_book_bonus + wild * rules.wild_book_bonus
        red = int(table[RED_THREE])
        opened = result.final_opened[owner]
        score += red * (
            -rules.red_three_bonus if rules.red_three_unopened_penalty and not opened else rules.red_three_bonus
        )
        if result.went_out is not None and facts.owner_of(rules, result.went_out) == owner:
            score += rules.going_out_bonus
        for seat in facts.members_of(rules, owner):
            for place in (f"hand{seat}", f"staged{seat}", f"foot{seat}"):
                held = np.asarray(result.final_places[place])
                score -= int((held * values).sum())
                score -= int(held[BLACK_THREE]) * (rules.black_three_penalty - KIND_VALUES[BLACK_THREE])
                score -= int(held[RED_THREE]) * rules.red_three_unlaid_penalty
        scores.append(score)
    return tuple(scores)
