"""The real process: ``python -m engine`` driven over a pseudo-terminal with pexpect,
plus plain subprocess runs for exit codes, raw bytes and the ``perft`` subcommand.

Timeouts here only stop a hung engine from hanging the suite; nothing measures time.
"""
import re
import subprocess
import sys

import pytest

from engine import __version__
from engine.board import Board
from uci_helpers import (BESTMOVE_RE, CHECKMATED, HANDSHAKE_OPTIONS, INFO_RE, REPO_ROOT,
                         STALEMATE, check_answer, check_perft_report, check_search_output,
                         is_uci_line)

pexpect = pytest.importorskip("pexpect")

HANG_GUARD_S = 60
SEARCH_GUARD_S = 20          # for one search to report once it may (pexpect's timeout)


class Engine:
    """A running engine; ``ask`` sends a command and returns exactly its answer lines,
    using ``isready``/``readyok`` as the end marker, as GUIs do."""

    def __init__(self):
        self.child = pexpect.spawn(sys.executable, ["-m", "engine"], cwd=str(REPO_ROOT),
                                   encoding="utf-8", echo=False, timeout=HANG_GUARD_S)

    def ask(self, command: str) -> list[str]:
        self.child.sendline(command)
        self.child.sendline("isready")
        self.child.expect_exact("readyok\r\n")
        lines = self.child.before.replace("\r\n", "\n").split("\n")[:-1]
        check_answer(command, lines)
        return lines

    def perft(self, command: str) -> list[str]:
        """Send a ``go perft`` line and return its report (it is counted in the worker
        thread, so ``isready`` would be answered before it ends)."""
        self.child.sendline(command)
        self.child.expect(r"Nodes searched: [0-9]+\r\n\r\n|info string error [^\r\n]*\r\n")
        lines = (self.child.before + self.child.after).replace("\r\n", "\n").split("\n")[:-1]
        self.expect_quiet()
        check_answer(command, lines)
        return lines

    def go(self, command: str, *then: str) -> list[str]:
        """Send a ``go`` line (and the ``then`` lines right after it) and return its whole
        output up to its ``bestmove``; then make sure no second bestmove follows."""
        self.child.sendline(command)
        for line in then:
            self.child.sendline(line)
        self.child.expect(r"bestmove [^\r\n]*\r\n", timeout=SEARCH_GUARD_S)
        lines = (self.child.before + self.child.after).replace("\r\n", "\n").split("\n")[:-1]
        self.expect_quiet()
        return lines

    def expect_quiet(self) -> None:
        """``isready`` is answered and nothing came before it: a search says nothing
        after its bestmove (no second bestmove, no late info line, no error)."""
        self.child.sendline("isready")
        self.child.expect_exact("readyok\r\n", timeout=SEARCH_GUARD_S)
        assert self.child.before == "", self.child.before

    def close(self) -> int:
        self.child.sendline("quit")
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus


@pytest.fixture
def engine():
    proc = Engine()
    yield proc
    if proc.child.isalive():
        proc.child.terminate(force=True)


def error_of(lines: list[str]) -> str:
    assert len(lines) == 1 and lines[0].startswith("info string error "), lines
    return lines[0]


def legal_after(variant: str, moves: list[str], fen: str | None = None) -> list[str]:
    board = Board(variant) if fen is None else Board(variant, fen)
    for move in moves:
        board.push(move)
    return board.legal_moves()


