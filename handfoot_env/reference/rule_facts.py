"""The reference engine's own reading of the rule facts, in plain Python.

``handfoot_env/rule_facts.py`` holds the compiled versions that ``Rules`` and the vector
engine share.  The reference engine does not use them: it is the oracle the fast side is
tested against, so each fact is written here a second time, as plainly as docs/rules.md says it,
and the differential tests hold the two readings to the same answers.
"""

from __future__ import annotations

from typing import NamedTuple

from handfoot_env.rules import Rules


class Books(NamedTuple):
    """An owner's books, as going out asks for them (docs/rules.md "The foot and going out")."""

    clean: int  # clean books (house: red canastas), books of black threes among them
    dirty: int  # books with wilds (house: black canastas)
    wild: int = 0  # wild books: neither clean nor dirty
    sevens_clean: int = 0  # the clean books of 7s among ``clean``
    sevens_dirty: int = 0  # the dirty books of 7s among ``dirty``


def owner_of(rules: Rules, seat: int) -> int:
    """Partners (seats 0+2 and 1+3; with six players 0+3, 1+4 and 2+5) share one owner;
    otherwise every player owns its melds."""
    return seat % rules.num_owners if rules.partnerships else seat


def members_of(rules: Rules, owner: int) -> list[int]:
    return [seat for seat in range(rules.num_players) if owner_of(rules, seat) == owner]


def partners_of(rules: Rules, seat: int) -> list[int]:
    """The other members of the seat's side (none when each plays alone)."""
    return [other for other in members_of(rules, owner_of(rules, seat)) if other != seat]


def book_requirement_problem(rules: Rules, deal_index: int, books: Books) -> str | None:
    """Why an owner with ``books`` may not go out in this deal, or None (docs/rules.md "The
    foot and going out"; the wild book and the book of 7s are variations)."""
    need_clean, need_dirty = rules.books_to_go_out[deal_index]
    if books.clean < need_clean or books.dirty < need_dirty:
        return f"your side lacks the books to go out ({need_clean} clean and {need_dirty} dirty)"
    if rules.wild_book_to_go_out and books.wild < 1:
        return "your side needs a wild book to go out"
    sevens = {
        "no": True,
        "any": books.sevens_clean + books.sevens_dirty >= 1,
        "clean": books.sevens_clean >= 1,
        "dirty": books.sevens_dirty >= 1,
    }[rules.sevens_book_to_go_out]
    if not sevens:
        kind = "" if rules.sevens_book_to_go_out == "any" else rules.sevens_book_to_go_out + " "
        return f"your side needs a {kind}book of 7s to go out"
    return None


def opening_minimum(rules: Rules, deal_index: int, running_total: int) -> int:
    """By deal (50 / 90 / 120 / 150), or in house by the running total before the deal."""
    if rules.minimums_by_score is None:
        return rules.deal_minimums[deal_index]
    for threshold, minimum in rules.minimums_by_score:
        if running_total < threshold:
            return minimum
    return rules.minimums_by_score[-1][1]


def wilds_allowed(rules: Rules, naturals: int, wilds: int) -> bool:
    """Naturals outnumber wilds, at most ``max_wilds`` wilds, and the variation's own limit."""
    if wilds == 0:
        return naturals >= 1
    if naturals <= wilds or wilds > rules.max_wilds:
        return False
    if rules.wild_limit == "by_size":  # 1 wild in groups of 3-5, 2 in groups of 6-7
        return wilds <= (1 if naturals + wilds <= 5 else 2)
    if rules.wild_limit == "four_naturals":  # wilds only with at least 4 naturals
        return naturals >= 4
    return True
