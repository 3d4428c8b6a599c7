"""Learning curves of training runs, against wall time or learner steps: the periodic
duplicate-deal evaluations each run folder keeps.

    python scripts/plot_curves.py runs/scratch_s0 runs/scratch_s1 runs/scratch_s2 --out docs/scratch_curves.png

One panel per evaluation opponent (win rate with its 95% interval against minutes of training,
or millions of learner steps with --by steps), one line per run; the final table's result
(fresh deals) as a marker at the end.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def load_run(folder: Path) -> dict:
    """The run's evaluations: final_eval.json when it finished, else its checkpoint's state."""
    final = folder / "final_eval.json"
    if final.exists():
        return json.loads(final.read_text())
    return json.loads((folder / "checkpoint" / "state.json").read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run folders (runs/NAME)")
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    parser.add_argument("--title", default="", help="the figure's title")
    parser.add_argument("--by", choices=("minutes", "steps"), default="minutes", help="the x axis")
    args = parser.parse_args()
    data = {run: load_run(run) for run in args.runs}
    opponents = list(dict.fromkeys(r["vs"] for d in data.values() for e in d["evals"] for r in e["results"]))
    fig, axes = plt.subplots(1, len(opponents), figsize=(5.5 * len(opponents), 4), squeeze=False)
    for axis, vs in zip(axes[0], opponents):
        for run, d in data.items():
            points = [(_x(e, args.by), r) for e in d["evals"] for r in e["results"] if r["vs"] == vs]
            minutes = [m for m, _ in points]
            rates = [r["win_rate"] for _, r in points]
            line = axis.plot(minutes, rates, marker=".", label=run.name)[0]
            axis.fill_between(
                minutes,
                [r["ci95"][0] for _, r in points],
                [r["ci95"][1] for _, r in points],
                alpha=0.15,
                color=line.get_color(),
            )
            final = next((r for r in d.get("final", []) if r["vs"] == vs), None)
            if final is not None and minutes:
                axis.errorbar(
                    [d["train_seconds"] / 60 if args.by == "minutes" else d["num_timesteps"] / 1e6],
                    [final["win_rate"]],
                    yerr=[[final["win_rate"] - final["ci95"][0]], [final["ci95"][1] - final["win_rate"]]],
                    marker="s",
                    color=line.get_color(),
                    capsize=3,
                )
        axis.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
        axis.set_title(f"against {vs}")
        axis.set_xlabel("minutes of training" if args.by == "minutes" else "learner steps (millions)")
        axis.set_ylabel("win rate (duplicate deals)")
        axis.set_ylim(0, 1)
        axis.legend(fontsize=8)
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


def _x(evaluation: dict, by: str) -> float:
    return evaluation["seconds"] / 60 if by == "minutes" else evaluation["step"] / 1e6


if __name__ == "__main__":
    main()