def test_full_session(engine):
    handshake = engine.ask("uci")
    assert handshake == [f"id name Quantum {__version__}", "id author Quantum team", *HANDSHAKE_OPTIONS,
                         "uciok"]
    assert engine.ask("ucinewgame") == []

    # chess
    assert engine.ask("position startpos") == []
    assert check_perft_report(engine.perft("go perft 3")) == 8902

    # grand, with a move list
    assert engine.ask("setoption name UCI_Variant value grand") == []
    assert engine.ask("position startpos") == []
    assert check_perft_report(engine.perft("go perft 2")) == 4225
    assert engine.ask("position startpos moves e3e4 e8e7") == []
    after_moves = engine.ask("d")
    fen = next(line for line in after_moves if line.startswith("Fen: "))
    assert fen == ("Fen: r8r/1nbqkcabn1/pppp1ppppp/4p5/10/10/4P5/PPPP1PPPPP/1NBQKCABN1/R8R"
                   " w - - 0 2")
    perft_before = engine.perft("go perft 2")

    # an illegal move, a bad FEN and an unknown variant leave that position alone
    assert "illegal move 'e4e9'" in error_of(engine.ask("position startpos moves e3e4 e4e9"))
    assert "FEN" in error_of(engine.ask("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
                                        " w KQkq - 0 1"))
    assert "unknown variant 'shogi'" in error_of(
        engine.ask("setoption name UCI_Variant value shogi"))
    assert "unknown command 'xyzzy'" in error_of(engine.ask("xyzzy"))
    assert engine.perft("go perft 2") == perft_before
    assert fen in engine.ask("d")

    # hexagonal by alias, case-insensitive option name
    assert engine.ask("setoption name uci_variant value hex") == []
    assert engine.ask("position startpos") == []
    assert check_perft_report(engine.perft("go perft 2")) == 2586
    assert "Variant: hexagonal" in engine.ask("d")

    assert "unknown option 'Hashes'" in error_of(engine.ask("setoption name Hashes value 1"))
    assert "illegal move 'e2e4'" in error_of(engine.ask("go depth 3 searchmoves e2e4"))
    best, _ = check_search_output(engine.go("go depth 3"), legal_after("hexagonal", []))
    assert best is not None
    assert engine.close() == 0


SETOPTIONS = [
    "setoption name Hash value 32", "setoption name Clear Hash", "setoption name Threads value 1",
    "setoption name MultiPV value 2", "setoption name Move Overhead value 50",
    "setoption name Ponder value true", "setoption name UCI_Variant value grand",
    "setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 2200",
    "setoption name Level value normal",
    # back to full strength, one line, chess, for what follows
    "setoption name UCI_LimitStrength value false", "setoption name Level value hard",
    "setoption name MultiPV value 1", "setoption name UCI_Variant value chess",
]


def test_uci_session_with_searches(engine):
    assert engine.ask("uci")[2:-1] == HANDSHAKE_OPTIONS
    for line in SETOPTIONS:
        assert engine.ask(line) == [], line
    assert engine.ask("ucinewgame") == []
    moves = ["e2e4", "e7e5", "g1f3"]
    assert engine.ask("position startpos moves " + " ".join(moves)) == []

    # on the clock: iteration reports with every field, and a legal move
    lines = engine.go("go wtime 2000 btime 2000 winc 20 binc 20")
    best, ponder = check_search_output(lines, legal_after("chess", moves))
    reports = [line for line in lines if INFO_RE.fullmatch(line)]
    assert reports and all(f" {field} " in line for line in reports
                           for field in ("depth", "score", "nodes", "nps", "time", "pv"))
    assert ponder is None or ponder in legal_after("chess", moves + [best])

    # go infinite: isready is answered during the search; stop ends it with one bestmove
    engine.child.sendline("go infinite")
    engine.child.expect(r"info depth \d+ ", timeout=SEARCH_GUARD_S)
    engine.child.sendline("isready")
    engine.child.expect_exact("readyok\r\n", timeout=SEARCH_GUARD_S)
    assert "bestmove" not in engine.child.before
    check_search_output(engine.go("stop")[-1:], legal_after("chess", moves))

    # pondering: no bestmove until ponderhit, then the real clock ends it by itself
    engine.child.sendline("go ponder wtime 2000 btime 2000 winc 20 binc 20")
    engine.child.expect(r"info depth \d+ ", timeout=SEARCH_GUARD_S)
    engine.child.sendline("isready")
    engine.child.expect_exact("readyok\r\n", timeout=SEARCH_GUARD_S)
    assert "bestmove" not in engine.child.before
    best, _ = check_search_output(engine.go("ponderhit")[-1:], legal_after("chess", moves))
    # ... or stop ends it
    check_search_output(engine.go("go ponder wtime 2000 btime 2000", "stop")[-1:],
                        legal_after("chess", moves))

    # searchmoves
    assert engine.ask("position startpos") == []
    lines = engine.go("go depth 4 searchmoves a2a3 h2h3")
    best, _ = check_search_output(lines, legal_after("chess", []), ["a2a3", "h2h3"])
    assert best in ("a2a3", "h2h3")

    # MultiPV 3: each finished depth reports lines 1, 2 and 3
    assert engine.ask("setoption name MultiPV value 3") == []
    lines = engine.go("go depth 4")
    check_search_output(lines, legal_after("chess", []))
    for depth in range(1, 5):
        numbers = [int(m) for m in re.findall(rf"^info depth {depth} .* multipv (\d+) .*",
                                               "\n".join(lines), re.MULTILINE)]
        assert numbers[-3:] == [1, 2, 3], (depth, numbers)
    assert engine.ask("setoption name MultiPV value 1") == []

    # finished games
    assert engine.ask(f"position fen {CHECKMATED}") == []
    assert engine.go("go depth 3") == ["info depth 0 score mate 0", "bestmove (none)"]
    assert engine.ask(f"position fen {STALEMATE}") == []
    assert engine.go("go wtime 1000 btime 1000") == ["info depth 0 score cp 0",
                                                     "bestmove (none)"]

    # the other boards
    for variant in ("grand", "hexagonal"):
        assert engine.ask(f"setoption name UCI_Variant value {variant}") == []
        assert engine.ask("position startpos") == []
        best, _ = check_search_output(engine.go("go depth 3"), legal_after(variant, []))
        assert best is not None
    assert engine.close() == 0


