"""The observation of one seat, built from a reference game (layout in ``observation.py``)."""

from __future__ import annotations

import numpy as np

from handfoot_env import observation as O
from handfoot_env.cards import CARD_KIND, CARD_SUIT, NUM_KINDS
from handfoot_env.reference import rule_facts as facts
from handfoot_env.reference.game import DRAW_PHASE, PLAY_PHASE, Game
from handfoot_env.reference.state import (
    ASKED,
    GRANTED,
    REFUSED,
    Group,
    Meld,
    Run,
    ThreesGroup,
    TwosBook,
    WildBook,
    count_books,
)


def observe(game: Game, seat: int) -> np.ndarray:
    """What ``seat`` may know, as the fixed-size float32 vector of :mod:`handfoot_env.observation`."""
    rules = game.rules
    obs = np.zeros(O.OBS_SIZE, dtype=np.float32)
    me = game.seats[seat]
    my_owner = facts.owner_of(rules, seat)
    obs[O.HAND : O.HAND + NUM_KINDS] = me.hand
    for group in me.staged:
        for kind, count in enumerate(group.counts()):
            obs[O.STAGED + kind] += count
    obs[O.STAGED_VALUE] = me.staged_value / 100
    obs[O.ON_FOOT] = me.on_foot

    for slot, other in enumerate(O.relative_seats(seat, rules.num_players)):
        s = game.seats[other]
        base = O.SEATS + slot * O.SEAT_FIELDS
        staged = sum(g.size for g in s.staged)
        obs[base + O.SEAT_PRESENT] = 1
        obs[base + O.SEAT_PARTNER] = other != seat and facts.owner_of(rules, other) == my_owner
        obs[base + O.SEAT_HELD] = s.hand_size + staged
        obs[base + O.SEAT_FOOT] = 0 if s.on_foot else sum(s.foot)
        obs[base + O.SEAT_ON_FOOT] = s.on_foot
        obs[O.SEAT_KNOWN + slot * NUM_KINDS : O.SEAT_KNOWN + (slot + 1) * NUM_KINDS] = s.known

    for slot, owner in enumerate(O.relative_owners(my_owner, rules.num_owners)):
        side = game.sides[owner]
        base = O.OWNERS + slot * O.OWNER_FIELDS
        clean, dirty = count_books(side.groups, rules.book_size)[:2]
        obs[base + O.OWNER_PRESENT] = 1
        obs[base + O.OWNER_OPENED] = side.opened
        obs[base + O.OWNER_RED_THREES] = side.red_threes
        obs[base + O.OWNER_CLEAN_BOOKS] = clean
        obs[base + O.OWNER_DIRTY_BOOKS] = dirty
        obs[base + O.OWNER_MELDED] = sum(g.value for g in side.groups) / 100
        obs[base + O.OWNER_TOTAL] = game.totals[owner] / 1000
        obs[base + O.OWNER_MINIMUM] = game.minimum(owner) / 100
        for group in side.groups:
            if isinstance(group, Group) and group.size < rules.book_size:
                at = base + O.OWNER_GROUPS + 3 * group.rank
                obs[at : at + 3] = (group.naturals, group.twos, group.jokers)

    obs[O.PILE_SIZE] = len(game.pile)
    if game.pile:
        pile = CARD_KIND[game.pile].astype(np.int64)
        obs[O.PILE_TOP + pile[-1]] = 1
        for kind in pile:
            obs[O.PILE_COUNTS + kind] += 1
        window = len(game.pile) - 1
        if rules.draw_one_plus_discard:
            window = 0  # house: only the top discard is ever taken
        elif rules.pile_take_count is not None:
            window = min(window, max(rules.pile_take_count - 1, 0))
        for kind in pile[len(pile) - 1 - window : len(pile) - 1]:
            obs[O.PILE_TAKE_WINDOW + kind] += 1

    obs[O.GAME_DRAW_PHASE] = game.phase == DRAW_PHASE
    obs[O.GAME_PLAY_PHASE] = game.phase == PLAY_PHASE
    obs[O.GAME_DEAL] = game.deal_index
    obs[O.GAME_DEALS] = rules.num_deals
    obs[O.GAME_STOCK] = len(game.stock)
    obs[O.GAME_MINIMUM] = game.minimum(my_owner) / 100
    obs[O.GAME_CLEAN_NEEDED], obs[O.GAME_DIRTY_NEEDED] = game.books_needed()
    obs[O.GAME_PARTNERSHIP] = rules.partnerships
    obs[O.GAME_PLAYERS] = rules.num_players
    obs[O.GAME_OPENED] = game.sides[my_owner].opened
    if rules.runs or rules.books_of_twos:
        _observe_house(game, seat, obs)
    if rules.plays_variations:
        _observe_variations(game, seat, obs)
    return obs


