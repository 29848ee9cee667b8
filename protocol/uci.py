"""The UCI loop: read a line, split it, dispatch on the first word to a handler.

Handlers parse their arguments with the pure ``parse_*`` functions below into small
dataclasses, call the Engine facade, and answer through ``UciSession.send``.

Error convention: a bad line (unknown command, malformed arguments, bad FEN, illegal
move, unknown option or variant) is answered with exactly one
``info string error <reason>`` line and changes nothing; a handler computes its whole
answer before printing any of it. An unexpected exception becomes
``info string error internal: ...`` on stdout and a traceback on stderr, never a
traceback on stdout. Extensions beyond the 2006 spec come from ``protocol.dialect``
(and, for the adaptive level's options and ``learn``, ``protocol.adaptive``).
"""
from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from engine import __version__, deepening
from engine.engine import DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, MAX_HASH_MB, \
    MAX_PERFT_DEPTH, Engine
from engine.levels import ELO_MAX, ELO_MIN, LEVEL_NAMES
# ECHO_LIMIT and quote stay importable from here, where they were defined before.
from engine.notation import ECHO_LIMIT, bestmove_line, info_line, one_line, perft_lines, \
    quote  # noqa: F401
from engine.smp import MAX_THREADS
from protocol import adaptive, dialect
from protocol.options import Option, OptionRegistry, parse_int

ENGINE_NAME = f"Quantum {__version__}"
ENGINE_AUTHOR = "Quantum team"
ERROR_PREFIX = "info string error "


# -- parsed commands -----------------------------------------------------------------------
@dataclass(frozen=True)
class PositionCommand:
    """``position startpos|fen <fen> [moves ...]``; ``fen`` None means the start position."""

    fen: str | None
    moves: tuple[str, ...] = ()


@dataclass(frozen=True)
class SetOption:
    """``setoption name <name> [value <value>]``; ``value`` None when there is none."""

    name: str
    value: str | None = None


@dataclass
class GoLimits(deepening.GoLimits):
    """Everything ``go`` may say: the engine's search limits plus the dialect's
    ``go perft N`` (Stockfish) and Alea's ``guide``. Times are milliseconds."""

    perft: int | None = None
    guide: bool = False


_GO_INTEGERS = ("wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate",
                "movetime", "perft")
_GO_FLAGS = ("infinite", "ponder", "guide")
_GO_KEYWORDS = _GO_INTEGERS + _GO_FLAGS + ("searchmoves",)


# -- pure parsers --------------------------------------------------------------------------
def split_command(line: str) -> tuple[str, list[str]] | None:
    """The command word and its argument tokens, or None for a blank line."""
    tokens = line.split()
    if not tokens:
        return None
    return tokens[0], tokens[1:]


def parse_position(args: list[str]) -> PositionCommand:
    """``startpos [moves ...]`` or ``fen <fields...> [moves ...]``."""
    if not args:
        raise ValueError("expected 'startpos' or 'fen'")
    kind, rest = args[0], args[1:]
    if kind == "startpos":
        if rest and rest[0] != "moves":
            raise ValueError(f"expected 'moves' after 'startpos', not {quote(rest[0])}")
        return PositionCommand(None, tuple(rest[1:]))
    if kind == "fen":
        cut = rest.index("moves") if "moves" in rest else len(rest)
        if cut == 0:
            raise ValueError("missing FEN after 'fen'")
        return PositionCommand(" ".join(rest[:cut]), tuple(rest[cut + 1:]))
    raise ValueError(f"expected 'startpos' or 'fen', not {quote(kind)}")


def parse_setoption(args: list[str]) -> SetOption:
    """``name <words...> [value <words...>]``; names may hold spaces (``Clear Hash``)."""
    if not args or args[0] != "name":
        raise ValueError("expected 'name <option> [value <value>]'")
    rest = args[1:]
    cut = rest.index("value") if "value" in rest else len(rest)
    name = " ".join(rest[:cut])
    if not name:
        raise ValueError("missing option name")
    value = " ".join(rest[cut + 1:]) if cut < len(rest) else None
    return SetOption(name, value)


