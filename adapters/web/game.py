"""One game on the web board, as the pages watching it play it (docs/web.md).

A ``WebGame`` holds a ``GameSession`` (adapters/session.py) whose people are the page's:
one side against the engine, both sides at one device. The engine opponent is a UCI
process (``UciEngine``); its start, its turns, its draw answers and the Alea guide run in
a thread pool, so the server never waits on a search. Every change goes through the
session, and after each one every page watching the game is sent a ``state``: the
session's ``view`` of the side the page shows, so in Fog of War one side's view only and
nothing at all behind the curtain, until the game is over. Nothing a page sends is
trusted: a ``Setup`` is checked field by field, a move by the session.
"""
from __future__ import annotations

import asyncio
import datetime
import secrets
import shlex
import sys
from dataclasses import asdict, dataclass, replace

from adapters.alea_referee import daily_seed
from adapters.arbiter import TimeControl
from adapters.chess960 import POSITIONS, check_number
from adapters.daily import record_daily
from adapters.guide import AleaGuide
from adapters.pgn import write_pgn
from adapters.session import GameSession, IllegalAnswer, person_referee, undo_allowance
from adapters.uci_engine import EngineError, UciEngine

QUANTUM = f"{shlex.quote(sys.executable)} -m engine"
GAMES = ("chess", "grand", "hexagonal", "fogofwar", "alea")
LEVELS = ("beginner", "easy", "normal", "hard", "adaptive")
MODES = ("bot", "local")
SIDES = ("white", "black", "random")
SEATINGS = ("side", "face")
LEARNS = ("chess", "grand", "hexagonal")     # the games the adaptive level learns from
MAX_CLOCK_S = 3 * 3600
MAX_FEN = 200
PIECE_NAMES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen",
               "k": "king", "a": "archbishop", "c": "chancellor"}
OPPONENT = "none none human player"         # UCI_Opponent: the adaptive level's profile


class WebError(ValueError):
    """A message the game refuses: said to the page, nothing changes."""


@dataclass(frozen=True)
class Setup:
    """A game's settings (docs/web.md, the query string), checked."""

    game: str = "chess"
    mode: str = "bot"
    level: str = "normal"
    side: str = "white"
    clock: str = "none"
    seating: str = "side"
    flip: bool = False
    classic: bool = False
    daily: bool = False
    guide: bool = False
    fen: str | None = None
    chess960: bool = False
    position: int | None = None     # Chess960's start position, 0..959 (None: at random)

    @classmethod
    def parse(cls, msg: dict) -> "Setup":
        """The settings of a ``new`` message; WebError naming the first bad one."""
        def choice(key, allowed, default):
            value = msg.get(key, default)
            if value not in allowed:
                raise WebError(f"{key} must be one of {', '.join(allowed)}")
            return value

        def flag(key):
            value = msg.get(key, False)
            if value not in (True, False, 0, 1, "0", "1"):
                raise WebError(f"{key} must be true or false")
            return value in (True, 1, "1")

        clock = msg.get("clock", "none")
        if not isinstance(clock, str) or (clock != "none" and _time_control(clock) is None):
            raise WebError("clock must be 'none' or BASE+INC in seconds (300+5)")
        fen = msg.get("fen")
        if fen is not None and (not isinstance(fen, str) or len(fen) > MAX_FEN):
            raise WebError("fen must be a FEN")
        position = msg.get("position")
        if position is not None:
            try:
                position = check_number(position)
            except ValueError as exc:
                raise WebError(str(exc)) from None
        setup = cls(choice("game", GAMES, "chess"), choice("mode", MODES, "bot"),
                    choice("level", LEVELS, "normal"), choice("side", SIDES, "white"), clock,
                    choice("seating", SEATINGS, "side"), flag("flip"), flag("classic"),
                    flag("daily"), flag("guide"), fen or None, flag("chess960"), position)
        if (setup.chess960 or position is not None) and setup.game != "chess":
            raise WebError("chess960 and position are chess's settings")
        if position is not None and not setup.chess960:
            raise WebError("position is a Chess960 start position: add chess960")
        if setup.chess960 and setup.fen:
            raise WebError("a Chess960 game starts from its position number, not a fen")
        if setup.chess960 and position is None:
            setup = replace(setup, position=secrets.randbelow(POSITIONS))
        if setup.game != "alea" and (setup.classic or setup.daily or setup.guide):
            raise WebError("classic, daily and guide are Alea's settings")
        if setup.daily:
            if setup.mode != "bot" or setup.classic or setup.fen:
                raise WebError("Daily Dice is played against the engine, from the start")
            setup = replace(setup, level="normal")          # A20: always Normal
        if setup.side == "random":
            setup = replace(setup, side=secrets.choice(("white", "black")))
        return setup

    @property
    def tc(self) -> TimeControl | None:
        return _time_control(self.clock)


