"""The web table in a real browser (headless system Chromium, driven by Playwright):
a person's whole deal played by clicks, Hint, the Coach, a replay stepped, a watched game."""

from __future__ import annotations

import json
import os
import random
import re

import numpy as np
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import Page, expect

from handfoot_env.reference import Game
from handfoot_env.reference.record import to_record
from handfoot_env.reference.scenario import build_scenario
from handfoot_env.rules import Rules

SCREENSHOT = os.environ.get("HANDFOOT_SCREENSHOT")  # e.g. docs/figures/web_table.png, for the README


def rank_of(label: str) -> str:
    return label[:-1] if label[-1:] in "cdhs" and label not in ("3b", "3r") else label


def wait_for_answer(page: Page, turn: str) -> None:
    """Until the page shows a new move number, or a refusal."""
    page.wait_for_function(
        "turn => document.getElementById('status').dataset.turn !== turn || !document.getElementById('error').hidden",
        arg=turn,
    )
    assert page.locator("#error").is_hidden(), page.locator("#error").text_content()


def click_cards(page: Page, labels: list[str]) -> None:
    """Select cards of the hand, by their labels, with clicks."""
    used: set[int] = set()
    cards = page.locator("#hand .card")
    hand = cards.evaluate_all("cards => cards.map(c => c.dataset.card)")
    for label in labels:
        index = next(i for i, held in enumerate(hand) if i not in used and (held == label or rank_of(held) == label))
        used.add(index)
        cards.nth(index).click()
    expect(page.locator("#hand .card.selected")).to_have_count(len(labels))


def take_my_turn_step(page: Page, rng: random.Random) -> None:
    """One move by clicks as a person would: Draw or Pick up, Meld cards selected in the hand,
    Discard a selected card, or (for the rest) a move from the list of legal moves."""
    turn = page.locator("#status").get_attribute("data-turn")
    if page.locator("#draw").is_enabled() or page.locator("#pickup").is_enabled():
        pick = page.locator("#pickup").is_enabled() and (rng.random() < 0.5 or page.locator("#draw").is_disabled())
        page.locator("#pickup" if pick else "#draw").click()
        return wait_for_answer(page, turn)
    commands = page.locator("#moves .move").evaluate_all("moves => moves.map(m => m.dataset.command)")
    melds = [c for c in commands if re.fullmatch(r"m( [0-9AJQK]+)+", c)]
    discards = [c for c in commands if c.startswith("d ")]
    if melds and rng.random() < 0.8:
        click_cards(page, melds[0].split()[1:])
        page.locator("#meld").click()
    elif discards:
        click_cards(page, [rng.choice(discards)[2:]])
        page.locator("#discard").click()
    else:
        page.locator("#moves .move").nth(rng.randrange(len(commands))).click()
    wait_for_answer(page, turn)


def start_game(page: Page, url: str, preset: str, opponents: str = "heuristic", seed: int = 21) -> None:
    page.goto(url)
    page.locator("#preset").select_option(preset)
    page.locator("#opponents").select_option(opponents)
    if page.locator("#partner").is_enabled():
        page.locator("#partner").select_option(opponents)
    page.locator("#seed").fill(str(seed))
    page.locator("#new-game").click()
    expect(page.locator("#table")).to_be_visible()
    page.locator("#moves-box summary").click()


