"""Quantum's dialect: everything it speaks beyond the 2006 UCI specification.

* ``UCI_Variant`` (as Fairy-Stockfish names it): a combo over the shipped variants that
  also accepts their aliases (``standard``, ``glinski``, ``hex``); setting it resets the
  position to the variant's start.
* ``go perft N`` (Stockfish): the divide report of ``engine.notation.perft_lines``,
  counted in the engine's worker thread (``Engine.perft``).
* ``d`` (Stockfish): a drawing of the board and facts about the position.
* ``position fog view <view FEN> [lost <cells>] [move <uci> view ...]...``: a Fog of War
  game as this side observed it (docs/protocol.md); :func:`parse_fog_position` reads it.
* Alea (``UCI_Variant alea``, a hosted game): ``position alea startpos|fen <alea-fen>
  [moves <token>...] [dice <pair>|-]`` (:func:`parse_alea_position`), ``go ... guide``,
  ``draw offer`` (:func:`draw_answer`) and ``guide review <token>``
  (:func:`guide_review_lines`).

Everything here is pure (engine in, lines out), so ``protocol.uci`` keeps all I/O.
Later extensions (dice input, fog observations) belong here too.
"""
from __future__ import annotations

from engine.belief import FogHistory
from engine.engine import DEFAULT_VARIANT, Engine, game_names, resolve_game
from engine.drawing import draw
from engine.fog import FOG, parse_view_fen
from engine.notation import quote
from engine.variant import load_variant
from protocol.options import Option

VARIANT_OPTION = "UCI_Variant"
FOG_WORDS = ("view", "lost", "move")
ALEA_WORDS = ("moves", "dice")
ALEA_FEN_FIELDS = 14


def variant_option() -> Option:
    """The ``UCI_Variant`` combo: the shipped variant files, then the hosted games
    (``alea``)."""
    return Option(name=VARIANT_OPTION, type="combo", default=DEFAULT_VARIANT,
                  vars=tuple(game_names()), normalize=resolve_game,
                  on_change=lambda engine, name: engine.set_variant(name))


def parse_fog_position(args: list[str], variant: str) -> FogHistory:
    """The words after ``position fog``: ``view <FEN> [lost <cell>...]`` groups joined by
    ``move <uci>``, ending with a view. A view FEN has the variant's FEN field count (6 in
    chess). ValueError naming the fault; whether the history makes sense is the engine's
    check (``engine.belief.check_history``)."""
    v = load_variant(variant)
    nfields = 6 if v.spec.fen_castling_field else 5
    views, lost, moves = [], [], []
    i = 0
    while True:
        n = len(views) + 1
        if i >= len(args) or args[i] != "view":
            got = quote(args[i]) if i < len(args) else "the end of the line"
            raise ValueError(f"expected 'view' (view {n}), not {got}")
        fen = args[i + 1:i + 1 + nfields]
        if len(fen) < nfields or any(word in FOG_WORDS for word in fen):
            raise ValueError(f"view {n} needs a FEN of {nfields} fields")
        try:
            views.append(parse_view_fen(" ".join(fen), v))
        except ValueError as exc:
            raise ValueError(f"view {n}: {exc}") from None
        i += 1 + nfields
        cells = []
        if i < len(args) and args[i] == "lost":
            i += 1
            while i < len(args) and args[i] not in FOG_WORDS:
                if args[i] not in v.geometry.names:
                    raise ValueError(f"lost cell {quote(args[i])} of view {n} is not a cell")
                cells.append(args[i])
                i += 1
            if not cells:
                raise ValueError(f"'lost' after view {n} names no cell")
        lost.append(frozenset(cells))
        if i == len(args):
            break
        if args[i] != "move":
            raise ValueError(f"expected 'move' or the end after view {n}, not {quote(args[i])}")
        if i + 1 == len(args):
            raise ValueError(f"'move' after view {n} needs a move")
        moves.append(args[i + 1].lower())
        i += 2
    return FogHistory(tuple(views), tuple(lost), tuple(moves))


