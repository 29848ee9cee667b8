"""The PGN's ``ECO`` and ``Opening`` tags (adapters/pgn.py over engine/openings.py):
standard chess and Alea games by their longest named line, none elsewhere. The expected
names are the well-known ones (ECO C60 is the Ruy Lopez, B70 the Sicilian Dragon), not
read from the table under test."""
from __future__ import annotations

import io

import chess.pgn

from adapters.arbiter import GameRecord
from adapters.chess960 import start_fen
from adapters.pgn import write_pgn
from engine.board import Board


def headers(rec: GameRecord) -> dict:
    return dict(chess.pgn.read_game(io.StringIO(write_pgn(rec))).headers)


def chess_record(moves: str, fen: str | None = None) -> GameRecord:
    board = Board("chess", fen) if fen else Board("chess")
    return GameRecord("chess", board.fen(), "W", "B", moves=moves.split(),
                      initial_fen=board.fen(), white_score=0.5, termination="draw")


def test_a_standard_game_is_named_by_its_longest_line():
    tags = headers(chess_record("e2e4 e7e5 g1f3 b8c6 f1b5"))
    assert tags["ECO"] == "C60" and tags["Opening"].startswith("Ruy Lopez")
    dragon = "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 g7g6"
    tags = headers(chess_record(dragon))
    assert tags["ECO"] == "B70" and "Dragon" in tags["Opening"]
    # Out of the named lines, the game keeps the deepest name it reached.
    assert headers(chess_record(dragon + " a2a3 a7a6"))["Opening"] == tags["Opening"]
    shallow = headers(chess_record("e2e4 c7c5"))
    assert shallow["ECO"] == "B20" and shallow["Opening"] == "Sicilian Defense"


def test_no_name_where_no_position_is_named():
    tags = headers(chess_record("e2e4 e8d8", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))
    assert "Opening" not in tags and "ECO" not in tags
    grand = Board("grand")
    rec = GameRecord("grand", grand.fen(), "W", "B", initial_fen=grand.fen(),
                     moves=["e3e5"], white_score=0.5, termination="draw")
    assert "Opening" not in headers(rec)


def test_chess960_games_are_not_named():
    fen = Board("chess", start_fen(518), chess960=True).fen()
    rec = GameRecord("chess", fen, "W", "B", moves="e2e4 e7e5 g1f3 b8c6 f1b5".split(),
                     initial_fen=fen, white_score=0.5, termination="draw", chess960=True)
    tags = headers(rec)
    assert tags["Variant"] == "Chess960" and "Opening" not in tags


def test_an_alea_game_is_named_by_its_board_moves():
    rec = GameRecord("alea", "", "W", "B", white_score=0.5, termination="draw",
                     moves=["e2e4", "e7e5", "g1f3", "b8c6", "joker:f1b5"])
    text = write_pgn(rec)
    assert '[Variant "Alea"]' in text
    assert '[ECO "C60"]' in text and '[Opening "Ruy Lopez' in text
