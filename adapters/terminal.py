"""Play Quantum (or any UCI engine) in the terminal, or two people at one keyboard.

    python -m adapters.terminal --variant hexagonal --color black --tc 300+5
    scripts/play --option Level=easy --pgn games.pgn
    scripts/play --two-humans --tc none
    scripts/play --variant fogofwar --two-humans --tc 600+5
    scripts/play --variant alea --guide --option Level=easy
    scripts/play --daily
    scripts/play --chess960 --position 518

``HumanPlayer`` is a person playing one side of a game session (adapters/session.py): on
each turn it draws what the session lets its side see (``GameSession.view``: in Fog of
War its own view only), shows the clocks, the last move and check, and reads an answer
from its input, checked against the answers the session allows: UCI coordinates
(``e2e4``, ``e7e8q``, ``b9b10c``, ``f5f6``) or, in standard chess, SAN (``Nf3``, ``O-O``).
Commands: ``help``, ``moves``, ``board``, ``draw`` (an engine answers at once: by its score,
adapters/draws.py, or in Alea by A17), ``undo`` (where the session allows it:
``undo_allowance``), ``resign``, ``quit``. A bad entry is answered and asked again.

Chess960 (``--chess960``, adapters/chess960.py): from start position ``--position N``
(Scharnagl's number 0..959; default a random one), said at the start. Castles are shown
as ``O-O``/``O-O-O`` and entered so, or in SAN, or king-takes-rook in UCI (``e1h1``; a
king move of two cells such as ``e1g1`` is no castle in Chess960).

A hot-seat game gives both sides to HumanPlayers sharing one terminal; ``between_turns``
(called before a human's turn is shown) is where a game can hide one player's screen from
the other.

Fog of War (``--variant fogofwar``): the human sees what the fog referee lets its side see
(adapters/fog_referee.py): its view, with ``?`` on every fogged cell, the cells where a
piece was lost out of sight, and the own clock; the opponent's moves are not shown. Moves
are typed in coordinates and checked against the moves the view allows. With
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

* ``undo`` (A18): the session rewinds to the start of the person's previous turn: the
  same dice, jokers and generator position, so the same answers get the same dice again.
  5 a game at Beginner and Easy, 3 at Normal, none at Hard, in timed games or in Daily
  Dice; the refusals are said with their rule.
* the Quantum guide (A22; ``--guide``, or ``guide on|off`` at any turn; adapters/guide.py):
  a second Quantum process is sent the person's position and ``go nodes 300000 guide``
  before the move, and ``guide review <token>`` after it; what it says is shown in words:
  the threats, the move it suggests and why, then whether a better move existed and
  whether a free-move joker would have been worth it. Not in classic mode.

``--classic`` is A19's classic mode (no dice, no jokers, promotion to a queen).
``--daily`` is Daily Dice (A20): today's seed (``alea_referee.daily_seed``, UTC date),
Level normal, no undo. The first finished game of each day is recorded (adapters/daily.py:
``$XDG_DATA_HOME/quantum/alea-daily.json``, written atomically; nothing leaves the
machine) with the streak and the number of daily wins, and a line to share is printed:
``Quantum Alea Daily 2026-11-30: won in 41 moves as White, streak 3``.
"""
from __future__ import annotations

import argparse
import datetime
import random
import re
import shlex
import sys
import textwrap
import time

from adapters.arbiter import GameOver, Referee, TimeControl, referee_for
from adapters.daily import record_daily
from adapters.guide import AleaGuide, action_words
from adapters.session import GameSession, IllegalAnswer, SideView, person_referee, undo_allowance
from adapters.uci_engine import EngineError, UciEngine, brief
from engine.drawing import draw

QUANTUM = f"{shlex.quote(sys.executable)} -m engine"
VARIANTS = ("chess", "grand", "hexagonal", "fogofwar", "alea")
FOG_MARK = "?"                          # a fogged cell in a Fog of War drawing
CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H"      # ANSI: clear the screen and its scrollback, go home
COLOUR = ("White", "Black")
GAME_WORDS = ("resign", "quit", "exit", "draw")  # in every variant: HumanPlayer.game_word
COORDINATE = re.compile(r"([a-z])(\d{1,2})([a-z])(\d{1,2})([a-z]?)")
PIECE_NAMES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen",
               "k": "king"}
