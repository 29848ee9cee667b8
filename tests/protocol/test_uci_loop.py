"""The UCI loop in-process: StringIO in, StringIO out, no subprocess.

Searches run in the engine's worker thread; ``Driver.go`` waits for their bestmove (or
sends ``stop`` first). Every wait has a hang guard, and nothing here measures speed.
"""
import io
import re
import threading

import pytest

from engine import __version__
from engine.smp import MAX_THREADS
from engine.board import Board
from engine.eval_tables import stalemate_cp
from engine.variant import variant_names
from protocol import uci
from protocol.uci import UciSession, main
from uci_helpers import (BENCH_STOPPED_RE, BESTMOVE_RE, CHECKMATED, HANDSHAKE_OPTIONS, INFO_RE,
                         PERFT_STOPPED_RE, REPO_ROOT, SEARCH_GUARD_S, STALEMATE, Driver,
                         check_answer, check_perft_report, check_search_output,
                         check_stopped_perft_report, is_error, is_worker_line, snapshot,
                         start_perft)

MATE_IN_ONE = "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"      # b1b8 mates, nothing else does



@pytest.fixture
def driver():
    return Driver()


def run_main(text: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = main([], stdin=io.StringIO(text), stdout=out)
    return status, out.getvalue().split("\n")[:-1]


def legal(driver) -> list[str]:
    return driver.session.engine.board.legal_moves()


def infos(lines: list[str]) -> list[tuple[int, int, list[str]]]:
    """(depth, multipv, pv) of each iteration report among ``lines``."""
    found = []
    for line in lines:
        if INFO_RE.fullmatch(line):
            words = line.split()
            pv = words[words.index("pv") + 1:] if "pv" in words else []
            found.append((int(words[2]), int(words[words.index("multipv") + 1]), pv))
    return found


def bestmoves(lines: list[str]) -> list[str]:
    return [line for line in lines if BESTMOVE_RE.fullmatch(line)]


def send_guarded(driver, line: str) -> list[str]:
    """``driver.send`` in a helper thread, so that a deadlocked handler fails the test
    instead of hanging the suite."""
    result = []
    thread = threading.Thread(target=lambda: result.append(driver.send(line)), daemon=True)
    thread.start()
    thread.join(SEARCH_GUARD_S)
    assert result, f"{line!r} did not return (deadlock)"
    return result[0]


def test_uci_handshake(driver):
    lines = driver.send("uci")
    assert lines == [f"id name Quantum {__version__}", "id author Quantum team", *HANDSHAKE_OPTIONS,
                     "uciok"]
    check_answer("uci", lines)


def test_isready(driver):
    assert driver.send("isready") == ["readyok"]


@pytest.mark.parametrize("line", ["debug on", "debug off", "register later",
                                  "register name Quantum code 1"])
def test_debug_and_register_are_accepted_silently(driver, line):
    """2006 spec commands: cutechess-cli sends `debug on` under -debug."""
    assert driver.send(line) == []
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
    lines = driver.go(f"go perft {depth}")
    assert check_perft_report(lines) == start_perft(variant, depth)
    assert lines[-2:] == [f"Nodes searched: {start_perft(variant, depth)}", ""]


def test_position_with_moves_then_perft(driver):
    driver.send("position startpos moves e2e4 e7e5")
    lines = driver.go("go perft 1")
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
    ("setoption name Hashes value 16", "setoption: unknown option 'Hashes'"),
    ("setoption name Hash value 0", "setoption: option 'Hash' must be 1..4096, not 0"),
    ("setoption name Hash value 4097", "setoption: option 'Hash' must be 1..4096, not 4097"),
    ("setoption name Hash value big", "setoption: option 'Hash' needs an integer, not 'big'"),
    ("setoption name Hash", "setoption: option 'Hash' needs a value"),
    ("setoption name Clear Hash value now", "setoption: option 'Clear Hash' is a button"),
    (f"setoption name Threads value {MAX_THREADS + 1}",
     f"setoption: option 'Threads' must be 1..{MAX_THREADS}, not {MAX_THREADS + 1}"),
    ("setoption name Threads value 0", f"setoption: option 'Threads' must be 1..{MAX_THREADS}"),
    ("setoption name MultiPV value 0", "setoption: option 'MultiPV' must be 1..64, not 0"),
    ("setoption name MultiPV value 65", "setoption: option 'MultiPV' must be 1..64"),
    ("setoption name Move Overhead value -1",
     "setoption: option 'Move Overhead' must be 0..5000, not -1"),
    ("setoption name Ponder value yes", "setoption: option 'Ponder' takes true or false"),
    ("setoption name UCI_LimitStrength value 1",
     "setoption: option 'UCI_LimitStrength' takes true or false"),
    ("setoption name UCI_Elo value 799", "setoption: option 'UCI_Elo' must be 800..2800"),
    ("setoption name UCI_Elo value 2801", "setoption: option 'UCI_Elo' must be 800..2800"),
    ("setoption name Level value expert",
     "setoption: option 'Level' takes one of beginner, easy, normal, hard, adaptive, "
     "not 'expert'"),
    ("setoption name UCI_Variant", "setoption: option 'UCI_Variant' needs a value"),
    ("setoption", "setoption: expected 'name <option> [value <value>]'"),
    ("go perft", "go: perft needs a number"),
    ("go perft 0", "go: perft depth must be 1..20, not 0"),
    ("go perft 21", "go: perft depth must be 1..20, not 21"),
    ("go perft two", "go: perft needs an integer, not 'two'"),
    ("go depth", "go: depth needs a number"),
    ("go depth 3 fast", "go: unknown token 'fast'"),
    ("go wtime 1000 btime 1k", "go: btime needs an integer, not '1k'"),
    ("go movetime x", "go: movetime needs an integer, not 'x'"),
    ("go nodes 1.5", "go: nodes needs an integer, not '1.5'"),
    ("go depth 2 searchmoves e2e4", "go: searchmoves: illegal move 'e2e4'"),
    ("go searchmoves d7d5 e2e4 depth 2", "go: searchmoves: illegal move 'e2e4'"),
    ("go searchmoves zz", "go: searchmoves: illegal move 'zz'"),
    ("debug", "debug: expected 'debug on' or 'debug off'"),
    ("debug maybe", "debug: expected 'debug on' or 'debug off'"),
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
    assert not driver.session.engine.searching          # a refused `go` starts nothing


def test_illegal_move_keeps_previous_position_for_perft(driver):
    driver.send("setoption name UCI_Variant value grand")
    driver.send("position startpos moves e3e4")
    before = driver.go("go perft 2")
    assert driver.send("position startpos moves e3e4 e8e7 e4e7")[0].startswith(
        "info string error position: illegal move 'e4e7' (move 3")
    assert driver.go("go perft 2") == before


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
    assert lines[len(HANDSHAKE_OPTIONS) + 2] == "uciok"
    assert lines[-2:] == ["Nodes searched: 2586", ""]


def test_eof_lets_a_bounded_search_report():
    status, lines = run_main("position startpos moves e2e4\ngo depth 3")
    assert status == 0
    board = Board("chess")
    board.push("e2e4")
    check_search_output(lines, board.legal_moves())


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


# -- options -------------------------------------------------------------------------------
def test_setoption_of_each_option_changes_the_engine(driver):
    engine = driver.session.engine
    for line in ["setoption name Hash value 32", "setoption name Clear Hash",
                 "setoption name Threads value 1", "setoption name MultiPV value 3",
                 "setoption name Move Overhead value 100", "setoption name Ponder value true",
                 "setoption name OwnBook value true", "setoption name BookFile value <empty>",
                 "setoption name Use NNUE value false", "setoption name EvalFile value <empty>",
                 "setoption name UCI_Variant value grand",
                 "setoption name UCI_Chess960 value true",
                 "setoption name UCI_LimitStrength value true",
                 "setoption name UCI_Elo value 2000", "setoption name level value Normal"]:
        assert driver.send(line) == [], line
    assert engine.multipv == 3 and engine.move_overhead_ms == 100 and engine.own_book
    assert engine.use_nnue is False
    assert engine.variant == "grand" and engine.chess960 is True
    assert engine.limit_strength is True and engine.elo == 2000 and engine.level == "normal"
    assert driver.session.options.values() == {
        "Hash": 32, "Clear Hash": None, "Threads": 1, "MultiPV": 3, "Move Overhead": 100,
        "Ponder": True, "OwnBook": True, "BookFile": "", "Use NNUE": False, "EvalFile": "",
        "UCI_Variant": "grand",
        "UCI_Chess960": True,
        "UCI_LimitStrength": True, "UCI_Elo": 2000,
        "Level": "normal", "UCI_Opponent": "", "Adaptive Profile": "",
        "Reset Adaptive Profile": None}


def search_nodes(driver, line: str) -> list[str]:
    """The ``nodes N`` of each iteration of a search that runs to its end."""
    lines = driver.go(line)
    check_search_output(lines, legal(driver))
    return [w for info in lines if INFO_RE.fullmatch(info)
            for w in [info.split(" nodes ")[1].split()[0]]]


def test_clear_hash_ucinewgame_and_hash_empty_the_table(driver):
    """A fixed-depth search is deterministic given the hash table, so an emptied table
    shows as the node counts of a fresh engine again."""
    driver.send("position startpos moves e2e4")
    fresh = search_nodes(driver, "go depth 7")
    warm = search_nodes(driver, "go depth 7")
    assert warm != fresh                                # the table did help the second time
    assert driver.send("setoption name Clear Hash") == []
    assert search_nodes(driver, "go depth 7") == fresh
    search_nodes(driver, "go depth 7")
    assert driver.send("ucinewgame") == [] and driver.send("position startpos moves e2e4") == []
    assert search_nodes(driver, "go depth 7") == fresh
    search_nodes(driver, "go depth 7")
    assert driver.send("setoption name Hash value 16") == []      # a resize empties it too
    assert search_nodes(driver, "go depth 7") == fresh

    # a 1 MB table after a search behaves as a fresh engine's 1 MB table
    used, fresh_small = Driver(), Driver()
    for driver_ in (used, fresh_small):
        driver_.send("position startpos moves e2e4")
    search_nodes(used, "go depth 7")
    used.send("setoption name Hash value 1")
    fresh_small.send("setoption name Hash value 1")
    assert search_nodes(used, "go depth 7") == search_nodes(fresh_small, "go depth 7")


# -- searching -----------------------------------------------------------------------------
def test_go_depth_reports_every_iteration_and_a_legal_bestmove(driver):
    driver.send("position startpos moves e2e4 e7e5")
    lines = driver.go("go depth 5")
    best, ponder = check_search_output(lines, legal(driver))
    reports = infos(lines)
    assert [d for d, _, _ in reports if d] == sorted(d for d, _, _ in reports)
    assert {d for d, _, _ in reports} == {1, 2, 3, 4, 5}
    assert all(multipv == 1 for _, multipv, _ in reports)
    last_pv = reports[-1][2]
    assert best == last_pv[0] and ponder == (last_pv[1] if len(last_pv) > 1 else None)
    board = Board("chess", driver.session.engine.board.fen())
    board.push(best)
    assert ponder is None or ponder in board.legal_moves()


@pytest.mark.parametrize("variant", variant_names())
def test_go_depth_in_every_variant(driver, variant):
    driver.send(f"setoption name UCI_Variant value {variant}")
    driver.send("position startpos")
    best, ponder = check_search_output(driver.go("go depth 3"), legal(driver))
    board = Board(variant)
    board.push(best)
    assert ponder is None or ponder in board.legal_moves()


@pytest.mark.parametrize("line", ["go wtime 2000 btime 2000 winc 20 binc 20",
                                  "go wtime 500 btime 500 movestogo 5", "go movetime 50",
                                  "go nodes 3000", "go btime 1 wtime 1", "go"])
def test_bounded_searches_end_by_themselves(driver, line):
    driver.send("position startpos moves d2d4")
    check_search_output(driver.go(line), legal(driver))


def test_searchmoves_restrict_the_root(driver):
    driver.send("position startpos")
    lines = driver.go("go depth 4 searchmoves a2a3 H2H3")
    best, _ = check_search_output(lines, legal(driver), ["a2a3", "h2h3"])
    assert best in ("a2a3", "h2h3") and {pv[0] for _, _, pv in infos(lines)} <= {"a2a3", "h2h3"}


def test_multipv_reports_distinct_lines_best_first(driver):
    driver.send("setoption name MultiPV value 3")
    driver.send("position startpos")
    lines = driver.go("go depth 4")
    best, _ = check_search_output(lines, legal(driver))
    for depth in range(1, 5):
        final = [line for line in lines if line.startswith(f"info depth {depth} ")
                 and " upperbound " not in line and " lowerbound " not in line]
        assert [info[1] for info in infos(final)][-3:] == [1, 2, 3], final
        last = final[-3:]
        assert len({info[2][0] for info in infos(last)}) == 3
        scores = [int(line.split(" score cp ")[1].split()[0]) for line in last]
        assert scores == sorted(scores, reverse=True)
    assert best == infos(lines)[-3][2][0]


def test_multipv_is_capped_by_the_legal_moves(driver):
    driver.send("setoption name MultiPV value 5")
    driver.send("position fen 7k/8/8/8/8/8/7P/7K w - - 0 1")
    assert sorted(legal(driver)) == ["h1g1", "h1g2", "h2h3", "h2h4"]
    lines = driver.go("go depth 2")
    check_search_output(lines, legal(driver))
    assert {multipv for _, multipv, _ in infos(lines)} == {1, 2, 3, 4}


def test_go_mate_finds_the_mate_and_ends(driver):
    driver.send(f"position fen {MATE_IN_ONE}")
    lines = driver.go("go mate 1")
    assert check_search_output(lines, legal(driver)) == ("b1b8", None)
    assert " score mate 1 " in lines[-2]


@pytest.mark.parametrize("fen, score", [(CHECKMATED, "mate 0"), (STALEMATE, "cp 0")])
@pytest.mark.parametrize("go", ["go depth 3", "go wtime 1000 btime 1000", "go"])
def test_game_over_answers_depth_0_and_bestmove_none(driver, fen, score, go):
    assert driver.send(f"position fen {fen}") == []
    assert driver.go(go) == [f"info depth 0 score {score}", "bestmove (none)"]


# Hexagonal: Black (king f11, blocked pawn stacks) has no move and is not in check; one
# step earlier, with the white king on f8, Kf8-f9 stalemates it (tests/search/test_hex_stalemate.py).
HEX_STALEMATED = "k/3/2K2/7/9/11/11/11/1p7p1/1p7p1/1P7P1 b - 0 1"
HEX_STALEMATING = "k/3/5/3K3/9/11/11/11/1p7p1/1p7p1/1P7P1 w - 0 1"


def documented_hex_stalemate_cp() -> int:
    """The score docs/protocol.md (*Finished games*) says a stalemated hexagonal side
    reports."""
    text = " ".join((REPO_ROOT / "docs" / "protocol.md").read_text().split())
    match = re.search(r"the stalemated side reports `score cp (-?[0-9]+)`", text)
    assert match, "docs/protocol.md does not state the hexagonal stalemate score"
    return int(match.group(1))


def test_hex_stalemate_is_reported_as_documented(driver):
    """Issue 13: the docs said cp +-100, the engine -191. The documented value is the one
    the search means (stalemate_cp(3/4): 1/4 as a logistic score), and both the stalemated
    root and the stalemating move are reported with it."""
    cp = documented_hex_stalemate_cp()
    assert cp == stalemate_cp(0.75)
    driver.send("setoption name UCI_Variant value hexagonal")
    driver.send(f"position fen {HEX_STALEMATED}")
    assert driver.go("go depth 3") == [f"info depth 0 score cp {cp}", "bestmove (none)"]
    driver.send(f"position fen {HEX_STALEMATING}")
    lines = driver.go("go depth 3 searchmoves f8f9")
    assert lines[-1] == "bestmove f8f9"
    assert f" score cp {-cp} " in lines[-2] and lines[-2].startswith("info depth 3 ")


@pytest.mark.parametrize("fen, score", [(CHECKMATED, "mate 0"), (STALEMATE, "cp 0")])
@pytest.mark.parametrize("go, release", [("go infinite", "stop"), ("go ponder", "ponderhit"),
                                         ("go ponder wtime 100 btime 100", "stop")])
def test_game_over_bestmove_waits_for_stop_or_ponderhit(driver, fen, score, go, release):
    driver.send(f"position fen {fen}")
    lines = driver.send(go)
    driver.session.engine.wait(0.2)
    assert driver.session.engine.searching              # waits for the GUI, as UCI says
    assert "bestmove (none)" not in lines + driver.send("isready")
    driver.send(release)
    assert lines + driver.settle(stop=False) == [f"info depth 0 score {score}",
                                                 "bestmove (none)"]


def test_go_infinite_answers_isready_and_ends_only_on_stop(driver):
    driver.send("position startpos")
    lines = driver.send("go infinite")
    lines += driver.send("isready")
    assert "readyok" in lines
    driver.session.engine.wait(0.2)
    assert driver.session.engine.searching
    assert not bestmoves(lines + driver.send("isready"))
    lines += driver.settle()                            # stop
    check_search_output([x for x in lines if x != "readyok"], legal(driver))
    assert driver.send("stop") == [] and driver.send("ponderhit") == []  # nothing to end now


def test_stop_right_after_go_is_never_lost(driver):
    driver.send("position startpos")
    for _ in range(50):
        lines = driver.go("go infinite", stop=True)
        check_search_output(lines, legal(driver))


def test_ponderhit_switches_to_the_real_clock(driver):
    driver.send("position startpos moves e2e4 e7e5")
    lines = driver.send("go ponder wtime 1000 btime 1000 winc 10 binc 10")
    driver.session.engine.wait(0.2)
    assert driver.session.engine.searching              # pondering never ends by itself
    assert not bestmoves(lines + driver.send("isready"))
    driver.send("ponderhit")
    lines = lines + driver.settle(stop=False)           # now the clock ends it
    check_search_output([x for x in lines if x != "readyok"], legal(driver))


def test_ponderhit_right_after_go_ponder_is_never_lost(driver):
    driver.send("position startpos")
    for _ in range(20):
        driver.send("go ponder movetime 10")
        driver.send("ponderhit")
        check_search_output(driver.settle(stop=False), legal(driver))


def test_go_ponder_then_stop(driver):
    driver.send("position startpos moves g1f3")
    lines = driver.go("go ponder wtime 60000 btime 60000", stop=True)
    check_search_output(lines, legal(driver))


def test_a_new_go_ends_the_running_search_first(driver):
    driver.send("position startpos")
    lines = driver.send("go infinite")
    lines += driver.go("go depth 2")
    first = lines.index(bestmoves(lines)[0]) + 1
    check_search_output(lines[:first], legal(driver))
    check_search_output(lines[first:], legal(driver))
    assert infos(lines[first:])[-1][0] == 2


# What the worker thread runs, started from the start position so that none ends by
# itself within any test (perft 7 of chess is 3.2 billion leaves, bench 64 never ends).
JOBS = ["go infinite", "go perft 7", "bench 64"]


def job_report_end(job: str, lines: list[str], legal_moves: list[str]) -> int:
    """Check the report a stopped ``job`` printed at the start of ``lines`` (a search's
    output up to its bestmove, a perft's or bench's stopped report); its length."""
    if job.startswith("go infinite"):
        end = lines.index(bestmoves(lines)[0]) + 1
        check_search_output(lines[:end], legal_moves)
    elif job.startswith("go perft"):
        end = next(i for i, x in enumerate(lines) if PERFT_STOPPED_RE.fullmatch(x)) + 1
        check_stopped_perft_report(lines[:end])
    else:
        end = next(i for i, x in enumerate(lines) if BENCH_STOPPED_RE.fullmatch(x)) + 1
        assert all(is_worker_line(x) for x in lines[:end]), lines
    return end


@pytest.mark.parametrize("job", JOBS[1:])
def test_perft_and_bench_answer_isready_and_stop_at_once(driver, job):
    """Issue 13: `go perft 7` and `bench` ran on the protocol thread, so `isready` and
    `stop` waited for them. They run in the worker thread like a search: `isready` is
    answered while they run, and `stop` ends them with a report that says so."""
    driver.send("position startpos")
    lines = send_guarded(driver, job)
    answer = send_guarded(driver, "isready")
    assert [x for x in answer if not is_worker_line(x)] == ["readyok"]
    assert driver.session.engine.searching
    lines += [x for x in answer if x != "readyok"] + driver.settle()        # stop
    assert job_report_end(job, lines, legal(driver)) == len(lines)
    assert driver.send("stop") == []                    # nothing left to end


@pytest.mark.parametrize("job", JOBS)
@pytest.mark.parametrize("line", [
    "setoption name Hash value 8", "setoption name Clear Hash",
    "setoption name UCI_Variant value hexagonal", "ucinewgame", "position startpos moves e2e4",
    "go perft 2", "go depth 1", "bench 1"])
def test_state_changes_during_a_job_stop_it_first(driver, job, line):
    """A search reads the table and the position: these commands end it (with its
    bestmove) and then act; none of them may wait for an infinite search (deadlock). A
    perft or bench is ended the same way (its stopped report first)."""
    driver.send("position startpos")
    legal_before = legal(driver)
    lines = driver.send(job)
    lines += send_guarded(driver, line)
    lines += driver.settle(stop=False)              # what `line` started, to its end
    end = job_report_end(job, lines, legal_before)
    if line.startswith("go depth"):
        check_search_output(lines[end:], legal(driver))
    elif line.startswith("bench"):
        assert lines[-3].startswith("Total time")
        assert all(is_worker_line(x) or x == "" for x in lines[end:])
    else:
        check_answer(line, lines[end:])
    assert check_search_output(driver.go("go depth 2"), legal(driver))[0] is not None


@pytest.mark.parametrize("line, refused", [
    ("isready", False), ("uci", False), ("d", False), ("ponderhit", False),
    ("setoption name MultiPV value 2", False), ("setoption name Level value easy", False),
    ("setoption name UCI_Elo value 900", False), ("setoption name Ponder value true", False),
    ("setoption name Move Overhead value 10", False),
    # refused lines change nothing, the search included
    ("bogus", True), ("go perft 0", True), ("go depth 2 searchmoves zz", True),
    ("position startpos moves e2e5", True), ("setoption name UCI_Variant value shogi", True),
    ("setoption name Hash value 0", True), ("setoption name Clear Hash value 1", True),
    ("bench x", True)])
@pytest.mark.parametrize("job", JOBS)
def test_other_commands_during_a_job_leave_it_running(driver, job, line, refused):
    driver.send("position startpos")
    lines = driver.send(job)
    answer = send_guarded(driver, line)
    own = [x for x in answer if not is_worker_line(x)]
    assert is_error(own) == refused, own
    check_answer(line, own)
    assert driver.session.engine.searching
    lines += [x for x in answer if is_worker_line(x)] + driver.settle()
    assert job_report_end(job, lines, legal(driver)) == len(lines)


FOG_VIEW = "rnbqkbnr/pppppppp/8/8/********/********/********/******** b KQkq - 0 1"
IN_CHESS = ["position startpos"]
IN_ALEA = ["setoption name UCI_Variant value alea", "position alea startpos"]
IN_FOG = ["setoption name UCI_Variant value fogofwar", f"position fog view {FOG_VIEW}"]


@pytest.mark.parametrize("setup, line", [
    (IN_ALEA, "go perft 1"), (IN_FOG, "go perft 1"),
    (IN_ALEA, "position startpos"), (IN_ALEA, "position alea startpos moves e2e5"),
    (IN_ALEA, "position fog view x"), (IN_ALEA, "guide review e2e5"),
    (IN_ALEA, "draw accept"), (IN_ALEA, "go depth 2 searchmoves e2e5"),
    (IN_FOG, "position fog view x"), (IN_FOG, "position alea startpos"),
    (IN_FOG, "draw offer"), (IN_FOG, "go depth 1 guide"),
    (IN_CHESS, "go perft 21"), (IN_CHESS, "go depth 1 guide"), (IN_CHESS, "draw offer"),
    (IN_CHESS, "guide review e2e4"), (IN_CHESS, "position fog view x"),
    (IN_CHESS, "position alea startpos"), (IN_CHESS, "learn result 1-0 moves e2e5"),
    (IN_CHESS, "bench 0"), (IN_CHESS, "setoption name Level value expert")])
def test_a_refused_line_leaves_the_running_search_alone(driver, setup, line):
    """Issue 13: a refused `go perft` (in Alea, after `position fog`) stopped the running
    search. Every handler validates before it stops anything: one error line, no
    bestmove, and the search runs on until `stop`."""
    for command in setup:
        assert driver.send(command) == []
    lines = driver.send("go infinite")
    answer = send_guarded(driver, line)
    own = [x for x in answer if not is_worker_line(x)]
    assert len(own) == 1 and is_error(own), own
    assert not bestmoves(answer) and driver.session.engine.searching
    lines += answer + driver.settle()
    assert len(bestmoves(lines)) == 1


@pytest.mark.parametrize("job", JOBS)
def test_quit_during_a_job_ends_it(driver, job):
    driver.send("position startpos")
    lines = driver.send(job)
    lines += send_guarded(driver, "quit")
    assert not driver.running
    lines += driver.settle(stop=False)
    assert job_report_end(job, lines, legal(driver)) == len(lines)


# -- strength ------------------------------------------------------------------------------
@pytest.mark.parametrize("level, max_depth, max_lines", [
    ("beginner", 2, 8), ("easy", 3, 5), ("normal", 6, 3), ("hard", 8, 1)])
def test_level_limits_depth_and_searches_lines_to_choose_from(driver, level, max_depth,
                                                             max_lines):
    """`go depth 8` at each Level: the weaker levels stop at their own depth (sooner if
    their node budget runs out) and choose among their best lines; hard goes all the way
    with one line."""
    driver.send(f"setoption name Level value {level}")
    driver.send("position startpos")
    lines = driver.go("go depth 8")
    best, _ = check_search_output(lines, legal(driver))
    reports = infos(lines)
    reached = max(d for d, _, _ in reports)
    assert 1 <= reached <= max_depth and (level != "hard" or reached == 8)
    assert {m for d, m, _ in reports if d == 1} == set(range(1, max_lines + 1))
    final = [pv[0] for d, _, pv in reports if d == reached][-max_lines:]
    assert best in final


def test_limit_strength_and_elo_override_level(driver):
    driver.send("setoption name Level value beginner")
    driver.send("setoption name UCI_LimitStrength value true")
    driver.send("setoption name UCI_Elo value 2800")
    driver.send("position startpos")
    reports = infos(driver.go("go depth 5"))
    assert max(d for d, _, _ in reports) == 5 and {m for _, m, _ in reports} == {1}
    driver.send("setoption name UCI_Elo value 800")
    driver.send("setoption name Level value hard")
    reports = infos(driver.go("go depth 5"))
    assert max(d for d, _, _ in reports) <= 2 and max(m for _, m, _ in reports) > 1
    driver.send("setoption name UCI_LimitStrength value false")    # Elo ignored again
    reports = infos(driver.go("go depth 5"))
    assert max(d for d, _, _ in reports) == 5 and {m for _, m, _ in reports} == {1}


def test_bench_prints_stockfish_summary_and_a_stable_signature():
    """`bench N` ends with Stockfish's three lines; the node count is deterministic, so it
    is the same on a second run (and the same as `quantum bench N` prints)."""
    counts = []
    for _ in range(2):                  # each to the end of input, which lets it finish
        code, lines = run_main("bench 3\n")
        assert code == 0
        counts += [int(line.split(":")[1]) for line in lines
                   if line.startswith("Nodes searched")]
        assert sum(line.startswith("Total time (ms) : ") for line in lines) == 1
        assert sum(line.startswith("Nodes/second    : ") for line in lines) == 1
    assert len(counts) == 2 and counts[0] == counts[1] > 0
    code, lines = run_main("bench 0\nquit\n")
    assert lines == ["info string error bench: bench depth must be 1..64, not 0"]
