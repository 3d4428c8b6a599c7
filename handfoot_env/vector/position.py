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

from handfoot_env.cards import NUM_KINDS, RED_THREE
from handfoot_env.reference.state import Group, Run, TwosBook
from handfoot_env.vector.state import DRAW, OVER, PLAY, STAGED, fill_packs

if TYPE_CHECKING:
    from handfoot_env.reference import Game

_PHASES = {"draw": DRAW, "play": PLAY, "game_over": OVER}


def _write_melds(melds, book_size: int, groups, runs, book_ranks, books, cards) -> int:
    """The melds of one row (an owner's table, or the staged melds) into the record's arrays;
    returns the cards of its unfinished book of 2s."""
    groups[:] = 0
    runs[:] = 0
    book_ranks[:] = 0
    books[:] = 0
    twos = 0
    for meld in melds:
        complete = meld.size >= book_size
        for kind, count in enumerate(meld.counts()):
            cards[kind] += count
        if complete:
            books[0 if meld.is_clean else 1] += 1
            if isinstance(meld, Group):
                book_ranks[meld.rank, 0 if meld.is_clean else 1] += 1
        elif isinstance(meld, Group):
            groups[meld.rank] = (meld.naturals, meld.twos, meld.jokers)
        elif isinstance(meld, Run):
            runs[meld.suit] = (meld.length, meld.low)
        elif isinstance(meld, TwosBook):
            twos = meld.twos
    return twos


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

    for field in ("groups", "runs", "twos", "books", "book_ranks", "table_cards", "opened", "totals"):
        s[field][:] = 0
    # Each owner's table, then in the STAGED row the melds of the player to move (only it stages).
    staged = game.seats[game.current].staged if game.phase != "game_over" else []
    rows = {owner: side.groups for owner, side in enumerate(game.sides)}
    rows[STAGED] = staged
    for row, melds in rows.items():
        cards = np.zeros(NUM_KINDS, dtype=np.int64)
        s["twos"][row] = _write_melds(
            melds, rules.book_size, s["groups"][row], s["runs"][row], s["book_ranks"][row], s["books"][row], cards
        )
        s["table_cards"][row] = cards
    for o, side in enumerate(game.sides):
        s["table_cards"][o][RED_THREE] += side.red_threes
        s["opened"][o] = side.opened
        s["totals"][o] = game.totals[o]
    s["staged_value"] = sum(g.value for g in staged)
    s["staged_suits"] = game.seats[game.current].staged_suits
    s["deal_scores"][:] = 0
    for result in game.deal_results:
        s["deal_scores"][result.deal_index, : rules.num_owners] = result.scores
