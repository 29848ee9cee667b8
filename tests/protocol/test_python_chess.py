"""python-chess drives the real process as a GUI would: ``chess.engine`` checks the
protocol (handshake, option types, info parsing) and the legality of every bestmove.

Limits are small and every call has a hang guard (the ``timeout`` SimpleEngine adds to each
command's own time limit); nothing measures speed.
"""
import sys

import pytest

from engine import __version__
from engine.smp import MAX_THREADS
from uci_helpers import REPO_ROOT

chess = pytest.importorskip("chess")
pytest.importorskip("chess.engine")

HANG_GUARD_S = 20.0


@pytest.fixture(scope="module")
def quantum():
    engine = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "engine"],
                                                 cwd=str(REPO_ROOT), timeout=HANG_GUARD_S)
    yield engine
    engine.quit()


def test_identity_and_options(quantum):
    assert quantum.id["name"] == f"Quantum {__version__}"
    options = quantum.options
    assert (options["Hash"].type, options["Hash"].default, options["Hash"].min,
            options["Hash"].max) == ("spin", 16, 1, 4096)
    assert (options["Threads"].default, options["Threads"].min, options["Threads"].max) == \
        (1, 1, MAX_THREADS)
    assert options["Level"].type == "combo" and options["Level"].default == "hard"
    assert options["Level"].var == ["beginner", "easy", "normal", "hard", "adaptive"]
    assert options["UCI_Variant"].var[:3] == ["chess", "grand", "hexagonal"]
    assert options["Ponder"].type == "check" and options["Clear Hash"].type == "button"


def test_configure(quantum):
    quantum.configure({"Hash": 32, "Level": "normal"})
    quantum.configure({"Move Overhead": 10, "UCI_Elo": 1800, "UCI_LimitStrength": False})
    with pytest.raises(chess.engine.EngineError):
        quantum.configure({"Threads": MAX_THREADS + 1})   # checked by python-chess itself
    quantum.configure({"Hash": 16, "Level": "hard"})


def test_self_play_from_the_start(quantum):
    board = chess.Board()
    for _ in range(20):
        if board.is_game_over():
            break
        result = quantum.play(board, chess.engine.Limit(time=0.05))
        assert result.move in board.legal_moves       # python-chess checked it already
        board.push(result.move)
    assert board.ply() == 20 or board.is_game_over()


def test_play_reports_a_ponder_move(quantum):
    board = chess.Board()
    board.push_uci("e2e4")
    result = quantum.play(board, chess.engine.Limit(depth=4), ponder=False)
    assert result.move in board.legal_moves
    if result.ponder is not None:
        board.push(result.move)
        assert result.ponder in board.legal_moves


def test_analyse_multipv(quantum):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    infos = quantum.analyse(board, chess.engine.Limit(depth=5), multipv=2)
    assert len(infos) == 2
    assert [info["multipv"] for info in infos] == [1, 2]
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 2 and all(move in board.legal_moves for move in firsts)
    assert all(info["depth"] == 5 for info in infos)
    assert infos[0]["score"].relative >= infos[1]["score"].relative
    assert all(isinstance(info["score"], chess.engine.PovScore) for info in infos)


def test_analyse_sees_a_mate(quantum):
    board = chess.Board("7k/8/6K1/8/8/8/8/1Q6 w - - 0 1")
    info = quantum.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].white() == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("b1b8")


def test_finished_game_has_no_move(quantum):
    board = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert board.is_checkmate()
    result = quantum.play(board, chess.engine.Limit(depth=3))
    assert result.move is None


def test_analysis_stream_can_be_stopped(quantum):
    board = chess.Board()
    with quantum.analysis(board) as analysis:       # go infinite
        for info in analysis:
            if info.get("depth", 0) >= 4 and "pv" in info:
                break
    # leaving the block sent stop and waited for the bestmove
    best = analysis.wait()
    assert best.move in board.legal_moves