UNDO_LIMITS = {"beginner": 5, "easy": 5, "normal": 3, "hard": 0}       # A18 (the levels)

HELP = """\
Enter a move as from-cell and to-cell: e2e4, g1f3; a promotion adds the piece letter:
e7e8q (Grand: b9b10c). In standard chess SAN works too: e4, Nf3, exd5, O-O, e8=Q.
In Chess960 castle with O-O, O-O-O or king-takes-rook: e1h1 (not e1g1).
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


def _chess_fen(view: SideView) -> str | None:
    """The chess position python-chess can read SAN against (standard chess and Alea's
    board), or None."""
    if view.game == "chess":
        return view.fen
    if view.game == "alea" and view.fen:
        return " ".join(view.fen.split()[:6])
    return None


def _chess960(view: SideView) -> bool:
    """Whether the game is Chess960 (its SAN castles are then king-takes-rook in UCI)."""
    return bool(view.extra.get("chess960"))


def drawing(session: GameSession, view: SideView, flip: bool = False) -> str:
    """``view``'s board as text, ``?`` on fogged cells."""
    g, fog = session.geometry, set(view.fog)
    return draw(g, lambda c: FOG_MARK if g.names[c] in fog else view.pieces.get(g.names[c]),
                flip=flip)


class HumanPlayer:
    """A person at a terminal, one player of a game session (see the module docstring).

    ``input``/``output`` default to stdin/stdout; the end of the input counts as leaving.
    ``between_turns(player, colour)`` runs before each of this player's turns is shown.
    ``alea`` (an ``AleaHost``) gives a person playing Alea against an engine the guide
    and the words for undo refusals.
    """

    def __init__(self, name: str = "Human", input=None, output=None, between_turns=None):
        self.name = name
        self.id_name = None
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stdout
        self.between_turns = between_turns
        self.alea: AleaHost | None = None
        self.variant = "chess"

    # -- the session's player interface ------------------------------------------------
    def start_game(self, variant: str) -> None:
        self.variant = variant

    def turn(self, session: GameSession, side: int):
        """Show the position from ``side``'s side, read entries until an answer the rules
        allow; (answer, seconds taken), or (None, 0) when the game ended meanwhile (a
        resignation, an agreed draw, a person who left)."""
        if self.between_turns is not None:
            self.between_turns(self, COLOUR[side])
        help_text = ALEA_HELP if session.variant == "alea" else HELP
        host = self.alea
        if host is not None:
            host.start_turn(session)
        start = time.monotonic()
        while True:
            view = session.view(side)
            self.show(session, view)
            if host is not None:
                for text in host.advice(session, side):
                    self.say(text)
            answer = self.read_turn(session, side, help_text)
            if session.over:
                return None, 0.0
            if answer is not None:
                break
        spent = time.monotonic() - start
        if host is not None:
            for text in host.review(session, side, answer):
                self.say(text)
        if session.view(side).draw_offer == 1 - side:
            self.say("(Moving declines the draw offer.)")
        return answer, spent

    def read_turn(self, session: GameSession, side: int, help_text: str) -> str | None:
        """Prompt ``side``'s player and read entries until one is an answer the rules
        allow (returned), the game ends, or an undo changed the position (None: show it
        again). The end of the input (the person has gone) ends the game."""
        while True:
            self.say(f"{COLOUR[side]} to move ({self.name})> ", end="")
            line = self.input.readline()
            if not line:
                self.say("")
                session.end(None, f"abandoned: {self.name} left the game")
                return None
            text = line.strip()
            if not text:
                continue
            word = text.lower()
            view = session.view(side)
            if word == "help":
                self.say(help_text)
            elif word == "moves":
                self.say(list_moves(view))
            elif word == "board":
                self.show(session, view)
            elif word in GAME_WORDS:
                self.game_word(session, side, word)
                if session.over:
                    return None
            elif word == "undo":
                if self.undo(session, side):
                    return None
            elif word.split()[:1] == ["guide"]:
                self.say("\n".join(self.switch_guide(session, side, word.split()[1:])))
            else:
                answer, problem = read_answer(session, side, view, text)
                if answer is not None:
                    return answer
                self.say(problem)

    def game_word(self, session: GameSession, side: int, word: str) -> None:
        """``resign`` and ``quit``/``exit`` end the game; ``draw`` agrees to a draw offered
        to this player, else offers one: the engine answers at once, a person on their
        turn."""
        if word == "resign":
            self.say(f"{self.name} resigns.")
            session.resign(side)
            return
        if word in ("quit", "exit"):
            session.end(None, f"abandoned: {self.name} quit")
            return
        offered_to_me = session.view(side).draw_offer == 1 - side
        opponent = session.players[1 - side]
        name = getattr(opponent, "id_name", None) or opponent.name
        accepted, wait = session.offer_draw(side)
        if offered_to_me:
            self.say("Draw agreed.")
        elif accepted:
            self.say(f"{name} accepts the draw.")
        elif accepted is False:
            self.say(f"{name} declines the draw" + (
                f"; you may offer again in {wait} plies (A17)." if wait else "."))
        elif wait:
            self.say(f"Your last draw offer was declined; you may offer again in {wait} "
                     "plies (A17).")
        else:
            self.say(f"You offer a draw; now make your move. "
                     f"{COLOUR[1 - side]} answers on their turn.")

    def undo(self, session: GameSession, side: int) -> bool:
        """Take back this player's last move (and the reply): True when done."""
        refusal = self.alea.undo_refusal(session, side) if self.alea else None
        if refusal is None and session.undos_left[side] <= 0:
            refusal = "There is no undo in this game."
        if refusal:
            self.say(refusal)
            return False
        try:
            taken = session.undo(side)
        except IllegalAnswer:
            self.say("Nothing to take back: you have not moved yet.")
            return False
        plies = [t for t in taken if t != "reroll"]
        what = f"your {action_words(plies[0])}" + \
            (f" and the reply {action_words(plies[1])}" if len(plies) > 1 else "")
        view = session.view(side)
        dice = "; the same dice again" if view.extra.get("dice") else ""
        left = session.undos_left[side]
        self.say(f"Taken back: {what}{dice}. ({left} undo{'s' if left != 1 else ''} left.)")
        return True

    def switch_guide(self, session: GameSession, side: int, words: list[str]) -> list[str]:
        if self.alea is None:
            return ["The guide plays only against an engine."]
        return self.alea.switch_guide(session, side, words)

    # -- showing -----------------------------------------------------------------------
    def show(self, session: GameSession, view: SideView) -> None:
        """The board from the viewer's side, what happened last, the clocks and check; in
        Fog of War the view; in Alea the dice, jokers and cooldowns too."""
        side = view.viewer
        self.say("")
        for text in last_move_lines(view, session.variant):
            self.say(text)
        self.say(drawing(session, view, flip=side == 1))
        if view.fog:
            self.say(f"{FOG_MARK} = fog: you cannot see that cell.")
        if view.lost:
            self.say(f"You lost a piece on {', '.join(view.lost)} (now out of sight).")
        self.say_clocks(view)
        for text in opening_lines(view):
            self.say(text)
        if session.variant == "alea":
            for text in alea_lines(view):
                self.say(text)
        if view.check:
            self.say(f"{COLOUR[side]} is in check.")
        if view.draw_offer == 1 - side:
            self.say(f"{COLOUR[1 - side]} offers a draw: type 'draw' to accept, or move to "
                     "decline.")

    def say_clocks(self, view: SideView) -> None:
        if view.clocks is None:
            return
        inc = f" (+{view.increment:g} s a move)" if view.increment else ""
        white, black = view.clocks
        if white is not None and black is not None:
            self.say(f"Clocks: White {format_clock(white)}  Black {format_clock(black)}{inc}")
        else:
            own = view.viewer
            self.say(f"Clock: {COLOUR[own]} {format_clock(view.clocks[own])}{inc}")

    def say(self, text: str, end: str = "\n") -> None:
        self.output.write(text + end)
        self.output.flush()


