"""FEN for every geometry: parse into plain data, format back.

One code path serves standard FEN, Grand FEN as Fairy-Stockfish writes it (multi-digit
empty counts such as ``10``) and the hex FEN of docs/rules/hexagonal.md (rows of different
lengths, no castling field). Parsing is strict: anything malformed raises ValueError
with a message a user can act on.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.notation import quote
from engine.tables import LIMITS

WHITE_BIT, BLACK_BIT = 16, 32
DIGITS = "0123456789"
MAX_HALFMOVE = 10000
MAX_FULLMOVE = 100000


def _number(text: str, what: str) -> int:
    """A non-negative ASCII decimal number (no signs, underscores or other scripts)."""
    if not text or any(ch not in DIGITS for ch in text):
        raise ValueError(f"{what} must be a number, not {quote(text)}")
    if len(text) > 18:                  # no counter is that large (and int() balks at 4300)
        raise ValueError(f"{what} is out of range: {quote(text)}")
    return int(text)


def check_counters(halfmove: int, fullmove: int) -> None:
    """ValueError unless 0 <= halfmove <= MAX_HALFMOVE and 1 <= fullmove <= MAX_FULLMOVE."""
    if not (0 <= halfmove <= MAX_HALFMOVE and 1 <= fullmove <= MAX_FULLMOVE):
        raise ValueError(f"move counters out of range (halfmove clock 0..{MAX_HALFMOVE}, "
                         f"fullmove number 1..{MAX_FULLMOVE})")


@dataclass
class FenData:
    board: list          # piece code per cell (0 empty)
    side: int            # 0 white, 1 black
    castling: int        # rights mask over variant castling indices
    ep: int              # en passant cell as written, -1 for none
    halfmove: int
    fullmove: int
    setup: tuple | None = None  # Chess960: (king cell, rook cell) or None per right index


def parse(variant, fen: str) -> FenData:
    g = variant.geometry
    fields = fen.split()
    if not fields:
        raise ValueError("empty FEN")
    if not variant.spec.fen_castling_field and len(fields) == 6 and fields[2] == "-":
        del fields[2]                   # tolerate a castling field in a castling-less FEN
    rows = fields[0].split("/")
    if len(rows) != len(g.fen_rows):
        raise ValueError(f"FEN has {len(rows)} rows, {variant.name} needs {len(g.fen_rows)}")
    board = [0] * g.ncells
    for text, cells in zip(rows, g.fen_rows):
        pos = 0
        i = 0
        while i < len(text):
            ch = text[i]
            if ch in DIGITS:
                j = i
                while j < len(text) and text[j] in DIGITS:
                    j += 1
                if ch == "0":               # "08", "P0003": python-chess refuses them too
                    raise ValueError(f"FEN row {quote(text)}: an empty count "
                                     f"{quote(text[i:j])} must not start with 0")
                pos += int(text[i:j])
                i = j
                continue
            t = variant.type_of.get(ch.lower())
            if t is None:
                raise ValueError(f"unknown piece {quote(ch)} in FEN")
            if pos >= len(cells):
                raise ValueError(f"FEN row {quote(text)} is too long")
            board[cells[pos]] = t | (WHITE_BIT if ch.isupper() else BLACK_BIT)
            pos += 1
            i += 1
        if pos != len(cells):
            raise ValueError(f"FEN row {quote(text)} has {pos} cells, needs {len(cells)}")

    rest = fields[1:]
    side_txt = rest.pop(0) if rest else "w"
    if side_txt not in ("w", "b"):
        raise ValueError(f"side to move must be w or b, not {quote(side_txt)}")
    side = 0 if side_txt == "w" else 1
    castling = 0
    setup = None
    ctext = "-"
    if variant.spec.fen_castling_field:
        ctext = rest.pop(0) if rest else "-"
        if ctext != "-" and not variant.chess960:
            for ch in ctext:
                if ch not in variant.castling_letters:
                    raise ValueError(f"bad castling field {quote(ctext)}")
                castling |= 1 << variant.castling_letters.index(ch)
    ep_txt = rest.pop(0) if rest else "-"
    ep = -1
    if ep_txt != "-":
        try:
            ep = g.cell(ep_txt)
        except KeyError:
            raise ValueError(f"bad en passant cell {quote(ep_txt)}") from None
    halfmove = _number(rest.pop(0), "halfmove clock") if rest else 0
    fullmove = _number(rest.pop(0), "fullmove number") if rest else 1
    if rest:
        raise ValueError(f"unexpected FEN fields {quote(' '.join(rest))}")
    check_counters(halfmove, fullmove)
    _validate(variant, board, castling)
    if variant.chess960:
        castling, setup = _chess960_rights(variant, board, ctext)
    else:
        castling = _clean_castling(variant, board, castling)
    return FenData(board, side, castling, ep, halfmove, fullmove, setup)


def _chess960_rights(variant, board: list, text: str) -> tuple[int, tuple]:
    """The rights mask and setup (``FenData.setup``) of a Chess960 castling field.

    Each letter is a right of White (upper case) or Black: a file letter (Shredder-FEN,
    ``HAha``) names the rook on that file of the side's first rank; a standard letter
    (X-FEN, ``KQkq``) the outermost rook on that wing. The wing is the side of the king
    the rook stands on, and fixes the right's index and targets. ValueError for a letter
    that names no rook of the side, a king off its first rank, or two rights of one wing."""
    g = variant.geometry
    rights = variant.tables_data["castling"]
    setup = [None] * len(rights)
    castling = 0
    if text == "-":
        return castling, tuple(setup)
    rook_type = variant.type_of.get("r", 0)
    for ch in text:
        side = 0 if ch.isupper() else 1
        mine = [i for i, r in enumerate(rights) if r["side"] == side]
        colour = "white" if side == 0 else "black"
        if not ch.isalpha() or not mine:
            raise ValueError(f"bad castling field {quote(text)}")
        y = g.coords[rights[mine[0]]["king_from"]][1]
        own_rook = rook_type | (WHITE_BIT if side == 0 else BLACK_BIT)
        king = next(c for c, pc in enumerate(board) if pc == variant.royal_type | (
            WHITE_BIT if side == 0 else BLACK_BIT))
        kx, ky = g.coords[king]
        if ky != y:
            raise ValueError(f"castling right {quote(ch)}: the {colour} king is not on its "
                             f"first rank")
        wing = {_wing(g, rights[i]): i for i in mine}
        xfen = [i for i in mine if rights[i]["letter"] == ch]
        if xfen:                        # the outermost rook on that wing
            step = _wing(g, rights[xfen[0]])
            edge = -1 if step < 0 else len(g.files)
            rooks = [c for c in (g.cell_at(x, y) for x in range(kx + step, edge, step))
                     if c >= 0 and board[c] == own_rook]
            if not rooks:
                raise ValueError(f"castling right {quote(ch)} names no {colour} rook")
            rook = rooks[-1]
        elif ch.lower() in g.files:     # the rook on that file
            rook = g.cell_at(g.files.index(ch.lower()), y)
            if rook < 0 or board[rook] != own_rook:
                raise ValueError(f"castling right {quote(ch)} names no {colour} rook")
        else:
            raise ValueError(f"bad castling field {quote(text)}")
        slot = wing.get((g.coords[rook][0] > kx) - (g.coords[rook][0] < kx))
        if slot is None:
            raise ValueError(f"castling right {quote(ch)} names no {colour} rook")
        if castling >> slot & 1:
            raise ValueError(f"castling field {quote(text)} gives the {colour} king two "
                             f"rights on one wing")
        setup[slot] = (king, rook)
        castling |= 1 << slot
    return castling, tuple(setup)


def _wing(g, right: dict) -> int:
    """+1 when a right's rook stands on the king's higher-file side, -1 on the lower."""
    return 1 if g.coords[right["rook_from"]][0] > g.coords[right["king_from"]][0] else -1


def _validate(variant, board: list, castling: int) -> None:
    """Placement checks that do not need the move generator."""
    data = variant.tables_data
    for side, bit in ((0, WHITE_BIT), (1, BLACK_BIT)):
        pieces = [c for c, pc in enumerate(board) if pc & bit]
        if len(pieces) > LIMITS["pieces"]:
            raise ValueError(f"too many pieces for one side (the most is {LIMITS['pieces']})")
        if variant.royal_type:
            kings = sum(1 for c in pieces if board[c] == variant.royal_type | bit)
            if kings != 1:
                raise ValueError(f"{'white' if side == 0 else 'black'} must have exactly one king")
        if variant.pawn_type:
            for c, zone in data["promo_zone"][side].items():
                if zone == 2 and board[c] == variant.pawn_type | bit:
                    raise ValueError(f"pawn on its promotion cell {variant.geometry.names[c]}")


def _clean_castling(variant, board: list, castling: int) -> int:
    """Drop rights whose king or rook is not in place (as python-chess does)."""
    rook = variant.type_of.get("r", 0)
    for i, c in enumerate(variant.tables_data["castling"]):
        bit = WHITE_BIT if c["side"] == 0 else BLACK_BIT
        if castling >> i & 1 and not (board[c["king_from"]] == variant.royal_type | bit
                                      and board[c["rook_from"]] == rook | bit):
            castling &= ~(1 << i)
    return castling


def format(variant, board, side: int, castling: int, ep: int, halfmove: int, fullmove: int,
           rights=None) -> str:
    """The FEN of a position; ``rights`` are the castling records the position runs on
    (a Chess960 board's own: its castling field is then Shredder-FEN, as Stockfish
    writes it with UCI_Chess960), by default the variant's."""
    g = variant.geometry
    rows = []
    for cells in g.fen_rows:
        out, empty = [], 0
        for c in cells:
            pc = board[c]
            if pc == 0:
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            letter = variant.letters[pc & 15]
            out.append(letter.upper() if pc & WHITE_BIT else letter)
        if empty:
            out.append(str(empty))
        rows.append("".join(out))
    parts = ["/".join(rows), "wb"[side]]
    if variant.spec.fen_castling_field:
        records = variant.tables_data["castling"] if rights is None else rights
        letters = "".join(r["letter"] for i, r in enumerate(records) if castling >> i & 1)
        parts.append(letters or "-")
    parts += [g.names[ep] if ep >= 0 else "-", str(halfmove), str(fullmove)]
    return " ".join(parts)
