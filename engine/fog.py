"""Fog of War: what each player sees (docs/rules/fog.md, the authoritative rules).

A player always sees (docs/rules/fog.md, "What each player sees"):

1. all own pieces;
2. every cell one of the own pieces can move to by a pseudo-legal move: slider rays up to
   and including the first occupied cell if it holds an enemy piece, knight and king
   targets that are empty or enemy-occupied, castling targets when castling is possible;
   a pawn sees the cells it can advance to (one, or two when its double step is possible
   and both cells are empty) and the diagonals it can capture onto (an enemy stands there,
   or it is the en passant target) -- an enemy directly ahead and an empty diagonal stay
   hidden;
3. the enemy piece on any such cell, and, when an en passant capture is available, the
   enemy pawn that just passed (for that turn only).

Everything else is fog. A king left attacked is not announced, and an enemy promotion is
seen only if the promotion cell is visible: both follow from the view holding nothing but
the cells above.

"Can move to" is read off the board's own move generator: in ``fogofwar``,
``Board.legal_moves()`` is exactly the pseudo-legal move list (no check rule; castling
out of, through or into attack), so these targets cannot drift from the rules the arbiter
enforces. The side not to move is evaluated as if it were to move: on a copy with the turn
switched and **no en passant right** (an en passant right belongs to the side to move only;
the other side's pawns can never take en passant at this moment).

A view is written like a FEN with ``*`` for every fogged cell (docs/rules/fog.md, "Notation of
a view"); see :func:`view_fen` for the other fields (its halfmove field is always ``0``).

:func:`view_moves` gives the moves a view allows, computed from the view alone; they are
exactly the true position's pseudo-legal moves (in fog every own move is determined by the
view), which is what a fog player may choose from.

.. warning:: A game ends when a king is captured; after that nobody has a view (the rules
   reveal the whole game instead, and the move generator has no moves for a side without
   its king). Every function here raises ValueError on such a position, so the arbiter
   must check ``Board.outcome()`` before it sends a view or lost cells.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.board import Board
from engine.fen import DIGITS, _number, check_counters
from engine.tables import LIMITS
from engine.variant import Variant, load_variant

FOG = "*"
SIDES = ("w", "b")
# A UCI move: two cell names (letters then digits, so a10 and f11 work), then a promotion.
_UCI = re.compile(r"([a-z]+[0-9]+)([a-z]+[0-9]+)[a-z]?")


def _colour(letter: str) -> str:
    return "w" if letter.isupper() else "b"


def _check_side(side: str) -> None:
    if side not in SIDES:
        raise ValueError(f"side must be 'w' or 'b', not {side!r}")


def _pieces(board: Board) -> dict[str, str]:
    """``{cell: letter}`` of every piece on ``board``."""
    out = {}
    for name in board.variant.geometry.names:
        letter = board.piece_at(name)
        if letter:
            out[name] = letter
    return out


def _as_mover(board: Board, side: str) -> Board:
    """``board`` if ``side`` is to move, else a copy with the turn switched and no en
    passant right (castling rights and clocks kept)."""
    if board.turn == side:
        return board
    fields = board.fen().split()
    fields[1] = side
    fields[-3] = "-"                    # en passant: placement side [castling] ep half full
    return Board(board.variant, " ".join(fields))


def _sight(board: Board, side: str) -> tuple[set[str], dict[str, str]]:
    """The targets of ``side``'s pseudo-legal moves and ``{e.p. target: passed pawn cell}``
    (at most one entry: the en passant right of the side to move)."""
    mover = _as_mover(board, side)
    ep_cell = mover.fen().split()[-3]   # shown only when a capture there exists
    pawn = mover.variant.letters[mover.variant.pawn_type]
    targets, passed = set(), {}
    for uci in mover.legal_moves():
        origin, target = _UCI.fullmatch(uci).group(1, 2)
        targets.add(target)
        if target == ep_cell and target not in passed and mover.piece_at(origin).lower() == pawn:
            # The pawn taken en passant is the enemy piece this move removes from a cell
            # other than its target: find it by playing the move (no geometry arithmetic).
            after = mover.copy()
            after.push(uci)
            for cell, letter in _pieces(mover).items():
                if _colour(letter) != side and after.piece_at(cell) is None:
                    passed[target] = cell
    return targets, passed


def _visible(board: Board, side: str) -> tuple[frozenset[str], dict[str, str]]:
    _check_side(side)
    pieces = _pieces(board)
    king = board.variant.letters[board.variant.royal_type]
    if {king, king.upper()} - set(pieces.values()):
        raise ValueError("the game is over (a king was captured): no view after the end")
    targets, passed = _sight(board, side)
    own = {c for c, letter in pieces.items() if _colour(letter) == side}
    return frozenset(own | targets | set(passed.values())), passed


def visible_cells(board: Board, side: str) -> frozenset[str]:
    """The cells ``side`` sees on the true ``board``: own pieces, targets of its
    pseudo-legal moves, and the enemy pawn it can take en passant (docs/rules/fog.md)."""
    return _visible(board, side)[0]


@dataclass(frozen=True)
class View:
    """What one player sees: the result of :func:`view` or :func:`parse_view_fen`.

    ``pieces`` is not hashable, so neither is a View; compare views with ``==``."""

    side: str                       # "w" or "b": whose view this is
    visible: frozenset[str]         # cell names the player sees (own pieces included)
    pieces: dict[str, str]          # {visible cell: FEN letter} of every visible piece
    fen: str                        # the view FEN (see view_fen)


def view(board: Board, side: str) -> View:
    """``side``'s view of the true ``board``."""
    visible, passed = _visible(board, side)
    pieces = {c: letter for c, letter in _pieces(board).items() if c in visible}
    return View(side, visible, pieces, _format(board, side, visible, pieces, passed))


