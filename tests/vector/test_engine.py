"""The vector engine's API: illegal actions, determinism, auto-reset, memory, hidden information."""

from __future__ import annotations

import numpy as np
import pytest

from handfoot_env import actions as A
from handfoot_env import observation as O
from handfoot_env.cards import RED_THREE, suited_id
from handfoot_env.errors import IllegalActionError
from handfoot_env.reference import Game
from handfoot_env.reference.deal import add_card
from handfoot_env.reference.observe import observe as reference_observe
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine
from handfoot_env.vector.state import ASKED


def random_actions(masks, rng):
    scores = rng.random(masks.shape)
    scores[~masks] = -1
    return scores.argmax(axis=1)


@pytest.mark.parametrize("preset", ["partnership", "house"])
def test_illegal_action_raises_and_changes_no_game(preset):
    engine = VectorEngine(Rules.preset(preset, num_players=4), batch_size=4, seed=0)
    rng = np.random.default_rng(0)
    for _ in range(40):  # into the play phase of some turns, house melds and suited discards
        engine.step(random_actions(engine.legal_mask(), rng))
    before = engine.states.copy()
    masks = engine.legal_mask().copy()
    actions = random_actions(masks, rng)
    bad = int(np.flatnonzero(~masks[2])[-1])
    actions[2] = bad
    with pytest.raises(IllegalActionError, match=f"illegal action {bad} .*game 2"):
        engine.step(actions)
    assert engine.states.tobytes() == before.tobytes()
    with pytest.raises(IllegalActionError):
        engine.step(np.full(4, A.NUM_ACTIONS))
    with pytest.raises(ValueError, match="actions must be 4 integers"):
        engine.step(np.zeros(3, dtype=np.int64))


def test_bad_construction_is_a_clear_error():
    with pytest.raises(ValueError, match="batch_size"):
        VectorEngine(Rules.preset("classic"), batch_size=0)
    with pytest.raises(ValueError, match="permission_to_go_out"):  # a rule between partners, alone
        VectorEngine(Rules.preset("classic", permission_to_go_out=True))


def test_same_seed_same_games_and_autoreset_is_deterministic():
    def run():
        engine = VectorEngine(Rules.preset("classic"), batch_size=32, seed=5)
        rng = np.random.default_rng(1)
        finals = []
        for _ in range(2500):
            dones = engine.step(random_actions(engine.legal_mask(), rng)).game_over
            finals.extend(engine.final_totals[dones].tolist())
        return engine.states.tobytes(), finals

    a, b = run(), run()
    assert a == b and len(a[1]) > 0


def test_game_i_is_the_reference_game_seeded_seed_plus_i():
    engine = VectorEngine(Rules.preset("classic", num_players=3), batch_size=5, seed=40)
    for i in range(5):
        game = Game(Rules.preset("classic", num_players=3), 40 + i)
        assert np.array_equal(engine.observe()[i], reference_observe(game, game.current))


def test_state_is_a_few_kib_per_game():
    engine = VectorEngine(Rules.preset("partnership"), batch_size=10)
    per_game = (engine.states.nbytes + engine.packs.nbytes) / 10
    assert per_game < 6 * 1024


def test_parallel_and_serial_kernels_agree():
    rules = Rules.preset("partnership")
    small = [VectorEngine(rules, batch_size=1, seed=s) for s in range(300)]
    big = VectorEngine(rules, batch_size=300, seed=0)
    rng = np.random.default_rng(2)
    for _ in range(300):
        masks = big.legal_mask()
        assert all(np.array_equal(masks[i], small[i].legal_mask()[0]) for i in range(0, 300, 37))
        actions = random_actions(masks, rng)
        big.step(actions)
        for i, engine in enumerate(small):
            engine.step(actions[i : i + 1])
    assert all(small[i].states.tobytes() == big.states[i : i + 1].tobytes() for i in range(300))


