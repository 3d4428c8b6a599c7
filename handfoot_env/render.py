"""A text table a person can read: scores, every side's table, the pile, and a player's hand."""

from __future__ import annotations

from handfoot_env.cards import KIND_NAMES, format_counts, natural_kind
from handfoot_env.reference.game import Game
from handfoot_env.reference.state import Group, count_books


def format_group(group: Group) -> str:
    name = KIND_NAMES[natural_kind(group.rank)]
    cards = " ".join([name] * group.naturals + ["2"] * group.twos + ["Jk"] * group.jokers)
    return f"[{cards}]"


def owner_label(game: Game, owner: int) -> str:
    if game.rules.partnerships:
        return f"team {owner} (seats {'+'.join(str(s) for s in game.rules.members_of(owner))})"
    return f"player {owner}"


def render_table(game: Game, seat: int | None = None) -> str:
    """The table as text; ``seat`` shows that player's hand (None: the player to move)."""
    rules = game.rules
    seat = game.current if seat is None else seat
    lines = []
    if game.is_over:
        lines.append(f"game over after {len(game.deal_results)} deals; totals {game.totals}")
        return "\n".join(lines)
    need_clean, need_dirty = game.books_needed()
    lines.append(
        f"deal {game.deal_index + 1}/{rules.num_deals}  dealer {game.dealer}  to move: seat {game.current} "
        f"({game.phase})  stock {len(game.stock)}  totals {game.totals}  "
        f"to go out: {need_clean} clean + {need_dirty} dirty"
    )
    top = KIND_NAMES[game.pile[-1]] if game.pile else "-"
    lines.append(f"pile: {len(game.pile)} cards, top {top}")
    for owner, side in enumerate(game.sides):
        clean, dirty = count_books(side.groups, rules.book_size)
        status = "opened" if side.opened else f"not opened (minimum {game.minimum(owner)})"
        groups = " ".join(format_group(g) for g in side.groups) or "-"
        lines.append(
            f"  {owner_label(game, owner)}: {status}; books {clean} clean {dirty} dirty; "
            f"red threes {side.red_threes}; {groups}"
        )
    for i, s in enumerate(game.seats):
        where = "foot" if s.on_foot else "hand"
        foot = "played" if s.on_foot else f"{sum(s.foot)} cards"
        lines.append(f"  seat {i}: {s.hand_size} cards in {where}; foot {foot}")
    me = game.seats[seat]
    lines.append(f"seat {seat} holds: {format_counts(me.hand) or '-'}")
    if me.staged:
        lines.append(f"seat {seat} staged: {' '.join(format_group(g) for g in me.staged)} ({me.staged_value} points)")
    return "\n".join(lines)


def render_scores(game: Game) -> str:
    """The running score sheet, a row per deal."""
    owners = range(game.rules.num_owners)
    header = "deal | " + " | ".join(owner_label(game, o) for o in owners)
    rows = [header, "-" * len(header)]
    running = [0] * game.rules.num_owners
    for d in game.deal_results:
        running = [r + s for r, s in zip(running, d.scores)]
        out = f"  (out: seat {d.went_out})" if d.went_out is not None else "  (stock ran out)"
        rows.append(f"{d.deal_index + 1:>4} | " + " | ".join(f"{s:+d} = {r}" for s, r in zip(d.scores, running)) + out)
    return "\n".join(rows)