# -- what a person is shown ------------------------------------------------------------
BOOK_SHOWN = 5                  # the book's moves the terminal lists


def opening_lines(view: SideView) -> list[str]:
    """The opening's name, the Quantum Book's moves (share, score for the side to move,
    games) and the move that left the book (A23)."""
    out = []
    if view.opening:
        out.append(f"Opening: {view.opening['eco']} {view.opening['name']}")
    book = view.book
    if book and book["moves"]:
        parts = [f"{m['text']} {m['share']:.0%}"
                 + ("" if m["score"] is None else f" (scores {m['score']:.0%})")
                 for m in book["moves"][:BOOK_SHOWN]]
        out.append(f"Book ({book['games']:,} games): {', '.join(parts)}")
    if book and book["left"]:
        left = book["left"]
        number = (left["ply"] + 1) // 2
        dots = "." if left["side"] == 0 else "..."
        out.append(f"{COLOUR[left['side']]} left the book with {number}{dots}{left['text']}.")
    return out


def last_move_lines(view: SideView, variant: str) -> list[str]:
    """The opponent's last move (a Fog of War player only learns that it moved), and in
    Alea the promotion die's result and a reroll just spent."""
    side = view.viewer
    moves = [m for m in view.moves if m[1] != "reroll"]
    out = []
    if view.fog or (moves and moves[-1][1] == "?"):
        own = [answer for mover, answer, _ in view.moves if mover == side]
        if own or side == 1:
            out.append(f"{COLOUR[1 - side]} has moved (Fog of War: you do not see where)."
                       + (f" Your last move: {own[-1]}." if own else ""))
        return out
    if variant == "alea":
        return alea_last_actions(view)
    if moves and moves[-1][0] != side:
        _, answer, text = moves[-1]
        out.append(f"{COLOUR[1 - side]} played {answer}" +
                   (f" ({text})" if text != answer else "") + ".")
    return out


