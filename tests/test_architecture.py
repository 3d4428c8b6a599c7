"""The layers hold: the lab on the agents on the env; the core needs no torch, SB3 or lab."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_are_kept():
    lint = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run([str(lint), "--no-cache"], check=False, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout


def test_the_env_imports_no_torch_no_sb3_and_no_lab():
    code = (
        "import sys, handfoot_env\n"
        "env = handfoot_env.env(preset='partnership')\n"
        "env.reset(seed=1)\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & "
        "{'torch', 'stable_baselines3', 'sb3_contrib', 'agents', 'train', 'handfoot_lab'})\n"
        "print(heavy)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
