"""The reference engine: Hand and Foot in plain Python, written to be read beside RULES.md.

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

Decisions where RULES.md is silent (each also noted where it is made):
* Dealing: hands, then feet, a card at a time from the seat left of the dealer; the stock
  is what remains; the ``classic`` upcard is turned before red threes are replaced; red
  threes are replaced seat by seat from the first player.
* The dealer of deal 1 is the last seat, so seat 0 starts deal 1.
* A hand used up by the discard is replaced by the foot at once (its red threes go down
  then); it is played from on the next turn (seed 003: "they pick up their Foot").
* Before the draw, staging that would leave the player no legal draw or take is refused,
  so that every position has a legal action.
"""

from __future__ import annotations

import numpy as np

from handfoot_env import actions as A
from handfoot_env.cards import (
    JOKER, KIND_NAMES, KIND_VALUES, NUM_KINDS, NUM_NATURALS, RED_THREE, TWO,
    is_natural, natural_kind, rank_of, shuffled_kinds,
)
from handfoot_env.errors import IllegalActionError
from handfoot_env.reference.scoring import DealResult, score_deal
from handfoot_env.reference.state import Group, Seat, Side, count_books, unfinished_group
from handfoot_env.rules import Rules, require_supported

DRAW_PHASE, PLAY_PHASE, GAME_OVER = "draw", "play", "game_over"


