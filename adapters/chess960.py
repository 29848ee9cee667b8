"""Chess960 (Fischer random chess) through the arbiter: the 960 start positions by their
Scharnagl number, and the referee that hosts a game from one.

A Chess960 game is a ``chess`` game whose ``Chess960Referee`` plays it on the engine
core's Chess960 board (``Board("chess", fen, chess960=True)``) and judges every answer
with python-chess (``chess.Board(fen, chess960=True)``), an implementation independent
of the engine's. Both engines are started with ``UCI_Chess960`` on (adapters/session.py)
and told ``position fen <Shredder-FEN> moves ...`` with castling written king-takes-rook
(``e1h1``; ``b1a1``; ``g1h1`` when the king stays on g1), the only castling form a UCI
engine in Chess960 mode reads: ``e1g1`` is then a king step or illegal. The move list
writes SAN with ``O-O``/``O-O-O``; the record says ``chess960`` (the PGN's
``[Variant "Chess960"]``, adapters/pgn.py).

Positions are numbered as Scharnagl numbered them (0 ``BBQNNRKR`` .. 959; 518 is the
standard position), the numbering of python-chess, Stockfish and lichess.
"""
from __future__ import annotations

import random
from dataclasses import replace

import chess

from adapters.arbiter import GameRecord, Referee, Sight
from engine.board import Board

POSITIONS = 960
STANDARD = 518              # the Scharnagl number of the standard start position


def check_number(number) -> int:
    """``number`` as a Scharnagl number, 0..959; ValueError otherwise (``"518"`` from a
    command line is read too)."""
    try:
        value = int(str(number).strip())
    except ValueError:
        raise ValueError(f"a Chess960 position is a number 0..959, not {number!r}") from None
    if not 0 <= value < POSITIONS:
        raise ValueError(f"a Chess960 position is a number 0..959, not {value}")
    return value


def start_fen(number) -> str:
    """The FEN of start position ``number`` (X-FEN castling ``KQkq``, as python-chess
    writes it)."""
    return chess.Board.from_chess960_pos(check_number(number)).fen()


def number_of(fen: str) -> int | None:
    """The Scharnagl number of a Chess960 start position, None for any other position."""
    return chess.Board(fen, chess960=True).chess960_pos()


def draw_numbers(count: int, seed: int | None = None) -> list[int]:
    """``count`` start positions drawn at random from ``seed`` (None: a fresh one),
    without repeats until all 960 are used."""
    rng = random.Random(seed)
    out: list[int] = []
    while len(out) < count:
        out += rng.sample(range(POSITIONS), min(POSITIONS, count - len(out)))
    return out


class Chess960Referee(Referee):
    """A perfect-information Chess960 game from start position ``number`` (or the FEN
    a session gives ``setup``), judged by python-chess; see the module docstring."""

    chess960 = True

    def __init__(self, number=STANDARD):
        self.number = check_number(number)
        self._judge = chess.Board(chess960=True)

    def setup(self, rec: GameRecord, start_fen_: str | None) -> Board:
        if rec.variant != "chess":
            raise ValueError(f"Chess960 is a form of chess, not of {rec.variant!r}")
        fen = start_fen_ or start_fen(self.number)
        self._judge = chess.Board(fen, chess960=True)
        board = Board("chess", fen, chess960=True)
        rec.chess960 = True
        rec.initial_fen = board.fen()
        self._game = (board, rec)
        return board

    def illegal(self, side: int, board: Board, rec: GameRecord, answer: str) -> str | None:
        """What python-chess finds wrong with ``answer``: a castle must be king-takes-rook
        (``e1g1`` is no castle here, whatever python-chess's lenient parser makes of it)."""
        if not answer or answer == "(none)":
            return "no move"
        try:
            move = chess.Move.from_uci(answer)
        except ValueError:
            return f"illegal move {answer}"
        return None if move in self._judge.legal_moves else f"illegal move {answer}"

    def play(self, board: Board, rec: GameRecord, answer: str) -> None:
        """Make a legal answer on both boards. RuntimeError when the engine core refuses
        a move python-chess allows: the two rule books disagree, a bug to report."""
        answer = answer.lower()
        if not board.is_legal(answer):
            raise RuntimeError(f"Chess960 rules disagree: python-chess allows {answer} in "
                               f"{board.fen()}, the engine core does not")
        self._judge.push(chess.Move.from_uci(answer))
        super().play(board, rec, answer)

    def legal(self, side: int, board: Board, rec: GameRecord) -> list[str]:
        """The legal moves in UCI, castles king-takes-rook."""
        return [move.uci() for move in self._judge.legal_moves]

    def describe(self, board: Board, answer: str) -> str:
        """SAN (``O-O``, ``O-O-O`` for castles) of ``answer`` made on ``board``."""
        return chess.Board(board.fen(), chess960=True).san(chess.Move.from_uci(answer))

    def sight(self, side: int | None, board: Board, rec: GameRecord, texts: list) -> Sight:
        """Everything, as in standard chess, and ``extra["chess960"]`` for front ends that
        read SAN (the terminal)."""
        return replace(super().sight(side, board, rec, texts), extra={"chess960": True})

    def opening_line(self, rec: GameRecord) -> None:
        """No book and no opening names: both are of standard chess lines."""
        return None

    def rewind(self, mark) -> None:
        board, rec = self._game
        while len(rec.moves) > mark:
            self._judge.pop()
            board.pop()
            rec.moves.pop()
