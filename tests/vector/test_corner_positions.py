"""Corner seeking: end-of-stock positions built on purpose, played out on both engines.

Random play almost never reaches the rules' last corners (the stock emptied by red-three
replacements while a player on its foot holds one card).  Here a generator writes such
positions as scenarios — tiny stocks thick with red threes, players on their feet with one
to three cards, sides with and without the books to go out — and plays each to the end of
its deal on both engines (``TwinGame``: masks, observations, scores compared after every
action), checking every invariant, liveness included, after every action.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handfoot_env.reference.invariants import check_position
from handfoot_env.reference.scenario import build_scenario
from handfoot_env.reference.state import NO_LEGAL_ACTION
from handfoot_lab.differential import TwinGame

RANK_NAMES = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
TABLES = {  # what a side may have down: nothing, unfinished groups, or books
    "rank": [
        "",
        "9 9 9",
        "K K K K K K K",
        "Q Q Q Q Q 2 2",
        "K K K K K K K|Q Q Q Q Q 2 2",
        "K K K K K K K|J J J J J J J|Q Q Q Q Q 2 2|10 10 10 10 10 10 Jk",
    ],
    "house": [
        "",
        "9c 9d 9h",
        "4h 5h 6h",
        "Kc Kd Kh Ks Kc Kd Kh|Qc Qd Qh Qs Qd 2 2",
        "4s 5s 6s 7s 8s 9s 10s|2 2 2 2 2 2 2|Qc Qd Qh Qs Qh 2 2|Jc Jd Jh Js Jc Jd Jk",
    ],
}


def corner_scenario(rng: np.random.Generator, preset: str) -> dict:
    """A turn-start position near the end of a deal, as a scenario."""
    players = 4 if preset == "partnership" else 2
    house = preset == "house"

    def card() -> str:
        roll = rng.random()
        if roll < 0.12:
            return rng.choice(["2", "Jk"])
        if roll < 0.18 and house:
            return rng.choice(["3b", "3r"])
        if roll < 0.18:
            return "3b"
        name = RANK_NAMES[rng.integers(0, 11)]
        return name + ("cdhs"[rng.integers(0, 4)] if house else "")

    seats = []
    for seat in range(players):
        hand = " ".join(card() for _ in range(1 if seat == 0 and rng.random() < 0.5 else rng.integers(1, 4)))
        if rng.random() < 0.6 or seat == 0:
            seats.append({"hand": hand, "on_foot": True})
        else:
            seats.append({"hand": hand, "foot": f"random {rng.integers(1, 4)}"})
    owners = 2
    tables = []
    for _ in range(owners):
        melds = TABLES["house" if house else "rank"][rng.integers(0, 6 if not house else 5)]
        groups = [m for m in melds.split("|") if m]
        tables.append({"opened": bool(groups) or bool(rng.random() < 0.3), "groups": groups})
    stock = " ".join(("3r" if rng.random() < 0.5 and not house else card()) for _ in range(rng.integers(2, 5)))
    pile = " ".join(card() for _ in range(rng.integers(0, 4))).replace("3r", "3b")  # never in a pile
    # room for two tables and the random cards: classic's 3 decks and house's 5 can run out of a
    # card (house seed 490787: both sides hold the table with two Jd, and two more Jd were drawn)
    rules = {"num_deals": 1, "num_decks": {"classic": 5, "partnership": 5, "house": 8}[preset]}
    return {
        "preset": preset,
        "rules": rules,
        "phase": "draw",
        "to_move": 0,
        "seats": seats,
        "tables": tables,
        "stock": stock,
        "pile": pile,
    }


def play_out(scenario: dict, seed: int) -> str | None:
    """Play the position to the end of its deal on both engines; how the deal ended (None if
    the position could not start: no legal action at a turn's start is a deal the rules
    would already have ended)."""
    twin = TwinGame(*build_scenario(scenario))
    if not twin.legal_mask().any():
        return None
    rng = np.random.default_rng(seed)
    for _ in range(400):
        if twin.is_over:
            return twin.deal_results[-1].ended_by
        check_position(twin.game, whole_pack=False)  # the stock is written out: part of the pack
        twin.step(int(rng.choice(np.flatnonzero(twin.legal_mask()))))
    raise AssertionError("the deal did not end")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(["classic", "partnership", "house"]), seed=st.integers(0, 2**31 - 1))
def test_end_of_stock_positions_keep_every_invariant_on_both_engines(preset, seed):
    play_out(corner_scenario(np.random.default_rng(seed), preset), seed)


def test_the_generator_reaches_the_stock_emptied_corner():
    """The generator must keep finding the corner it is for: a deal ended because the stock
    ran out mid-turn and the player to move had no legal action."""
    endings = [
        play_out(corner_scenario(np.random.default_rng(seed), preset), seed)
        for seed in range(120)
        for preset in ("classic", "partnership")
    ]
    assert endings.count(NO_LEGAL_ACTION) >= 10, {e: endings.count(e) for e in set(endings)}
