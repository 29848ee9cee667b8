"""xboard/WinBoard drive Quantum unchanged through PolyGlot, the standard UCI-to-xboard
(CECP) adapter: a polyglot ini names the quantum executable, and the test speaks CECP to
``polyglot <ini>`` the way xboard does (``xboard``, ``protover 2``, ``new``, ``st`` or
``level``/``time``/``otim``, ``usermove``, ``force``, ``go``, ``?``, ``ping``, ``result``,
``quit``). Every move the engine answers with must be legal (python-chess replays the
game), and ``quit`` must end PolyGlot and the engine.

Needs ``polyglot`` (Debian package ``polyglot``; .ci/run installs it); skipped without it.
Timeouts only stop a hung process from hanging the suite; nothing measures time.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
import time
from pathlib import Path

import chess
import pexpect
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
POLYGLOT = shutil.which("polyglot") or next(
    (p for p in ("/usr/games/polyglot", "/usr/bin/polyglot") if os.access(p, os.X_OK)), None)

pytestmark = pytest.mark.skipif(POLYGLOT is None, reason="polyglot is not installed")

HANG_GUARD_S = 120       # PolyGlot + a fresh Python engine, or one search, on a busy box
EXIT_GUARD_S = 60        # for the engine process to be gone after quit

# xboard answers PolyGlot sends that mean our side of the conversation went wrong.
MOVE_RE = r"(?m)^move ([a-z][0-9][a-z][0-9][qrbn]?)\r?$"
FAULT_RE = r"(?m)^(Illegal move[^\r\n]*|Error[^\r\n]*|tellusererror[^\r\n]*)\r?$"
THINKING_RE = r"(?m)^\s*[0-9]+\s+-?[0-9]+\s+[0-9]+\s+[0-9]+\s"

# Our side plays the first legal move of this list (else the first legal move in UCI
# order): ordinary development, so that no game ends within the few moves played here.
OUR_MOVES = ["e2e4", "d2d4", "g1f3", "b1c3", "f1c4", "f1e2", "e1g1", "c2c3", "h2h3",
             "e7e5", "d7d5", "g8f6", "b8c6", "f8c5", "f8e7", "e8g8", "c7c6", "h7h6",
             "d2d3", "d7d6", "a2a3", "a7a6"]


def our_move(board: chess.Board) -> chess.Move:
    legal = {m.uci(): m for m in board.legal_moves}
    for uci in OUR_MOVES:
        if uci in legal:
            return legal[uci]
    return legal[sorted(legal)[0]]


class XBoard:
    """PolyGlot with Quantum behind it, spoken to as xboard does over a pseudo-terminal.
    The engine is started through ``sh -c 'echo $$ > pidfile && exec python -m engine'``
    so the test can see that it is gone after ``quit``; the engine itself runs unchanged.
    (PolyGlot's ini reads ``;`` and ``#`` as comments, and expands EngineCommand with
    wordexp, so the command avoids both and is shell-quoted.)"""

    def __init__(self, tmp_path: Path):
        self.pidfile = tmp_path / "engine.pid"
        engine = shlex.join([sys.executable, "-m", "engine"])
        command = shlex.join(["sh", "-c", f"echo $$ > {shlex.quote(str(self.pidfile))} "
                                          f"&& exec {engine}"])
        ini = tmp_path / "quantum.ini"
        ini.write_text("[PolyGlot]\n"
                       f"EngineDir = {REPO_ROOT}\n"
                       f"EngineCommand = {command}\n"
                       "Log = false\n"
                       "Resign = false\n"
                       "Book = false\n"
                       "[Engine]\n"
                       "Hash = 16\n")
        self.child = pexpect.spawn(POLYGLOT, [str(ini)], cwd=str(tmp_path), encoding="utf-8",
                                   echo=False, timeout=HANG_GUARD_S)
        self.features = ""

    def send(self, *lines: str) -> None:
        for line in lines:
            self.child.sendline(line)

    def handshake(self) -> str:
        """``xboard`` + ``protover 2``; returns the feature lines up to ``done=1``."""
        self.send("xboard", "protover 2")
        self.child.expect(r"feature[^\r\n]*done=1")
        self.features = self.child.before + self.child.after
        return self.features

    def ping(self, n: int) -> str:
        """``ping n`` → ``pong n``; returns what came before the pong."""
        self.send(f"ping {n}")
        self.child.expect(rf"(?m)^pong {n}\r?$")
        return self.child.before

    def engine_move(self) -> str:
        index = self.child.expect([MOVE_RE, FAULT_RE])
        assert index == 0, f"PolyGlot reported {self.child.match.group(1)!r}"
        return self.child.match.group(1)

    def quit(self) -> None:
        self.send("quit")
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus == 0, (self.child.exitstatus, self.child.signalstatus)

    def engine_pid(self) -> int:
        return int(self.pidfile.read_text().split()[0])

    def kill(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


def process_gone(pid: int) -> bool:
    """True when ``pid`` no longer runs (absent, or a zombie nobody reaped yet)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


