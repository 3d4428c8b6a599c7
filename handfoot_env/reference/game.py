"""The reference engine: Hand and Foot in plain Python, written to be read beside docs/rules.md.

This is the executable specification.  It is slow on purpose: every rule is one
readable check.  The vector engine must agree with it step for step.

    game = Game(Rules.preset("classic"), seed=7)
    while not game.is_over:
        mask = game.legal_mask()
        game.step(int(np.flatnonzero(mask)[0]))

A turn is: one draw action (draw two, or take the pile), any number of group actions,
and a discard.  ``why_illegal(action)`` gives the reason an action is refused (or None);
``legal_mask()`` is exactly the actions for which it is None, and ``step`` refuses an
illegal action with :class:`IllegalActionError`, leaving the state untouched.

Decisions of handfoot's own (docs/rules.md "Decisions handfoot made"; each also noted where
it is made):
* Dealing: hands, then feet, a card at a time from the seat left of the dealer; the stock
  is what remains; the ``classic`` upcard is turned before red threes are replaced; red
  threes are replaced seat by seat from the first player.
* The dealer of deal 1 is the last seat, so seat 0 starts deal 1.
* A hand used up by the discard is replaced by the foot at once (its red threes go down
  then); it is played from on the next turn (docs/rules.md "The foot and going out").
* Before the draw, staging that would leave the player no legal draw or take is refused,
  so that every position has a legal action.
* docs/rules.md "When the stock runs out", during a turn: after every action, if the stock is empty and the
  player to move has no legal action, the deal ends with no going-out bonus.

The variations (docs/rules.md "Variations") add these decisions:
* Permission to go out: the question may be asked once a turn, by a player on its foot, before
  or after the draw; while it stands the partner is the player to move (``mover``) and may only
  answer.  Until a "yes" the player may not go out, so the 2-card rule holds it (a "no" holds
  it for the rest of the turn).  ``current`` stays the seat whose turn it is.
* A wild book and a group of black threes are never staged before the draw (as in ``house``).
* A take with one natural and a wild, and a take by the table, go onto the side's unfinished
  group of the rank like the take with a pair (with a wild, only if the group stays within the
  wild-card limit), else (a wild) form a new group.

``house`` (runs, so suits matter) adds these decisions (docs/rules.md "`house`"):
* A natural that goes into a book is taken from the suit in which the hand holds the fewest
  cards (ties: clubs, diamonds, hearts, spades), so that long suits stay for runs; the
  action layout names no suit for book cards.
* One unfinished run per suit per owner, as one unfinished book per rank.
* Taking the top discard comes with one card from the stock, so it needs a non-empty stock;
  the stock card is drawn first.  Any top card may be taken unless it is frozen out:
  a natural that would complete a 6-card book of its rank or extend a 6-card run of its
  suit, or a 2 that would complete a 6-card book of 2s.
* Runs and books of 2s stage and count toward the opening like books.
"""

from __future__ import annotations

import numpy as np

from handfoot_env.cards import check_seed
from handfoot_env.reference import deal, legality, transitions
from handfoot_env.reference.scoring import score_deal
from handfoot_env.reference.state import DRAW_PHASE, GAME_OVER, PLAY_PHASE, DealResult, GameState
from handfoot_env.rules import Rules, require_supported


class Game(GameState):
    """One game of Hand and Foot from its rules and seed: its state (:class:`GameState`), and the public API over
    ``deal.py`` (dealing), ``legality.py`` (why an action is refused) and ``transitions.py``
    (what an action does)."""

    def __init__(self, rules: Rules | None = None, seed: int = 0, *, start: bool = True):
        """A new game: the first deal dealt and its first turn begun (``start=False``: nothing
        dealt yet, for a scenario to lay out its own position)."""
        rules = rules if rules is not None else Rules.preset("classic")
        require_supported(rules)
        super().__init__(rules, check_seed(seed))
        if start:
            deal.start_deal(self)
            transitions.begin_turn(self)

    def score_so_far(self) -> DealResult:
        """The deal in progress scored as it stands, as if it ended now with nobody out: the
        score sheet's line for this deal so far (cards held count against, as at the end)."""
        return score_deal(self, None, ended_by="in progress")

    # ------------------------------------------------------------------ actions
    def legal_mask(self) -> np.ndarray:
        """Boolean mask over the action layout: True exactly for the legal actions."""
        return legality.legal_mask(self)

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    def why_illegal(self, action: int) -> str | None:
        """Why ``action`` is not allowed now, or None if it is legal."""
        return legality.why_illegal(self, action)

    def step(self, action: int) -> None:
        """Apply one legal action; raise :class:`IllegalActionError` (state untouched) otherwise."""
        transitions.apply(self, action)

    def open_deal(self) -> None:
        """A scenario's deal whose cards are dealt (``start: true``): turn the upcard, lay
        down the dealt red threes, begin the first turn."""
        deal.open_deal(self)
        transitions.begin_turn(self)


__all__ = ["DRAW_PHASE", "GAME_OVER", "PLAY_PHASE", "Game"]
