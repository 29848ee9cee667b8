"""write_pgn: standard chess as SAN that python-chess reads back, Grand and hexagonal as
coordinate movetext with the project's result strings, SetUp/FEN exactly when the game
did not begin at the variant's start position, a crashed engine's stderr as a comment,
each engine move's score, depth and time as a comment; open_to_append keeps the games
already in a file."""
from __future__ import annotations

import io
import random
import re
import sys

import chess
import chess.pgn
import pytest

from adapterkit import fake_argv, replay
from adapters import pgn, session
from adapters.arbiter import GameRecord, TimeControl
from adapters.openings import openings_for
from adapters.pgn import write_pgn
from adapters.session import play_game
from adapters.uci_engine import UciEngine
from engine.board import Board

TC = TimeControl(2.0, 0.05)


def tags(text: str) -> dict:
    return dict(re.findall(r'^\[(\w+) "(.*)"\]$', text, re.M))


def movetext(text: str) -> str:
    return text.split("\n\n", 1)[1].strip()


def random_record(variant, plies, seed, fen=None, **kw) -> GameRecord:
    board = Board(variant, fen) if fen else Board(variant)
    rng = random.Random(seed)
    moves = []
    for _ in range(plies):
        move = rng.choice(board.legal_moves())
        board.push(move)
        moves.append(move)
    return GameRecord(variant, fen and Board(variant, fen).fen() or Board(variant).fen(),
                      "W", "B", moves=moves, **kw)


