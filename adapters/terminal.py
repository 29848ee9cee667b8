"""Play Quantum (or any UCI engine) in the terminal, or two people at one keyboard.

    python -m adapters.terminal --variant hexagonal --color black --tc 300+5
    scripts/play --option Level=easy --pgn games.pgn
    scripts/play --two-humans --tc none
    scripts/play --variant fogofwar --two-humans --tc 600+5
    scripts/play --variant alea --guide --option Level=easy
    scripts/play --daily

``HumanPlayer`` is a person behind the arbiter's player interface (adapters/arbiter.py):
on each turn it is sent what an engine would be sent (the referee's position line and go
arguments), draws that position from its own side, shows the clocks, the last move and
check, and reads a move from its input: UCI coordinates (``e2e4``, ``e7e8q``, ``b9b10c``,
``f5f6``) or, in standard chess, SAN (``Nf3``, ``O-O``). Commands: ``help``, ``moves``,
``board``, ``draw``, ``resign``, ``quit``. A bad entry is answered and asked again.

A hot-seat game gives both sides to HumanPlayers sharing one terminal; ``between_turns``
(called before a human's turn is shown) is where a game can hide one player's screen from
the other.

Fog of War (``--variant fogofwar``): the human is sent what an engine is sent, the
``position fog`` message (adapters/fog_referee.py), and sees only that: the last view,
with ``?`` on every fogged cell, the cells where a piece was lost out of sight, and the
own clock; the opponent's moves are not shown. Moves are typed in coordinates and checked
against the moves the view allows (engine.fog.view_moves, exactly the legal ones). With
``--two-humans`` a ``curtain`` falls between the turns: the screen is cleared and the next
player is asked to take the device and press Enter before their view is drawn. The whole
game is shown once it is over.

Alea (``--variant alea``, chess with two dice; adapters/alea_referee.py rolls the dice,
``--seed N`` or ``--seed daily`` fixes them): the human sees the board, the dice
(``Dice: knight + queen``), the jokers left (free-move, reroll, castle) of both sides, the
cooldowns, a pending castle follow-up, and what the promotion die gave. Entries: ``e2e4``
(or SAN), ``joker e2e4``, ``castle e1g1``, ``reroll``, and a promotion without its piece
(``e7e8``: the die decides). ``draw`` offers a draw to the engine, which answers at once
(after a refusal the next offer is possible 10 plies later, A17); ``moves`` lists the
legal actions. ``--option Level=...`` (beginner, easy, normal, hard) also sets the
free-move jokers (A14: the human's count and 8 minus it for the engine). Alea games have
no clocks unless ``--tc`` asks for them. Against an engine an ``AleaHost`` adds:

* ``undo`` (A18): the referee is rewound to the start of the person's previous turn
  (``AleaReferee.mark``/``rewind``): the same dice, jokers and generator position, so the
  same answers get the same dice again. 5 a game at Beginner and Easy, 3 at Normal, none
  at Hard, in timed games or in Daily Dice.
* the Quantum guide (A22; ``--guide``, or ``guide on|off`` at any turn): a second
  Quantum process (``AleaGuide``) is sent the person's position and ``go nodes 300000
  guide`` before the move, and ``guide review <token>`` after it; its ``info string
  guide`` lines (docs/protocol.md) are shown in words: the threats, the move it suggests
  and why, then whether a better move existed and whether a free-move joker would have
  been worth it. Not in classic mode.

``--classic`` is A19's classic mode (no dice, no jokers, promotion to a queen).
``--daily`` is Daily Dice (A20): today's seed (``alea_referee.daily_seed``, UTC date),
Level normal, no undo. The first finished game of each day is recorded in
``$XDG_DATA_HOME/quantum/alea-daily.json`` (written atomically; nothing leaves the
machine) with the streak (*decided*: days in a row with a finished daily game, up to
today) and the number of daily wins, and a line to share is printed:
``Quantum Alea Daily 2026-11-30: won in 41 moves as White, streak 3``.
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import random
import re
import shlex
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from adapters.arbiter import GameOver, Referee, TimeControl, play_game, referee_for
from adapters.fog_referee import parse_fog_position
from adapters.uci_engine import EngineError, UciEngine, brief
from engine.board import Board
from engine.drawing import draw
from engine.fog import parse_view_fen, view_board, view_moves

ROOT = Path(__file__).resolve().parent.parent
QUANTUM = f"{shlex.quote(sys.executable)} -m engine"
VARIANTS = ("chess", "grand", "hexagonal", "fogofwar", "alea")
FOG_MARK = "?"                          # a fogged cell in a Fog of War drawing
CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H"      # ANSI: clear the screen and its scrollback, go home
COLOUR = ("White", "Black")
GAME_WORDS = ("resign", "quit", "exit", "draw")  # in every variant: HumanPlayer.game_word
COORDINATE = re.compile(r"([a-z])(\d{1,2})([a-z])(\d{1,2})([a-z]?)")
UNDONE = object()                       # an Alea turn's entry: the referee was rewound

HELP = """\
Enter a move as from-cell and to-cell: e2e4, g1f3; a promotion adds the piece letter:
e7e8q (Grand: b9b10c). In standard chess SAN works too: e4, Nf3, exd5, O-O, e8=Q.
Commands:
  moves    list the legal moves
  board    draw the board again
  draw     offer a draw (to a human opponent) or accept one offered to you
  resign   give up this game
  quit     leave; the game is recorded unfinished (*)
  help     this text
