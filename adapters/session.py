"""The game session: one game in progress, as every front end sees it.

A ``GameSession`` holds the true game (its Referee, the arbiter's board and the record),
the two players, the clocks and what the game adds (the dice, the fog views), and
answers for each side what it may see and do now. The match runner, the terminal and the
web board all go through it, so no front end reaches into the rules itself:

- ``view(side)``: a ``SideView`` of plain data (what ``side`` may see now, what it may
  answer if it is to move, the clocks, the result); ``side`` None is a spectator. What a
  side sees is its Referee's ``sight`` (adapters/arbiter.py): in Fog of War its own view
  only, to a spectator nothing until the end.
- ``play(side, answer)``: a person's move (or Alea action). A refused answer is an
  ``IllegalAnswer`` and changes nothing: a person is asked again, never forfeited.
- ``engine_turn()``: the engine to move answers what its Referee tells it (the
  ``position``/``go`` lines); one that crashes, hangs, overruns or answers illegally loses.
- ``resign``, ``offer_draw`` (the opponent engine answers by its Referee's rule; between
  two people the other's offer is agreed to), ``undo`` (within the ``undo_limit``; see
  ``undo_allowance``), ``time_out``/``time_left`` for a front end that runs the clocks
  itself, and ``end`` for a game left or abandoned.
- ``run()``: the whole game with players that answer themselves: an engine's ``go`` (a
  ``UciEngine``), or a person's ``turn(session, side) -> (answer, seconds)`` (the
  terminal's ``HumanPlayer``), which may raise ``GameOver``. ``play_game`` is that loop.

Turns. After every answer the session checks the end (``Referee.outcome``, the ply cap),
then lets the game roll its dice (``Referee.chance``) and notes where the turn began
(for ``undo`` and a person's clock). An Alea reroll leaves the same side to move: the same
turn goes on with new dice.
"""
from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass, field

from adapters.arbiter import (GRACE, Clocks, GameOver, GameRecord, Referee, TimeControl,
                              check_cells, last_cells, pieces_of, referee_for)
from adapters import book_sight
from adapters.draws import parse_score
from adapters.pgn import move_comment
from adapters.uci_engine import EngineError
from engine.board import Board

COLOURS = ("white", "black")
MAX_PLIES = 1000            # a game this long is adjudicated a draw
# Undo (A18 in Alea, and by the same limits in the other games against the bot): how many
# a game, by level; none in timed games, in Daily Dice, against the bot in hexagonal chess
# (docs/rules: "against the bot there is no undo"), and in Fog of War (hidden moves).
UNDO_LIMITS = {"beginner": 5, "easy": 5, "normal": 3, "hard": 0, "adaptive": 0}
UNLIMITED = 10 ** 6
# Reason codes of a finished game, for front ends that say it in their own words: the
# start of the termination text a game ended with -> code.
REASONS = (("checkmate", "checkmate"), ("stalemate", "stalemate"),
           ("king captured", "king_captured"), ("fifty-move", "fifty_moves"),
           ("threefold", "repetition"), ("repetition", "repetition"),
           ("insufficient", "insufficient"), ("dead material", "insufficient"),
           ("resignation", "resignation"), ("draw by agreement", "agreement"),
           ("time forfeit", "time"), ("adjudication", "adjudication"),
           ("abandoned", "abandoned"))


def _settle(eng) -> None:
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


def _crash(rec: GameRecord, side: int, reason: str, exc: EngineError) -> GameRecord:
    """``side``'s engine died (or never started): it loses, its last stderr kept."""
    rec.crashed, rec.stderr = side, list(exc.stderr)
    return _lose(rec, side, reason)


def _start(player, variant: str, chess960: bool = False) -> None:
    """Start a game: a player's own ``start_game``, else the UCI way. Plain chess engines
    need not know UCI_Variant; an engine that played another variant before is told to
    switch back. ``chess960``: the engine is told ``UCI_Chess960 true`` (after the
    variant, which some engines refuse while it is on), and ``false`` again (before the
    variant) for its next game that is not Chess960. EngineError when the engine does
    not answer."""
    start = getattr(player, "start_game", None)
    if start is not None:
        start(variant)
        return
    if getattr(player, "chess960", False) and not chess960:
        player.send("setoption name UCI_Chess960 value false")
        player.chess960 = False
    if variant != "chess" or getattr(player, "variant", "chess") != variant:
        player.send(f"setoption name UCI_Variant value {variant}")
        player.variant = variant
    if chess960 and not getattr(player, "chess960", False):
        player.send("setoption name UCI_Chess960 value true")
        player.chess960 = True
    player.new_game()


