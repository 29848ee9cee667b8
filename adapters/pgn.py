"""PGN for finished games. Standard chess uses SAN (via python-chess, so any PGN reader
can replay it); Grand and hexagonal games use coordinate moves (``e3e5``, ``f10f11n``)
under a ``Variant`` tag, since SAN for them is not standardised. Gliński stalemates use
the project's ``3/4-1/4`` result convention with the reason in ``Termination``.

Fog of War games (``[Variant "Fog of War"]``, coordinate moves: a king capture is no
move a chess reader accepts) are written only once they are over -- the match runner
and the terminal write finished records only -- and then reveal every move of both sides
(docs/rules/fog.md: spectators see nothing until the end, then the whole game). A
game in which one side saw the whole board (adapters/fog_referee.py, ``omniscient``) says
so in ``[WhiteSees "..."]`` and ``[BlackSees "..."]`` (``views`` or ``whole board``); any
other extra tags of a record (``rec.tags``) are written the same way.

Alea games (``[Variant "Alea"]``, adapters/alea_referee.py) carry the dice seed
(``[DiceSeed "..."]``) and, when the game did not begin with the standard Alea start, its
Alea FEN (``[AleaFEN "..."]``, jokers by level included). Moves are the protocol's tokens
(``e2e4``, ``e7e8r`` with the piece the promotion die gave, ``joker:e2e4``,
``castle:e1g1``); the dice shown before a move stand in a comment in front of it,
``{dice nq}`` (``{dice -}``: none could be shown), rerolls included
(``{dice nq; reroll; dice bq}``); free-phase moves have no comment. ``PlyCount`` counts
moves, not rerolls.

Chess960 games (``rec.chess960``, adapters/chess960.py) are ``[Variant "Chess960"]`` with
``[SetUp "1"]`` and their start as python-chess writes it (``[FEN "..."]``: X-FEN castling,
Shredder-FEN where X-FEN would be ambiguous), in SAN with ``O-O``/``O-O-O``: python-chess
reads them back to the same moves. Games of standard chess and Alea name their opening
(``[ECO "..."]``, ``[Opening "..."]``: engine/openings.py, the longest named line; none
when no position of the game is named); Chess960 games name none.

An engine's move carries its own last score, depth and thinking time in a comment after
it, as cutechess-cli writes them: ``{+0.35/12 0.52s}`` (the mover's view in pawns;
``+M3``/``-M3``: mate in 3 moves for or against it; the time alone when the engine said
no score); a person's moves and an opening's carry none.

Every lost game's reason is its ``Termination`` tag. A game lost by an engine that crashed
or never started also carries that engine's last stderr lines (``rec.stderr``) as a
comment after the last move, one line each (indented, braces made parentheses):
``{engine1 stderr, last lines:\n  Traceback ...}``.

``open_to_append`` opens a PGN file to add games at its end, keeping those already in it.
``game_texts`` splits a PGN this module wrote into each game's round, tags and movetext,
``engine_comments`` reads its engines' move comments back;
``coordinate_games`` reads back the games it writes in coordinate moves (Fog of
War, Grand, hex), for the measuring scripts; ``uci_games`` any variant's games as UCI
moves (chess's SAN through python-chess)."""
from __future__ import annotations

import datetime
import io
import logging
import os
import re

VARIANT_TAG = {"chess": "Standard", "grand": "Grand", "hexagonal": "Glinski",
               "fogofwar": "Fog of War", "alea": "Alea"}


def write_pgn(rec, time_control: str = "-", event: str = "Quantum match", round_no=1,
              start_fen_is_standard: bool | None = None) -> str:
    if rec.variant == "alea":
        return _alea_pgn(rec, time_control, event, round_no)
    from engine.variant import load_variant
    start = load_variant(rec.variant).start_fen
    tags = [("Event", event), ("Site", "local"),
            ("Date", datetime.date.today().strftime("%Y.%m.%d")), ("Round", str(round_no)),
            ("White", rec.white), ("Black", rec.black), ("Result", rec.result),
            ("Variant", "Chess960" if rec.chess960
             else VARIANT_TAG.get(rec.variant, rec.variant)),
            ("TimeControl", time_control), ("Termination", rec.termination or "unterminated"),
            ("PlyCount", str(len(rec.moves)))]
    tags += [(k, v) for k, v in rec.tags.items()]
    first_fen = _initial_fen(rec)
    if rec.chess960:
        import chess
        tags += [("SetUp", "1"), ("FEN", chess.Board(first_fen, chess960=True).fen())]
    elif first_fen != start:
        tags += [("SetUp", "1"), ("FEN", first_fen)]
    if rec.variant == "chess" and not rec.chess960:     # no names for Chess960 lines
        tags += _opening_tags(rec.moves, first_fen)
    head = "\n".join(f'[{k} "{_escape(v)}"]' for k, v in tags)
    body = " ".join(part for part in (_movetext(rec, first_fen), _stderr_comment(rec),
                                      rec.result) if part)
    return f"{head}\n\n{body}\n"


