"""Shared helpers for the tests: scenario shorthands and a fingerprint of a game's state."""

from __future__ import annotations

import json

import numpy as np

from handfoot_env import actions as A
from handfoot_env.cards import parse_kind, rank_of
from handfoot_env.reference import Game
from handfoot_lab.differential import TwinGame


def rank(name: str) -> int:
    """Rank index of a natural by name: rank('K') == 9."""
    return rank_of(parse_kind(name))


def kind(name: str) -> int:
    return parse_kind(name)


def scenario(text: str) -> TwinGame:
    """The scenario's position in both engines: every step is compared (masks, every seat's
    observation, rewards, scores), while the test reads the reference game's state."""
    return TwinGame.from_scenario(text)


def fingerprint(game: Game) -> str:
    """Everything that makes up the state, as a string, to prove a refused action changed nothing."""
    return json.dumps(
        {
            "places": game.card_counts_by_place(),
            "stock": game.stock,
            "pile": game.pile,
            "phase": game.phase,
            "current": game.current,
            "deal": game.deal_index,
            "totals": game.totals,
            "actions": game.actions,
            "sides": [(s.opened, s.red_threes, [repr(g) for g in s.groups]) for s in game.sides],
            "seats": [(s.on_foot, s.known, [repr(g) for g in s.staged]) for s in game.seats],
            "suits": [(s.hand_suits, s.foot_suits, s.staged_suits) for s in game.seats],
        },
        sort_keys=True,
    )


def assert_illegal_actions_refused(game: Game) -> None:
    """Every masked action raises an error naming it and leaves the state exactly as it was."""
    import pytest

    from handfoot_env.errors import IllegalActionError

    mask = game.legal_mask()
    before = fingerprint(game)
    for action in np.flatnonzero(~mask):
        with pytest.raises(IllegalActionError, match=f"illegal action {action} "):
            game.step(int(action))
        assert fingerprint(game) == before


def play_random(game: Game, seed: int, max_actions: int = 50_000, check=None) -> Game:
    """Play uniformly random legal actions to the end of the game."""
    rng = np.random.default_rng(seed)
    for _ in range(max_actions):
        if game.is_over:
            return game
        game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
        if check is not None:
            check(game)
    raise AssertionError(f"game did not end within {max_actions} actions")


__all__ = ["A", "assert_illegal_actions_refused", "fingerprint", "kind", "play_random", "rank", "scenario"]