def read_back(text: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors, game and game.errors
    return game


def test_chess_game_reads_back_in_python_chess(spawn):
    opening = openings_for("chess")[0]
    rec = play_game(spawn("good", 31), spawn("good", 32), "chess", TC, opening=opening)
    text = write_pgn(rec, TC.pgn(), round_no=3)
    game = read_back(text)
    assert [m.uci() for m in game.mainline_moves()] == rec.moves
    assert game.headers["Result"] == rec.result != "*"
    assert game.headers["Variant"] == "Standard"
    assert game.headers["TimeControl"] == "2+0.05"
    assert game.headers["Termination"] == rec.termination
    assert game.headers["Round"] == "3"
    assert game.headers["PlyCount"] == str(len(rec.moves))
    assert game.headers["White"] == rec.white and game.headers["Black"] == rec.black
    assert "SetUp" not in game.headers and "FEN" not in game.headers
    # The final position agrees with Quantum's own replay of the record.
    assert game.end().board().board_fen() == replay(rec).fen().split()[0]
    assert movetext(text).startswith("1. e4 e5 2. Nf3 Nc6")


def test_chess_fault_record_reads_back(spawn):
    rec = play_game(spawn("good", 1), spawn("illegal", 2), "chess", TC)
    game = read_back(write_pgn(rec, TC.pgn()))
    assert game.headers["Result"] == "1-0"
    assert "illegal move" in game.headers["Termination"]
    assert [m.uci() for m in game.mainline_moves()] == rec.moves


def test_chess_promotions_and_castling_are_san():
    fen = "r3k3/6P1/8/8/8/8/8/4K2R w Kq - 0 1"
    rec = GameRecord("chess", Board("chess", fen).fen(), "W", "B",
                     moves=["e1g1", "e8c8", "g7g8q"], white_score=0.5, termination="x")
    replay(rec, fen)
    text = write_pgn(rec)
    assert movetext(text) == "1. O-O O-O-O 2. g8=Q 1/2-1/2"
    game = read_back(text)
    assert [m.uci() for m in game.mainline_moves()] == rec.moves


def test_hex_record_coordinate_movetext_and_three_quarter_result():
    rec = random_record("hexagonal", 7, 5, white_score=0.75, termination="stalemate")
    assert rec.result == "3/4-1/4"
    text = write_pgn(rec, "2+0.05")
    t = tags(text)
    assert t["Result"] == "3/4-1/4" and t["Variant"] == "Glinski"
    assert t["Termination"] == "stalemate" and t["TimeControl"] == "2+0.05"
    assert "SetUp" not in t and "FEN" not in t
    m = rec.moves
    assert movetext(text) == (f"1. {m[0]} {m[1]} 2. {m[2]} {m[3]} 3. {m[4]} {m[5]} "
                              f"4. {m[6]} 3/4-1/4")
    assert GameRecord("hexagonal", "", "W", "B", white_score=0.25).result == "1/4-3/4"


def test_grand_record_coordinate_movetext_with_two_digit_ranks():
    rec = GameRecord("grand", Board("grand").fen(), "W", "B",
                     moves=list(openings_for("grand")[0]), white_score=0.5, termination="x")
    text = write_pgn(rec)
    assert tags(text)["Variant"] == "Grand"
    assert movetext(text) == "1. e3e5 e8e6 1/2-1/2"


def test_grand_promotions_to_chancellor_and_archbishop_read_back():
    """coordinate_games (what the measuring scripts read) keeps Grand's promotions to a
    chancellor (c) and an archbishop (a); it dropped them, and every later move of the
    game then read as illegal."""
    fen = "10/4P5/k9/10/10/10/10/10/4p5/9K w - - 0 1"
    rec = GameRecord("grand", fen, "W", "B", moves=["e9e10c", "e2e1a", "j1i2"],
                     white_score=0.5, termination="x")
    assert list(pgn.coordinate_games(write_pgn(rec))) == [(1, "1/2-1/2", rec.moves)]


def test_game_from_custom_fen_has_setup_and_fen(spawn, monkeypatch):
    monkeypatch.setattr(session, "MAX_PLIES", 40)
    fen = "4k3/pppp4/8/8/8/8/PPPP4/4K2R b K - 0 12"
    rec = play_game(spawn("good", 41), spawn("good", 42), "chess", TC, start_fen=fen)
    assert rec.moves
    text = write_pgn(rec)
    t = tags(text)
    assert t["SetUp"] == "1" and t["FEN"] == Board("chess", fen).fen()
    assert movetext(text).startswith("12... ")
    game = read_back(text)
    assert game.board().fen() == chess.Board(fen).fen()
    assert [m.uci() for m in game.mainline_moves()] == rec.moves


@pytest.mark.parametrize("variant, fen", [
    ("chess", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"),
    ("hexagonal", "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKN1P1 w - 0 1"),
])
def test_custom_fen_without_moves_has_setup_and_fen(variant, fen):
    rec = GameRecord(variant, Board(variant, fen).fen(), "W", "B", white_score=1.0,
                     termination="fake crashed: fake exited", crashed=1)
    t = tags(write_pgn(rec))
    assert t["SetUp"] == "1" and t["FEN"] == Board(variant, fen).fen()
    assert t["PlyCount"] == "0"


def test_custom_fen_whose_moves_also_fit_the_start_position():
    # The standard start without White's a1 rook: e4 e5 is legal from both positions,
    # so only the recorded start tells them apart.
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1"
    rec = GameRecord("chess", Board("chess", fen).fen(), "W", "B", moves=["e2e4", "e7e5"],
                     white_score=0.5, termination="x")
    text = write_pgn(rec)
    assert tags(text)["FEN"] == Board("chess", fen).fen()
    game = read_back(text)
    assert game.end().board().piece_at(chess.A1) is None


@pytest.mark.parametrize("variant", ["chess", "grand", "hexagonal"])
def test_start_position_after_book_opening_has_no_setup(variant):
    opening = openings_for(variant)[2]
    board = Board(variant)
    for move in opening:
        board.push(move)
    rec = GameRecord(variant, board.fen(), "W", "B", moves=list(opening) + [
        random.Random(1).choice(board.legal_moves())], white_score=0.5, termination="x",
        initial_fen=Board(variant).fen())
    t = tags(write_pgn(rec))
    assert "SetUp" not in t and "FEN" not in t


def test_coordinate_movetext_numbers_from_the_start_fen():
    """A hex game that starts with Black to move at move 7 numbers its moves from there."""
    board = Board("hexagonal")
    for move in ("f5f6", "e7e6"):
        board.push(move)
    board.push("g4g5")
    fen = board.fen()
    reply = sorted(board.legal_moves())[0]
    rec = GameRecord("hexagonal", fen, "W", "B", moves=[reply], white_score=0.5,
                     termination="x", initial_fen=fen)
    body = write_pgn(rec).split("\n\n", 1)[1]
    assert body.startswith(f"{fen.split()[-1]}... {reply} ")


# -- a crashed engine's stderr, appending to a file ------------------------------------
# Lines a PGN comment must not pass through as they are: a brace would end it, a line
# starting with % is a PGN escape line, one starting with [ looks like a tag.
STDERR = ["Traceback (most recent call last):", "%escape-looking", "[Tag-looking \"x\"]",
          "KeyError: {'a': 1}\x07"]
STDERR_COMMENT = ("Crashy stderr, last lines:\n  Traceback (most recent call last):\n"
                  "  %escape-looking\n  [Tag-looking \"x\"]\n  KeyError: ('a': 1)?")


def test_crashed_engines_stderr_is_a_comment_python_chess_reads():
    rec = random_record("chess", 5, 11, white_score=1.0, crashed=1, stderr=STDERR,
                        termination="Crashy crashed: Crashy exited with status 1")
    rec.black = "Crashy"
    text = write_pgn(rec)
    game = read_back(text)
    assert game.end().comment == STDERR_COMMENT
    assert [m.uci() for m in game.mainline_moves()] == rec.moves
    assert game.headers["Result"] == "1-0"
    assert game.headers["Termination"] == rec.termination


def test_unstarted_engines_stderr_comment_in_a_game_without_moves():
    """A game lost at the start has no moves: the comment stands before the result."""
    rec = GameRecord("chess", Board("chess").fen(), "Crashy", "B", white_score=0.0,
                     crashed=0, stderr=STDERR, termination="Crashy failed to start the game")
    game = read_back(write_pgn(rec))
    assert game.comment == STDERR_COMMENT and game.headers["Result"] == "0-1"
    assert list(game.mainline_moves()) == []


@pytest.mark.parametrize("variant", ["hexagonal", "alea"])
def test_stderr_comment_in_coordinate_and_alea_movetext(variant):
    rec = GameRecord(variant, "", "W", "Crashy", white_score=1.0, crashed=1,
                     stderr=STDERR, termination="x")
    if variant != "alea":
        rec.start_fen = Board(variant).fen()
    assert movetext(write_pgn(rec)) == "{" + STDERR_COMMENT + "} 1-0"


def test_no_stderr_comment_unless_the_engine_crashed():
    rec = random_record("chess", 3, 12, white_score=1.0, illegal=1, stderr=STDERR,
                        termination="x")
    assert "{" not in movetext(write_pgn(rec))


@pytest.mark.parametrize("old", ["", "[Event \"old\"]\n\n1. e4 *", "[Event \"old\"]\n\n1. e4 *\n",
                                 "[Event \"old\"]\n\n1. e4 *\n\n"],
                         ids=["empty", "no-newline", "one-newline", "blank-line"])
def test_open_to_append_keeps_the_games_already_there(tmp_path, old):
    path = tmp_path / "games.pgn"
    path.write_text(old)
    rec = random_record("chess", 4, 13, white_score=0.5, termination="x")
    with pgn.open_to_append(path) as fh:
        fh.write(write_pgn(rec) + "\n")
    text = path.read_text()
    assert text.startswith(old)
    stream = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors
        games.append(game)
    assert [g.headers["Event"] for g in games] == ["old"] * bool(old) + ["Quantum match"]
    assert [m.uci() for m in games[-1].mainline_moves()] == rec.moves
    assert text.endswith("\n\n") and ("\n\n\n" not in text)


def test_move_comment_is_cutechess_score_depth_and_time():
    assert pgn.move_comment("info depth 12 seldepth 18 score cp 35 nodes 9 pv e2e4", 0.523) \
        == "+0.35/12 0.52s"
    assert pgn.move_comment("info depth 20 score mate -3 pv e8d8", 1.0) == "-M3/20 1.00s"
    assert pgn.move_comment("info depth 7 score cp -120 lowerbound", 0.1) == "-1.20/7 0.10s"
    assert pgn.move_comment("", 0.25) == "0.25s"


COMMENT = re.compile(r"([+-](\d+\.\d\d|M\d+)(/\d+)? )?\d+\.\d\ds")


def test_engine_moves_carry_score_depth_and_time_comments():
    """Quantum's moves in a game against a fake engine: each engine move has its comment
    (Quantum's with a score and depth), the opening's moves none; python-chess reads the
    moves and the comments back."""
    quantum = UciEngine([sys.executable, "-m", "engine"], name="quantum")
    fake = None
    try:
        fake = UciEngine(fake_argv("good", 5), name="fake-good")
        opening = openings_for("chess")[0]
        rec = play_game(quantum, fake, "chess", TimeControl(1.0, 0.02), opening=opening)
    finally:
        quantum.quit()
        if fake is not None:
            fake.quit()
    game = read_back(write_pgn(rec, "1+0.02"))
    nodes = list(game.mainline())
    assert [n.move.uci() for n in nodes] == rec.moves
    assert all(n.comment == "" for n in nodes[:len(opening)])
    played = nodes[len(opening):]
    assert played and all(COMMENT.fullmatch(n.comment) for n in played)
    assert all("/" in n.comment for n in played[::2])           # Quantum's, White's moves


def test_coordinate_movetext_comments_read_back():
    rec = random_record("grand", 6, 2, comments={2: "+0.12/9 0.30s", 3: "-0.10/8 0.20s"})
    text = movetext(write_pgn(rec, "-"))
    assert "2. h1c1 {+0.12/9 0.30s} 2... g9c5 {-0.10/8 0.20s} 3." in text
    (_, _, moves), = list(pgn.coordinate_games(write_pgn(rec, "-")))
    assert moves == rec.moves