def test_a_whole_deal_by_clicks_with_hint_and_coach(page: Page, server_url: str, tmp_path):
    start_game(page, server_url, "classic")
    expect(page.locator("#status")).to_contain_text("your move")
    # Hint names a legal move and why
    page.locator("#hint").click()
    expect(page.locator("#hint-text")).to_be_visible()
    expect(page.locator("#hint-text")).to_contain_text("Hint (heuristic)")
    expect(page.locator("#moves .move.hinted")).to_have_count(1)
    # buttons follow the mask: at the start of a turn only Draw / Pick up
    expect(page.locator("#discard")).to_be_disabled()
    expect(page.locator("#meld")).to_be_disabled()

    rng = random.Random(4)
    screenshot_taken = False
    while page.locator("#score-sheet tr").count() < 2:  # the header, then the first deal
        take_my_turn_step(page, rng)
        opened = page.locator('#sides .side[data-owner="0"] .meld').count() >= 2
        if not screenshot_taken and opened and page.locator("#draw").is_disabled():
            page.locator("#hint").click()
            expect(page.locator("#hint-text")).to_be_visible()
            page.screenshot(path=SCREENSHOT or str(tmp_path / "table.png"), full_page=True)
            screenshot_taken = True
    expect(page.locator("#score-sheet tr").nth(1)).to_contain_text("1 (")
    # the deal's score with its parts, for each side
    parts = page.locator("#score-sheet tr.deal .parts")
    expect(parts).to_have_count(2)
    for text in parts.all_text_contents():
        assert "cards melded" in text and "cards held" in text
    expect(page.locator("#coach .review")).to_have_count(1)
    expect(page.locator("#coach .review h3")).to_contain_text("Deal 1")


def test_a_refused_move_is_explained(page: Page, server_url: str):
    start_game(page, server_url, "classic")
    turn = page.locator("#status").get_attribute("data-turn")
    # the page only offers legal moves, so send a stale one as a second tab would
    answer = page.evaluate(
        """async turn => {
        const r = await fetch('/api/act', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                           body: JSON.stringify({turn: Number(turn) + 5, action: 0})});
        return [r.status, (await r.json()).error];
    }""",
        turn,
    )
    assert answer[0] == 409 and "stale" in answer[1]
    expect(page.locator("#status")).to_have_attribute("data-turn", turn)


def test_a_replay_opened_and_stepped(page: Page, server_url: str, tmp_path):
    start_game(page, server_url, "house", opponents="greedy", seed=3)
    rng = random.Random(2)
    for _ in range(12):
        take_my_turn_step(page, rng)
    # A game in play has no record until it is over (its seed would show every hidden card).
    expect(page.locator("#save")).to_be_disabled()
    expect(page.locator("#save")).to_have_attribute("title", re.compile("when the game is over"))
    game = Game(Rules.preset("house"), seed=3)
    moves = np.random.default_rng(2)
    for _ in range(40):
        game.step(int(moves.choice(np.flatnonzero(game.legal_mask()))))
    record = to_record(game)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    page.locator("#replay-file").set_input_files(str(path))
    expect(page.locator("#replay-controls")).to_be_visible()
    expect(page.locator("#replay-next")).to_have_text(f"move 0 of {len(record['actions'])}")
    page.locator("#replay-forward").click()
    page.locator("#replay-forward").click()
    expect(page.locator("#replay-next")).to_have_text(f"move 2 of {len(record['actions'])}")
    page.locator("#replay-back").click()
    expect(page.locator("#replay-next")).to_have_text(f"move 1 of {len(record['actions'])}")
    expect(page.locator(".revealed")).to_have_count(0)
    page.locator("#reveal").check()
    expect(page.locator(".revealed")).to_have_count(2)
    page.locator("#replay-end").click()
    expect(page.locator("#replay-next")).to_have_text(f"move {len(record['actions'])} of {len(record['actions'])}")


def test_watching_agents_pause_and_step(page: Page, server_url: str):
    page.goto(server_url)
    page.locator("#preset").select_option("partnership")
    page.locator("#new-watch").click()
    expect(page.locator("#watch-controls")).to_be_visible()
    page.locator("#watch-speed").fill("50")
    expect(page.locator("#watch-ms")).to_have_text("50 ms a move")
    page.wait_for_function("() => Number(document.getElementById('status').dataset.turn) >= 5")
    page.locator("#watch-play").click()  # pause
    expect(page.locator("#watch-play")).to_have_text("Play")
    paused_at = int(page.locator("#status").get_attribute("data-turn"))
    page.wait_for_timeout(300)
    assert int(page.locator("#status").get_attribute("data-turn")) <= paused_at + 1  # one move may be in flight
    turn = page.locator("#status").get_attribute("data-turn")
    page.locator("#watch-step").click()
    expect(page.locator("#status")).not_to_have_attribute("data-turn", turn)


