"""The heuristic baseline: a player built from the common advice of docs/rules.md, "Playing well".

It reads only its own observation and the legal mask.  Its habits:

* open as soon as the cards allow, staging just enough groups (cheapest plan first);
* take the pile whenever it may (in ``partnership`` staging first, if that opens);
* keep groups clean until its side has the clean books it needs, and finish dirty books
  late with wilds (never a wild on a clean group of six while clean books are missing);
* keep natural pairs in the discard choice, which are tickets to the discard pile (but
  put a pair down with a spare wild: more groups become more books);
* throw black threes when the pile is worth taking; never feed the next player's groups;
* never throw a wild away; late in the deal, dump wilds onto groups rather than hold them;
* go out when that wins the deal, otherwise keep two cards and keep building.

In ``house`` it also: takes the top discard only when it fits (a pair, a group,
a run or a near-run of its suit, a wild); opens with runs and the book of 2s as well as
books; extends runs and the book of 2s first (red canastas need no wilds); throws held
threes first (a red three held costs 500); and throws the suit of a rank that helps no run.

In the variations (docs/rules.md "Variations") it also: takes the pile by the table, or with
a natural and a wild when the pile is big enough; builds a wild book where it pays (a bonus
of ``wild_book_min_bonus`` or more, or one needed to go out), putting its wilds there rather
than on groups; melds black threes where they form books; keeps its 7s while a book of 7s is
needed (clean: no wild on the 7s); asks "may I go out?" when it would go out and its side
has all else it needs; and, asked, says no when its side would lose points by the deal
ending now (its cards still held cost more than the going-out bonus).

Every number in these habits (bonuses, thresholds, switches) is a named entry of
``heuristic_params.py``; the defaults play as described above, and ``HeuristicAgent(rules,
params)`` plays a variant, such as one found by ``handfoot tune``.  Some entries switch on
habits the defaults leave off (hold pairs for a big pile, block a big pile with a 2, count
the deal as late once another side could go out, keep the last wild in hand, ...), so that a
search can try them.
"""

from __future__ import annotations

import numpy as np

from handfoot_env import actions as A
from handfoot_env import observation as O
from handfoot_env.baselines.heuristic_params import DEFAULT_PARAMS, PAIR_FEATURES, params_dict
from handfoot_env.cards import (
    BLACK_THREE,
    FIRST_NATURAL,
    JOKER,
    KIND_VALUES,
    NUM_KINDS,
    NUM_NATURALS,
    NUM_SUITS,
    RED_THREE,
    TWO,
)
from handfoot_env.observation import ObservationView
from handfoot_env.rule_facts import SEVEN_RANK
from handfoot_env.rules import Rules

VALUES = np.asarray(KIND_VALUES, dtype=np.float64)


