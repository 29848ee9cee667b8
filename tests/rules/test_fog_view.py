"""Fog of War, the view: scenario tests for engine/fog.py, each citing docs/rules/fog.md
("What each player sees", "What each player is told", "Notation of a view"), then
seeded random games checked against an independent reference written from the rules text.
view_moves (the moves a view allows) is checked against the true position's move list.

Positions are ``{square: letter}`` dicts turned into FEN by ``testkit.chess_fen``. Kings
stand in corners where their few targets do not touch the cells a test looks at.
"""
from __future__ import annotations

import random

import pytest

from engine.board import Board
from engine.fog import (View, lost_cells, parse_view_fen, view, view_board, view_fen,
                        view_moves, visible_cells)
from testkit import chess_fen

START_WHITE = "********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
START_BLACK = "rnbqkbnr/pppppppp/8/8/********/********/********/******** b KQkq - 0 1"
FILES = "abcdefgh"


def fog(placement: dict, side: str = "w", castling: str = "-", ep: str = "-") -> Board:
    return Board("fogofwar", chess_fen(placement, side, castling, ep))


def play(board: Board, moves: str) -> Board:
    for m in moves.split():
        board.push(m)
    return board


# --- notation ------------------------------------------------------------------------------

def test_start_views_exact():
    """fog.md, Notation of a view: "White's view at the start:
    ``********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1``" -- and
    Black's, seen as if Black were to move."""
    b = Board("fogofwar")
    assert view_fen(b, "w") == START_WHITE
    assert view_fen(b, "b") == START_BLACK
    assert b.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"   # untouched


def test_view_of_side_not_to_move():
    """fog.md, What each player sees, 2: the cells the own pieces can move to -- for the side
    not to move, as if it were to move. After 1.e4 White sees a6-b5-c4-d3 (bishop), h5
    (queen), e5 (push), every a4..h4 but e3, which nothing of White's can reach."""
    b = play(Board("fogofwar"), "e2e4")
    assert view_fen(b, "w") == \
        "********/********/1*******/*1**1**1/4P3/4*3/PPPP1PPP/RNBQKBNR w KQkq - 0 1"
    assert view_fen(b, "b") == START_BLACK      # Black's pawns and knights see what they did


def test_view_dataclass_fields():
    """fog.md, What each player sees: the View lists the visible cells and the pieces on
    them; its FEN is the view FEN."""
    b = Board("fogofwar")
    v = view(b, "w")
    assert isinstance(v, View) and v.side == "w" and v.fen == START_WHITE
    assert v.visible == visible_cells(b, "w")
    assert len(v.visible) == 32
    assert set(v.pieces) == {f + r for f in FILES for r in "12"}
    with pytest.raises(ValueError):
        view(b, "white")


# --- what each player sees -----------------------------------------------------------------

def test_own_pieces_always_seen():
    """fog.md, What each player sees, 1: "all own pieces" -- also one that cannot move
    (the rook boxed in on a1) and one on a cell no other own piece reaches."""
    b = fog({"a1": "R", "a2": "P", "b1": "N", "b2": "P", "h1": "K", "h8": "k", "e5": "p"})
    v = view(b, "w")
    assert not [m for m in b.legal_moves() if m.startswith("a1")]
    for cell, letter in {"a1": "R", "a2": "P", "b1": "N", "b2": "P", "h1": "K"}.items():
        assert cell in v.visible and v.pieces[cell] == letter
    assert "e5" not in v.visible and "h8" not in v.visible


@pytest.mark.parametrize("slider,origin,ray,enemy,beyond", [
    ("R", "d4", ["d5", "d6", "d7"], "d7", "d8"),
    ("B", "c1", ["d2", "e3", "f4"], "f4", "g5"),
    ("Q", "a4", ["b5", "c6", "d7"], "d7", "e8"),
])
def test_slider_ray_stops_at_first_enemy(slider, origin, ray, enemy, beyond):
    """fog.md, What each player sees, 2 and 3: "empty squares along slider rays up to and
    including the first occupied square, if that square holds an enemy piece"; the enemy
    piece there is seen, the cell behind it is not."""
    b = fog({origin: slider, enemy: "n", "h1": "K", "h8": "k"})
    v = view(b, "w")
    assert set(ray) <= v.visible
    assert v.pieces[enemy] == "n"
    assert beyond not in v.visible