_COORDINATE_MOVE = re.compile(r"[a-l]\d+[a-l]\d+[qrbnkac]?")     # a, c: Grand's promotions


def game_texts(text: str):
    """``(round, tags, movetext)`` of each game of a PGN this module wrote, as text."""
    for chunk in text.split("[Event ")[1:]:
        rnd = int(re.search(r'\[Round "(\d+)"\]', chunk).group(1))
        head, _, body = chunk.partition("\n\n")
        yield rnd, head, body


_COMMENT = re.compile(r"([+-](?:\d+\.\d\d|M\d+))?(?:/(\d+))? ?(\d+\.\d+)s")


def engine_comments(text: str):
    """``(round, result, ply, engine, centipawns or None, depth, seconds)`` of each
    engine move of a scripts/match PGN that carries a ``{score/depth time}`` comment:
    the score from the mover's view (a mate: +-10000), ``ply`` the move's number from
    the game's start (1: the first move; the opening's moves count and carry none),
    engine 1 White in the odd rounds."""
    for rnd, head, body in game_texts(text):
        fen = re.search(r'\[FEN "[^"]* ([wb]) ', head)
        result = re.search(r'\[Result "([^"]*)"\]', head)
        ply, black_first = 0, bool(fen and fen.group(1) == "b")
        for token in re.findall(r"\{[^}]*\}|[^\s{}]+", body):
            if token.startswith("{"):
                found = _COMMENT.fullmatch(token[1:-1].strip())
                if found and ply:
                    white = (ply + black_first) % 2 == 1
                    engine = 1 if (rnd % 2 == 1) == white else 2
                    yield (rnd, result.group(1) if result else "*", ply, engine,
                           _centipawns(found.group(1)), int(found.group(2) or 0),
                           float(found.group(3)))
            elif not re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*|3/4-1/4|1/4-3/4", token):
                ply += 1


def _centipawns(score: str | None) -> int | None:
    """A comment's ``+0.35`` / ``-M3`` in centipawns (a mate +-10000)."""
    if not score:
        return None
    if score[1] == "M":
        return 10000 if score[0] == "+" else -10000
    return round(float(score) * 100)


def coordinate_games(text: str):
    """``(round, result, moves)`` of each game of a PGN in coordinate moves (comments
    dropped)."""
    for rnd, head, body in game_texts(text):
        result = re.search(r'\[Result "([^"]+)"\]', head).group(1)
        body = re.sub(r"\{[^}]*\}", " ", body)
        yield rnd, result, [t for t in body.split() if _COORDINATE_MOVE.fullmatch(t)]


def uci_games(text: str, variant: str) -> list:
    """``(round, result, FEN or None, moves in UCI)`` of each game of a PGN. Standard
    chess is read by python-chess, which takes SAN and coordinate moves and a FEN tag
    alike; the other variants' PGNs give coordinate moves from the start position. A PGN
    of which no move could be read, or a chess game python-chess cannot replay, is a
    ValueError (is the variant the games' variant?)."""
    if variant == "chess":
        import chess.pgn
        out, stream = [], io.StringIO(text)
        logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)   # errors: raised below
        while (game := chess.pgn.read_game(stream)) is not None:
            if game.errors:
                raise ValueError(f"round {game.headers.get('Round', '?')}: {game.errors[0]} "
                                 f"(is the variant the games' variant?)")
            out.append((int(game.headers.get("Round", "0")), game.headers.get("Result", "*"),
                        game.headers.get("FEN"), [m.uci() for m in game.mainline_moves()]))
    else:
        out = [(rnd, result, None, moves) for rnd, result, moves in coordinate_games(text)]
    if not any(moves for *_, moves in out):
        raise ValueError(f"no moves read from the PGN (variant {variant}): "
                         "is the variant the games' variant?")
    return out


def open_to_append(path):
    """Open the PGN file ``path`` (created when missing) to write games at its end, after
    the games already in it. A file that does not end in a blank line gets one first, so
    that the next game's tags cannot run into the last game's movetext."""
    with open(path, "ab+") as probe:
        probe.seek(max(probe.seek(0, os.SEEK_END) - 2, 0))
        tail = probe.read()
    fh = open(path, "a", encoding="utf-8")
    if tail and not tail.endswith(b"\n\n"):
        fh.write("\n" if tail.endswith(b"\n") else "\n\n")
    return fh


def _stderr_comment(rec) -> str:
    """The crashed engine's last stderr lines as one PGN comment ("" when there are
    none). Each line is indented, so none can start a PGN escape (``%``) or look like a
    tag; braces, which would end the comment, become parentheses, and control characters
    question marks."""
    if rec.crashed is None or not rec.stderr:
        return ""
    table = {ord("{"): "(", ord("}"): ")"}
    lines = ["".join(c if c.isprintable() or c == "\t" else "?" for c in line.translate(table))
             for line in rec.stderr]
    who = (rec.white, rec.black)[rec.crashed]
    return "{" + f"{who} stderr, last lines:" + "".join(f"\n  {line}" for line in lines) + "}"


