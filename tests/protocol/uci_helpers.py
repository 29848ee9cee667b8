"""Helpers for the protocol tests: an in-process driver, the shapes of valid answers,
and a snapshot of the state an erroneous command must leave alone."""
from __future__ import annotations

import io
import re
from pathlib import Path

from engine.board import Board
from protocol.uci import ERROR_PREFIX, UciSession

REPO_ROOT = Path(__file__).resolve().parents[2]

# Reference counts from the brief and shared/refdata (start positions).
START_PERFT = {
    ("chess", 1): 20, ("chess", 3): 8902,
    ("grand", 1): 65, ("grand", 2): 4225,
    ("hexagonal", 1): 51, ("hexagonal", 2): 2586,
}

_SIMPLE_LINES = [re.compile(p) for p in (
    r"id name \S.*", r"id author \S.*", r"uciok", r"readyok", r"info string \S.*",
    r"option name \S.* type (check|spin|combo|button|string)( \S.*)?",
    r"bestmove \S+( ponder \S+)?",
)]
_PERFT_MOVE = re.compile(r"[a-z][0-9]{1,2}[a-z][0-9]{1,2}[a-z]?: [0-9]+")
_NODES = re.compile(r"Nodes searched: ([0-9]+)")


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

    def send(self, line: str) -> list[str]:
        start = self.out.tell()
        self.session.handle(line)
        text = self.out.getvalue()[start:]
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


def check_answer(command: str, lines: list[str]) -> None:
    """Assert that ``lines`` is a well-formed answer to the input line ``command``."""
    assert all(line.isprintable() for line in lines), lines
    assert not any("Traceback" in line for line in lines), lines
    if is_error(lines):
        assert len(lines) == 1, lines                       # one line, nothing else
        assert not lines[0].startswith(ERROR_PREFIX + "internal"), lines
        return
    words = command.split()
    word = words[0] if words else ""
    if word == "go":
        check_perft_report(lines)
    elif word == "d":
        assert any(line.startswith("Fen: ") for line in lines), lines
    elif word == "uci":
        assert lines[0].startswith("id name ") and lines[-1] == "uciok", lines
        assert all(is_uci_line(line) for line in lines), lines
    else:
        assert all(is_uci_line(line) for line in lines), lines