def test_slider_ray_stops_before_own_piece():
    """fog.md, What each player sees, 1 and 2: a ray ends before an own piece -- that cell is
    no move target but is seen as an own piece; the cells behind it are not seen."""
    b = fog({"d4": "R", "f4": "P", "a1": "K", "h8": "k", "h4": "n"})
    v = view(b, "w")
    assert "d4f4" not in b.legal_moves()
    assert "e4" in v.visible and v.pieces["f4"] == "P"
    assert "g4" not in v.visible and "h4" not in v.visible


def test_knight_and_king_targets():
    """fog.md, What each player sees, 2: "knight and king targets that are empty or
    enemy-occupied"; an own piece on a target is seen as own, a cell next to the knight is
    not a knight target."""
    b = fog({"d4": "N", "c6": "p", "e6": "P", "g2": "K", "g3": "b", "a8": "k"})
    v = view(b, "w")
    knight = {"b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"}
    king = {"f1", "g1", "h1", "f2", "h2", "f3", "g3", "h3"}
    assert knight | king <= v.visible
    assert v.pieces["c6"] == "p" and v.pieces["g3"] == "b" and v.pieces["e6"] == "P"
    assert "d4e6" not in b.legal_moves()
    assert "d5" not in v.visible and "c4" not in v.visible


def test_pawn_forward_only_when_push_legal():
    """fog.md, pawns: "An enemy piece directly in front of a pawn stays hidden (the pawn
    cannot move there)"; an empty cell ahead is seen."""
    blocked = fog({"e4": "P", "e5": "p", "a1": "K", "h8": "k"})
    assert "e5" not in visible_cells(blocked, "w")
    assert "e5" not in view(blocked, "w").pieces
    free = fog({"e4": "P", "e6": "p", "a1": "K", "h8": "k"})
    assert "e5" in visible_cells(free, "w") and "e6" not in visible_cells(free, "w")


@pytest.mark.parametrize("placement,seen,hidden", [
    ({"e2": "P"}, {"e3", "e4"}, {"e5"}),                  # unmoved, both cells empty
    ({"e2": "P", "e4": "n"}, {"e3"}, {"e4"}),             # second cell taken: one step only
    ({"e2": "P", "e3": "n"}, set(), {"e3", "e4"}),        # first cell taken: no push at all
    ({"e3": "P"}, {"e4"}, {"e5"}),                        # moved pawn: no double step
])
def test_pawn_double_step(placement, seen, hidden):
    """fog.md, pawns: the pawn sees "one, or two when its double step is possible and both
    squares are empty"."""
    v = visible_cells(fog({**placement, "a1": "K", "h8": "k"}), "w")
    assert seen <= v and not hidden & v


def test_pawn_diagonals():
    """fog.md, pawns: a pawn sees "the diagonal squares onto which it can capture (an enemy
    piece stands there ...)"; "an empty diagonal stays hidden"; an own piece on the diagonal
    is seen only as an own piece."""
    b = fog({"e4": "P", "f5": "n", "a1": "K", "h8": "k"})
    v = view(b, "w")
    assert "d5" not in v.visible
    assert "f5" in v.visible and v.pieces["f5"] == "n"
    own = fog({"e4": "P", "d5": "N", "a1": "K", "h8": "k"})
    assert "e4d5" not in own.legal_moves() and view(own, "w").pieces["d5"] == "N"


