"""Shared pytest configuration for the Quantum test suite.

* ``--runslow`` (or the environment variable ``QUANTUM_SLOW=1``) runs the tests marked
  ``@pytest.mark.slow`` (deep perft rows); by default they are skipped, so CI stays fast.
* The repository root and this folder are put on ``sys.path`` so that ``engine`` and the
  shared helpers in ``tests/testkit.py`` import however pytest is started.
"""
import os
import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
for path in (str(REPO_ROOT), str(TESTS_DIR)):
    if path not in sys.path:
        sys.path.insert(0, path)


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run tests marked slow (deep perft); same as QUANTUM_SLOW=1")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long-running test, skipped unless --runslow "
                                       "or QUANTUM_SLOW=1")


@pytest.fixture(autouse=True, scope="session")
def _no_profiles_in_the_real_home(tmp_path_factory):
    """The adaptive level writes profiles under XDG_DATA_HOME (engine/adaptive.py): the
    tests, and every engine process they start, use a temporary one instead of the real
    home's (session-wide, so hypothesis tests see no function-scoped fixture)."""
    patch = pytest.MonkeyPatch()
    patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
    yield
    patch.undo()


def run_slow(config) -> bool:
    return config.getoption("--runslow") or os.environ.get("QUANTUM_SLOW") == "1"


def pytest_collection_modifyitems(config, items):
    if run_slow(config):
        return
    skip = pytest.mark.skip(reason="slow: use --runslow or QUANTUM_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
