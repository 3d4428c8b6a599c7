"""A position as JSON, as one seat may see it: the only thing the web server ever sends.

``position(game, seat)`` holds the rules that differ from the preset's, the seat's own hand
and staged cards, every table, the pile's top and size, the stock's size, each seat's hand and
foot sizes, the scores and the score sheet (each deal's parts: cards melded, book bonuses, red
threes, going out, cards held), what each side still needs to go out, and the seat's legal
moves (when it is to move) — never another hand, a foot's cards or the stock order.
``reveal=True`` (replays only) adds every hand and foot.
"""

from __future__ import annotations

from typing import Any

from handfoot_env import actions as A
from handfoot_env.cards import CARD_KIND, FIRST_NATURAL, KIND_NAMES, NUM_KINDS, NUM_SUITS, SUIT_LETTERS, card_name
from handfoot_env.reference import Game
from handfoot_env.reference.state import Group, Run, ThreesGroup, TwosBook, WildBook
from handfoot_env.rules import Rules
from handfoot_lab.play import command_for
from handfoot_lab.web.words import move_words, still_needed_to_go_out

# Cards are labels: "K", "10", "Jk", "2", "3b", "3r"; in house a natural carries its suit: "Kh".
ORDER = [kind for kind in range(NUM_KINDS - 1, FIRST_NATURAL - 1, -1)] + [1, 0, 2, 3]  # A..4, 2, Jk, 3b, 3r


def cards_of(counts: list[int], suits: list[list[int]] | None) -> list[str]:
    """The labels of a hand (counts per kind, and per suit in house), highest first."""
    out = []
    for kind in ORDER:
        if suits is not None and kind >= FIRST_NATURAL:
            for suit in range(NUM_SUITS):
                out += [KIND_NAMES[kind] + SUIT_LETTERS[suit]] * suits[suit][kind - FIRST_NATURAL]
        else:
            out += [KIND_NAMES[kind]] * counts[kind]
    return out


def _meld(meld) -> dict[str, Any]:
    if isinstance(meld, Group):
        return {
            "type": "group",
            "rank": KIND_NAMES[FIRST_NATURAL + meld.rank],
            "naturals": meld.naturals,
            "twos": meld.twos,
            "jokers": meld.jokers,
            "size": meld.size,
            "clean": meld.is_clean,
        }
    if isinstance(meld, Run):
        return {
            "type": "run",
            "suit": SUIT_LETTERS[meld.suit],
            "low": KIND_NAMES[FIRST_NATURAL + meld.low],
            "cards": [KIND_NAMES[FIRST_NATURAL + r] + SUIT_LETTERS[meld.suit] for r in range(meld.low, meld.high + 1)],
            "size": meld.size,
            "clean": True,
        }
    if isinstance(meld, TwosBook):
        return {"type": "twos", "size": meld.size, "clean": True}
    if isinstance(meld, WildBook):  # docs/rules.md "Variations": wild books
        return {"type": "wild", "twos": meld.twos, "jokers": meld.jokers, "size": meld.size, "clean": False}
    assert isinstance(meld, ThreesGroup)  # docs/rules.md "Variations": threes as a book
    return {"type": "threes", "size": meld.size, "clean": True}


def changed_rules(rules: Rules) -> dict[str, Any]:
    """The settings of ``rules`` that differ from their preset's at this player count, as JSON
    values: what the page's rules line names."""
    try:
        preset = Rules.preset(rules.preset_name, num_players=rules.num_players)
    except ValueError:  # a record's rules may seat a player count the preset alone does not
        preset = Rules.preset(rules.preset_name)
    return rules.changes_from(preset)


def legal_moves(game: Game) -> list[dict[str, Any]]:
    """The legal actions of the player to move: index, kind, the page's words (``words.py``),
    the engine's name of it, and the command the page sends for a meld or a discard."""
    return [
        {
            "action": a,
            "kind": A.decode(a).kind,
            "words": move_words(a, game),
            "text": A.describe(a, game.rules),
            "command": command_for(a, game),
        }
        for a in game.legal_actions()
    ]


def position(game: Game, seat: int, reveal: bool = False, names: list[str] | None = None) -> dict[str, Any]:
    """What ``seat`` may know of ``game`` (everything, with ``reveal``), as JSON-ready data."""
    rules = game.rules
    suited = rules.runs
    sides = []
    for owner, side in enumerate(game.sides):
        book_size = rules.book_size
        sides.append(
            {
                "owner": owner,
                "seats": [s for s in range(rules.num_players) if rules.owner_of(s) == owner],
                "total": game.totals[owner],
                "opened": side.opened,
                "minimum": game.minimum(owner),
                "still_needed": still_needed_to_go_out(game, owner),  # books, to go out this deal
                "red_threes": side.red_threes,
                "books": [_meld(m) for m in side.groups if m.size >= book_size],
                "melds": [_meld(m) for m in side.groups if m.size < book_size],
            }
        )
    me = game.seats[seat]
    seats = []
    for s, other in enumerate(game.seats):
        entry = {
            "seat": s,
            "name": (names or [""] * rules.num_players)[s],
            "owner": rules.owner_of(s),
            "hand": other.hand_size + sum(g.size for g in other.staged),
            "foot": 0 if other.on_foot else sum(other.foot),
            "on_foot": other.on_foot,
            "known_cards": cards_of(other.known, None),
        }  # taken from the pile, not shown since
        if reveal:
            entry["hand_cards"] = cards_of(other.hand, other.hand_suits if suited else None)
            entry["foot_cards"] = cards_of(other.foot, other.foot_suits if suited else None)
        seats.append(entry)
    staged = [0] * NUM_KINDS
    for group in me.staged:
        for kind, count in enumerate(group.counts()):
            staged[kind] += count
    top = game.pile[-1] if game.pile else None
    view = {
        "preset": rules.preset_name,
        "players": rules.num_players,
        "partnerships": rules.partnerships,
        "changed_rules": changed_rules(rules),
        "deal": game.deal_index + 1,
        "deals": rules.num_deals,
        "dealer": game.dealer,
        "current": game.current,
        "to_act": game.mover,  # the seat to act: the asked partner while "may I go out?" stands
        "question": game.permission,  # this turn's permission question ("not asked" without the variation)
        "phase": game.phase,
        "over": game.is_over,
        "turn": len(game.actions),
        "seat": seat,
        "stock": len(game.stock),
        "pile": {
            "size": len(game.pile),
            "top": card_name(top) if top is not None else None,
            "blocked": top is not None and int(CARD_KIND[top]) < FIRST_NATURAL,
        },
        "seats": seats,
        "sides": sides,
        "hand": cards_of(me.hand, me.hand_suits if suited else None),
        "staged": cards_of(staged, me.staged_suits if suited else None),
        "staged_value": me.staged_value,
        "score_sheet": [  # each deal, and each side's parts of it (scoring.OwnerScore)
            {
                "deal": d.deal_index + 1,
                "scores": list(d.scores),
                "ended_by": d.ended_by,
                "went_out": d.went_out,
                "parts": d.to_dict()["owners"],
            }
            for d in game.deal_results
        ],
        "legal": legal_moves(game) if game.mover == seat and not game.is_over else [],
        "winners": game.winners() if game.is_over else [],
    }
    return view


__all__ = ["cards_of", "changed_rules", "legal_moves", "position"]