def test_en_passant_target_and_passed_pawn_for_one_turn():
    """fog.md, pawns: "When an en passant capture is available, the en passant target square
    is visible and the enemy pawn that just passed becomes visible too, for that turn"
    (chess.com; Fairy-Stockfish's fog FEN hides that pawn, ours shows it)."""
    b = play(fog({"e5": "P", "d7": "p", "a1": "K", "h8": "k"}, side="b"), "d7d5")
    assert "e5d6" in b.legal_moves()
    v = view(b, "w")
    assert "d6" in v.visible and "d6" not in v.pieces
    assert v.pieces["d5"] == "p"
    # Black's rights: "-" on the true board, but e8/h8/a8 are fog, so White cannot rule
    # them out (view_fen's castling convention).
    assert v.fen == \
        "********/********/***2***/***pP***/********/********/2******/K1****** w kq d6 0 2"
    # Black's view at the same moment has no en passant right for anyone.
    assert view_fen(b, "b").split()[3] == "-"
    # White lets it pass: next turn both cells are fog again.
    play(b, "a1a2 h8h7")
    v = view(b, "w")
    assert "d5" not in v.visible and "d6" not in v.visible and v.fen.split()[3] == "-"


def test_en_passant_for_black():
    """fog.md, pawns (en passant), with colours swapped: Black sees e3 and the e4 pawn."""
    b = play(fog({"d4": "p", "e2": "P", "a1": "K", "h8": "k"}), "e2e4")
    v = view(b, "b")
    assert "e3" in v.visible and v.pieces["e4"] == "P" and v.fen.split()[3] == "e3"
    assert "c3" not in v.visible


def test_own_promotion_cell_seen():
    """fog.md, What each player sees, 2: a promotion is a pawn move; its cell is a target
    (here e8), the cell ahead of a blocked pawn is not (b8)."""
    b = fog({"e7": "P", "b7": "P", "b8": "n", "a1": "K", "h1": "k"})
    v = visible_cells(b, "w")
    assert "e7e8q" in b.legal_moves() and "e8" in v and "b8" not in v


@pytest.mark.parametrize("with_rook,seen", [(True, True), (False, False)])
def test_enemy_promotion_seen_only_if_cell_visible(with_rook, seen):
    """fog.md, pawns: "A promotion is seen only if the promotion square is visible."
    Black promotes on b1; White sees the new queen only where the rook on d1 looks."""
    placement = {"b2": "p", "h1": "K", "h8": "k"}
    if with_rook:
        placement["d1"] = "R"
    b = play(fog(placement, side="b"), "b2b1q")
    v = view(b, "w")
    assert ("b1" in v.visible) is seen
    assert (v.pieces.get("b1") == "q") is seen
    assert ("q" in v.fen.split()[0]) is seen


def test_castling_target_visible_when_castling_possible():
    """fog.md, What each player sees, 2: "castling targets when castling is possible"; not
    when a square between king and rook is occupied (b1 blocks O-O-O, so c1, which only
    castling and the rook's ray reach, is fog). In standard chess the rook's ray always
    sees the castling cells too, so the clause adds no cell on its own."""
    free = fog({"e1": "K", "a1": "R", "h8": "k"}, castling="Q")
    assert "e1c1" in free.legal_moves() and "c1" in visible_cells(free, "w")
    blocked = fog({"e1": "K", "a1": "R", "b1": "N", "h8": "k"}, castling="Q")
    assert "e1c1" not in blocked.legal_moves() and "c1" not in visible_cells(blocked, "w")


def test_castling_through_attack_still_seen():
    """fog.md, Moves: "The king MAY castle out of, through or into attacked squares" -- so
    the castling target stays visible with the king attacked and f1 and g1 attacked."""
    b = fog({"e1": "K", "h1": "R", "e8": "r", "f8": "r", "g8": "r", "a8": "k"}, castling="K")
    assert "e1g1" in b.legal_moves()
    assert {"f1", "g1"} <= visible_cells(b, "w")
    # White's own right K; Black's k is ruled out by the empty h8 the rook sees, q is not.
    assert view_fen(b, "w").split()[2] == "Kq"


