"""The benchmark protocol: how ``handfoot benchmark`` measures an agent, the same way every time.

Protocol 2 (docs/benchmark.md says it in full):

* tables: ``classic`` with 2 players, ``partnership`` and ``house`` with 4 in two teams (the
  tables the lab ships trained agents for); an agent plays those it supports (its
  ``supports(rules)``, when it has one);
* opponents: ``random``, ``greedy``, ``heuristic``, ``tuned`` and ``ppo`` (the shipped ones of
  each table); an agent does not play itself;
* 1,000 duplicate sets per opponent (2,000 games: each deal once with the agent on each side),
  the deals seeded ``SEED`` to ``SEED + 999``, everyone's randomness seeded per chunk of games
  (``agents.evaluation.matches.match_chunks``), so a result repeats to the last game, with or without Ray;
* agents from outside the lab (``py:``, ``cmd:``) play in processes of their own behind the
  referee (``agents.referee``), with ``decision_seconds`` for each decision;
* per opponent: wins, draws and losses, the win rate (a draw counts half) with its 95% Wilson
  interval over the games, the score difference per game with its 95% interval over the
  duplicate sets, and the games forfeited (``--keep-going``: a game an agent broke is lost);
* a rating on the Elo scale: the opponents are anchored at the Bradley-Terry ratings of their
  own round robin under this protocol (``agents/models/leaderboard.json``, written by
  ``scripts/leaderboard.py``), and the agent's rating is the one under which the model expects
  the points it scored against them (``agents.evaluation.ratings.rating_against``), with its
  95% score interval (``rating_interval``).

Matches are ``agents.evaluation.matches``'s (``play_match``; ``agents.evaluation.ray.play_matches_on_ray`` with
``--ray``).  The agent always sits as the match's team, so its row is the same whether it is
benchmarked alone or beside others (an opponent that samples, ``random``, draws from the
seeds of its role); the leaderboard's run plays both ``A vs B`` and ``B vs A``.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents.evaluation.seeds import BENCHMARK_SEEDS, TRAINING_SEEDS
from agents.foreign import DEFAULT_DECISION_SECONDS, MatchFault
from agents.trained import MODELS, shipped_model
from handfoot_env import __version__
from handfoot_env.rules import Rules

FORMAT = "handfoot-benchmark"
PROTOCOL = 2
TABLES = (("classic", 2), ("partnership", 4), ("house", 4))
OPPONENTS = ("random", "greedy", "heuristic", "tuned", "ppo")
PAIRS = 1000
SEED = BENCHMARK_SEEDS  # far from the seeds training and tuning evaluate on
MAX_PAIRS = TRAINING_SEEDS - BENCHMARK_SEEDS  # more would deal the training's deals
LEADERBOARD = MODELS / "leaderboard.json"  # the shipped agents' benchmark: the opponents' anchors


def table_label(preset: str, players: int) -> str:
    """``partnership, 4 players (2 teams)``."""
    rules = Rules.preset(preset, num_players=players)
    teams = f" ({rules.num_owners} teams)" if rules.partnerships else ""
    return f"{preset}, {players} players{teams}"


def parse_tables(text: str) -> list[tuple[str, int]]:
    """``classic:2,house:4`` as tables of the protocol; any other is one clear error."""
    chosen = []
    for item in text.split(","):
        preset, _, players = item.strip().partition(":")
        table = (preset, int(players)) if players.strip().isdigit() else None
        if table not in TABLES:
            known = ", ".join(f"{p}:{n}" for p, n in TABLES)
            raise ValueError(f"--tables: {item.strip()!r} is not a table of the benchmark (choose from {known})")
        chosen.append(table)
    return list(dict.fromkeys(chosen))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def opponents_fingerprint(rules: Rules, pairs: int = PAIRS) -> dict:
    """What the opponents' anchors depend on: the lab's version, the protocol and its number of
    duplicate sets, the shipped files."""
    return {
        "handfoot": __version__,
        "protocol": PROTOCOL,
        "pairs": pairs,
        "tuned": _sha256(shipped_model(rules, "tuned")),
        "ppo": _sha256(shipped_model(rules, "ppo")),
    }


def stored_anchors(rules: Rules, path: Path | None = None) -> tuple[dict[str, float] | None, str]:
    """The opponents' ratings stored for this table (in ``path``, by default the leaderboard's
    file), and a note on where they come from."""
    path = LEADERBOARD if path is None else path
    try:
        board = json.loads(path.read_text())
    except (OSError, ValueError):
        return None, f"no anchors ({path.name} missing or unreadable: run python scripts/leaderboard.py)"
    for table in board.get("tables", []):
        if (table.get("preset"), table.get("players")) == (rules.preset_name, rules.num_players):
            anchors = table.get("anchors", {})
            ratings = anchors.get("ratings")
            if not ratings or set(ratings) != set(OPPONENTS):
                break
            note = f"opponents anchored at {path.name} (handfoot {board.get('handfoot')})"
            if anchors.get("fingerprint") != opponents_fingerprint(rules):
                note += (
                    "; STALE: made with other shipped agents, another handfoot, protocol or number of duplicate sets "
                    "(regenerate: python scripts/leaderboard.py)"
                )
            return {name: float(r) for name, r in ratings.items()}, note
    return None, f"no anchors for this table in {path.name} (run python scripts/leaderboard.py)"


def _file_of(name: str) -> Path | None:
    """The one file an agent's name loads (a model, a tuned heuristic, a py: file), if any."""
    from agents import agent_model_file, parse_agent_name
    from agents.foreign import split_reference

    kind, argument = parse_agent_name(name)
    if kind.name == "py" and argument is not None:
        target = split_reference(argument)[0]
        return Path(target) if target.endswith(".py") else None
    if kind.name == "cmd" and argument is not None:  # the script the program runs, else the program
        from agents.referee import split_command

        words = split_command(argument)
        files = [Path(word) for word in words[1:] if Path(word).is_file()]  # python3 bot.py: bot.py
        return files[0] if files else (Path(words[0]) if words and Path(words[0]).is_file() else None)
    return None if kind.model_file is None or argument is None else agent_model_file(name, None)