Draws by repetition, the n-move rule and dead material are applied automatically."""

ALEA_HELP = """\
Alea: chess with two dice. Your first 8 moves are free (any piece but the king); then
two dice show the piece types you may move (1-2 knight, 3-6 bishop, 4 rook, 5 queen).
Pawns and the king's one-square step never need dice; a type moved last turn rests
(cooldown), unless you are in check. A pawn that promotes becomes what the promotion
die shows. Enter:
  e2e4         a move the dice allow (SAN works too: Nf3); a promotion as e7e8
  joker e2e4   spend a free-move joker: any legal move, dice and cooldown ignored
  castle e1g1  spend the castle joker (the only way to castle)
  reroll       spend a reroll joker: new dice
  moves        list what you may do now
  draw         offer a draw (the engine answers at once)
  undo         take back your last move, with its dice and jokers (A18: 5 at Beginner
               and Easy, 3 at Normal; none at Hard, in timed games or in Daily Dice)
  guide on|off the Quantum guide: advice before your move, a review after it (A22)
  board, resign, quit, help"""


def parse_position(line: str, variant: str) -> Board:
    """The board a UCI ``position`` line describes (``fen ...`` or ``startpos``, then
    ``moves ...``). ValueError when the line is not one."""
    words = line.split()
    if words[:1] != ["position"] or len(words) < 2:
        raise ValueError(f"not a position line: {line!r}")
    k = words.index("moves") if "moves" in words else len(words)
    if words[1] == "startpos":
        board = Board(variant)
    elif words[1] == "fen":
        board = Board(variant, " ".join(words[2:k]))
    else:
        raise ValueError(f"not a position line: {line!r}")
    for move in words[k + 1:]:
        board.push(move)
    return board


def parse_clocks(go: str) -> tuple:
    """(white seconds, black seconds, white increment, black increment) from ``go``
    arguments; None for each one not given (a game without clocks)."""
    words = go.split()

    def value(key):
        if key in words[:-1]:
            try:
                return int(words[words.index(key) + 1]) / 1000.0
            except ValueError:
                return None
        return None
    return tuple(value(k) for k in ("wtime", "btime", "winc", "binc"))


class FogSight:
    """What a Fog of War player knows at its turn, read from a ``position fog`` line: the
    last view, the board it gives with fog as empty cells (for reading moves), the moves
    it allows, the cells lost since the own last move, and that move."""

    def __init__(self, line: str, variant: str):
        turns = parse_fog_position(line)
        self.view = parse_view_fen(turns[-1].view, variant)
        self.board = view_board(self.view, variant=variant)
        self.legal = view_moves(self.view, variant)
        self.lost = turns[-1].lost
        self.own_last = turns[-2].move if len(turns) > 1 else None

    def letter_at(self, name: str) -> str | None:
        if name not in self.view.visible:
            return FOG_MARK
        return self.view.pieces.get(name)


def curtain(player: "HumanPlayer", colour: str) -> None:
    """The hot-seat curtain of Fog of War (a ``between_turns`` hook): clear the screen,
    then wait until the next player has the device and presses Enter. The end of the
    input ends the game as abandoned."""
    player.say(CLEAR_SCREEN, end="")
    player.say(f"Pass the device to {colour} ({player.name}), then press Enter.", end="")
    if not player.input.readline():
        player.say("")
        raise GameOver(None, f"abandoned: {player.name} left the game")
    player.say(CLEAR_SCREEN, end="")


def format_clock(seconds: float) -> str:
    """``4:05`` from a minute up, ``9.3`` below (where tenths matter)."""
    if seconds >= 60:
        whole = int(seconds)
        return f"{whole // 60}:{whole % 60:02d}"
    return f"{max(seconds, 0.0):.1f}"


def _san(board: Board, uci: str) -> str | None:
    """Standard chess only: the SAN of a legal move, via python-chess."""
    if board.variant.name != "chess":
        return None
    import chess
    try:
        return chess.Board(board.fen()).san(chess.Move.from_uci(uci))
    except ValueError:
        return None


class HumanPlayer:
    """A person at a terminal, playing through the arbiter (see the module docstring).

    ``input``/``output`` default to stdin/stdout; the end of the input counts as ``quit``.
    ``between_turns(player, colour)`` runs before each of this player's turns is shown.
    ``opponent`` links the two players of a hot-seat game, so that a draw offered by one
    is put to the other.
    """

    def __init__(self, name: str = "Human", input=None, output=None, between_turns=None):
        self.name = name
        self.id_name = None
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stdout
        self.between_turns = between_turns
        self.opponent: HumanPlayer | None = None
        self.variant = "chess"
        self.draw_offered_to_me = False
        # Alea: put a draw offer to the engine, () -> (accepted, what to say); set by
        # play_in_terminal (AleaReferee.offer_draw).
        self.draw_offer = None
        # Alea against an engine: undo and the guide (an AleaHost); set by play_in_terminal.
        self.alea_host: AleaHost | None = None
        self._alea = None                   # the last position alea line read

    # -- the arbiter's player interface ------------------------------------------------
    def start_game(self, variant: str) -> None:
        self.variant = variant
        self.draw_offered_to_me = False
        self._alea = None

    def go(self, position: str, go: str, timeout: float):
        """Show the position, read commands until a legal move; return it with the time
        taken. Resigning, accepting a draw and quitting raise GameOver. A ``position
        fog`` line is shown as the view it ends with (see the module docstring)."""
        if position.split()[1:2] == ["alea"]:
            return self.go_alea(position, go)
        fog = FogSight(position, self.variant) if position.split()[1:2] == ["fog"] else None
        board = fog.board if fog else parse_position(position, self.variant)
        legal = fog.legal if fog else board.legal_moves()
        side = 0 if board.turn == "w" else 1
        if self.between_turns is not None:
            self.between_turns(self, COLOUR[side])
        start = time.monotonic()
        self.show(board, parse_clocks(go), side, start, fog)
        move = self.read_turn(
            side, HELP, lambda: self.list_moves(board, legal),
            lambda: self.show(board, parse_clocks(go), side, start, fog),
            lambda text: self.read_move(board, text, legal),
            no_draw_answer="Your opponent is an engine, which cannot answer a draw offer "
                           "over UCI; draws by repetition, the n-move rule and dead "
                           "material are applied automatically.")
        if self.draw_offered_to_me:
            self.say("(Moving declines the draw offer.)")
        self.draw_offered_to_me = False
        return move, None, time.monotonic() - start, ""

    def read_turn(self, side: int, help_text: str, moves, show, parse,
                  no_draw_answer: str) -> str:
        """Prompt ``side``'s player and read entries until ``parse`` accepts one; return
        what it gives. ``help`` says ``help_text``, ``moves`` says ``moves()``, ``board``
        calls ``show()``, GAME_WORDS go to ``game_word`` (``no_draw_answer`` when nobody
        can answer a draw offer); anything else is ``parse(text)``: (result, None), or
        (None, what to say). The end of the input (the person has gone) raises
        GameOver."""
        while True:
            self.say(f"{COLOUR[side]} to move ({self.name})> ", end="")
            line = self.input.readline()
            if not line:
                self.say("")
                raise GameOver(None, f"abandoned: {self.name} left the game")
            text = line.strip()
            if not text:
                continue
            word = text.lower()
            if word == "help":
                self.say(help_text)
            elif word == "moves":
                self.say(moves())
            elif word == "board":
                show()
            elif word in GAME_WORDS:
                self.game_word(word, side, no_draw_answer)
            else:
                result, problem = parse(text)
                if result is not None:
                    return result
                self.say(problem)

    def game_word(self, word: str, side: int, no_answer: str) -> None:
        """One of GAME_WORDS, entered by ``side``'s player: ``resign`` and ``quit``/``exit``
        end the game; ``draw`` agrees to a draw offered to this player, else offers one:
        to the engine through ``draw_offer`` (Alea), to the other player of a hot-seat
        game, or says ``no_answer`` when nobody can answer it."""
        if word == "resign":
            self.say(f"{self.name} resigns.")
            raise GameOver(float(side), f"resignation: {self.name} resigned")
        if word in ("quit", "exit"):
            raise GameOver(None, f"abandoned: {self.name} quit")
        if self.draw_offered_to_me:
            self.say("Draw agreed.")
            raise GameOver(0.5, "draw by agreement")
        if self.draw_offer is not None:
            accepted, message = self.draw_offer()
            self.say(message)
            if accepted:
                raise GameOver(0.5, "draw by agreement")
        elif self.opponent is not None:
            self.opponent.draw_offered_to_me = True
            self.say(f"You offer a draw; now make your move. "
                     f"{COLOUR[1 - side]} answers on their turn.")
        else:
            self.say(no_answer)

    # -- Alea ---------------------------------------------------------------------------
    def go_alea(self, position: str, go: str):
        """An Alea turn: show the board, dice, jokers and cooldowns (and the guide's
        advice); read an action (see the module docstring), or an undo, which shows the
        earlier turn and reads again; return the action's token."""
        from adapters.alea_referee import parse_alea_position
        host = self.alea_host
        pos = self._alea = parse_alea_position(position, self._alea)
        if self.between_turns is not None:
            self.between_turns(self, COLOUR[pos.state.side])
        if host is not None:
            host.start_turn(pos.tokens)
        while True:
            state = pos.state
            self.show_alea(pos, parse_clocks(go))
            if host is not None:
                for text in host.advice():
                    self.say(text)
            start = time.monotonic()
            token = self.read_turn(
                state.side, ALEA_HELP, lambda: alea_actions_text(state),
                lambda: self.show_alea(pos, parse_clocks(go)),
                lambda text: self.alea_entry(state, text),
                no_draw_answer="Your opponent cannot answer a draw offer here.")
            if token is not UNDONE:
                break
            position = host.referee.position_line()
            pos = self._alea = parse_alea_position(position, self._alea)
        spent = time.monotonic() - start
        if host is not None:
            for text in host.review(token):
                self.say(text)
        self.draw_offered_to_me = False
        return token, None, spent, ""

    def alea_entry(self, state, text: str) -> tuple:
        """``read_alea``, and the entries of a game against an engine: ``undo`` ((UNDONE,
        None) once the referee is rewound) and ``guide on|off``."""
        words = text.lower().split()
        host = self.alea_host
        if words == ["undo"]:
            if host is None:
                return None, "There is no undo in this game."
            ok, message = host.undo()
            if not ok:
                return None, message
            self.say(message)
            return UNDONE, None
        if words[:1] == ["guide"]:
            if host is None:
                return None, "The guide plays only against an engine."
            return None, "\n".join(host.switch_guide(words[1:]))
        return read_alea(state, text)

    def show_alea(self, pos, clocks: tuple) -> None:
        from engine import alea
        state, side = pos.state, pos.state.side
        self.say("")
        for text in alea_last_actions(pos.tokens, side, state.classic):
            self.say(text)
        self.say(self.drawing(state.board, flip=side == 1))
        wtime, btime, winc, _ = clocks
        if wtime is not None and btime is not None:
            inc = f" (+{winc:g} s a move)" if winc else ""
            self.say(f"Clocks: White {format_clock(wtime)}  Black {format_clock(btime)}{inc}")
        self.say(alea_dice_text(state))
        if not state.classic:
            self.say("Jokers left: " + "  ".join(
                f"{COLOUR[s]} free {state.jokers[s]}, reroll {state.rerolls[s]}, "
                f"castle {state.castle_jokers[s]}" for s in (0, 1)))
            rests = [f"{COLOUR[s]}'s {PIECE_NAMES[t]}" for s, t in enumerate(state.last_type)
                     if t is not None]
            if rests:
                lifted = " (lifted: you are in check)" if alea.in_check(state) else ""
                self.say(f"Cooldown: {', '.join(rests)} moved last and rests a turn{lifted}.")
            follow = state.follow_up[side]
            if follow is not None:
                self.say(f"After castling you may move the rook on {follow[0]} or the king "
                         "one square this turn, without dice.")
        if state.board.is_check():
            self.say(f"{COLOUR[side]} is in check.")
        if self.draw_offered_to_me:
            self.say(f"{COLOUR[1 - side]} offers a draw: type 'draw' to accept, or move to "
                     "decline.")

    # -- reading moves -----------------------------------------------------------------
    def read_move(self, board: Board, text: str, legal: list | None = None) -> tuple:
        """(legal UCI move, None) or (None, what is wrong with ``text``); ``legal``
        defaults to the board's legal moves."""
        legal = board.legal_moves() if legal is None else legal
        uci = text.lower()
        if uci in legal:
            return uci, None
        m = COORDINATE.fullmatch(uci)
        if m:
            geometry = board.variant.geometry
            for cell in (m[1] + m[2], m[3] + m[4]):
                try:
                    geometry.cell(cell)
                except KeyError:
                    return None, f"There is no cell {cell} on this board."
            stem = m[1] + m[2] + m[3] + m[4]
            promotions = sorted(mv for mv in legal if mv.startswith(stem)
                                and len(mv) > len(stem) and mv[len(stem)].isalpha())
            if promotions and not m[5]:
                return None, (f"{stem} promotes: add the piece letter, one of "
                              f"{', '.join(promotions)}.")
            if promotions:
                return None, (f"{uci} is not a legal promotion here; one of "
                              f"{', '.join(promotions)}.")
            return None, (f"{uci} is not a legal move here. Type 'moves' for the legal "
                          "moves.")
        if board.variant.name == "chess":
            import chess
            try:
                san_move = chess.Board(board.fen()).parse_san(text).uci()
            except chess.AmbiguousMoveError:
                return None, f"{text} is ambiguous: name the file or rank it comes from."
            except chess.IllegalMoveError:
                return None, f"{text} is not a legal move here. Type 'moves' for the list."
            except ValueError:
                pass
            else:
                if san_move in legal:
                    return san_move, None
        return None, (f"{text!r} is neither a move nor a command. Enter a move like "
                      f"{legal[0] if legal else 'e2e4'}"
                      f"{' or Nf3' if board.variant.name == 'chess' else ''}, or 'help'.")

    def list_moves(self, board: Board, legal: list | None = None) -> str:
        legal = sorted(board.legal_moves() if legal is None else legal)
        parts = [f"Legal moves ({len(legal)}): " + " ".join(legal)]
        if board.variant.name == "chess":
            parts.append("In SAN: " + " ".join(sorted(_san(board, m) or m for m in legal)))
        return "\n".join(textwrap.fill(p, 78, subsequent_indent="  ", break_on_hyphens=False)
                         for p in parts)

    # -- showing -----------------------------------------------------------------------
    def show(self, board: Board, clocks: tuple, side: int, start: float,
             fog: FogSight | None = None) -> None:
        """The board from ``side``'s side, the last move, the clocks and check; in Fog of
        War the view instead (``fog``)."""
        self.say("")
        if fog is not None:
            self.show_fog(fog, clocks, side)
            return
        stack = board.move_stack
        if stack:
            last = stack[-1]
            before = board.copy()
            before.pop()
            san = _san(before, last)
            self.say(f"{COLOUR[1 - side]} played {last}" + (f" ({san})" if san else "") + ".")
        self.say(self.drawing(board, flip=side == 1))
        wtime, btime, winc, _ = clocks
        if wtime is not None and btime is not None:
            inc = f" (+{winc:g} s a move)" if winc else ""
            self.say(f"Clocks: White {format_clock(wtime)}  Black {format_clock(btime)}{inc}")
        if board.is_check():
            self.say(f"{COLOUR[side]} is in check.")
        if self.draw_offered_to_me:
            self.say(f"{COLOUR[1 - side]} offers a draw: type 'draw' to accept, or move to "
                     "decline.")

    def show_fog(self, fog: FogSight, clocks: tuple, side: int) -> None:
        """The view from ``side``'s side, ``?`` on fog; the lost cells; the own clock."""
        if fog.own_last is not None or side == 1:
            self.say(f"{COLOUR[1 - side]} has moved (Fog of War: you do not see where)."
                     + (f" Your last move: {fog.own_last}." if fog.own_last else ""))
        g = fog.board.variant.geometry
        self.say(draw(g, lambda c: fog.letter_at(g.names[c]), flip=side == 1))
        self.say(f"{FOG_MARK} = fog: you cannot see that cell.")
        if fog.lost:
            cells = ", ".join(fog.lost)
            self.say(f"You lost a piece on {cells} (now out of sight).")
        own, inc = clocks[side], clocks[2 + side]
        if own is not None:
            extra = f" (+{inc:g} s a move)" if inc else ""
            self.say(f"Clock: {COLOUR[side]} {format_clock(own)}{extra}")
        if self.draw_offered_to_me:
            self.say(f"{COLOUR[1 - side]} offers a draw: type 'draw' to accept, or move to "
                     "decline.")

    @staticmethod
    def drawing(board: Board, flip: bool = False) -> str:
        g = board.variant.geometry
        return draw(g, lambda c: board.piece_at(g.names[c]), flip=flip)

    def say(self, text: str, end: str = "\n") -> None:
        self.output.write(text + end)
        self.output.flush()