def test_stop_ends_a_deep_search(engine):
    """Stop latency as a hang guard: a search deep in its iterations answers ``stop``
    with its bestmove before the guard runs out (no speed threshold)."""
    assert engine.ask("position startpos moves d2d4 d7d5 c2c4") == []
    engine.child.sendline("go infinite")
    engine.child.expect(r"info depth 7 ", timeout=SEARCH_GUARD_S)
    lines = engine.go("stop")
    assert [line for line in lines if BESTMOVE_RE.fullmatch(line)] == lines[-1:]
    check_search_output(lines[-1:], legal_after("chess", ["d2d4", "d7d5", "c2c4"]))
    assert engine.close() == 0


@pytest.mark.parametrize("go", ["go infinite", "go ponder wtime 60000 btime 60000"])
def test_quit_during_a_search_exits_cleanly(engine, go):
    assert engine.ask("position startpos") == []
    engine.child.sendline(go)
    engine.child.expect(r"info depth \d+ ", timeout=SEARCH_GUARD_S)
    engine.child.sendline("quit")
    engine.child.expect(pexpect.EOF, timeout=SEARCH_GUARD_S)
    engine.child.close()
    assert engine.child.exitstatus == 0 and engine.child.signalstatus is None


def run_raw(data: bytes, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", *args], input=data,
                          capture_output=True, cwd=REPO_ROOT, timeout=HANG_GUARD_S)


def test_eof_exits_with_zero_and_bad_bytes_are_survived():
    done = run_raw(b"isready\n\xff\xfe garbage\n\x00\nposition startpos moves e2e4\r\n"
                   b"go perft 1\nisready")
    assert done.returncode == 0
    out = done.stdout.decode()
    assert "Traceback" not in out and "Traceback" not in done.stderr.decode()
    lines = out.split("\n")[:-1]
    # the perft counts in the worker thread: the last isready may be answered before it
    assert lines[0] == "readyok" and lines.count("readyok") == 2
    assert [line for line in lines if line.startswith("info string error")] == [
        "info string error unknown command '\ufffd\ufffd'",
        "info string error unknown command '\\x00'"]
    assert "Nodes searched: 20" in lines
    assert all(is_uci_line(line) or line == "" or ": " in line for line in lines)


