"""Matches that separate skill from luck: duplicate deals, rotated seats, 95% intervals.

Every shuffled deal (a game seed) is played once per side with the team's side rotating
(twice, sides swapped, in two-sided games), so both lineups get the same cards.  The win
rate (a draw counts half) gets the Wilson score interval over the games, which stays inside
0-100% and does not shrink to a point at either end (it ignores the pairing of the deals, so
it is wider than the spread of the duplicate sets would be: conservative); the score
difference gets a normal interval over the duplicate sets, which keeps the luck of the deal out.

A match is played a chunk of games at a time, its seeds made per chunk and its statistics
gathered as it goes (:class:`Tally`), so a match of a billion deals needs no more memory than
one of a thousand.  Ctrl-C raises :class:`MatchInterrupted` with the result of the duplicate
sets that had ended.

A foreign agent (``py:``, ``cmd:``) plays behind the referee (``agents.referee``): its fault
stops the match with a :class:`MatchFault` that names the agent, the rules, the seed and the
step, and carries the game's actions so far (saved as a record that replays to the faulty
step); with ``keep_going``, the game it broke is forfeited (lost by the side that broke it)
and the match goes on.  The lab's own agents play unguarded and keep no history unless asked.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from agents.foreign import AgentFault, MatchFault
from agents.referee import ForeignAgent
from handfoot_env.rules import Rules
from handfoot_env.seating.rewards import game_points, seat_owners
from handfoot_env.seating.seats import Seating
from handfoot_env.vector import VectorEngine

BATCH = 512  # games per chunk: the unit of work and of reseeding
LONG_SECONDS = 24 * 3600.0  # a match expected to take longer is said so, in one line, with the estimate


@dataclass
class MatchResult:
    team: str
    vs: str
    preset: str
    num_players: int
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    ci95: list[float]
    score_diff: float
    score_diff_ci95: list[float]
    mean_actions: float
    steps_per_sec: float
    extra: dict = field(default_factory=dict)
    forfeits: int = 0  # games lost because the team's (or won because the opponent's) agent broke them
    forfeited: list[dict] = field(default_factory=list)  # their faults (MatchFault.describe)

    def to_dict(self) -> dict:
        return asdict(self)


def wilson_interval(points: float, games: int, z: float = 1.96) -> list[float]:
    """The Wilson score interval (95% by default) of a rate of ``points`` in ``games``."""
    if games <= 0:
        return [0.0, 1.0]
    rate = points / games
    spread = z * z / games
    centre = (rate + spread / 2) / (1 + spread)
    half = z * math.sqrt(rate * (1 - rate) / games + spread / (4 * games)) / (1 + spread)
    return [max(centre - half, 0.0), min(centre + half, 1.0)]


def _normal_interval(count: int, total: float, squares: float) -> list[float]:
    """The 95% normal interval of a mean from its samples' count, sum and sum of squares."""
    if count == 0:
        return [math.nan, math.nan]
    mean = total / count
    if count < 2:
        return [mean, mean]
    variance = max(squares - count * mean * mean, 0.0) / (count - 1)
    half = 1.96 * math.sqrt(variance / count)
    return [mean - half, mean + half]


