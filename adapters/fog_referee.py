"""Fog of War on the host side: what each player is told (docs/rules/fog.md, "What each
player is told" and "Playing fair"; the message is docs/protocol.md, ``position fog``).

``FogReferee`` is the arbiter's Referee for ``fogofwar`` (``play_game`` picks it by itself,
see ``adapters.arbiter.referee_for``). The arbiter keeps the true position, checks each
move on it and ends the game by ``Board.outcome()`` (a captured king ends it); the referee
only decides what each side hears. Per side it keeps the observation history from that
side's first turn in the game (the game's initial position, so a book opening counts as
the side's own moves): at each of its turns its view (``engine.fog.view_fen`` of the true
board), the cells where it lost a piece to the opponent's last move and can no longer see
(``engine.fog.lost_cells``), and the move it then played. The side to move is sent

    position fog view <fen> [lost <cell>...] [move <uci> view <fen> [lost <cell>...]]...
    go wtime <ms> winc <ms>             (White; Black gets btime/binc; no clock: movetime)

and nothing else: never the true position, an opponent move, or the opponent's clock.
Once the game is over ``reveal_at_end`` gives the whole game (the rules reveal it then).

For measuring what the fog costs, one side may be made omniscient
(``FogReferee(omniscient=(False, True))``, ``scripts/match --omniscient2``): that side is
told what any perfect-information game tells it, ``position fen <start> moves <every move>``
and both clocks (``Referee.message_for``), so an engine that knows the board rules but not
the fog (Fairy-Stockfish with ``tests/data/fogofwar.ini``) can play; the other side still
gets only its views. The record's ``WhiteSees``/``BlackSees`` tags (in the PGN) say who saw
what.

``parse_fog_position`` reads such a message back into ``FogTurn`` s with the protocol's own
parser (protocol.dialect), for the players that receive it (the terminal's HumanPlayer,
the fog baselines in scripts/, the tests' spy).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from adapters.arbiter import HIDDEN_MOVE, Clocks, GameRecord, Referee, Sight, last_cells
from engine.board import Board
from engine.fog import lost_cells, view, view_fen
from engine.variant import load_variant
from protocol.dialect import parse_fog_position as parse_fog_position_words



@dataclass(frozen=True)
class FogTurn:
    """One turn of one side as that side observed it."""

    view: str                   # the view FEN at this turn
    lost: tuple = ()            # cells lost to the opponent's move just before, not seen
    move: str | None = None     # the move played from this view; None: still to move


def format_fog_position(turns) -> str:
    """The ``position fog ...`` line of a side's history (the last turn has no move)."""
    words = ["position", "fog"]
    for turn in turns:
        words += ["view", turn.view]
        if turn.lost:
            words += ["lost", *turn.lost]
        if turn.move is not None:
            words += ["move", turn.move]
    return " ".join(words)


def parse_fog_position(line: str) -> list[FogTurn]:
    """The turns of a ``position fog ...`` line, the last one without a move: the
    protocol's own parser (``protocol.dialect.parse_fog_position``, which also checks
    every view), turned back into turns. ValueError when the line is not one."""
    words = line.split()
    if words[:2] != ["position", "fog"]:
        raise ValueError(f"not a position fog line: {line[:80]!r}")
    history = parse_fog_position_words(words[2:], "fogofwar")
    order = {name: i for i, name in enumerate(load_variant("fogofwar").geometry.names)}
    moves = list(history.moves) + [None]
    return [FogTurn(view.fen, tuple(sorted(lost, key=order.__getitem__)), move)
            for view, lost, move in zip(history.views, history.lost, moves)]


