"""The arbiter: hosts one game between two UCI engines for any variant Quantum knows.

It holds the true position (engine.board.Board), sends each engine the position and its
clock, checks every move for legality, runs the clocks (base + increment per side) and
ends the game by the rules. An engine that crashes, hangs, overruns its clock, or sends
an illegal, malformed or wrongly empty move loses that game, with the reason recorded.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from adapters.uci_engine import EngineError, UciEngine
from engine.board import Board

GRACE = 1.0                 # seconds past the clock before a silent engine is abandoned
MAX_PLIES = 1000            # a game this long is adjudicated a draw


@dataclass(frozen=True)
class TimeControl:
    base: float             # seconds
    inc: float              # seconds per move

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        """``10+0.1`` (seconds + increment) or ``60`` (no increment)."""
        base, _, inc = text.partition("+")
        tc = cls(float(base), float(inc or 0))
        if tc.base <= 0 or tc.inc < 0:
            raise ValueError(f"bad time control {text!r}")
        return tc

    def pgn(self) -> str:
        inc = f"+{self.inc:g}" if self.inc else ""
        return f"{self.base:g}{inc}"


@dataclass
class GameRecord:
    variant: str
    start_fen: str                       # the position after the opening moves
    white: str
    black: str
    moves: list = field(default_factory=list)   # every move, the opening's included
    initial_fen: str = ""                # the position the game (and its opening) began in
    white_score: float | None = None     # None while running
    termination: str = ""
    time_forfeit: int | None = None      # side that lost on time
    illegal: int | None = None           # side that sent an illegal or malformed move
    crashed: int | None = None           # side whose engine died or hung

    @property
    def result(self) -> str:
        from engine.game_end import RESULT_TEXT
        return "*" if self.white_score is None else RESULT_TEXT[self.white_score]


def _settle(eng: UciEngine) -> None:
    """After a move that never came: ask the engine to stop and give it GRACE to send
    its late bestmove (which then cannot be mistaken for a later answer). One that stays
    silent is hung and is killed, so that whoever reuses engines sees it dead and starts
    a fresh one, instead of waiting out a timeout on every later command."""
    try:
        eng.send("stop")
        for _ in eng.until(lambda s: s.startswith("bestmove"), GRACE):
            pass
    except EngineError:
        eng.kill()


def _lose(rec: GameRecord, side: int, reason: str) -> GameRecord:
    rec.white_score = 0.0 if side == 0 else 1.0
    rec.termination = reason
    return rec


def play_game(white: UciEngine, black: UciEngine, variant: str, tc: TimeControl,
              start_fen: str | None = None, opening: tuple = (), on_move=None) -> GameRecord:
    """Play one game; the engines must be started. Returns the finished record."""
    engines = (white, black)
    board = Board(variant, start_fen) if start_fen else Board(variant)
    initial_fen = board.fen()
    for move in opening:
        board.push(move)
    rec = GameRecord(variant, board.fen(), white.id_name or white.name,
                     black.id_name or black.name, moves=list(opening), initial_fen=initial_fen)
    start_fen = board.fen()
    for side, eng in enumerate(engines):
        try:
            # Plain chess engines need not know UCI_Variant; an engine that played another
            # variant before is told to switch back.
            if variant != "chess" or getattr(eng, "variant", "chess") != variant:
                eng.send(f"setoption name UCI_Variant value {variant}")
                eng.variant = variant
            eng.new_game()
        except EngineError as exc:
            eng.kill()              # dead, or deaf to isready: unusable either way
            rec.crashed = side
            return _lose(rec, side, f"{eng.name} failed to start the game: {exc}")
    clocks = [tc.base, tc.base]
    while True:
        outcome = board.outcome()
        if outcome is not None:
            rec.white_score, rec.termination = outcome.white_score, outcome.termination
            return rec
        if len(rec.moves) >= MAX_PLIES:
            rec.white_score, rec.termination = 0.5, "adjudication: game too long"
            return rec
        side = 0 if board.turn == "w" else 1
        eng = engines[side]
        position = f"position fen {start_fen}" + (
            " moves " + " ".join(rec.moves[len(opening):]) if len(rec.moves) > len(opening) else "")
        go = (f"wtime {max(int(clocks[0] * 1000), 1)} btime {max(int(clocks[1] * 1000), 1)} "
              f"winc {int(tc.inc * 1000)} binc {int(tc.inc * 1000)}")
        try:
            best, _, spent, _ = eng.go(position, go, clocks[side] + GRACE)
        except EngineError as exc:
            if eng.alive:
                _settle(eng)
                rec.time_forfeit = side
                return _lose(rec, side, f"time forfeit: {eng.name} sent no move ({exc})")
            rec.crashed = side
            return _lose(rec, side, f"{eng.name} crashed: {exc}")
        clocks[side] -= spent
        if clocks[side] < 0:
            rec.time_forfeit = side
            return _lose(rec, side, f"time forfeit: {eng.name} overran by {-clocks[side]:.3f} s")
        clocks[side] += tc.inc
        if not best or best == "(none)" or not board.is_legal(best):
            rec.illegal = side
            what = "no move" if not best or best == "(none)" else f"illegal move {best}"
            return _lose(rec, side, f"{eng.name} sent {what} in {board.fen()}")
        board.push(best)
        rec.moves.append(best.lower())
        if on_move:
            on_move(rec, board)
