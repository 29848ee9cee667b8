"""Fixtures for the adapter tests. The fakes are separate Python processes speaking UCI;
nothing here searches, so the whole folder stays fast. Timeouts are hang guards,
generous for a loaded machine."""
from __future__ import annotations

import pytest

from adapterkit import STARTUP_TIMEOUT, close, fake_argv
from adapters.uci_engine import UciEngine


@pytest.fixture
def spawn():
    """``spawn(mode, seed)`` starts a fake engine named ``fake-<mode>``; all are stopped
    when the test ends, whatever happened."""
    started: list[UciEngine] = []

    def make(mode: str = "good", seed: int | None = None, **kwargs) -> UciEngine:
        kwargs.setdefault("name", f"fake-{mode}")
        kwargs.setdefault("startup_timeout", STARTUP_TIMEOUT)
        eng = UciEngine(fake_argv(mode, seed), **kwargs)
        started.append(eng)
        return eng

    yield make
    for eng in started:
        close(eng)


@pytest.fixture
def start_engine():
    """``start_engine(argv, seed=None, name=None)`` starts any UCI engine command (a
    baseline script, the fog spy), seeded through its ``Seed`` option when given; all
    are stopped when the test ends."""
    started: list[UciEngine] = []

    def make(argv, seed: int | None = None, name: str | None = None) -> UciEngine:
        options = {"Seed": seed} if seed is not None else {}
        eng = UciEngine(argv, name=name, options=options, startup_timeout=STARTUP_TIMEOUT)
        started.append(eng)
        return eng

    yield make
    for eng in started:
        close(eng)
