"""The documentation says what the code does: the README's tour runs as printed, the docs' tables
are what the commands print, every link leads somewhere, and the repository speaks of the
product only.

(The SB3 snippet of docs/env.md trains for minutes; ``tests/interop/test_adapters.py`` runs it
with fewer steps. The action and observation tables of docs/env.md are checked against the
layouts by ``tests/test_actions.py`` and ``tests/vector/test_engine.py``; the leaderboard of
docs/results.md by ``tests/agents/evaluation/test_benchmark.py``.)"""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def section(path: Path, heading: str) -> str:
    """The text of ``path`` from the line ``heading`` to the next heading of its level."""
    text = path.read_text()
    start = text.index(f"\n{heading}\n")
    level = heading.split(" ")[0]
    end = text.find(f"\n{level} ", start + 1)
    return text[start : end if end != -1 else len(text)]


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)


def tour_blocks() -> tuple[str, str]:
    """The README tour's Python: the agent of "Benchmark your own agent", then the engines."""
    agent, engines = blocks(section(README, "## A five-minute tour"), "python")
    assert agent.startswith("# my_agent.py")
    return agent, engines


def test_the_readme_is_a_front_door():
    assert len(README.read_text().splitlines()) <= 250


def test_the_readme_tours_engines_run_as_printed(capsys):
    _, engines = tour_blocks()
    namespace: dict = {}
    exec(compile(engines, str(README), "exec"), namespace)  # noqa: S102 - our own README
    assert namespace["game"].is_over
    assert namespace["outcome"].game_over.shape == (4096,)
    assert "]" in capsys.readouterr().out  # the printed totals and winners


def test_the_readme_tours_agent_enters_the_lab_as_printed(tmp_path, capsys, monkeypatch):
    from handfoot_lab.cli import main

    agent, _ = tour_blocks()
    (tmp_path / "my_agent.py").write_text(agent)
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "--team", "py:my_agent.py:make", "--vs", "greedy", "--pairs", "2", "--no-progress"]) == 0
    assert "4 games" in capsys.readouterr().out


def test_the_env_pages_scenario_loads():
    from handfoot_env.reference.scenario import load_scenario

    (scenario,) = blocks(section(DOCS / "env.md", "## Records and scenarios"), "yaml")
    game = load_scenario(scenario)
    assert game.legal_mask().any()


def baselines_rows() -> list[list[str]]:
    """The cells of the table of docs/results.md's "The scripted baselines", one list a row."""
    text = section(DOCS / "results.md", "## The scripted baselines")
    lines = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| preset")]
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


def markdown_pages() -> list[Path]:
    return [README, ROOT / "CHANGELOG.md", *sorted(DOCS.glob("*.md"))]


@pytest.mark.parametrize("page", markdown_pages(), ids=lambda page: page.name)
def test_every_link_of_the_docs_leads_somewhere(page):
    """Relative links and pictures name files that exist (a moved page breaks no link)."""
    for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address, or a place on the same page
        assert (page.parent / target.split("#")[0]).exists(), f"{page.name} links to {target}"


def tracked_files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [ROOT / name for name in listed.decode().split("\0") if name and (ROOT / name).is_file()]


# Words of a project tracker, which a visitor cannot decode (spelled so that this file has none).
TRACKER_WORDS = re.compile(
    r"issue [0-9]|stop [0-9]|moon[s]hot|the issue[']s|this sess[i]on|this st[o]p|sess[i]on's", re.IGNORECASE
)


def test_the_repository_speaks_of_the_product_only():
    """No file speaks of the tracker that planned the work: its numbers, its stages, its goals."""
    found = []
    for path in tracked_files():
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue  # a model file, a picture
        found += [
            f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
            for number, line in enumerate(text.splitlines(), 1)
            if TRACKER_WORDS.search(line)
        ]
    assert not found, "\n".join(found)


def test_docs_holds_documents():
    """Models live with the models (agents/models/), never under docs/."""
    assert not [path for path in DOCS.rglob("*") if path.suffix in {".pt", ".zip", ".pth", ".onnx"}]