def test_a_variation_chosen_in_the_form_is_played_and_named(page: Page, server_url: str):
    """The Rules section of the form: controls that follow the chosen preset, a ticked
    variation and a changed number sent with the new game, and the table naming them."""
    page.goto(server_url)
    page.locator("#rules-box summary").click()
    permission = page.get_by_label("Permission to go out", exact=True)
    deals = page.get_by_label("Number of deals", exact=True)
    expect(permission).not_to_be_checked()
    expect(deals).to_have_value("4")
    page.locator("#preset").select_option("house")
    expect(page.get_by_label("Runs", exact=True)).to_be_checked()  # house's defaults
    expect(deals).to_have_value("30")
    page.locator("#preset").select_option("partnership")
    expect(page.get_by_label("Runs", exact=True)).not_to_be_checked()
    permission.check()
    deals.fill("1")
    expect(page.locator("#rules-count")).to_have_text("(2 changed)")
    page.locator("#seed").fill("5")
    page.locator("#new-game").click()
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("deal 1 of 1")
    expect(page.locator("#rules-line")).to_have_text(
        "Rules changed from partnership: Number of deals: 1 · Permission to go out: yes"
    )
    labels = page.locator("#rules-settings label").all_text_contents()
    assert len(labels) > 30 and not any("_" in label for label in labels)  # words, not field names


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["classic", "partnership", "house"])
def test_a_whole_game_of_each_preset_by_clicks(page: Page, server_url: str, preset: str):
    start_game(page, server_url, preset, opponents="greedy", seed=8)
    rng = random.Random(6)
    while page.locator("#status").get_attribute("data-over") != "true":
        take_my_turn_step(page, rng)
    expect(page.locator("#status")).to_contain_text("Game over")
    deals = page.locator("#score-sheet tr").count() - 1
    expect(page.locator("#coach .review")).to_have_count(deals)


# ---------------------------------------------------------------------- what a person sees
def table_of_page(page: Page, web_app):
    """The server's table of the page's session (white-box: to set a position)."""
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "handfoot_session")
    return web_app.state.tables.table_of(cookie)


def show_position(page: Page, web_app, text: str):
    """Put the page's game at the scenario ``text``, the agents played on until the person is to
    act, and have the page draw it; returns the table."""
    table = table_of_page(page, web_app)
    table.game, _ = build_scenario(text)
    table.log, table.talk = [], []
    table._agents_play()
    page.evaluate("refresh()")
    expect(page.locator("#status")).to_have_attribute("data-turn", str(table.moves_seen))
    return table


PARTNER_ASKS = """
    preset: partnership
    rules: {num_deals: 1, permission_to_go_out: true}
    to_move: 2
    seats:
      - {hand: 4 5 6 K 9 9 Jk 3b, foot: random 11}
      - {hand: random 9, foot: random 11}
      - {hand: K K K 8 8 8, on_foot: true}
      - {hand: random 9, foot: random 11}
    tables:
      - {opened: true, groups: [Q Q Q Q Q Q Q, A A A A A A A, J J J J J 2 2, 10 10 10 10 10 Jk 2]}
      - {}
    """


def test_the_landing_page_says_what_to_do(page: Page, server_url: str):
    page.goto(server_url)
    expect(page.locator("#welcome")).to_be_visible()
    expect(page.locator("#welcome")).to_contain_text("then press Play")
    expect(page.locator("#table")).to_be_hidden()
    page.locator("#new-game").click()
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#welcome")).to_be_hidden()


def test_a_sign_shows_while_a_game_is_dealt_and_a_silent_server_is_named(page: Page, server_url: str):
    """An answer that takes a while (an agent's model loading) shows a sign; a server that does
    not answer at all is named as such, not "Failed to fetch"."""
    page.add_init_script(
        """{ const fetchNow = window.fetch;
             const later = (url, init) => new Promise((done) => setTimeout(done, 1500)).then(() => fetchNow(url, init));
             window.fetch = (url, init) => url === "/api/play" ? later(url, init) : fetchNow(url, init); }"""
    )
    page.goto(server_url)
    page.locator("#new-game").click()
    expect(page.locator("#busy")).to_be_visible()
    expect(page.locator("#busy")).to_have_text("Dealing…")
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#busy")).to_be_hidden()
    words = page.evaluate("dealingWords(['ppo', 'heuristic', 'ppo'])")
    assert words == "Dealing… loading ppo can take a few seconds the first time."

    page.route("**/api/**", lambda route: route.abort())  # the server has stopped
    page.locator("#draw").click()
    expect(page.locator("#error")).to_contain_text("The server is not answering")
    assert "Failed to fetch" not in page.locator("#error").text_content()