@pytest.mark.parametrize("batch_size", [7, 300])  # the serial and the parallel row kernels
@pytest.mark.parametrize(
    "rules",
    [
        Rules.preset("house", num_players=4),
        # the mover is the partner while "may I go out?" stands: its view, not the asker's
        Rules.preset("partnership", permission_to_go_out=True),
    ],
    ids=["house", "permission"],
)
def test_masks_and_observations_of_some_rows_are_those_rows_of_the_whole_batch(batch_size, rules):
    engine = VectorEngine(rules, batch_size=batch_size, seed=0)
    rng = np.random.default_rng(3)
    questions = 0
    for _ in range(600 if rules.permission_to_go_out else 60):
        engine.step(random_actions(engine.legal_mask(), rng))
        questions += int((engine.states["permission"] == ASKED).sum())
        rows = np.flatnonzero(rng.random(batch_size) < 0.9)[::-1].copy()  # any order, some games left out
        seats = rng.integers(-1, 4, size=len(rows))
        assert np.array_equal(engine.legal_mask(rows=rows), engine.legal_mask()[rows])
        assert np.array_equal(engine.observe(rows=rows), engine.observe()[rows])
        whole = np.full(batch_size, -1)
        whole[rows] = seats
        assert np.array_equal(engine.observe(seats, rows=rows), engine.observe(whole)[rows])
    assert questions > 0 or not rules.permission_to_go_out
    # Every seat of every game at once, into the caller's array: more rows than games.
    every_seat = np.zeros((batch_size, 4, O.OBS_SIZE), dtype=np.float32)
    engine.observe(
        np.tile(np.arange(4), batch_size),
        rows=np.repeat(np.arange(batch_size), 4),
        out=every_seat.reshape(-1, O.OBS_SIZE),
    )
    for seat in range(4):
        assert np.array_equal(every_seat[:, seat], engine.observe(np.full(batch_size, seat)))
    assert np.array_equal(
        engine.legal_mask(rows=np.tile(np.arange(batch_size), 2)), np.tile(engine.legal_mask(), (2, 1))
    )
    assert engine.legal_mask(rows=np.array([], dtype=np.int64)).shape == (0, A.NUM_ACTIONS)


