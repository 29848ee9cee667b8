"""Opening books (engine/book.py) and opening names (engine/openings.py), against
independent readers: python-chess's Polyglot reader and PGN reader, and GNU Chess's own
Polyglot book where Debian's ``gnuchess-book`` is installed."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import chess.polyglot
import pytest

from engine import book, openings
from engine.deepening import GoLimits
from engine.engine import Engine
from testkit import refdata

GNUCHESS_BOOK = Path("/usr/share/games/gnuchess/book.bin")
START = chess.STARTING_FEN


def book_walk(source: book.Book, seed: int, plies: int = 16) -> list[str]:
    """FENs of a line that follows the book's moves at random, most played more often."""
    rng, board, fens = random.Random(seed), chess.Board(), []
    for _ in range(plies):
        moves = source.lookup(board.fen())
        if not moves:
            break
        fens.append(board.fen())
        board.push_uci(book.choose(moves, rng).uci)
    return fens


def python_chess_moves(path: Path, fen: str) -> dict[str, int]:
    with chess.polyglot.open_reader(path) as reader:
        return {e.move.uci(): e.weight for e in reader.find_all(chess.Board(fen))}


def test_the_quantum_book_as_polyglot_reads_the_same_in_python_chess(tmp_path):
    """Our book written as Polyglot, read by python-chess: the same moves, in the same
    proportions, along many book lines (castling included)."""
    source = book.quantum_book()
    exported = tmp_path / "quantum.bin"
    book.write_polyglot(exported, source.entries)
    ours = book.Book(exported)
    castles = 0
    for seed in range(40):
        for fen in book_walk(source, seed):
            theirs = python_chess_moves(exported, fen)
            mine = {m.uci: m.games for m in ours.lookup(fen)}
            assert mine == theirs, fen
            exact = {m.uci: m.games for m in source.lookup(fen)}
            assert set(exact) == set(mine)
            top = max(exact, key=exact.get)
            assert max(mine, key=mine.get) == top
            castles += any(u in ("e1g1", "e1c1", "e8g8", "e8c8") for u in mine)
    assert castles > 0


@pytest.mark.skipif(not GNUCHESS_BOOK.exists(), reason="Debian's gnuchess-book is not installed")
def test_gnu_chess_book_reads_as_python_chess_reads_it():
    gnu = book.Book(GNUCHESS_BOOK)
    assert not gnu.scored
    for seed in range(30):
        for fen in book_walk(gnu, seed):
            assert {m.uci: m.games for m in gnu.lookup(fen)} == python_chess_moves(GNUCHESS_BOOK, fen)
            assert all(m.score is None for m in gnu.lookup(fen))


def test_the_builder_counts_as_python_chess_replays_the_games():
    sample = refdata("book_sample.pgn")
    stats, counted = book.tally_pgn(sample)
    expected: dict = {}
    games = 0
    with open(sample, encoding="latin-1") as fh:
        while (game := chess.pgn.read_game(fh)) is not None:
            result = game.headers.get("Result")
            if result not in ("1-0", "0-1", "1/2-1/2"):
                continue
            games += 1
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                if ply == book.MAX_PLIES:
                    break
                cell = expected.setdefault(chess.polyglot.zobrist_hash(board), {}).setdefault(
                    book.polyglot_move(board, move), [0, 0, 0])
                cell[0] += 1
                cell[1] += result == "1-0"
                cell[2] += result == "1/2-1/2"
                board.push(move)
    assert counted == games > 500
    assert {k: {m: list(c) for m, c in v.items()} for k, v in stats.items()} == expected


def test_the_shipped_book_knows_the_masters_first_moves():
    moves = book.quantum_book().lookup(START)
    assert [m.uci for m in moves[:2]] == ["e2e4", "d2d4"]
    assert sum(m.games for m in moves) > 140000 and abs(sum(m.share for m in moves) - 1) < 1e-9
    assert all(0.3 < m.score < 0.7 for m in moves if m.games > 1000)
    reply = book.quantum_book().lookup("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    assert reply[0].uci == "c7c5"                       # the Sicilian, for Black's score


def test_a_file_that_is_no_book_is_refused(tmp_path):
    bad = tmp_path / "x.bin"
    bad.write_bytes(b"not a book")
    with pytest.raises(book.BookError, match="not a Quantum or Polyglot book"):
        book.Book(bad)
    unsorted = tmp_path / "y.bin"
    unsorted.write_bytes(bytes.fromhex("ff" * 8 + "0000" * 4) + bytes(16))
    with pytest.raises(book.BookError, match="not sorted"):
        book.Book(unsorted)


def test_own_book_plays_book_moves_and_says_so():
    engine = Engine()
    engine.own_book = True
    best, infos = engine.search_sync(GoLimits(wtime=60000, btime=60000))
    assert best.move in {m.uci for m in book.quantum_book().lookup(START)}
    assert infos[-1].string.startswith(f"book {best.move} games ")
    best, infos = engine.search_sync(GoLimits(depth=2))          # analysis: no book
    assert not any(i.string.startswith("book") for i in infos)
    engine.set_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 13")
    best, infos = engine.search_sync(GoLimits(movetime=100))     # past the 24th ply
    assert not any(i.string.startswith("book") for i in infos)


def test_own_book_in_alea_plays_only_what_the_rules_allow():
    engine = Engine("alea")
    engine.own_book = True
    best, infos = engine.search_sync(GoLimits(movetime=200))
    assert infos[-1].string.startswith("book") and best.move in engine.legal_moves()


def test_a_bad_book_file_is_refused_and_the_old_stays(tmp_path):
    engine = Engine()
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"xyz")
    with pytest.raises(ValueError):
        engine.set_book_file(str(bad))
    assert engine.opening_book() is book.quantum_book()


@pytest.mark.parametrize("moves, eco, name", [
    ("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "C70", "Ruy Lopez: Morphy Defense"),
    ("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6", "B90",
     "Sicilian Defense: Najdorf Variation"),
])
def test_openings_are_named(moves, eco, name):
    found = openings.name_of(moves.split())
    assert found is not None and (found.eco, found.name) == (eco, name)


def test_a_transposition_is_named_as_its_position():
    main = openings.name_of("d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 g1f3".split())
    other = openings.name_of("g1f3 d7d5 c2c4 e7e6 d2d4 g8f6 b1c3".split())
    assert main is not None and (other.eco, other.name) == (main.eco, main.name)


def test_the_name_is_the_deepest_known_position():
    line = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 a2a3 h7h6".split()
    assert openings.name_of(line).ply == 6 and openings.name_of([]) is None
    sources = {source for _, _, source in openings.table().values()}
    assert sources == {"lichess", "ocn"}


def test_quantum_book_command_prints_moves_and_the_opening():
    proc = subprocess.run([sys.executable, "-m", "engine", "book", "e4", "e5", "Nf3", "Nc6"],
                          capture_output=True, text=True, timeout=60, check=True)
    assert "opening: C44" in proc.stdout and "f1b5" in proc.stdout and "%" in proc.stdout
