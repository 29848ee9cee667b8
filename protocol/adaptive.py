"""The adaptive level's protocol surface (*extension*): its options, the ``learn``
command, and the ``info string`` lines its reports become.

* ``UCI_Opponent`` (2006 spec; GUIs send ``[title] [elo] [computer|human] <name>``): whose
  profile the adaptive level plays with and learns into.
* ``Adaptive Profile``: the profile file (empty: the opponent's file in the data folder).
* ``Reset Adaptive Profile``: a button; every weight back to its default.
* ``learn result <1-0|0-1|1/2-1/2|3/4-1/4|1/4-3/4> [side white|black] [variant V]
  [fen F] moves m1 m2 ...``: a finished game, sent by an arbiter; ``parse_learn`` reads it.

Kept apart from ``protocol.dialect`` because all of it belongs to one level
(engine/adaptive.py); ``protocol.uci`` only registers it.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.notation import one_line, quote
from protocol.options import Option

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "3/4-1/4": 0.75, "1/4-3/4": 0.25}
SIDES = {"white": "w", "black": "b"}
_KEYWORDS = ("result", "side", "variant", "fen", "moves")


@dataclass(frozen=True)
class LearnCommand:
    """``learn ...``: White's score, the engine's side (``w``/``b``, None: the side of its
    last ``go``), the variant (None: the current one), the start FEN (None: the variant's
    start position) and the moves from it."""

    white_score: float
    side: str | None = None
    variant: str | None = None
    fen: str | None = None
    moves: tuple[str, ...] = ()


def options() -> list[Option]:
    return [
        Option("UCI_Opponent", "string", "",
               on_change=lambda engine, value: engine.set_opponent(value)),
        Option("Adaptive Profile", "string", "",
               on_change=lambda engine, value: engine.set_profile_path(value)),
        Option("Reset Adaptive Profile", "button",
               on_change=lambda engine, _: engine.reset_profile()),
    ]


def parse_learn(args: list[str]) -> LearnCommand:
    """The words after ``learn``. ``result`` and ``moves`` are required, ``moves`` comes
    last (it may be followed by no move); the others may come in any order before it,
    each at most once. ValueError naming the first problem."""
    fields: dict = {}
    i = 0
    while True:
        if i == len(args):
            raise ValueError("missing 'moves' (the moves of the game, after every other "
                             "field; it may be followed by no move)")
        key = args[i]
        i += 1
        if key == "moves":
            moves = tuple(m.lower() for m in args[i:])
            break
        if key not in _KEYWORDS:
            raise ValueError(f"unknown token {quote(key)}")
        if key in fields:
            raise ValueError(f"{key} given twice")
        if key == "fen":
            start = i
            while i < len(args) and args[i] not in _KEYWORDS:
                i += 1
            if i == start:
                raise ValueError("missing FEN after 'fen'")
            fields[key] = " ".join(args[start:i])
            continue
        if i == len(args) or args[i] in _KEYWORDS:
            raise ValueError(f"{key} needs a value")
        value = args[i]
        i += 1
        if key == "result" and value not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, not {quote(value)}")
        if key == "side" and value not in SIDES:
            raise ValueError(f"side must be white or black, not {quote(value)}")
        fields[key] = value
    if "result" not in fields:
        raise ValueError(f"missing 'result <{'|'.join(RESULTS)}>'")
    return LearnCommand(RESULTS[fields["result"]], SIDES.get(fields.get("side")),
                        fields.get("variant"), fields.get("fen"), moves)


def cmd_learn(session, args: list[str]) -> None:
    """Learn from the game (Level adaptive); at another level the game is only checked,
    and an ``info string`` says that nothing was learnt."""
    command = parse_learn(args)
    learnt = session.engine.learn(command.white_score, command.moves, fen=command.fen,
                                  variant=command.variant, side=command.side)
    if not learnt:
        session.send("info string adaptive: nothing learnt (Level is not adaptive)")


def attach(session) -> None:
    """Print the engine's adaptive reports as ``info string`` lines of ``session``
    (``info string error ...`` for a bad profile file)."""
    def note(text: str, error: bool) -> None:
        if error:
            session.error(text)
        else:
            session.send("info string " + one_line(text))

    session.engine.on_note = note
