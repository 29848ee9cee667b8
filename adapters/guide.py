"""The Quantum guide (A22, docs/rules/alea.md) for a person playing Alea: advice before
the move and a review after it, from a second Quantum process.

``AleaGuide`` is started at its first use (``command``, default this Python's Quantum).
Before the person's move it is sent the position line their side is sent (the game
session's ``position_for``) and ``go <go> guide``; after the move, with the position
before it, ``guide review <token>`` (docs/protocol.md, "The Quantum guide"). Its ``info
string guide`` lines become ``Note`` s: plain data with the words a person reads
(``text``), what kind of note it is, the cells it is about and the action it names, so
the terminal prints the words and the web board also marks the cells (a threatened queen
in red). It is not the opponent: a weakened Level would weaken the advice, and a ``go
... guide`` on the opponent would change the side its draw judgement is for.
"""
from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass

from adapters.alea_referee import parse_token
from adapters.uci_engine import EngineError, UciEngine
from engine.alea import JOKER, REROLL

QUANTUM = f"{shlex.quote(sys.executable)} -m engine"
GUIDE_GO = "nodes 300000"       # the guide's search before the person's move
GUIDE_TIMEOUT = 60.0            # seconds the guide may take to answer (a hang guard)
REVIEW_LOSS = 50                # cp: a played action this much worse gets "a better move was"
PIECES = ("knight", "bishop", "rook", "queen")


@dataclass(frozen=True)
class Note:
    """One thing the guide says. ``kind``: ``threat`` (``piece`` on ``cells[0]`` is
    attacked from ``cells[1]``), ``best`` (play ``token``), ``review`` (``token`` was
    ``verdict``: ``guide``, ``good`` or ``better``, the better action then ``token``),
    ``joker`` (``verdict``: ``worth``, ``not worth``, ``missed``)."""

    kind: str
    text: str
    cells: tuple = ()
    piece: str | None = None
    token: str | None = None
    verdict: str | None = None


def action_words(token: str, fen: str | None = None) -> str:
    """A token as a person types it (``joker e2e4``), with its SAN when ``fen`` (the
    chess position before it) is given and it is not a promotion: ``g1f3 (Nf3)``."""
    action, _ = parse_token(token)
    text = str(action)
    if action.kind == REROLL or fen is None:
        return text
    import chess
    try:
        return f"{text} ({chess.Board(fen).san(chess.Move.from_uci(action.move))})"
    except ValueError:                  # a promotion (its piece is the die's) or no move
        return text


def chess_fen(alea_fen: str) -> str:
    """The chess position of an Alea FEN (its first six fields)."""
    return " ".join(alea_fen.split()[:6])


class AleaGuide:
    """The guide's process and what it said last (see the module docstring). ``on``:
    switched on."""

    def __init__(self, command: str = QUANTUM, go: str = GUIDE_GO, on: bool = False):
        self.command, self.go, self.on = command, go, on
        self.engine: UciEngine | None = None
        self.advised: tuple | None = None       # (position, token) of the last advice

    def _engine(self) -> UciEngine:
        if self.engine is None:
            self.engine = UciEngine(self.command, name="Quantum guide",
                                    options={"UCI_Variant": "alea"})
        return self.engine

    def _ask(self, position: str, command: str, done) -> list[str]:
        """The guide's ``info string guide`` lines for ``command`` after ``position``."""
        eng = self._engine()
        eng.send(position)
        eng.send(command)
        out = []
        for line in eng.until(done, GUIDE_TIMEOUT):
            if line.startswith("info string error"):
                raise EngineError(line[len("info string "):])
            if line.startswith("info string guide "):
                out.append(line[len("info string guide "):])
        return out

    def advice(self, position: str, fen: str) -> list[Note]:
        """What the guide says before the move in ``position`` (``fen``: the Alea FEN of
        that position): the threats, then the action it suggests with its reason."""
        lines = self._ask(position, f"go {self.go} guide".replace("  ", " "),
                          lambda s: s.startswith("bestmove"))
        out = []
        for line in lines:
            kind, _, rest = line.partition(" ")
            if kind == "threat":
                words = rest.split()        # your <piece> on <cell> is attacked by the <p> on <c>
                cells = (words[3], words[-1]) if len(words) >= 10 else ()
                piece = words[1] if len(words) > 1 and words[1] in PIECES else None
                out.append(Note("threat", f"Guide: {rest[:1].upper()}{rest[1:]}.", cells,
                                piece))
            elif kind == "best":
                token, _, reason = rest.partition(" reason ")
                self.advised = (position, token)
                out.append(Note("best", f"Guide: play {action_words(token, chess_fen(fen))} "
                                        f"-- {reason}.", token=token))
        return out

    def review(self, position: str, fen: str, token: str) -> list[Note]:
        """What the guide says about ``token`` played in ``position``: whether there was a
        better action, and whether a free-move joker was worth it."""
        lines = self._ask(position, f"guide review {token}",
                          lambda s: s.startswith("info string guide review")
                          or s.startswith("info string error"))
        words = lines[-1].split() if lines else []
        if words[:2] != ["review", "played"] or len(words) < 9:
            return []
        best, loss, worth = words[4], int(words[6]), words[8] == "worth"
        # The advice searched deeper than the review (two plies): the advised move is
        # "the guide's move" even where the review prefers another by a little.
        if self.advised == (position, token) or (best == token and self.advised is None):
            out = [Note("review", "Guide: that was the guide's move.", token=token,
                        verdict="guide")]
        elif loss < REVIEW_LOSS:
            out = [Note("review", "Guide: a good move.", token=token, verdict="good")]
        else:
            out = [Note("review", f"Guide: a better move was "
                                  f"{action_words(best, chess_fen(fen))} "
                                  f"(about {loss / 100:.1f} pawns better).", token=best,
                        verdict="better")]
        if parse_token(token)[0].kind == JOKER:
            out.append(Note("joker", "Guide: the free-move joker was worth spending." if worth
                            else "Guide: the free-move joker was not worth spending here.",
                            verdict="worth" if worth else "not worth"))
        elif worth:
            out.append(Note("joker", "Guide: a free-move joker would have been worth it here.",
                            verdict="missed"))
        return out

    def close(self) -> None:
        if self.engine is not None:
            self.engine.quit()
            self.engine = None
