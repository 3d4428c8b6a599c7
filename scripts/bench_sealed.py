"""What sealing costs: a batched ``py:`` agent played in the lab's process (as before the referee)
and through the referee (its own process, fed observations and masks over a pipe), side by side.

    python scripts/bench_sealed.py                         # 512 classic games, 3 rounds
    python scripts/bench_sealed.py --games 512 --preset partnership --rounds 5

Each round plays the same games (the same seeds) once per row, the rows interleaved so that a
changing load hits every row alike: the agent under test as the team, the compiled ``greedy`` as
its opponent, every game to its end (``agents.evaluation.matches.play_games``).  Rows:

* ``first-legal``: an agent that answers ``masks.argmax(axis=1)``, the cheapest there is, so the
  referee's cost shows whole;
* ``random``: ``examples/random_agent.py`` (a Python loop over the rows);
* ``policy``: ``examples/policy_agent.py`` on a small untrained torch network (655-256-187), the
  shape of a trained policy.

Prints one JSON line per row and round, then the medians: games per second and the agent's
decisions per second, in-process and sealed, and sealed as a share of in-process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's handfoot, whatever else is installed

FIRST_LEGAL = """
class FirstLegal:
    name = "first-legal"

    def act(self, observations, masks):
        return masks.argmax(axis=1)
"""


def agents(folder: Path) -> dict[str, str]:
    """The agents under test, by row: their py: references."""
    (folder / "first_legal.py").write_text(FIRST_LEGAL)
    rows = {
        "first-legal": f"{folder / 'first_legal.py'}:FirstLegal",
        "random": f"{ROOT / 'examples' / 'random_agent.py'}:make",
    }
    try:
        import torch
    except ImportError:
        return rows
    from handfoot_env.actions import NUM_ACTIONS
    from handfoot_env.observation import OBS_SIZE

    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(OBS_SIZE, 256), torch.nn.Tanh(), torch.nn.Linear(256, NUM_ACTIONS))
    torch.save({"module": net}, folder / "policy.pt")
    rows["policy"] = f"{ROOT / 'examples' / 'policy_agent.py'}:make:{folder / 'policy.pt'}"
    return rows


def play(rules, reference: str, sealed: bool, seeds: np.ndarray) -> dict:
    from agents import make_agent
    from agents.evaluation.matches import play_games
    from agents.foreign import load_py_agent

    agent = make_agent(f"py:{reference}") if sealed else load_py_agent(reference)
    decisions = [0]
    inner = agent.act

    def counted(observations, masks):
        decisions[0] += len(masks)
        return inner(observations, masks)

    agent.act = counted
    agent.act(np.zeros((1, 655), np.float32), np.eye(1, 187, dtype=bool))  # a first call outside the clock
    decisions[0] = 0
    sides = np.arange(len(seeds)) % rules.num_owners
    started = time.perf_counter()
    play_games(rules, seeds, sides, agent, make_agent("greedy"))
    seconds = time.perf_counter() - started
    if sealed:
        agent.close()
    return {"seconds": seconds, "games_per_s": len(seeds) / seconds, "decisions_per_s": decisions[0] / seconds}


def main() -> int:
    from handfoot_env.rules import Rules

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=512)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    results: dict[tuple[str, str], list[dict]] = {}
    with tempfile.TemporaryDirectory() as folder:
        rows = agents(Path(folder))
        for round_ in range(args.rounds):
            seeds = np.arange(round_ * args.games, (round_ + 1) * args.games, dtype=np.int64) // rules.num_owners
            for name, reference in rows.items():
                for where in ("in-process", "sealed"):
                    row = play(rules, reference, where == "sealed", seeds)
                    results.setdefault((name, where), []).append(row)
                    print(json.dumps({"row": name, "where": where, "round": round_, **row}), flush=True)
    print(f"\n{args.games} {args.preset} games against greedy, medians of {args.rounds} rounds")
    print("| agent | in-process games/s | sealed games/s | sealed / in-process | decisions/s in-process | sealed |")
    print("|---|---|---|---|---|---|")
    for name in rows:
        inside, sealed = results[(name, "in-process")], results[(name, "sealed")]
        a = statistics.median(r["games_per_s"] for r in inside)
        b = statistics.median(r["games_per_s"] for r in sealed)
        da = statistics.median(r["decisions_per_s"] for r in inside)
        db = statistics.median(r["decisions_per_s"] for r in sealed)
        print(f"| {name} | {a:,.1f} | {b:,.1f} | {b / a:.0%} | {da:,.0f} | {db:,.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
