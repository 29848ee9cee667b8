"""The arbiter: what a game is and what each side of it is told and shown, for any
variant Quantum knows, and the parts of hosting it that every front end shares (clocks,
records, engines that cannot start). A game in progress is an
``adapters.session.GameSession`` built on these.

An engine that crashes, hangs, overruns its clock, or sends an illegal, malformed or
wrongly empty move loses that game, with the reason recorded; so does one that cannot be
started at all (``start_player`` gives an ``Unstarted`` in its place). A crashed engine's
last stderr lines go into the record (``rec.stderr``).

Players. An engine is anything with ``name``, ``id_name`` and ``go(position, go,
timeout) -> (bestmove, ponder, seconds, info)``, where ``position`` is a UCI ``position``
line and ``go`` the arguments of a UCI ``go``: a ``adapters.uci_engine.UciEngine`` is one
as it stands. A player with a ``start_game(variant)`` method is started with it; any
other is started as a UCI engine (``UCI_Variant``, ``ucinewgame``). Instead of moving,
``go`` may raise ``GameOver``; engines never do. A person is a player with ``turn``
(adapters/session.py).

What each side is told, and shown, is computed in one place, the game's ``Referee``:

- ``message_for(side, board, rec, clocks)``: the position line and the go arguments sent
  to the side to move (an engine receives exactly this).
- ``sight(side, board, rec, texts)``: what a side (or a spectator) may see now, a
  ``Sight``: what a person is shown; ``shows_clock`` whose clocks.
- ``chance(board, rec)``: called before each turn; where the game rolls its dice.
- ``reveal_at_end(side, board, rec)``: the position line a side may see once the game is
  over.

And what the game is, where a variant's rules are more than its board's:

- ``setup(rec, start_fen)``: the board the arbiter keeps (``rec.initial_fen`` set);
- ``fen(board)``: the position as written in the record and in error reasons;
- ``outcome(board, rec)``: the result once the game is over, else None;
- ``legal(side, board, rec)``: the answers the side to move may give;
- ``illegal(side, board, rec, answer)``: what is wrong with an answer, None if it is legal;
- ``play(board, rec, answer)``: make a legal answer (or an opening move) on the board and
  append it to ``rec.moves``; ``describe(board, answer)``: its text in a move list;
- ``mark()``/``rewind(mark)``: back to where a turn began (undo);
- ``answer_draw(engine, score, plies)``: whether an engine accepts a person's draw offer.

``Referee`` is the perfect-information game: both sides see the whole position and every
move, and nothing is left to chance. ``adapters.fog_referee.FogReferee`` tells each side of
a Fog of War game only its own views, lost cells, moves and clock; ``referee_for`` chooses
it for ``fogofwar``; ``referee_for(..., omniscient=(False, True))`` lets one side of a fog
game see the whole game (a reference engine, to measure what the fog costs) while the
other still gets only its views. ``adapters.alea_referee.AleaReferee`` hosts Alea (chess
with two dice): it keeps the ``engine.alea.AleaState``, rolls the dice from a seeded
generator, and checks each answer (a move, a joker, a reroll) against the Alea rules;
``referee_for("alea")`` gives it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from adapters.draws import accept_draw
from adapters.uci_engine import EngineError, UciEngine, brief
from engine.board import Board
from engine.notation import move_cells

GRACE = 1.0                 # seconds past the clock before a silent engine is abandoned
# Without clocks (a human's casual game) an engine gets a fixed time per move, since a bare
# ``go`` makes many engines think until told to stop; one silent past NO_CLOCK_SLACK more
# is taken to hang.
NO_CLOCK_MOVETIME = 2.0     # seconds
NO_CLOCK_SLACK = 10.0       # seconds


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
    white_score: float | None = None     # None while running, or for an abandoned game
    termination: str = ""
    time_forfeit: int | None = None      # side that lost on time
    illegal: int | None = None           # side that sent an illegal or malformed move
    crashed: int | None = None           # side whose engine died, hung or never started
    stderr: list = field(default_factory=list)  # the crashed engine's last stderr lines
    opening_plies: int = 0               # how many of ``moves`` the opening played
    chess960: bool = False               # a Chess960 game (adapters/chess960.py)
    # Alea (adapters/alea_referee.py): the dice shown before each of ``moves`` (``"nq"``;
    # ``"-"`` none in the dice phase; None in the free phase), and extra PGN tags.
    dice: list = field(default_factory=list)
    tags: dict = field(default_factory=dict)
    # per index into ``moves``: an engine's comment on its move (score/depth time,
    # adapters/pgn.py ``move_comment``), written after the move in the PGN
    comments: dict = field(default_factory=dict)

    @property
    def result(self) -> str:
        from engine.game_end import RESULT_TEXT
        return "*" if self.white_score is None else RESULT_TEXT[self.white_score]

    def stderr_brief(self) -> list[str]:
        """``NAME stderr: LINE`` for the last few lines the crashed engine wrote to
        stderr, to show under the result (none when no engine crashed or it said nothing)."""
        if self.crashed is None:
            return []
        who = (self.white, self.black)[self.crashed]
        return [f"{who} stderr: {line}" for line in brief(self.stderr)]


class Player(Protocol):
    """One side of a game, as the arbiter sees it (see the module docstring)."""

    name: str                 # for messages ("fake-crash crashed: ...")
    id_name: str | None       # for the record and the PGN, when the player has one

    def go(self, position: str, go: str, timeout: float) -> tuple:
        """Return (bestmove, ponder or None, seconds thought, last info line), or raise
        GameOver; an engine raises EngineError when it dies or stays silent past
        ``timeout`` seconds."""
        ...


class Unstarted:
    """Stands in for an engine that could not be started (its command is missing, it
    exited at once, it never sent ``uciok``): it loses the game at the start, the way an
    engine deaf to ``ucinewgame`` does, so the record is a whole one (start position,
    opening, reason, stderr) that a runner writes and counts like any other. It is never
    ``alive``, so a runner that reuses engines tries to start it again for the next game."""

    alive = False
    id_name = None

    def __init__(self, name: str, error: EngineError):
        self.name, self.error = name, error

    def start_game(self, variant: str) -> None:
        raise self.error

    def go(self, position: str, go: str, timeout: float) -> tuple:
        raise self.error

    def kill(self) -> None:
        """Nothing runs."""

    def quit(self) -> None:
        """Nothing runs."""


def start_player(command, name: str, **kwargs) -> "UciEngine | Unstarted":
    """Start an engine (``UciEngine(command, name=name, **kwargs)``), or give an
    ``Unstarted`` carrying why it could not be, so that a match loses that game instead
    of stopping."""
    try:
        return UciEngine(command, name=name, **kwargs)
    except EngineError as exc:
        return Unstarted(name, exc)


class GameOver(Exception):
    """Raised by a player's ``go`` to end the game without a move: the arbiter records
    ``white_score`` (None: abandoned, result ``*``) and ``termination`` as given."""

    def __init__(self, white_score: float | None, termination: str):
        super().__init__(termination)
        self.white_score = white_score
        self.termination = termination


class Clocks:
    """Both sides' clocks under one time control; ``tc=None`` plays without clocks (no
    time forfeit; engines get NO_CLOCK_MOVETIME per move, or with ``level_time`` a bare
    ``go``, so that the engine's Level decides how long it thinks: for a person's game)."""

    def __init__(self, tc: TimeControl | None, level_time: bool = False):
        self.tc = tc
        self.left: list = [tc.base, tc.base] if tc else [None, None]
        self.untimed = "" if level_time else f"movetime {int(NO_CLOCK_MOVETIME * 1000)}"

    def go_args(self) -> str:
        """The ``go`` arguments: both clocks and increments in milliseconds."""
        if self.tc is None:
            return self.untimed
        return (f"wtime {max(int(self.left[0] * 1000), 1)} "
                f"btime {max(int(self.left[1] * 1000), 1)} "
                f"winc {int(self.tc.inc * 1000)} binc {int(self.tc.inc * 1000)}")

    def own_go_args(self, side: int) -> str:
        """The ``go`` arguments with ``side``'s clock only (``wtime``/``winc`` for White,
        ``btime``/``binc`` for Black): for games where the opponent's clock is hidden."""
        if self.tc is None:
            return self.untimed
        c = "wb"[side]
        return f"{c}time {max(int(self.left[side] * 1000), 1)} {c}inc {int(self.tc.inc * 1000)}"

    def timeout(self, side: int) -> float:
        """How long to wait for ``side``'s move before it counts as sent no move."""
        if self.tc is None:
            return NO_CLOCK_MOVETIME + NO_CLOCK_SLACK
        return self.left[side] + GRACE

    def charge(self, side: int, spent: float) -> bool:
        """Take ``spent`` seconds off ``side``'s clock and add the increment; False (and
        no increment) when the clock ran out."""
        if self.tc is None:
            return True
        self.left[side] -= spent
        if self.left[side] < 0:
            return False
        self.left[side] += self.tc.inc
        return True


