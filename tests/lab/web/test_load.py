"""A hundred people at the web table at once (scripts/load_web.py): each asks for a hint and
moves, about once a second; the answers' p95 stays under 250 ms and nothing fails.  Slow (a
minute and more), and its times depend on what else the machine runs."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "load_web.py"


@pytest.mark.slow
def test_a_hundred_players_at_once(capsys):
    sys.argv = [str(SCRIPT), "--players", "100", "--seconds", "60", "--p95-ms", "250"]
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(SCRIPT), run_name="__main__")
    report = capsys.readouterr().out
    assert done.value.code == 0, report
    assert "errors: 0" in report