class HeuristicAgent:
    name = "heuristic"

    def __init__(self, rules: Rules | None = None, params: np.ndarray | None = None):
        # The rule numbers its estimates use (book bonuses, going out); the presets share them.
        self.rules = rules if rules is not None else Rules.preset("classic")
        # Its own numbers (``heuristic_params``): the defaults, or a variant found by ``train/tune.py``.
        self.p = params_dict(DEFAULT_PARAMS if params is None else params)

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks, dtype=bool)
        return np.array([self.choose(observations[b], masks[b]) for b in range(len(masks))], dtype=np.int64)

    # ------------------------------------------------------------------ one decision
    def choose(self, obs: np.ndarray, mask: np.ndarray) -> int:
        view = ObservationView(obs)
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        if mask[A.ANSWER_YES] or mask[A.ANSWER_NO]:  # my partner asks: may I go out?
            return self._answer(view, mask)
        if view.phase == "draw":
            return self._draw(view, mask)
        if not view.opened:
            action = self._stage_opening(view, mask)
            if action is not None:
                return action
            return self._discard(view, mask)
        action = self._meld(view, mask)
        return action if action is not None else self._discard(view, mask)

    # ------------------------------------------------------------------ draw or take
    def _draw(self, view: ObservationView, mask: np.ndarray) -> int:
        if view.plays_runs:  # house: the top discard comes with one stock card; take it if it fits
            if mask[A.TAKE_PILE] and (self._top_fits(view) or not mask[A.DRAW]):
                return A.TAKE_PILE
            return A.DRAW if mask[A.DRAW] else int(np.flatnonzero(mask)[0])
        if mask[A.TAKE_PILE] and view.pile_size >= self.p["take_min_pile"]:
            return A.TAKE_PILE
        if mask[A.TAKE_ONTO_TABLE] and view.pile_size >= self.p["take_min_pile"]:
            return A.TAKE_ONTO_TABLE  # the top card onto our group: no card leaves the hand
        if view.pile_size >= self.p["wild_take_min_pile"]:
            for action in (A.TAKE_WITH_TWO, A.TAKE_WITH_JOKER):  # a 2 is the cheaper wild to give
                if mask[action]:
                    return action
        top = view.pile_top
        # Partnership: stage groups before the take when that makes the take open the side.
        if not view.opened and top is not None and top >= FIRST_NATURAL and view.hand[top] >= 2:
            needed = view.minimum - view.staged_value - 3 * VALUES[top]
            plan = self._opening_plan(view, needed, keep={top: 2})
            if plan is not None:
                for action in plan:
                    if mask[action]:
                        return action
        if mask[A.DRAW]:
            return A.DRAW
        return int(np.flatnonzero(mask)[0])

    @staticmethod
    def _run_neighbours(view: ObservationView, suit: int, rank: int) -> int:
        """Cards of ``suit`` within two ranks of ``rank`` in my hand, plus 2 if it extends my run."""
        held = view.suited_hand[suit]
        near = sum(int(held[r] > 0) for r in range(max(rank - 2, 0), min(rank + 3, NUM_NATURALS)) if r != rank)
        length, low = view.runs(0)[suit]
        if length and rank in (low - 1, low + length):
            near += 2
        return near

    def _top_fits(self, view: ObservationView) -> bool:
        top = view.pile_top
        if top is None or top in (BLACK_THREE, RED_THREE):
            return False
        if top in (TWO, JOKER):
            return True
        r = top - FIRST_NATURAL
        if view.hand[top] >= 2 or view.groups(0)[r].sum() > 0:
            return True
        suit = view.pile_top_suit
        return suit is not None and self._run_neighbours(view, suit, r) >= 2

    # ------------------------------------------------------------------ opening
    def _opening_plan(
        self, view: ObservationView, needed: float, keep: dict | None = None, mask: np.ndarray | None = None
    ) -> list[int] | None:
        """Staging actions (first ones first) that add ``needed`` points, or None."""
        hand = view.hand.copy()
        for kind, count in (keep or {}).items():
            hand[kind] -= count
        staged = view.staged
        actions: list[int] = []
        total = 0.0
        reserve = 2 if view.on_foot else 1  # a discard must remain
        spare = int(hand.sum()) - reserve
        # Natural groups first, most valuable first.
        ranks = sorted(range(NUM_NATURALS), key=lambda r: -VALUES[FIRST_NATURAL + r] * hand[FIRST_NATURAL + r])
        for r in ranks:
            kind = FIRST_NATURAL + r
            count = int(hand[kind])
            if staged[kind] > 0 and count > 0:
                take = min(count, spare)
                actions += [A.add_natural(r)] * take
            elif count >= 3:
                take = min(count, 7, spare)
                if take < 3:
                    continue
                actions += [A.start_group(r, 0)] + [A.add_natural(r)] * (take - 3)
            else:
                continue
            total += take * VALUES[kind]
            spare -= take
            if total >= needed:
                return actions
        # House: runs of ranks no group above uses, and the book of 2s.
        if mask is not None and view.plays_runs:
            used = {a for a in actions}
            used_ranks = {r for r in range(NUM_NATURALS) if A.start_group(r, 0) in used or A.add_natural(r) in used}
            for suit in range(NUM_SUITS):
                for low in range(A.RUN_STARTS):
                    action = A.start_run(suit, low)
                    if not mask[action] or spare < 3 or used_ranks & {low, low + 1, low + 2}:
                        continue
                    actions.append(action)
                    total += sum(VALUES[FIRST_NATURAL + r] for r in range(low, low + 3))
                    spare -= 3
                    used_ranks |= {low, low + 1, low + 2}
                    if total >= needed:
                        return actions
        if mask is not None and mask[A.START_TWOS_BOOK] and hand[TWO] >= 3 and spare >= 3:
            actions.append(A.START_TWOS_BOOK)
            total += 3 * VALUES[TWO]
            spare -= 3
            hand = hand.copy()
            hand[TWO] -= 3
            if total >= needed:
                return actions
        # Then wilds: on pairs, then on the groups above.
        wilds = [JOKER] * int(hand[JOKER]) + [TWO] * int(hand[TWO])
        for r in ranks:
            kind = FIRST_NATURAL + r
            if not wilds or spare < 3:
                break
            if hand[kind] == 2 and staged[kind] == 0:
                wild = wilds.pop(0)
                actions.append(A.start_group(r, 2 if wild == JOKER else 1))
                total += 2 * VALUES[kind] + VALUES[wild]
                spare -= 3
                if total >= needed:
                    return actions
        return None

    def _stage_opening(self, view: ObservationView, mask: np.ndarray) -> int | None:
        plan = self._opening_plan(view, view.minimum - view.staged_value, mask=mask)
        if plan is None:
            return None
        for action in plan:
            if mask[action]:
                return action
        return None

    # ------------------------------------------------------------------ melding after opening
    def _meld(self, view: ObservationView, mask: np.ndarray) -> int | None:
        hand = view.hand
        clean = view.side(0)[O.OWNER_CLEAN_BOOKS]
        need_clean, _ = view.books_needed
        groups = view.groups(0)
        p = self.p
        # whether another side could go out matters only to two habits the defaults leave off
        out_near = bool(p["rush_out_near"] or p["late_out_near"]) and self._they_can_go_out(view)
        keep_two = (
            view.on_foot
            and not self._going_out_wins(view)
            and view.stock_size > p["keep_two_stock"]
            and not (out_near and p["rush_out_near"])
        )
        cards = hand.sum()

        def allowed(action: int, used: int) -> bool:
            return bool(mask[action]) and (not keep_two or cards - used >= 2)

        # Going out is what it wants and the partner's permission is all that is missing: ask.
        if mask[A.ASK_TO_GO_OUT] and view.on_foot and not keep_two and self.may_go_out(view):
            return A.ASK_TO_GO_OUT

        # House: runs and the book of 2s first (red canastas that need no wilds), and a new
        # book of 2s when three 2s are in hand and red canastas are missing.
        if view.plays_runs:
            for suit in range(NUM_SUITS):
                for action in (A.extend_run_down(suit), A.extend_run_up(suit)):
                    if allowed(action, 1):
                        return action
            if allowed(A.ADD_TWO_TO_TWOS_BOOK, 1):
                return A.ADD_TWO_TO_TWOS_BOOK
            for suit in range(NUM_SUITS):
                for low in range(A.RUN_STARTS):
                    # a run only from cards that are not worth more in a book
                    if allowed(A.start_run(suit, low), 3) and all(
                        hand[FIRST_NATURAL + r] < 3 for r in range(low, low + 3)
                    ):
                        return A.start_run(suit, low)
            if clean < need_clean and hand[TWO] >= 3 and allowed(A.START_TWOS_BOOK, 3):
                return A.START_TWOS_BOOK
        # Naturals onto our groups (pairs may be held back while the pile is big: tickets to
        # it), then new clean groups of three or more.
        hold_pairs = view.pile_size >= p["hold_pairs_pile"]
        for r in range(NUM_NATURALS):
            if allowed(A.add_natural(r), 1) and not (hold_pairs and hand[FIRST_NATURAL + r] == 2):
                return A.add_natural(r)
        # Black threes, where they form books of their own.
        if view.rule(O.RULE_BLACK_THREE_BOOKS):
            if allowed(A.ADD_BLACK_THREE, 1):
                return A.ADD_BLACK_THREE
            if hand[BLACK_THREE] >= 3 and allowed(A.START_THREES_GROUP, 3):
                return A.START_THREES_GROUP
        # A wild book where it pays: every wild goes there (2s first), started with three.
        wild_book = self.builds_wild_book(view)
        if wild_book:
            for action in (A.ADD_TWO_TO_WILD_BOOK, A.ADD_JOKER_TO_WILD_BOOK):
                if allowed(action, 1):
                    return action
            twos = int(min(hand[TWO], 3))
            if hand[TWO] + hand[JOKER] >= 3 and allowed(A.start_wild_book(3 - twos), 3):
                return A.start_wild_book(3 - twos)
        for r in sorted(range(NUM_NATURALS), key=lambda r: -hand[FIRST_NATURAL + r]):
            if hand[FIRST_NATURAL + r] >= max(3, p["new_group_min"]) and allowed(A.start_group(r, 0), 3):
                return A.start_group(r, 0)
        # Wilds: never on the clean groups we are counting on for the clean books we still
        # need (docs/rules.md "Playing well": books are where the points are); elsewhere they build
        # dirty books, the group nearest to a book first.
        late = view.stock_size < p["late_stock"] * view.num_players or (out_near and bool(p["late_out_near"]))
        clean_groups = [r for r in range(NUM_NATURALS) if groups[r].sum() > 0 and groups[r][1:].sum() == 0]
        protected = {r for r in clean_groups if groups[r].sum() >= p["clean_min_size"]}
        if (clean < need_clean or p["protect_always"]) and not late:
            count = max(max(int(need_clean - clean), 0) + int(p["extra_protected"]), 0)
            protected |= set(sorted(clean_groups, key=lambda r: -groups[r].sum())[:count])
        if view.rule(O.RULE_SEVENS_CLEAN) and view.sevens_books(0)[0] == 0:
            protected.add(SEVEN_RANK)  # a clean book of 7s is needed to go out

        def add_wilds() -> int | None:
            if view.stock_size >= p["wild_stock"] or wild_book:
                return None
            wilds = hand[TWO] + hand[JOKER]
            if wilds <= p["keep_wilds"] and cards - wilds >= p["keep_wilds_min_hand"]:
                return None  # kept: a wild starts a new group with the next pair
            dirty_first = p["dirty_preference"]
            for r in sorted(
                range(NUM_NATURALS), key=lambda r: -groups[r].sum() - dirty_first * (groups[r][1:].sum() > 0)
            ):
                size = groups[r].sum()
                if (
                    size == 0
                    or r in protected
                    or size < p["wild_min_group"]
                    or groups[r][1:].sum() >= p["max_group_wilds"]
                ):
                    continue
                for action in (A.add_joker(r), A.add_two(r)):
                    if allowed(action, 1):
                        return action
            return None

        def start_with_wild() -> int | None:
            if not p["wild_pairs"] or wild_book:
                return None
            for r in sorted(range(NUM_NATURALS), key=lambda r: -VALUES[FIRST_NATURAL + r]):
                if hold_pairs and hand[FIRST_NATURAL + r] == 2:
                    continue
                for comp in (2, 1):
                    if allowed(A.start_group(r, comp), 3):
                        return A.start_group(r, comp)
            return None

        # Pairs go down with a wild first (more groups, more books to come: measured better
        # than holding them), then wilds finish the groups nearest to a book.
        for step in (add_wilds, start_with_wild) if p["wilds_first"] else (start_with_wild, add_wilds):
            chosen = step()
            if chosen is not None:
                return chosen
        return None

    def builds_wild_book(self, view: ObservationView) -> bool:
        """Whether wilds go to a wild book: one is needed to go out and missing, or its bonus
        is at least ``wild_book_min_bonus``."""
        if not view.rule(O.RULE_WILD_BOOKS):
            return False
        needed = view.rule(O.RULE_WILD_BOOK_TO_GO_OUT) and view.wild_books(0) < 1
        return needed or float(view.obs[O.RULE_WILD_BOOK_BONUS]) * 1000.0 >= self.p["wild_book_min_bonus"]

    @staticmethod
    def may_go_out(view: ObservationView) -> bool:
        """Whether my side has all it needs to go out but the partner's permission: the books,
        the wild book and the book of 7s the rules ask for, and partners on their feet."""
        need_clean, need_dirty = view.books_needed
        header = view.side(0)
        if header[O.OWNER_CLEAN_BOOKS] < need_clean or header[O.OWNER_DIRTY_BOOKS] < need_dirty:
            return False
        if view.rule(O.RULE_WILD_BOOK_TO_GO_OUT) and view.wild_books(0) < 1:
            return False
        if HeuristicAgent.sevens_missing(view):
            return False
        if view.rule(O.RULE_PARTNER_FOOT_FIRST):
            for slot in range(1, view.num_players):
                seat = view.seat(slot)
                if seat[O.SEAT_PARTNER] and not seat[O.SEAT_ON_FOOT]:
                    return False
        return True

    def _answer(self, view: ObservationView, mask: np.ndarray) -> int:
        """Asked "may I go out?": no when my side would lose points by the deal ending now,
        that is when the cards I still hold (my hand, and my unplayed foot's unseen cards at
        ``held_card_value`` each) cost more than the going-out bonus (plus ``permission_margin``)."""
        held = float((view.hand * VALUES).sum()) + float(view.seat(0)[O.SEAT_FOOT]) * self.p["held_card_value"]
        action = A.ANSWER_YES if self.rules.going_out_bonus + self.p["permission_margin"] >= held else A.ANSWER_NO
        return action if mask[action] else int(np.flatnonzero(mask)[0])

    @staticmethod
    def _they_can_go_out(view: ObservationView) -> bool:
        """An other side has the books to go out and one of its players is on the foot."""
        need_clean, need_dirty = view.books_needed
        books = any(
            view.side(s)[O.OWNER_CLEAN_BOOKS] >= need_clean and view.side(s)[O.OWNER_DIRTY_BOOKS] >= need_dirty
            for s in range(1, view.num_owners)
        )
        return books and any(
            not view.seat(s)[O.SEAT_PARTNER] and view.seat(s)[O.SEAT_ON_FOOT] for s in range(1, view.num_players)
        )

    def _going_out_wins(self, view: ObservationView) -> bool:
        """Rough deal-score estimate: would ending the deal now leave my side ahead?"""

        rules = self.rules

        def side_estimate(slot: int) -> float:
            header = view.side(slot)
            return header[O.OWNER_MELDED] * 100 + rules.book_bonus(
                header[O.OWNER_CLEAN_BOOKS], header[O.OWNER_DIRTY_BOOKS], view.wild_books(slot)
            )

        mine = side_estimate(0) + rules.going_out_bonus - float((view.hand * VALUES).sum())
        theirs = max(side_estimate(s) for s in range(1, view.num_owners))

        def cards(slot: int):  # a partner's cards weigh partner_card_weight (they cost us, not them)
            seat = view.seat(slot)
            held = seat[O.SEAT_HELD] + seat[O.SEAT_FOOT]
            return held * np.float32(self.p["partner_card_weight"]) if seat[O.SEAT_PARTNER] else held

        held = sum(cards(s) for s in range(1, view.num_players)) * np.float32(self.p["held_card_value"])
        return mine + np.float32(self.p["out_margin"]) > theirs - held / max(view.num_owners - 1, 1)

    # ------------------------------------------------------------------ the discard
    def _discard(self, view: ObservationView, mask: np.ndarray) -> int:
        hand = view.hand
        next_groups = view.groups(view.next_side_slot())
        my_groups = view.groups(0)
        pile_worth = view.pile_size >= 6 or (view.pile_take_window * VALUES).sum() >= 60
        next_side = view.side(view.next_side_slot())
        # The next player can take only an opened pile of 7 (classic) or, in partnership, any pile.
        next_can_take = view.pile_size >= self.p["feed_pile_min"] and next_side[O.OWNER_OPENED] > 0
        best, best_score = None, np.inf
        for kind in range(NUM_KINDS):
            action: int | None = A.discard(kind)
            if view.plays_runs and kind >= FIRST_NATURAL:
                action = self._suited_discard(view, mask, kind - FIRST_NATURAL)
            if action is None or not mask[action]:
                continue
            p = self.p
            if kind == RED_THREE:
                score = -1000.0  # house: a red three held at the end costs 500
            elif kind == TWO and view.pile_size >= p["block_pile_size"]:
                score = -200.0  # a 2 on top blocks the next player's take of a big pile
            elif kind in (TWO, JOKER):
                score = 1000.0 + VALUES[kind]  # never throw a wild away if anything else will do
            elif kind == BLACK_THREE:
                score = p["black_three_worth_score"] if pile_worth else p["black_three_score"]
            else:
                r = kind - FIRST_NATURAL
                score = p["value_weight"] * VALUES[kind]  # low cards first: they cost least if caught
                if hand[kind] >= 2:
                    score += p["pair_bonus"]  # a pair: a ticket to the pile
                if my_groups[r].sum() > 0:
                    score += p["own_group_bonus"]  # it would go on our group
                if next_groups[r].sum() > 0 and next_can_take:
                    score += p["feed_penalty"]  # feeding the next player's group
                if view.pile_take_window[kind] > 0:
                    score += p["window_rank_score"]  # a rank already thrown lately
                if r == SEVEN_RANK and self.sevens_missing(view):
                    score += p["sevens_keep"]  # a book of 7s is needed to go out
                if p["danger_weight"]:
                    score += p["danger_weight"] * self.pair_chance(view, r)  # the next player may take with it
            if score < best_score:
                best, best_score = action, score
        if best is None:
            return int(np.flatnonzero(mask)[0])
        return best

    @staticmethod
    def sevens_missing(view: ObservationView) -> bool:
        """A book of 7s is needed to go out and my side has none of the kind asked."""
        sevens_clean, sevens_dirty = view.sevens_books(0)
        return bool(
            (view.rule(O.RULE_SEVENS_ANY) and sevens_clean + sevens_dirty < 1)
            or (view.rule(O.RULE_SEVENS_CLEAN) and sevens_clean < 1)
            or (view.rule(O.RULE_SEVENS_DIRTY) and sevens_dirty < 1)
        )

    def pair_features(self, view: ObservationView, r: int) -> list[float]:
        """The pair model's features of natural rank ``r`` (``PAIR_FEATURES`` order)."""
        kind = FIRST_NATURAL + r
        visible = float(view.pile_counts[kind]) + float(view.hand[kind])
        for slot in range(O.MAX_OWNERS):
            visible += float(view.groups(slot)[r][0])
        known = float(view.known(1)[kind])  # what the next player took from the pile and still holds
        return [
            1.0,
            float(view.seat(1)[O.SEAT_HELD]) / 10.0,
            float(view.side(1)[O.OWNER_OPENED] != 0),
            float(view.groups(1)[r].sum() > 0),
            visible / 5.0,
            float(view.seat(1)[O.SEAT_ON_FOOT] != 0),
            float(view.hand[kind]),
            VALUES[kind] / 20.0,
            float(view.pile_take_window[kind] > 0),
            float(known == 1),
            float(known >= 2),
        ]

    def pair_chance(self, view: ObservationView, r: int) -> float:
        """The pair model's chance that the next player holds two or more of rank ``r``."""
        z = 0.0
        for feature, value in zip(PAIR_FEATURES, self.pair_features(view, r)):
            z += self.p[f"pair_{feature}"] * value
        return 1.0 / (1.0 + np.exp(-z))

    def _suited_discard(self, view: ObservationView, mask: np.ndarray, rank: int) -> int | None:
        """House: the suited discard of ``rank`` whose card helps my runs least."""
        options = [s for s in range(NUM_SUITS) if mask[A.discard_suited(s, rank)]]
        if not options:
            return None
        suit = min(options, key=lambda s: (self._run_neighbours(view, s, rank), s))
        return A.discard_suited(suit, rank)