@pytest.mark.parametrize("batch_size", [7, 300])  # the serial and the parallel kernels
def test_look_is_the_mover_its_mask_and_its_view_in_one_pass(batch_size):
    engine = VectorEngine(Rules.preset("partnership", permission_to_go_out=True), batch_size=batch_size, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(400):
        movers, masks, views = engine.look()
        assert np.array_equal(movers, engine.current_player)
        assert np.array_equal(masks, engine.legal_mask())
        assert np.array_equal(views, engine.observe())
        # buffers of its own, which legal_mask and observe do not write
        assert not np.shares_memory(views, engine.observe()) and not np.shares_memory(masks, engine.legal_mask())
        engine.step(random_actions(engine.legal_mask(), rng))


@pytest.mark.parametrize("batch_size", [7, 300])  # the serial and the parallel kernels
def test_observe_movers_puts_each_movers_view_in_its_slot_and_zeros_elsewhere(batch_size):
    engine = VectorEngine(Rules.preset("partnership", permission_to_go_out=True), batch_size=batch_size, seed=0)
    rng = np.random.default_rng(5)
    group = np.array([1, 3])
    for step in range(300):
        engine.step(random_actions(engine.legal_mask(), rng))
        if step % 10:
            continue
        out = np.full((batch_size, 2, O.OBS_SIZE), 7.0, dtype=np.float32)  # every number overwritten
        views = engine.observe_movers(group, out=out)
        assert views is out
        assert np.array_equal(engine.observe_movers(group), out)  # a new array, the same views
        movers, over = engine.current_player, engine.is_over
        for slot, seat in enumerate(group):
            moving = (movers == seat) & ~over
            assert np.array_equal(out[moving, slot], engine.observe(np.full(batch_size, seat))[moving])
            assert not out[~moving, slot].any()
    for bad in (np.zeros((batch_size, 3, O.OBS_SIZE), dtype=np.float32), np.zeros((batch_size, 2, O.OBS_SIZE))):
        with pytest.raises(ValueError, match="out must"):
            engine.observe_movers(group, out=bad)
    with pytest.raises(ValueError, match="written says what out holds"):
        engine.observe_movers(group, written=np.full(batch_size, -1))
    for bad_seats in (np.array([-1, 2]), np.array(1), [[1, 3]]):
        with pytest.raises(ValueError, match="seats must"):
            engine.observe_movers(bad_seats)


@pytest.mark.parametrize("batch_size", [7, 300])  # the serial and the parallel kernels
def test_observe_movers_writes_its_twin_as_a_copy_of_out(batch_size):
    engine = VectorEngine(Rules.preset("partnership"), batch_size=batch_size, seed=3)
    rng = np.random.default_rng(6)
    group, shape = np.array([0, 2]), (batch_size, 2, O.OBS_SIZE)
    out, written = np.full(shape, 7.0, dtype=np.float32), np.full(batch_size, -2, dtype=np.int64)
    # Two twins used in turn, so that each one's record is a step behind (the slots it must clear).
    twins = [np.full(shape, 5.0, dtype=np.float32), np.full(shape, 3.0, dtype=np.float32)]
    records = [np.full(batch_size, -2, dtype=np.int64), np.full(batch_size, -2, dtype=np.int64)]
    for step in range(200):
        engine.step(random_actions(engine.legal_mask(), rng))
        twin = (twins[step % 2], records[step % 2])
        engine.observe_movers(group, out=out, written=written, twin=twin)
        assert np.array_equal(out, engine.observe_movers(group))  # out as if written whole
        assert np.array_equal(twin[0], out) and np.array_equal(twin[1], written)
    with pytest.raises(ValueError, match="twin must be an array apart"):
        engine.observe_movers(group, out=out, written=written, twin=(out, records[0]))
    for bad, message in [
        ((np.zeros((batch_size, 3, O.OBS_SIZE), dtype=np.float32), records[0]), "out must"),
        ((twins[0], np.full(batch_size, 2, dtype=np.int64)), "twin's record must"),
        (twins[0], "twin must be a pair"),
    ]:
        with pytest.raises(ValueError, match=message):
            engine.observe_movers(group, out=np.zeros(shape, dtype=np.float32), twin=bad)


@pytest.mark.parametrize(
    "rows,seats",
    [([-1], None), ([7], None), ([[0, 1]], None), ([0.5], None), ([0, 1], [0]), ([0], [4]), ([0], [-2])],
)
def test_bad_rows_or_seats_are_one_clear_error(rows, seats):
    engine = VectorEngine(Rules.preset("partnership"), batch_size=7, seed=0)
    with pytest.raises(ValueError, match="rows must|seats must"):
        engine.legal_mask(rows=np.array(rows)) if seats is None else engine.observe(
            np.array(seats), rows=np.array(rows)
        )
    if seats is None:
        with pytest.raises(ValueError, match="rows must"):
            engine.observe(rows=np.array(rows))
    for out in (
        np.zeros((2, O.OBS_SIZE)),
        np.zeros((3, O.OBS_SIZE), dtype=np.float32),
        np.zeros((2, 2 * O.OBS_SIZE), dtype=np.float32)[:, ::2],
    ):
        with pytest.raises(ValueError, match="out must"):
            engine.observe(rows=np.array([0, 1]), out=out)
    read_only = np.zeros((2, O.OBS_SIZE), dtype=np.float32)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="out must"):
        engine.observe(rows=np.array([0, 1]), out=read_only)


@pytest.mark.parametrize("seats", [[0.7] * 7, [9] * 7, [-2] * 7, [0, 1], [[0] * 7]])
def test_bad_seats_of_the_whole_batch_are_one_clear_error(seats):
    engine = VectorEngine(Rules.preset("partnership"), batch_size=7, seed=0)
    with pytest.raises(ValueError, match="seats must"):
        engine.observe(np.array(seats))


def test_out_without_rows_is_refused_not_ignored():
    engine = VectorEngine(Rules.preset("partnership"), batch_size=7, seed=0)
    with pytest.raises(ValueError, match="out is written only when rows are given"):
        engine.observe(out=np.zeros((7, O.OBS_SIZE), dtype=np.float32))