def list_moves(view: SideView) -> str:
    """The answers the viewer may give now, grouped (Alea: moves, joker, castle, reroll);
    in standard chess in SAN too."""
    legal = sorted(view.legal)
    if view.game == "alea":
        return alea_actions_text(view)
    parts = [f"Legal moves ({len(legal)}): " + " ".join(legal)]
    fen = _chess_fen(view)
    if fen is not None:
        import chess
        board = chess.Board(fen, chess960=_chess960(view))
        parts.append("In SAN: " + " ".join(sorted(board.san(chess.Move.from_uci(m))
                                                  for m in legal)))
    return "\n".join(textwrap.fill(p, 78, subsequent_indent="  ", break_on_hyphens=False)
                     for p in parts)


def read_answer(session: GameSession, side: int, view: SideView, text: str) -> tuple:
    """(answer, None) for an entry the rules allow, or (None, what is wrong with it)."""
    if view.game == "alea":
        return read_alea(session, side, view, text)
    return read_move(session, view, text)


def read_move(session: GameSession, view: SideView, text: str) -> tuple:
    """(legal UCI move, None) or (None, what is wrong with ``text``): coordinates, or in
    standard chess SAN."""
    legal = list(view.legal)
    uci = text.lower()
    if uci in legal:
        return uci, None
    m = COORDINATE.fullmatch(uci)
    if m:
        for cell in (m[1] + m[2], m[3] + m[4]):
            try:
                session.geometry.cell(cell)
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
        return None, f"{uci} is not a legal move here. Type 'moves' for the legal moves."
    fen = _chess_fen(view)
    if fen is not None:
        import chess
        try:
            san_move = chess.Board(fen, chess960=_chess960(view)).parse_san(text).uci()
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
                  f"{' or Nf3' if view.game == 'chess' else ''}, or 'help'.")


