"""The UCI loop in-process: StringIO in, StringIO out, no subprocess."""
import io

import pytest

from engine.variant import variant_names
from protocol import uci
from protocol.uci import UciSession, main
from uci_helpers import Driver, check_answer, check_perft_report, snapshot, start_perft


@pytest.fixture
def driver():
    return Driver()


def run_main(text: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = main([], stdin=io.StringIO(text), stdout=out)
    return status, out.getvalue().split("\n")[:-1]


def test_uci_handshake(driver):
    lines = driver.send("uci")
    vars_ = " ".join(f"var {name}" for name in variant_names())
    assert lines == ["id name Quantum 0.1", "id author Quantum team",
                     f"option name UCI_Variant type combo default chess {vars_}", "uciok"]
    check_answer("uci", lines)


def test_isready(driver):
    assert driver.send("isready") == ["readyok"]


def test_blank_lines_are_ignored(driver):
    assert driver.send("") == []
    assert driver.send("   \t ") == []


def test_extra_tokens_after_argumentless_commands_are_ignored(driver):
    assert driver.send("isready now") == ["readyok"]


@pytest.mark.parametrize("variant, depth", [("chess", 3), ("grand", 2), ("hexagonal", 2)])
def test_go_perft_from_the_start(driver, variant, depth):
    assert driver.send(f"setoption name UCI_Variant value {variant}") == []
    assert driver.send("position startpos") == []
    lines = driver.send(f"go perft {depth}")
    assert check_perft_report(lines) == start_perft(variant, depth)
    assert lines[-2:] == [f"Nodes searched: {start_perft(variant, depth)}", ""]


def test_position_with_moves_then_perft(driver):
    driver.send("position startpos moves e2e4 e7e5")
    lines = driver.send("go perft 1")
    assert check_perft_report(lines) == 29
    assert "e1e2: 1" in lines


def test_position_fen(driver):
    assert driver.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4") == []
    assert "Fen: 4k3/8/8/8/4P3/8/8/4K3 b - - 0 1" in driver.send("d")


def test_option_name_is_case_insensitive_and_aliases_work(driver):
    assert driver.send("setoption name uci_variant value Glinski") == []
    assert driver.session.engine.variant == "hexagonal"
    assert "Variant: hexagonal" in driver.send("d")


def test_d_draws_and_reports(driver):
    driver.send("position startpos moves g1f3")
    lines = driver.send("d")
    assert lines[0].strip().startswith("+---")
    assert "Fen: rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1" in lines
    assert "Side to move: black" in lines and "Legal moves: 20" in lines


def test_ucinewgame_resets_the_position_but_not_the_variant(driver):
    driver.send("setoption name UCI_Variant value grand")
    driver.send("position startpos moves e3e4")
    assert driver.send("ucinewgame") == []
    assert driver.session.engine.variant == "grand"
    assert driver.session.engine.board.move_stack == []


@pytest.mark.parametrize("line, reason", [
    ("position startpos moves e2e4 e2e4", "position: illegal move 'e2e4' (move 2 of the list)"),
    ("position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1", "position: FEN has 4 rows"),
    ("position fen", "position: missing FEN"),
    ("position", "position: expected 'startpos' or 'fen'"),
    ("setoption name UCI_Variant value shogi", "setoption: unknown variant 'shogi'"),
    ("setoption name Hash value 16", "setoption: unknown option 'Hash'"),
    ("setoption name UCI_Variant", "setoption: option 'UCI_Variant' needs a value"),
    ("setoption", "setoption: expected 'name <option> [value <value>]'"),
    ("go perft", "go: perft needs a number"),
    ("go perft 0", "go: perft depth must be 1..20, not 0"),
    ("go perft 21", "go: perft depth must be 1..20, not 21"),
    ("go perft two", "go: perft needs an integer, not 'two'"),
    ("go", "go: only 'go perft N' is supported in this build"),
    ("go depth 5", "go: only 'go perft N' is supported in this build"),
    ("go wtime 1000 btime 1000", "go: only 'go perft N' is supported in this build"),
    ("go infinite", "go: only 'go perft N' is supported in this build"),
    ("go movetime x", "go: movetime needs an integer, not 'x'"),
    ("xyzzy 1 2", "unknown command 'xyzzy'"),
    ("Uci", "unknown command 'Uci'"),
    ("\x1b[2J", "unknown command '\\x1b[2J'"),
])
def test_errors_are_one_line_and_keep_state(driver, line, reason):
    driver.send("setoption name UCI_Variant value chess")
    driver.send("position startpos moves d2d4")
    before = snapshot(driver.session)
    lines = driver.send(line)
    assert len(lines) == 1 and lines[0].startswith(f"info string error {reason}"), lines
    check_answer(line, lines)
    assert snapshot(driver.session) == before
    assert driver.running


def test_illegal_move_keeps_previous_position_for_perft(driver):
    driver.send("setoption name UCI_Variant value grand")
    driver.send("position startpos moves e3e4")
    before = driver.send("go perft 2")
    assert driver.send("position startpos moves e3e4 e8e7 e4e7")[0].startswith(
        "info string error position: illegal move 'e4e7' (move 3")
    assert driver.send("go perft 2") == before


def test_unexpected_exception_becomes_internal_error(driver, monkeypatch, capsys):
    def broken(session, args):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setitem(uci.COMMANDS, "isready", broken)
    lines = driver.send("isready")
    assert lines == ["info string error internal: isready: RuntimeError: boom second line"]
    assert "Traceback" in capsys.readouterr().err
    assert driver.running


def test_error_lines_escape_unprintable_characters():
    out = io.StringIO()
    UciSession(out).error("bad\x00thing\u2028here")
    assert out.getvalue() == "info string error bad\\x00thing here\n"


def test_quit_stops_the_loop():
    status, lines = run_main("isready\nquit\nisready\n")
    assert status == 0 and lines == ["readyok"]


def test_eof_ends_the_loop_cleanly():
    status, lines = run_main("uci\nsetoption name UCI_Variant value hex\nposition startpos\n"
                             "go perft 2")          # no final newline, then EOF
    assert status == 0
    assert lines[3] == "uciok" and lines[-2:] == ["Nodes searched: 2586", ""]


def test_empty_input():
    assert run_main("") == (0, [])


def test_main_refuses_arguments(capsys):
    assert main(["--bogus"], stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    assert "usage" in capsys.readouterr().err


def test_each_answer_is_flushed():
    class CountingIO(io.StringIO):
        flushes = 0

        def flush(self):
            self.flushes += 1
            super().flush()

    out = CountingIO()
    main([], stdin=io.StringIO("isready\nisready\nbogus\n"), stdout=out)
    assert out.flushes >= 3
