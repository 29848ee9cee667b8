"""Opening books for standard chess: the Quantum Book and Polyglot books.

The Quantum Book (``books/quantum.qbk``, built by scripts/make-book from 145,716 master
games, engine/books/README.md) knows per position and move how many games played it and
how they ended, so a move is shown with its share of the games and its score. A
Polyglot book (``.bin``, the format GUIs and engines share) knows only a weight per move:
its share is shown, and no score, since none is known.

Both are looked up by the position's Polyglot key (``chess.polyglot.zobrist_hash``), so
one key serves both. Formats (big-endian, entries sorted by key):

- Quantum Book: ``QBK1``, then 22 bytes an entry: key u64, move u16 (Polyglot's
  encoding), games u32, White's wins u32, draws u32.
- Polyglot: 16 bytes an entry: key u64, move u16, weight u16, learn u32.

A Polyglot move writes castling king-takes-rook (``e1h1``); in standard chess it is read
back as the king's move (``e1g1``), in Chess960 it stays king-takes-rook, as Quantum's
UCI writes it there. The book is consulted in the first MAX_PLIES plies of a game, and a
position is in the Quantum Book when at least MIN_GAMES games reached it.
"""
from __future__ import annotations

import bisect
import collections
import random
import re
import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import chess
import chess.polyglot

BOOK_PATH = Path(__file__).with_name("books") / "quantum.qbk"
MAGIC = b"QBK1"
MAX_PLIES = 24
MIN_GAMES = 20
_QBK = struct.Struct(">QHIII")
_POLYGLOT = struct.Struct(">QHHI")
_PROMOTION = {1: "n", 2: "b", 3: "r", 4: "q"}


class BookError(ValueError):
    """A file that is not a book this module reads."""


@dataclass(frozen=True)
class Entry:
    """One move of one position, as a book file stores it."""

    key: int
    move: int                   # Polyglot's encoding
    games: int                  # the Quantum Book's games; a Polyglot book's weight
    white_wins: int = 0
    draws: int = 0


@dataclass(frozen=True)
class BookMove:
    """A move the book knows: UCI, its games (a Polyglot book: its weight), its share of
    the position's games, and the score of those games for the side that played it (0..1;
    None where the book holds no results)."""

    uci: str
    games: int
    share: float
    score: float | None


def polyglot_move(board: chess.Board, move: chess.Move) -> int:
    """``move`` (legal on ``board``) in Polyglot's encoding: castling king-takes-rook."""
    to = move.to_square
    if board.is_castling(move) and not board.chess960:
        to = chess.square(7 if chess.square_file(to) > chess.square_file(move.from_square)
                          else 0, chess.square_rank(to))
    promo = {chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}.get(
        move.promotion, 0)
    return (to & 63) | (move.from_square << 6) | (promo << 12)


def decode_move(board: chess.Board, code: int) -> str:
    """The UCI move a Polyglot code stands for on ``board`` (see the module docstring)."""
    frm, to = (code >> 6) & 63, code & 63
    promo = _PROMOTION.get((code >> 12) & 7, "")
    piece = board.piece_at(frm)
    if (not board.chess960 and piece is not None and piece.piece_type == chess.KING
            and abs(chess.square_file(frm) - chess.square_file(to)) > 1):
        to = chess.square(6 if chess.square_file(to) > chess.square_file(frm) else 2,
                          chess.square_rank(frm))
    return chess.square_name(frm) + chess.square_name(to) + promo


def position_key(fen: str, chess960: bool = False) -> tuple[int, chess.Board]:
    """The Polyglot key of a chess FEN, and python-chess's board of it."""
    board = chess.Board(fen, chess960=chess960)
    return chess.polyglot.zobrist_hash(board), board