class Tally:
    """A match's statistics, gathered a chunk at a time, in match order: per game its outcome for
    the team (1, 0.5, 0), its score difference (NaN for a forfeited game) and its length.  The
    duplicate sets are ``owners`` games in a row; a set split between chunks waits for its rest."""

    def __init__(self, owners: int):
        self.owners = owners
        self.games = self.wins = self.draws = self.losses = self.forfeits = 0
        self.actions = 0.0
        self.diff_games, self.diff_sum = 0, 0.0  # the games played to the end: their score differences
        self.sets, self.set_sum, self.set_squares = 0, 0.0, 0.0  # per set: its mean score difference
        self.forfeited: list[dict] = []  # each forfeited game's fault (MatchFault.describe)
        self._pending = np.zeros((0, 3))

    def add(self, rows: np.ndarray, partial: bool = False) -> None:
        """Games in match order (``play_chunk``'s rows); ``partial``: the last rows of an
        interrupted match, NaN outcome for a game that had not ended (its set is left out)."""
        rows = np.concatenate([self._pending, rows])
        whole = len(rows) // self.owners * self.owners
        sets, self._pending = rows[:whole].reshape(-1, self.owners, 3), rows[whole:]
        if partial:
            sets = sets[~np.isnan(sets[:, :, 0]).any(axis=1)]
            self._pending = self._pending[:0]
        games = sets.reshape(-1, 3)
        outcome, diff, actions = games[:, 0], games[:, 1], games[:, 2]
        self.games += len(games)
        self.wins += int((outcome == 1).sum())
        self.draws += int((outcome == 0.5).sum())
        self.losses += int((outcome == 0).sum())
        self.forfeits += int(np.isnan(diff).sum())
        self.actions += float(actions.sum())
        played = ~np.isnan(diff)
        self.diff_games += int(played.sum())
        self.diff_sum += float(diff[played].sum())
        counted = played.reshape(-1, self.owners).sum(axis=1)
        with np.errstate(invalid="ignore"):
            set_means = np.nansum(sets[:, :, 1], axis=1) / counted
        set_means = set_means[counted > 0]
        self.sets += len(set_means)
        self.set_sum += float(set_means.sum())
        self.set_squares += float((set_means**2).sum())

    def result(self, rules: Rules, team: str, vs: str, seconds: float) -> MatchResult:
        points = self.wins + 0.5 * self.draws
        return MatchResult(
            team=team,
            vs=vs,
            preset=rules.preset_name,
            num_players=rules.num_players,
            games=self.games,
            wins=self.wins,
            draws=self.draws,
            losses=self.losses,
            win_rate=points / max(self.games, 1),
            ci95=wilson_interval(points, self.games),
            score_diff=self.diff_sum / self.diff_games if self.diff_games else math.nan,
            score_diff_ci95=_normal_interval(self.sets, self.set_sum, self.set_squares),
            mean_actions=self.actions / max(self.games, 1),
            steps_per_sec=self.actions / max(seconds, 1e-9),
            forfeits=self.forfeits,
            forfeited=list(self.forfeited),
        )


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a match.  ``result``: the match over the duplicate sets whose every game
    had ended (None if none had); ``finished``: the whole matches played before it, when the
    match was one of several (a round robin fills it in)."""

    def __init__(self, result: MatchResult | None, planned: int, finished: list[MatchResult] | None = None):
        super().__init__("interrupted")
        self.result, self.planned, self.finished = result, planned, list(finished or [])


class _GamesInterrupted(KeyboardInterrupt):
    """Ctrl-C inside :func:`play_games`: the games that had ended by then (``finished``, their
    totals and lengths), and those forfeited."""

    def __init__(self, finished: np.ndarray, totals: np.ndarray, taken: np.ndarray):
        super().__init__("interrupted")
        self.finished, self.totals, self.taken = finished, totals, taken


def play_games(
    rules: Rules,
    seeds: np.ndarray,
    team_side: np.ndarray,
    team,
    vs,
    histories: list[list[int]] | None = None,
    on_games_over=None,
    forfeits: dict[int, MatchFault] | None = None,
    most_forfeits: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Play one game per seed, ``team`` on ``team_side[i]`` and ``vs`` on every other side;
    ``on_games_over(n)`` hears as soon as ``n`` more games have ended; ``histories`` (one
    list per seed), when given, receive each game's actions (kept anyway when an agent is
    foreign, for the record of a fault: a :class:`MatchFault`).  ``forfeits``, when given,
    receives a foreign agent's faults by game instead of their stopping the games: the game
    is left where it was, and the others go on; one more than ``most_forfeits`` (when given)
    raises that fault, at once, as the match's.

    Returns (final totals ``[G, owners]``, actions per game ``[G]``)."""
    if histories is None and (isinstance(team, ForeignAgent) or isinstance(vs, ForeignAgent)):
        histories = [[] for _ in seeds]
    engine = VectorEngine(rules, batch_size=len(seeds), auto_reset=False)
    engine.reset(seeds=seeds)
    seating = Seating(engine, [team, vs])
    seating.seat_agents = np.where(seat_owners(rules)[None, :] == np.asarray(team_side)[:, None], 0, 1)
    actions_taken = np.zeros(len(seeds), dtype=np.int64)
    finished = np.zeros(len(seeds), dtype=bool)  # ended, as the steps so far said (for Ctrl-C)
    totals = np.zeros((len(seeds), rules.num_owners), dtype=np.int64)
    playing = np.ones(len(seeds), dtype=bool)  # not forfeited

    def count(outcome, stepped, actions) -> None:
        actions_taken[stepped] += 1
        if histories is not None:
            for game in np.flatnonzero(stepped):
                histories[game].append(int(actions[game]))
        if outcome.game_over.any():
            ended = np.flatnonzero(outcome.game_over & stepped)
            finished[ended] = True
            totals[ended] = engine.final_totals[ended]
            if on_games_over is not None:
                on_games_over(int(outcome.game_over.sum()))

    while True:
        try:
            seating.play(active=None if playing.all() else playing, on_step=count)
            break
        except AgentFault as fault:
            # The games the faulty agent was asked about, as Seating.play chose them (nothing has moved since).
            index = 0 if getattr(fault, "guard", None) is team else 1
            asked = np.flatnonzero(playing & ~engine.is_over & (seating.agents_to_move() == index))
            row = fault.row if fault.row is not None and 0 <= fault.row < len(asked) else 0
            game = int(asked[row])
            broken = MatchFault(
                fault,
                rules.to_dict(),
                int(seeds[game]),
                int(actions_taken[game]),
                int(team_side[game]),
                list(histories[game]) if histories is not None else [],
                getattr(team, "name", "team"),
                getattr(vs, "name", "vs"),
                by_team=index == 0,
            )
            if forfeits is None or (most_forfeits is not None and len(forfeits) >= most_forfeits):
                raise broken from None
            forfeits[game] = broken
            playing[game] = False
            if on_games_over is not None:
                on_games_over(1)
        except KeyboardInterrupt:
            raise _GamesInterrupted(finished, totals, actions_taken) from None
    return engine.final_totals.copy(), actions_taken