def parse_go(args: list[str]) -> GoLimits:
    """All ``go`` parameters of the 2006 spec plus ``perft``; ValueError for unknown
    tokens, missing or non-integer numbers and a perft depth out of range."""
    fields: dict = {}
    i = 0
    while i < len(args):
        key = args[i]
        i += 1
        if key in _GO_FLAGS:
            fields[key] = True
        elif key in _GO_INTEGERS:
            if i == len(args):
                raise ValueError(f"{key} needs a number")
            fields[key] = parse_int(args[i], key)
            i += 1
        elif key == "searchmoves":
            start = i
            while i < len(args) and args[i] not in _GO_KEYWORDS:
                i += 1
            fields[key] = list(args[start:i])
        else:
            raise ValueError(f"unknown token {quote(key)}")
    for key in ("depth", "nodes", "mate", "movetime", "movestogo"):
        if fields.get(key, 0) < 0:
            raise ValueError(f"{key} must not be negative, not {fields[key]}")
    perft = fields.get("perft")
    if perft is not None and not 1 <= perft <= MAX_PERFT_DEPTH:
        raise ValueError(f"perft depth must be 1..{MAX_PERFT_DEPTH}, not {perft}")
    return GoLimits(**fields)


# -- the session ---------------------------------------------------------------------------
def default_options() -> OptionRegistry:
    """The options ``uci`` announces, each wired to the Engine facade."""
    def setter(attr):
        return lambda engine, value: setattr(engine, attr, value)

    return OptionRegistry([
        Option("Hash", "spin", DEFAULT_HASH_MB, 1, MAX_HASH_MB,
               on_change=lambda engine, mb: engine.set_hash(mb)),
        Option("Clear Hash", "button", on_change=lambda engine, _: engine.clear_hash()),
        # Lazy SMP (engine/smp.py) in chess-like games; Fog of War and Alea search on one.
        Option("Threads", "spin", 1, 1, MAX_THREADS, on_change=setter("threads")),
        Option("MultiPV", "spin", 1, 1, 64, on_change=setter("multipv")),
        Option("Move Overhead", "spin", DEFAULT_MOVE_OVERHEAD_MS, 0, 5000,
               on_change=setter("move_overhead_ms")),
        Option("Ponder", "check", False),
        Option("OwnBook", "check", False, on_change=setter("own_book")),
        Option("BookFile", "string", "", on_change=lambda engine, path: engine.set_book_file(path)),
        # The learnt evaluation (docs/nnue.md): off, the hand-written one; EvalFile names
        # another net for the current board (empty: the shipped one).
        Option("Use NNUE", "check", True, on_change=setter("use_nnue")),
        Option("EvalFile", "string", "", on_change=lambda engine, path: engine.set_eval_file(path)),
        dialect.variant_option(),
        # The 2006 spec's Chess960 switch, as Stockfish has it: FEN castling fields name
        # rooks, castling is written king-takes-rook (docs/protocol.md).
        Option("UCI_Chess960", "check", False,
               on_change=lambda engine, on: engine.set_chess960(on)),
        Option("UCI_LimitStrength", "check", False, on_change=setter("limit_strength")),
        Option("UCI_Elo", "spin", 1500, ELO_MIN, ELO_MAX, on_change=setter("elo")),
        Option("Level", "combo", "hard", vars=LEVEL_NAMES,
               on_change=lambda engine, name: engine.set_level(name)),
        *adaptive.options(),
    ])