class IllegalAnswer(ValueError):
    """A person's answer the rules refuse now (not their turn, an illegal move, a
    finished game); the game is as it was."""


def undo_allowance(game: str, against_engine: bool, level: str = "normal",
                   timed: bool = False, daily: bool = False) -> int:
    """How many undos a person gets in a game (see UNDO_LIMITS): two people at one device
    take back as they agree, except in Fog of War."""
    if game == "fogofwar":
        return 0
    if not against_engine:
        return UNLIMITED
    if timed or daily or game == "hexagonal":
        return 0
    return UNDO_LIMITS.get(level, 0)


def person_referee(game: str, level: str = "normal", person: int | None = 0,
                   seed: int | None = None, classic: bool = False,
                   chess960: int | None = None) -> Referee:
    """The referee of a game a person plays (against an engine as ``person``, or between
    two people when None). Alea: the free-move jokers by the level (A14: the person's
    count, 8 minus it for the engine; 4 each between two people), the dice ``seed``
    (None: a fresh one), classic mode (A19). ``chess960``: a Chess960 game of chess from
    that start position (adapters/chess960.py; ValueError for a bad number). Every other
    game: ``referee_for(game)``."""
    if chess960 is not None:
        from adapters.chess960 import Chess960Referee
        return Chess960Referee(chess960)
    if game != "alea":
        return referee_for(game)
    from adapters.alea_referee import AleaReferee
    from engine.alea import FREE_JOKERS_HUMAN, free_jokers
    jokers = (free_jokers(level, "wb"[person])
              if person is not None and level in FREE_JOKERS_HUMAN else (4, 4))
    return AleaReferee(seed=seed, jokers=jokers, classic=classic)


def reason_code(termination: str) -> str:
    """The code of a termination text (``checkmate``, ``time``, ...; ``other``)."""
    text = termination.lower()
    for start, code in REASONS:
        if start in text:
            return code
    return "engine" if "crashed" in text or "failed" in text or "sent" in text else "other"


@dataclass
class SideView:
    """What one side (``viewer``; None: a spectator) may see and do now: plain data, the
    same for the terminal and, as JSON, for a browser. ``legal`` is empty unless the
    viewer is to move; ``clocks`` are seconds left (None without clocks)."""

    game: str
    viewer: int | None
    turn: int
    over: bool
    pieces: dict
    fen: str | None
    fog: tuple
    lost: tuple
    last: tuple | None
    check: tuple
    moves: tuple                # (side, answer, text) per answer
    legal: tuple
    clocks: tuple | None
    increment: float
    result: dict | None
    draw_offer: int | None      # the side whose draw offer stands
    undos_left: int | None
    extra: dict = field(default_factory=dict)
    opening: dict | None = None     # the opening's name (adapters/book_sight.py)
    book: dict | None = None        # the Quantum Book's moves for this position
    first_move: int = 1             # the move number the game began at (a FEN's)

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class Turn:
    """Where a turn began: the referee's mark, the clocks, the move texts so far, and the
    side to move (a person's undo rewinds to one of these)."""

    side: int
    mark: object
    clocks: list
    texts: int


