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
* RULES.md "Stock emptied during a turn": after every action, if the stock is empty and the
  player to move has no legal action, the deal ends with no going-out bonus.

``house`` (runs, so suits matter) adds these decisions, RULES.md being silent:
* A natural that goes into a book is taken from the suit in which the hand holds the fewest
  cards (ties: clubs, diamonds, hearts, spades), so that long suits stay for runs; the
  action layout names no suit for book cards.
* One unfinished run per suit per owner, as one unfinished book per rank.
* Taking the top discard comes with one card from the stock, so it needs a non-empty stock;
  the stock card is drawn first.  Any top card may be taken unless it is frozen out:
  a natural that would complete a 6-card book of its rank or extend a 6-card run of its
  suit, or a 2 that would complete a 6-card book of 2s (RULES.md: "a book of its rank, or
  a run it extends").
* Runs and books of 2s stage and count toward the opening like books.
"""

from __future__ import annotations

import numpy as np

from handfoot_env import actions as A
from handfoot_env.cards import (
    CARD_KIND,
    CARD_SUIT,
    JOKER,
    KIND_NAMES,
    KIND_VALUES,
    NUM_KINDS,
    NUM_NATURALS,
    NUM_SUITS,
    RED_THREE,
    SUIT_NAMES,
    TWO,
    card_name,
    is_natural,
    natural_kind,
    rank_of,
    shuffled_cards,
    suited_id,
)
from handfoot_env.errors import IllegalActionError
from handfoot_env.reference import rule_facts as facts
from handfoot_env.reference.melds import meld_plan
from handfoot_env.reference.scoring import (
    GOING_OUT,
    NO_LEGAL_ACTION,
    STOCK_EXHAUSTED,
    DealResult,
    score_deal,
)
from handfoot_env.reference.state import (
    Group,
    Meld,
    Run,
    Seat,
    Side,
    TwosBook,
    count_books,
    unfinished_group,
)
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
        self.first_dealer = rules.num_players - 1  # decision: seat 0 starts deal 1
        self._start_deal()

    # ------------------------------------------------------------------ the deal
    def _start_deal(self) -> None:
        rules = self.rules
        n = rules.num_players
        self.dealer = (self.first_dealer + self.deal_index) % n  # the dealer moves left each deal
        self.current = (self.dealer + 1) % n
        self.phase = DRAW_PHASE
        self.went_out: int | None = None
        self.seats = [Seat() for _ in range(n)]
        self.sides = [Side() for _ in range(rules.num_owners)]
        self.pile: list[int] = []  # top is pile[-1]

        # Stock and pile hold card ids: kinds, or suited naturals when runs are played.
        pack = shuffled_cards(self.seed, self.deal_index, int(rules.num_decks), suited=rules.runs)
        position = 0
        for part in ("hand", "foot"):
            for i in range(getattr(rules, f"{part}_size") * n):
                self._add_card(self.seats[(self.current + i) % n], int(pack[position]), part)
                position += 1
        self.stock: list[int] = [int(k) for k in pack[position:][::-1]]  # top is stock[-1]
        self.open_deal()

    def open_deal(self) -> None:
        """The cards are dealt: turn the upcard (classic), lay down dealt red threes seat by
        seat from the first player, and begin the first turn.  (Public so that a scenario can
        start a deal from hands and a stock it wrote.)"""
        n = self.rules.num_players
        if self.rules.pile_upcard:
            self._turn_up_first_discard()
        for i in range(n):  # red threes dealt into hands go down, seat by seat
            self._lay_down_red_threes((self.current + i) % n)
        self._begin_turn()

    def _turn_up_first_discard(self) -> None:
        """000: turn up the stock's top card; a wild or a three goes to the bottom."""
        for _ in range(len(self.stock)):
            card = self.stock.pop()
            if is_natural(int(CARD_KIND[card])):
                self.pile.append(card)
                return
            self.stock.insert(0, card)

    @staticmethod
    def _add_card(seat: Seat, card: int, part: str = "hand") -> None:
        """Put card id ``card`` into the seat's hand or foot (by kind, and by suit if it has one)."""
        getattr(seat, part)[int(CARD_KIND[card])] += 1
        suit = int(CARD_SUIT[card])
        if suit >= 0:
            getattr(seat, f"{part}_suits")[suit][rank_of(int(CARD_KIND[card]))] += 1

    def _lay_down_red_threes(self, seat_index: int) -> None:
        """Red threes in the hand go to the owner's table, each replaced from the stock."""
        if not self.rules.red_threes_laid_down:  # house: threes are held
            return
        seat = self.seats[seat_index]
        side = self.sides[facts.owner_of(self.rules, seat_index)]
        while seat.hand[RED_THREE] > 0:
            seat.hand[RED_THREE] -= 1
            side.red_threes += 1
            if self.stock:  # with an empty stock no replacement is drawn
                self._add_card(seat, self.stock.pop())

    def _receive(self, seat_index: int, card: int) -> None:
        """A card enters the hand; a red three goes down at once and is replaced."""
        self._add_card(self.seats[seat_index], card)
        if card == RED_THREE:
            self._lay_down_red_threes(seat_index)

    def _pick_up_foot(self, seat_index: int) -> None:
        seat = self.seats[seat_index]
        seat.hand, seat.foot = seat.foot, [0] * NUM_KINDS
        seat.hand_suits, seat.foot_suits = seat.foot_suits, [[0] * NUM_NATURALS for _ in range(NUM_SUITS)]
        seat.on_foot = True
        self._lay_down_red_threes(seat_index)

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        return self.phase == GAME_OVER

    def owner(self, seat_index: int | None = None) -> int:
        return facts.owner_of(self.rules, self.current if seat_index is None else seat_index)

    def minimum(self, owner: int) -> int:
        """The opening minimum that ``owner`` must reach in this deal."""
        return facts.opening_minimum(self.rules, self.deal_index, self.totals[owner])

    def books_needed(self) -> tuple[int, int]:
        return self.rules.books_needed(self.deal_index)

    def meets_book_requirement(self, clean: int, dirty: int) -> bool:
        need_clean, need_dirty = self.books_needed()
        return clean >= need_clean and dirty >= need_dirty

    def score_so_far(self) -> DealResult:
        """The deal in progress scored as it stands, as if it ended now with nobody out: the
        score sheet's line for this deal so far (cards held count against, as at the end)."""
        return score_deal(self, None, ended_by="in progress")

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
        rules = self.rules
        seat = self.seats[self.current]
        hand = seat.hand
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
        if rules.runs:
            for suit in range(NUM_SUITS):
                held = seat.hand_suits[suit]
                out.extend(A.start_run(suit, r) for r in range(A.RUN_STARTS) if held[r] and held[r + 1] and held[r + 2])
                out.extend((A.extend_run_down(suit), A.extend_run_up(suit)))
        if rules.books_of_twos and hand[TWO]:
            out.extend((A.START_TWOS_BOOK, A.ADD_TWO_TO_TWOS_BOOK))
        if self.phase == PLAY_PHASE:
            out.extend(A.discard(kind) for kind in range(NUM_KINDS) if hand[kind])
            if rules.runs:
                out.extend(
                    A.discard_suited(suit, r)
                    for suit in range(NUM_SUITS) for r in range(NUM_NATURALS) if seat.hand_suits[suit][r]
                )
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
        if act.kind == "discard":
            if self.rules.runs and is_natural(act.card):
                return "with runs a natural's suit matters: discard it with the suited discard action"
            return self._discard_problem(act.card)
        if act.kind == "discard_suited":
            if not self.rules.runs:
                return "suited discards belong to rules with runs (house); discard by kind"
            return self._discard_problem(suited_id(act.suit, act.rank))
        return self._meld_problem(act)

    def _draw_problem(self) -> str | None:
        if self.phase != DRAW_PHASE:
            return "you have already drawn this turn"
        if len(self.stock) < self.rules.draw_count:
            return f"the stock holds {len(self.stock)} cards; drawing needs {self.rules.draw_count}"
        return None

    def _take_problem(self, hand: list[int] | None = None, staged: list[Meld] | None = None) -> str | None:
        """Why the current player may not take the pile (optionally with a hypothetical hand)."""
        rules = self.rules
        if rules.draw_one_plus_discard:
            return self._top_discard_problem()
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
        top = int(CARD_KIND[self.pile[-1]])
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

    def _top_discard_problem(self) -> str | None:
        """House: may the player draw one card from the stock plus the top discard?"""
        if self.phase != DRAW_PHASE:
            return "the top discard can only be taken as part of the draw"
        if not self.pile:
            return "the discard pile is empty"
        if not self.stock:
            return "the stock is empty: the top discard is taken together with one card from the stock"
        frozen = self._frozen_meld(self.pile[-1]) if self.rules.frozen_six else None
        if frozen is not None:
            return (
                f"your {frozen} holds {self.rules.book_size - 1} cards and is frozen: "
                f"you may not take the {card_name(self.pile[-1])} that would complete it"
            )
        return None

    def _frozen_meld(self, card: int) -> str | None:
        """The owner's meld one card short of a book that ``card`` would complete, named, or None."""
        kind, suit = int(CARD_KIND[card]), int(CARD_SUIT[card])
        for meld in self.sides[self.owner()].groups:
            if meld.size != self.rules.book_size - 1:
                continue
            if isinstance(meld, Group) and is_natural(kind) and meld.rank == rank_of(kind):
                return f"book of {KIND_NAMES[kind]}"
            if isinstance(meld, Run) and suit == meld.suit and rank_of(kind) in (meld.low - 1, meld.high + 1):
                return f"run of {SUIT_NAMES[suit]}"
            if isinstance(meld, TwosBook) and kind == TWO:
                return "book of 2s"
        return None

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

    def _meld_problem(self, act: A.Action) -> str | None:
        rules = self.rules
        seat = self.seats[self.current]
        side = self.sides[self.owner()]
        if self.phase == DRAW_PHASE and not (rules.staging_before_draw and not side.opened):
            return "draw or take the pile before melding"
        staging = not side.opened
        groups = seat.staged if staging else side.groups
        plan = meld_plan(rules, act, groups, staging)
        if isinstance(plan, str):
            return plan
        need, suited, current, result = plan.need, plan.suited, plan.current, plan.result
        for k in range(NUM_KINDS):
            if seat.hand[k] < need[k]:
                return f"you do not hold enough {KIND_NAMES[k]} (need {need[k]}, have {seat.hand[k]})"
        for suit, r in suited:
            if seat.hand_suits[suit][r] < 1:
                return f"you do not hold the {card_name(suited_id(suit, r))}"
        if result.size > rules.book_size:
            return f"a group holds at most {rules.book_size} cards"
        if isinstance(result, Group) and not facts.wilds_allowed(rules, result.naturals, result.wilds):
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

    def _discard_problem(self, card: int) -> str | None:
        seat = self.seats[self.current]
        if self.phase != PLAY_PHASE:
            return "draw or take the pile before discarding"
        kind, suit = int(CARD_KIND[card]), int(CARD_SUIT[card])
        held = seat.hand[kind] if suit < 0 else seat.hand_suits[suit][rank_of(kind)]
        if held == 0:
            return f"you hold no {card_name(card)} to discard"
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
            raise IllegalActionError(action, A.describe(action, self.rules), reason)
        act = A.decode(action)
        self.actions.append(int(action))
        if act.kind == "draw":
            self._draw()
        elif act.kind == "take_pile":
            self._take_top_discard() if self.rules.draw_one_plus_discard else self._take_pile()
        elif act.kind == "discard":
            self._discard(act.card)
        elif act.kind == "discard_suited":
            self._discard(suited_id(act.suit, act.rank))
        else:
            self._meld(act)
        self._end_deal_if_stuck()

    def _end_deal_if_stuck(self) -> None:
        """RULES.md "Stock emptied during a turn": red-three replacements can empty the stock
        mid-turn and leave the mover without a legal action; the deal then ends, no bonus."""
        if self.phase != GAME_OVER and not self.stock and not self.legal_mask().any():
            self._end_deal(went_out=None, ended_by=NO_LEGAL_ACTION)

    def _draw(self) -> None:
        for _ in range(self.rules.draw_count):
            if self.stock:  # red-three replacements may have emptied it
                self._receive(self.current, self.stock.pop())
        self.phase = PLAY_PHASE

    def _take_top_discard(self) -> None:
        """House: one card from the stock, then the top discard, into the hand."""
        self._receive(self.current, self.stock.pop())
        self._receive(self.current, self.pile.pop())
        self.phase = PLAY_PHASE

    def _take_pile(self) -> None:
        rules = self.rules
        seat = self.seats[self.current]
        side = self.sides[self.owner()]
        top = int(CARD_KIND[self.pile.pop()])
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
        seat.staged_suits = [[0] * NUM_NATURALS for _ in range(NUM_SUITS)]
        side.opened = True

    def _book_suit(self, seat: Seat, rank: int) -> int:
        """The suit a natural of ``rank`` leaves the hand from when it goes into a book:
        the suit the hand holds fewest cards of (ties: clubs first), keeping runs' suits."""
        held = [suit for suit in range(NUM_SUITS) if seat.hand_suits[suit][rank] > 0]
        return min(held, key=lambda suit: (sum(seat.hand_suits[suit]), suit))

    @staticmethod
    def _move_natural(seat: Seat, suit: int, rank: int, staging: bool) -> None:
        seat.hand_suits[suit][rank] -= 1
        if staging:  # remembered so that the card can go back to the hand
            seat.staged_suits[suit][rank] += 1

    def _meld(self, act: A.Action) -> None:
        rules = self.rules
        seat = self.seats[self.current]
        side = self.sides[self.owner()]
        groups = side.groups if side.opened else seat.staged
        plan = meld_plan(rules, act, groups, not side.opened)
        need, suited, current, result = plan.need, plan.suited, plan.current, plan.result
        if rules.runs:  # the naturals leave the hand by suit: a run's own, a book's by _book_suit
            for suit, r in suited:
                self._move_natural(seat, suit, r, staging=not side.opened)
            if act.is_group_action:
                for _ in range(need[natural_kind(act.rank)]):
                    self._move_natural(seat, self._book_suit(seat, act.rank), act.rank, staging=not side.opened)
        for k in range(NUM_KINDS):
            seat.hand[k] -= need[k]
        if current is None:
            groups.append(result)
        else:
            groups[next(i for i, g in enumerate(groups) if g is current)] = result
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

    def _discard(self, card: int) -> None:
        seat = self.seats[self.current]
        kind, suit = int(CARD_KIND[card]), int(CARD_SUIT[card])
        seat.hand[kind] -= 1
        if suit >= 0:
            seat.hand_suits[suit][rank_of(kind)] -= 1
        self.pile.append(card)
        for group in seat.staged:  # staged melds that never reached the minimum go back
            for k, c in enumerate(group.counts()):
                seat.hand[k] += c
        for suit in range(NUM_SUITS):
            for r in range(NUM_NATURALS):
                seat.hand_suits[suit][r] += seat.staged_suits[suit][r]
        seat.staged = []
        seat.staged_suits = [[0] * NUM_NATURALS for _ in range(NUM_SUITS)]
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
            self._end_deal(went_out=None, ended_by=STOCK_EXHAUSTED)

    def _end_deal(self, went_out: int | None, ended_by: str = GOING_OUT) -> None:
        self.went_out = went_out
        result = score_deal(self, went_out, ended_by)
        self.deal_results.append(result)
        for owner, score in enumerate(result.scores):
            self.totals[owner] += score
        target = self.rules.target_score
        if self.deal_index + 1 >= self.rules.num_deals or (target is not None and max(self.totals) >= target):
            self.phase = GAME_OVER
            return
        self.deal_index += 1
        self._start_deal()

    # ------------------------------------------------------------------ checks
    def card_counts_by_place(self) -> dict[str, list[int]]:
        """Every card's place, as counts per kind (for the conservation invariant)."""
        places: dict[str, list[int]] = {}
        places["stock"] = np.bincount(CARD_KIND[self.stock], minlength=NUM_KINDS).tolist() if self.stock else [0] * NUM_KINDS
        places["pile"] = np.bincount(CARD_KIND[self.pile], minlength=NUM_KINDS).tolist() if self.pile else [0] * NUM_KINDS
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