# -- Alea: reading and describing actions ---------------------------------------------
def read_alea(session: GameSession, side: int, view: SideView, text: str) -> tuple:
    """(token, None) for a legal action typed by a person, or (None, what is wrong):
    ``e2e4`` or SAN, ``joker e2e4``, ``castle e1g1`` (or ``O-O``), ``reroll``; a
    promotion's piece letter is dropped (the die decides)."""
    words = text.replace(":", " ").split()
    kind = words[0].lower() if words else ""
    if kind == "reroll" and len(words) == 1:
        token = "reroll"
    else:
        if kind in ("joker", "castle") and len(words) == 2:
            move_text = words[1]
        elif len(words) == 1:
            kind, move_text = "move", words[0]
        else:
            return None, (f"{text!r} is not an action: enter e2e4, joker e2e4, castle e1g1, "
                          "reroll, or 'help'.")
        move = _alea_move(view, move_text)
        if move is None:
            return None, (f"{move_text!r} is neither a move nor a command. Enter a move like "
                          "e2e4 or Nf3, or 'help'.")
        if kind == "move" and view.pieces.get(move[:2]) in ("K", "k") \
                and abs(ord(move[0]) - ord(move[2])) == 2:
            kind = "castle"                 # O-O, e1g1: castling is the castle joker
        token = move if kind == "move" else f"{kind}:{move}"
    if token in view.legal:
        return token, None
    shown = token.replace(":", " ")
    return None, f"{shown} is not allowed: {_why_not(session, side, token)}. Type 'moves'."


def _why_not(session: GameSession, side: int, token: str) -> str:
    """The rule that refuses ``token`` (from the referee's reason, without its frame)."""
    reason = session.refusal(side, token) or "not allowed here"
    match = re.search(r"\((.*)\)$", reason)
    return match[1] if match else reason


def _alea_move(view: SideView, text: str) -> str | None:
    """The four-letter move ``text`` names (coordinates or SAN), or None."""
    uci = text.lower()
    if re.fullmatch(r"[a-h][1-8][a-h][1-8][nbrq]?", uci):
        return uci[:4]
    import chess
    try:
        return chess.Board(_chess_fen(view)).parse_san(text).uci()[:4]
    except ValueError:
        return None


def alea_lines(view: SideView) -> list[str]:
    """The dice, the jokers of both sides, the cooldowns and a castle follow-up."""
    x, side = view.extra, view.viewer
    out = [alea_dice_text(view)]
    if x["classic"]:
        return out
    out.append("Jokers left: " + "  ".join(
        f"{COLOUR[s]} free {x['jokers'][s]}, reroll {x['rerolls'][s]}, "
        f"castle {x['castle_jokers'][s]}" for s in (0, 1)))
    rests = [f"{COLOUR[s]}'s {PIECE_NAMES[t]}" for s, t in enumerate(x["cooldown"])
             if t is not None]
    if rests:
        lifted = " (lifted: you are in check)" if x["in_check"] else ""
        out.append(f"Cooldown: {', '.join(rests)} moved last and rests a turn{lifted}.")
    follow = x["follow_up"][side]
    if follow is not None:
        out.append(f"After castling you may move the rook on {follow[0]} or the king one "
                   "square this turn, without dice.")
    return out


def alea_dice_text(view: SideView) -> str:
    x = view.extra
    if x["classic"]:
        return "Classic mode: no dice."
    if x["free_phase"]:
        return (f"Dice: none yet -- free move {x['moves_made'][view.turn] + 1} of 8 (any "
                "piece but the king).")
    if x["dice"] is None:
        return "Dice: none -- no piece type can move: move a pawn or the king."
    return "Dice: " + " + ".join(PIECE_NAMES[t] for t in x["dice"])


def alea_actions_text(view: SideView) -> str:
    """What the side to move may do, grouped: moves, joker, castle, reroll."""
    tokens = view.legal
    moves = sorted(t for t in tokens if ":" not in t and t != "reroll")
    parts = [f"Moves ({len(moves)}): " + " ".join(moves)]
    jokers = [t for t in tokens if t.startswith("joker:")]
    if jokers:
        parts.append(f"joker <move>: any of the {len(jokers)} legal moves "
                     f"({view.extra['jokers'][view.turn]} free-move jokers left)")
    castles = [t.split(":")[1] for t in tokens if t.startswith("castle:")]
    if castles:
        parts.append("castle: " + " ".join(f"castle {m}" for m in castles))
    if "reroll" in tokens:
        parts.append(f"reroll ({view.extra['rerolls'][view.turn]} left)")
    return "\n".join(textwrap.fill(p, 78, subsequent_indent="  ", break_on_hyphens=False)
                     for p in parts)