# -- Alea: reading and describing actions ---------------------------------------------
PIECE_NAMES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen",
               "k": "king"}


def read_alea(state, text: str) -> tuple:
    """(token, None) for a legal action typed by a person, or (None, what is wrong):
    ``e2e4`` or SAN, ``joker e2e4``, ``castle e1g1`` (or ``O-O``), ``reroll``; a
    promotion's piece letter is dropped (the die decides)."""
    from adapters.alea_referee import explain, format_token
    from engine import alea
    from engine.alea import CASTLE, JOKER, MOVE, REROLL, Action
    words = text.replace(":", " ").split()
    kind = words[0].lower() if words else ""
    if kind == REROLL and len(words) == 1:
        action = Action(REROLL)
    else:
        if kind in (JOKER, CASTLE) and len(words) == 2:
            move_text = words[1]
        elif len(words) == 1:
            kind, move_text = MOVE, words[0]
        else:
            return None, (f"{text!r} is not an action: enter e2e4, joker e2e4, castle e1g1, "
                          "reroll, or 'help'.")
        move = _alea_move(state, move_text)
        if move is None:
            return None, (f"{move_text!r} is neither a move nor a command. Enter a move like "
                          "e2e4 or Nf3, or 'help'.")
        if kind == MOVE and state.board.piece_at(move[:2]) in ("K", "k") \
                and abs(ord(move[0]) - ord(move[2])) == 2:
            kind = CASTLE                   # O-O, e1g1: castling is the castle joker
        action = Action(kind, move)
    if action not in alea.legal_actions(state):
        return None, f"{str(action)} is not allowed: {explain(state, action)}. Type 'moves'."
    return format_token(action), None