@dataclass(frozen=True)
class Sight:
    """What one side (or a spectator, side None) may see of a game now: the pieces on
    the cells it sees, the cells it cannot see, the cells where it lost a piece out of
    sight, the last move it saw (from, to), the move list as it may read it ((side,
    answer, text) per answer; HIDDEN_MOVE for a move it did not see), the royal cells in
    check, and the position as a FEN it may know (Fog of War: its view FEN; None for a
    spectator there). ``extra`` holds what a game adds (Alea: dice, jokers, cooldowns)."""

    pieces: dict
    fen: str | None = None
    fog: tuple = ()
    lost: tuple = ()
    last: tuple | None = None
    moves: tuple = ()
    check: tuple = ()
    extra: dict = field(default_factory=dict)


HIDDEN_MOVE = "?"                       # a move list entry its reader did not see


class Referee:
    """The perfect-information game: each side is told the whole position (the start
    position and every move since, in UCI) and both clocks; nothing is left to chance.
    ``chess960``: whether engines are to play it with ``UCI_Chess960`` on (only
    adapters/chess960.py's ``Chess960Referee`` says yes)."""

    chess960 = False

    def message_for(self, side: int, board: Board, rec: GameRecord,
                    clocks: Clocks) -> tuple[str, str]:
        """(UCI ``position`` line, ``go`` arguments) for ``side``, the side to move."""
        return self.whole_game(rec), clocks.go_args()

    def chance(self, board: Board, rec: GameRecord) -> None:
        """Before each move: nothing happens by chance in this game."""

    def reveal_at_end(self, side: int, board: Board, rec: GameRecord) -> str:
        """The ``position`` line ``side`` may see once the game is over: all of it."""
        return self.whole_game(rec)

    # -- what the game is: a chess-like board, moves in UCI ------------------------------
    def setup(self, rec: GameRecord, start_fen: str | None) -> Board:
        """The board a new game starts on; sets ``rec.initial_fen``."""
        board = Board(rec.variant, start_fen) if start_fen else Board(rec.variant)
        rec.initial_fen = board.fen()
        self._game = (board, rec)
        return board

    def fen(self, board: Board) -> str:
        return board.fen()

    def outcome(self, board: Board, rec: GameRecord):
        return board.outcome()

    def illegal(self, side: int, board: Board, rec: GameRecord, answer: str) -> str | None:
        """What is wrong with ``answer`` (``"illegal move e2e5"``), None if it is legal."""
        if not answer or answer == "(none)":
            return "no move"
        return None if board.is_legal(answer) else f"illegal move {answer}"

    def play(self, board: Board, rec: GameRecord, answer: str) -> None:
        board.push(answer)
        rec.moves.append(answer.lower())

    # -- what a person is shown (the game session, adapters/session.py) ------------------
    def legal(self, side: int, board: Board, rec: GameRecord) -> list[str]:
        """The answers ``side``, to move, may give: its legal moves in UCI."""
        return board.legal_moves()

    def describe(self, board: Board, answer: str) -> str:
        """How a move list writes a legal ``answer`` made on ``board``: SAN in standard
        chess (python-chess), the UCI move elsewhere."""
        return san(board, answer) or answer

    def sight(self, side: int | None, board: Board, rec: GameRecord, texts: list) -> Sight:
        """What ``side`` (None: a spectator) sees now: everything. ``texts`` are the
        move list's (side, answer, text) entries, one per answer of ``rec.moves``."""
        return Sight(pieces=pieces_of(board), fen=self.fen(board), last=last_cells(rec.moves),
                     moves=tuple(texts), check=check_cells(board))

    def answer_draw(self, engine, score, plies: int) -> tuple[bool | None, int]:
        """A person's draw offer to ``engine``, which UCI gives no way to ask: decided by
        the rule of adapters/draws.py on the engine's last score (its own side's view).
        (accepted, plies before the next offer may be made: none here)."""
        return accept_draw(score, plies), 0

    def board_moves(self, rec: GameRecord) -> tuple[str, list[str]]:
        """The game on a plain board: the start FEN and the board moves of its answers."""
        return rec.initial_fen, list(rec.moves)

    def opening_line(self, rec: GameRecord) -> tuple[str, list[str]] | None:
        """The game as a line of standard chess for the book and the opening names
        (adapters/book_sight.py): its start FEN and moves; None where the game is not
        standard chess (Grand, hex, Fog of War: there the book and names do not apply)."""
        return self.board_moves(rec) if rec.variant == "chess" else None

    def shows_clock(self, viewer: int | None, side: int, rec: GameRecord) -> bool:
        """Whether ``viewer`` (None: a spectator) is shown ``side``'s clock: always."""
        return True

    def mark(self):
        """Where the game set up last stands now, for ``rewind``."""
        return len(self._game[1].moves)

    def rewind(self, mark) -> None:
        """Back to ``mark``, taken earlier in this game: its board and record."""
        board, rec = self._game
        while len(rec.moves) > mark:
            board.pop()
            rec.moves.pop()

    @staticmethod
    def whole_game(rec: GameRecord) -> str:
        """``position fen <start after the opening> moves <every move since>``."""
        played = rec.moves[rec.opening_plies:]
        return f"position fen {rec.start_fen}" + (" moves " + " ".join(played) if played else "")