def machine_description() -> str:
    """The machine a figure was measured on: its CPU, cores, Python and numpy."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{cpu}, {cores} cores, Python {platform.python_version()}, numpy {np.__version__}"


@dataclass
class Settings:
    """How a benchmark runs: the protocol's numbers and the user's choices."""

    tables: Sequence[tuple[str, int]] = TABLES
    pairs: int = PAIRS
    decision_seconds: float = DEFAULT_DECISION_SECONDS
    keep_going: bool = False  # after a foreign agent's fault: go on with the other matches, or stop
    faults: Path = Path("benchmark/faults")  # where the records of faulty games go
    progress: bool = True
    say: Callable[[str], None] = field(default=lambda line: print(line, file=sys.stderr, flush=True))


class Benchmark:
    """One run of the protocol for some agents (``cluster``: a ``agents.evaluation.ray.Cluster`` or None)."""

    def __init__(self, agents: Sequence[str], settings: Settings, cluster=None):
        from agents import check_agent_name

        for name in agents:
            check_agent_name(name)
        if len(set(agents)) != len(agents) or not agents:
            raise ValueError(f"benchmark one or more different agents, got {', '.join(agents) or 'none'}")
        if not 1 <= settings.pairs <= MAX_PAIRS:
            raise ValueError(
                f"--pairs {settings.pairs:,}: the benchmark's deals are seeds {SEED:,} to {TRAINING_SEEDS - 1:,} "
                f"(past them are the training's), so at most {MAX_PAIRS:,} duplicate sets"
            )
        self.agents = list(agents)
        self.settings = settings
        self.cluster = cluster
        self.faults: list[dict] = []
        self.labels: dict[str, str] = {}  # the names the agents give themselves, where they differ
        self.stopped = False  # at the first fault (without keep_going), or on Ctrl-C
        self.interrupted = False

    # ------------------------------------------------------------------ the run
    def run(self) -> dict:
        """Every table: the matches, the ratings; the whole as one JSON-ready dict.  Ctrl-C
        ends the run with the matches finished by then (``interrupted`` in the report)."""
        start = time.perf_counter()
        tables = []
        try:
            for preset, players in self.settings.tables:
                if self.stopped:
                    break
                tables.append(self._table(Rules.preset(preset, num_players=players)))
        except KeyboardInterrupt:  # between matches (a match's own is caught where it plays)
            self.stopped = self.interrupted = True
        return {
            "format": FORMAT,
            "protocol": PROTOCOL,
            "handfoot": __version__,
            "standard": self.settings.pairs == PAIRS,
            "settings": {
                "pairs": self.settings.pairs,
                "seeds": [SEED, SEED + self.settings.pairs - 1],
                "opponents": list(OPPONENTS),
                "tables": [f"{p}:{n}" for p, n in self.settings.tables],
                "decision_seconds": self.settings.decision_seconds,
                "keep_going": self.settings.keep_going,
            },
            "agents": [self._describe(name) for name in self.agents],
            "tables": tables,
            "faults": self.faults,
            "stopped": self.stopped,
            "interrupted": self.interrupted,
            "seconds": time.perf_counter() - start,
            "ray": self.cluster is not None,
            "machine": machine_description(),
        }

    def _describe(self, name: str) -> dict:
        path = _file_of(name)
        return {
            "name": name,
            "label": self.labels.get(name),
            "file_sha256": _sha256(path) if path is not None and path.is_file() else None,
        }

    def _build(self, name: str, rules: Rules):
        from agents import ForeignAgent, make_agent

        with warnings.catch_warnings():  # "trained on another table": supports() decides that here
            warnings.simplefilter("ignore")
            agent = make_agent(name, seed=SEED, rules=rules)
        if isinstance(agent, ForeignAgent):
            agent.decision_seconds = self.settings.decision_seconds
        label = getattr(agent, "label", None) or getattr(agent, "name", None)
        if isinstance(label, str) and label != name:
            self.labels[name] = label
        return agent

    def _table(self, rules: Rules) -> dict:
        label = table_label(rules.preset_name, rules.num_players)
        started = time.perf_counter()
        built: dict = {}
        try:
            for name in dict.fromkeys([*self.agents, *OPPONENTS]):
                built[name] = self._build(name, rules)
            playing = [name for name in self.agents if getattr(built[name], "supports", lambda r: True)(rules)]
            planned = [(agent, opponent) for agent in playing for opponent in OPPONENTS if agent != opponent]
            self.settings.say(f"{label}: {len(planned)} matches of {self.settings.pairs:,} duplicate sets")
            played: dict = {}
            try:
                self._play(rules, built, planned, label, played)
            except KeyboardInterrupt:  # Ctrl-C: the matches finished are in played
                self.stopped = self.interrupted = True
        finally:
            for agent in built.values():  # the foreign agents' processes end with their table
                if hasattr(agent, "close"):
                    agent.close()
        entries = {}
        for agent in self.agents:
            results = {}
            for opponent in OPPONENTS if agent in playing else ():
                if agent != opponent:
                    results[opponent] = self._result(played, agent, opponent)
            entries[agent] = {"plays": agent in playing, "results": results}
        anchors, source = self._anchors(rules, played)
        for agent, entry in entries.items():
            entry["rating"], entry["rating_ci95"] = self._rating(agent, entry, anchors)
        return {
            "preset": rules.preset_name,
            "players": rules.num_players,
            "label": label,
            "rules": rules.to_dict(),
            "entries": entries,
            "anchors": {
                "source": source,
                "ratings": anchors,
                "fingerprint": opponents_fingerprint(rules, self.settings.pairs),
            },
            "seconds": time.perf_counter() - started,
        }

    @staticmethod
    def _result(played: dict, agent: str, opponent: str) -> dict | None:
        found = played.get((agent, opponent))
        if found is None:
            return None  # not played: the benchmark stopped before it
        if isinstance(found, MatchFault):
            return {"fault": str(found.fault), "kind": found.fault.kind, "seed": found.seed, "step": found.step}
        result = found.to_dict()
        result["team"], result["vs"] = agent, opponent
        return result

    # ------------------------------------------------------------------ the matches
    def _play(self, rules: Rules, built: dict, planned: list[tuple[str, str]], label: str, played: dict) -> None:
        """Play the planned matches, here or on the Ray cluster, into ``played`` (a result or a
        fault per match, as each ends)."""
        if self.cluster is not None:
            return self._play_on_ray(rules, planned, label, played)
        from agents.evaluation.matches import play_match

        for team, vs in planned:
            if self.stopped:
                break
            try:
                result = play_match(
                    rules,
                    built[team],
                    built[vs],
                    self.settings.pairs,
                    seed=SEED,
                    progress=self.settings.progress,
                    faults=self.settings.faults,
                    keep_going=self.settings.keep_going,
                    say=self.settings.say,
                )
            except MatchFault as fault:
                self._fault(fault, label, played, (team, vs))
                continue
            result.team, result.vs = team, vs
            played[(team, vs)] = result
            self._said(label, result)

    def _play_on_ray(self, rules: Rules, planned: list[tuple[str, str]], label: str, played: dict) -> None:
        from agents.evaluation.matches import MatchInterrupted
        from agents.evaluation.ray import agent_spec, play_matches_on_ray

        specs = {
            name: agent_spec(name, rules, decision_seconds=self.settings.decision_seconds)
            for pair in planned
            for name in pair
        }
        remaining = list(planned)
        while remaining and not self.stopped:
            try:
                results = play_matches_on_ray(
                    rules,
                    [(specs[a], specs[b]) for a, b in remaining],
                    self.settings.pairs,
                    seed=SEED,
                    progress=self.settings.progress,
                    keep_going=self.settings.keep_going,
                    faults=self.settings.faults,
                )
            except MatchFault as fault:  # the other matches are played again, to the same numbers
                fault.save_record(self.settings.faults)
                match = (fault.team, fault.vs) if (fault.team, fault.vs) in remaining else remaining[0]
                self._fault(fault, label, played, match)
                remaining.remove(match)
                continue
            except MatchInterrupted as stop:
                for result in stop.finished:
                    played[(result.team, result.vs)] = result
                raise
            for result in results:
                played[(result.team, result.vs)] = result
                self._said(label, result)
            remaining = []

    def _fault(self, fault: MatchFault, label: str, played: dict, match: tuple[str, str]) -> None:
        played[match] = fault
        self.faults.append({**fault.describe(), "team": match[0], "vs": match[1], "table": label})
        self.settings.say(f"FAULT: {fault}")
        if not self.settings.keep_going:
            self.stopped = True
            self.settings.say("the benchmark stops here (--keep-going plays on, a game an agent breaks lost)")
        else:
            self.settings.say("the match is left without a result: the agent broke too many of its games")

    def _said(self, label: str, result) -> None:
        forfeits = f", {result.forfeits} forfeited" if result.forfeits else ""
        self.settings.say(
            f"{label}: {result.team} vs {result.vs}: {result.win_rate:.1%} "
            f"({result.ci95[0]:.1%} - {result.ci95[1]:.1%}), {result.games} games{forfeits}"
        )
        for forfeit in result.forfeited:
            self.faults.append({**forfeit, "team": result.team, "vs": result.vs, "table": label, "forfeit": True})

    # ------------------------------------------------------------------ the ratings
    def _anchors(self, rules: Rules, played: dict) -> tuple[dict[str, float] | None, str]:
        """The opponents' ratings: from their own round robin when this run played it whole
        (the leaderboard's run), else as stored."""
        from agents.evaluation.ratings import bradley_terry

        names = list(OPPONENTS)
        wins = np.zeros((len(names), len(names)))  # both matches of each pair: A vs B and B vs A
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                result = self._result(played, a, b) if i != j else {}
                if result is None or "fault" in result:
                    return stored_anchors(rules)
                if result:
                    points = result["wins"] + 0.5 * result["draws"]
                    wins[i, j] += points
                    wins[j, i] += result["games"] - points
        return bradley_terry(names, wins), "this run: the opponents' round robin"

    @staticmethod
    def _rating(agent: str, entry: dict, anchors: dict[str, float] | None) -> tuple[float | None, list | None]:
        """The agent's rating and its 95% interval (None: no anchors, or a match missing or faulty)."""
        from agents.evaluation.ratings import rating_against, rating_interval

        if anchors is None or not entry["plays"]:
            return None, None
        results = entry["results"]
        if any(r is None or "fault" in r for r in results.values()):
            return None, None  # an incomplete record has no rating
        scores = {o: (r["wins"] + 0.5 * r["draws"], r["games"]) for o, r in results.items()}
        low, high = rating_interval({o: anchors[o] for o in scores}, scores) if scores else (None, None)
        interval = [None if low is None or np.isinf(low) else low, None if high is None or np.isinf(high) else high]
        if agent in anchors:
            return anchors[agent], interval
        return rating_against(anchors, scores), interval


# ---------------------------------------------------------------------------- the table
def markdown(report: dict) -> str:
    """The report as Markdown a paper can paste: a table per game table, a row per agent."""
    settings = report["settings"]
    first, last = settings["seeds"]
    lines = [
        (
            f"handfoot benchmark, protocol {report['protocol']} (handfoot {report['handfoot']}): "
            f"{settings['pairs']:,} duplicate sets per opponent, deals {first:,}-{last:,}; win rate "
            "(a draw counts half) with its 95% Wilson interval over the games; rating on the Elo scale "
            "with its 95% interval."
        )
    ]
    if not report["standard"]:
        lines.append(f"\n**Not the standard protocol**: {settings['pairs']:,} duplicate sets (standard: {PAIRS:,}).")
    if report.get("interrupted"):
        lines.append("\n**Interrupted** (Ctrl-C): only the matches that had finished; the cells left empty were not.")
    labels = {agent["name"]: agent.get("label") for agent in report["agents"]}
    for table in report["tables"]:
        lines += ["", f"**{table['label']}** ({table['anchors']['source']})", ""]
        lines.append("| agent | rating | " + " | ".join(f"vs {o}" for o in OPPONENTS) + " |")
        lines.append("|---|---|" + "---|" * len(OPPONENTS))
        rows = sorted(table["entries"].items(), key=lambda item: -(item[1]["rating"] or -1e9))
        for name, entry in rows:
            shown = f"`{name}`" + (f" ({labels[name]})" if labels.get(name) else "")
            if not entry["plays"]:
                lines.append(f"| {shown} | - | does not play this table |" + " |" * (len(OPPONENTS) - 1))
                continue
            rating = _rating_cell(entry)
            cells = [_cell(entry["results"].get(o), name == o) for o in OPPONENTS]
            lines.append(f"| {shown} | {rating} | " + " | ".join(cells) + " |")
    faults = [f for f in report["faults"] if not f.get("forfeit")]
    forfeits = [f for f in report["faults"] if f.get("forfeit")]
    if faults:
        lines += ["", "Faults:"] + [f"- {fault['message']}" for fault in faults]
    if forfeits:
        lines += ["", f"Forfeits ({len(forfeits)}; each game lost by the agent that broke it, its record kept):"]
        lines += [f"- {fault['message']}" for fault in forfeits[:20]]
        if len(forfeits) > 20:
            lines.append(f"- and {len(forfeits) - 20} more (benchmark.json lists them all)")
    if report["stopped"] and not report.get("interrupted"):
        lines.append("\nThe benchmark stopped at the first fault; the cells left empty were not played.")
    return "\n".join(lines)


def _rating_cell(entry: dict) -> str:
    if entry["rating"] is None:
        return "-"
    low, high = entry.get("rating_ci95") or (None, None)
    low_text = "-∞" if low is None else f"{low:.0f}"
    high_text = "∞" if high is None else f"{high:.0f}"
    return f"{entry['rating']:.0f} ({low_text}-{high_text})"


def _cell(result: dict | None, itself: bool) -> str:
    if itself:
        return "-"
    if result is None:
        return ""
    if "fault" in result:
        return f"fault ({result['kind']}, seed {result['seed']}, step {result['step']})"
    low, high = result["ci95"]
    forfeits = result.get("forfeits", 0)
    return f"{result['win_rate']:.1%} ({low:.1%}-{high:.1%})" + (f", {forfeits} forfeited" if forfeits else "")


__all__ = [
    "FORMAT",
    "LEADERBOARD",
    "MAX_PAIRS",
    "OPPONENTS",
    "PAIRS",
    "PROTOCOL",
    "SEED",
    "TABLES",
    "Benchmark",
    "Settings",
    "markdown",
    "parse_tables",
    "stored_anchors",
]
