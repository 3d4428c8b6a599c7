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
