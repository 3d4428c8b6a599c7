"""The observation of one seat, built from a reference game (layout in ``observation.py``)."""

from __future__ import annotations

import numpy as np

from handfoot_env import observation as O
from handfoot_env.cards import NUM_KINDS
from handfoot_env.reference.game import DRAW_PHASE, PLAY_PHASE, Game
from handfoot_env.reference.state import count_books


def observe(game: Game, seat: int) -> np.ndarray:
    """What ``seat`` may know, as the fixed-size float32 vector of :mod:`handfoot_env.observation`."""
    rules = game.rules
    obs = np.zeros(O.OBS_SIZE, dtype=np.float32)
    me = game.seats[seat]
    my_owner = rules.owner_of(seat)
    obs[O.HAND:O.HAND + NUM_KINDS] = me.hand
    for group in me.staged:
        for kind, count in enumerate(group.counts()):
            obs[O.STAGED + kind] += count
    obs[O.STAGED_VALUE] = me.staged_value / 100
    obs[O.ON_FOOT] = me.on_foot

    for slot, other in enumerate(O.relative_seats(seat, rules.num_players)):
        s = game.seats[other]
        base = O.SEATS + slot * O.SEAT_FIELDS
        staged = sum(g.size for g in s.staged)
        obs[base:base + O.SEAT_FIELDS] = (
            1,
            other != seat and rules.owner_of(other) == my_owner,
            s.hand_size + staged,
            0 if s.on_foot else sum(s.foot),
            s.on_foot,
        )

    for slot, owner in enumerate(O.relative_owners(my_owner, rules.num_owners)):
        side = game.sides[owner]
        base = O.OWNERS + slot * O.OWNER_FIELDS
        clean, dirty = count_books(side.groups, rules.book_size)
        obs[base:base + O.OWNER_HEADER] = (
            1,
            side.opened,
            side.red_threes,
            clean,
            dirty,
            sum(g.value for g in side.groups) / 100,
            game.totals[owner] / 1000,
            game.minimum(owner) / 100,
        )
        for group in side.groups:
            if group.size < rules.book_size:
                at = base + O.OWNER_HEADER + 3 * group.rank
                obs[at:at + 3] = (group.naturals, group.twos, group.jokers)

    obs[O.PILE_SIZE] = len(game.pile)
    if game.pile:
        obs[O.PILE_TOP + game.pile[-1]] = 1
        for kind in game.pile:
            obs[O.PILE_COUNTS + kind] += 1
        window = len(game.pile) - 1
        if rules.pile_take_count is not None:
            window = min(window, max(rules.pile_take_count - 1, 0))
        for kind in game.pile[len(game.pile) - 1 - window:len(game.pile) - 1]:
            obs[O.PILE_TAKE_WINDOW + kind] += 1

    need_clean, need_dirty = game.books_needed()
    obs[O.GAME:O.GAME + O.GAME_FIELDS] = (
        game.phase == DRAW_PHASE,
        game.phase == PLAY_PHASE,
        game.deal_index,
        rules.num_deals,
        len(game.stock),
        game.minimum(my_owner) / 100,
        need_clean,
        need_dirty,
        rules.partnerships,
        rules.num_players,
        game.sides[my_owner].opened,
    )
    return obs


__all__ = ["observe"]
