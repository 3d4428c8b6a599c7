"""Regenerate the leaderboard: the benchmark of the shipped agents (``handfoot benchmark random
greedy heuristic tuned ppo``, protocol of ``agents/evaluation/benchmark.py``), written to

* ``agents/models/leaderboard.json``: the report, whose opponents' ratings anchor every other
  benchmark's (a retrained ``ppo`` or ``tuned`` makes the stored anchors stale until this runs);
* docs/results.md, between the leaderboard's two markers: its Markdown table.

    .venv/bin/python scripts/leaderboard.py            # this machine
    .venv/bin/python scripts/leaderboard.py --ray      # the matches on a Ray cluster (same numbers)
    .venv/bin/python scripts/leaderboard.py --page     # only the page's table, from the stored report
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's handfoot, whatever else is installed
PAGE = ROOT / "docs" / "results.md"
START = "<!-- leaderboard: scripts/leaderboard.py writes what follows, up to the end marker -->"
END = "<!-- end of leaderboard -->"


def splice(text: str, table: str) -> str:
    """``text`` with the part between the markers replaced by ``table``."""
    if text.count(START) != 1 or text.count(END) != 1 or text.index(START) > text.index(END):
        raise SystemExit(f"{PAGE} needs the two leaderboard markers once each, in order:\n{START}\n{END}")
    before, rest = text.split(START)
    _, after = rest.split(END)
    return f"{before}{START}\n{table}\n{END}{after}"


def main() -> int:
    from agents.evaluation.benchmark import LEADERBOARD, OPPONENTS, Benchmark, Settings, markdown
    from handfoot_lab.cli_common import ray_cluster

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS", help="play the matches on Ray")
    parser.add_argument("--page", action="store_true", help="only write the page's table from leaderboard.json")
    args = parser.parse_args()
    if args.page:
        PAGE.write_text(splice(PAGE.read_text(), markdown(json.loads(LEADERBOARD.read_text()))))
        print(f"written: {PAGE} from {LEADERBOARD}", file=sys.stderr)
        return 0
    splice(PAGE.read_text(), "")  # the markers are there, before an hour of matches
    settings = Settings(faults=ROOT / "benchmark" / "faults")
    with ray_cluster(args.ray) as cluster:
        report = Benchmark(list(OPPONENTS), settings, cluster).run()
    if report["faults"] or not report["standard"]:
        print("the shipped agents' benchmark had faults or was not standard: nothing written", file=sys.stderr)
        return 1
    table = markdown(report)
    LEADERBOARD.write_text(json.dumps(report, indent=2) + "\n")
    PAGE.write_text(splice(PAGE.read_text(), table))
    print(table)
    print(f"written: {LEADERBOARD} and {PAGE} ({report['seconds'] / 60:.1f} min)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