@pytest.fixture
def xb(tmp_path):
    proc = XBoard(tmp_path)
    yield proc
    proc.kill()


def play(xb: XBoard, board: chess.Board, engine_moves: int) -> None:
    """The engine is to move in ``board`` and was told to move; take its move, check it
    and answer with ours, ``engine_moves`` times."""
    for n in range(engine_moves):
        uci = xb.engine_move()
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves, f"illegal engine move {uci} in {board.fen()}"
        board.push(move)
        assert not board.is_game_over(), board.fen()
        if n == engine_moves - 1:
            return
        reply = our_move(board)
        board.push(reply)
        xb.send(f"usermove {reply.uci()}")


def test_handshake_ping_and_quit(xb):
    features = xb.handshake()
    assert "feature usermove=1" in features
    assert "feature san=0" in features
    assert re.search(r'feature myname="Quantum', features), features
    assert "UCI_Variant -combo *chess" in features        # the engine's options, exported
    assert xb.ping(1).strip() == ""
    pid = xb.engine_pid()
    assert not process_gone(pid)
    xb.quit()
    deadline = time.monotonic() + EXIT_GUARD_S      # a hang guard, not a measurement
    while not process_gone(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert process_gone(pid), f"engine {pid} still runs after quit"


def test_engine_plays_black(xb):
    xb.handshake()
    xb.send("new", "st 1", "usermove d2d5")       # an illegal move is refused, changes nothing
    index = xb.child.expect([FAULT_RE, MOVE_RE])
    assert index == 0 and xb.child.match.group(1).startswith("Illegal move"), xb.child.after
    board = chess.Board()
    first = our_move(board)
    board.push(first)
    xb.send(f"usermove {first.uci()}")
    play(xb, board, engine_moves=5)
    xb.send("result 1/2-1/2 {test over}")
    assert "move " not in xb.ping(2)
    xb.quit()


def test_engine_plays_white_after_force(xb):
    xb.handshake()
    # In force mode the engine only records moves; `go` makes it play the side to move.
    xb.send("new", "st 1", "force", "usermove d2d4", "usermove d7d5", "usermove c2c4",
            "usermove e7e6")
    assert "move " not in xb.ping(3)
    board = chess.Board()
    for uci in ("d2d4", "d7d5", "c2c4", "e7e6"):
        board.push_uci(uci)
    xb.send("go")
    play(xb, board, engine_moves=5)
    # Force again: the engine stops playing, the moves we enter are taken silently.
    xb.send("force")
    reply = our_move(board)
    board.push(reply)
    xb.send(f"usermove {reply.uci()}")
    assert "move " not in xb.ping(4)
    xb.send("result 1/2-1/2 {test over}")
    xb.quit()


def test_move_now_and_clock(xb):
    """``level``/``time``/``otim`` (a clock, not a fixed time) and ``?`` (move now): the
    engine gets a minute, starts thinking (``post`` shows it), and ``?`` makes it move."""
    xb.handshake()
    xb.send("new", "level 0 1 0", "post", "time 6000", "otim 6000", "usermove e2e4")
    xb.child.expect(THINKING_RE)
    xb.send("?")
    board = chess.Board()
    board.push_uci("e2e4")
    uci = xb.engine_move()
    move = chess.Move.from_uci(uci)
    assert move in board.legal_moves, f"illegal engine move {uci} in {board.fen()}"
    board.push(move)
    reply = our_move(board)
    board.push(reply)
    xb.send("time 5900", "otim 5900", f"usermove {reply.uci()}")
    play(xb, board, engine_moves=2)
    xb.send("result 1/2-1/2 {test over}")
    xb.quit()