def test_attacked_king_not_announced():
    """fog.md, pawns: "A king left attacked is not announced: nothing tells a player that
    their king can be captured." The view with a hidden rook attacking the king equals the
    view without it."""
    attacked = fog({"e1": "K", "e8": "r", "a8": "k", "h2": "P"})
    quiet = fog({"e1": "K", "a8": "k", "h2": "P"})
    assert "e8e1" in Board("fogofwar", attacked.fen().replace(" w ", " b ")).legal_moves()
    assert view(attacked, "w") == view(quiet, "w")


def test_everything_else_is_fog():
    """fog.md, What each player sees: "Everything else is fog" -- fogged cells are ``*``
    whether they are empty or not, and no enemy piece on them shows."""
    b = fog({"a1": "K", "h8": "k", "h7": "q", "c5": "n"})
    v = view(b, "w")
    assert v.visible == {"a1", "a2", "b1", "b2"}
    assert v.fen.split()[0] == "********/" * 6 + "2******/K1******"


# --- what each player is told --------------------------------------------------------------

def test_lost_piece_on_fogged_cell_is_marked():
    """fog.md, What each player is told: "If the opponent's move captured one of the
    player's pieces on a square the player can no longer see, that square is marked"."""
    before = fog({"a5": "P", "h1": "K", "b7": "n", "h8": "k"}, side="b")
    after = play(before.copy(), "b7a5")
    assert lost_cells(before, after, "w") == {"a5"}
    assert "a5" not in visible_cells(after, "w")


def test_lost_piece_on_visible_cell_not_marked():
    """fog.md, What each player is told: only losses on cells the player can no longer see
    are marked; where the player still sees the cell, the view shows the capturer there."""
    before = fog({"a5": "P", "a1": "R", "h1": "K", "b7": "n", "h8": "k"}, side="b")
    after = play(before.copy(), "b7a5")
    assert lost_cells(before, after, "w") == frozenset()
    assert view(after, "w").pieces["a5"] == "n"


def test_lost_to_en_passant_and_quiet_moves():
    """fog.md, What each player is told: a pawn taken en passant vanishes from a cell the
    capturer never stands on; a move that takes nothing marks nothing."""
    b = play(fog({"d4": "p", "e2": "P", "a1": "K", "h8": "k"}), "e2e4")
    after = play(b.copy(), "d4e3")
    assert lost_cells(b, after, "w") == {"e4"}
    quiet = play(b.copy(), "h8h7")
    assert lost_cells(b, quiet, "w") == frozenset()


def test_no_view_after_king_capture():
    """fog.md, Moves: "The game ends at once when a king is captured", and afterwards "the
    whole game with all moves is revealed": no side has a view or lost cells then."""
    before = fog({"a1": "K", "h2": "P", "h8": "q", "g8": "k"}, side="b")
    after = play(before.copy(), "h8a1")
    assert after.outcome().termination == "king captured"
    for call in (lambda: visible_cells(after, "w"), lambda: view(after, "b"),
                 lambda: lost_cells(before, after, "w")):
        with pytest.raises(ValueError, match="king was captured"):
            call()


def test_lost_cells_checks_turns():
    """lost_cells takes the boards around one opponent move: swapped arguments fail loudly."""
    before = fog({"a5": "P", "h1": "K", "b7": "n", "h8": "k"}, side="b")
    after = play(before.copy(), "b7a5")
    with pytest.raises(ValueError):
        lost_cells(before, after, "b")
    with pytest.raises(ValueError):
        lost_cells(after, before, "w")


def test_view_halfmove_field_is_always_zero():
    """docs/protocol.md, position fog: "the halfmove field is always 0" -- the true clock
    would tell whether the hidden opponent move was a pawn move or a capture."""
    b = play(fog({"a1": "K", "h8": "k", "d4": "N", "e5": "n"}), "d4f3 e5c6 f3d4")
    assert b.halfmove_clock == 3
    for side in "wb":
        assert view_fen(b, side).split()[4:] == ["0", "2"]


