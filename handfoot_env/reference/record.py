"""Game records: a small JSON file (format, version, rules, seed, actions) that replays exactly.

    {"format": "handfoot-record", "version": 1, "rules": {...}, "seed": 7,
     "actions": [0, 68, ...],
     "result": {"totals": [...], "deal_scores": [[...], ...], "deal_ends": ["going out", ...],
                "over": true, "winners": [0], "winning_seats": [0, 2], "tie": false}}

``winners`` are sides (the player in ``classic``, the team in ``partnership``) with the
highest total, ``winning_seats`` their players; a game with several winners is a ``tie``.

``result`` is optional; when present, replaying must reproduce it or the record is
reported as mismatched.  A game set up from a scenario stores it under ``scenario``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from handfoot_env.actions import NUM_ACTIONS, describe
from handfoot_env.cards import check_seed
from handfoot_env.errors import RecordError, ScenarioError
from handfoot_env.reference import rule_facts as facts
from handfoot_env.reference.game import Game
from handfoot_env.rules import Rules

FORMAT = "handfoot-record"
VERSION = 1


def to_record(game: Game, scenario: dict | None = None) -> dict[str, Any]:
    """The record of ``game`` so far (with its result, if it has one)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "actions": list(game.actions),
    }
    if scenario is not None:
        record["scenario"] = scenario
    record["result"] = {
        "totals": list(game.totals),
        "deal_scores": [list(d.scores) for d in game.deal_results],
        "deal_ends": [d.ended_by for d in game.deal_results],
        "over": game.is_over,
    }
    if game.is_over:
        winners = game.winners()
        record["result"].update(
            winners=winners,
            winning_seats=[seat for owner in winners for seat in facts.members_of(game.rules, owner)],
            tie=len(winners) > 1,
        )
    return record


def save_record(game: Game, path: str | Path, scenario: dict | None = None) -> None:
    Path(path).write_text(json.dumps(to_record(game, scenario), separators=(",", ":")) + "\n")


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and validate a record file; every problem is a :class:`RecordError`."""
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise RecordError(f"cannot read record {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"record {path} is not a text file (a handfoot record is JSON)") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"record {path} is not valid JSON (truncated or corrupt?): {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise RecordError(f"record {path} nests too deeply to be a handfoot record") from None
    validate_record(record, str(path))
    return record


def validate_record(record: Any, name: str = "record") -> None:
    if not isinstance(record, dict):
        raise RecordError(f"{name}: a record is a JSON object, got {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise RecordError(f"{name}: not a handfoot record (format is {record.get('format')!r}, expected {FORMAT!r})")
    if record.get("version") != VERSION:
        raise RecordError(
            f"{name}: record version {record.get('version')!r} is not supported (this build reads {VERSION})"
        )
    for key in ("rules", "seed", "actions"):
        if key not in record:
            raise RecordError(f"{name}: missing field {key!r}")
    seed = record["seed"]
    try:
        check_seed(seed)
    except ValueError as exc:
        raise RecordError(f"{name}: {exc}") from None
    actions = record["actions"]
    if not isinstance(actions, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) and 0 <= a < NUM_ACTIONS for a in actions
    ):
        raise RecordError(f"{name}: actions must be a list of integers in [0, {NUM_ACTIONS})")
    try:
        Rules.from_dict(record["rules"])
    except (ValueError, TypeError) as exc:
        raise RecordError(f"{name}: bad rules: {exc}") from None
    if "result" in record:
        _check_result(record["result"], name)


def _is_ints(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)


def _check_result(result: Any, name: str) -> None:
    """The optional ``result`` has the shapes :func:`to_record` writes (replay compares them)."""
    if not isinstance(result, dict):
        raise RecordError(f"{name}: result must be a mapping, got {type(result).__name__}")
    shapes = {
        "totals": _is_ints,
        "winners": _is_ints,
        "deal_scores": lambda v: isinstance(v, list) and all(_is_ints(s) for s in v),
        "over": lambda v: isinstance(v, bool),
    }
    for key, fits in shapes.items():
        if key in result and not fits(result[key]):
            raise RecordError(f"{name}: result field {key!r} has the wrong shape: {result[key]!r}")


def start_game(record: dict[str, Any]) -> Game:
    """The game a record starts from (its deal or its scenario), before any action."""
    validate_record(record)
    try:
        if record.get("scenario") is not None:
            from handfoot_env.reference.scenario import load_scenario

            return load_scenario(record["scenario"])
        return Game(Rules.from_dict(record["rules"]), record["seed"])
    except (ValueError, ScenarioError) as exc:
        raise RecordError(f"record cannot start: {exc}") from None


def replay(record: dict[str, Any], on_step: Callable[[Game, int, int], None] | None = None) -> Game:
    """Replay a record action by action; ``on_step(game, index, action)`` runs before each."""
    game = start_game(record)
    for index, action in enumerate(record["actions"]):
        if game.is_over:
            raise RecordError(f"record step {index}: the game ended before this action ({describe(action)})")
        if on_step is not None:
            on_step(game, index, action)
        reason = game.why_illegal(action)
        if reason is not None:
            raise RecordError(f"record step {index}: action {action} ({describe(action)}) is illegal here: {reason}")
        game.step(action)
    result = record.get("result")
    if isinstance(result, dict):  # its shapes checked by validate_record
        if "totals" in result and result["totals"] != game.totals:
            raise RecordError(
                f"record does not match its replay: stored totals {result['totals']}, replayed {game.totals}"
            )
        if "deal_scores" in result and result["deal_scores"] != [list(d.scores) for d in game.deal_results]:
            raise RecordError("record does not match its replay: deal scores differ")
        if "winners" in result and game.is_over and result["winners"] != game.winners():
            raise RecordError(
                f"record does not match its replay: stored winners {result['winners']}, replayed {game.winners()}"
            )
        if result.get("over") and not game.is_over:
            raise RecordError(
                f"record is truncated: it says the game ended, but the replay stops after {len(record['actions'])} actions"
            )
    return game


def iter_replay(record: dict[str, Any]) -> Iterator[tuple[Game, int, int]]:
    """Yield (game before the action, index, action) for each action, then apply it."""
    game = start_game(record)
    for index, action in enumerate(record["actions"]):
        yield game, index, action
        reason = game.why_illegal(action)
        if reason is not None:
            raise RecordError(f"record step {index}: action {action} ({describe(action)}) is illegal here: {reason}")
        game.step(action)
