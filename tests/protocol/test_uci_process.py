"""The real process: ``python -m engine`` driven over a pseudo-terminal with pexpect,
plus plain subprocess runs for exit codes, raw bytes and the ``perft`` subcommand.

Timeouts here only stop a hung engine from hanging the suite; nothing measures time.
"""
import subprocess
import sys

import pytest

from uci_helpers import REPO_ROOT, check_answer, check_perft_report, is_uci_line

pexpect = pytest.importorskip("pexpect")

HANG_GUARD_S = 60


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


def test_full_session(engine):
    handshake = engine.ask("uci")
    assert handshake[0] == "id name Quantum 0.1" and handshake[-1] == "uciok"
    assert any(line.startswith("option name UCI_Variant type combo default chess "
                               "var chess var grand var hexagonal") for line in handshake)
    assert engine.ask("ucinewgame") == []

    # chess
    assert engine.ask("position startpos") == []
    assert check_perft_report(engine.ask("go perft 3")) == 8902

    # grand, with a move list
    assert engine.ask("setoption name UCI_Variant value grand") == []
    assert engine.ask("position startpos") == []
    assert check_perft_report(engine.ask("go perft 2")) == 4225
    assert engine.ask("position startpos moves e3e4 e8e7") == []
    after_moves = engine.ask("d")
    fen = next(line for line in after_moves if line.startswith("Fen: "))
    assert fen == ("Fen: r8r/1nbqkcabn1/pppp1ppppp/4p5/10/10/4P5/PPPP1PPPPP/1NBQKCABN1/R8R"
                   " w - - 0 2")
    perft_before = engine.ask("go perft 2")

    # an illegal move, a bad FEN and an unknown variant leave that position alone
    assert "illegal move 'e4e9'" in error_of(engine.ask("position startpos moves e3e4 e4e9"))
    assert "FEN" in error_of(engine.ask("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
                                        " w KQkq - 0 1"))
    assert "unknown variant 'shogi'" in error_of(
        engine.ask("setoption name UCI_Variant value shogi"))
    assert "unknown command 'xyzzy'" in error_of(engine.ask("xyzzy"))
    assert engine.ask("go perft 2") == perft_before
    assert fen in engine.ask("d")

    # hexagonal by alias, case-insensitive option name
    assert engine.ask("setoption name uci_variant value hex") == []
    assert engine.ask("position startpos") == []
    assert check_perft_report(engine.ask("go perft 2")) == 2586
    assert "Variant: hexagonal" in engine.ask("d")

    assert error_of(engine.ask("go depth 3")) == (
        "info string error go: only 'go perft N' is supported in this build")
    assert engine.close() == 0


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
    assert lines[0] == "readyok" and lines[-1] == "readyok"
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
