"""The batch kernels: each loops one per-game function over the B games of the engine.

``rules`` here is ``Rules.kernel``, a one-element record array (numba's parallel loops take
a record only inside an array; each game's function gets ``rules[0]``).  Each kernel comes
twice: split over the cores (``prange``) for large batches, serial for small ones, where
starting the threads costs more than the work (``VectorEngine`` chooses).
"""

from __future__ import annotations

from numba import njit, prange

from handfoot_env.vector.deal import open_deal
from handfoot_env.vector.legality import mover, why_illegal
from handfoot_env.vector.masks import legal_mask
from handfoot_env.vector.observe import observe
from handfoot_env.vector.scoring import owner_deal_score
from handfoot_env.vector.state import OVER
from handfoot_env.vector.transitions import apply, begin_turn, reset_game


@njit(cache=True)
def reset_kernel(states, packs, rules, index):
    """Start the games at ``index`` (their packs already shuffled) from deal 1."""
    for i in range(index.shape[0]):
        reset_game(states[index[i]], rules[0], packs[index[i]])


@njit(cache=True)
def open_deal_kernel(states, packs, rules, index):
    """Open the deal of the games at ``index`` whose cards are dealt (loaded positions)."""
    for i in range(index.shape[0]):
        open_deal(states[index[i]], rules[0])
        begin_turn(states[index[i]], rules[0], packs[index[i]])


@njit(cache=True, parallel=True)
def check_kernel_parallel(states, rules, actions, active, errors):
    """Reason code (0 = legal) of each active game's action, changing nothing; returns how
    many are illegal."""
    illegal = 0
    for b in prange(states.shape[0]):
        errors[b] = why_illegal(states[b], rules[0], actions[b]) if active[b] else 0
        illegal += errors[b] != 0
    return illegal


@njit(cache=True)
def check_kernel_serial(states, rules, actions, active, errors):
    illegal = 0
    for b in range(states.shape[0]):
        errors[b] = why_illegal(states[b], rules[0], actions[b]) if active[b] else 0
        illegal += errors[b] != 0
    return illegal


@njit(cache=True)
def apply_one(states, packs, rules, actions, active, deal_over, game_over, deal_scores, b):
    """Game ``b``'s step and its outcome: a deal ended (with its scores), the game ended."""
    deal_over[b] = False
    game_over[b] = False
    deal_scores[b, :] = 0
    if not active[b]:
        return
    s = states[b]
    if apply(s, rules[0], packs[b], actions[b]):
        deal_over[b] = True
        game_over[b] = s.phase == OVER  # it was not over before: illegal actions are refused
        for o in range(deal_scores.shape[1]):
            deal_scores[b, o] = s.deal_scores[s.deals_ended - 1, o]


@njit(cache=True, parallel=True)
def apply_kernel_parallel(states, packs, rules, actions, active, deal_over, game_over, deal_scores):
    """Apply each active game's (checked, legal) action and write its outcome; returns how
    many games ended."""
    ended = 0
    for b in prange(states.shape[0]):
        apply_one(states, packs, rules, actions, active, deal_over, game_over, deal_scores, b)
        ended += game_over[b]
    return ended


@njit(cache=True)
def apply_kernel_serial(states, packs, rules, actions, active, deal_over, game_over, deal_scores):
    ended = 0
    for b in range(states.shape[0]):
        apply_one(states, packs, rules, actions, active, deal_over, game_over, deal_scores, b)
        ended += game_over[b]
    return ended


def step_kernel_parallel(states, packs, rules, actions, active, errors, deal_over, game_over, deal_scores):
    """Check every active game's action, then apply them all when all are legal; returns
    minus the number of illegal ones (nothing applied), else how many games ended."""
    illegal = check_kernel_parallel(states, rules, actions, active, errors)
    if illegal:
        return -illegal
    return apply_kernel_parallel(states, packs, rules, actions, active, deal_over, game_over, deal_scores)


@njit(cache=True)
def step_kernel_serial(states, packs, rules, actions, active, errors, deal_over, game_over, deal_scores):
    """``step_kernel_parallel`` in one compiled call: at a batch of one (the AEC env) the cost
    of entering a kernel is a large share of a step."""
    illegal = check_kernel_serial(states, rules, actions, active, errors)
    if illegal:
        return -illegal
    return apply_kernel_serial(states, packs, rules, actions, active, deal_over, game_over, deal_scores)


@njit(cache=True, parallel=True)
def mask_kernel_parallel(states, rules, masks):
    for b in prange(states.shape[0]):
        legal_mask(states[b], rules[0], masks[b])


@njit(cache=True)
def mask_kernel_serial(states, rules, masks):
    for b in range(states.shape[0]):
        legal_mask(states[b], rules[0], masks[b])


@njit(cache=True)
def look_one(s, rules, movers, masks, observations, b):
    """Game ``b``'s seat to act, its legal mask and that seat's view."""
    movers[b] = mover(s, rules)
    legal_mask(s, rules, masks[b])
    observe(s, rules, movers[b], observations[b])


