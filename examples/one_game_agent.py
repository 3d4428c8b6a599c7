"""An agent that acts on one observation at a time, as a PettingZoo policy does: a function of
the AEC env's observation (``{"observation": float32[655], "action_mask": int8[187]}``)
returning one action.  The factory returns the function; handfoot plays it game by game.

Its play, from the action layout (``handfoot actions``) and the observation's first field (my
hand, a count per kind): take the pile when it may, else draw; lay down every group and card it
can; then discard a card of the kind it holds fewest of, never a wild card.  It won all 400
games against random play on every preset and plays about level with ``greedy`` in classic and
partnership (52.5% and 53.5% of 400 games, both intervals across 50%); it knows nothing of
house's runs and suited discards (it plays those at random), and loses every house game to
``greedy``.

    handfoot eval --team py:examples/one_game_agent.py:make --vs random --pairs 200
    handfoot eval --preset partnership --team py:examples/one_game_agent.py:make --vs greedy --pairs 200
"""

import numpy as np

DRAW, TAKE_PILE = 0, 1
MELDS = range(2, 68)  # start a group of a rank (2-34), add a natural, a 2 or a joker to one (35-67)
DISCARD = 68  # 68 + k discards a card of kind k: 0 joker, 1 a 2, 2 black 3, 3 red 3, 4-14 the ranks 4 to A
WILD_KINDS = (0, 1)


def make(seed=0):
    rng = np.random.default_rng(seed)

    def policy(observation):
        mask = observation["action_mask"]
        hand = observation["observation"][:15]  # my cards, a count per kind
        legal = np.flatnonzero(mask)
        if mask[TAKE_PILE]:
            return TAKE_PILE
        if mask[DRAW]:
            return DRAW
        melds = [action for action in legal if action in MELDS]
        if melds:
            return int(melds[0])
        discards = [a for a in legal if DISCARD <= a < DISCARD + 15 and a - DISCARD not in WILD_KINDS]
        if discards:
            return int(min(discards, key=lambda a: (hand[a - DISCARD], a)))
        return int(rng.choice(legal))

    return policy
