"""The README's Quick tour runs as printed: its Python blocks execute and its scenario loads.

(The SB3 snippet further down trains for minutes; ``tests/interop/test_adapters.py`` runs it with
fewer steps.)"""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def quick_tour_blocks(language: str) -> list[str]:
    """The fenced ``language`` blocks of the README's "Quick tour" section, in order."""
    text = README.read_text()
    start = text.index("## Quick tour")
    section = text[start : text.index("\n## ", start + 1)]
    return re.findall(rf"```{language}\n(.*?)```", section, flags=re.DOTALL)


def test_the_quick_tours_python_runs_as_printed(capsys):
    blocks = quick_tour_blocks("python")
    assert len(blocks) == 2  # the engines, then the shells
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 - our own README
    assert namespace["game"].is_over
    assert namespace["outcome"].game_over.shape == (4096,)
    assert "]" in capsys.readouterr().out  # the printed totals and winners


def test_the_quick_tours_scenario_loads():
    from handfoot_env.reference.scenario import load_scenario

    (scenario,) = quick_tour_blocks("yaml")
    game = load_scenario(scenario)
    assert game.legal_mask().any()


def baselines_rows() -> list[list[str]]:
    """The cells of the README's "Baselines (measured)" table, one list a row."""
    text = README.read_text()
    start = text.index("## Baselines (measured)")
    section = text[start : text.index("\n## ", start + 1)]
    lines = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| preset")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]


def test_the_baselines_table_is_what_handfoot_eval_prints(capsys):
    """Every row replayed with its command (1,000 duplicate pairs from the default seed): the
    games' counts, the rounded score difference and the mean length as printed."""
    import json

    from handfoot_lab.cli import main

    rows = baselines_rows()
    assert len(rows) == 8
    for preset_cell, team, vs, games, wdl, _, score, length in rows:
        preset, _, players = preset_cell.partition(", ")
        args = ["eval", "--preset", preset, "--team", team, "--vs", vs, "--pairs", "1000", "--json", "--no-progress"]
        if players:
            args += ["--players", "2" if players.startswith("2") else "4"]
        assert main(args) == 0
        result = json.loads(capsys.readouterr().out)
        printed = f"{result['wins']} / {result['draws']} / {result['losses']}"
        assert (str(result["games"]), printed) == (games, wdl), preset_cell
        low, high = result["score_diff_ci95"]
        assert score == f"{result['score_diff']:+.0f} ({low:+.0f} – {high:+.0f})", preset_cell
        assert length == f"{result['mean_actions']:.0f}", preset_cell