def view_fen(board: Board, side: str) -> str:
    """``side``'s view as a FEN with ``*`` on every fogged cell (docs/rules/fog.md, "Notation of
    a view"); White's start view is
    ``********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1``.

    - placement: pieces on visible cells, digits count visible empty cells only;
    - side to move: always ``side`` (the view is what that player moves from);
    - castling: ``side``'s own rights exactly; an opponent's right is written unless the
      view itself refutes it (that king's or that rook's start cell is visible and does
      not hold it), so the letters carry no hidden information ("possibly still has it");
    - en passant: the target cell only when ``side`` is to move and can take there;
    - halfmove clock: always ``0`` -- the true clock would tell whether the hidden
      opponent move was a pawn move or a capture (docs/protocol.md, ``position fog``);
      the arbiter applies the fifty-move rule on the true position;
    - fullmove number: that of the true position.
    """
    return view(board, side).fen


def _format(board: Board, side: str, visible: frozenset[str], pieces: dict[str, str],
            passed: dict[str, str]) -> str:
    v = board.variant
    names = v.geometry.names
    rows = []
    for cells in v.geometry.fen_rows:
        out, empty = [], 0
        for c in cells:
            name = names[c]
            if name in visible and name not in pieces:
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            out.append(pieces.get(name, FOG))
        if empty:
            out.append(str(empty))
        rows.append("".join(out))
    true = board.fen().split()
    parts = ["/".join(rows), side]
    if v.spec.fen_castling_field:
        parts.append(_castling_field(v, side, true[2], visible, pieces))
    parts.append(next(iter(passed), "-"))       # only the side to move has an e.p. right
    parts += ["0", true[-1]]                    # the true halfmove clock would leak
    return " ".join(parts)


def _castling_field(v: Variant, side: str, true_rights: str, visible, pieces) -> str:
    letters = [r["letter"] for r in v.tables_data["castling"]
               if (r["letter"] in true_rights if SIDES[r["side"]] == side
                   else _right_possible(v, r, visible, pieces))]
    return "".join(letters) or "-"


def _right_possible(v: Variant, right: dict, visible, pieces) -> bool:
    """Whether a view leaves a castling right possible: its king and rook start cells are
    fogged or hold that king and rook."""
    names = v.geometry.names
    # The castling partner is the rook, as fen._clean_castling assumes.
    for cell, letter in ((right["king_from"], v.letters[v.royal_type]), (right["rook_from"], "r")):
        want = letter.upper() if right["side"] == 0 else letter
        if names[cell] in visible and pieces.get(names[cell]) != want:
            return False
    return True


