"""Meld actions as plans: the cards a meld action takes and the meld it makes.

Shared by the reference engine's legality check (``legality.meld_problem``) and its
transition (``transitions.meld``), so that the two can never disagree about what an action does.
Only the rules of the meld itself are checked here (which meld, which cards); the
reference engine adds what depends on the whole position (cards held, the opening, the
2-card rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from handfoot_env import actions as A
from handfoot_env.cards import BLACK_THREE, JOKER, KIND_NAMES, NUM_KINDS, NUM_NATURALS, SUIT_NAMES, TWO, natural_kind
from handfoot_env.reference.state import (
    Group,
    Meld,
    Run,
    ThreesGroup,
    TwosBook,
    WildBook,
    unfinished_group,
    unfinished_run,
    unfinished_threes,
    unfinished_twos_book,
    unfinished_wild_book,
)
from handfoot_env.rules import Rules


@dataclass
class MeldPlan:
    need: list[int]  # cards the action takes from the hand, per kind
    suited: list[tuple[int, int]]  # (suit, rank) of the run cards it takes (house)
    current: Meld | None  # the unfinished meld it grows, or None for a new meld
    result: Meld  # the meld after the action


def meld_plan(rules: Rules, act: A.Action, groups: list[Meld], staging: bool) -> str | MeldPlan:
    """What meld action ``act`` needs and makes among ``groups`` (the owner's table, or the
    mover's staged melds when ``staging``), or the reason it cannot be made there."""
    if act.is_group_action:
        return group_plan(rules, act, groups, staging)
    if act.kind in ("start_run", "extend_run_down", "extend_run_up"):
        return run_plan(rules, act, groups)
    if act.kind in ("start_wild_book", "add_to_wild_book"):
        return wild_book_plan(rules, act, groups)
    if act.kind in ("start_threes_group", "add_black_three"):
        return threes_plan(rules, act, groups)
    return twos_plan(rules, act, groups)


def group_plan(rules: Rules, act: A.Action, groups: list[Meld], staging: bool) -> str | MeldPlan:
    """Start a group of a rank, or add a natural, a 2 or a joker to it."""
    need = [0] * NUM_KINDS
    name = KIND_NAMES[natural_kind(act.rank)]
    current = unfinished_group(groups, act.rank, rules.book_size)
    kind = natural_kind(act.rank)
    if act.kind == "start_group":
        if current is not None:
            return f"there is already an unfinished group of {name}; add to it instead"
        naturals, twos, jokers = A.COMPOSITIONS[act.composition]
        need[kind], need[TWO], need[JOKER] = naturals, twos, jokers
        return MeldPlan(need, [], None, Group(act.rank, naturals, twos, jokers))
    if current is None:
        return f"there is no unfinished {'staged ' if staging else ''}group of {name} to add to"
    result = current.copy()
    if act.kind == "add_natural":
        need[kind], result.naturals = 1, result.naturals + 1
    elif act.kind == "add_two":
        need[TWO], result.twos = 1, result.twos + 1
    else:
        need[JOKER], result.jokers = 1, result.jokers + 1
    return MeldPlan(need, [], current, result)


def run_plan(rules: Rules, act: A.Action, groups: list[Meld]) -> str | MeldPlan:
    """House: start a run of a suit, or extend it down or up."""
    if not rules.runs:
        return "runs belong to the house preset (rules field runs)"
    suit_name = SUIT_NAMES[act.suit]
    current = unfinished_run(groups, act.suit, rules.book_size)
    if act.kind == "start_run":
        if current is not None:
            return f"there is already an unfinished run of {suit_name}; extend it instead"
        suited = [(act.suit, r) for r in range(act.rank, act.rank + 3)]
        result = Run(act.suit, act.rank, 3)
    elif current is None:
        return f"there is no unfinished run of {suit_name} to extend"
    elif act.kind == "extend_run_down":
        if current.low == 0:
            return f"the run of {suit_name} already starts at 4"
        suited, result = [(act.suit, current.low - 1)], Run(act.suit, current.low - 1, current.length + 1)
    else:
        if current.high == NUM_NATURALS - 1:
            return f"the run of {suit_name} already ends at the ace"
        suited, result = [(act.suit, current.high + 1)], Run(act.suit, current.low, current.length + 1)
    need = [0] * NUM_KINDS
    for _, r in suited:
        need[natural_kind(r)] += 1
    return MeldPlan(need, suited, current, result)


def twos_plan(rules: Rules, act: A.Action, groups: list[Meld]) -> str | MeldPlan:
    """House: start the book of 2s with three, or add one."""
    if not rules.books_of_twos:
        return "books of 2s belong to the house preset (rules field books_of_twos)"
    current = unfinished_twos_book(groups, rules.book_size)
    return one_kind_plan(act.kind == "start_twos_book", current, TWO, TwosBook, "book of 2s")


def one_kind_plan(
    starts: bool,
    current: TwosBook | ThreesGroup | None,
    kind: int,
    make: type[TwosBook | ThreesGroup],
    name: str,
) -> str | MeldPlan:
    """A meld of one kind of card (the house book of 2s, the variation's black threes): start
    it with three of ``kind`` (``starts``), or add one to the unfinished ``current``."""
    need = [0] * NUM_KINDS
    if starts:
        if current is not None:
            return f"there is already an unfinished {name}; add to it instead"
        need[kind] = 3
        return MeldPlan(need, [], None, make(3))
    if current is None:
        return f"there is no unfinished {name} to add to"
    need[kind] = 1
    return MeldPlan(need, [], current, make(current.size + 1))


def wild_book_plan(rules: Rules, act: A.Action, groups: list[Meld]) -> str | MeldPlan:
    """Variation: start the wild book with three wilds, or add a 2 or a joker to it."""
    if not rules.wild_books:
        return "these rules have no wild books (rules field wild_books)"
    need = [0] * NUM_KINDS
    current = unfinished_wild_book(groups, rules.book_size)
    if act.kind == "start_wild_book":
        if current is not None:
            return "there is already an unfinished wild book; add to it instead"
        need[TWO], need[JOKER] = A.WILD_BOOK_COMPOSITIONS[act.composition]
        return MeldPlan(need, [], None, WildBook(need[TWO], need[JOKER]))
    if current is None:
        return "there is no unfinished wild book to add to"
    need[act.card] = 1
    result = current.copy()
    if act.card == TWO:
        result.twos += 1
    else:
        result.jokers += 1
    return MeldPlan(need, [], current, result)


def threes_plan(rules: Rules, act: A.Action, groups: list[Meld]) -> str | MeldPlan:
    """Variation: start a group of black threes with three, or add one."""
    if not rules.black_three_books:
        return "these rules never meld black threes (rules field black_three_books)"
    current = unfinished_threes(groups, rules.book_size)
    return one_kind_plan(act.kind == "start_threes_group", current, BLACK_THREE, ThreesGroup, "group of black threes")


__all__ = ["MeldPlan", "meld_plan"]
