"""What the opening shows a player (adapters/book_sight.py, A23): the book's moves with
their share, games and score, only in the first 24 plies of a position at least 20 games
reached, the move that leaves the book, and the opening's name — checked against games
counted here by python-chess's own PGN reader, through the game session of every game
and the terminal."""
from __future__ import annotations

import collections
import random

import chess
import chess.pgn
import chess.polyglot
import pytest

from adapters import book_sight
from adapters.session import GameSession
from adapters.terminal import opening_lines
from engine import book, openings
from testkit import refdata

START = chess.STARTING_FEN


class Person:
    def __init__(self, name: str):
        self.name, self.id_name = name, None

    def start_game(self, variant):
        pass


def session(variant: str, opening=()) -> GameSession:
    s = GameSession(variant, Person("Ann"), Person("Bob"), None, opening=opening)
    s.start()
    return s


@pytest.fixture(scope="module")
def sample():
    """A Quantum Book of tests/data/book_sample.pgn, and that file's games counted by
    python-chess: {position key: {move: [games, wins of the side to move, draws]}}."""
    path = refdata("book_sample.pgn")
    stats, _ = book.tally_pgn(path)
    entries = [book.Entry(key, move, *cell) for key, moves in stats.items()
               for move, cell in moves.items()]
    counts: dict = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0, 0]))
    with open(path, encoding="latin-1") as fh:
        while (game := chess.pgn.read_game(fh)) is not None:
            result = game.headers.get("Result")
            if result not in ("1-0", "0-1", "1/2-1/2"):
                continue
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                if ply == book.MAX_PLIES:
                    break
                mover_won = result == ("1-0" if board.turn == chess.WHITE else "0-1")
                cell = counts[chess.polyglot.zobrist_hash(board)][move.uci()]
                cell[0] += 1
                cell[1] += mover_won
                cell[2] += result == "1/2-1/2"
                board.push(move)
    return entries, counts


def test_the_book_shows_what_the_games_played(sample, tmp_path):
    """Along the sample's most played line: each position's moves, shares, games and
    scores as python-chess counts them, shown while at least 20 games reached it; the
    move out of the book is flagged, and nothing is shown once the line is neither in
    nor just out of the book."""
    entries, counts = sample
    path = tmp_path / "sample.qbk"
    book.write_book(path, entries)
    source = book.Book(path)
    board, moves, left_seen = chess.Board(), [], False
    while True:
        here = counts.get(chess.polyglot.zobrist_hash(board), {})
        games = sum(c[0] for c in here.values())
        line = book_sight.book_line(START, moves, source)
        if games < book.MIN_GAMES:
            assert line is not None and line["moves"] == [] and line["left"] is not None
            assert line["left"]["ply"] == len(moves) and line["left"]["side"] == (len(moves) - 1) % 2
            left_seen = True
            break
        assert line["games"] == games and line["left"] is None and line["ply"] == len(moves)
        shown = {m["move"]: m for m in line["moves"]}
        assert set(shown) == set(here)
        for uci, (n, won, drawn) in here.items():
            assert shown[uci]["games"] == n
            assert shown[uci]["share"] == pytest.approx(n / games, abs=1e-4)
            assert shown[uci]["score"] == pytest.approx((won + drawn / 2) / n, abs=1e-4)
            assert shown[uci]["text"] == board.san(chess.Move.from_uci(uci))
        best = max(here, key=lambda u: here[u][0])
        moves.append(best)
        board.push_uci(best)
    assert left_seen
    away = book_sight.book_line(START, ["g2g4", "a7a5", "g1h3", "a5a4"], source)
    assert away["moves"] == [] and away["left"] == {"ply": 1, "side": 0, "text": "g4"}
    assert book_sight.book_line("4k3/8/8/8/8/8/8/4K2R w K - 0 1", [], source) is None


def test_past_the_books_plies_nothing_is_shown():
    line = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 " \
           "h2h3 c6a5 b3c2 c7c5 d2d4 d8c7 b1d2 c5d4".split()
    assert len(line) == book.MAX_PLIES
    assert book_sight.book_line(START, line[:-1]) is not None      # the Ruy Lopez, Chigorin
    assert book_sight.book_line(START, line) is None


def test_the_name_follows_the_game_as_name_of_names_it():
    """Move by move, with moves taken back and a transposition, the followed name is
    engine.openings.name_of's of the whole game so far."""
    rng = random.Random(7)
    sight = book_sight.OpeningSight()
    lines = ["e2e4 e7e5 g1f3 b8c6 f1c4 f8c5".split(),
             "g1f3 b8c6 e2e4 e7e5 f1b5".split()]          # a Ruy Lopez by transposition
    for line in lines:
        moves, board = [], chess.Board()
        for move in line + [None] * 6:
            move = move or rng.choice(list(board.legal_moves)).uci()
            moves.append(move)
            board.push_uci(move)
            named = openings.name_of(moves)
            assert sight.of((START, moves))["opening"] == (
                None if named is None else {"eco": named.eco, "name": named.name})
        back = moves[:3]
        named = openings.name_of(back)
        assert sight.of((START, back))["opening"]["name"] == named.name


def test_chess_and_alea_sessions_show_the_book_and_the_name():
    for variant in ("chess", "alea"):
        s = session(variant)
        start = s.view(0)
        assert start.opening is None
        assert start.book["games"] == sum(m["games"] for m in start.book["moves"]) >= 100_000
        assert start.book["moves"][0]["text"] in ("e4", "d4")
    s = session("chess", opening=("e2e4", "e7e5", "g1f3", "b8c6", "f1c4"))
    view = s.view(1)
    assert view.opening == {"eco": "C50", "name": "Italian Game"}
    assert {"Bc5", "Nf6"} <= {m["text"] for m in view.book["moves"]}
    lines = opening_lines(view)
    assert lines[0] == "Opening: C50 Italian Game" and lines[1].startswith("Book (")
    s.play(1, "h7h5")
    lines = opening_lines(s.view(0))
    assert lines[-1] == "Black left the book with 3...h5."


def test_the_games_without_a_book_show_none_and_fog_hides_it():
    """Grand and hex have no book; in Fog of War the book would tell a side the
    opponent's moves, so it is never shown (nor the opening's name)."""
    for variant in ("grand", "hexagonal", "fogofwar"):
        s = session(variant)
        for side in (0, 1, None):
            view = s.view(side)
            assert view.book is None and view.opening is None
    s = session("fogofwar", opening=("e2e4", "e7e5"))
    assert "Italian" not in str(s.view(0).to_json()) and s.view(0).book is None


def test_plies_count_from_the_fens_move_number():
    """A game from a FEN at move 5 is at ply 8 there: its first move is ply 9, and
    the book ends 24 plies after the game's own start."""
    fen = START.replace(" 0 1", " 0 5")
    line = book_sight.book_line(fen, ["a2a3"])
    assert line["ply"] == 9 and line["left"] == {"ply": 9, "side": 0, "text": "a3"}
    moves = "g1f3 g8f6 f3g1 f6g8".split() * 4
    assert book_sight.book_line(fen, moves[:15]) is not None
    assert book_sight.book_line(fen, moves) is None