def _time_control(text: str) -> TimeControl | None:
    try:
        tc = TimeControl.parse(text)
    except ValueError:
        return None
    return tc if tc.base <= MAX_CLOCK_S and tc.inc <= 60 else None


class Person:
    """A person of the page: the session never asks it (its moves come from the page)."""

    id_name = None

    def __init__(self, name: str):
        self.name = name

    def start_game(self, variant: str) -> None:
        """Nothing to start."""


class WebGame:
    """One game and the pages watching it (see the module docstring)."""

    def __init__(self, setup: Setup, pool, engine_command: str = QUANTUM):
        self.id = secrets.token_urlsafe(12)
        self.setup, self.pool, self.engine_command = setup, pool, engine_command
        self.bot = setup.mode == "bot"
        self.person = ("white", "black").index(setup.side) if self.bot else None
        self.people = (self.person,) if self.bot else (0, 1)
        self.pages: set = set()
        self.session: GameSession | None = None
        self.engine: UciEngine | None = None
        self.guide = AleaGuide(on=setup.guide) if self.bot and setup.game == "alea" \
            and not setup.classic else None
        self.notes: list = []
        self.draw_answer: dict | None = None
        self.adaptive_lines: list = []
        self.daily: dict | None = None
        self.pgn = ""
        self.curtain: int | None = None
        self.thinking = False
        self.finished = False
        self.left_at: float | None = None           # when its last page closed
        self._flag: asyncio.TimerHandle | None = None
        self._lock = asyncio.Lock()

    # -- running things off the event loop -------------------------------------------------
    async def _run(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    # -- start ---------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the engine (against the bot) and the session; WebError when the engine
        does not start or the start position is refused."""
        s = self.setup
        players = [Person("White"), Person("Black")]
        if self.bot:
            players[self.person] = Person("You")
            options = {"Level": s.level}
            if s.level == "adaptive":
                options["UCI_Opponent"] = OPPONENT
            try:
                self.engine = await self._run(lambda: UciEngine(
                    self.engine_command, name="Quantum", options=options))
            except EngineError as exc:
                raise WebError(f"the engine did not start: {exc}") from None
            players[1 - self.person] = self.engine
        seed = daily_seed(_today()) if s.daily else None
        referee = person_referee(s.game, s.level, self.person, seed, s.classic,
                                 s.position if s.chess960 else None)
        undos = undo_allowance(s.game, self.bot, s.level, s.tc is not None, s.daily)
        try:
            self.session = GameSession(s.game, players[0], players[1], s.tc, start_fen=s.fen,
                                       referee=referee, undo_limit=undos, level_time=True)
        except ValueError as exc:
            raise WebError(f"start position: {exc}") from None
        await self._run(self.session.start)
        await self._changed()

    # -- what pages send ------------------------------------------------------------------------
    async def act(self, msg: dict, page) -> None:
        """One message of a page (docs/web.md); WebError or IllegalAnswer when refused."""
        kind = msg.get("t")
        handler = {"move": self._move, "undo": self._undo, "draw": self._draw,
                   "resign": self._resign, "lift": self._lift, "guide": self._switch_guide,
                   "reset_adaptive": self._reset_adaptive}.get(kind)
        if handler is None:
            raise WebError(f"unknown message type {str(kind)[:40]!r}")
        async with self._lock:
            if self.session is None:
                raise WebError("the game has not started")
            await handler(msg)

    def _acting_side(self, msg: dict, to_move: bool) -> int:
        """The side a message acts for: the person's against the bot; between two people
        the side to move (``to_move``) or the one the message names."""
        if self.bot:
            return self.person
        if to_move:
            return self.session.turn
        side = msg.get("side")
        if side not in ("w", "b"):
            raise WebError("side must be 'w' or 'b'")
        return "wb".index(side)

    def _no_engine_busy(self) -> None:
        if self.thinking:
            raise WebError("wait for the engine's move")

    async def _move(self, msg: dict) -> None:
        move = msg.get("move")
        if not isinstance(move, str) or not 2 <= len(move) <= 20:
            raise WebError("move must be a move or an Alea action")
        if self.curtain is not None:
            raise WebError("lift the curtain first")
        side = self._acting_side(msg, True)
        refusal = self.session.refusal(side, move)
        if refusal is not None:
            raise IllegalAnswer(refusal)
        review = self._review(side, move.strip().lower())
        self.notes, self.draw_answer = [], None
        self.session.play(side, move)
        if not self.bot and self.setup.game == "fogofwar" and not self.session.over:
            self.curtain = self.session.turn
        await self._changed()           # the move is shown at once, the review after it
        if review is not None:          # (the engine's reply waits for this lock)
            self.notes = await self._guide_notes(review)
            await self.broadcast()

    async def _undo(self, msg: dict) -> None:
        self._no_engine_busy()
        # Against the bot the person's last move and the reply; two people: the last move.
        side = self.person if self.bot else 1 - self.session.turn
        self.session.undo(side)
        self.notes, self.draw_answer = [], None
        await self._changed()

    async def _draw(self, msg: dict) -> None:
        self._no_engine_busy()
        side = self._acting_side(msg, False)
        accepted, wait = await self._run(self.session.offer_draw, side)
        self.draw_answer = {"side": side, "accepted": accepted, "wait": wait} if self.bot \
            else None
        await self._changed()

    async def _resign(self, msg: dict) -> None:
        self.session.resign(self._acting_side(msg, False))
        if self.thinking and self.engine is not None:
            self.engine.send("stop")            # its move no longer counts (the session)
        await self._changed()

    async def _lift(self, msg: dict) -> None:
        if self.curtain is None:
            raise WebError("there is no curtain")
        self.curtain = None
        await self._changed()

    async def _switch_guide(self, msg: dict) -> None:
        if self.guide is None:
            raise WebError("the guide advises a person playing Alea against the engine")
        on = msg.get("on")
        if on not in (True, False):
            raise WebError("on must be true or false")
        self.guide.on = on
        self.notes = []
        await self._changed()

    async def _reset_adaptive(self, msg: dict) -> None:
        if self.engine is None or self.setup.level != "adaptive":
            raise WebError("Reset Benlik is for a game against the adaptive level")
        self._no_engine_busy()
        await self._run(self._ask_engine, "setoption name Reset Adaptive Profile")
        self.adaptive_lines = ["reset"]
        await self._changed()

    def _ask_engine(self, command: str) -> list[str]:
        """Send ``command`` to the idle engine; its ``info string`` lines until readyok."""
        self.engine.send(command)
        self.engine.send("isready")
        return [line[len("info string "):] for line in
                self.engine.until(lambda s: s == "readyok", 30)
                if line.startswith("info string ")]

    # -- the guide (Alea, A22) -------------------------------------------------------------------
    async def _advise(self) -> None:
        """The guide's advice for the person's turn (threats first)."""
        if self.guide is None or not self.guide.on:
            return
        side = self.person
        position, fen = self.session.position_for(side), self.session.view(side).fen
        self.notes = self.notes + await self._guide_notes(
            lambda: self.guide.advice(position, fen))

    def _review(self, side: int, token: str):
        """The guide's review of the person's move ``token``, to ask once it is played
        (the position is taken now, before it); None when the guide is off."""
        if self.guide is None or not self.guide.on or side != self.person:
            return None
        position, fen = self.session.position_for(side), self.session.view(side).fen
        return lambda: self.guide.review(position, fen, token)

    async def _guide_notes(self, ask) -> list:
        try:
            return [asdict(note) for note in await self._run(ask)]
        except (EngineError, OSError, ValueError):
            self.guide.on = False
            self.guide.close()
            return [{"kind": "error", "text": "The guide is not available; guide off.",
                     "cells": (), "piece": None, "token": None, "verdict": None}]

    # -- after every change ---------------------------------------------------------------------
    async def _changed(self) -> None:
        """The end, the engine's turn, the person's clock and the guide; then every page
        is told."""
        s = self.session
        if self._flag is not None:
            self._flag.cancel()
            self._flag = None
        if s.over:
            if not self.thinking:           # else once the engine's last turn has returned
                await self._finish()
        elif self.bot and s.turn != self.person:
            if not self.thinking:
                self.thinking = True
                asyncio.get_running_loop().create_task(self._engine_move())
        else:
            left = s.time_left(s.turn)
            if left is not None:
                self._flag = asyncio.get_running_loop().call_later(
                    max(left, 0.0) + 0.05, lambda: asyncio.ensure_future(self._flag_fell()))
            if self.bot:
                await self._advise()
        await self.broadcast()

    async def _engine_move(self) -> None:
        try:
            await self._run(self.session.engine_turn)
        finally:
            async with self._lock:
                self.thinking = False
                await self._changed()

    async def _flag_fell(self) -> None:
        async with self._lock:
            if self.session.time_out():
                await self._changed()

    async def _finish(self) -> None:
        """Once, when the game ends: the adaptive level learns from it, Daily Dice records
        it, and its PGN is written."""
        if self.finished:
            return
        self.finished = True
        rec, tc = self.session.rec, self.setup.tc
        self.pgn = write_pgn(rec, tc.pgn() if tc else "-", event="Quantum web game")
        if self.bot and self.setup.level == "adaptive" and self.setup.game in LEARNS \
                and rec.white_score is not None and self.engine is not None \
                and self.engine.alive:
            side = "black" if self.person == 0 else "white"
            fen = f" fen {rec.initial_fen}" if self.setup.fen else ""
            learn = f"learn result {rec.result} side {side}{fen} moves {' '.join(rec.moves)}"
            try:
                lines = await self._run(self._ask_engine, learn)
            except EngineError:
                lines = []
            self.adaptive_lines = [line[len("adaptive: "):] for line in lines
                                   if line.startswith("adaptive: ")]
        if self.setup.daily and rec.white_score is not None:
            day = _today()
            lines = await self._run(record_daily, day, rec, self.person)
            self.daily = {"date": day.isoformat(), "lines": lines,
                          "share": next((ln for ln in lines
                                         if ln.startswith("Quantum Alea Daily")), None)}

    # -- what pages are sent ------------------------------------------------------------------------
    def layout(self) -> dict:
        g = self.session.geometry
        letters = self.session.board.variant.letters
        return {"t": "layout", "game": self.setup.game,
                "shape": "hex" if g.kind == "hex" else "square", "files": g.files,
                "ranks": max(g.ranks),
                "cells": [{"n": n, "x": x, "y": y, "c": c}
                          for n, (x, y), c in zip(g.names, g.coords, g.colours)],
                "pieces": {ch: PIECE_NAMES.get(ch, ch) for ch in letters[1:]}}

    def viewer(self) -> int | None:
        """The side a page shows: the person's against the bot; between two people the
        side to move, none behind the curtain, White once the game is over."""
        s = self.session
        if self.bot:
            return self.person
        if s.over:
            return 0
        return None if self.curtain is not None else s.turn

    def state(self) -> dict:
        s = self.session
        data = s.view(self.viewer()).to_json()
        data.update(t="state", id=self.id, setup=asdict(self.setup), people=list(self.people),
                    thinking=self.thinking,
                    curtain=None if self.curtain is None else {"next": self.curtain},
                    guide=None if self.guide is None else {"on": self.guide.on,
                                                           "notes": self.notes},
                    draw_answer=self.draw_answer, adaptive=self.adaptive_lines,
                    daily=self.daily, names=[s.rec.white, s.rec.black])
        if s.over:
            data.update(pgn=self.pgn, replay=s.replay())
        return data

    async def broadcast(self) -> None:
        state = self.state()
        for page in list(self.pages):
            await page.send_state(state)

    # -- the end of its pages ---------------------------------------------------------------------
    def close(self) -> None:
        """Stop the engine and the guide (the game is forgotten)."""
        if self.engine is not None:
            self.engine.quit()
        if self.guide is not None:
            self.guide.close()


def _today() -> datetime.date:
    return datetime.datetime.now(datetime.timezone.utc).date()