def alea_last_actions(view: SideView) -> list[str]:
    """The opponent's last action (and the own before it, when a promotion), in words."""
    side, classic = view.viewer, view.extra["classic"]
    plies = [(mover, answer) for mover, answer, _ in view.moves if answer != "reroll"]
    out = []
    for back, who in ((2, "Your"), (1, f"{COLOUR[1 - side]}'s")):
        if len(plies) < back:
            continue
        _, token = plies[-back]
        kind, _, move = token.rpartition(":")
        if back == 1:
            how = {"joker": " with a free-move joker", "castle": " with the castle joker"}
            out.append(f"{COLOUR[1 - side]} played {move[:4]}{how.get(kind, '')}.")
        if len(move) == 5 and classic:
            out.append(f"{who} promotion on {move[2:4]}: a queen (classic mode).")
        elif len(move) == 5:
            out.append(f"{who} promotion on {move[2:4]}: the promotion die gave a "
                       f"{PIECE_NAMES[move[4]]}.")
    if view.moves and view.moves[-1][1] == "reroll":
        out.append("You spent a reroll joker: new dice.")
    return out


class AleaHost:
    """What the terminal adds to an Alea game against an engine: the Quantum guide (A22,
    an ``AleaGuide``; not in classic mode) and why undo is refused where A18 refuses it
    (``level``: ``UNDO_LIMITS``; none in timed games or Daily Dice). The undos themselves
    are the session's (``undo_allowance``)."""

    def __init__(self, level: str = "normal", timed: bool = False, daily: bool = False,
                 guide: AleaGuide | None = None):
        self.level = level if level in UNDO_LIMITS else "normal"
        self.timed, self.daily = timed, daily
        self.guide = guide if guide is not None else AleaGuide()
        self._advised_turn = None

    @property
    def undo_limit(self) -> int:
        return undo_allowance("alea", True, self.level, self.timed, self.daily)

    def undo_refusal(self, session: GameSession, side: int) -> str | None:
        if self.daily:
            return "No undo in Daily Dice (A18)."
        if self.timed:
            return "No undo in a timed game (A18)."
        if UNDO_LIMITS[self.level] == 0:
            return f"No undo at {self.level.title()} (A18)."
        if session.undos_left[side] <= 0:
            return (f"No undo left: {self.level.title()} allows {UNDO_LIMITS[self.level]} "
                    "a game (A18).")
        return None

    # -- the guide ----------------------------------------------------------------------
    def start_turn(self, session: GameSession) -> None:
        """A person's turn begins: the guide advises once per position."""
        self._advised_turn = None

    def _guide_problem(self, session: GameSession) -> str | None:
        if session.view(None).extra.get("classic"):
            return "The guide advises on dice and jokers: not in classic mode (A19)."
        return None

    def switch_guide(self, session: GameSession, side: int, words: list[str]) -> list[str]:
        """``guide on`` (with the advice for this turn at once), ``guide off``, or
        ``guide`` alone (whether it is on)."""
        if words == ["off"]:
            self.guide.on = False
            return ["Guide off."]
        if words == ["on"]:
            problem = self._guide_problem(session)
            if problem:
                return [problem]
            self.guide.on = True
            self._advised_turn = None
            return ["Guide on."] + self.advice(session, side)
        if not words:
            return [f"The guide is {'on' if self.guide.on else 'off'}: 'guide on' or "
                    "'guide off'."]
        return ["Enter 'guide on' or 'guide off'."]

    def _run(self, session: GameSession, ask) -> list[str]:
        if not self.guide.on or self._guide_problem(session):
            return []
        try:
            return [note.text for note in ask()]
        except (EngineError, OSError, ValueError) as exc:
            self.guide.on = False
            self.guide.close()
            return [f"The guide is not available ({exc}); guide off."]

    def advice(self, session: GameSession, side: int) -> list[str]:
        """The guide's advice for the position, once per position shown."""
        position = session.position_for(side)
        if self._advised_turn == position:
            return []
        self._advised_turn = position
        fen = session.view(side).fen
        return self._run(session, lambda: self.guide.advice(position, fen))

    def review(self, session: GameSession, side: int, token: str) -> list[str]:
        """The review of ``token``, before the session plays it."""
        position, fen = session.position_for(side), session.view(side).fen
        return self._run(session, lambda: self.guide.review(position, fen, token))

    def close(self) -> None:
        self.guide.close()


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
                     start_fen: str | None = None, level: str = "normal"):
    """Play one game session: ``humans`` are one HumanPlayer (against ``engine``, taking
    the side ``colour``) or two (hot seat, White first). ``alea_host`` gives the person
    playing Alea the guide and A18's undo limits. Draws the final position (all of it:
    the game is over) and the result; returns the record."""
    out = output if output is not None else sys.stdout
    referee = referee or referee_for(variant)
    if len(humans) == 2:
        white, black = humans
        undos = undo_allowance(variant, False)
    else:
        white, black = (humans[0], engine) if colour == 0 else (engine, humans[0])
        undos = alea_host.undo_limit if alea_host is not None else \
            undo_allowance(variant, True, level, tc is not None)
        humans[0].alea = alea_host
    session = GameSession(variant, white, black, tc, start_fen=start_fen, referee=referee,
                          undo_limit=undos)
    rec = session.run()
    viewer = colour if len(humans) == 1 else 0
    view = session.view(viewer)
    out.write("\n" + drawing(session, view, flip=len(humans) == 1 and colour == 1) + "\n")
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
    ap.add_argument("--chess960", action="store_true",
                    help="Chess960 (Fischer random chess), from --position")
    ap.add_argument("--position", metavar="N",
                    help="Chess960 start position 0..959 (518: the standard one; "
                    "default: a random one)")
    args = ap.parse_args(argv)
    alea_flags = [f"--{name}" for name in ("daily", "classic", "guide") if getattr(args, name)]
    variant = args.variant or ("alea" if alea_flags else "chess")
    if alea_flags and variant != "alea":
        ap.error(f"{alea_flags[0]} is for Alea (--variant alea)")
    if (args.chess960 or args.position is not None) and variant != "chess":
        ap.error("--chess960 and --position are for chess (Chess960)")
    if args.position is not None and not args.chess960:
        ap.error("--position N is a Chess960 start position: add --chess960")
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
    if args.chess960:
        from adapters.chess960 import POSITIONS
        try:
            referee = person_referee("chess", chess960=random.randrange(POSITIONS)
                                     if args.position is None else args.position)
        except ValueError as exc:
            ap.error(str(exc))
        print(f"Chess960 start position {referee.number}.")
    if variant == "alea":
        from adapters.alea_referee import daily_seed
        if args.daily:
            if options.get("Level", "normal").lower() != "normal":
                print("Daily Dice is always played at Level normal (A14).")
            options["Level"] = "normal"
            day = datetime.datetime.now(datetime.timezone.utc).date()
            seed = daily_seed(day)
        level = options.get("Level", "normal").lower()
        referee = person_referee("alea", level, None if args.two_humans else colour, seed,
                                 args.classic)
        if not args.two_humans:
            host = AleaHost(level, timed=tc is not None, daily=args.daily,
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
            engine = UciEngine(args.engine, options=options)
        except EngineError as exc:
            print(f"error: the engine did not start: {exc}", file=sys.stderr)
            for line in brief(exc.stderr):
                print(f"  its stderr: {line}", file=sys.stderr)
            return 1
        what = f"Daily Dice {day.isoformat()}" if day else \
            "alea (classic mode)" if args.classic else \
            f"Chess960 (position {referee.number})" if args.chess960 else variant
        print(f"{what}: you play {COLOUR[colour]} against "
              f"{engine.id_name or engine.name}. Type 'help' for help.", flush=True)
    try:
        rec = play_in_terminal(variant, humans, engine, colour, tc, referee=referee,
                               alea_host=host, level=options.get("Level", "normal").lower())
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
