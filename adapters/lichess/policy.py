"""The bridge's decisions as pure functions of the Bot API's JSON: which challenges to take,
when to agree to a draw, and what to tell the engine. No I/O here, so the unit tests call
each one directly.

Every function takes the server's JSON as it came: a field of the wrong type reads as
missing (``obj``, ``text``), so no server input raises here. Clock values are
milliseconds (ints; a ``timedelta`` is accepted too).
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from datetime import timedelta

from adapters.draws import Score, accept_draw, parse_score  # noqa: F401  (the bridge's own)

# Server variant key -> Quantum's UCI_Variant. Lichess offers "standard" and "chess960"
# of these; pychess.org's Lichess-compatible Bot API also offers "grand" (ranks 1-10 in
# UCI moves, as Fairy-Stockfish and Quantum write them). Lichess has no hexagonal chess.
VARIANTS = {"standard": "chess", "chess960": "chess", "grand": "grand"}
# The keys played with UCI_Chess960 on, from the game's initialFen.
CHESS960 = {"chess960"}

# Server variant key -> pychess.org's own name for the variant, which its capability
# header and its gameFull's variant name use (its challenges use the keys, and flag a
# Chess960 twin of a variant with "chess960": true).
PYCHESS_NAMES = {"standard": "chess", "chess960": "chess960", "grand": "grand"}
_PYCHESS_KEYS = {name: key for key, name in PYCHESS_NAMES.items()}

# Variants of lichess we could name but do not play: fromPosition needs a start position
# other than the variant's own, the rest are other games.
UNPLAYABLE = {"fromPosition", "crazyhouse", "antichess", "atomic", "horde",
              "kingOfTheHill", "racingKings", "threeCheck"}

# Lichess sends this clock for unlimited and correspondence games.
UNLIMITED_MS = 2_147_483_647



def obj(value) -> dict:
    """``value`` if it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def text(value) -> str:
    """``value`` if it is a JSON string, else ``""``."""
    return value if isinstance(value, str) else ""


_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def valid_id(value) -> str:
    """A game or challenge id fit to go into a URL path (lichess and pychess ids are 8
    letters and digits), else ``""``: an id from the server must not reach other paths."""
    return value if isinstance(value, str) and _ID.fullmatch(value) else ""


def variant_key(variant, chess960=None) -> str:
    """The server key of a challenge's or a gameFull's ``variant``: its ``key`` (lichess),
    else its ``name`` read as pychess.org's (whose gameFull gives only the name).
    ``chess960`` is the object's own ``chess960`` flag (pychess.org's, true or
    ``"True"``): standard chess so flagged is ``chess960``."""
    variant = obj(variant)
    key = text(variant.get("key"))
    if not key:
        name = text(variant.get("name"))
        key = _PYCHESS_KEYS.get(name, name) or "standard"
    if key == "standard" and chess960 in (True, "True", "true"):
        return "chess960"
    return key


def pychess_capabilities(variants) -> str:
    """The X-PyChess-Bot-Capabilities header for these server variant keys. pychess.org
    refuses a bot's event stream without it and offers the bot only the variants named
    (version 1: a JSON object with the version and a list of pychess's names)."""
    names = [PYCHESS_NAMES[key] for key in variants if key in PYCHESS_NAMES]
    return json.dumps({"version": 1, "variants": names}, separators=(",", ":"))


@dataclass(frozen=True)
class ChallengePolicy:
    """Which challenges to accept. ``variants`` are server keys (``standard``, ``grand``)."""

    variants: tuple = ("standard",)
    modes: tuple = ("casual", "rated")
    allow_correspondence: bool = False       # and unlimited games (played with movetime)


def decline_reason(challenge: dict, policy: ChallengePolicy) -> str | None:
    """None to accept the challenge, else the Bot API's decline reason key."""
    key = variant_key(challenge.get("variant"), challenge.get("chess960"))
    if key not in policy.variants or key not in VARIANTS:
        # "standard" reads to the challenger as "I only play standard chess".
        return "standard" if tuple(policy.variants) == ("standard",) else "variant"
    fen = challenge.get("initialFen")
    if fen and fen != "startpos" and key not in CHESS960:
        # Another start position (a Chess960 game has one of its own).
        return "standard" if key == "standard" else "variant"
    tc = obj(challenge.get("timeControl"))
    if (tc.get("type") or "clock") != "clock" and not policy.allow_correspondence:
        return "timeControl"
    mode = "rated" if challenge.get("rated") is True else "casual"
    if mode not in policy.modes:
        return "casual" if mode == "rated" else "rated"
    return None


