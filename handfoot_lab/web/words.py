"""Moves and needs in the web table's own words.

A move is said as a person at the card table would say it ("meld K K K", "discard a black 3"),
with each card written as its label in braces (``{K}``, ``{3b}``, ``{Kh}``, ``{Jk}``): the page
draws every such card as it draws the cards of the hand, so a card looks the same in the hand,
the move log, Hint and the Coach.  The terminal game's commands (``m K K K``) never reach the
page's words.
"""

from __future__ import annotations

from handfoot_env import actions as A
from handfoot_env.cards import KIND_NAMES, SUIT_LETTERS, SUIT_NAMES, TWO, card_name, natural_kind
from handfoot_env.reference import Game
from handfoot_env.reference.state import Group, Meld, Run, ThreesGroup, TwosBook, WildBook, count_books, unfinished_run

NUMBERS = {1: "one card", 2: "two cards", 3: "three cards"}


def card(label: str) -> str:
    """A card in words: its label in braces, drawn as a card by the page."""
    return "{" + label + "}"


def cards(*labels: str) -> str:
    return " ".join(card(label) for label in labels)


def _wild(kind: int) -> str:
    """A wild card of the action layout's ``card`` (a 2 or a joker)."""
    return card("2" if kind == TWO else "Jk")


def _run_end(game: Game, act: A.Action) -> str | None:
    """The card that extends the mover's run of ``act.suit`` (house), if it has one."""
    side = game.sides[game.owner()]
    melds = side.groups if side.opened else game.seats[game.current].staged
    run = unfinished_run(melds, act.suit, game.rules.book_size)
    if run is None:
        return None
    rank = run.low - 1 if act.kind == "extend_run_down" else run.high + 1
    return KIND_NAMES[natural_kind(rank)] + SUIT_LETTERS[act.suit]


def move_words(action: int, game: Game) -> str:
    """``action`` of the seat to act in ``game`` (the position before it), in the page's words;
    a meld before its side has opened is said to be staged (docs/rules.md "Opening"): it goes
    back to the hand unless the opening minimum is reached."""
    words = _words(action, game)
    if A.decode(action).kind in A.MELD_KINDS and not game.sides[game.owner()].opened:
        return f"{words} (staged)"
    return words


def _words(action: int, game: Game) -> str:
    act = A.decode(action)
    kind = act.kind
    rank = KIND_NAMES[natural_kind(act.rank)] if act.rank >= 0 else ""
    top = card(card_name(game.pile[-1])) if game.pile else ""
    if kind == "draw":
        return f"draw {NUMBERS.get(game.rules.draw_count, game.rules.draw_count)} from the stock"
    if kind == "take_pile" and game.rules.draw_one_plus_discard:
        return f"take the top discard {top} and one card from the stock".replace("  ", " ")
    on_top = f", {top} on top" if top else ""
    if kind == "take_pile":
        return f"pick up the discard pile{on_top}"
    if kind == "take_onto_table":
        return f"pick up the discard pile by the table{on_top}: it goes onto the group of its rank"
    if kind == "take_with_wild":
        return f"pick up the discard pile with one natural of its rank and a {_wild(act.card)}{on_top}"
    if kind == "start_group":
        extra = [rank, "2", "Jk"][act.composition]
        return f"meld {cards(rank, rank, extra)}"
    if kind == "add_natural":
        return f"add {card(rank)} to the group of {rank}"
    if kind in ("add_two", "add_joker"):
        return f"add {card('2' if kind == 'add_two' else 'Jk')} to the group of {rank}"
    if kind == "discard":
        return f"discard {card(KIND_NAMES[act.card])}"
    if kind == "discard_suited":
        return f"discard {card(rank + SUIT_LETTERS[act.suit])}"
    if kind == "start_run":
        run = [KIND_NAMES[natural_kind(r)] + SUIT_LETTERS[act.suit] for r in range(act.rank, act.rank + 3)]
        return f"meld the run {cards(*run)}"
    if kind in ("extend_run_down", "extend_run_up"):
        end = _run_end(game, act)
        suit = SUIT_NAMES[act.suit]
        return f"add {card(end)} to the run of {suit}" if end else f"extend the run of {suit}"
    if kind == "start_twos_book":
        return f"meld a book of 2s: {cards('2', '2', '2')}"
    if kind == "add_two_to_twos_book":
        return f"add {card('2')} to the book of 2s"
    if kind == "start_wild_book":
        twos, jokers = A.WILD_BOOK_COMPOSITIONS[act.composition]
        return "meld a wild book: " + cards(*(["2"] * twos + ["Jk"] * jokers))
    if kind == "add_to_wild_book":
        return f"add {_wild(act.card)} to the wild book"
    if kind == "start_threes_group":
        return f"meld the black threes {cards('3b', '3b', '3b')}"
    if kind == "add_black_three":
        return f"add {card('3b')} to the black threes"
    if kind == "ask_to_go_out":
        return "ask partner: may I go out?"
    if kind == "answer_yes":
        return "answer: yes, go out"
    return "answer: no, not this turn"


def meld_labels(meld: Meld) -> list[str]:
    """The cards of a meld on the table, as labels."""
    if isinstance(meld, Run):
        return [KIND_NAMES[natural_kind(r)] + SUIT_LETTERS[meld.suit] for r in range(meld.low, meld.high + 1)]
    if isinstance(meld, ThreesGroup):
        return ["3b"] * meld.size
    if isinstance(meld, Group):
        name = KIND_NAMES[natural_kind(meld.rank)]
        return [name] * meld.naturals + ["2"] * meld.twos + ["Jk"] * meld.jokers
    if isinstance(meld, WildBook):
        return ["2"] * meld.twos + ["Jk"] * meld.jokers
    assert isinstance(meld, TwosBook)
    return ["2"] * meld.twos


def opening_words(game: Game, owner: int) -> str:
    """What ``owner``'s side laid down as it opened: every meld of its table, which it has
    only just opened (docs/rules.md "Opening")."""
    return "opens, laying down " + ", ".join(cards(*meld_labels(meld)) for meld in game.sides[owner].groups)


def still_needed_to_go_out(game: Game, owner: int) -> list[str]:
    """The books ``owner``'s side still lacks to go out in this deal, in words (docs/rules.md
    "The foot and going out"; in house, canastas; "Variations": the wild book, the book of 7s);
    empty once its books allow going out (for a player on its foot)."""
    rules = game.rules
    books = count_books(game.sides[owner].groups, rules.book_size)
    need_clean, need_dirty = game.books_needed()
    clean, dirty = ("red canasta", "black canasta") if rules.runs else ("clean book", "dirty book")
    missing = []
    for count, name in ((need_clean - books.clean, clean), (need_dirty - books.dirty, dirty)):
        if count > 0:
            missing.append(f"{count} {name}{'s' if count > 1 else ''}")
    if rules.wild_book_to_go_out and books.wild < 1:
        missing.append("a wild book")
    sevens = {
        "no": True,
        "any": books.sevens_clean + books.sevens_dirty >= 1,
        "clean": books.sevens_clean >= 1,
        "dirty": books.sevens_dirty >= 1,
    }[rules.sevens_book_to_go_out]
    if not sevens:
        missing.append(
            "a book of 7s" if rules.sevens_book_to_go_out == "any" else f"a {rules.sevens_book_to_go_out} book of 7s"
        )
    return missing


__all__ = ["card", "cards", "meld_labels", "move_words", "opening_words", "still_needed_to_go_out"]