def parse_alea_position(args: list[str]):
    """The words after ``position alea``: ``startpos`` or ``fen`` and the 14 fields of an
    Alea FEN, then ``moves <token>...`` and ``dice <pair>|-`` (each optional, in this
    order). Returns (fen or None, tokens, dice) where dice is a pair of letters, None for
    ``dice -``, or ``...`` when there is no ``dice``. ValueError naming the fault; the
    rules check the rest (``Engine.set_alea_position``)."""
    if not args or args[0] not in ("startpos", "fen"):
        got = quote(args[0]) if args else "the end of the line"
        raise ValueError(f"expected 'startpos' or 'fen' after 'position alea', not {got}")
    i, fen = 1, None
    if args[0] == "fen":
        words = []
        while i < len(args) and args[i] not in ALEA_WORDS:
            words.append(args[i])
            i += 1
        if len(words) != ALEA_FEN_FIELDS:
            raise ValueError(f"an Alea FEN has {ALEA_FEN_FIELDS} fields, not {len(words)}")
        fen = " ".join(words)
    tokens: list[str] = []
    if i < len(args) and args[i] == "moves":
        i += 1
        while i < len(args) and args[i] != "dice":
            tokens.append(args[i].lower())
            i += 1
    dice = ...
    if i < len(args) and args[i] == "dice":
        if i + 2 != len(args):
            raise ValueError("'dice' needs one pair (nq) or '-', at the end of the line")
        word = args[i + 1].lower()
        if word == "-":
            dice = None
        elif len(word) == 2 and all(t in "nbrq" for t in word):
            dice = (word[0], word[1])
        else:
            raise ValueError(f"dice must be two of n b r q (nq) or '-', not {quote(word)}")
        i += 2
    if i < len(args):
        raise ValueError(f"expected 'moves' or 'dice', not {quote(args[i])}")
    return fen, tokens, dice


def draw_answer(engine: Engine, args: list[str]) -> str:
    """``draw offer`` (A17): ``draw accept`` or ``draw decline``."""
    if args != ["offer"]:
        raise ValueError("expected 'draw offer'")
    return "draw accept" if engine.draw_offer() else "draw decline"


def guide_review_lines(engine: Engine, args: list[str]) -> list[str]:
    """``guide review <token>`` (A22): one ``info string guide review ...`` line."""
    if len(args) != 2 or args[0] != "review":
        raise ValueError("expected 'guide review <token>'")
    return ["info string " + engine.guide_review(args[1].lower())]


def display_lines(engine: Engine) -> list[str]:
    """What ``d`` prints: the drawing, the FEN, and what a user checks next."""
    board = engine.board
    fog = engine.fog
    if fog is not None:                 # the view itself: `*` on fogged cells
        g = board.variant.geometry
        last = fog.last
        lines = draw(g, lambda c: last.pieces.get(g.names[c])
                     or (None if g.names[c] in last.visible else FOG)).split("\n")
        belief = engine.belief
        lines += ["",
                  f"Fog view: {fog.last.fen}",
                  f"Views: {len(fog.views)}",
                  f"Belief: {len(belief) if belief is not None else 0} positions",
                  f"Side to move: {'white' if fog.side == 'w' else 'black'}",
                  f"Legal moves: {len(engine.legal_moves())}"]
        return lines
    lines = board.draw().split("\n")
    state = engine.alea
    if state is not None:
        lines += ["",
                  f"Alea FEN: {state.fen()}",
                  f"Variant: {engine.variant}",
                  f"Side to move: {'white' if board.turn == 'w' else 'black'}",
                  f"Legal actions: {len(engine.legal_moves())}"]
        return lines
    lines += ["",
              f"Fen: {board.fen()}",
              f"Key: {board.key:016X}",
              f"Variant: {engine.variant}",
              f"Chess960: {'true' if engine.chess960 else 'false'}",
              f"Side to move: {'white' if board.turn == 'w' else 'black'}",
              f"Legal moves: {len(board.legal_moves())}"]
    outcome = board.outcome()
    if outcome is not None:
        lines.append(f"Outcome: {outcome.result} ({outcome.termination})")
    return lines