class Game:
    """One game of Hand and Foot from its rules and seed."""

    def __init__(self, rules: Rules | None = None, seed: int = 0):
        rules = rules if rules is not None else Rules.preset("classic")
        require_supported(rules)
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        self.rules = rules
        self.seed = int(seed)
        self.actions: list[int] = []  # every action applied, for the record
        self.totals = [0] * rules.num_owners
        self.deal_results: list[DealResult] = []
        self.deal_index = 0
        self._start_deal()

    # ------------------------------------------------------------------ the deal
    def _start_deal(self) -> None:
        rules = self.rules
        n = rules.num_players
        self.dealer = (n - 1 + self.deal_index) % n  # decision: seat 0 starts deal 1
        self.current = (self.dealer + 1) % n
        self.phase = DRAW_PHASE
        self.went_out: int | None = None
        self.seats = [Seat() for _ in range(n)]
        self.sides = [Side() for _ in range(rules.num_owners)]
        self.pile: list[int] = []  # top is pile[-1]

        pack = shuffled_kinds(self.seed, self.deal_index, int(rules.num_decks))
        position = 0
        for pile_name, size in (("hand", rules.hand_size), ("foot", rules.foot_size)):
            for i in range(size * n):
                seat = self.seats[(self.current + i) % n]
                getattr(seat, pile_name)[int(pack[position])] += 1
                position += 1
        self.stock: list[int] = [int(k) for k in pack[position:][::-1]]  # top is stock[-1]

        if rules.pile_upcard:
            self._turn_up_first_discard()
        for i in range(n):  # red threes dealt into hands go down, seat by seat
            seat_index = (self.current + i) % n
            self._lay_down_red_threes(seat_index, self.seats[seat_index].hand)
        self._begin_turn()

    def _turn_up_first_discard(self) -> None:
        """000: turn up the stock's top card; a wild or a three goes to the bottom."""
        for _ in range(len(self.stock)):
            card = self.stock.pop()
            if is_natural(card):
                self.pile.append(card)
                return
            self.stock.insert(0, card)

    def _lay_down_red_threes(self, seat_index: int, cards: list[int]) -> None:
        """Red threes in ``cards`` (a hand) go to the owner's table, each replaced from the stock."""
        side = self.sides[self.rules.owner_of(seat_index)]
        while cards[RED_THREE] > 0:
            cards[RED_THREE] -= 1
            side.red_threes += 1
            if self.stock:  # with an empty stock no replacement is drawn
                cards[self.stock.pop()] += 1

    def _receive(self, seat_index: int, card: int) -> None:
        """A card enters the hand; a red three goes down at once and is replaced."""
        hand = self.seats[seat_index].hand
        hand[card] += 1
        if card == RED_THREE:
            self._lay_down_red_threes(seat_index, hand)

    def _pick_up_foot(self, seat_index: int) -> None:
        seat = self.seats[seat_index]
        seat.hand, seat.foot = seat.foot, [0] * NUM_KINDS
        seat.on_foot = True
        self._lay_down_red_threes(seat_index, seat.hand)

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        return self.phase == GAME_OVER

    def owner(self, seat_index: int | None = None) -> int:
        return self.rules.owner_of(self.current if seat_index is None else seat_index)

    def minimum(self, owner: int) -> int:
        """The opening minimum that ``owner`` must reach in this deal."""
        return self.rules.opening_minimum(self.deal_index, self.totals[owner])

    def books_needed(self) -> tuple[int, int]:
        return self.rules.books_needed(self.deal_index)

    def meets_book_requirement(self, clean: int, dirty: int) -> bool:
        need_clean, need_dirty = self.books_needed()
        return clean >= need_clean and dirty >= need_dirty

    def winners(self) -> list[int]:
        """Owners with the highest total (several on a tie)."""
        best = max(self.totals)
        return [o for o, t in enumerate(self.totals) if t == best]

    # ------------------------------------------------------------------ legality
    def legal_mask(self) -> np.ndarray:
        """Boolean mask over the action layout: True exactly for the legal actions."""
        mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
        if self.phase == GAME_OVER:
            return mask
        for action in self._candidates():
            mask[action] = self.why_illegal(action) is None
        return mask

    def _candidates(self) -> list[int]:
        """Actions worth asking ``why_illegal`` about: the others need cards the player lacks.

        Only a shortcut: every candidate is still judged by ``why_illegal``."""
        hand = self.seats[self.current].hand
        out = [A.DRAW, A.TAKE_PILE]
        for rank in range(NUM_NATURALS):
            kind = natural_kind(rank)
            if hand[kind] >= 2:
                out.append(A.start_group(rank, 0))
                if hand[TWO]:
                    out.append(A.start_group(rank, 1))
                if hand[JOKER]:
                    out.append(A.start_group(rank, 2))
            if hand[kind]:
                out.append(A.add_natural(rank))
            if hand[TWO]:
                out.append(A.add_two(rank))
            if hand[JOKER]:
                out.append(A.add_joker(rank))
        if self.phase == PLAY_PHASE:
            out.extend(A.discard(kind) for kind in range(NUM_KINDS) if hand[kind])
        return out

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    def why_illegal(self, action: int) -> str | None:
        """Why ``action`` is not allowed now, or None if it is legal."""
        try:
            act = A.decode(action)
        except ValueError as exc:
            return str(exc)
        if self.phase == GAME_OVER:
            return "the game is over"
        if act.kind == "draw":
            return self._draw_problem()
        if act.kind == "take_pile":
            return self._take_problem()
        if act.is_group_action:
            return self._group_problem(act)
        if act.kind == "discard":
            return self._discard_problem(act.card)
        return "this action belongs to the house preset (runs, books of 2s, suited discards)"

    def _draw_problem(self) -> str | None:
        if self.phase != DRAW_PHASE:
            return "you have already drawn this turn"
        if len(self.stock) < self.rules.draw_count:
            return f"the stock holds {len(self.stock)} cards; drawing needs {self.rules.draw_count}"
        return None

    def _take_problem(self, hand: list[int] | None = None, staged: list[Group] | None = None) -> str | None:
        """Why the current player may not take the pile (optionally with a hypothetical hand)."""
        rules = self.rules
        seat = self.seats[self.current]
        side = self.sides[self.owner()]
        hand = seat.hand if hand is None else hand
        staged = seat.staged if staged is None else staged
        if self.phase != DRAW_PHASE:
            return "the pile can only be taken instead of drawing"
        if rules.pile_take_count == 0:
            return "these rules do not allow taking the pile"
        if not self.pile:
            return "the discard pile is empty"
        top = self.pile[-1]
        if not is_natural(top):
            return f"the top card ({KIND_NAMES[top]}) is not a natural: a wild or a three blocks the pile"
        if len(self.pile) < rules.pile_min_size:
            return f"the pile holds {len(self.pile)} cards; taking it needs at least {rules.pile_min_size}"
        if rules.take_requires_opened and not side.opened:
            return "you must open (lay down your first groups) before taking the pile"
        if hand[top] < 2:
            return f"taking the pile needs two natural {KIND_NAMES[top]} in your hand"
        rank = rank_of(top)
        groups = side.groups if side.opened else staged
        target = unfinished_group(groups, rank, rules.book_size)
        if target is not None and target.size + 3 > rules.book_size:
            return (
                f"your group of {KIND_NAMES[top]} has {target.size} cards; "
                f"the top card and the pair would make it more than {rules.book_size}"
            )
        if not side.opened:
            total = sum(g.value for g in staged) + 3 * KIND_VALUES[top]
            minimum = self.minimum(self.owner())
            if total < minimum:
                return (
                    f"the top card, your pair and your staged groups make {total} points; "
                    f"the opening minimum is {minimum}"
                )
        # The 2-card rule applies to the take as to any meld.
        to_hand = len(self.pile) - 1
        if rules.pile_take_count is not None:
            to_hand = min(to_hand, rules.pile_take_count - 1)
        cards_left = sum(hand) - 2 + to_hand
        melded = [g.copy() for g in groups]
        grown = unfinished_group(melded, rank, rules.book_size)
        if grown is None:
            melded.append(Group(rank, naturals=3))
        else:
            grown.naturals += 3
        books = count_books(melded, rules.book_size)  # an unopened side has no table groups
        return self._cards_left_problem(cards_left, books)

    def _cards_left_problem(self, cards_left: int, books: tuple[int, int]) -> str | None:
        """The 2-card rule: from the foot, a meld must leave 2 cards until the owner can go out."""
        seat = self.seats[self.current]
        if not seat.on_foot or cards_left >= 2:
            return None
        if not self.meets_book_requirement(*books):
            need_clean, need_dirty = self.books_needed()
            return (
                "playing from the foot you must keep at least 2 cards until your side has "
                f"{need_clean} clean and {need_dirty} dirty books"
            )
        if cards_left == 0 and not self.rules.go_out_by_meld:
            return "these rules require you to finish with a discard"
        return None

    def _group_problem(self, act: A.Action) -> str | None:
        rules = self.rules
        seat = self.seats[self.current]
        side = self.sides[self.owner()]
        name = KIND_NAMES[natural_kind(act.rank)]
        if self.phase == DRAW_PHASE and not (rules.staging_before_draw and not side.opened):
            return "draw or take the pile before melding"
        staging = not side.opened
        groups = seat.staged if staging else side.groups
        current = unfinished_group(groups, act.rank, rules.book_size)
        kind = natural_kind(act.rank)
        need = [0] * NUM_KINDS
        if act.kind == "start_group":
            if current is not None:
                return f"there is already an unfinished group of {name}; add to it instead"
            naturals, twos, jokers = A.COMPOSITIONS[act.composition]
            need[kind], need[TWO], need[JOKER] = naturals, twos, jokers
            result = Group(act.rank, naturals, twos, jokers)
        else:
            if current is None:
                where = "staged " if staging else ""
                return f"there is no unfinished {where}group of {name} to add to"
            result = current.copy()
            if act.kind == "add_natural":
                need[kind], result.naturals = 1, result.naturals + 1
            elif act.kind == "add_two":
                need[TWO], result.twos = 1, result.twos + 1
            else:
                need[JOKER], result.jokers = 1, result.jokers + 1
        for k in range(NUM_KINDS):
            if seat.hand[k] < need[k]:
                return f"you do not hold enough {KIND_NAMES[k]} (need {need[k]}, have {seat.hand[k]})"
        if result.size > rules.book_size:
            return f"a group holds at most {rules.book_size} cards"
        if not rules.wilds_allowed(result.naturals, result.wilds):
            return (
                f"a group of {result.naturals} naturals and {result.wilds} wilds breaks the wild-card "
                f"limit ({rules.wild_limit}, at most {rules.max_wilds} wilds, naturals outnumber wilds)"
            )
        cards_left = seat.hand_size - sum(need)
        after = [g for g in groups if g is not current] + [result]
        if staging:
            total = sum(g.value for g in after)
            minimum = self.minimum(self.owner())
            if total < minimum:  # staged only: the cards wait, a discard must remain
                if cards_left < 1:
                    return (
                        f"staging these cards ({total} of the {minimum} needed to open) would leave "
                        "no card to discard"
                    )
                if self.phase == DRAW_PHASE and len(self.stock) < rules.draw_count:
                    hand = list(seat.hand)
                    for k in range(NUM_KINDS):
                        hand[k] -= need[k]
                    if self._take_problem(hand, after) is not None:
                        return "with the stock nearly empty this staging would leave you no legal draw or take"
                return None
            after = after + side.groups  # the staged groups go down: books count from now
        return self._cards_left_problem(cards_left, count_books(after, rules.book_size))

    def _discard_problem(self, kind: int) -> str | None:
        seat = self.seats[self.current]
        if self.phase != PLAY_PHASE:
            return "draw or take the pile before discarding"
        if seat.hand[kind] == 0:
            return f"you hold no {KIND_NAMES[kind]} to discard"
        empties = seat.hand_size == 1 and not seat.staged
        if empties and seat.on_foot:
            side = self.sides[self.owner()]
            if not self.meets_book_requirement(*count_books(side.groups, self.rules.book_size)):
                return "discarding your last card would go out, and your side lacks the books to go out"
        return None

    # ------------------------------------------------------------------ transitions
    def step(self, action: int) -> None:
        """Apply one legal action; raise :class:`IllegalActionError` (state untouched) otherwise."""
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalActionError(action, A.describe(action), reason)
        act = A.decode(action)
        self.actions.append(int(action))
        if act.kind == "draw":
            self._draw()
        elif act.kind == "take_pile":
            self._take_pile()
        elif act.kind == "discard":
            self._discard(act.card)
        else:
            self._meld(act)

    def _draw(self) -> None:
        for _ in range(self.rules.draw_count):
            if self.stock:  # red-three replacements may have emptied it
                self._receive(self.current, self.stock.pop())
        self.phase = PLAY_PHASE

    def _take_pile(self) -> None:
        rules = self.rules
        seat = self.seats[self.current]
        side = self.sides[self.owner()]
        top = self.pile.pop()
        seat.hand[top] -= 2
        groups = side.groups if side.opened else seat.staged
        target = unfinished_group(groups, rank_of(top), rules.book_size)
        if target is None:
            groups.append(Group(rank_of(top), naturals=3))
        else:
            target.naturals += 3
        if not side.opened:  # the take reached the minimum together with the staged groups
            self._open(seat, side)
        count = len(self.pile) if rules.pile_take_count is None else rules.pile_take_count - 1
        for _ in range(min(count, len(self.pile))):
            self._receive(self.current, self.pile.pop())
        self.phase = PLAY_PHASE
        self._after_meld()

    def _open(self, seat: Seat, side: Side) -> None:
        side.groups.extend(seat.staged)
        seat.staged = []
        side.opened = True

    def _meld(self, act: A.Action) -> None:
        rules = self.rules
        seat = self.seats[self.current]
        side = self.sides[self.owner()]
        groups = side.groups if side.opened else seat.staged
        kind = natural_kind(act.rank)
        if act.kind == "start_group":
            naturals, twos, jokers = A.COMPOSITIONS[act.composition]
            groups.append(Group(act.rank, naturals, twos, jokers))
            seat.hand[kind] -= naturals
            seat.hand[TWO] -= twos
            seat.hand[JOKER] -= jokers
        else:
            group = unfinished_group(groups, act.rank, rules.book_size)
            if act.kind == "add_natural":
                group.naturals += 1
                seat.hand[kind] -= 1
            elif act.kind == "add_two":
                group.twos += 1
                seat.hand[TWO] -= 1
            else:
                group.jokers += 1
                seat.hand[JOKER] -= 1
        if not side.opened:
            if seat.staged_value < self.minimum(self.owner()):
                return  # still staging
            self._open(seat, side)
        self._after_meld()

    def _after_meld(self) -> None:
        """A hand used up by melding: go out from the foot, or pick the foot up and go on."""
        seat = self.seats[self.current]
        if seat.hand_size > 0:
            return
        if seat.on_foot:
            self._end_deal(went_out=self.current)
        else:
            self._pick_up_foot(self.current)

    def _discard(self, kind: int) -> None:
        seat = self.seats[self.current]
        seat.hand[kind] -= 1
        self.pile.append(kind)
        for group in seat.staged:  # staged groups that never reached the minimum go back
            for k, c in enumerate(group.counts()):
                seat.hand[k] += c
        seat.staged = []
        if seat.hand_size == 0:
            if seat.on_foot:
                self._end_deal(went_out=self.current)
                return
            self._pick_up_foot(self.current)  # decision: the foot waits for the next turn
        self.current = (self.current + 1) % self.rules.num_players
        self.phase = DRAW_PHASE
        self._begin_turn()

    def _begin_turn(self) -> None:
        """Stock exhausted: no legal draw and no legal take ends the deal with no bonus."""
        if len(self.stock) < self.rules.draw_count and self._take_problem() is not None:
            self._end_deal(went_out=None)

    def _end_deal(self, went_out: int | None) -> None:
        self.went_out = went_out
        result = score_deal(self, went_out)
        self.deal_results.append(result)
        for owner, score in enumerate(result.scores):
            self.totals[owner] += score
        if self.deal_index + 1 >= self.rules.num_deals:
            self.phase = GAME_OVER
            return
        self.deal_index += 1
        self._start_deal()

    # ------------------------------------------------------------------ checks
    def card_counts_by_place(self) -> dict[str, list[int]]:
        """Every card's place, as counts per kind (for the conservation invariant)."""
        places: dict[str, list[int]] = {}
        places["stock"] = [self.stock.count(k) for k in range(NUM_KINDS)]
        places["pile"] = [self.pile.count(k) for k in range(NUM_KINDS)]
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


__all__ = ["Game", "DRAW_PHASE", "PLAY_PHASE", "GAME_OVER"]
