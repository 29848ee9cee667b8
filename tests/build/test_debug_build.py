"""The debug build runs the protocol fuzz tests and the dense-position tests.

``QUANTUM_DEBUG=1`` (setup.py) builds the core with AddressSanitizer and
UndefinedBehaviorSanitizer: a write past any fixed C buffer (move lists, undo stack, PV,
exchange arrays) stops the process with a report, where the normal build would corrupt
memory silently or crash later. The build is made in a copy of the source tree, so the
checkout's own extension modules stay as they are, and runs with the sanitizer runtime
preloaded, since the Python interpreter itself is not instrumented. Skipped where the
compiler has no AddressSanitizer runtime.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("engine", "protocol", "adapters", "tests", "setup.py", "pyproject.toml", "README.md")
UNDER_SANITIZERS = ("tests/protocol/test_uci_fuzz.py", "tests/rules/test_dense_positions.py")
IGNORED = shutil.ignore_patterns("*.so", "*.c", "*.html", "__pycache__", ".hypothesis",
                                 "build", "*.egg-info")


def asan_runtime() -> str | None:
    """The compiler's AddressSanitizer library, or None."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        return None
    path = subprocess.run([cc, "-print-file-name=libasan.so"], capture_output=True,
                          text=True, check=False).stdout.strip()
    return path if os.path.isabs(path) and os.path.exists(path) else None


@pytest.fixture(scope="module")
def debug_tree(tmp_path_factory):
    """A copy of the sources with the core built by ``QUANTUM_DEBUG=1``, and the
    environment that runs it."""
    runtime = asan_runtime()
    if runtime is None:
        pytest.skip("no AddressSanitizer runtime for this compiler")
    tree = tmp_path_factory.mktemp("debug-build")
    for name in SOURCES:
        src = REPO_ROOT / name
        if src.is_dir():
            shutil.copytree(src, tree / name, ignore=IGNORED)
        else:
            shutil.copy2(src, tree / name)
    build = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace",
                            "-j", str(os.cpu_count() or 1)], cwd=tree, capture_output=True,
                           text=True, timeout=1200, check=False,
                           env={**os.environ, "QUANTUM_DEBUG": "1"})
    assert build.returncode == 0, build.stderr[-3000:]
    # The sanitizers end the process at once, before pytest can show what they wrote:
    # their reports go to files instead (sanitizer.<pid>).
    log = tree / "sanitizer"
    env = {**os.environ, "PYTHONPATH": str(tree), "LD_PRELOAD": runtime,
           "ASAN_OPTIONS": f"detect_leaks=0:log_path={log}",
           "UBSAN_OPTIONS": f"halt_on_error=1:print_stacktrace=1:log_path={log}"}
    return tree, env


def sanitizer_reports(tree: Path) -> str:
    return "".join(p.read_text(errors="replace")[:4000] for p in tree.glob("sanitizer.*"))


def test_the_debug_build_is_instrumented(debug_tree):
    tree, env = debug_tree
    probe = subprocess.run([sys.executable, "-c", "import engine.movegen as m; print(m.__file__)"],
                           cwd=tree, env=env, capture_output=True, text=True, check=True)
    module = Path(probe.stdout.strip())
    assert module.parent == tree / "engine"
    assert b"__asan_report_store" in module.read_bytes()      # its stores are checked


def test_fuzz_and_dense_positions_under_sanitizers(debug_tree):
    tree, env = debug_tree
    run = subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p",
                          "no:cacheprovider", *UNDER_SANITIZERS], cwd=tree, env=env, capture_output=True,
                         text=True, timeout=1800, check=False)
    reports = sanitizer_reports(tree)
    report = run.stdout[-3000:] + run.stderr[-3000:] + reports
    assert not reports, report
    assert run.returncode == 0, report
    assert re.search(r"^\d+ passed", run.stdout, re.M) and "failed" not in run.stdout, report