def _alea_move(state, text: str) -> str | None:
    """The four-letter move ``text`` names (coordinates or SAN), or None."""
    uci = text.lower()
    if re.fullmatch(r"[a-h][1-8][a-h][1-8][nbrq]?", uci):
        return uci[:4]
    import chess
    try:
        return chess.Board(state.board.fen()).parse_san(text).uci()[:4]
    except ValueError:
        return None


def alea_dice_text(state) -> str:
    from engine import alea
    if state.classic:
        return "Classic mode: no dice."
    if alea.is_free_phase(state):
        return (f"Dice: none yet -- free move {state.moves[state.side] + 1} of 8 (any piece "
                "but the king).")
    if state.dice is None:
        return "Dice: none -- no piece type can move: move a pawn or the king."
    return "Dice: " + " + ".join(PIECE_NAMES[t] for t in state.dice)


def alea_actions_text(state) -> str:
    """What the side to move may do, grouped: moves, joker, castle, reroll."""
    from engine import alea
    from engine.alea import CASTLE, JOKER, MOVE, REROLL
    actions = alea.legal_actions(state)
    moves = sorted(a.move for a in actions if a.kind == MOVE)
    parts = [f"Moves ({len(moves)}): " + " ".join(moves)]
    jokers = [a for a in actions if a.kind == JOKER]
    if jokers:
        parts.append(f"joker <move>: any of the {len(jokers)} legal moves "
                     f"({state.jokers[state.side]} free-move jokers left)")
    castles = [a.move for a in actions if a.kind == CASTLE]
    if castles:
        parts.append("castle: " + " ".join(f"castle {m}" for m in castles))
    if any(a.kind == REROLL for a in actions):
        parts.append(f"reroll ({state.rerolls[state.side]} left)")
    return "\n".join(textwrap.fill(p, 78, subsequent_indent="  ", break_on_hyphens=False)
                     for p in parts)


