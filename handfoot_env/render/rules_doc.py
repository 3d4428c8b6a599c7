"""The "Variations" table of docs/rules.md, generated from :class:`handfoot_env.rules.Rules`.

Every field of ``Rules`` has a row: its values, its default, the presets that set it otherwise
and what it means.  ``tests/render/test_rules_doc.py`` holds docs/rules.md to :func:`markdown_table`,
so a field added to ``Rules`` without a row here (or a table not regenerated) fails it.
Regenerate the page's table with ``python -m handfoot_env.render.rules_doc``.
"""

from __future__ import annotations

import dataclasses

from handfoot_env.rules import PRESET_NAMES, PRESETS, SEVENS_BOOKS, WILD_LIMITS, Rules

# field: (its values, what it means) -- in the order of the fields of Rules.
FIELD_DOCS: dict[str, tuple[str, str]] = {
    "preset_name": (", ".join(PRESET_NAMES), "the preset the other fields start from"),
    "num_players": ("2-6", "players at the table (partnerships: 4, or 6 in three teams of two)"),
    "partnerships": ("true, false", "partners share groups, the opening and the score (seats 0+2, 1+3; 0+3, 1+4, 2+5)"),
    "num_decks": ("1-12", "54-card decks in the pack (default: one more than the players)"),
    "hand_size": ("1-30", "cards dealt to each hand (11/11, 13/13, 11/13, 15/15)"),
    "foot_size": ("1-30", "cards dealt to each foot"),
    "num_deals": ("1-30: 1, 2, 4 (house: the cap, 30)", "deals in a game"),
    "deal_minimums": ("one per deal", "opening minimum of each deal (50/90/120/150 or 60/90/120/150)"),
    "minimums_by_score": ("(threshold, minimum) rows or null", "opening minimum by running total instead of by deal"),
    "target_score": ("a total or null", "the game ends after the deal in which an owner reaches it"),
    "draw_count": ("1-3", "cards drawn from the stock"),
    "draw_one_plus_discard": ("true, false", "draw one from the stock plus the top discard (no pair needed)"),
    "pile_upcard": ("true, false", "the pile starts with the stock's top card turned up"),
    "pile_take_count": ("7, 5, a count, null (whole pile), 0 (no taking)", "cards of the pile a take brings"),
    "pile_min_size": ("0-50", "the pile must hold this many cards to be taken"),
    "take_requires_opened": ("true, false", "the taker must have opened this deal (else the take may open)"),
    "staging_before_draw": ("true, false", "groups may be staged before the draw, so that a take can open"),
    "take_onto_table": ("true, false", "the top card may be taken onto an unfinished group of the side (no pair)"),
    "take_with_natural_and_wild": ("true, false", "the pile may be taken with one natural and one wild"),
    "wild_freezes_pile": ("true, false", "a pile holding a wild is frozen: only a natural pair takes it"),
    "book_size": ("3-11", "cards that close a group as a book"),
    "max_wilds": ("0-6", "wild cards a group may hold"),
    "wild_limit": (", ".join(WILD_LIMITS), "naturals outnumber wilds / 1 wild in 3-5 and 2 in 6-7 / 4 naturals"),
    "clean_book_bonus": ("0-100,000", "bonus of a clean book (house: red canasta): 500 or 300"),
    "dirty_book_bonus": ("0-100,000", "bonus of a dirty book (house: black canasta): 300 or 100"),
    "wild_books": ("true, false", "groups of wilds only (three to start), a book of 7 wilds"),
    "wild_book_bonus": ("0-100,000", "bonus of a wild book (1,500)"),
    "wild_book_to_go_out": ("true, false", "a wild book is needed to go out"),
    "black_three_books": ("true, false", "black threes form groups of their own (no wilds; a clean book at 7)"),
    "runs": ("true, false", "runs of one suit within 4..A"),
    "books_of_twos": ("true, false", "a book of 2s (no joker)"),
    "frozen_six": ("true, false", "a six-card meld cannot take the top discard"),
    "red_threes_laid_down": ("true, false", "red threes go down at once and are replaced (else held)"),
    "red_three_bonus": ("0-100,000", "bonus per red three laid down"),
    "red_three_unopened_penalty": ("true, false", "a side that never opened scores its red threes as minus the bonus"),
    "red_three_unlaid_penalty": ("0-100,000", "cost of a red three held at the end (100 or 500)"),
    "black_three_penalty": ("0-100,000", "cost of a black three held at the end"),
    "books_to_go_out": ("(clean, dirty) per deal", "books needed to go out (e.g. deal 2: 2+1, deal 4: 3+2)"),
    "going_out_bonus": ("0-100,000", "bonus for going out"),
    "go_out_by_meld": ("true, false", "false: a player must finish with a discard"),
    "sevens_book_to_go_out": (", ".join(SEVENS_BOOKS), "a book of 7s (any, clean or dirty) is also needed to go out"),
    "partner_foot_first": ("true, false", "partnerships: a player goes out only once its partners picked up the foot"),
    "permission_to_go_out": ("true, false", "partnerships: a player asks its partner 'may I go out?' first"),
}


def _text(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value >= 2**62:  # house's last minimum row: no upper threshold
        return "inf"
    if isinstance(value, tuple):
        if len(set(value)) == 1 and len(value) > 2:
            return f"{_text(value[0])} x {len(value)}"
        return "(" + ", ".join(_text(v) for v in value) + ")"
    return str(value)


def rows() -> list[tuple[str, str, str, str, str]]:
    """(setting, values, default, presets that set it otherwise, meaning) for every field of Rules."""
    out = []
    for field in dataclasses.fields(Rules):
        values, meaning = FIELD_DOCS[field.name]
        default = "players + 1" if field.name == "num_decks" else _text(field.default)
        presets = [
            f"{name}: {_text(PRESETS[name][field.name])}"
            for name in PRESET_NAMES
            if field.name in PRESETS[name] and PRESETS[name][field.name] != field.default
        ]
        out.append((f"`{field.name}`", values, default, "; ".join(presets) or "-", meaning))
    return out


def markdown_table() -> str:
    lines = ["| setting | values | default | presets that set it | what it is |", "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