class GameSession:
    """One game between two players (see the module docstring). ``tc`` None plays
    without clocks; ``referee`` default ``referee_for(variant)``; ``opening`` moves are
    played from ``start_fen`` before the first turn; ``on_move(rec, board)`` is called
    after every answer with the true position; ``undo_limit`` undos for each side;
    ``level_time``: without clocks an engine is sent a bare ``go`` (its Level decides how
    long it thinks) instead of a fixed movetime."""

    def __init__(self, variant: str, white, black, tc: TimeControl | None = None,
                 start_fen: str | None = None, opening: tuple = (),
                 referee: Referee | None = None, on_move=None, undo_limit: int = 0,
                 level_time: bool = False):
        self.variant = variant
        self.players = (white, black)
        self.referee = referee or referee_for(variant)
        self.tc = tc
        self.rec = GameRecord(variant, "", white.id_name or white.name,
                              black.id_name or black.name)
        self.board = self.referee.setup(self.rec, start_fen)
        self.rec.start_fen = self.referee.fen(self.board)
        self.clocks = Clocks(tc, level_time)
        self.on_move = on_move
        self.opening = tuple(opening)
        self.texts: list[tuple] = []        # the move list: (side, answer, text) per answer
        self.turns: list[Turn] = []
        self._opening_sight = book_sight.OpeningSight()
        self.undos_left = [undo_limit, undo_limit]
        self.draw_offer: int | None = None
        self.draw_wait = [0, 0]                     # plies until a side may offer again
        self.scores: list = [None, None]            # each engine's last reported score
        self.thought: list = [None, None]           # and its last move's seconds (go-bestmove)
        self.started = False
        self._began = time.monotonic()
        # A front end may act (resign, say) while an engine thinks in another thread:
        # every change of the game happens under this lock.
        self._lock = threading.RLock()

    # -- the game's course ---------------------------------------------------------------
    def start(self) -> None:
        """Start both players (an engine the UCI way; one that cannot begin the game loses
        it) and play the opening; then the first turn begins."""
        for side, player in enumerate(self.players):
            try:
                _start(player, self.variant, self.referee.chess960)
            except EngineError as exc:
                player.kill()           # dead, or deaf to isready: unusable either way
                _crash(self.rec, side, f"{player.name} failed to start the game: {exc}", exc)
                self.started = True
                return
        for move in self.opening:
            self._make(move)
        self.rec.start_fen = self.referee.fen(self.board)
        self.rec.opening_plies = len(self.opening)
        self.started = True
        self._next_turn()

    @property
    def over(self) -> bool:
        return bool(self.rec.termination)

    @property
    def turn(self) -> int:
        """The side to move: 0 White, 1 Black."""
        return 0 if self.board.turn == "w" else 1

    def _next_turn(self) -> None:
        if self.over:
            return
        outcome = self.referee.outcome(self.board, self.rec)
        if outcome is not None:
            self.end(outcome.white_score, outcome.termination)
            return
        if len(self.rec.moves) >= MAX_PLIES:
            self.end(0.5, "adjudication: game too long")
            return
        continuing = self.turns and self.turns[-1].side == self.turn and \
            self.rec.moves and self.rec.moves[-1] == "reroll"
        self.referee.chance(self.board, self.rec)
        if not continuing:
            self.turns.append(Turn(self.turn, self.referee.mark(), list(self.clocks.left),
                                   len(self.texts)))
        self._began = time.monotonic()

    def _make(self, answer: str) -> None:
        """Make a legal answer: on the board, in the record and in the move list."""
        side, before = self.turn, self.board.copy()
        self.referee.play(self.board, self.rec, answer)
        answer = self.rec.moves[-1]
        self.texts.append((side, answer, self.referee.describe(before, answer)))
        if self.draw_offer is not None and self.draw_offer != side:
            self.draw_offer = None                  # moving declines the offer
        self.draw_wait = [max(0, w - 1) for w in self.draw_wait]

    def _answered(self, side: int, answer: str) -> None:
        self._make(answer)
        if self.on_move:
            self.on_move(self.rec, self.board)
        self._next_turn()

    def end(self, white_score: float | None, termination: str) -> None:
        """End the game (None: abandoned, result ``*``)."""
        with self._lock:
            if not self.over:
                self.rec.white_score, self.rec.termination = white_score, termination

    # -- a person's answers ----------------------------------------------------------------
    def legal(self, side: int) -> list[str]:
        """What ``side`` may answer now: none unless it is to move in a running game."""
        if self.over or not self.started or side != self.turn:
            return []
        return self.referee.legal(side, self.board, self.rec)

    def play(self, side: int, answer: str, spent: float | None = None) -> None:
        """A person's answer for ``side`` (``spent``: seconds thought; default the time
        since the turn began). IllegalAnswer, and no change, when it is refused; a clock
        that ran out loses the game instead."""
        with self._lock:
            if self.over:
                raise IllegalAnswer("the game is over")
            if not self.started:
                raise IllegalAnswer("the game has not started")
            if side != self.turn:
                raise IllegalAnswer(f"it is {COLOURS[self.turn]}'s turn")
            answer = answer.strip().lower()
            what = self.referee.illegal(side, self.board, self.rec, answer)
            if what is not None:
                raise IllegalAnswer(what)
            if spent is None:
                spent = time.monotonic() - self._began
            if not self.clocks.charge(side, spent):
                self._overran(side)
                return
            self._answered(side, answer)

    def _overran(self, side: int) -> None:
        self.rec.time_forfeit = side
        _lose(self.rec, side, f"time forfeit: {self.players[side].name} overran by "
                              f"{-self.clocks.left[side]:.3f} s")

    def refusal(self, side: int, answer: str) -> str | None:
        """Why the rules refuse ``answer`` from ``side`` now, in words; None if legal."""
        if side != self.turn or self.over:
            return "it is not your turn"
        return self.referee.illegal(side, self.board, self.rec, answer.strip().lower())

    def position_for(self, side: int) -> str:
        """The ``position`` line ``side``, to move, is told: what an engine on its side
        would be sent (the Alea guide is asked about it)."""
        return self.referee.message_for(side, self.board, self.rec, self.clocks)[0]

    @property
    def geometry(self):
        """The board's geometry: cell names, coordinates and colours (for drawing)."""
        return self.board.variant.geometry

    def time_left(self, side: int) -> float | None:
        """Seconds on ``side``'s clock now (its running turn counted), None without clocks."""
        left = self.clocks.left[side]
        if left is None:
            return None
        if side == self.turn and not self.over and self.started:
            left -= time.monotonic() - self._began
        return left

    def time_out(self) -> bool:
        """For a front end running a person's clock: when the side to move has no time
        left, it loses on time (True)."""
        with self._lock:
            left = self.time_left(self.turn)
            if self.over or left is None or left > 0:
                return False
            self.rec.time_forfeit = self.turn
            _lose(self.rec, self.turn, f"time forfeit: {self.players[self.turn].name} ran "
                                       "out of time")
            return True

    def resign(self, side: int) -> None:
        self.end(float(side), f"resignation: {self.players[side].name} resigned")

    def offer_draw(self, side: int) -> tuple[bool | None, int]:
        """``side`` offers a draw (or agrees to the other's standing offer). Against an
        engine it answers at once (its Referee's ``answer_draw``); between people the
        offer stands until the other agrees or moves. (True: drawn, False: declined,
        None: standing or not made yet; the plies before ``side`` may offer again)."""
        if self.over:
            raise IllegalAnswer("the game is over")
        other = self.players[1 - side]
        if self.draw_offer == 1 - side:
            self.end(0.5, "draw by agreement")
            return True, 0
        if self.draw_wait[side] > 0:
            return None, self.draw_wait[side]
        if hasattr(other, "send"):                  # an engine
            accepted, wait = self.referee.answer_draw(other, self.scores[1 - side],
                                                      len(self.rec.moves))
            if accepted:
                self.end(0.5, "draw by agreement")
            self.draw_wait[side] = wait
            return accepted, wait
        self.draw_offer = side
        return None, 0

    def undo(self, side: int) -> list[str]:
        """Take back ``side``'s last answer and what came after it, with its dice and
        jokers (A18): back to where ``side``'s previous turn began, the same dice shown
        again. Returns the answers taken back, oldest first; IllegalAnswer when no undo
        is left, or there is nothing to take back."""
        with self._lock:
            return self._undo(side)

    def _undo(self, side: int) -> list[str]:
        if self.over:
            raise IllegalAnswer("the game is over")
        if self.undos_left[side] <= 0:
            raise IllegalAnswer("no undo left")
        current = len(self.turns) - 1 if self.turns and self.turns[-1].side == side \
            and not self.over else len(self.turns)
        back = next((i for i in range(current - 1, -1, -1) if self.turns[i].side == side),
                    None)
        if back is None or self.turns[back].texts < self.rec.opening_plies:
            raise IllegalAnswer("nothing to take back")
        turn = self.turns[back]
        taken = [answer for _, answer, _ in self.texts[turn.texts:]]
        self.referee.rewind(turn.mark)
        for ply in [k for k in self.rec.comments if k >= len(self.rec.moves)]:
            del self.rec.comments[ply]
        del self.texts[turn.texts:], self.turns[back + 1:]
        self.clocks.left = list(turn.clocks)
        self.undos_left[side] -= 1
        self.draw_offer = None
        self._began = time.monotonic()
        return taken

    # -- an engine's answers -------------------------------------------------------------
    def engine_turn(self) -> None:
        """The player to move (an engine) answers what its Referee tells it; one that
        dies, hangs, overruns its clock or answers illegally loses the game."""
        side, rec = self.turn, self.rec
        player = self.players[side]
        position, go = self.referee.message_for(side, self.board, rec, self.clocks)
        try:
            best, _, spent, info = player.go(position, go, self.clocks.timeout(side))
        except GameOver as over:
            self.end(over.white_score, over.termination)
            return
        except EngineError as exc:
            if player.alive:
                _settle(player)
                rec.time_forfeit = side
                _lose(rec, side, f"time forfeit: {player.name} sent no move ({exc})")
            else:
                _crash(rec, side, f"{player.name} crashed: {exc}", exc)
            return
        with self._lock:
            if self.over:                       # ended meanwhile (the person resigned)
                return
            self.scores[side] = parse_score(info) or self.scores[side]
            self.thought[side] = spent
            if not self.clocks.charge(side, spent):
                self._overran(side)
                return
            what = self.referee.illegal(side, self.board, rec, best)
            if what is not None:
                rec.illegal = side
                _lose(rec, side, f"{player.name} sent {what} in {self.referee.fen(self.board)}")
                return
            rec.comments[len(rec.moves)] = move_comment(info, spent)
            self._answered(side, best)

    def run(self) -> GameRecord:
        """Play the game to its end with players that answer themselves (see the module
        docstring); the finished record."""
        if not self.started:
            self.start()
        while not self.over:
            side = self.turn
            player = self.players[side]
            if not hasattr(player, "turn"):
                self.engine_turn()
                continue
            try:
                answer, spent = player.turn(self, side)
            except GameOver as over:
                self.end(over.white_score, over.termination)
                continue
            if answer is not None:              # None: the person undid, or offered a draw
                self.play(side, answer, spent)
        return self.rec

    # -- what a side sees ----------------------------------------------------------------
    def replay(self) -> list[dict]:
        """Once the game is over (the rules then reveal everything): every position from
        the first, as ``{"pieces", "last"}`` after each board move; [] before the end."""
        if not self.over:
            return []
        start, moves = self.referee.board_moves(self.rec)
        board = Board(self.board.variant, start)
        out = [{"pieces": pieces_of(board), "last": None, "check": check_cells(board)}]
        for move in moves:
            board.push(move)
            out.append({"pieces": pieces_of(board), "last": last_cells([move]),
                        "check": check_cells(board)})
        return out

    def view(self, viewer: int | None) -> SideView:
        sight = self.referee.sight(viewer, self.board, self.rec, self.texts)
        rec = self.rec
        clocks = None if self.tc is None else tuple(
            self.time_left(s) if self.referee.shows_clock(viewer, s, self.rec) else None
            for s in (0, 1))
        result = None
        if self.over:
            result = {"white": rec.white_score, "text": rec.result,
                      "reason": reason_code(rec.termination), "termination": rec.termination}
        return SideView(
            game=self.variant, viewer=viewer, turn=self.turn, over=self.over,
            pieces=sight.pieces, fen=sight.fen, fog=sight.fog, lost=sight.lost, last=sight.last,
            check=sight.check, moves=sight.moves,
            legal=tuple(self.legal(viewer)) if viewer is not None else (),
            clocks=clocks, increment=self.tc.inc if self.tc else 0.0, result=result,
            draw_offer=self.draw_offer,
            undos_left=None if viewer is None else self.undos_left[viewer],
            extra=sight.extra, first_move=_fullmove(rec.initial_fen),
            **self._opening_sight.of(self.referee.opening_line(rec)))


def _fullmove(fen: str) -> int:
    """The move number of a FEN (its sixth field; 1 where it has none)."""
    fields = fen.split()
    return int(fields[5]) if len(fields) > 5 and fields[5].isdigit() else 1


def play_game(white, black, variant: str, tc: TimeControl | None,
              start_fen: str | None = None, opening: tuple = (), on_move=None,
              referee: Referee | None = None) -> GameRecord:
    """Play one game between two players that answer themselves (engines must be
    started; an ``Unstarted`` loses at once) and return the finished record: a
    ``GameSession`` run to its end. ``tc=None`` plays without clocks; ``referee`` decides
    what each side is told and what is legal (default ``referee_for(variant)``)."""
    return GameSession(variant, white, black, tc, start_fen, opening, referee,
                       on_move).run()