def alea_last_actions(tokens, side: int, classic: bool = False) -> list[str]:
    """The opponent's last action (and the own before it, when a promotion), in words."""
    from adapters.alea_referee import parse_token
    plies = [t for t in tokens if t != "reroll"]
    out = []
    for back, who in ((2, "Your"), (1, f"{COLOUR[1 - side]}'s")):
        if len(plies) < back:
            continue
        token = plies[-back]
        action, promotion = parse_token(token)
        if back == 1:
            kind = {"joker": " with a free-move joker", "castle": " with the castle joker"}
            out.append(f"{COLOUR[1 - side]} played {action.move}{kind.get(action.kind, '')}.")
        if promotion and classic:
            out.append(f"{who} promotion on {action.move[2:]}: a queen (classic mode).")
        elif promotion:
            out.append(f"{who} promotion on {action.move[2:]}: the promotion die gave a "
                       f"{PIECE_NAMES[promotion]}.")
    if tokens and tokens[-1] == "reroll":
        out.append("You spent a reroll joker: new dice.")
    return out


# -- Alea against an engine: undo (A18), the guide (A22), Daily Dice (A20) --------------
UNDO_LIMITS = {"beginner": 5, "easy": 5, "normal": 3, "hard": 0}       # A18
GUIDE_GO = "nodes 300000"       # the guide's search before the person's move
GUIDE_TIMEOUT = 60.0            # seconds the guide may take to answer (a hang guard)
REVIEW_LOSS = 50                # cp: a played action this much worse gets "a better move was"


