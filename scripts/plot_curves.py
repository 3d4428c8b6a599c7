"""Learning curves of training runs, against wall time or learner steps: the periodic
duplicate-deal evaluations each run folder keeps.

    python scripts/plot_curves.py runs/scratch_s0 runs/scratch_s1 runs/scratch_s2 --out docs/figures/scratch_curves.png
    python scripts/plot_curves.py docs/run_summaries/scratch_house_seed0.json --labels "house, seed 0" --by steps --out house.png

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


def load_run(path: Path) -> dict:
    """A run's evaluations: a run summary file (a run's final_eval.json, or one kept in
    docs/run_summaries/), or a run folder's final_eval.json when it finished, else its
    checkpoint's state."""
    if path.is_file():
        data = json.loads(path.read_text())
    elif (path / "final_eval.json").exists():
        data = json.loads((path / "final_eval.json").read_text())
    else:
        data = json.loads((path / "checkpoint" / "state.json").read_text())
    if not isinstance(data, dict) or not isinstance(data.get("evals"), list):
        raise ValueError(f"{path} holds no run's evaluations")
    return data


# The x axis: (an evaluation's key, the run's total of it, the unit's size, the label).
AXES = {
    "minutes": ("seconds", "train_seconds", 60, "minutes of training"),
    "steps": ("step", "num_timesteps", 1e6, "learner steps (millions)"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run folders (runs/NAME) or run summary files")
    parser.add_argument("--labels", nargs="+", help="a legend label per run (default: the folder's or file's name)")
    parser.add_argument("--out", type=Path, required=True, help="the PNG to write")
    parser.add_argument("--title", default="", help="the figure's title")
    parser.add_argument("--by", choices=tuple(AXES), default="minutes", help="the x axis")
    args = parser.parse_args()
    at, total, unit, label = AXES[args.by]
    labels = args.labels or [run.stem if run.is_file() else run.name for run in args.runs]
    if len(labels) != len(args.runs):
        parser.error(f"--labels names {len(labels)} runs, {len(args.runs)} given")
    try:
        data = [(name, load_run(run)) for name, run in zip(labels, args.runs)]
    except (OSError, ValueError) as exc:  # a missing folder or file, or not JSON
        parser.error(f"cannot read a run: {exc}")
    opponents = list(dict.fromkeys(r["vs"] for _, d in data for e in d["evals"] for r in e["results"]))
    fig, axes = plt.subplots(1, len(opponents), figsize=(5.5 * len(opponents), 4), squeeze=False)
    for axis, vs in zip(axes[0], opponents):
        for name, d in data:
            points = [(e[at] / unit, r) for e in d["evals"] for r in e["results"] if r["vs"] == vs]
            xs = [x for x, _ in points]
            rates = [r["win_rate"] for _, r in points]
            line = axis.plot(xs, rates, marker=".", label=name)[0]
            axis.fill_between(
                xs,
                [r["ci95"][0] for _, r in points],
                [r["ci95"][1] for _, r in points],
                alpha=0.15,
                color=line.get_color(),
            )
            final = next((r for r in d.get("final", []) if r["vs"] == vs), None)
            if final is not None and xs:
                axis.errorbar(
                    [d[total] / unit],
                    [final["win_rate"]],
                    yerr=[[final["win_rate"] - final["ci95"][0]], [final["ci95"][1] - final["win_rate"]]],
                    marker="s",
                    color=line.get_color(),
                    capsize=3,
                )
        axis.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
        axis.set_title(f"against {vs}")
        axis.set_xlabel(label)
        axis.set_ylabel("win rate (duplicate deals)")
        axis.set_ylim(0, 1)
        axis.legend(fontsize=8)
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
