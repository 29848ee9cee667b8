"""Helpers for the protocol tests: an in-process driver, the shapes of valid answers
(perft reports, search output), and a snapshot of the state an erroneous command must
leave alone."""
from __future__ import annotations

import io
import re
from pathlib import Path

from engine.board import Board
from engine.engine import game_names
from engine.smp import MAX_THREADS
from protocol.uci import ERROR_PREFIX, UciSession

REPO_ROOT = Path(__file__).resolve().parents[2]

# Reference counts from the brief and shared/refdata (start positions).
START_PERFT = {
    ("chess", 1): 20, ("chess", 3): 8902,
    ("grand", 1): 65, ("grand", 2): 4225,
    ("hexagonal", 1): 51, ("hexagonal", 2): 2586,
}

# The option lines of `uci`, in order (docs/protocol.md lists the same).
HANDSHAKE_OPTIONS = [
    "option name Hash type spin default 16 min 1 max 4096",
    "option name Clear Hash type button",
    f"option name Threads type spin default 1 min 1 max {MAX_THREADS}",
    "option name MultiPV type spin default 1 min 1 max 64",
    "option name Move Overhead type spin default 30 min 0 max 5000",
    "option name Ponder type check default false",
    "option name OwnBook type check default false",
    "option name BookFile type string default <empty>",
    "option name Use NNUE type check default true",
    "option name EvalFile type string default <empty>",
    "option name UCI_Variant type combo default chess "
    + " ".join(f"var {name}" for name in game_names()),
    "option name UCI_Chess960 type check default false",
    "option name UCI_LimitStrength type check default false",
    "option name UCI_Elo type spin default 1500 min 800 max 2800",
    "option name Level type combo default hard var beginner var easy var normal var hard "
    "var adaptive",
    "option name UCI_Opponent type string default <empty>",
    "option name Adaptive Profile type string default <empty>",
    "option name Reset Adaptive Profile type button",
]

CHECKMATED = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"        # black to move is mated
STALEMATE = "k7/8/1Q6/8/8/8/8/7K b - - 0 1"         # black to move has no move, no check

_SIMPLE_LINES = [re.compile(p) for p in (
    r"id name \S.*", r"id author \S.*", r"uciok", r"readyok", r"info string \S.*",
    r"option name \S.* type (check|spin|combo|button|string)( \S.*)?",
    r"bestmove \S+( ponder \S+)?",
)]
_PERFT_MOVE = re.compile(r"[a-z][0-9]{1,2}[a-z][0-9]{1,2}[a-z]?: [0-9]+")
_NODES = re.compile(r"Nodes searched: ([0-9]+)")
# The end of a perft report that `stop` cut short: no total.
PERFT_STOPPED_RE = re.compile(
    r"info string perft stopped after ([0-9]+) of ([0-9]+) root moves: no total")
# The lines of a bench report (engine/bench.py), and the end of one that `stop` cut short.
BENCH_STOPPED_RE = re.compile(r"info string bench stopped after ([0-9]+) of ([0-9]+) "
                              r"positions \(([0-9]+) nodes in [0-9]+ ms\): no total")
_BENCH_LINES = [re.compile(p) for p in (
    r"Position: [0-9]+/[0-9]+ \([a-z]+\) \S.*", r"bestmove \S+ nodes [0-9]+", r"=+",
    r"Total time \(ms\) : [0-9]+", r"Nodes searched  : [0-9]+", r"Nodes/second    : [0-9]+",
    BENCH_STOPPED_RE.pattern)]

# Hang guard for waiting on a search in-process: a search that was told to stop and has
# not reported after this long is a hang, not slowness.
SEARCH_GUARD_S = 30.0
_UCI_MOVE = r"[a-z][0-9]{1,2}[a-z][0-9]{1,2}[a-z]?"
# One iteration's report (engine.notation.info_line), group 1 the PV (may be absent).
INFO_RE = re.compile(
    r"info depth [1-9][0-9]* seldepth [0-9]+ multipv [1-9][0-9]*"
    r" score (?:cp -?[0-9]+|mate -?[0-9]+)(?: lowerbound| upperbound)?"
    r" nodes [0-9]+ nps [0-9]+ hashfull [0-9]+ time [0-9]+"
    rf"(?: pv ((?:{_UCI_MOVE})(?: {_UCI_MOVE})*))?")
# The game-over report: no move to search, only the score of the final position.
GAME_OVER_RE = re.compile(r"info depth 0 score (?:mate 0|cp -?[0-9]+)")
BESTMOVE_RE = re.compile(rf"bestmove (\(none\)|{_UCI_MOVE})(?: ponder ({_UCI_MOVE}))?")


def start_perft(variant: str, depth: int) -> int:
    """Known start-position count, or the core's own for variants added later."""
    known = START_PERFT.get((variant, depth))
    return known if known is not None else Board(variant).perft(depth)


class Driver:
    """A UciSession writing into memory; ``send`` returns the lines one input produced."""

    def __init__(self, session: UciSession | None = None):
        self.out = io.StringIO()
        self.session = session if session is not None else UciSession(self.out)
        self.session.out = self.out
        self._mark = 0

    def send(self, line: str) -> list[str]:
        """The lines written while ``line`` was handled (a search started by it may go
        on writing afterwards; ``settle`` collects that)."""
        start = self.out.tell()
        self.session.handle(line)
        return self._since(start)

    def settle(self, stop: bool = True) -> list[str]:
        """Stop a running search (unless ``stop`` is False: let it end by itself) and
        wait for its bestmove; the lines it wrote since the last ``send``/``settle``."""
        start = self._mark
        if stop:
            self.session.handle("stop")
        self.session.engine.wait(SEARCH_GUARD_S)
        assert not self.session.engine.searching, "search did not end (hang)"
        return self._since(start)

    def go(self, line: str, stop: bool = False) -> list[str]:
        """Send a ``go`` line and return everything it answered, up to and including its
        bestmove (``stop``: send ``stop`` at once, for unbounded searches)."""
        lines = self.send(line)
        return lines + self.settle(stop)

    def _since(self, start: int) -> list[str]:
        text = self.out.getvalue()[start:]
        self._mark = start + len(text)
        assert text == "" or text.endswith("\n"), repr(text)
        return text.split("\n")[:-1]

    @property
    def running(self) -> bool:
        return self.session.running


