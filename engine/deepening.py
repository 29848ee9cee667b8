"""Iterative deepening around the C search: aspiration windows, MultiPV, the clock,
pondering, strength levels, and the info events a front end prints.

``think`` runs in the engine's worker thread. It never prints; it reports through the
``on_info`` callback with ``SearchInfo`` events and returns a ``BestMove``.
"""
from __future__ import annotations

import random
import threading
import time
from collections import deque
from dataclasses import dataclass, field

from engine import timeman
from engine.eval_tables import stalemate_cp
from engine.levels import FULL, Strength, choose
from engine.smp import Helpers

MATE = 32000
MATE_BOUND = 31000
INF = 32500
MAX_DEPTH = 100
ASPIRATION = 20
RESCUE_SECONDS = 0.005


@dataclass
class GoLimits:
    """What `go` asked for (times in milliseconds, as UCI sends them)."""

    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None
    movetime: int | None = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: list = field(default_factory=list)


@dataclass
class SearchInfo:
    depth: int
    seldepth: int = 0
    multipv: int = 1
    score: int = 0               # centipawns, side to move's view (mate scores as below)
    bound: str = ""              # "", "lowerbound" or "upperbound"
    nodes: int = 0
    time_ms: int = 0
    hashfull: int = 0
    pv: list = field(default_factory=list)
    string: str = ""             # free text for `info string`

    @property
    def mate_in(self):
        """Moves to mate (negative: being mated), or None for a normal score."""
        if self.score > MATE_BOUND:
            return (MATE - self.score + 1) // 2
        if self.score < -MATE_BOUND:
            return -((MATE + self.score + 1) // 2)
        return None

    @property
    def nps(self) -> int:
        return int(self.nodes * 1000 / self.time_ms) if self.time_ms > 0 else 0


@dataclass
class BestMove:
    move: str | None             # None: no legal move (the game is over)
    ponder: str | None = None


class Clock:
    """Start time and budgets of one search; `ponderhit` starts the real clock."""

    def __init__(self, searcher, limits: GoLimits, side: int, overhead_ms: int,
                 max_think: float | None, node_cap: int | None = None):
        self.searcher = searcher
        self.nodes = min(n for n in (limits.nodes, node_cap, 1 << 62) if n)
        self.limits = limits
        self.side = side
        self.overhead_ms = overhead_ms
        self.max_think = max_think
        self.start = time.monotonic()
        self.pondering = limits.ponder
        self.released = threading.Event()   # set by stop or ponderhit
        self.soft = None
        self.fixed = False          # `go movetime`: no early stop between iterations
        self.helpers = Helpers()    # Lazy SMP threads searching beside this one
        self._arm()

    def _arm(self):
        if self.pondering or self.limits.infinite:
            self.soft = None
            self.searcher.set_limits(0.0, self.nodes)
            return
        budget = timeman.allocate(self.limits, self.side, self.overhead_ms, self.max_think)
        self.soft = budget.soft
        self.fixed = budget.fixed
        self.searcher.set_limits(budget.hard or 0.0, self.nodes)
        self.start = time.monotonic()

    def ponderhit(self):
        """The opponent played the expected move: think on the real clock from now."""
        if self.pondering:
            self.pondering = False
            self._arm()
            self.released.set()

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def out_of_soft_time(self, scale: float = 1.0) -> bool:
        """Too late to start another iteration: past 55 % of the soft budget (times
        ``scale``, from Steadiness), since the next one would likely not finish. Never with
        `go movetime`, whose time is to be used: the hard limit stops the search and a
        partly searched iteration still counts."""
        return (not self.fixed and self.soft is not None
                and self.elapsed() > self.soft * 0.55 * scale)


class Steadiness:
    """How settled the search looks after each iteration, as a factor on the soft budget:
    more time while the best move keeps changing or the score falls, less once both hold
    (Stockfish's best-move instability and falling eval, on finished iterations)."""

    def __init__(self):
        self.best = None
        self.changes = 0.0          # best-move changes, halved every iteration
        self.scores = deque(maxlen=4)   # this iteration's score and the three before

    def update(self, move, score: int) -> float:
        self.changes /= 2
        if self.best is not None and move != self.best:
            self.changes += 1
        self.best = move
        self.scores.append(score)
        falling = min(max(1 + (self.scores[0] - score) / 200, 0.75), 1.5)
        return (0.8 + 0.6 * self.changes) * falling


def think(searcher, board, ev, tt, limits: GoLimits, multipv: int, overhead_ms: int,
          strength: Strength, on_info, clock_box: list, rng: random.Random | None = None,
          helpers: Helpers | None = None) -> BestMove:
    """Search ``board`` and return the move to play.

    ``clock_box`` receives the Clock at once, so the protocol thread can reach it for
    ``ponderhit``; ``searcher.stop()`` ends the search from any thread. ``helpers``
    (``Threads`` above 1) search beside it at full strength; a level's limits keep one.
    """
    rng = rng or random.Random()
    root = searcher.set_root(board, ev, tt, limits.searchmoves or None)
    searcher.new_search()
    tt.new_search()
    side = 0 if board.turn == "w" else 1
    clock = Clock(searcher, limits, side, overhead_ms, strength.max_think, strength.max_nodes)
    clock_box.append(clock)
    if not root:
        on_info(SearchInfo(depth=0, score=final_score(board.outcome(), side)))
        _wait_for_release(searcher, clock, limits)
        return BestMove(None)

    if helpers is not None and strength.max_nodes is None and strength.max_depth is None:
        clock.helpers = helpers
        helpers.start(board, ev, tt, limits.searchmoves or None)
    try:
        lines = _deepen(searcher, limits, multipv, strength, on_info, clock, tt)
    finally:
        clock.helpers.stop()
    if not lines:
        lines = [rescue(searcher, root)]
    _wait_for_release(searcher, clock, limits)
    chosen = choose(lines, strength, rng) if strength.lines > 1 else lines[0]
    pv = chosen[1] or [root[0]]
    return BestMove(pv[0], pv[1] if len(pv) > 1 else None)


def _deepen(searcher, limits, multipv, strength, on_info, clock, tt) -> list:
    """The iterations, deepest finished one last: its lines [(score, pv)], best first."""
    root = searcher.root_moves
    nlines = max(1, min(max(multipv, strength.lines), len(root)))
    max_depth = min(limits.depth or MAX_DEPTH, strength.max_depth or MAX_DEPTH, MAX_DEPTH)
    lines: list = []                     # [(score, pv)] of the last finished depth
    prev_scores: dict = {}
    steadiness, scale = Steadiness(), 1.0
    for depth in range(1, max_depth + 1):
        found = []
        searcher.clear_skips()
        for k in range(nlines):
            prev_pv = lines[k][1] if k < len(lines) else []
            score, pv = _aspirated(searcher, depth, prev_scores.get(k), k, clock, on_info, tt,
                                   prev_pv)
            if searcher.stopped and not (searcher.improved and pv):
                break
            found.append((score, pv))
            if pv:
                searcher.skip(pv[0])
        searcher.clear_skips()
        if found and (not searcher.stopped or len(found) >= len(lines)):
            found.sort(key=lambda line: -line[0])
            lines = found
            prev_scores = {k: s for k, (s, _) in enumerate(found)}
            for k, (score, pv) in enumerate(found):
                on_info(_info(searcher, clock, tt, depth, k + 1 if nlines > 1 else 1, score, "", pv))
            scale = steadiness.update(lines[0][1][0] if lines[0][1] else None, lines[0][0])
        if searcher.stopped or clock.out_of_soft_time(scale):
            break
        if limits.mate and lines and lines[0][0] > MATE_BOUND and \
                (MATE - lines[0][0] + 1) // 2 <= limits.mate:
            break
    return lines


def final_score(outcome, side: int) -> int:
    """The depth-0 score of a finished game for the side to move (``side`` 0: White), as
    the search scores such a node: mated or royal piece lost ``-MATE`` (``score mate 0``),
    stalemated the variant's value (``stalemate_cp``: 0 in chess, -191 for a Gliński
    stalemate), a draw 0."""
    if outcome is None or outcome.termination in ("checkmate", "king captured"):
        return -MATE
    mine = outcome.white_score if side == 0 else 1 - outcome.white_score
    return stalemate_cp(1 - mine)


def rescue(searcher, root) -> tuple:
    """A search stopped before depth 1 finished still answers with a searched move: a
    depth-1 search (captures resolved by quiescence) under a few milliseconds' deadline,
    and only if even that is cut short, the first root move."""
    searcher.resume(RESCUE_SECONDS)
    score = searcher.search(1, -INF, INF)
    pv = searcher.pv()              # set only by a root move searched to the end
    searcher.stop()
    return (score, pv) if pv else (0, [root[0]])


def _aspirated(searcher, depth, prev, k, clock, on_info, tt, prev_pv):
    """One line at ``depth``: a narrow window around the last score, widened on failure.

    A fail-low has no new PV; its bound line shows the previous one, as Stockfish does."""
    if prev is None or depth < 4 or abs(prev) > MATE_BOUND:
        score = searcher.search(depth, -INF, INF)
        return score, searcher.pv()
    delta = ASPIRATION
    alpha, beta = max(prev - delta, -INF), min(prev + delta, INF)
    while True:
        score = searcher.search(depth, alpha, beta)
        if searcher.stopped:
            return score, searcher.pv() if searcher.improved else []
        if score <= alpha:
            on_info(_info(searcher, clock, tt, depth, k + 1, alpha, "upperbound",
                          searcher.pv() or prev_pv))
            beta = (alpha + beta) // 2
            alpha = max(score - delta, -INF)
        elif score >= beta:
            on_info(_info(searcher, clock, tt, depth, k + 1, beta, "lowerbound", searcher.pv()))
            beta = min(score + delta, INF)
        else:
            return score, searcher.pv()
        delta += delta // 2 + 10
        if delta > 1000:
            alpha, beta = -INF, INF


def _info(searcher, clock, tt, depth, multipv, score, bound, pv) -> SearchInfo:
    return SearchInfo(depth=depth, seldepth=max(searcher.seldepth, depth), multipv=multipv,
                      score=score, bound=bound, nodes=searcher.nodes + clock.helpers.nodes,
                      time_ms=int(clock.elapsed() * 1000), hashfull=tt.hashfull(), pv=list(pv))


def _wait_for_release(searcher, clock, limits):
    """UCI: with `go infinite` or while pondering, bestmove waits for `stop`/`ponderhit`."""
    while (limits.infinite or clock.pondering) and not searcher.stopped:
        clock.released.wait(0.05)