def game_over(event: dict) -> tuple[str, str] | None:
    """(status, winner or "") when a game stream's event says that the game is over: a
    gameState, or a gameFull's state, whose status is not ``started``, or pychess.org's
    ``gameEnd`` (its states always say ``started``; status ``ended``, no winner named);
    else None."""
    kind = event.get("type")
    if kind == "gameEnd":
        return "ended", ""
    state = (obj(event.get("state")) if kind == "gameFull"
             else event if kind == "gameState" else {})
    status = text(state.get("status")) or "started"
    if status == "started":
        return None
    return status, text(state.get("winner"))



MAX_RETRY_AFTER_S = 600.0


def retry_after(header, default: float) -> float:
    """Seconds to wait after HTTP 429: the answer's Retry-After in seconds (pychess.org
    sends one), at most MAX_RETRY_AFTER_S, else ``default`` (lichess asks for a minute)."""
    try:
        seconds = float(header) if isinstance(header, str) else math.nan
    except ValueError:                      # e.g. an HTTP date
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < 0:
        return default
    return min(seconds, MAX_RETRY_AFTER_S)


def millis(value) -> int | None:
    """A Bot API clock field in milliseconds (int, float or timedelta), or None when it is
    missing or not a finite number."""
    if isinstance(value, timedelta):
        return int(value.total_seconds() * 1000)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return int(value)


def side_to_move(initial_fen: str | None, moves: list) -> str:
    """"white" or "black", from the game's initial position and the moves since."""
    first = "w"
    if isinstance(initial_fen, str) and initial_fen != "startpos":
        fields = initial_fen.split()
        first = fields[1] if len(fields) > 1 else "w"
    white = (first == "w") == (len(moves) % 2 == 0)
    return "white" if white else "black"


def position_command(initial_fen: str | None, moves: list) -> str:
    """The UCI ``position`` line. The FEN's whitespace is squeezed to single spaces, so
    that a FEN from the server cannot end the line and slip the engine a command."""
    fen = " ".join(text(initial_fen).split())
    start = "startpos" if not fen or fen == "startpos" else f"fen {fen}"
    return f"position {start}" + (" moves " + " ".join(moves) if moves else "")


def engine_moves(initial_fen: str | None, moves: list, chess960: bool) -> list:
    """The server's moves as the engine reads them: as they are, but in Chess960 each
    castle king-takes-rook (``e1h1``), the only castling form of ``UCI_Chess960``, whether
    the server wrote it so (lichess does) or king-to-destination (``e1g1``). Read with
    python-chess; from a move it cannot read on, the rest is passed on as it came (the
    engine then refuses the line, and the server's referee has the last word)."""
    if not chess960:
        return list(moves)
    import chess
    fen = " ".join(text(initial_fen).split())
    try:
        board = chess.Board(fen, chess960=True) if fen not in ("", "startpos") \
            else chess.Board(chess960=True)
    except ValueError:
        return list(moves)
    out = []
    for i, uci in enumerate(moves):
        try:
            move = board.parse_uci(uci)
        except ValueError:
            return out + list(moves[i:])
        out.append(board.uci(move))
        board.push(move)
    return out


def go_command(state: dict, fallback_movetime_ms: int) -> str:
    """The ``go`` arguments for a gameState: both clocks and increments, or ``movetime``
    when the game has no clock (unlimited, correspondence)."""
    wtime, btime = millis(state.get("wtime")), millis(state.get("btime"))
    if wtime is None or btime is None or max(wtime, btime) >= UNLIMITED_MS:
        return f"movetime {fallback_movetime_ms}"
    winc, binc = millis(state.get("winc")) or 0, millis(state.get("binc")) or 0
    return f"wtime {max(wtime, 1)} btime {max(btime, 1)} winc {winc} binc {binc}"


def think_timeout(go_args: str, color: str, grace_s: float = 10.0) -> float:
    """Seconds to wait for ``bestmove`` after ``go_args`` before calling the engine hung:
    our own clock (the engine spends a fraction of it) or the movetime, plus a grace."""
    fields = go_args.split()
    values = dict(zip(fields[::2], fields[1::2]))
    budget = values.get("movetime") or values.get("wtime" if color == "white" else "btime", 0)
    return int(budget) / 1000 + grace_s
