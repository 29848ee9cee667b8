"""Threads (Lazy SMP, engine/smp.py).

Helpers run beside the main search, count in its node reports, stop when it stops, and
never start where a level limits the search; whether they make it stronger is measured
by matches (docs/strength.md), not here. Waits are hang guards only."""
import threading

import pytest

from engine import smp
from engine.deepening import GoLimits
from engine.engine import Engine

GUARD_S = 30.0


def helper_threads() -> list:
    return [t for t in threading.enumerate() if t.name.startswith("quantum-helper-")]


def test_helpers_search_beside_the_main_search_and_stop_with_it():
    engine = Engine()
    engine.threads = 2
    engine.set_position(None, ["e2e4", "e7e5"])
    deep, result = threading.Event(), []

    def on_info(info):
        if info.depth >= 5:
            deep.set()

    engine.go(GoLimits(infinite=True), on_info, result.append)
    assert deep.wait(GUARD_S)
    running = [t.name for t in helper_threads()]
    engine.stop()
    engine.wait(GUARD_S)
    assert not engine.searching and running == ["quantum-helper-1"]
    assert not helper_threads()
    assert len(result) == 1 and result[0].move in engine.board.legal_moves()


def test_reported_nodes_count_every_thread():
    engine = Engine()
    engine.threads = 2
    best, infos = engine.search_sync(GoLimits(depth=9))
    assert best.move in engine.board.legal_moves()
    assert infos[-1].nodes > engine._game_searcher.nodes > 0


def test_threads_follow_the_option_and_a_limited_level_keeps_one(monkeypatch):
    started = []
    real = smp.Helpers.start

    def spy(self, *args, **kwargs):
        started.append(len(self.searchers))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(smp.Helpers, "start", spy)
    engine = Engine()
    engine.threads = 3
    engine.search_sync(GoLimits(depth=4))
    engine.threads = 2
    engine.search_sync(GoLimits(depth=4))
    engine.threads = 1
    engine.search_sync(GoLimits(depth=4))
    engine.threads = 2
    engine.set_level("normal")              # a depth and node limit: one thread
    engine.search_sync(GoLimits(depth=4))
    assert started == [2, 1]
    assert not helper_threads()