class Book:
    """A book file, read whole (a few MB) and searched by key. ``scored``: it holds
    games and results (the Quantum Book), not only weights (Polyglot)."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        try:
            data = self.path.read_bytes()
        except OSError as exc:
            raise BookError(f"{self.path}: cannot be read ({exc.strerror or exc})") from None
        self.scored = data.startswith(MAGIC)
        layout = _QBK if self.scored else _POLYGLOT
        body = data[len(MAGIC):] if self.scored else data
        if not body or len(body) % layout.size:
            raise BookError(f"{self.path}: not a Quantum or Polyglot book "
                            f"({len(body)} bytes, not a multiple of {layout.size})")
        self.entries = [self._entry(fields) for fields in layout.iter_unpack(body)]
        self.keys = [e.key for e in self.entries]
        if any(a > b for a, b in zip(self.keys, self.keys[1:])):
            raise BookError(f"{self.path}: its entries are not sorted by key")

    def _entry(self, fields) -> Entry:
        if self.scored:
            return Entry(*fields)
        key, move, weight, _ = fields
        return Entry(key, move, weight)

    def lookup(self, fen: str, chess960: bool = False) -> list[BookMove]:
        """The book's moves in the position ``fen``, legal ones only, most games first."""
        key, board = position_key(fen, chess960)
        i = bisect.bisect_left(self.keys, key)
        found = []
        while i < len(self.entries) and self.entries[i].key == key:
            found.append(self.entries[i])
            i += 1
        legal = {m.uci() for m in board.legal_moves}
        moves = [(decode_move(board, e.move), e) for e in found]
        moves = [(uci, e) for uci, e in moves if uci in legal and e.games > 0]
        total = sum(e.games for _, e in moves)
        white = board.turn == chess.WHITE
        out = []
        for uci, e in moves:
            score = None
            if self.scored:
                wins = e.white_wins if white else e.games - e.white_wins - e.draws
                score = (wins + e.draws / 2) / e.games
            out.append(BookMove(uci, e.games, e.games / total, score))
        return sorted(out, key=lambda m: (-m.games, m.uci))

    def games(self, fen: str, chess960: bool = False) -> int:
        """The games (a Polyglot book: the weights) the book has for ``fen``."""
        return sum(m.games for m in self.lookup(fen, chess960))


def choose(moves: list[BookMove], rng: random.Random) -> BookMove:
    """A book move drawn in proportion to its games, as the masters chose."""
    return rng.choices(moves, weights=[m.games for m in moves])[0]


# -- building (scripts/make-book) ----------------------------------------------------------
_RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
_TOKEN = re.compile(r"\{[^}]*\}|\([^)]*\)|\$\d+|\d+\.(?:\.\.)?|[^\s{(]+")


def pgn_games(path: Path):
    """(result, movetext) of each game of a PGN file, read line by line (no full parse:
    only the first plies are needed)."""
    result, moves = None, []
    with open(path, encoding="latin-1") as fh:
        for line in fh:
            if line.startswith("["):
                if moves:
                    yield result, " ".join(moves)
                    moves = []
                if line.startswith("[Result "):
                    result = line.split('"')[1]
            elif line.strip():
                moves.append(line.strip())
    if moves:
        yield result, " ".join(moves)


def first_plies(text: str, count: int) -> list[str]:
    """The first ``count`` SAN moves of a movetext (comments, variations, numbers out)."""
    out = []
    for token in _TOKEN.findall(text):
        if token[0] in "{($" or token[0].isdigit() or token in _RESULTS or token == "*":
            continue
        out.append(token)
        if len(out) == count:
            break
    return out


def tally_pgn(path: Path, report=lambda line: None) -> tuple[dict, int]:
    """What scripts/make-book builds the book from: ``{key: {move: [games, White's wins,
    draws]}}`` over the first MAX_PLIES plies of every game of a PGN file that has a result,
    and the number of such games."""
    stats: dict = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0, 0]))
    counted = 0
    for n, (result, text) in enumerate(pgn_games(path), 1):
        score = _RESULTS.get(result)
        if score is None:
            continue
        board = chess.Board()
        try:
            for san in first_plies(text, MAX_PLIES):
                move = board.parse_san(san)
                cell = stats[chess.polyglot.zobrist_hash(board)][polyglot_move(board, move)]
                cell[0] += 1
                cell[1] += score == 1.0
                cell[2] += score == 0.5
                board.push(move)
        except ValueError:
            pass                        # a broken game counts up to its first bad move
        counted += 1
        if n % 20000 == 0:
            report(f"  {n} games read")
    return stats, counted



@lru_cache(maxsize=8)
def load(path: str) -> Book:
    """A book file, read once per process; BookError when it cannot be read as one."""
    return Book(path)


def quantum_book() -> Book:
    return load(str(BOOK_PATH))


def write_book(path: Path, entries) -> None:
    """Write a Quantum Book of ``entries`` (sorted here)."""
    entries = sorted(entries, key=lambda e: (e.key, e.move))
    with open(path, "wb") as fh:
        fh.write(MAGIC)
        for e in entries:
            fh.write(_QBK.pack(e.key, e.move, e.games, e.white_wins, e.draws))


def write_polyglot(path: Path, entries) -> None:
    """Write ``entries`` as a Polyglot book: each position's games scaled to 16-bit
    weights (the largest becomes at most 65535), learn 0."""
    by_key: dict = {}
    for e in entries:
        by_key.setdefault(e.key, []).append(e)
    with open(path, "wb") as fh:
        for key in sorted(by_key):
            moves = sorted(by_key[key], key=lambda e: e.move)
            scale = max(1, -(-max(e.games for e in moves) // 65535))
            for e in moves:
                fh.write(_POLYGLOT.pack(key, e.move, max(1, e.games // scale), 0))
