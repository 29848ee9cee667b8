"""`bench`: a fixed set of positions from every variant searched to a fixed depth.

The node count is deterministic (fresh tables for every position, no clock), so it is a
functional signature: a change that alters the search changes it ("Bench: N" in commit
messages, as Stockfish does). Nodes/second is the speed figure.

A ``Halt`` stops a bench from another thread (the engine runs ``bench`` in its worker,
like a search); a stopped bench reports the positions it finished and no signature.
"""
from __future__ import annotations

import threading
import time

from engine.board import Board
from engine.deepening import GoLimits, think
from engine.eval_tables import eval_tables
from engine.levels import FULL
from engine.search import Searcher
from engine.tt import TranspositionTable

DEFAULT_DEPTH = 9
BENCH_HASH_MB = 16

POSITIONS = [
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10"),
    ("chess", "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19"),
    ("chess", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8"),
    ("chess", "8/8/3k4/3p4/3P4/3K4/8/8 w - - 0 1"),
    ("chess", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
    ("grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"),
    ("grand", "r8r/1nbqkcab2/1p2pp2pp/6p3/p1Pp3n2/7P2/2P3P2P/PP1BPPN3/1N1QKCAB2/R8R w - - 0 11"),
    ("grand", "r8r/2q1k2b2/3nppn1pp/1c1p2pp2/pP8/P1pP1P4/2N1P1P1PP/1P5P2/2BQKC2N1/R8R w - a7 0 17"),
    ("hexagonal", "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - 0 1"),
    ("hexagonal", "1/qbk/n2bn/rb1B2r/ppppp1ppp/11/5Pp4/4P1P1P2/3P1B1P3/2P8/1PRNQBKNRP1 w - 3 4"),
    ("hexagonal", "b/k2/2bqn/r4r1/ppppppppp/11/2B2PP4/2P1P1B4/3P2Rb1P1/n2R4P2/1P1NQ1KN3 w - 2 11"),
]


class Halt:
    """The stop of a run of searches: it is the clock box each ``think`` of the run hands
    its Clock to right after the search began (its stop flag cleared), so ``stop()``, from
    any thread, ends the search running now and every later one, however early it comes."""

    def __init__(self):
        self.stopped = False
        self._clock = None
        self._lock = threading.Lock()

    def append(self, clock) -> None:
        with self._lock:
            self._clock = clock
            if self.stopped:
                clock.searcher.stop()

    def stop(self) -> None:
        with self._lock:
            self.stopped = True
            if self._clock is not None:
                self._clock.searcher.stop()


def run(depth: int = DEFAULT_DEPTH, report=print, halt: Halt | None = None) -> tuple[int, int]:
    """Search every position to ``depth``; report progress; return (nodes, milliseconds)
    of the positions searched in full. After ``halt.stop()`` the position under search is
    dropped and the report ends with an ``info string`` instead of the summary."""
    total_nodes = done = 0
    start = time.perf_counter()
    for i, (variant, fen) in enumerate(POSITIONS, 1):
        if halt is not None and halt.stopped:
            break
        report(f"Position: {i}/{len(POSITIONS)} ({variant}) {fen}")
        board = Board(variant, fen)
        searcher = Searcher()
        tt = TranspositionTable(BENCH_HASH_MB)
        best = think(searcher, board, eval_tables(variant), tt, GoLimits(depth=depth), 1, 0,
                     FULL, lambda info: None, halt if halt is not None else [])
        if halt is not None and halt.stopped:
            break
        total_nodes += searcher.nodes
        done += 1
        report(f"bestmove {best.move} nodes {searcher.nodes}")
    ms = max(int((time.perf_counter() - start) * 1000), 1)
    if done < len(POSITIONS):
        report(f"info string bench stopped after {done} of {len(POSITIONS)} positions "
               f"({total_nodes} nodes in {ms} ms): no total")
        return total_nodes, ms
    report("")
    report("===========================")
    report(f"Total time (ms) : {ms}")
    report(f"Nodes searched  : {total_nodes}")
    report(f"Nodes/second    : {total_nodes * 1000 // ms}")
    return total_nodes, ms