# --- reading a view back -------------------------------------------------------------------

def test_parse_view_fen_accepts_any_halfmove_number():
    """The halfmove field carries nothing in a view; a reader takes any number there."""
    text = START_WHITE.replace(" 0 1", " 37 1")
    assert parse_view_fen(text).fen == text
    assert parse_view_fen(text).pieces == parse_view_fen(START_WHITE).pieces


def test_round_trip_start_and_en_passant():
    """fog.md, Notation of a view: the engine receives the view FEN; reading it back gives
    the same View."""
    for b in (Board("fogofwar"),
              play(fog({"e5": "P", "d7": "p", "a1": "K", "h8": "k"}, side="b"), "d7d5")):
        for side in "wb":
            v = view(b, side)
            assert parse_view_fen(v.fen) == v


@pytest.mark.parametrize("text,message", [
    ("", "fields"),
    (START_WHITE + " 7", "fields"),
    ("********/********/********/********/8/8/PPPPPPPP w KQkq - 0 1", "rows"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBNR* w KQkq - 0 1", "cells"),
    ("********/********/********/********/8/7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "cells"),
    ("********/********/********/********/8/08/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "empty count"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unknown piece"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkX - 0 1", "castling"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "castling"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "en passant"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 100001", "range"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1", "range"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 " + "9" * 5000,
     "too long"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1", "own king"),
    ("********/********/********/********/8/8/PPPPPPPP/RNBKKBNR w - - 0 1", "own king"),
    ("k*******/k*******/********/********/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "enemy king"),
    ("P*******/********/********/********/8/8/1PPPPPPP/RNBQKBNR w KQ - 0 1", "promotion"),
])
def test_bad_view_fens_rejected(text, message):
    """A view FEN that could not come from view_fen is refused with a ValueError that names
    the fault (the engine side parses what the arbiter sends)."""
    with pytest.raises(ValueError, match=message):
        parse_view_fen(text)


def test_parse_view_fen_rejects_non_strings():
    with pytest.raises(ValueError):
        parse_view_fen(None)


# --- random games against a reference written from the rules text ---------------------------

GAMES = 12
PLIES = 60


def reference_visible(fen: str, side: str) -> set[str]:
    """fog.md, What each player sees, implemented again from the text on a plain dict board,
    sharing no code with engine/ (sunfish's twin discipline)."""
    placement, turn, castling, ep = fen.split()[:4]
    board = {}
    for y, row in zip(range(7, -1, -1), placement.split("/")):
        x = 0
        for ch in row:
            if ch.isdigit():
                x += int(ch)
            else:
                board[(x, y)] = ch
                x += 1

    def name(x, y):
        return f"{FILES[x]}{y + 1}"

    def on(x, y):
        return 0 <= x < 8 and 0 <= y < 8

    def mine(letter):
        return letter.isupper() == (side == "w")

    seen = {name(x, y) for (x, y), p in board.items() if mine(p)}
    for (x, y), p in list(board.items()):
        if not mine(p):
            continue
        kind = p.lower()
        rays = {"r": [(1, 0), (-1, 0), (0, 1), (0, -1)],
                "b": [(1, 1), (1, -1), (-1, 1), (-1, -1)]}
        rays["q"] = rays["r"] + rays["b"]
        if kind in rays:
            for dx, dy in rays[kind]:
                cx, cy = x + dx, y + dy
                while on(cx, cy):
                    q = board.get((cx, cy))
                    if q is None or not mine(q):
                        seen.add(name(cx, cy))
                    if q is not None:
                        break
                    cx, cy = cx + dx, cy + dy
        steps = {"n": [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)],
                 "k": [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]}
        for dx, dy in steps.get(kind, []):
            q = board.get((x + dx, y + dy), "")
            if on(x + dx, y + dy) and not (q and mine(q)):
                seen.add(name(x + dx, y + dy))
        if kind == "p":
            d = 1 if side == "w" else -1
            if on(x, y + d) and (x, y + d) not in board:
                seen.add(name(x, y + d))
                if y == (1 if side == "w" else 6) and (x, y + 2 * d) not in board:
                    seen.add(name(x, y + 2 * d))
            for dx in (-1, 1):
                if not on(x + dx, y + d):
                    continue
                q = board.get((x + dx, y + d))
                if q is not None and not mine(q):
                    seen.add(name(x + dx, y + d))
                if q is None and turn == side and ep == name(x + dx, y + d):
                    seen |= {ep, name(x + dx, y)}      # the target and the pawn that passed
    rank = "1" if side == "w" else "8"
    for letter, between, target in (("K", "fg", "g"), ("Q", "bcd", "c")):
        letter = letter if side == "w" else letter.lower()
        empty = all((FILES.index(f), int(rank) - 1) not in board for f in between)
        if letter in castling and empty:
            seen.add(target + rank)
    return seen


def random_positions(seed: str):
    """Boards from seeded random fog games (pseudo-legal moves, stopping at a king capture);
    pawn moves and captures are favoured so en passant and promotions happen."""
    rng = random.Random(seed)
    for _ in range(GAMES):
        b = Board("fogofwar")
        for _ in range(PLIES):
            yield b
            moves = b.legal_moves()
            if not moves or b.outcome() is not None:      # the last position is yielded too
                break
            ep = b.fen().split()[3]
            special = [m for m in moves if m[2:4] == ep or len(m) == 5]
            pawnish = [m for m in moves if b.piece_at(m[:2]) in "Pp" or b.piece_at(m[2:4])]
            pick = special if special and rng.random() < 0.5 else (
                pawnish if pawnish and rng.random() < 0.6 else moves)
            b.push(rng.choice(pick))


def expand(view_text: str) -> dict[str, str]:
    """``{cell: letter or '*' or ''}`` read from a view FEN without engine code."""
    out = {}
    for y, row in zip(range(8, 0, -1), view_text.split()[0].split("/")):
        x = 0
        for ch in row:
            if ch.isdigit():
                for _ in range(int(ch)):
                    out[f"{FILES[x]}{y}"] = ""
                    x += 1
            else:
                out[f"{FILES[x]}{y}"] = ch
                x += 1
    return out


def test_random_games_match_reference_and_invariants():
    """fog.md, What each player sees, over ~600 positions of random fog games, both sides:
    the view equals the reference; every target of every pseudo-legal move is visible; the
    view holds all own pieces and exactly the enemy pieces on visible cells; the view FEN
    shows exactly those, ``*`` elsewhere, and reads back to the same View."""
    counts = {"positions": 0, "ep": 0, "castle": 0, "promotion": 0, "king captured": 0}
    for b in random_positions("fog-view"):
        fen = b.fen()
        counts["positions"] += 1
        counts["ep"] += fen.split()[3] != "-"
        counts["castle"] += any(m in ("e1g1", "e1c1", "e8g8", "e8c8") and b.piece_at(m[:2]) in "Kk"
                                for m in b.legal_moves())
        counts["promotion"] += any(len(m) == 5 for m in b.legal_moves())
        true = {n: b.piece_at(n) for n in (f + r for f in FILES for r in "12345678")}
        if b.outcome() is not None and b.outcome().termination == "king captured":
            counts["king captured"] += 1
            for side in "wb":
                with pytest.raises(ValueError):           # no view after the end
                    view(b, side)
            continue
        for side in "wb":
            v = view(b, side)
            # the side not to move is judged as if it were to move, without an e.p. right
            fields = fen.split()
            as_mover = fen if b.turn == side else " ".join(fields[:1] + [side] + fields[2:3]
                                                            + ["-"] + fields[4:])
            assert v.visible == reference_visible(as_mover, side), (fen, side)
            mover = Board("fogofwar", as_mover)
            assert {m[2:4] for m in mover.legal_moves()} <= v.visible, (fen, side)
            shown = expand(v.fen)
            for cell, letter in true.items():
                own = letter is not None and letter.isupper() == (side == "w")
                if own:
                    assert v.pieces[cell] == letter and shown[cell] == letter
                elif cell in v.visible:
                    assert v.pieces.get(cell) == letter and shown[cell] == (letter or "")
                else:
                    assert cell not in v.pieces and shown[cell] == "*", (fen, side, cell)
            assert parse_view_fen(v.fen) == v
    # the walk must really have met the special rules, or the test proves little
    assert counts["positions"] >= 300 and min(counts.values()) >= 3, counts


def test_random_games_lost_cells():
    """fog.md, What each player is told, over the same kind of random games: a marked cell
    held the player's piece before the opponent's move, does not now, and is fog; every
    other lost piece's cell is still visible."""
    marked = 0
    for b in random_positions("fog-lost"):
        if not b.move_stack:
            continue
        before = b.copy()
        before.pop()
        side = b.turn
        if b.outcome() is not None and b.outcome().termination == "king captured":
            continue                                      # no view after the end
        lost = lost_cells(before, b, side)
        visible = visible_cells(b, side)
        for cell in (f + r for f in FILES for r in "12345678"):
            had = before.piece_at(cell)
            now = b.piece_at(cell)
            taken = had is not None and had.isupper() == (side == "w") and \
                (now is None or now.isupper() != (side == "w"))
            assert (cell in lost) == (taken and cell not in visible), (b.fen(), cell)
        marked += len(lost)
    assert marked >= 5


# --- the moves a view allows -----------------------------------------------------------------

def test_view_moves_hidden_blocker_stops_the_double_step():
    """fog.md, pawns: "An enemy piece directly in front of a pawn stays hidden" -- the view
    shows e3 as fog and e4 (a knight target) as empty, yet the pawn can go to neither."""
    b = fog({"e2": "P", "g3": "N", "a1": "K", "e3": "n", "h8": "k"})
    v = view(b, "w")
    assert "e3" not in v.visible and "e4" in v.visible and "e4" not in v.pieces
    assert "e2e4" in view_board(v).legal_moves()         # the fog-as-empty board allows it
    assert "e2e4" not in view_moves(v) and "e2e3" not in view_moves(v)
    assert sorted(view_moves(v)) == sorted(b.legal_moves())


def test_view_moves_en_passant_and_castling():
    """The en passant capture and castling are moves the view shows."""
    b = play(fog({"e5": "P", "d7": "p", "a1": "K", "h8": "k"}, side="b"), "d7d5")
    assert "e5d6" in view_moves(view(b, "w"))
    castle = fog({"e1": "K", "h1": "R", "a1": "R", "e8": "k"}, castling="KQ")
    assert {"e1g1", "e1c1"} <= set(view_moves(view_fen(castle, "w")))


def test_view_board_puts_the_hidden_enemy_king_on_fog():
    """The board needs both kings: a hidden enemy king goes to a fogged cell, the hinted
    one first, else its start cell, and never onto a visible cell."""
    v = view(Board("fogofwar"), "w")
    assert view_board(v).piece_at("e8") == "k"
    assert view_board(v, king_cells=("a1", "c6")).piece_at("c6") == "k"   # a1 is visible
    assert view_board(v).fen() == "4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"


def test_random_games_view_moves_are_the_true_moves():
    """Over random fog games: the moves the side to move's view allows are exactly the
    true position's pseudo-legal moves (what the arbiter accepts)."""
    checked = 0
    for b in random_positions("fog-moves"):
        if b.outcome() is not None:
            continue
        v = view(b, b.turn)
        assert sorted(view_moves(v)) == sorted(b.legal_moves()), b.fen()
        assert sorted(view_moves(v.fen)) == sorted(b.legal_moves())
        checked += 1
    assert checked >= 300