def action_words(token: str, state=None) -> str:
    """A token as a person types it (``joker e2e4``), a move with its SAN when ``state``
    (the position before it) is given: ``g1f3 (Nf3)``."""
    from adapters.alea_referee import parse_token
    from engine import alea
    from engine.alea import REROLL
    action, _ = parse_token(token)
    text = str(action)
    if action.kind == REROLL or state is None or alea.is_promotion(state, action.move):
        return text
    import chess
    try:
        return f"{text} ({chess.Board(state.board.fen()).san(chess.Move.from_uci(action.move))})"
    except ValueError:
        return text


class AleaGuide:
    """The Quantum guide (A22) for a person: a second Quantum process (``command``),
    started at its first use, that is sent the person's position line and ``go <go>
    guide`` before the move, and ``guide review <token>`` after it (docs/protocol.md,
    "The Quantum guide"); its lines are put in plain words. ``on``: switched on."""

    def __init__(self, command: str = QUANTUM, go: str = GUIDE_GO, on: bool = False):
        self.command, self.go, self.on = command, go, on
        self.engine: UciEngine | None = None
        self.advised: tuple | None = None       # (position, token) of the last advice

    def _engine(self) -> UciEngine:
        if self.engine is None:
            self.engine = UciEngine(self.command, name="Quantum guide",
                                    options={"UCI_Variant": "alea"}, cwd=str(ROOT))
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

    def advice(self, position: str, state) -> list[str]:
        """What the guide says before the move, in words."""
        lines = self._ask(position, f"go {self.go} guide".replace("  ", " "),
                          lambda s: s.startswith("bestmove"))
        out = []
        for line in lines:
            kind, _, rest = line.partition(" ")
            if kind == "threat":
                out.append(f"Guide: {rest[:1].upper()}{rest[1:]}.")
            elif kind == "best":
                token, _, reason = rest.partition(" reason ")
                self.advised = (position, token)
                out.append(f"Guide: play {action_words(token, state)} -- {reason}.")
        return out

    def review(self, position: str, state, token: str) -> list[str]:
        """What the guide says about ``token`` played in ``position``, in words: whether
        there was a better action, and whether a free-move joker was worth it."""
        from adapters.alea_referee import parse_token
        from engine.alea import JOKER
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
            out = ["Guide: that was the guide's move."]
        elif loss < REVIEW_LOSS:
            out = ["Guide: a good move."]
        else:
            out = [f"Guide: a better move was {action_words(best, state)} "
                   f"(about {loss / 100:.1f} pawns better)."]
        if parse_token(token)[0].kind == JOKER:
            out.append("Guide: the free-move joker was worth spending." if worth else
                       "Guide: the free-move joker was not worth spending here.")
        elif worth:
            out.append("Guide: a free-move joker would have been worth it here.")
        return out

    def close(self) -> None:
        if self.engine is not None:
            self.engine.quit()
            self.engine = None


class AleaHost:
    """What the terminal adds to an Alea game against an engine, on the referee's side:
    undo (A18: ``UNDO_LIMITS`` by ``level``; none in timed games or Daily Dice) and the
    guide (A22, an ``AleaGuide``; not in classic mode). ``HumanPlayer.go_alea`` calls
    ``start_turn``, ``advice``, ``undo``, ``switch_guide`` and ``review``."""

    def __init__(self, referee, level: str = "normal", timed: bool = False,
                 daily: bool = False, guide: AleaGuide | None = None):
        self.referee = referee
        self.level = level if level in UNDO_LIMITS else "normal"
        self.guide = guide if guide is not None else AleaGuide()
        self.marks: list = []               # the referee at the start of each own turn
        if daily:
            self.no_undo = "No undo in Daily Dice (A18)."
        elif timed:
            self.no_undo = "No undo in a timed game (A18)."
        elif UNDO_LIMITS[self.level] == 0:
            self.no_undo = f"No undo at {self.level.title()} (A18)."
        else:
            self.no_undo = None
        self.undos_left = 0 if self.no_undo else UNDO_LIMITS[self.level]

    # -- undo ---------------------------------------------------------------------------
    def start_turn(self, tokens) -> None:
        """A person's turn begins (not after their own reroll: that is the same turn)."""
        if not tokens or tokens[-1] != "reroll":
            self.marks.append(self.referee.mark())

    def undo(self) -> tuple[bool, str]:
        """Rewind the referee to the start of the person's previous turn: (done, what to
        say)."""
        if self.no_undo:
            return False, self.no_undo
        if len(self.marks) < 2:
            return False, "Nothing to take back: you have not moved yet."
        if self.undos_left == 0:
            return False, (f"No undo left: {self.level.title()} allows "
                           f"{UNDO_LIMITS[self.level]} a game (A18).")
        ref = self.referee
        self.marks.pop()
        back = self.marks[-1]
        taken = [t for t in ref.tokens[back.tokens:] if t != "reroll"]
        ref.rewind(back)
        self.undos_left -= 1
        what = f"your {action_words(taken[0])}" + \
            (f" and the reply {action_words(taken[1])}" if len(taken) > 1 else "")
        dice = "; the same dice again" if back.state.dice else ""
        left = f"{self.undos_left} undo{'s' if self.undos_left != 1 else ''} left"
        return True, f"Taken back: {what}{dice}. ({left}.)"

    # -- the guide ----------------------------------------------------------------------
    def _guide_problem(self) -> str | None:
        if self.referee.state.classic:
            return "The guide advises on dice and jokers: not in classic mode (A19)."
        return None

    def switch_guide(self, words: list[str]) -> list[str]:
        """``guide on`` (with the advice for this turn at once), ``guide off``, or
        ``guide`` alone (whether it is on)."""
        if words == ["off"]:
            self.guide.on = False
            return ["Guide off."]
        if words == ["on"]:
            problem = self._guide_problem()
            if problem:
                return [problem]
            self.guide.on = True
            return ["Guide on."] + self.advice()
        if not words:
            return [f"The guide is {'on' if self.guide.on else 'off'}: 'guide on' or "
                    "'guide off'."]
        return ["Enter 'guide on' or 'guide off'."]

    def _run(self, ask) -> list[str]:
        if not self.guide.on or self._guide_problem():
            return []
        try:
            return ask()
        except (EngineError, OSError, ValueError) as exc:
            self.guide.on = False
            self.guide.close()
            return [f"The guide is not available ({exc}); guide off."]

    def advice(self) -> list[str]:
        ref = self.referee
        return self._run(lambda: self.guide.advice(ref.position_line(), ref.state))

    def review(self, token: str) -> list[str]:
        """The review of ``token``, before the referee plays it."""
        ref = self.referee
        return self._run(lambda: self.guide.review(ref.position_line(), ref.state, token))

    def close(self) -> None:
        self.guide.close()


