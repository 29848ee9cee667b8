"""Chess960 through the adapters (adapters/chess960.py): the start positions, the referee
against python-chess (an implementation independent of the engine's), the engines' start
(UCI_Chess960), the PGN read back by python-chess, the terminal's castling entries, and
scripts/match --chess960 with Quantum itself."""
from __future__ import annotations

import io
import random
import subprocess
import sys

import chess
import chess.pgn
import pytest

from adapterkit import MATCH, REPO_ROOT, run_match_script
from adapters import session as session_module
from adapters.arbiter import Referee
from adapters.chess960 import (Chess960Referee, check_number, draw_numbers, number_of,
                               start_fen)
from adapters.pgn import write_pgn
from adapters.session import GameSession, IllegalAnswer
from adapters.terminal import read_move
from engine.board import Board


class Person:
    """A player the session starts with ``start_game`` (no UCI)."""

    name, id_name = "person", None

    def start_game(self, variant: str) -> None:
        self.variant = variant


class UciRecorder:
    """A UCI player that keeps every line the session sends it."""

    name, id_name = "recorder", None

    def __init__(self):
        self.sent: list[str] = []

    def send(self, line: str) -> None:
        self.sent.append(line)

    def new_game(self) -> None:
        self.sent.append("ucinewgame")


def session_from(number: int) -> GameSession:
    game = GameSession("chess", Person(), Person(), referee=Chess960Referee(number))
    game.start()
    return game


def python_chess_legal(game: GameSession) -> set[str]:
    """The legal moves by python-chess, replaying the record from its start."""
    board = chess.Board(game.rec.initial_fen, chess960=True)
    for move in game.rec.moves:
        board.push(chess.Move.from_uci(move))
    return {m.uci() for m in board.legal_moves}


def steered_move(board: chess.Board, legal: list[str], rng: random.Random) -> str:
    """A random legal move steered towards castling: a castle when one is legal, else
    mostly a move that clears the back rank without moving the king or a rook."""
    moves = [chess.Move.from_uci(m) for m in legal]
    castles = [m for m in moves if board.is_castling(m)]
    home = chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8
    clearing = [m for m in moves if chess.BB_SQUARES[m.from_square] & home
                and board.piece_type_at(m.from_square) not in (chess.KING, chess.ROOK)]
    if castles:
        return castles[0].uci()
    if clearing and rng.random() < 0.8:
        return rng.choice(clearing).uci()
    return rng.choice(moves).uci()


# -- positions -----------------------------------------------------------------------------

def test_scharnagl_numbers():
    assert start_fen(518).split()[0] == chess.STARTING_BOARD_FEN
    assert start_fen(0).startswith("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq")
    assert start_fen(959).startswith("rkrnnqbb/")
    assert all(number_of(start_fen(n)) == n for n in (0, 1, 359, 518, 959))
    assert number_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1") is None
    assert check_number("42") == 42
    for bad in (960, -1, "x", None, 3.5):
        with pytest.raises(ValueError):
            check_number(bad)


def test_drawn_positions_repeat_only_after_all_960():
    assert draw_numbers(20, seed=5) == draw_numbers(20, seed=5)
    assert draw_numbers(20, seed=5) != draw_numbers(20, seed=6)
    numbers = draw_numbers(1000, seed=1)
    assert len(set(numbers[:960])) == 960 and all(0 <= n < 960 for n in numbers)


# -- the referee against python-chess -------------------------------------------------------

@pytest.mark.parametrize("number", [0, 105, 300, 518, 777])
def test_random_games_agree_with_python_chess(number):
    """Random games (castling taken whenever it is legal): at every turn the session's
    legal moves are python-chess's and the engine core's; every move list text is
    python-chess's SAN; the PGN reads back to the same moves."""
    rng = random.Random(number)
    game = session_from(number)
    castles = 0
    while not game.over and len(game.rec.moves) < 160:
        side = game.turn
        legal = set(game.legal(side))
        assert legal == python_chess_legal(game)
        assert legal == set(game.board.legal_moves())
        judge = chess.Board(game.board.fen(), chess960=True)
        move = steered_move(judge, sorted(legal), rng)
        castles += judge.is_castling(chess.Move.from_uci(move))
        game.play(side, move)
        assert game.texts[-1][2] == judge.san(chess.Move.from_uci(move))
    if not game.over:
        game.end(0.5, "adjudication: test game")
    assert castles > 0, "no castle was ever legal: the test proves too little"
    text = write_pgn(game.rec)
    read = chess.pgn.read_game(io.StringIO(text))
    assert read.headers["Variant"] == "Chess960" and read.headers["SetUp"] == "1"
    assert read.board().chess960 and number_of(read.headers["FEN"]) == number
    assert [m.uci() for m in read.mainline_moves()] == game.rec.moves
    assert "O-O" in text
    assert "Opening" not in read.headers and "ECO" not in read.headers