def parse_view_fen(text: str, variant: str | Variant = "fogofwar") -> View:
    """Read a view FEN (as written by :func:`view_fen`) back into a View.

    The halfmove field may hold any number (view_fen writes ``0``; the field carries no
    information in a view). Raises ValueError with a message naming the fault on anything
    malformed: wrong row count or length, unknown letters, a zero empty count, a bad side,
    castling or en passant field, clocks that are not numbers, extra fields, not exactly
    one own king, more than one enemy king, a pawn on its last rank, or an en passant cell
    that is not a visible empty cell behind a visible enemy pawn.
    """
    from engine.notation import check_fen_length, quote
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    g = v.geometry
    if not isinstance(text, str):
        raise ValueError(f"a view FEN must be a string, not {type(text).__name__}")
    fields = check_fen_length(text).split()
    want = 6 if v.spec.fen_castling_field else 5
    if len(fields) != want:
        raise ValueError(f"a {v.name} view FEN has {want} fields, not {len(fields)}: "
                         f"{quote(text)}")
    rows = fields[0].split("/")
    if len(rows) != len(g.fen_rows):
        raise ValueError(f"view FEN has {len(rows)} rows, {v.name} needs {len(g.fen_rows)}")
    visible, pieces = set(), {}
    for row, cells in zip(rows, g.fen_rows):
        pos, i = 0, 0
        while i < len(row):
            ch = row[i]
            if ch in DIGITS:
                j = i
                while j < len(row) and row[j] in DIGITS:
                    j += 1
                run = int(row[i:j])
                if row[i] == "0":
                    raise ValueError(f"bad empty count {quote(row[i:j])} in row {quote(row)}")
                names = [g.names[c] for c in cells[pos:pos + run]]
                visible.update(names)
                pos += run
                i = j
                continue
            if ch != FOG and v.type_of.get(ch.lower()) is None:
                raise ValueError(f"unknown piece {ch!r} in view FEN")
            if pos < len(cells):
                if ch != FOG:
                    visible.add(g.names[cells[pos]])
                    pieces[g.names[cells[pos]]] = ch
            pos += 1
            i += 1
        if pos != len(cells):
            raise ValueError(f"view FEN row {quote(row)} has {pos} cells, needs {len(cells)}")

    side = fields[1]
    if side not in SIDES:
        raise ValueError(f"side to move must be w or b, not {quote(side)}")
    rest = fields[2:]
    if v.spec.fen_castling_field:
        castling = rest.pop(0)
        if castling != "-" and (any(ch not in v.castling_letters for ch in castling)
                                or len(set(castling)) != len(castling)):
            raise ValueError(f"bad castling field {quote(castling)}")
        for right in v.tables_data["castling"]:
            # Own pieces are never fogged: an own right needs its king and rook in place.
            known = g.names if SIDES[right["side"]] == side else visible
            if right["letter"] in castling and not _right_possible(v, right, known, pieces):
                raise ValueError(f"castling right {right['letter']!r} contradicts the view")
    ep = rest.pop(0)
    if ep != "-":
        _check_ep(v, side, ep, visible, pieces)
    check_counters(_number(rest[0], "halfmove clock"), _number(rest[1], "fullmove number"))
    _check_pieces(v, side, pieces)
    return View(side, frozenset(visible), pieces, " ".join(fields))


def _check_ep(v: Variant, side: str, ep: str, visible: set, pieces: dict) -> None:
    from engine.notation import quote
    g = v.geometry
    try:
        cell = g.cell(ep)
    except KeyError:
        raise ValueError(f"bad en passant cell {quote(ep)}") from None
    # The pawn that passed stands one enemy pawn step beyond the cell (Black's step is
    # White's mirrored), and our rule shows it (docs/rules/fog.md).
    fx, fy = g.forward
    victim = g.step(cell, (fx, -fy) if side == "w" else (fx, fy))
    pawn = v.letters[v.pawn_type]
    if (ep not in visible or ep in pieces or victim < 0
            or pieces.get(g.names[victim]) != (pawn if side == "w" else pawn.upper())):
        raise ValueError(f"en passant cell {ep!r} is not a visible empty cell behind a "
                         "visible enemy pawn")


def _check_pieces(v: Variant, side: str, pieces: dict) -> None:
    king = v.letters[v.royal_type]
    own_king = king.upper() if side == "w" else king
    counts = {letter: 0 for letter in (king, king.upper())}
    for letter in pieces.values():
        if letter in counts:
            counts[letter] += 1
    if counts[own_king] != 1:
        raise ValueError(f"the view must show exactly one own king, not {counts[own_king]}")
    if counts[own_king.swapcase()] > 1:
        raise ValueError("the view shows more than one enemy king")
    for white in (True, False):
        if sum(letter.isupper() == white for letter in pieces.values()) > LIMITS["pieces"]:
            raise ValueError(f"the view shows more than {LIMITS['pieces']} pieces of a side")
    pawn = v.letters[v.pawn_type]
    for name, letter in pieces.items():
        s = 0 if letter.isupper() else 1
        zone = v.tables_data["promo_zone"][s].get(v.geometry.cell(name))
        if letter.lower() == pawn and zone == 2:        # 2: promotion is compulsory there
            raise ValueError(f"pawn on its promotion cell {name}")


