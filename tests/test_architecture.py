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


def test_no_import_circle_among_the_projects_modules_counting_every_import():
    """Every import counts here: type-only ones (``if TYPE_CHECKING``) and those inside functions too
    (grimp reads them all), so no two modules lean on each other in any way."""
    import graphlib

    import grimp

    graph = grimp.build_graph("handfoot_env", "agents", "train", "handfoot_lab", cache_dir=None)
    # A package's __init__ importing its own modules is how Python packages are put together, not
    # a circle: only imports between different modules count, and a module's package is not imported
    # by it implicitly.
    imports = {m: {i for i in graph.find_modules_directly_imported_by(m) if i != m} for m in graph.modules}
    try:
        tuple(graphlib.TopologicalSorter(imports).static_order())
    except graphlib.CycleError as circle:
        raise AssertionError(f"an import circle: {' -> '.join(circle.args[1])}") from None


def test_the_env_package_keeps_its_vocabulary_at_the_root_and_the_rest_in_folders():
    root = sorted(p.name for p in (ROOT / "handfoot_env").glob("*.py"))
    assert len(root) <= 14, root
    shells = ROOT / "handfoot_env" / "envs"
    assert {"pettingzoo.py", "gymnasium.py", "gymnasium_vector.py", "sb3.py", "torchrl.py", "rllib.py"} <= {
        p.name for p in shells.glob("*.py")
    }
