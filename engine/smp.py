"""Lazy SMP: helper threads search the same root into the shared hash table.

With ``Threads`` above 1, each helper owns a Searcher (its own copy of the position,
history and killers) and runs its own iterative deepening with full windows, every other
helper one ply ahead, in a Python thread whose C search runs without the GIL. The helpers
never choose the move: what they store in the transposition table is what the main
search gains (better ordering, cut-offs found sooner, deeper iterations in the time).
The main search stops them when it ends.

Entries the threads write at the same moment can tear. A torn entry costs a wasted probe
or one odd cut-off, never an illegal move: a stored move is only searched when the move
generator produces it too (search.pyx, score_moves).
"""
from __future__ import annotations

import os
import threading

MAX_DEPTH = 100
# Threads: 1 to the cores this process may run on (more would only share them).
MAX_THREADS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
    else os.cpu_count() or 1
# A search thread's stack, whatever `ulimit -s` says. The C search keeps a move list
# and its scores on the stack per ply (2 * MAX_MOVES ints, about 12 KB) for at most
# MAX_PLY (128) plies, the Alea search about 40 KB per ply for at most MAX_QPLY (48),
# perft one list per ply: a few MB at most; the rest is margin (a sanitizer build's
# frames are larger). Only what is touched is ever backed by memory.
SEARCH_STACK_BYTES = 64 * 1024 * 1024


def start_with_stack(thread: threading.Thread) -> None:
    """Start ``thread`` with SEARCH_STACK_BYTES of stack (the engine's worker, helpers)."""
    previous = threading.stack_size(SEARCH_STACK_BYTES)
    try:
        thread.start()
    finally:
        threading.stack_size(previous)


class Helpers:
    """The helper searchers of one game, started for one `go` and stopped at its end."""

    def __init__(self, searchers=()):
        self.searchers = list(searchers)
        self._threads: list[threading.Thread] = []

    def start(self, board, ev, tt, searchmoves=None) -> None:
        """Set every helper on ``board`` (the main search's root) and let it think."""
        for i, searcher in enumerate(self.searchers):
            searcher.set_root(board, ev, tt, searchmoves)
            searcher.new_search()
            thread = threading.Thread(target=_deepen, args=(searcher, i % 2),
                                      name=f"quantum-helper-{i + 1}", daemon=True)
            start_with_stack(thread)
            self._threads.append(thread)

    def stop(self) -> None:
        """Stop every helper and wait for it (each answers within 1024 nodes)."""
        for searcher in self.searchers:
            searcher.stop()
        for thread in self._threads:
            thread.join()
        self._threads = []

    @property
    def nodes(self) -> int:
        """Nodes the helpers searched in this `go` (info lines count every thread)."""
        return sum(s.nodes for s in self.searchers)


def _deepen(searcher, ahead: int) -> None:
    for depth in range(1 + ahead, MAX_DEPTH + 1):
        searcher.search(depth)
        if searcher.stopped:
            return