def snapshot(session: UciSession) -> tuple:
    """Everything a command may change: variant, position, history, option values."""
    board = session.engine.board
    return (session.engine.variant, board.fen(), tuple(board.move_stack),
            tuple(sorted(session.options.values().items())))


def is_error(lines: list[str]) -> bool:
    return any(line.startswith(ERROR_PREFIX) for line in lines)


def is_uci_line(line: str) -> bool:
    """Whether a line is something a UCI engine may say outside dialect reports."""
    return any(p.fullmatch(line) for p in _SIMPLE_LINES)


def check_perft_report(lines: list[str]) -> int:
    """Assert Stockfish's perft shape and a consistent total; return the total."""
    assert len(lines) >= 3, lines
    *moves, blank, nodes, closing = lines
    assert blank == "" and closing == "", lines
    assert all(_PERFT_MOVE.fullmatch(m) for m in moves), moves
    match = _NODES.fullmatch(nodes)
    assert match, nodes
    total = int(match.group(1))
    assert total == sum(int(m.split(": ")[1]) for m in moves)
    return total


def check_stopped_perft_report(lines: list[str]) -> tuple[int, int]:
    """Assert the shape of a perft report cut short by ``stop``: the lines of the root
    moves counted in full, then the ``info string``, no total. Returns (counted, roots)."""
    *moves, last = lines
    match = PERFT_STOPPED_RE.fullmatch(last)
    assert match, lines
    assert all(_PERFT_MOVE.fullmatch(m) for m in moves), moves
    counted, roots = int(match.group(1)), int(match.group(2))
    assert counted == len(moves) < roots, lines
    return counted, roots


def is_search_line(line: str) -> bool:
    """An ``info`` line of a search report or a ``bestmove`` line."""
    return bool(INFO_RE.fullmatch(line) or GAME_OVER_RE.fullmatch(line)
                or BESTMOVE_RE.fullmatch(line))


def is_worker_line(line: str) -> bool:
    """A line the engine's worker thread prints whenever it is ready: a search line, or a
    non-blank line of a perft or bench report."""
    return bool(is_search_line(line) or _PERFT_MOVE.fullmatch(line) or _NODES.fullmatch(line)
                or PERFT_STOPPED_RE.fullmatch(line)
                or any(p.fullmatch(line) for p in _BENCH_LINES))


def check_search_output(lines: list[str], legal: list[str] | None = None,
                        searchmoves: list[str] | None = None) -> tuple[str | None, str | None]:
    """Assert the shape of one whole search report: info lines, then exactly one
    ``bestmove`` as the last line. With ``legal`` (the legal moves of the searched
    position), the best move must be one of them, ``(none)`` exactly when there are none,
    and every PV must start with a legal move; ``searchmoves`` narrows that further.
    Returns (best move or None, ponder move or None)."""
    assert lines, "no search output"
    assert all(line.isprintable() and "Traceback" not in line for line in lines), lines
    *infos, last = lines
    match = BESTMOVE_RE.fullmatch(last)
    assert match, f"last line is not a bestmove: {last!r} in {lines}"
    assert not any(line.startswith("bestmove") for line in infos), lines
    game_over = [line for line in infos if GAME_OVER_RE.fullmatch(line)]
    assert all(INFO_RE.fullmatch(line) or GAME_OVER_RE.fullmatch(line) for line in infos), \
        [line for line in infos if not INFO_RE.fullmatch(line)]
    best, ponder = match.group(1), match.group(2)
    if best == "(none)":
        assert ponder is None and len(infos) == 1 and game_over == infos, lines
        best = None
    else:
        assert not game_over, lines
    if legal is not None:
        allowed = set(searchmoves) if searchmoves else set(legal)
        assert allowed <= set(legal)
        if not legal:
            assert best is None, lines
        else:
            assert best in allowed, (best, sorted(allowed))
            for line in infos:
                pv = INFO_RE.fullmatch(line).group(1)
                assert pv is None or pv.split()[0] in allowed, (line, sorted(allowed))
    return best, ponder


def check_answer(command: str, lines: list[str]) -> None:
    """Assert that ``lines`` is a well-formed answer to the input line ``command``
    (for a search: its whole output, bestmove included)."""
    assert all(line.isprintable() for line in lines), lines
    assert not any("Traceback" in line for line in lines), lines
    if is_error(lines):
        assert len(lines) == 1, lines                       # one line, nothing else
        assert not lines[0].startswith(ERROR_PREFIX + "internal"), lines
        return
    words = command.split()
    word = words[0] if words else ""
    if word == "go" and "perft" in words:
        check_perft_report(lines)
    elif word == "go":
        check_search_output(lines)
    elif word == "bench":
        assert all(is_worker_line(line) for line in lines), lines
    elif word == "d":
        assert any(line.startswith(("Fen: ", "Alea FEN: ", "Fog view: ")) for line in lines), \
            lines
    elif word == "uci":
        assert lines[0].startswith("id name ") and lines[-1] == "uciok", lines
        assert all(is_uci_line(line) for line in lines), lines
    else:
        assert all(is_uci_line(line) for line in lines), lines
