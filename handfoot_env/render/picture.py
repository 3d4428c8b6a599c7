"""A picture of the table: ``render_mode="rgb_array"``, and PNG files for notebooks and records.

    image = draw_table(view_of_vector(engine, 0))   # uint8 [H, W, 3]
    save_png(view_of_game(game), "position.png")

It draws what one seat may see (the same ``TableView`` the text table prints): every
side's groups, books and runs with its red threes and score, the stock and the top of the
discard pile, each seat's hand and foot sizes, and the viewer's own hand as cards.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from handfoot_env.cards import (
    FIRST_NATURAL,
    JOKER,
    KIND_NAMES,
    NUM_KINDS,
    NUM_SUITS,
    RED_THREE,
    SUIT_LETTERS,
    TWO,
    card_name,
    natural_kind,
)
from handfoot_env.render.text import TableView

WIDTH = 1000
SIDE_HEIGHT = 78  # one side's header and its melds
FELT, INK, PAPER, RED, BLUE, GOLD = (
    (24, 92, 56),
    (20, 20, 20),
    (250, 248, 240),
    (196, 30, 40),
    (40, 70, 160),
    (236, 196, 72),
)
CARD_W, CARD_H = 30, 42


def _font(size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, label: str, colour=INK, back: bool = False) -> None:
    if back:
        draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), 4, fill=BLUE, outline=PAPER)
        return
    draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), 4, fill=PAPER, outline=INK)
    draw.text((x + 3, y + 3), label, fill=colour, font=_font(12))


def _label_colour(kind: int, suit: int = -1):
    if kind == RED_THREE or suit in (1, 2):  # red threes, diamonds and hearts
        return RED
    if kind in (JOKER, TWO):
        return BLUE
    return INK


def _kind_label(kind: int, suit: int = -1) -> str:
    name = KIND_NAMES[kind]
    return name + (SUIT_LETTERS[suit] if suit >= 0 else "")


def _cards_row(draw, x: int, y: int, cards: list[tuple[str, tuple]], step: int = CARD_W + 3, limit: int = 28) -> int:
    for i, (label, colour) in enumerate(cards[:limit]):
        _card(draw, x + i * step, y, label, colour)
    if len(cards) > limit:
        draw.text((x + limit * step + 4, y + 12), f"+{len(cards) - limit}", fill=PAPER, font=_font(14))
    return x + min(len(cards), limit) * step


def height(owners: int) -> int:
    """The picture's height: the title, a band per side, the piles, the hand and staged cards."""
    return 44 + max(owners, 2) * SIDE_HEIGHT + 6 + 200


def draw_table(view: TableView) -> np.ndarray:
    """The table as ``view.viewer`` sees it, as an RGB array ``[height, WIDTH, 3]``."""
    rules = view.rules
    image = Image.new("RGB", (WIDTH, height(rules.num_owners)), FELT)
    draw = ImageDraw.Draw(image)
    title = (
        f"handfoot · {rules.preset_name} · deal {view.deal_index + 1}/{rules.num_deals} · "
        f"seat {view.current} to move ({view.phase})"
    )
    draw.text((16, 10), title, fill=PAPER, font=_font(18))
    y = 44
    for owner, side in enumerate(view.sides):
        seats = ", ".join(str(s) for s in range(rules.num_players) if rules.owner_of(s) == owner)
        header = (
            f"{'team' if rules.partnerships else 'player'} {owner} (seat{'s' if rules.partnerships else ''} "
            f"{seats}) · total {view.totals[owner]:,} · {'opened' if side.opened else f'needs {side.minimum} to open'}"
            f" · books {side.clean_books} clean, {side.dirty_books} dirty"
            + (f" · red 3s {side.red_threes}" if side.red_threes else "")
        )
        draw.text((16, y), header, fill=GOLD, font=_font(14))
        x = 16
        for rank, clean in side.book_ranks:  # closed books: one card with the count of seven
            _card(draw, x, y + 22, KIND_NAMES[natural_kind(rank)], INK if clean else BLUE)
            draw.text((x + 4, y + 24 + CARD_H - 16), "7", fill=RED if clean else BLUE, font=_font(11))
            x += CARD_W + 8
        for rank, naturals, twos, jokers in side.unfinished:
            name = KIND_NAMES[natural_kind(rank)]
            group = [(name, INK)] * naturals + [("2", BLUE)] * twos + [("Jk", BLUE)] * jokers
            x = _cards_row(draw, x, y + 22, group, step=12) + CARD_W - 4
        for suit, low, length in side.runs:
            run = [
                (_kind_label(natural_kind(r), suit), _label_colour(FIRST_NATURAL, suit))
                for r in range(low, low + length)
            ]
            x = _cards_row(draw, x, y + 22, run, step=14) + CARD_W - 4
        if side.twos_book:
            x = _cards_row(draw, x, y + 22, [("2", BLUE)] * side.twos_book, step=12) + CARD_W
        y += SIDE_HEIGHT
    # the stock and the pile
    y = max(y, 44 + SIDE_HEIGHT * 2) + 6
    _card(draw, 16, y, "", back=True)
    draw.text((16 + CARD_W + 6, y + 12), f"stock {view.stock_size}", fill=PAPER, font=_font(14))
    if view.pile_top is not None:  # a card id: a kind, or a suited natural in house
        card = int(view.pile_top)
        suit = -1 if card < NUM_KINDS else (card - NUM_KINDS) // 11
        _card(draw, 160, y, card_name(card), _label_colour(card if card < NUM_KINDS else FIRST_NATURAL, suit))
    draw.text((160 + CARD_W + 6, y + 12), f"pile {view.pile_size}", fill=PAPER, font=_font(14))
    seats = "   ".join(
        f"seat {s}: {view.hand_sizes[s]} in hand, "
        + ("on its foot" if view.on_foot[s] else f"foot {view.foot_sizes[s]}")
        for s in range(rules.num_players)
    )
    draw.text((300, y + 12), seats, fill=PAPER, font=_font(13))
    # the viewer's hand
    y += CARD_H + 24
    draw.text(
        (16, y),
        f"seat {view.viewer}'s hand" + (" (its foot)" if view.on_foot[view.viewer] else ""),
        fill=GOLD,
        font=_font(14),
    )
    cards: list[tuple[str, tuple]] = []
    for kind in range(NUM_KINDS - 1, -1, -1):
        if view.viewer_suits is not None and kind >= FIRST_NATURAL:
            for suit in range(NUM_SUITS):
                cards += [(_kind_label(kind, suit), _label_colour(kind, suit))] * view.viewer_suits[suit][
                    kind - FIRST_NATURAL
                ]
        else:
            cards += [(KIND_NAMES[kind], _label_colour(kind))] * view.viewer_hand[kind]
    _cards_row(draw, 16, y + 22, cards)
    staged = [
        (KIND_NAMES[k], _label_colour(k)) for k in range(NUM_KINDS - 1, -1, -1) for _ in range(view.viewer_staged[k])
    ]
    if staged:
        draw.text((16, y + 22 + CARD_H + 10), "staged:", fill=GOLD, font=_font(14))
        _cards_row(draw, 90, y + 22 + CARD_H + 6, staged)
    return np.asarray(image)


def save_png(view: TableView, path: str | Path) -> None:
    Image.fromarray(draw_table(view)).save(path)


__all__ = ["WIDTH", "draw_table", "height", "save_png"]