@njit(cache=True, parallel=True)
def look_kernel_parallel(states, rules, movers, masks, observations):
    """What a player needs to act, in one pass over the games: each game's seat to act
    (``legality.mover``), its legal mask and its view."""
    for b in prange(states.shape[0]):
        look_one(states[b], rules[0], movers, masks, observations, b)


@njit(cache=True)
def look_kernel_serial(states, rules, movers, masks, observations):
    for b in range(states.shape[0]):
        look_one(states[b], rules[0], movers, masks, observations, b)


@njit(cache=True, parallel=True)
def observe_kernel_parallel(states, rules, seats, observations):
    """The observation of ``seats[b]`` in each game (-1: the seat to act, ``legality.mover``)."""
    for b in prange(states.shape[0]):
        seat = mover(states[b], rules[0]) if seats[b] < 0 else seats[b]
        observe(states[b], rules[0], seat, observations[b])


@njit(cache=True)
def observe_kernel_serial(states, rules, seats, observations):
    for b in range(states.shape[0]):
        seat = mover(states[b], rules[0]) if seats[b] < 0 else seats[b]
        observe(states[b], rules[0], seat, observations[b])


@njit(cache=True, parallel=True)
def mask_rows_kernel_parallel(states, rules, index, masks):
    """``masks[i]``: the legal mask of game ``index[i]`` (only those games are looked at)."""
    for i in prange(index.shape[0]):
        legal_mask(states[index[i]], rules[0], masks[i])


@njit(cache=True)
def mask_rows_kernel_serial(states, rules, index, masks):
    for i in range(index.shape[0]):
        legal_mask(states[index[i]], rules[0], masks[i])


@njit(cache=True, parallel=True)
def observe_rows_kernel_parallel(states, rules, index, seats, observations):
    """``observations[i]``: the view of ``seats[i]`` (-1: the player to move) in game ``index[i]``."""
    for i in prange(index.shape[0]):
        s = states[index[i]]
        observe(s, rules[0], mover(s, rules[0]) if seats[i] < 0 else seats[i], observations[i])


@njit(cache=True)
def observe_rows_kernel_serial(states, rules, index, seats, observations):
    for i in range(index.shape[0]):
        s = states[index[i]]
        observe(s, rules[0], mover(s, rules[0]) if seats[i] < 0 else seats[i], observations[i])


@njit(cache=True, parallel=True)
def observe_movers_kernel_parallel(states, rules, seats, observations, written, twin, twin_written):
    """``observations[b, j]``: the view of ``seats[j]`` in game ``b`` where that seat is to move
    (``legality.mover``) and the game goes on, zeros elsewhere.  ``written[b]`` says what game
    ``b``'s rows hold before the call (-2: anything; -1: zeros; j: zeros but slot j) and after
    it: only what changed is written (the zeros a caller's reused array already holds are not).
    ``twin`` (with its own ``twin_written``; empty for none) gets the same views in the same pass."""
    for b in prange(states.shape[0]):
        written[b] = observe_movers(states[b], rules[0], seats, observations[b], written[b])
        if twin.shape[0]:
            twin_written[b] = copy_movers_view(observations[b], written[b], twin[b], twin_written[b])


@njit(cache=True)
def observe_movers_kernel_serial(states, rules, seats, observations, written, twin, twin_written):
    for b in range(states.shape[0]):
        written[b] = observe_movers(states[b], rules[0], seats, observations[b], written[b])
        if twin.shape[0]:
            twin_written[b] = copy_movers_view(observations[b], written[b], twin[b], twin_written[b])


@njit(cache=True)
def observe_movers(s, rules, seats, observations, written):
    to_move = mover(s, rules) if s.phase != OVER else -1
    slot = -1
    for j in range(seats.shape[0]):
        if seats[j] == to_move:
            slot = j
    for j in range(seats.shape[0]):
        if j != slot and (written == -2 or written == j):
            observations[j, :] = 0.0
    if slot >= 0:
        observe(s, rules, to_move, observations[slot])  # it zeroes its row first
    return slot


@njit(cache=True)
def copy_movers_view(observations, slot, twin, twin_slot):
    """Make one game's ``twin`` rows (holding what ``twin_slot`` says) equal ``observations``
    (zeros but ``slot``, just written: still in cache); returns ``twin``'s new record."""
    for j in range(observations.shape[0]):
        if j != slot and (twin_slot == -2 or twin_slot == j):
            twin[j, :] = 0.0
    if slot >= 0:
        twin[slot, :] = observations[slot, :]
    return slot


@njit(cache=True, parallel=True)
def running_scores_kernel(states, rules, out):
    """``out[b, o]``: owner ``o``'s score of game ``b``'s deal in progress, as it stands."""
    for b in prange(states.shape[0]):
        for o in range(rules[0].num_owners):
            out[b, o] = owner_deal_score(states[b], rules[0], o, -1)