def view_board(v: View | str, king_cells=(), variant: str | Variant = "fogofwar") -> Board:
    """A Board of what view ``v`` (a View or a view FEN) shows, with every fogged cell
    empty, ``v.side`` to move, only ``v.side``'s castling rights and the view's en
    passant cell.

    A Board needs both kings: when the enemy king is not in view it is put on a fogged
    cell -- the first of ``king_cells`` that is fogged, else its start cell if fogged,
    else the first fogged cell where the board can stand. That choice never changes
    :func:`view_moves` (no own move reaches or crosses a fogged cell), but a search on
    this board does see the king there. ValueError for a malformed view, or one where no
    fogged cell is left for the enemy king.
    """
    vt = variant if isinstance(variant, Variant) else load_variant(variant)
    if isinstance(v, str):
        v = parse_view_fen(v, vt)
    g = vt.geometry
    fields = v.fen.split()
    king = vt.letters[vt.royal_type]
    enemy_king = king if v.side == "w" else king.upper()
    pieces = dict(v.pieces)
    if enemy_king in pieces.values():
        spots = [None]
    else:
        start = Board(vt)
        home = [c for c in g.names if start.piece_at(c) == enemy_king]
        fogged = [c for c in g.names if c not in v.visible]
        spots = [c for c in (*king_cells, *home, *fogged) if c in fogged]
        spots = list(dict.fromkeys(spots))       # first occurrence of each, in order
    castling = []
    if vt.spec.fen_castling_field:
        mine = {r["letter"] for r in vt.tables_data["castling"] if SIDES[r["side"]] == v.side}
        castling = ["".join(ch for ch in fields[2] if ch in mine) or "-"]
    tail = [v.side, *castling, fields[-3], "0", fields[-1]]
    for spot in spots:
        placed = dict(pieces, **({spot: enemy_king} if spot else {}))
        rows = []
        for cells in g.fen_rows:
            out, empty = [], 0
            for c in cells:
                letter = placed.get(g.names[c])
                if letter is None:
                    empty += 1
                    continue
                if empty:
                    out.append(str(empty))
                    empty = 0
                out.append(letter)
            if empty:
                out.append(str(empty))
            rows.append("".join(out))
        try:
            return Board(vt, " ".join(["/".join(rows), *tail]))
        except ValueError:
            if spot is None:
                raise
    raise ValueError(f"no fogged cell can hold the enemy king in view {v.fen!r}")


def view_moves(v: View | str, variant: str | Variant = "fogofwar") -> list[str]:
    """The moves view ``v`` allows its side, computed from the view alone: the
    pseudo-legal moves of :func:`view_board` (fog as empty cells) without those that land
    on or cross a fogged cell -- a pawn push onto a fogged cell above all (a fogged cell
    right in front of an own pawn holds an enemy piece: the pawn would see it empty).

    These are exactly the true position's pseudo-legal moves for the side to move (the
    moves the arbiter accepts): every cell a true move reaches or crosses is visible by
    the rules, so the view board agrees with the true one wherever a move goes.
    """
    vt = variant if isinstance(variant, Variant) else load_variant(variant)
    if isinstance(v, str):
        v = parse_view_fen(v, vt)
    board = view_board(v, variant=vt)
    g = vt.geometry
    pawn = vt.letters[vt.pawn_type] if vt.pawn_type else None
    fx, fy = g.forward
    ahead = (fx, fy) if v.side == "w" else (fx, -fy)
    castles = {(g.names[r["king_from"]], g.names[r["king_to"]]): r["empty"]
               for r in vt.tables_data.get("castling", ()) if SIDES[r["side"]] == v.side}
    out = []
    for uci in board.legal_moves():
        origin, target = _UCI.fullmatch(uci).group(1, 2)
        if target not in v.visible:
            continue
        letter = board.piece_at(origin).lower()
        crossed = ()
        if letter == pawn:
            # A push crosses the cells between (seen empty only if they are); a capture,
            # en passant included, goes sideways and crosses nothing.
            path, c = [], g.step(g.cell(origin), ahead)
            while c >= 0 and g.names[c] != target and len(path) < 3:
                path.append(g.names[c])
                c = g.step(c, ahead)
            crossed = path if c >= 0 and g.names[c] == target else ()
        elif letter == vt.letters[vt.royal_type] and (origin, target) in castles:
            crossed = [g.names[c] for c in castles[origin, target]]
        if all(c in v.visible for c in crossed):
            out.append(uci)
    return out


def lost_cells(before: Board, after: Board, side: str) -> frozenset[str]:
    """Cells where ``side`` lost a piece to the opponent's move and can no longer see
    (docs/rules/fog.md, "What each player is told": the player learns a piece was lost there,
    not by what).

    ``before`` and ``after`` are the true boards just before and after one move of the
    opponent (``after`` has ``side`` to move). A loss on a cell ``side`` still sees is not
    reported here: the view already shows the enemy piece standing there (or the empty
    cell), so the player knows.

    .. warning:: The boards must be one opponent move apart; ValueError if the turns say
       otherwise.
    """
    _check_side(side)
    if before.turn == side or after.turn != side:
        raise ValueError(f"lost_cells needs the boards before and after a move of the "
                         f"opponent of {side}")
    gone = set()
    for cell, letter in _pieces(before).items():
        now = after.piece_at(cell)
        if _colour(letter) == side and (now is None or _colour(now) != side):
            gone.add(cell)
    return frozenset(gone - visible_cells(after, side))