def daily_path() -> Path:
    """The Daily Dice record: ``$XDG_DATA_HOME/quantum/alea-daily.json`` (XDG's default
    ``~/.local/share`` when unset or not absolute)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "quantum" / "alea-daily.json"


def load_daily(path: Path) -> dict:
    """The record's days (``{"YYYY-MM-DD": {...}}``); empty when there is no file.
    ValueError when the file is not a record."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} cannot be read: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("days"), dict):
        raise ValueError(f"{path} is not a Daily Dice record")
    return data["days"]


def save_daily(path: Path, days: dict) -> None:
    """Write the record atomically: a temporary file in the same folder, flushed to disk,
    then renamed over the old one (which stays whole if anything fails)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump({"version": 1, "days": days}, fh, indent=1, sort_keys=True)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def daily_streak(days: dict, day: datetime.date) -> int:
    """Days in a row, up to ``day``, with a finished Daily Dice game."""
    streak = 0
    while (day - datetime.timedelta(days=streak)).isoformat() in days:
        streak += 1
    return streak


def share_line(day: str, entry: dict, streak: int) -> str:
    """``Quantum Alea Daily 2026-11-30: won in 41 moves as White, streak 3``."""
    moves = entry["moves"]
    return (f"Quantum Alea Daily {day}: {entry['result']} in {moves} "
            f"move{'s' if moves != 1 else ''} as {entry['colour']}, streak {streak}")


def record_daily(day: datetime.date, rec, colour: int, path: Path | None = None) -> list[str]:
    """A20: record the first finished Daily Dice game of ``day`` (the person played
    ``colour``); what to tell the person: the record, the streak, the daily wins and the
    line to share. An unfinished game (``*``) is not recorded; a later game of the same
    day neither (the first one stands)."""
    path = path or daily_path()
    if rec.white_score is None:
        return ["Daily Dice: an unfinished game is not recorded."]
    try:
        days = load_daily(path)
    except ValueError as exc:
        return [f"Daily Dice: {exc}; nothing recorded (the file is left as it is)."]
    key = day.isoformat()
    out = []
    if key in days:
        out.append("Daily Dice: today's game was already recorded; this one does not count.")
    else:
        mine = rec.white_score if colour == 0 else 1.0 - rec.white_score
        plies = sum(1 for m in rec.moves if m != "reroll")
        days[key] = {"result": {1.0: "won", 0.5: "drew", 0.0: "lost"}[mine],
                     "moves": (plies + 1) // 2, "colour": COLOUR[colour],
                     "termination": rec.termination, "seed": rec.tags.get("DiceSeed")}
        try:
            save_daily(path, days)
        except OSError as exc:
            return [f"Daily Dice: the record could not be written ({exc})."]
    streak = daily_streak(days, day)
    wins = sum(1 for entry in days.values() if entry.get("result") == "won")
    out.append(f"Daily Dice record ({path}): streak {streak} "
               f"day{'s' if streak != 1 else ''}, {wins} daily win{'s' if wins != 1 else ''}.")
    out.append(share_line(key, days[key], streak))
    return out


# -- the command line -----------------------------------------------------------------
def parse_options(items) -> dict:
    out = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--option wants NAME=VALUE, not {item!r}")
        out[key] = value
    return out


def parse_tc(text: str) -> TimeControl | None:
    """``300+5``, ``600``, or ``none`` (no clocks)."""
    return None if text.lower() in ("none", "-", "0") else TimeControl.parse(text)


def play_in_terminal(variant: str, humans: tuple, engine=None, colour: int = 0,
                     tc: TimeControl | None = None, output=None,
                     referee: Referee | None = None, alea_host: AleaHost | None = None,
                     start_fen: str | None = None):
    """Play one game: ``humans`` are one HumanPlayer (against ``engine``, taking the
    side ``colour``) or two (hot seat, White first). ``alea_host`` (an AleaHost on
    ``referee``) gives the person undo and the guide. Draws the final position the
    referee reveals and the result; returns the record."""
    out = output if output is not None else sys.stdout
    referee = referee or referee_for(variant)
    if len(humans) == 2:
        white, black = humans
        white.opponent, black.opponent = black, white
    else:
        white, black = (humans[0], engine) if colour == 0 else (engine, humans[0])
    if engine is not None and hasattr(referee, "offer_draw"):      # Alea (A17)
        humans[0].draw_offer = lambda: referee.offer_draw(engine)
    humans[0].alea_host = alea_host
    rec = play_game(white, black, variant, tc, start_fen=start_fen, referee=referee)
    viewer = colour if len(humans) == 1 else 0
    if variant == "alea":
        from adapters.alea_referee import parse_alea_position
        board = parse_alea_position(referee.reveal_at_end(viewer, None, rec)).state.board
    else:
        truth = Board(variant, rec.initial_fen or None)
        for move in rec.moves:
            truth.push(move)
        board = parse_position(referee.reveal_at_end(viewer, truth, rec), variant)
    out.write("\n" + HumanPlayer.drawing(board, flip=len(humans) == 1 and colour == 1) + "\n")
    if rec.moves:
        out.write(f"Last move: {rec.moves[-1]}\n")
    out.write(f"Game over: {rec.result} ({rec.termination})\n")
    out.write("".join(f"  {line}\n" for line in rec.stderr_brief()))
    out.flush()
    return rec


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m adapters.terminal", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", choices=VARIANTS,
                    help="the game (default chess; alea with --daily, --classic, --guide)")
    ap.add_argument("--engine", default=QUANTUM, help="engine command (default: Quantum)")
    ap.add_argument("--option", action="append", metavar="NAME=VALUE",
                    help="engine option, e.g. Level=easy (repeatable)")
    ap.add_argument("--color", "--colour", default="white",
                    choices=("white", "black", "random"), help="your side")
    ap.add_argument("--tc", help="base seconds + increment, e.g. 300+5, or 'none' for no "
                    "clocks (default 300+5; in Alea none)")
    ap.add_argument("--pgn", help="append the finished game to this PGN file")
    ap.add_argument("--two-humans", action="store_true",
                    help="both sides human at this keyboard (hot seat)")
    ap.add_argument("--seed", metavar="N|daily",
                    help="Alea dice seed (an integer, or 'daily': today's dice)")
    ap.add_argument("--daily", action="store_true",
                    help="Alea Daily Dice: today's dice, Level normal, no undo; the first "
                    "finished game of the day is recorded (A20)")
    ap.add_argument("--classic", action="store_true",
                    help="Alea's classic mode: no dice, no jokers (A19)")
    ap.add_argument("--guide", action="store_true",
                    help="Alea: the Quantum guide on from the start (A22)")
    args = ap.parse_args(argv)
    alea_flags = [f"--{name}" for name in ("daily", "classic", "guide") if getattr(args, name)]
    variant = args.variant or ("alea" if alea_flags else "chess")
    if alea_flags and variant != "alea":
        ap.error(f"{alea_flags[0]} is for Alea (--variant alea)")
    if args.guide and args.two_humans:
        ap.error("--guide advises a person playing the engine: not with --two-humans")
    if args.daily and (args.seed is not None or args.classic or args.two_humans):
        ap.error("--daily plays today's dice against the engine: no --seed, --classic or "
                 "--two-humans")
    try:
        tc = parse_tc(args.tc or ("none" if variant == "alea" else "300+5"))
        options = parse_options(args.option)
        seed = None
        if args.seed is not None:
            from adapters.alea_referee import parse_seed
            seed = parse_seed(args.seed)
    except ValueError as exc:
        ap.error(str(exc))
    colour = {"white": 0, "black": 1}.get(args.color, random.randrange(2))
    referee = host = day = None
    if variant == "alea":
        from adapters.alea_referee import AleaReferee, daily_seed
        from engine.alea import FREE_JOKERS_HUMAN, free_jokers
        if args.daily:
            if options.get("Level", "normal").lower() != "normal":
                print("Daily Dice is always played at Level normal (A14).")
            options["Level"] = "normal"
            day = datetime.datetime.now(datetime.timezone.utc).date()
            seed = daily_seed(day)
        level = options.get("Level", "normal").lower()
        jokers = (free_jokers(level, "wb"[colour])
                  if level in FREE_JOKERS_HUMAN and not args.two_humans else (4, 4))
        referee = AleaReferee(seed=seed, jokers=jokers, classic=args.classic)
        if not args.two_humans:
            host = AleaHost(referee, level, timed=tc is not None, daily=args.daily,
                            guide=AleaGuide(on=args.guide and not args.classic))
    engine = None
    if args.two_humans:
        # In Fog of War a curtain hides each player's view from the other.
        hook = curtain if variant == "fogofwar" else None
        humans = (HumanPlayer("Human 1", between_turns=hook),
                  HumanPlayer("Human 2", between_turns=hook))
    else:
        humans = (HumanPlayer("Human"),)
        print(f"Starting {args.engine} ...", flush=True)
        try:
            engine = UciEngine(args.engine, options=options, cwd=str(ROOT))
        except EngineError as exc:
            print(f"error: the engine did not start: {exc}", file=sys.stderr)
            for line in brief(exc.stderr):
                print(f"  its stderr: {line}", file=sys.stderr)
            return 1
        what = f"Daily Dice {day.isoformat()}" if day else \
            "alea (classic mode)" if args.classic else variant
        print(f"{what}: you play {COLOUR[colour]} against "
              f"{engine.id_name or engine.name}. Type 'help' for help.", flush=True)
    try:
        rec = play_in_terminal(variant, humans, engine, colour, tc, referee=referee,
                               alea_host=host)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    finally:
        if engine is not None:
            engine.quit()
        if host is not None:
            host.close()
    if day is not None:
        for line in record_daily(day, rec, colour):
            print(line)
    if args.pgn:
        from adapters.pgn import open_to_append, write_pgn
        try:
            with open_to_append(args.pgn) as fh:
                fh.write(write_pgn(rec, tc.pgn() if tc else "-", event="Quantum terminal game")
                         + "\n")
        except OSError as exc:
            print(f"error: the game could not be written to {args.pgn}: {exc}", file=sys.stderr)
            return 1
        print(f"Game written to {args.pgn}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