def _held_cards(seat, part: str, suited: bool) -> list[int]:
    """Card ids in a seat's hand or foot (suited naturals when runs are played)."""
    counts, suits = getattr(seat, part), getattr(seat, f"{part}_suits")
    cards = [k for k in range(15) if not (suited and k >= 4) for _ in range(counts[k])]
    if suited:
        cards += [suited_id(s, r) for s in range(4) for r in range(11) for _ in range(suits[s][r])]
    return cards


def _hide_and_shuffle(game: Game, observer: int, rng) -> None:
    """Replace every card the observer may not see (others' hands and feet, its own foot until
    it picks it up, the stock order) with other cards of the same counts-in-total, keeping
    every size."""
    suited = game.rules.runs

    def hidden_from_observer(i: int, part: str) -> bool:
        return i != observer or (part == "foot" and not game.seats[i].on_foot)

    hidden = []
    for i, seat in enumerate(game.seats):
        for part in ("hand", "foot"):
            if hidden_from_observer(i, part):
                hidden += _held_cards(seat, part, suited)
    hidden += game.stock
    # Where red threes are laid down at once they are never in a hand, but an unplayed foot and
    # the stock may hold them (docs/rules.md, "Red threes"): hands are dealt from the other cards,
    # feet and the stock from what is left, red threes included.
    laid = game.rules.red_threes_laid_down
    shuffled = [int(k) for k in rng.permutation(hidden)]
    pool = [k for k in shuffled if not (laid and k == RED_THREE)]
    reds = [k for k in shuffled if laid and k == RED_THREE]
    for part in ("hand", "foot"):
        if part == "foot":
            pool = [int(k) for k in rng.permutation(pool + reds)]
        for i, seat in enumerate(game.seats):
            if not hidden_from_observer(i, part):
                continue
            size = sum(getattr(seat, part))
            cards, pool = pool[:size], pool[size:]
            assert len(cards) == size
            setattr(seat, part, [0] * 15)
            setattr(seat, f"{part}_suits", [[0] * 11 for _ in range(4)])
            for card in cards:
                add_card(seat, card, part)
    game.stock = pool


@pytest.mark.parametrize(
    "preset,players", [("classic", 2), ("classic", 4), ("partnership", 4), ("house", 2), ("house", 4)]
)
def test_observation_hides_other_hands_feet_and_the_stock(preset, players):
    rules = Rules.preset(preset, num_players=players)
    rng = np.random.default_rng(0)
    for seed in range(6):
        game = Game(rules, seed)
        for _ in range(int(rng.integers(20, 400))):
            if game.is_over:
                break
            game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
        if game.is_over:
            continue
        for observer in range(players):
            before = reference_observe(game, observer)
            _hide_and_shuffle(game, observer, rng)
            assert np.array_equal(before, reference_observe(game, observer))


@pytest.mark.parametrize("preset", ["partnership", "house"])
def test_vector_observation_hides_other_hands_and_the_stock(preset):
    engine = VectorEngine(Rules.preset(preset, num_players=4), batch_size=8, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(150):
        engine.step(random_actions(engine.legal_mask(), rng))
    before = engine.observe().copy()
    movers = engine.current_player.copy()
    for b in range(8):
        s = engine.states[b]
        s["stock"][: s["stock_len"]] = rng.permutation(s["stock"][: s["stock_len"]])
        for seat in range(4):
            if seat != movers[b]:
                total = int(s["hand"][seat].sum())
                s["hand"][seat] = 0
                s["hand"][seat][4] = total  # same size, different cards
                s["hand_suits"][seat] = 0
                s["hand_suits"][seat][0, 0] = total if preset == "house" else 0
            if seat != movers[b] or not s["on_foot"][seat]:  # a seat's own foot is hidden until picked up
                total = int(s["foot"][seat].sum())
                s["foot"][seat] = 0
                s["foot"][seat][5] = total
                s["foot_suits"][seat] = 0
                s["foot_suits"][seat][0, 1] = total if preset == "house" else 0
    assert np.array_equal(before, engine.observe())


def test_observation_layout_is_documented():
    doc = O.__doc__
    for name, size in O.FIELDS:
        assert f"| {name}" in doc
    assert O.OBS_SIZE == sum(size for _, size in O.FIELDS) == 655
    assert O.OBS_SIZE_BY_VERSION == {1: 599, 2: 655}  # version 2 (0.5.0) appended 599-654


def test_the_docs_observation_table_matches_the_layout():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "env.md").read_text()
    for name, indices, _ in O.layout_table():
        assert f"| {name} | {indices} |" in page, name


