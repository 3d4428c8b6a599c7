"""What the text table shows, and to whom."""

from __future__ import annotations

import numpy as np

from handfoot_env import actions as A
from handfoot_env.reference import Game
from handfoot_env.reference.state import ASKED
from handfoot_env.render.text import view_of_game
from handfoot_env.rules import Rules


def test_the_default_view_is_the_askeds_partners_while_a_question_stands():
    """While "may I go out?" stands the partner is to move, so the table is drawn as it sees it."""
    rng = np.random.default_rng(0)
    for seed in range(20):
        game = Game(Rules.preset("partnership", permission_to_go_out=True), seed=seed)
        while not game.is_over and game.permission != ASKED:
            legal = game.legal_actions()
            ask = [a for a in legal if A.decode(a).kind == "ask_to_go_out"]
            game.step(ask[0] if ask else int(rng.choice(legal)))
        if game.permission == ASKED:
            break
    assert game.permission == ASKED and game.mover != game.current
    assert view_of_game(game).viewer == game.mover
    assert view_of_game(game).viewer_hand == view_of_game(game, game.mover).viewer_hand