def test_the_partners_question_and_the_answer_are_in_the_status_line(page: Page, server_url: str, web_app):
    """Permission to go out: the partner's question in the status line with Yes and No to
    press; after the answer, the question and the answer stay there; each side is named
    (your side, opponents), says whether it has opened and what it still needs to go out."""
    start_game(page, server_url, "partnership")
    show_position(page, web_app, PARTNER_ASKS)
    expect(page.locator("#status")).to_contain_text("Your partner (seat 2) asks you: may I go out? Answer Yes or No.")
    expect(page.locator("#answer-yes")).to_be_enabled()
    expect(page.locator("#answer-no")).to_be_enabled()
    expect(page.locator("#ask")).to_be_disabled()
    expect(page.locator("#draw")).to_be_disabled()
    mine, theirs = page.locator('#sides .side[data-owner="0"]'), page.locator('#sides .side[data-owner="1"]')
    expect(mine.locator("h3")).to_contain_text("Your side (seats 0 & 2)")
    expect(theirs.locator("h3")).to_contain_text("Opponents (seats 1 & 3)")
    expect(mine.locator(".opened")).to_have_text("opened")
    expect(theirs.locator(".opened")).to_have_text("not opened: needs 50 points to open")
    expect(mine.locator(".needs")).to_have_text("has the books to go out")
    expect(theirs.locator(".needs")).to_have_text("to go out, still needs 2 clean books, 2 dirty books")

    turn = page.locator("#status").get_attribute("data-turn")
    page.locator("#answer-no").click()
    wait_for_answer(page, turn)
    expect(page.locator("#talk")).to_have_text(" · Your partner (seat 2) asked: may I go out? You said no.")


def test_the_move_log_is_newest_first_with_the_games_move_numbers(page: Page, server_url: str):
    start_game(page, server_url, "partnership")
    rng = random.Random(1)
    for _ in range(6):
        take_my_turn_step(page, rng)
    turn = int(page.locator("#status").get_attribute("data-turn"))
    numbers = page.locator("#log li:not(.deal-end)").evaluate_all("items => items.map(item => item.value)")
    assert numbers[0] == turn and numbers == sorted(numbers, reverse=True)
    assert numbers == list(range(turn, turn - len(numbers), -1))  # every move, numbered as in the game


def test_hint_speaks_in_the_pages_words_and_a_black_three_looks_the_same_everywhere(
    page: Page, server_url: str, web_app
):
    """Hint names the move with the page's buttons (no typed command); a black three in the
    hand, in Hint and in the move log is the same card."""
    start_game(page, server_url, "classic")
    show_position(
        page,
        web_app,
        """
        preset: classic
        seats: [{hand: 3b K Q 9 7 6, foot: random 11}, {hand: random 11, foot: random 11}]
        tables: [{opened: true, groups: [A A A]}, {}]
        pile: 8 9 10 J
        """,
    )
    page.locator("#hint").click()
    hint = page.locator("#hint-text")
    expect(hint).to_contain_text("discard")
    expect(hint).to_contain_text("Select that card in your hand and press Discard.")
    text = hint.text_content()
    assert "Type it" not in text and not re.search(r"\b(d|m) [0-9AJQK]", text)
    looks = "card => [card.textContent, card.title, card.classList.contains('red')]"
    in_hand = page.locator('#hand .card[data-card="3b"]').evaluate(looks)
    assert in_hand == ["3", "black three", False]
    assert page.locator('#hint-text .card[data-card="3b"]').evaluate(looks) == in_hand
    click_cards(page, ["3b"])
    turn = page.locator("#status").get_attribute("data-turn")
    page.locator("#discard").click()
    wait_for_answer(page, turn)
    assert page.locator('#log .card[data-card="3b"]').first.evaluate(looks) == in_hand