class UciSession:
    """One conversation: the engine, its options, and where the answers go."""

    def __init__(self, out: TextIO, engine: Engine | None = None,
                 options: OptionRegistry | None = None):
        self.out = out
        self.engine = engine if engine is not None else Engine()
        self.options = options if options is not None else default_options()
        self.running = True
        # The search issue will answer from a worker thread too; lines must not interleave.
        self._lock = threading.Lock()
        adaptive.attach(self)       # the adaptive level's reports become info strings

    def send(self, *lines: str) -> None:
        """Write whole lines and flush, so a GUI sees each answer at once."""
        with self._lock:
            try:
                for line in lines:
                    self.out.write(line + "\n")
                self.out.flush()
            except (BrokenPipeError, ValueError):
                if threading.current_thread() is threading.main_thread():
                    raise
                self.running = False        # the GUI went away while a search reported

    def error(self, reason: str) -> None:
        """The one-line error answer (``one_line``: printable, whitespace runs made one
        space, at most LINE_LIMIT characters), so the reason cannot break or flood it."""
        self.send(ERROR_PREFIX + one_line(reason))

    def handle(self, line: str) -> bool:
        """Answer one input line; False once the session should end (``quit``)."""
        parsed = split_command(line)
        if parsed is None:
            return self.running
        word, args = parsed
        handler = COMMANDS.get(word)
        if handler is None:
            self.error(f"unknown command {quote(word)}")
            return self.running
        try:
            handler(self, args)
        except BrokenPipeError:
            raise
        except ValueError as exc:
            self.error(f"{word}: {exc}")
        except Exception as exc:  # a bug: report it and keep serving
            self.internal_error(word, exc)
        return self.running

    def internal_error(self, word: str, exc: Exception) -> None:
        """A bug met while serving ``word`` (here or in the worker thread): the traceback
        on stderr, one ``info string error internal: ...`` line on stdout."""
        traceback.print_exception(exc, file=sys.stderr)
        self.error(f"internal: {word}: {type(exc).__name__}: {exc}")

    def run(self, stream: TextIO) -> int:
        """Serve lines until ``quit`` or end of input; the exit status (0)."""
        for line in iter(stream.readline, ""):
            if not self.handle(line):
                break
        else:                       # end of input: let a running search report, then exit
            # A perft or bench always ends by itself and is what a piped run asked for.
            self.engine.wait(None if self.engine.job in ("perft", "bench") else 5.0)
            self.engine.stop()
            self.engine.wait(2.0)
        return 0


# -- handlers ------------------------------------------------------------------------------
def cmd_uci(session: UciSession, args: list[str]) -> None:
    session.send(f"id name {ENGINE_NAME}", f"id author {ENGINE_AUTHOR}",
                 *(option.uci_line() for option in session.options), "uciok")


def cmd_isready(session: UciSession, args: list[str]) -> None:
    session.send("readyok")


def cmd_ucinewgame(session: UciSession, args: list[str]) -> None:
    session.engine.new_game()


def cmd_setoption(session: UciSession, args: list[str]) -> None:
    command = parse_setoption(args)
    session.options.set(session.engine, command.name, command.value)


def cmd_position(session: UciSession, args: list[str]) -> None:
    if args and args[0] == "fog":
        history = dialect.parse_fog_position(args[1:], session.engine.variant)
        session.engine.set_fog_position(history)
        return
    if args and args[0] == "alea":
        fen, tokens, dice = dialect.parse_alea_position(args[1:])
        session.engine.set_alea_position(fen, tokens, dice)
        return
    command = parse_position(args)
    session.engine.set_position(command.fen, command.moves)


def cmd_go(session: UciSession, args: list[str]) -> None:
    limits = parse_go(args)
    if limits.perft is not None:    # counted in the worker thread, like a search
        session.engine.perft(limits.perft,
                             on_done=lambda divide, roots: session.send(
                                 *perft_lines(divide, roots)),
                             on_error=lambda exc: session.internal_error("go", exc))
        return
    alea = session.engine.alea
    if limits.guide and (alea is None or alea.classic):
        raise ValueError("guide: the Quantum guide is for Alea (UCI_Variant alea, not "
                         "classic mode)")
    legal = session.engine.legal_moves()
    wanted = [m.lower() for m in limits.searchmoves]
    bad = [m for m in wanted if m not in legal]
    if bad:
        raise ValueError(f"searchmoves: illegal move {quote(bad[0])}")
    limits.searchmoves = wanted
    session.engine.go(limits,
                      on_info=lambda info: session.send(info_line(info)),
                      on_bestmove=lambda best: session.send(bestmove_line(best)))