def test_quit_exits_with_zero():
    done = run_raw(b"uci\nquit\nisready\n")
    assert done.returncode == 0
    assert done.stdout.decode().split("\n")[-2] == "uciok"


def test_perft_subcommand():
    done = run_raw(b"", "perft", "hex", "2")
    assert done.returncode == 0
    assert done.stdout.decode().split("\n")[-3:] == ["Nodes searched: 2586", "", ""]


def test_perft_subcommand_with_fen():
    done = run_raw(b"", "perft", "chess", "1", "4k3/8/8/8/8/8/4P3/4K3", "w", "-", "-", "0", "1")
    assert done.returncode == 0
    assert "Nodes searched: 6" in done.stdout.decode()


@pytest.mark.parametrize("args, message", [
    (("perft", "shogi", "1"), "unknown variant 'shogi'"),
    (("perft", "chess", "0"), "perft depth must be 1..20"),
    (("perft", "chess", "1", "bad", "fen"), "quantum perft: error:"),
])
def test_perft_subcommand_errors(args, message):
    done = run_raw(b"", *args)
    assert done.returncode == 2
    assert message in done.stderr.decode() and "Traceback" not in done.stderr.decode()


@pytest.mark.filterwarnings("ignore:setDaemon:DeprecationWarning")   # inside pexpect 4.8
def test_answers_over_pipes_while_stdin_stays_open():
    """GUIs talk over pipes, not terminals: each answer must arrive while stdin stays
    open (no read-ahead on stdin, a flush after each answer)."""
    from pexpect.popen_spawn import PopenSpawn

    child = PopenSpawn([sys.executable, "-m", "engine"], cwd=str(REPO_ROOT),
                       encoding="utf-8", timeout=HANG_GUARD_S)
    child.sendline("isready")
    child.expect_exact("readyok\n")
    child.sendline("go perft 1")
    child.expect_exact("\nNodes searched: 20\n\n")
    child.sendline("xyzzy")
    child.expect_exact("info string error unknown command 'xyzzy'\n")
    child.sendeof()
    child.expect(pexpect.EOF)
    assert child.wait() == 0


@pytest.mark.parametrize("job, stopped", [
    ("go perft 7", r"info string perft stopped after [0-9]+ of 20 root moves: no total"),
    ("bench 64", r"info string bench stopped after [0-9]+ of [0-9]+ positions \([^)]*\): "
                 r"no total")])
def test_perft_and_bench_leave_the_process_answering(engine, job, stopped):
    """Issue 13: `go perft 7` then `stop` got no `readyok`: perft and bench ran on the
    protocol thread. Now `isready` is answered while they run, `stop` ends them with a
    report that says so, and the engine goes on (pexpect's timeout is a hang guard)."""
    engine.child.sendline(job)
    engine.child.sendline("isready")
    engine.child.expect_exact("readyok\r\n")
    assert not re.search(stopped, engine.child.before)
    engine.child.sendline("stop")
    engine.child.expect(stopped + r"\r\n")
    engine.expect_quiet()
    assert check_perft_report(engine.perft("go perft 2")) == 400
    assert engine.close() == 0



def test_huge_lines_get_short_errors_and_the_engine_goes_on():
    """Issue 13: a 1 MB move was echoed whole, a 310-digit wtime was an internal error.
    Over pipes (a terminal would cut the line at 4096 bytes) the real process answers
    each with one short error line and keeps answering."""
    done = run_raw(("position startpos moves " + "e2e4" * 250_000 + "\n"
                    "go wtime " + "9" * 310 + "\nisready\n").encode())
    assert done.returncode == 0 and "Traceback" not in done.stderr.decode()
    lines = done.stdout.decode().split("\n")[:-1]
    assert len(lines) == 3 and lines[-1] == "readyok", [x[:100] for x in lines]
    assert lines[0].startswith("info string error position: illegal move 'e2e4e2e4")
    assert lines[1] == ("info string error go: wtime must be -1000000000000000000.."
                        "1000000000000000000, not '999999999999999999999999999999999999999999"
                        "999999999999999999'...")
    assert all(len(x) < 300 for x in lines)