from hypothesis import example, given, settings
from hypothesis import strategies as st


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 600),
    observer=st.integers(0, 3),
    preset=st.sampled_from(["partnership", "house"]),
)
@example(seed=523, steps=523, observer=0, preset="partnership")  # an empty stock, red threes in an unplayed foot
def test_no_observation_reveals_a_hidden_card(seed, steps, observer, preset):
    """Property: re-dealing every card a seat cannot see leaves its observation unchanged."""
    rules = Rules.preset(preset, num_players=4)
    game = Game(rules, seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
    if game.is_over:
        return
    before = reference_observe(game, observer)
    _hide_and_shuffle(game, observer, rng)
    assert np.array_equal(before, reference_observe(game, observer))


def test_reset_games_with_seeds_starts_them_as_a_reset_with_those_seeds():
    engine = VectorEngine(Rules.preset("partnership"), batch_size=4, seed=0)
    rng = np.random.default_rng(0)
    for _ in range(50):
        engine.step(random_actions(engine.legal_mask(), rng))
    fresh = VectorEngine(Rules.preset("partnership"), batch_size=4, seed=0)
    fresh.reset(seeds=np.array([7, 8, 9, 10]))
    assert np.array_equal(engine.reset_games(np.array([1, 3]), seeds=np.array([8, 10])), [8, 10])
    rows = np.array([1, 3])
    for _ in range(30):  # the same games (beyond the pile's cards, where a used state keeps old numbers)
        for seat in range(4):
            seats = np.full(2, seat)
            assert np.array_equal(engine.observe(seats, rows=rows), fresh.observe(seats, rows=rows))
        masks = engine.legal_mask()
        assert np.array_equal(masks[rows], fresh.legal_mask()[rows])
        actions, active = random_actions(masks, rng), np.isin(np.arange(4), rows)
        engine.step(actions, active=active)
        fresh.step(actions, active=active)
    too_big = np.array([2**63, 2], dtype=np.uint64)  # past int64: would wrap to a negative seed
    for bad in (np.array([8]), np.array([-1, 2]), np.array([1.5, 2.0]), too_big, [10**30, 2]):
        with pytest.raises(ValueError, match="seeds must"):
            engine.reset_games(np.array([1, 3]), seeds=bad)
    for bad in (np.array([1.5, 2.0, 3.0, 4.0]), too_big.repeat(2)):  # a float is not truncated
        with pytest.raises(ValueError, match="seeds must be 4 whole numbers"):
            engine.reset(seeds=bad)


def test_the_engines_own_seeds_run_on_from_0_past_the_largest():
    from handfoot_env.cards import MAX_SEED

    engine = VectorEngine(Rules.preset("classic", num_deals=1), batch_size=3, seed=MAX_SEED - 1)
    assert engine.states["seed"].tolist() == [MAX_SEED - 1, MAX_SEED, 0]
    rng = np.random.default_rng(0)
    for _ in range(5_000):  # until a game ends and restarts (auto_reset) with the engine's next seed
        if engine.step(random_actions(engine.legal_mask(), rng)).game_over.any():
            break
    else:
        raise AssertionError("no one-deal game ended in 5,000 steps")
    assert set(engine.states["seed"].tolist()) - {MAX_SEED - 1, MAX_SEED, 0} <= {1, 2}
    engine.reset_games(np.array([0, 1, 2]))
    assert engine.states["seed"].min() >= 1 and engine.states["seed"].max() <= 4
    with pytest.raises(ValueError, match="seed must be a whole number from 0 to"):
        engine.reset(seed=MAX_SEED + 1)
