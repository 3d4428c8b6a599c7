"""Differential testing: the reference and vector engines played side by side.

Both engines start from the same seeds; at every step the legal masks, the mover's
observations, the deals that end and their scores, the totals and the done flags must be
identical.  The same
random legal action is then applied to both.  A divergence raises :class:`Divergence`
with the seed, the step and a replay record of the reference game up to that step.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from handfoot_env.errors import IllegalActionError
from handfoot_env.reference import Game
from handfoot_env.reference.observe import observe
from handfoot_env.reference.record import to_record
from handfoot_env.reference.scenario import build_scenario
from handfoot_env.rules import Rules
from handfoot_env.vector import VectorEngine
from handfoot_env.vector.state import PERMISSION_NAMES


class Divergence(AssertionError):
    def __init__(self, what: str, game: Game, step: int, detail: str):
        self.what = what
        self.record = to_record(game)
        self.record.pop("result")
        super().__init__(
            f"engines diverge on {what} (seed {game.seed}, step {step} of that game): {detail}\n"
            f"replay record: {json.dumps(self.record, separators=(',', ':'))}"
        )


class DeadEnd(AssertionError):
    """A position that is not game over, yet has no legal action (docs/rules.md, "When the
    stock runs out", forbids it)."""

    def __init__(self, game: Game):
        self.record = to_record(game)
        self.record.pop("result")
        super().__init__(
            f"no legal action in a position that is not over (seed {game.seed}, step {len(game.actions)}, "
            f"deal {game.deal_index + 1}, seat {game.current}, {game.phase} phase)\n"
            f"replay record: {json.dumps(self.record, separators=(',', ':'))}"
        )


@dataclass
class DiffReport:
    """What a differential run compared: ``steps`` counts the actions whose outcomes were
    compared (game by game), ``deal_ends`` the deals whose end and scores were compared, and
    ``went_out`` those of them that a seat ended by going out (the others ran out of stock or
    of legal actions)."""

    steps: int = 0
    games_finished: int = 0
    deal_ends: int = 0
    went_out: int = 0


def compare_position(game: Game, mask: np.ndarray, observation: np.ndarray) -> None:
    """The vector engine's mask and mover's observation against the reference game's; a
    position that is not over must have a legal action (:class:`DeadEnd`)."""
    step = len(game.actions)
    ref_mask = game.legal_mask()
    if not np.array_equal(ref_mask, mask):
        diff = np.flatnonzero(ref_mask != mask).tolist()
        raise Divergence("legal mask", game, step, f"actions {diff} differ (reference {ref_mask[diff].tolist()})")
    if not game.is_over and not ref_mask.any():
        raise DeadEnd(game)
    ref_obs = observe(game, game.mover)  # the seat to act: the asked partner while a question stands
    if not np.array_equal(ref_obs, observation):
        diff = np.flatnonzero(ref_obs != observation).tolist()
        raise Divergence("observation", game, step, f"indices {diff[:10]} differ")


def compare_outcome(game: Game, deals_before: int, outcome, b: int, totals: np.ndarray) -> None:
    """After the same action: the deal that ended (if any) and its scores, the done flag and
    the totals must agree (``outcome`` is the vector engine's ``StepOutcome``, ``b`` the row)."""
    step = len(game.actions)
    ended = len(game.deal_results) > deals_before
    if ended != bool(outcome.deal_over[b]):
        raise Divergence("deal end", game, step, f"reference {ended}, vector {bool(outcome.deal_over[b])}")
    if ended and list(game.deal_results[-1].scores) != outcome.deal_scores[b].tolist():
        raise Divergence(
            "deal scores",
            game,
            step,
            f"reference {list(game.deal_results[-1].scores)}, vector {outcome.deal_scores[b].tolist()}",
        )
    if bool(outcome.game_over[b]) != game.is_over:
        raise Divergence("done flag", game, step, f"reference {game.is_over}, vector {bool(outcome.game_over[b])}")
    if totals.tolist() != game.totals:
        raise Divergence("scores", game, step, f"reference {game.totals}, vector {totals.tolist()}")


def run_differential(
    rules: Rules,
    batch_size: int,
    steps: int,
    seed: int = 0,
    agent=None,
    explore: float = 0.1,
) -> DiffReport:
    """Play ``steps`` batch steps on both engines, comparing everything; the first
    difference raises :class:`Divergence` (a dead end, :class:`DeadEnd`).

    Actions are random legal ones, or an ``agent``'s (batched protocol of ``agents/``) with
    probability ``1 - explore`` each: scripted play reaches what random play rarely does
    (long runs, frozen melds, going out, games that end at the target score)."""
    engine = VectorEngine(rules, batch_size=batch_size, seed=seed)
    refs = [Game(rules, int(s)) for s in engine.states["seed"]]
    rng = np.random.default_rng(seed)
    report = DiffReport()
    for _ in range(steps):
        masks = engine.legal_mask()
        observations = engine.observe()
        for b, game in enumerate(refs):
            compare_position(game, masks[b], observations[b])
        choice = rng.random(masks.shape)
        choice[~masks] = -1.0
        actions = choice.argmax(axis=1)
        if agent is not None:
            chosen = np.asarray(agent.act(observations, masks))
            actions = np.where(rng.random(batch_size) < explore, actions, chosen)
        deals_before = [len(g.deal_results) for g in refs]
        outcome = engine.step(actions)
        for b, game in enumerate(refs):
            game.step(int(actions[b]))
            totals = engine.final_totals[b] if outcome.game_over[b] else engine.totals[b]
            compare_outcome(game, deals_before[b], outcome, b, totals)
            report.steps += 1
            if len(game.deal_results) > deals_before[b]:
                report.deal_ends += 1
                report.went_out += game.deal_results[-1].went_out is not None
            if outcome.game_over[b]:
                report.games_finished += 1
                refs[b] = Game(rules, int(engine.states["seed"][b]))
    return report


class TwinGame:
    """A reference game and the same position in a one-game vector engine, played together.

    Reads go to the reference game (``twin.seats``, ``twin.why_illegal(a)``...).  Every
    ``step`` is applied to both engines, which must both accept it or both refuse it, and
    then agree on the legal mask, every seat's observation, the deal scores, the totals, the
    phase and the player to move; :class:`Divergence` says where they differ.  Setting an attribute
    (``twin.current = 2``) changes the reference game and copies its position over again.

        twin = TwinGame.from_scenario(yaml_text)
        twin.step(A.DRAW)
    """

    def __init__(self, game: Game, open_deal: bool = False):
        engine = VectorEngine(game.rules, batch_size=1, auto_reset=False)
        engine.load_position(0, game, open_deal=open_deal)
        if open_deal:
            game.open_deal()
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "engine", engine)
        self.compare()

    @classmethod
    def from_scenario(cls, source) -> TwinGame:
        game, starts_deal = build_scenario(source)
        return cls(game, open_deal=starts_deal)

    def __getattr__(self, name: str):
        if name.startswith("__") or name in ("game", "engine"):  # copying and pickling look these up
            raise AttributeError(name)
        return getattr(self.game, name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self.game, name, value)
        self.engine.load_position(0, self.game)

    def why_illegal(self, action) -> str | None:
        reason = self.game.why_illegal(action)
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            vector = self.engine.why_illegal(0, int(action))
            if (reason is None) != (vector is None):
                raise Divergence(
                    "legality",
                    self.game,
                    len(self.game.actions),
                    f"action {action}: reference {reason!r}, vector {vector!r}",
                )
        return reason

    def step(self, action) -> None:
        deals_before = len(self.game.deal_results)
        refused = []
        for name, apply in (
            ("reference", lambda: self.game.step(action)),
            ("vector", lambda: self.engine.step(np.array([action]))),
        ):
            try:
                result = apply()
            except (IllegalActionError, ValueError) as exc:
                refused.append((name, exc))
            else:
                if name == "vector":
                    outcome = result
        if len(refused) == 1:
            name, reason = refused[0]
            raise Divergence(
                "legality",
                self.game,
                len(self.game.actions),
                f"only the {name} engine refused action {action!r}: {reason}",
            )
        if refused:
            raise refused[0][1]
        totals = self.engine.final_totals[0] if outcome.game_over[0] else self.engine.totals[0]
        compare_outcome(self.game, deals_before, outcome, 0, totals)
        self.compare()

    def compare(self) -> None:
        """Raise :class:`Divergence` unless both engines hold the same position."""
        game, engine = self.game, self.engine
        step = len(game.actions)
        mask = engine.legal_mask()[0]
        if not np.array_equal(game.legal_mask(), mask):
            diff = np.flatnonzero(game.legal_mask() != mask).tolist()
            raise Divergence("legal mask", game, step, f"actions {diff} differ")
        state = engine.states[0]
        for seat in range(game.rules.num_players):
            vector_obs = engine.observe(np.array([seat]))[0]
            if not np.array_equal(observe(game, seat), vector_obs):
                diff = np.flatnonzero(observe(game, seat) != vector_obs).tolist()
                raise Divergence("observation", game, step, f"seat {seat}: indices {diff[:10]} differ")
        checks = (
            ("scores", game.totals, engine.totals[0].tolist()),
            ("phase", game.phase, {0: "draw", 1: "play", 2: "game_over"}[int(state["phase"])]),
            ("player whose turn it is", game.current, int(state["current"])),
            ("seat to act", game.mover, int(engine.current_player[0])),
            ("permission question", game.permission, PERMISSION_NAMES[int(state["permission"])]),
            ("deal", game.deal_index, int(state["deal"])),
        )
        for what, reference, vector in checks:
            if reference != vector:
                raise Divergence(what, game, step, f"reference {reference}, vector {vector}")