def cmd_stop(session: UciSession, args: list[str]) -> None:
    """End a running search; its worker prints the bestmove."""
    session.engine.stop()


def cmd_ponderhit(session: UciSession, args: list[str]) -> None:
    """The opponent played the move being pondered: go on thinking on the real clock."""
    session.engine.ponderhit()


def cmd_bench(session: UciSession, args: list[str]) -> None:
    """Stockfish's `bench [depth]`: fixed positions, fixed depth, a deterministic node
    count and the nodes/second, ending with Stockfish's three summary lines. It runs in
    the worker thread, like a search: `stop` ends it."""
    from engine import bench

    depth = parse_int(args[0], "bench depth") if args else bench.DEFAULT_DEPTH
    if not 1 <= depth <= 64:
        raise ValueError(f"bench depth must be 1..64, not {depth}")
    session.engine.bench(depth, session.send,
                         on_error=lambda exc: session.internal_error("bench", exc))


def cmd_debug(session: UciSession, args: list[str]) -> None:
    """`debug on|off` (2006 spec): accepted; Quantum has no extra debug output to switch.
    cutechess-cli sends it under `-debug`."""
    if len(args) != 1 or args[0] not in ("on", "off"):
        raise ValueError("expected 'debug on' or 'debug off'")


def cmd_register(session: UciSession, args: list[str]) -> None:
    """`register ...` (2006 spec): Quantum needs no registration, so any form is accepted."""


def cmd_draw(session: UciSession, args: list[str]) -> None:
    """Alea's `draw offer` (A17): `draw accept` or `draw decline`."""
    session.send(dialect.draw_answer(session.engine, args))


def cmd_guide(session: UciSession, args: list[str]) -> None:
    """Alea's `guide review <token>` (A22): the guide's verdict on a move played."""
    session.send(*dialect.guide_review_lines(session.engine, args))


def cmd_d(session: UciSession, args: list[str]) -> None:
    session.send(*dialect.display_lines(session.engine))


def cmd_quit(session: UciSession, args: list[str]) -> None:
    session.engine.stop()
    session.engine.wait(2.0)
    session.engine.finish_game()        # Level adaptive: learn from a game that is over
    session.running = False


# Command word -> handler. Words of the 2006 spec first, then the dialect's (`d`).
# Commands without arguments ignore extra tokens, as Stockfish does.
COMMANDS: dict[str, Callable[[UciSession, list[str]], None]] = {
    "uci": cmd_uci,
    "isready": cmd_isready,
    "ucinewgame": cmd_ucinewgame,
    "setoption": cmd_setoption,
    "position": cmd_position,
    "go": cmd_go,
    "stop": cmd_stop,
    "ponderhit": cmd_ponderhit,
    "quit": cmd_quit,
    "debug": cmd_debug,
    "register": cmd_register,
    "d": cmd_d,
    "bench": cmd_bench,
    "learn": adaptive.cmd_learn,
    "draw": cmd_draw,
    "guide": cmd_guide,
}


# -- process entry -------------------------------------------------------------------------
def main(argv: list[str] | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    """Run the loop on stdin/stdout (or the given streams) until ``quit`` or EOF.

    ``argv`` is accepted for symmetry with other entry points; the loop takes no
    arguments yet. Returns the exit status.
    """
    if argv:
        print(f"usage: quantum  (UCI on stdin/stdout; no arguments, got {argv})",
              file=sys.stderr)
        return 2
    if stdin is None:
        stdin = sys.stdin
        _reconfigure(stdin, errors="replace")        # bad bytes must not end the loop
    if stdout is None:
        stdout = sys.stdout
        _reconfigure(stdout, errors="backslashreplace")
    session = UciSession(stdout)
    try:
        return session.run(stdin)
    except BrokenPipeError:
        # The GUI went away. Point stdout at devnull so that the interpreter's final
        # flush does not complain about the closed pipe on stderr.
        if stdout is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130


def _reconfigure(stream: TextIO, **kwargs) -> None:
    """Apply TextIOWrapper settings when the stream supports them (a test double may not)."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(**kwargs)


if __name__ == "__main__":
    sys.exit(main())
