"""A text table a person can read: scores, every side's table with book counters, the pile,
stock and minimums, and one player's hand grouped by rank.

Both engines render through one :class:`TableView`, built by ``view_of_game`` (reference)
or ``view_of_vector`` (vector engine), so the env and the replay tool print the same table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from handfoot_env.cards import (
    FIRST_NATURAL,
    KIND_NAMES,
    NUM_KINDS,
    NUM_NATURALS,
    NUM_SUITS,
    SUIT_LETTERS,
    card_name,
    format_counts,
    natural_kind,
)
from handfoot_env.rules import Rules


@dataclass
class SideView:
    opened: bool
    minimum: int
    red_threes: int
    clean_books: int
    dirty_books: int
    unfinished: list[tuple[int, int, int, int]] = field(default_factory=list)  # rank, naturals, 2s, jokers
    book_ranks: list[tuple[int, bool]] = field(default_factory=list)  # rank, clean
    runs: list[tuple[int, int, int]] = field(default_factory=list)  # house: suit, low rank, length
    twos_book: int = 0  # house: cards in the unfinished book of 2s


@dataclass
class TableView:
    rules: Rules
    deal_index: int
    dealer: int
    current: int
    phase: str
    stock_size: int
    pile_size: int
    pile_top: int | None
    totals: list[int]
    sides: list[SideView]
    hand_sizes: list[int]
    foot_sizes: list[int]  # 0 once picked up
    on_foot: list[bool]
    viewer: int
    viewer_hand: list[int]
    viewer_staged: list[int]
    viewer_suits: list[list[int]] | None = None  # house: my naturals by [suit][rank]
    known: list[list[int]] = field(default_factory=list)  # per seat: cards seen taken from the pile, still held


def view_of_game(game, seat: int | None = None) -> TableView:
    """The table of a reference game, as ``seat`` (default: the player to move) sees it."""
    from handfoot_env.reference.state import Group, Run, TwosBook, count_books

    rules = game.rules
    seat = game.mover if seat is None else seat  # the asked partner while a question stands
    sides = []
    for owner, side in enumerate(game.sides):
        clean, dirty = count_books(side.groups, rules.book_size)[:2]
        groups = [g for g in side.groups if isinstance(g, Group)]
        unfinished = [g for g in side.groups if g.size < rules.book_size]
        sides.append(
            SideView(
                side.opened,
                game.minimum(owner),
                side.red_threes,
                clean,
                dirty,
                sorted((g.rank, g.naturals, g.twos, g.jokers) for g in groups if g.size < rules.book_size),
                sorted((g.rank, g.is_clean) for g in groups if g.size >= rules.book_size),
                sorted((g.suit, g.low, g.length) for g in unfinished if isinstance(g, Run)),
                sum(g.size for g in unfinished if isinstance(g, TwosBook)),
            )
        )
    staged = [0] * NUM_KINDS
    for group in game.seats[seat].staged:
        for kind, count in enumerate(group.counts()):
            staged[kind] += count
    return TableView(
        rules,
        game.deal_index,
        game.dealer,
        game.current,
        game.phase,
        len(game.stock),
        len(game.pile),
        game.pile[-1] if game.pile else None,
        list(game.totals),
        sides,
        [s.hand_size + sum(g.size for g in s.staged) for s in game.seats],
        [0 if s.on_foot else sum(s.foot) for s in game.seats],
        [s.on_foot for s in game.seats],
        seat,
        list(game.seats[seat].hand),
        staged,
        [list(row) for row in game.seats[seat].hand_suits] if rules.runs else None,
        [list(s.known) for s in game.seats],
    )


def view_of_vector(engine, b: int = 0, seat: int | None = None) -> TableView:
    """The table of game ``b`` of a vector engine, as ``seat`` (default: the mover) sees it."""
    from handfoot_env.vector.state import PHASE_NAMES, STAGED

    rules = engine.rules
    s = engine.states[b]
    seat = int(engine.current_player[b]) if seat is None else seat  # the asked partner while a question stands
    sides = []
    for owner in range(rules.num_owners):
        unfinished = [
            (r, int(s["groups"][owner, r, 0]), int(s["groups"][owner, r, 1]), int(s["groups"][owner, r, 2]))
            for r in range(11)
            if s["groups"][owner, r].sum() > 0
        ]
        books = [
            (r, clean == 0)
            for r in range(11)
            for clean in range(2)
            for _ in range(int(s["book_ranks"][owner, r, clean]))
        ]
        runs = [
            (suit, int(s["runs"][owner, suit, 1]), int(s["runs"][owner, suit, 0]))
            for suit in range(NUM_SUITS)
            if s["runs"][owner, suit, 0] > 0
        ]
        sides.append(
            SideView(
                bool(s["opened"][owner]),
                rules.opening_minimum(int(s["deal"]), int(s["totals"][owner])),
                int(s["table_cards"][owner, 3]),
                int(s["books"][owner, 0]),
                int(s["books"][owner, 1]),
                unfinished,
                sorted(books),
                runs,
                int(s["twos"][owner]),
            )
        )
    n = rules.num_players
    current = int(s["current"])
    staged_count = int(s["table_cards"][STAGED].sum())
    return TableView(
        rules,
        int(s["deal"]),
        int(s["dealer"]),
        current,
        PHASE_NAMES[int(s["phase"])],
        int(s["stock_len"]),
        int(s["pile_len"]),
        int(s["pile"][s["pile_len"] - 1]) if s["pile_len"] else None,
        [int(t) for t in s["totals"][: rules.num_owners]],
        sides,
        [int(s["hand"][p].sum()) + (staged_count if p == current else 0) for p in range(n)],
        [0 if s["on_foot"][p] else int(s["foot"][p].sum()) for p in range(n)],
        [bool(s["on_foot"][p]) for p in range(n)],
        seat,
        [int(x) for x in s["hand"][seat]],
        [int(x) for x in s["table_cards"][STAGED]] if seat == current else [0] * NUM_KINDS,
        s["hand_suits"][seat].tolist() if rules.runs else None,
        [[int(x) for x in s["known"][p]] for p in range(n)],
    )


def format_group(rank: int, naturals: int, twos: int, jokers: int) -> str:
    name = KIND_NAMES[natural_kind(rank)]
    return "[" + " ".join([name] * naturals + ["2"] * twos + ["Jk"] * jokers) + "]"


def format_run(suit: int, low: int, length: int) -> str:
    letter = SUIT_LETTERS[suit]
    return "[" + " ".join(KIND_NAMES[natural_kind(r)] + letter for r in range(low, low + length)) + "]"


def format_hand(counts: list[int], suits: list[list[int]] | None) -> str:
    """A hand, naturals high to low; with suits (house) each natural shows its suit letter."""
    if suits is None:
        return format_counts(counts)
    naturals = [
        KIND_NAMES[natural_kind(r)] + SUIT_LETTERS[suit]
        for r in range(NUM_NATURALS - 1, -1, -1)
        for suit in range(NUM_SUITS)
        for _ in range(suits[suit][r])
    ]
    others = list(counts[:FIRST_NATURAL]) + [0] * (NUM_KINDS - FIRST_NATURAL)
    return " ".join(naturals + ([format_counts(others)] if any(others) else []))


def owner_label(rules: Rules, owner: int) -> str:
    if rules.partnerships:
        return f"team {owner} (seats {'+'.join(str(s) for s in rules.members_of(owner))})"
    return f"player {owner}"


def render_view(view: TableView) -> str:
    rules = view.rules
    if view.phase == "game_over":
        return f"game over; totals {view.totals}"
    need_clean, need_dirty = rules.books_needed(view.deal_index)
    top = card_name(view.pile_top) if view.pile_top is not None else "-"
    house = rules.runs or rules.books_of_twos
    clean_word, dirty_word, books_word = ("red", "black", "canastas") if house else ("clean", "dirty", "books")
    target = f" (game to {rules.target_score:,})" if rules.target_score else ""
    lines = [
        (
            f"deal {view.deal_index + 1}/{rules.num_deals}{target}   dealer: seat {view.dealer}   "
            f"to move: seat {view.current} ({view.phase})   totals {view.totals}"
        ),
        (
            f"stock {view.stock_size}   pile {view.pile_size} (top {top})   "
            f"to go out: {need_clean} {clean_word} + {need_dirty} {dirty_word} {books_word}"
        ),
    ]
    for owner, side in enumerate(view.sides):
        status = "opened" if side.opened else f"needs {side.minimum} to open"
        books = " ".join(f"{KIND_NAMES[natural_kind(r)]}{'*' if clean else '~'}" for r, clean in side.book_ranks)
        melds = [format_group(*g) for g in side.unfinished] + [format_run(*r) for r in side.runs]
        if side.twos_book:
            melds.append("[" + " ".join(["2"] * side.twos_book) + "]")
        threes = "" if house else f"; red threes {side.red_threes}"
        lines.append(
            f"  {owner_label(rules, owner)}: {status}; {books_word} {side.clean_books} {clean_word} / "
            f"{side.dirty_books} {dirty_word}{(' (' + books + ')') if books else ''}{threes}"
        )
        lines.append(f"      {'melds' if house else 'groups'}: {' '.join(melds) or '-'}")
    seats = "  ".join(
        f"seat {p}: {view.hand_sizes[p]} in {'foot' if view.on_foot[p] else 'hand'}"
        + ("" if view.on_foot[p] else f" + foot {view.foot_sizes[p]}")
        for p in range(rules.num_players)
    )
    lines.append(f"  {seats}")
    known = [
        f"seat {p}: {format_counts(cards)}" for p, cards in enumerate(view.known) if p != view.viewer and any(cards)
    ]
    if known:
        lines.append(f"  taken from the pile and still held: {'; '.join(known)}")
    lines.append(f"seat {view.viewer} holds: {format_hand(view.viewer_hand, view.viewer_suits) or '-'}")
    if any(view.viewer_staged):
        lines.append(f"seat {view.viewer} staged: {format_counts(view.viewer_staged)}")
    return "\n".join(lines)


def render_table(game, seat: int | None = None) -> str:
    """The table of a reference game as text."""
    if game.is_over:
        return f"game over after {len(game.deal_results)} deals; totals {game.totals}"
    return render_view(view_of_game(game, seat))


def render_scores(game) -> str:
    """The running score sheet of a reference game, a row per deal."""
    rules = game.rules
    header = "deal | " + " | ".join(owner_label(rules, o) for o in range(rules.num_owners))
    rows = [header, "-" * len(header)]
    running = [0] * rules.num_owners
    for d in game.deal_results:
        running = [r + s for r, s in zip(running, d.scores)]
        out = f"  (out: seat {d.went_out})" if d.went_out is not None else "  (stock ran out)"
        rows.append(f"{d.deal_index + 1:>4} | " + " | ".join(f"{s:+d} = {r}" for s, r in zip(d.scores, running)) + out)
    return "\n".join(rows)
