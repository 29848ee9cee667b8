"""PGN for finished games. Standard chess uses SAN (via python-chess, so any PGN reader
can replay it); Grand and hexagonal games use coordinate moves (``e3e5``, ``f10f11n``)
under a ``Variant`` tag, since SAN for them is not standardised. Gliński stalemates use
the project's ``3/4-1/4`` result convention with the reason in ``Termination``.

Fog of War games (``[Variant "Fog of War"]``, coordinate moves: a king capture is no
move a chess reader accepts) are written only once they are over -- the match runner
and the terminal write finished records only -- and then reveal every move of both sides
(shared/rules/fog.md: spectators see nothing until the end, then the whole game)."""
from __future__ import annotations

import datetime

VARIANT_TAG = {"chess": "Standard", "grand": "Grand", "hexagonal": "Glinski",
               "fogofwar": "Fog of War"}


def write_pgn(rec, time_control: str = "-", event: str = "Quantum match", round_no=1,
              start_fen_is_standard: bool | None = None) -> str:
    from engine.variant import load_variant
    start = load_variant(rec.variant).start_fen
    tags = [("Event", event), ("Site", "local"),
            ("Date", datetime.date.today().strftime("%Y.%m.%d")), ("Round", str(round_no)),
            ("White", rec.white), ("Black", rec.black), ("Result", rec.result),
            ("Variant", VARIANT_TAG.get(rec.variant, rec.variant)),
            ("TimeControl", time_control), ("Termination", rec.termination or "unterminated"),
            ("PlyCount", str(len(rec.moves)))]
    first_fen = _initial_fen(rec)
    if first_fen != start:
        tags += [("SetUp", "1"), ("FEN", first_fen)]
    head = "\n".join(f'[{k} "{_escape(v)}"]' for k, v in tags)
    body = " ".join(part for part in (_movetext(rec, first_fen), rec.result) if part)
    return f"{head}\n\n{body}\n"


def _initial_fen(rec) -> str:
    """The position the game began in (a record built by hand without ``initial_fen``
    is taken to begin at its ``start_fen``)."""
    return rec.initial_fen or rec.start_fen


def _movetext(rec, first_fen: str) -> str:
    if rec.variant == "chess":
        import chess
        board = chess.Board(first_fen)
        out = []
        for i, uci in enumerate(rec.moves):
            move = chess.Move.from_uci(uci)
            if board.turn == chess.WHITE:
                out.append(f"{board.fullmove_number}.")
            elif i == 0:
                out.append(f"{board.fullmove_number}...")
            out.append(board.san(move))
            board.push(move)
        return " ".join(out)
    from engine.board import Board
    board = Board(rec.variant, first_fen)
    number, white = int(first_fen.split()[-1]), board.turn == "w"
    out = [] if white else [f"{number}..."]
    for uci in rec.moves:
        if white:
            out.append(f"{number}.")
        out.append(uci)
        if not white:
            number += 1
        white = not white
    return " ".join(out)


def _escape(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace('"', '\\"')