def _put_wild_and_threes(melds: list[Meld], book_size: int, obs: np.ndarray, wild_at: int, threes_at: int) -> None:
    """The unfinished wild book (2s, jokers) and group of black threes among ``melds``."""
    for meld in melds:
        if meld.size >= book_size:
            continue
        if isinstance(meld, WildBook):
            obs[wild_at : wild_at + 2] = (meld.twos, meld.jokers)
        elif isinstance(meld, ThreesGroup):
            obs[threes_at] = meld.threes


def _observe_variations(game: Game, seat: int, obs: np.ndarray) -> None:
    """The fields of layout version 2: the permission question, the variations' rules, and
    each side's wild books, group of black threes and books of 7s (filled only under rules that
    play a variation: under the presets they stay zero)."""
    rules = game.rules
    if game.permission == ASKED:
        obs[O.QUESTION_STANDS] = 1
        obs[O.QUESTION_MINE] = seat == game.current
        obs[O.QUESTION_PARTNERS] = seat in facts.partners_of(rules, game.current)
    obs[O.QUESTION_GRANTED] = game.permission == GRANTED
    obs[O.QUESTION_REFUSED] = game.permission == REFUSED
    obs[O.RULE_WILD_BOOKS] = rules.wild_books
    obs[O.RULE_WILD_BOOK_TO_GO_OUT] = rules.wild_book_to_go_out
    obs[O.RULE_WILD_BOOK_BONUS] = rules.wild_book_bonus / 1000 if rules.wild_books else 0
    obs[O.RULE_BLACK_THREE_BOOKS] = rules.black_three_books
    obs[O.RULE_SEVENS_ANY] = rules.sevens_book_to_go_out == "any"
    obs[O.RULE_SEVENS_CLEAN] = rules.sevens_book_to_go_out == "clean"
    obs[O.RULE_SEVENS_DIRTY] = rules.sevens_book_to_go_out == "dirty"
    obs[O.RULE_TAKE_ONTO_TABLE] = rules.take_onto_table
    obs[O.RULE_TAKE_WITH_WILD] = rules.take_with_natural_and_wild
    obs[O.RULE_WILD_FREEZES_PILE] = rules.wild_freezes_pile
    obs[O.RULE_PARTNER_FOOT_FIRST] = rules.partner_foot_first
    obs[O.RULE_PERMISSION] = rules.permission_to_go_out
    for slot, owner in enumerate(O.relative_owners(facts.owner_of(rules, seat), rules.num_owners)):
        groups = game.sides[owner].groups
        base = O.VARIATION_SIDES + slot * O.VARIATION_SIDE_FIELDS
        books = count_books(groups, rules.book_size)
        _put_wild_and_threes(groups, rules.book_size, obs, base + O.SIDE_WILD_TWOS, base + O.SIDE_THREES)
        obs[base + O.SIDE_WILD_BOOKS] = books.wild
        obs[base + O.SIDE_SEVENS_CLEAN] = books.sevens_clean
        obs[base + O.SIDE_SEVENS_DIRTY] = books.sevens_dirty
    _put_wild_and_threes(game.seats[seat].staged, rules.book_size, obs, O.STAGED_WILD_TWOS, O.STAGED_THREES)


def _put_runs_and_twos(melds: list[Meld], book_size: int, obs: np.ndarray, runs_at: int, twos_at: int) -> None:
    for meld in melds:
        if meld.size >= book_size:
            continue
        if isinstance(meld, Run):
            obs[runs_at + 2 * meld.suit : runs_at + 2 * meld.suit + 2] = (meld.length, meld.low)
        elif isinstance(meld, TwosBook):
            obs[twos_at] = meld.twos


def _observe_house(game: Game, seat: int, obs: np.ndarray) -> None:
    """The ``house`` block: suited hand, the top discard's suit, runs and books of 2s."""
    rules = game.rules
    me = game.seats[seat]
    obs[O.HOUSE_HAND : O.HOUSE_PILE_SUIT] = np.asarray(me.hand_suits).reshape(-1)
    if game.pile and CARD_SUIT[game.pile[-1]] >= 0:
        obs[O.HOUSE_PILE_SUIT + int(CARD_SUIT[game.pile[-1]])] = 1
    _put_runs_and_twos(me.staged, rules.book_size, obs, O.HOUSE_STAGED_RUNS, O.HOUSE_STAGED_TWOS)
    for slot, owner in enumerate(O.relative_owners(facts.owner_of(rules, seat), rules.num_owners)):
        base = O.HOUSE_OWNERS + slot * O.HOUSE_OWNER_FIELDS
        _put_runs_and_twos(
            game.sides[owner].groups, rules.book_size, obs, base + O.HOUSE_OWNER_RUNS, base + O.HOUSE_OWNER_TWOS
        )
    obs[O.HOUSE_RULE_RUNS] = rules.runs
    obs[O.HOUSE_RULE_TWOS_BOOKS] = rules.books_of_twos
    obs[O.HOUSE_RULE_ONE_PLUS_DISCARD] = rules.draw_one_plus_discard
    obs[O.HOUSE_RULE_FROZEN] = rules.frozen_six


__all__ = ["observe"]
