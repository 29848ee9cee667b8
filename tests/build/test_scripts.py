"""The programs under scripts/ run with the project's .venv Python, whichever interpreter
starts them, and starting them on a built tree does not build it again.

``scripts/play`` and ``scripts/match --pgn`` once crashed under a ``python3`` without
python-chess; every Python script now imports ``scripts/usevenv.py`` first, which
re-runs it with ``.venv/bin/python``. Here they are started by a bare virtual
environment's interpreter, which has nothing of the project installed.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = REPO_ROOT / "scripts"
PYTHON_SCRIPTS = sorted(p.name for p in SCRIPTS.iterdir()
                        if p.is_file() and p.read_text(errors="replace").startswith(
                            "#!/usr/bin/env python3") and p.name != "demo.py")
STAMP = REPO_ROOT / ".venv" / ".quantum-build"


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory) -> str:
    """An interpreter that has neither python-chess nor the project."""
    venv = tmp_path_factory.mktemp("bare") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    probe = subprocess.run([python, "-c", "import chess"], capture_output=True, check=False)
    assert probe.returncode != 0, "the bare interpreter should not have python-chess"
    return python


def test_the_python_scripts_are_found():
    assert {"play", "match", "perft", "tune.py"} <= set(PYTHON_SCRIPTS)


@pytest.mark.parametrize("script", PYTHON_SCRIPTS)
def test_scripts_run_with_the_venv_python_whatever_starts_them(bare_python, script):
    proc = subprocess.run([bare_python, str(SCRIPTS / script), "--help"], capture_output=True,
                          text=True, timeout=300, check=False, cwd=REPO_ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("usage:"), proc.stdout[:500]


def test_a_built_tree_is_not_built_again():
    """The stamp the build leaves is kept: setup-env found nothing to rebuild (a rebuild
    rewrites it), so ``scripts/run uci`` starts the engine at once."""
    subprocess.run([str(SCRIPTS / "setup-env")], check=True, capture_output=True, timeout=900)
    before = STAMP.stat().st_mtime_ns
    proc = subprocess.run([str(SCRIPTS / "run"), "uci"], input="uci\nquit\n",
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0 and "uciok" in proc.stdout, proc.stderr[-2000:]
    assert STAMP.stat().st_mtime_ns == before