def test_castles_king_takes_rook_only():
    """Position 518 with the king side cleared: ``e1h1`` castles (SAN ``O-O``), ``e1g1``
    is refused, although python-chess's lenient parser would read it as the castle."""
    game = session_from(518)
    for move in ("g1f3", "g8f6", "e2e3", "e7e6", "f1e2", "f8e7"):
        game.play(game.turn, move)
    assert "e1g1" not in game.legal(0) and "e1h1" in game.legal(0)
    with pytest.raises(IllegalAnswer):
        game.play(0, "e1g1")
    game.play(0, "e1h1")
    assert game.texts[-1][2] == "O-O"
    assert game.board.piece_at("g1") == "K" and game.board.piece_at("f1") == "R"
    assert game.position_for(1).endswith("moves g1f3 g8f6 e2e3 e7e6 f1e2 f8e7 e1h1")
    assert game.rec.start_fen.split()[2] == "HAha"        # Shredder-FEN to the engines


def test_undo_rewinds_both_boards():
    game = GameSession("chess", Person(), Person(), referee=Chess960Referee(0),
                       undo_limit=3)
    game.start()
    for move in ("g2g3", "g7g6", "f2f4"):
        game.play(game.turn, move)
    assert game.undo(0) == ["f2f4"]
    assert game.rec.moves == ["g2g3", "g7g6"]
    assert set(game.legal(0)) == python_chess_legal(game)


def test_the_rules_disagreeing_is_an_error_not_a_move():
    """Should the engine core refuse what python-chess allows, the game stops loudly."""
    referee = Chess960Referee(518)
    game = GameSession("chess", Person(), Person(), referee=referee)
    game.start()
    other = Board("chess", chess960=True)
    other.push("e2e4")                  # the core's board is now out of step
    with pytest.raises(RuntimeError, match="rules disagree"):
        referee.play(other, game.rec, "e2e4")


def test_chess960_needs_chess():
    with pytest.raises(ValueError, match="form of chess"):
        GameSession("grand", Person(), Person(), referee=Chess960Referee(0))


# -- the engines' start --------------------------------------------------------------------

def test_engines_are_told_uci_chess960_and_back():
    eng = UciRecorder()
    session_module._start(eng, "chess", chess960=True)
    session_module._start(eng, "chess", chess960=True)
    session_module._start(eng, "grand")
    assert eng.sent == ["setoption name UCI_Chess960 value true", "ucinewgame",
                        "ucinewgame",
                        "setoption name UCI_Chess960 value false",
                        "setoption name UCI_Variant value grand", "ucinewgame"]
    session_module._start(eng, "chess", chess960=True)
    assert eng.sent[-3:] == ["setoption name UCI_Variant value chess",
                             "setoption name UCI_Chess960 value true", "ucinewgame"]


def test_a_game_against_an_engine_starts_it_in_chess960():
    eng = UciRecorder()
    game = GameSession("chess", Person(), eng, referee=Chess960Referee(3))
    game.start()
    assert "setoption name UCI_Chess960 value true" in eng.sent
    assert not Referee.chess960


# -- the terminal --------------------------------------------------------------------------

def test_terminal_reads_o_o_san_and_king_takes_rook():
    game = session_from(518)
    for move in ("g1f3", "b8c6", "g2g3", "d7d6", "f1g2", "c8e6"):
        game.play(game.turn, move)
    view = game.view(0)
    assert read_move(game, view, "O-O") == ("e1h1", None)
    assert read_move(game, view, "e1h1") == ("e1h1", None)
    assert read_move(game, view, "Nh4") == ("f3h4", None)
    answer, problem = read_move(game, view, "e1g1")
    assert answer is None and "not a legal move" in problem
    game.play(0, "e1h1")
    view = game.view(1)
    assert read_move(game, view, "Qd7")[0] == "d8d7"
    game.play(1, "d8d7")
    assert read_move(game, game.view(0), "d2d4")[0] == "d2d4"
    game.play(0, "d2d4")
    assert read_move(game, game.view(1), "O-O-O") == ("e8a8", None)


# -- a match with Quantum ------------------------------------------------------------------

def test_match_script_plays_chess960_pairs(tmp_path):
    pgn = tmp_path / "games.pgn"
    out, _ = run_match_script("--chess960", "--games", "2", "--tc", "3+0.05", "--seed", "11",
                              "--option1", "Level=beginner", "--option2", "Level=beginner",
                              "--pgn", str(pgn))
    assert "(chess960, 3+0.05)" in out
    games = []
    with open(pgn, encoding="utf-8") as fh:
        while (game := chess.pgn.read_game(fh)) is not None:
            games.append(game)
    assert len(games) == 2
    expected = start_fen(draw_numbers(1, seed=11)[0])
    for game in games:
        assert game.headers["Variant"] == "Chess960"
        assert game.headers["FEN"] == expected          # one position for the pair
        assert not game.errors
        board = game.board()
        for move in game.mainline_moves():
            assert move in board.legal_moves
            board.push(move)
    assert games[0].headers["White"] == games[1].headers["Black"]


def test_match_script_refuses_chess960_outside_chess():
    proc = subprocess.run([sys.executable, str(MATCH), "--chess960", "--variant", "grand"],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=60)
    assert proc.returncode == 2 and "form of chess" in proc.stderr
