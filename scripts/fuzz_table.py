"""The fuzz tables of docs/contributing.md from the output of ``handfoot fuzz --json`` (one JSON object per
configuration, one per line).

    python scripts/fuzz_table.py docs/data/fuzz_mixed_10m_variations.jsonl

Prints the totals, then two Markdown tables: the rare situations met per preset table (the
configurations that change no variation), and for each variation configuration the
situations only a variation makes (a wild book completed, permission refused ...).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# Corners that only a variation makes: the presets' table leaves them out, the variations' keeps only them.
VARIATION_CORNERS = (
    "wild_book_completed",
    "permission_asked",
    "permission_granted",
    "permission_refused",
    "went_out_with_permission",
    "partner_not_on_foot",
    "threes_book_completed",
    "sevens_book_completed",
    "pile_taken_by_table",
    "pile_taken_with_wild",
    "pile_frozen_by_wild",
    "six_player_teams_went_out",
)


def is_preset_table(row: dict) -> bool:
    """A configuration of a preset as it is: its label names only the preset and the players, and
    the players are not the six in three teams of the partnership variation."""
    six_in_teams = row["preset"] == "partnership" and row["num_players"] == 6
    return row["label"] == f"{row['preset']} {row['num_players']}p" and not six_in_teams


def totals_line(rows: list[dict]) -> str:
    total = {k: sum(r[k] for r in rows) for k in ("steps", "games", "divergences", "dead_ends", "invariant_failures")}
    return (
        f"{total['steps']:,} compared steps, {total['games']:,} whole games, {len(rows)} configurations: "
        f"{total['divergences']} divergences, {total['dead_ends']} dead ends, "
        f"{total['invariant_failures']} invariant failures"
    )


def presets_table(rows: list[dict]) -> str:
    corners = [c for c in rows[0]["corners"] if c not in VARIATION_CORNERS]
    lines = [
        "| corner | " + " | ".join(r["label"] for r in rows) + " | all |",
        "|---|" + "---:|" * (len(rows) + 1),
    ]
    for corner in corners:
        counts = [r["corners"][corner] for r in rows]
        lines.append(f"| `{corner}` | " + " | ".join(f"{c:,}" for c in counts) + f" | {sum(counts):,} |")
    games = [r["games"] for r in rows]
    lines.append("| games | " + " | ".join(f"{g:,}" for g in games) + f" | {sum(games):,} |")
    return "\n".join(lines)


def variations_table(rows: list[dict]) -> str:
    lines = ["| configuration | compared steps | games | situations of the variations met |", "|---|---:|---:|---|"]
    for r in rows:
        met = ", ".join(f"`{c}` {r['corners'][c]:,}" for c in VARIATION_CORNERS if r["corners"].get(c))
        lines.append(f"| {r['label']} | {r['steps']:,} | {r['games']:,} | {met or '(none of their own)'} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(
        description="The fuzz tables of docs/contributing.md from handfoot fuzz --json output."
    )
    parser.add_argument("jsonl", type=Path)
    args = parser.parse_args()
    try:
        rows = [json.loads(line) for line in args.jsonl.read_text().splitlines() if line.strip()]
    except (OSError, json.JSONDecodeError) as exc:
        print(f"fuzz_table: cannot read {args.jsonl}: {exc}", file=sys.stderr)
        return 2
    if not rows:
        print(f"fuzz_table: {args.jsonl} holds no configuration", file=sys.stderr)
        return 2
    presets = [r for r in rows if is_preset_table(r)]
    variations = [r for r in rows if not is_preset_table(r)]
    print(totals_line(rows), end="\n\n")
    if presets:
        print(presets_table(presets), end="\n\n")
    if variations:
        print(variations_table(variations))
    return 0


if __name__ == "__main__":
    sys.exit(main())
