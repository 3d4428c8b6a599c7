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

from handfoot_env.cards import CARD_KIND, NUM_KINDS, RED_THREE, check_seed
from handfoot_env.reference import deal, legality, transitions
from handfoot_env.reference import rule_facts as facts
from handfoot_env.reference.scoring import DealResult, score_deal
from handfoot_env.reference.state import ASKED, DRAW_PHASE, GAME_OVER, NOT_ASKED, PLAY_PHASE, Seat, Side
from handfoot_env.rules import Rules, require_supported


class Game:
    """One game of Hand and Foot from its rules and seed: its state, and the public API over
    ``deal.py`` (dealing), ``legality.py`` (why an action is refused) and ``transitions.py``
    (what an action does)."""

    def __init__(self, rules: Rules | None = None, seed: int = 0, *, start: bool = True):
        """A new game: the first deal dealt and its first turn begun (``start=False``: nothing
        dealt yet, for a scenario to lay out its own position)."""
        rules = rules if rules is not None else Rules.preset("classic")
        require_supported(rules)
        seed = check_seed(seed)
        # The whole state of a game is these attributes; nothing else is ever set on it.
        self.rules = rules
        self.seed = seed  # deal d is shuffled from (seed, d): cards.shuffled_cards
        self.actions: list[int] = []  # every action applied, for the record
        self.totals: list[int] = [0] * rules.num_owners  # each owner's running total
        self.deal_results: list[DealResult] = []  # the deals finished so far
        self.deal_index = 0  # the deal in progress, 0-based
        self.first_dealer = rules.num_players - 1  # decision: seat 0 starts deal 1
        # The deal in progress: deal.start_deal deals each deal afresh into these.
        self.dealer = self.first_dealer  # the dealer moves left each deal
        self.current = (self.dealer + 1) % rules.num_players  # the seat to move
        self.phase = DRAW_PHASE  # DRAW_PHASE, PLAY_PHASE or GAME_OVER
        self.permission = NOT_ASKED  # this turn's question to the partner: NOT_ASKED, ASKED, GRANTED, REFUSED
        self.went_out: int | None = None  # the seat that went out, once one has
        self.seats: list[Seat] = [Seat() for _ in range(rules.num_players)]  # hands, feet, staged melds
        self.sides: list[Side] = [Side() for _ in range(rules.num_owners)]  # each owner's table
        self.stock: list[int] = []  # card ids, the top last
        self.pile: list[int] = []  # card ids, the top last
        if start:
            deal.start_deal(self)
            transitions.begin_turn(self)

    @property
    def is_over(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def mover(self) -> int:
        """The seat to act: the player whose turn it is, or its partner while the question
        "may I go out?" stands (docs/rules.md "Variations")."""
        if self.permission == ASKED:
            return facts.partners_of(self.rules, self.current)[0]
        return self.current

    def owner(self, seat_index: int | None = None) -> int:
        return facts.owner_of(self.rules, self.current if seat_index is None else seat_index)

    def minimum(self, owner: int) -> int:
        """The opening minimum that ``owner`` must reach in this deal."""
        return facts.opening_minimum(self.rules, self.deal_index, self.totals[owner])

    def books_needed(self) -> tuple[int, int]:
        return self.rules.books_needed(self.deal_index)

    def meets_book_requirement(self, books) -> bool:
        """Whether an owner with ``books`` (``state.Books``) has the books to go out in this deal."""
        return facts.book_requirement_problem(self.rules, self.deal_index, books) is None

    def score_so_far(self) -> DealResult:
        """The deal in progress scored as it stands, as if it ended now with nobody out: the
        score sheet's line for this deal so far (cards held count against, as at the end)."""
        return score_deal(self, None, ended_by="in progress")

    def winners(self) -> list[int]:
        """Owners with the highest total (several on a tie)."""
        best = max(self.totals)
        return [o for o, t in enumerate(self.totals) if t == best]

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

    # ------------------------------------------------------------------ checks
    def card_counts_by_place(self) -> dict[str, list[int]]:
        """Every card's place, as counts per kind (for the conservation invariant)."""
        places: dict[str, list[int]] = {}
        places["stock"] = (
            np.bincount(CARD_KIND[self.stock], minlength=NUM_KINDS).tolist() if self.stock else [0] * NUM_KINDS
        )
        places["pile"] = (
            np.bincount(CARD_KIND[self.pile], minlength=NUM_KINDS).tolist() if self.pile else [0] * NUM_KINDS
        )
        for i, seat in enumerate(self.seats):
            places[f"hand{i}"] = list(seat.hand)
            places[f"foot{i}"] = list(seat.foot)
            staged = [0] * NUM_KINDS
            for g in seat.staged:
                for k, c in enumerate(g.counts()):
                    staged[k] += c
            places[f"staged{i}"] = staged
        for o, side in enumerate(self.sides):
            table = [0] * NUM_KINDS
            table[RED_THREE] = side.red_threes
            for g in side.groups:
                for k, c in enumerate(g.counts()):
                    table[k] += c
            places[f"table{o}"] = table
        return places


__all__ = ["DRAW_PHASE", "GAME_OVER", "PLAY_PHASE", "Game"]