@dataclass
class Chunk:
    """A slice of a match, the unit of work (local or on a Ray cluster): the match's games
    from number ``lo`` on (their seeds and the team's sides), and the seed its agents are
    reseeded with, so a chunk plays the same games wherever and in whatever order it runs."""

    lo: int
    seeds: np.ndarray
    sides: np.ndarray
    agent_seed: int


class MatchChunks(Sequence[Chunk]):
    """A match of ``deals`` duplicate sets (each seed once with the team on every side) as
    chunks of ``batch`` games, each made when asked for: a match of any length costs no memory."""

    def __init__(self, rules: Rules, deals: int, seed: int, batch: int = BATCH):
        self.owners, self.deals, self.seed, self.batch = rules.num_owners, deals, seed, batch
        self.games = deals * self.owners

    def __len__(self) -> int:
        return (self.games + self.batch - 1) // self.batch

    def __getitem__(self, index):  # a chunk by number; no slices
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        lo = (index % len(self)) * self.batch
        games = np.arange(lo, min(lo + self.batch, self.games), dtype=np.int64)
        seeds = self.seed + games // self.owners
        return Chunk(lo, seeds, games % self.owners, self.seed * 1_000_003 + lo)

    def __iter__(self) -> Iterator[Chunk]:
        return (self[i] for i in range(len(self)))


def match_chunks(rules: Rules, deals: int, seed: int, batch: int = BATCH) -> MatchChunks:
    """``deals`` duplicate sets (each seed once with the team on every side) in chunks of ``batch`` games."""
    return MatchChunks(rules, deals, seed, batch)


