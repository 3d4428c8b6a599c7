"""A reference position written into one game's record of the vector engine.

``write_position`` copies a :class:`~handfoot_env.reference.Game` (a scenario, or a game
stopped mid-deal) into row ``b`` so that both engines continue from the same position:
the differential tests run every scenario test on both engines this way.  The reference
holds melds as objects; the record holds, per owner (and for the staged melds, in the row
``STAGED``), the unfinished group of each rank, the unfinished run of each suit, the
unfinished book of 2s and the count of books.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from handfoot_env.cards import RED_THREE
from handfoot_env.reference.state import Group, Run, ThreesGroup, TwosBook, WildBook
from handfoot_env.vector.state import DRAW, OVER, PERMISSION_NAMES, PLAY, STAGED, fill_packs

if TYPE_CHECKING:
    from handfoot_env.reference import Game

_PHASES = {"draw": DRAW, "play": PLAY, "game_over": OVER}
_PERMISSIONS = {name: code for code, name in PERMISSION_NAMES.items()}  # the reference's names


def _write_melds(s, row: int, melds, book_size: int) -> None:
    """The melds of one row (an owner's table, or the staged melds) into the record's arrays."""
    for name in ("groups", "runs", "book_ranks", "books", "wild_book", "table_cards"):
        s[name][row] = 0
    for name in ("twos", "wild_books", "threes"):
        s[name][row] = 0
    for meld in melds:
        complete = meld.size >= book_size
        s["table_cards"][row] += np.asarray(meld.counts(), dtype=np.int64)
        if complete:
            if isinstance(meld, WildBook):
                s["wild_books"][row] += 1
                continue
            s["books"][row][0 if meld.is_clean else 1] += 1
            if isinstance(meld, Group):
                s["book_ranks"][row][meld.rank, 0 if meld.is_clean else 1] += 1
        elif isinstance(meld, Group):
            s["groups"][row][meld.rank] = (meld.naturals, meld.twos, meld.jokers)
        elif isinstance(meld, Run):
            s["runs"][row][meld.suit] = (meld.length, meld.low)
        elif isinstance(meld, TwosBook):
            s["twos"][row] = meld.twos
        elif isinstance(meld, WildBook):
            s["wild_book"][row] = (meld.twos, meld.jokers)
        elif isinstance(meld, ThreesGroup):
            s["threes"][row] = meld.threes


def write_position(states: np.ndarray, packs: np.ndarray, b: int, game: Game) -> None:
    """Copy the reference ``game``'s whole position into row ``b`` of ``states``/``packs``."""
    rules = game.rules
    fill_packs(states, packs, np.array([b]), np.array([game.seed]), rules)  # the later deals
    s = states[b]
    s["deal"] = game.deal_index
    s["first_dealer"] = game.first_dealer
    s["dealer"] = game.dealer
    s["current"] = game.current
    s["phase"] = _PHASES[game.phase]
    s["permission"] = _PERMISSIONS[game.permission]
    s["went_out"] = -1 if game.went_out is None else game.went_out
    s["num_steps"] = len(game.actions)
    s["deals_ended"] = len(game.deal_results)
    for name, ids in (("stock", game.stock), ("pile", game.pile)):
        s[name][:] = 0
        s[name][: len(ids)] = ids  # both keep the top last
        s[f"{name}_len"] = len(ids)
    for field in ("hand", "foot", "on_foot", "known", "hand_suits", "foot_suits"):
        s[field][:] = 0
    for i, seat in enumerate(game.seats):
        s["hand"][i] = seat.hand
        s["known"][i] = seat.known
        s["foot"][i] = seat.foot
        s["on_foot"][i] = seat.on_foot
        s["hand_suits"][i] = seat.hand_suits
        s["foot_suits"][i] = seat.foot_suits

    for field in (
        "groups",
        "runs",
        "twos",
        "books",
        "book_ranks",
        "wild_book",
        "wild_books",
        "threes",
        "table_cards",
        "opened",
        "totals",
    ):
        s[field][:] = 0
    # Each owner's table, then in the STAGED row the melds of the player to move (only it stages).
    staged = game.seats[game.current].staged if game.phase != "game_over" else []
    rows = {owner: side.groups for owner, side in enumerate(game.sides)}
    rows[STAGED] = staged
    for row, melds in rows.items():
        _write_melds(s, row, melds, rules.book_size)
    for o, side in enumerate(game.sides):
        s["table_cards"][o][RED_THREE] += side.red_threes
        s["opened"][o] = side.opened
        s["totals"][o] = game.totals[o]
    s["staged_value"] = sum(g.value for g in staged)
    s["staged_suits"] = game.seats[game.current].staged_suits
    s["deal_scores"][:] = 0
    for result in game.deal_results:
        s["deal_scores"][result.deal_index, : rules.num_owners] = result.scores
