"""The table of single changes to the heuristic in docs/training_history.md ("What beat the heuristic"),
after how heuristic deals end (the race the changes are about).

    python scripts/experiments/heuristic_changes.py [--pairs 1000] [--seed 0]

Each row is a variant of the default heuristic (``handfoot_env/baselines/heuristic_params.py``)
in a duplicate match against it in ``partnership``; the last rows add the pair model, fitted
here on 100,000 positions (``train/pair_model.py``), once without and once with what the
next player was seen to take from the pile.  About a minute on 2 cores.
"""

from __future__ import annotations

import argparse

import numpy as np

from agents.evaluation.matches import play_match
from handfoot_env.baselines.compiled.heuristic import CompiledHeuristic
from handfoot_env.baselines.heuristic_params import NAMES, NUM_PAIR_FEATURES, PAIR_WEIGHTS, params_array
from handfoot_env.rules import Rules
from handfoot_env.seating.seats import Seating
from handfoot_env.vector import VectorEngine
from train.pair_model import fit_pair_model

BOTH = {"extra_protected": 2, "feed_penalty": -20, "feed_pile_min": 0}
CHANGES = [
    ("safe discards: feed_penalty -20", {"feed_penalty": -20}),
    ("... and at any pile size: feed_pile_min 0", {"feed_penalty": -20, "feed_pile_min": 0}),
    ("one more clean group kept clean: extra_protected 1", {"extra_protected": 1}),
    ("two more: extra_protected 2", {"extra_protected": 2}),
    ("both: extra_protected 2, feed_penalty -20, feed_pile_min 0", BOTH),
    ("pairs kept in hand, not put down with a wild: wild_pairs 0", {"wild_pairs": 0}),
    ("pairs held as tickets while the pile has 10+: hold_pairs_pile 10", {"hold_pairs_pile": 10}),
    ("new clean groups only from 4 naturals: new_group_min 4", {"new_group_min": 4}),
    ("wilds onto groups before pairs go down: wilds_first 1", {"wilds_first": 1}),
    ("wilds only on groups with fewer than 2 wilds: max_group_wilds 2", {"max_group_wilds": 2}),
    ("late once another side could go out: late_out_near 1", {"late_out_near": 1}),
    ("stop keeping two when another side could go out: rush_out_near 1", {"rush_out_near": 1}),
    ("partner's cards count against us when going out: partner_card_weight -1", {"partner_card_weight": -1}),
    ("always go out when possible: out_margin 1e6", {"out_margin": 1e6}),
    ("take the pile only with 4+ cards: take_min_pile 4", {"take_min_pile": 4}),
    ("block a pile of 12+ with a 2: block_pile_size 12", {"block_pile_size": 12}),
    ("the last wild kept in hand while two or more other cards are: keep_wilds 1", {"keep_wilds": 1}),
]


def how_deals_end(games: int = 1000) -> str:
    """One-deal partnership games of the default heuristic: how often a side goes out, and
    how many stock cards are left when the deal ends."""
    rules = Rules.preset("partnership", num_deals=1)
    engine = VectorEngine(rules, batch_size=games, auto_reset=False)
    engine.reset(seeds=np.arange(games))
    Seating(engine, [CompiledHeuristic(rules)]).play()
    states = engine.states
    return (
        f"{games} one-deal heuristic games: {(states['went_out'] >= 0).mean():.0%} ended by a side going out, "
        f"{states['stock_len'].mean():.0f} stock cards left on average, {states['num_steps'].mean():.0f} actions"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(how_deals_end() + "\n")
    rules = Rules.preset("partnership")
    default = CompiledHeuristic(rules)
    weights, _ = fit_pair_model(rules, 100_000, seed=0)
    with_model = params_array({**BOTH, "danger_weight": 50})
    with_model[PAIR_WEIGHTS : PAIR_WEIGHTS + NUM_PAIR_FEATURES] = weights
    blind = with_model.copy()  # the same model, blind to the cards seen taken from the pile
    blind[[NAMES.index("pair_known_one"), NAMES.index("pair_known_two")]] = 0.0
    rows = [(label, params_array(values)) for label, values in CHANGES]
    rows.append(("both, with the pair model but not the cards seen taken (danger_weight 50)", blind))
    rows.append(("both, with the pair model (danger_weight 50)", with_model))
    kept_wild = with_model.copy()
    kept_wild[NAMES.index("keep_wilds")] = 1
    rows.append(("both, with the pair model (danger_weight 50), and keep_wilds 1", kept_wild))
    print("| change from the default heuristic | win rate (95% CI) | score diff / game |\n|---|---|---|")
    for label, params in rows:
        r = play_match(
            rules, CompiledHeuristic(rules, params), default, deals=args.pairs, seed=args.seed, progress=False
        )
        print(f"| {label} | {r.win_rate:.1%} ({r.ci95[0]:.1%} – {r.ci95[1]:.1%}) | {r.score_diff:+.0f} |", flush=True)


if __name__ == "__main__":
    main()