def play_chunk(
    rules: Rules,
    chunk: Chunk,
    team,
    vs,
    histories: list[list[int]] | None = None,
    on_games_over=None,
    forfeits: dict[int, MatchFault] | None = None,
    most_forfeits: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Play a chunk's games; returns (``[games, 3]``: the team's outcome (1 / 0.5 / 0), its
    score difference and the actions taken; final totals ``[games, owners]``).  A game in
    ``forfeits`` (``play_games``) is lost by the side whose agent broke it, its score
    difference NaN.  Ctrl-C raises :class:`MatchInterrupted`'s forerunner with the rows of the
    games that had ended (NaN outcome for the others)."""
    for role, agent in enumerate((team, vs)):
        if hasattr(agent, "seed"):  # agents that sample draw the same numbers wherever the chunk runs
            try:
                agent.seed(int(np.random.SeedSequence([chunk.agent_seed, role]).generate_state(1)[0]))
            except AgentFault as fault:  # before any game: no game to forfeit, the match is the fault
                raise MatchFault(
                    fault,
                    rules.to_dict(),
                    int(chunk.seeds[0]),
                    0,
                    int(chunk.sides[0]),
                    [],
                    getattr(team, "name", "team"),
                    getattr(vs, "name", "vs"),
                    by_team=role == 0,
                ) from None
    interrupted = False
    try:
        totals, taken = play_games(
            rules, chunk.seeds, chunk.sides, team, vs, histories, on_games_over, forfeits, most_forfeits
        )
        ended = np.ones(len(chunk.seeds), dtype=bool)
    except _GamesInterrupted as stop:
        totals, taken, ended, interrupted = stop.totals, stop.taken, stop.finished, True
    out = np.stack([*team_outcomes(totals, chunk.sides), np.asarray(taken, dtype=np.float64)], axis=1)
    for game, forfeited in (forfeits or {}).items():
        out[game, :2] = (0.0 if forfeited.by_team else 1.0, np.nan)
        ended[game] = True
    if interrupted:
        out[~ended, 0] = np.nan
        raise _ChunkInterrupted(out)
    return out, totals


def team_outcomes(totals: np.ndarray, sides: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per game, the team's (on side ``sides[i]``) outcome by the draw rule (``game_points``:
    1 won, 0.5 tied for the highest total, 0 lost) and its score difference (its total less the
    mean of the other sides')."""
    totals = np.asarray(totals, dtype=np.float64)
    sides = np.asarray(sides, dtype=np.int64)
    mine = totals[np.arange(len(totals)), sides]
    others = (totals.sum(axis=1) - mine) / (totals.shape[1] - 1)
    return game_points(totals, sides), mine - others


class _ChunkInterrupted(KeyboardInterrupt):
    def __init__(self, rows: np.ndarray):
        super().__init__("interrupted")
        self.rows = rows


def match_result(rules: Rules, team: str, vs: str, deals: int, games: np.ndarray, seconds: float) -> MatchResult:
    """The result of a match from its games (``play_chunk``'s rows, in match order)."""
    tally = Tally(rules.num_owners)
    tally.add(games)
    return tally.result(rules, team, vs, seconds)