class FogReferee(Referee):
    """What each side of a Fog of War game is told (see the module docstring).

    The histories are kept between messages and extended by the moves played since; a
    record that does not continue the one followed so far (a new game) starts afresh.
    ``omniscient[side]`` True: that side is told the whole game instead of its views."""

    def __init__(self, omniscient: tuple = (False, False)):
        self.omniscient = (bool(omniscient[0]), bool(omniscient[1]))
        self._rec: GameRecord | None = None
        self._board: Board | None = None        # the true position after ``_played``
        self._played: list[str] = []
        self._turns: tuple[list, list] = ([], [])

    # -- the Referee hooks -------------------------------------------------------------
    def setup(self, rec: GameRecord, start_fen: str | None) -> Board:
        """The plain board; with an omniscient side, tags saying what each side saw."""
        board = super().setup(rec, start_fen)
        if any(self.omniscient):
            for colour, omniscient in zip(("White", "Black"), self.omniscient):
                rec.tags[f"{colour}Sees"] = "whole board" if omniscient else "views"
        return board

    def message_for(self, side: int, board: Board, rec: GameRecord,
                    clocks: Clocks) -> tuple[str, str]:
        """(``position fog ...``, the side's own clock) for ``side``, the side to move; for
        an omniscient side the perfect-information message (the whole game, both clocks)."""
        self._follow(rec)
        if board is not None and board.fen() != self._board.fen():
            raise RuntimeError("FogReferee: the record does not lead to the arbiter's board")
        turns = self._turns[side]
        if not turns or turns[-1].move is not None:
            raise RuntimeError(f"FogReferee: side {side} is not to move")
        if self.omniscient[side]:
            return self.whole_game(rec), clocks.go_args()
        return format_fog_position(turns), clocks.own_go_args(side)

    def sight(self, side: int | None, board: Board, rec: GameRecord, texts: list) -> Sight:
        """``side``'s view of the true board now (engine.fog.view: also right after its
        own move), the cells it lost out of sight to the opponent's last move while it
        is to move, its own last move, and the move list with the opponent's moves
        hidden. A spectator sees no piece and no move; once the game is over (by the
        board, or as the record says: a resignation) everyone sees everything, as does an
        omniscient side."""
        if rec.termination or board.outcome() is not None or \
                (side is not None and self.omniscient[side]):
            return super().sight(side, board, rec, texts)
        names = board.variant.geometry.names
        hidden = tuple(entry if entry[0] == side else (entry[0], HIDDEN_MOVE, HIDDEN_MOVE)
                       for entry in texts)
        if side is None:
            return Sight(pieces={}, fog=tuple(names), moves=hidden)
        seen = view(board, "wb"[side])
        self._follow(rec)
        turns = self._turns[side]
        to_move = turns and turns[-1].move is None and board.turn == "wb"[side]
        own = [answer for mover, answer, _ in texts if mover == side]
        return Sight(pieces=dict(seen.pieces), fen=seen.fen,
                     fog=tuple(n for n in names if n not in seen.visible),
                     lost=tuple(turns[-1].lost) if to_move else (),
                     last=last_cells(own), moves=hidden)

    def shows_clock(self, viewer: int | None, side: int, rec: GameRecord) -> bool:
        """Only its own clock, as an engine is told (``message_for``); every clock to an
        omniscient side, and to everyone once the game is over."""
        return (viewer == side or bool(rec.termination)
                or (viewer is not None and self.omniscient[viewer]))

    def history(self, side: int, rec: GameRecord) -> list[FogTurn]:
        """``side``'s turns so far (for tests and displays)."""
        self._follow(rec)
        return list(self._turns[side])

    # reveal_at_end: Referee's, the whole game -- the rules reveal everything at the end.

    # -- following the game ------------------------------------------------------------
    def _follow(self, rec: GameRecord) -> None:
        start, moves = ((rec.initial_fen, rec.moves) if rec.initial_fen
                        else (rec.start_fen, rec.moves[rec.opening_plies:]))
        if (self._rec is not rec or len(moves) < len(self._played)
                or moves[:len(self._played)] != self._played):
            self._rec, self._played, self._turns = rec, [], ([], [])
            self._board = Board(rec.variant, start) if start else Board(rec.variant)
            self._note(None)
        for move in moves[len(self._played):]:
            mover = self._mover()
            self._turns[mover][-1] = replace(self._turns[mover][-1], move=move)
            before = self._board.copy()
            self._board.push(move)
            self._played.append(move)
            self._note(before)

    def _mover(self) -> int:
        return 0 if self._board.turn == "w" else 1

    def _note(self, before: Board | None) -> None:
        """Record the view (and the losses) of the side now to move, unless the game is
        over: after a king capture nobody has a view, and no message is sent."""
        board = self._board
        if board.outcome() is not None:
            return
        side = board.turn
        lost = lost_cells(before, board, side) if before is not None else ()
        cells = board.variant.geometry.cell
        self._turns[self._mover()].append(
            FogTurn(view_fen(board, side), tuple(sorted(lost, key=cells))))