def pieces_of(board: Board) -> dict:
    """``{cell: FEN letter}`` of every piece on ``board``."""
    return {name: letter for name in board.variant.geometry.names
            if (letter := board.piece_at(name)) is not None}


def last_cells(moves) -> tuple | None:
    """(from, to) of the last move of a list of UCI moves (or Alea tokens), or None."""
    for move in reversed(moves):
        try:
            return move_cells(move.split(":")[-1])
        except ValueError:              # an Alea reroll
            continue
    return None


def check_cells(board: Board) -> tuple:
    """The royal cell of the side to move when it is in check (the check rule only)."""
    if not board.is_check():
        return ()
    king = board.variant.letters[board.variant.royal_type]
    king = king.upper() if board.turn == "w" else king
    return tuple(name for name, letter in pieces_of(board).items() if letter == king)


def san(board: Board, move: str) -> str | None:
    """Standard chess only: the SAN of a legal move, via python-chess."""
    if board.variant.name != "chess":
        return None
    import chess
    try:
        return chess.Board(board.fen()).san(chess.Move.from_uci(move))
    except ValueError:
        return None


def referee_for(variant: str, seed: int | None = None,
                omniscient: tuple = (False, False)) -> Referee:
    """The referee a variant's games need by default: ``FogReferee`` for Fog of War (and
    its aliases), ``AleaReferee`` for Alea (its dice from ``seed``; None: a fresh random
    seed, written in the record), the perfect-information ``Referee`` for every other
    variant (``seed`` is unused there). ``omniscient`` (White, Black): in Fog of War, the
    sides told the whole game instead of their views; ValueError in any other variant,
    where nothing is hidden."""
    from engine.variant import resolve_name
    try:
        name = resolve_name(variant)
    except ValueError:
        name = variant.strip().lower()
    if any(omniscient) and name != "fogofwar":
        raise ValueError(f"an omniscient side needs Fog of War, not {variant!r}: "
                         f"nothing is hidden there")
    if name == "fogofwar":
        from adapters.fog_referee import FogReferee
        return FogReferee(omniscient=omniscient)
    if name == "alea":
        from adapters.alea_referee import AleaReferee
        return AleaReferee(seed=seed)
    return Referee()