def play_match(
    rules: Rules,
    team,
    vs,
    deals: int,
    seed: int = 0,
    progress: bool = True,
    records: str | Path | None = None,
    faults: str | Path | None = None,
    keep_going: bool = False,
    say: Callable[[str], None] | None = None,
) -> MatchResult:
    """``deals`` duplicate sets: each seed played once with the team on every side; with
    ``records``, every game is also saved there as a record (``handfoot replay``, the web page).
    A foreign agent's fault raises :class:`MatchFault`, its game's record saved in ``faults``;
    with ``keep_going`` the game is forfeited instead (its record saved all the same), unless
    the agent breaks too many (:func:`most_forfeits_of`).  ``say`` hears, in one line, that
    the match will take longer than a day (measured on its first chunk).  Ctrl-C raises
    :class:`MatchInterrupted`.  ``agents.evaluation.ray.play_matches_on_ray`` plays the same
    chunks on a Ray cluster, with the same result."""
    chunks = match_chunks(rules, deals, seed)
    team_name, vs_name = getattr(team, "name", "team"), getattr(vs, "name", "vs")
    bar = progress_bar(chunks.games, f"{team_name} vs {vs_name}", progress)
    start = time.perf_counter()
    tally = Tally(rules.num_owners)
    most_forfeits = most_forfeits_of(chunks.games)
    try:
        for number, chunk in enumerate(chunks):
            histories: list[list[int]] | None = [[] for _ in chunk.seeds] if records is not None else None
            forfeits: dict[int, MatchFault] | None = {} if keep_going else None
            try:
                part, totals = play_chunk(
                    rules,
                    chunk,
                    team,
                    vs,
                    histories,
                    bar.update if bar is not None else None,
                    forfeits,
                    most_forfeits - len(tally.forfeited),
                )
            except MatchFault as fault:
                if faults is not None:  # the fault, and the games this chunk forfeited before it
                    for broken in [*(forfeits or {}).values(), fault]:
                        broken.save_record(faults)
                raise
            except _ChunkInterrupted as stop:
                # The games it forfeited before Ctrl-C are kept too: each listed and its record
                # saved, though the count, like every count, takes only whole duplicate sets.
                _keep_forfeits(forfeits, faults, tally)
                tally.add(stop.rows, partial=True)
                raise
            _keep_forfeits(forfeits, faults, tally)
            if forfeits and len(tally.forfeited) > most_forfeits:
                raise next(iter(forfeits.values()))  # too broken to measure: the match is a fault
            if histories is not None and records is not None:
                for i, (seed_i, side, history, total) in enumerate(zip(chunk.seeds, chunk.sides, histories, totals)):
                    if forfeits is None or i not in forfeits:
                        save_game_record(
                            rules, int(seed_i), history, total, Path(records) / f"seed{seed_i}_team_side{side}.json"
                        )
            tally.add(part)
            if number == 0 and say is not None and len(chunks) > 1:
                _say_if_long(say, chunks.games, len(chunk.seeds), time.perf_counter() - start)
    except KeyboardInterrupt:  # in a chunk (its games that ended are in the tally) or between two
        seconds = time.perf_counter() - start
        raise MatchInterrupted(
            tally.result(rules, team_name, vs_name, seconds) if tally.games else None, deals
        ) from None
    finally:
        if bar is not None:
            bar.close()
    return tally.result(rules, team_name, vs_name, time.perf_counter() - start)


def _keep_forfeits(forfeits: dict[int, MatchFault] | None, faults: str | Path | None, tally: Tally) -> None:
    """A chunk's forfeited games: each record saved in ``faults`` (when given), each fault listed."""
    for broken in (forfeits or {}).values():
        if faults is not None:
            broken.save_record(faults)
        tally.forfeited.append(broken.describe())


def most_forfeits_of(games: int) -> int:
    """The most games of a match of ``games`` that an agent may forfeit before the match ends
    as a fault, unmeasured: a tenth of them (at least 10).  A broken agent costs no more time:
    a local match stops at the fault past the limit (on Ray, the chunk that holds it ends first)."""
    return max(games // 10, 10)


def _say_if_long(say: Callable[[str], None], games: int, played: int, seconds: float) -> None:
    """One line, when ``games`` at the pace of the first ``played`` would take more than a day."""
    estimate = seconds * games / max(played, 1)
    if estimate > LONG_SECONDS:
        days = estimate / 86400
        span = f"{days:,.0f} days" if days < 730 else f"{days / 365.25:,.0f} years"
        say(
            f"warning: {games:,} games at the pace of the first {played:,} ({played / max(seconds, 1e-9):,.0f} "
            f"games/s) take about {span}; Ctrl-C stops and reports the games finished"
        )


def save_game_record(rules: Rules, seed: int, actions: list[int], totals: np.ndarray, path: Path) -> None:
    """Replay a vector-engine game on the reference engine and save its record; the two
    engines' final totals must agree (they are held identical by the differential tests)."""
    from handfoot_env.reference import Game
    from handfoot_env.reference.record import save_record

    game = Game(rules, seed)
    for action in actions:
        game.step(action)
    if not game.is_over or list(game.totals) != [int(t) for t in totals]:
        raise RuntimeError(
            f"seed {seed}: the reference engine disagrees with the vector engine "
            f"({list(game.totals)} vs {list(totals)}); please report this"
        )
    save_record(game, path)


def progress_bar(total: int, label: str, enabled: bool):
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=label, unit="game", file=sys.stderr, leave=False)