def _initial_fen(rec) -> str:
    """The position the game began in (a record built by hand without ``initial_fen``
    is taken to begin at its ``start_fen``)."""
    return rec.initial_fen or rec.start_fen


def _opening_tags(moves, fen: str) -> list[tuple[str, str]]:
    """``ECO`` and ``Opening`` of a chess line (UCI moves from ``fen``) by the longest
    line engine/openings.py names; none when no position of it is named."""
    from engine.openings import name_of
    opening = name_of(moves, fen)
    return [] if opening is None else [("ECO", opening.eco), ("Opening", opening.name)]


def move_comment(info: str, seconds: float) -> str:
    """cutechess-cli's comment on an engine's move: its score from its own view in pawns
    (``+M3``/``-M3`` a mate in moves), ``/`` the depth, and the seconds it thought, from
    the last ``info`` line it sent with a score (the time alone without one)."""
    from adapters.draws import parse_score
    score, depth = parse_score(info), re.search(r"\bdepth (\d+)", info or "")
    if score is None:
        return f"{seconds:.2f}s"
    text = (f"{'+' if score.mate > 0 else '-'}M{abs(score.mate)}" if score.mate is not None
            else f"{score.cp / 100:+.2f}")
    return f"{text}{'/' + depth.group(1) if depth else ''} {seconds:.2f}s"


def _movetext(rec, first_fen: str) -> str:
    def comment(i: int) -> list:
        text = rec.comments.get(i)
        return [f"{{{text}}}"] if text else []

    if rec.variant == "chess":
        import chess
        board = chess.Board(first_fen, chess960=rec.chess960)
        out = []
        for i, uci in enumerate(rec.moves):
            move = chess.Move.from_uci(uci)
            if board.turn == chess.WHITE:
                out.append(f"{board.fullmove_number}.")
            elif i == 0 or comment(i - 1):
                out.append(f"{board.fullmove_number}...")
            out.append(board.san(move))
            out += comment(i)
            board.push(move)
        return " ".join(out)
    from engine.board import Board
    board = Board(rec.variant, first_fen)
    number, white = int(first_fen.split()[-1]), board.turn == "w"
    out = [] if white else [f"{number}..."]
    for i, uci in enumerate(rec.moves):
        if white:
            out.append(f"{number}.")
        elif i and comment(i - 1):
            out.append(f"{number}...")
        out.append(uci)
        out += comment(i)
        if not white:
            number += 1
        white = not white
    return " ".join(out)


def _escape(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace('"', '\\"')


def _alea_pgn(rec, time_control: str, event: str, round_no) -> str:
    from engine.alea import AleaState
    start = AleaState.start()
    initial = AleaState.parse(rec.initial_fen or rec.start_fen or start.fen())
    plies = [m for m in rec.moves if m != "reroll"]
    tags = [("Event", event), ("Site", "local"),
            ("Date", datetime.date.today().strftime("%Y.%m.%d")), ("Round", str(round_no)),
            ("White", rec.white), ("Black", rec.black), ("Result", rec.result),
            ("Variant", VARIANT_TAG["alea"]), ("TimeControl", time_control),
            ("Termination", rec.termination or "unterminated"), ("PlyCount", str(len(plies)))]
    tags += [(k, v) for k, v in rec.tags.items()]
    chess_fen = initial.board.fen()
    if chess_fen != start.board.fen():
        tags += [("SetUp", "1"), ("FEN", chess_fen)]
    if initial.fen() != start.fen():
        tags.append(("AleaFEN", initial.fen()))
    from adapters.alea_referee import chess_moves
    tags += _opening_tags(chess_moves(rec.moves), chess_fen)
    head = "\n".join(f'[{k} "{_escape(v)}"]' for k, v in tags)
    number, white = int(chess_fen.split()[5]), chess_fen.split()[1] == "w"
    out, notes = [] if white else [f"{number}..."], []
    dice = list(rec.dice) + [None] * (len(rec.moves) - len(rec.dice))
    for token, shown in zip(rec.moves, dice):
        if shown is not None:
            notes.append(f"dice {shown}")
        if token == "reroll":
            notes.append("reroll")
            continue
        if white:
            out.append(f"{number}.")
        if notes:
            out.append("{" + "; ".join(notes) + "}")
            notes = []
        out.append(token)
        if not white:
            number += 1
        white = not white
    tail = ("{" + "; ".join(notes) + "}" if notes else "", _stderr_comment(rec), rec.result)
    body = " ".join(out + [part for part in tail if part])
    return f"{head}\n\n{body}\n"
