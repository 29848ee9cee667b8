"""Standard chess against python-chess (docs/rules/standard.md: "python-chess implements the same
rules and is the reference for tests"), on seeded random games and random endgames.

Compared at every position:
* the legal move set, as UCI strings (python-chess writes castling e1g1 in standard mode);
* ``is_check``;
* the FEN. Our contract (Board.fen) shows the en passant cell only when a legal en passant
  capture exists (FIDE 9.2.3: only then do positions differ). That is python-chess's default
  ``en_passant="legal"``, not ``"xfen"`` (pins ignored) nor ``"fen"`` (always after a double
  step);
* the outcome, decided from python-chess's predicates in our documented order (Board.outcome:
  no legal move -> checkmate or stalemate, then the fifty-move rule at 100 plies, then
  threefold repetition, then insufficient material), with insufficient material taken from
  a local re-statement of docs/rules/standard.md (``dead_material`` below), which python-chess's
  ``is_insufficient_material`` must agree with as well on every position we reach.
"""
from __future__ import annotations

import random

import chess
import pytest

from engine.board import Board

GAMES = 60
PLIES = 80
ENDGAMES = 150
ENDGAME_PLIES = 24


def dead_material(pcb: chess.Board) -> bool:
    """docs/rules/standard.md: K v K, K+B v K, K+N v K, and K+B v K+B with the bishops on the same
    colour. Generalised as our variant file states it (end.insufficient = lone_minor,
    same_colour_bishops): one minor piece in all, or only bishops, all on one colour --
    any number of same-coloured bishops can never mate, a dead position under FIDE too."""
    others = [(p.piece_type, sq) for sq, p in pcb.piece_map().items()
              if p.piece_type != chess.KING]
    if not others:
        return True
    if len(others) == 1 and others[0][0] in (chess.KNIGHT, chess.BISHOP):
        return True
    if all(t == chess.BISHOP for t, _ in others):
        colours = {(chess.square_file(sq) + chess.square_rank(sq)) % 2 for _, sq in others}
        return len(colours) == 1
    return False


def expected_outcome(pcb: chess.Board):
    """(white score, termination) by our rules, from python-chess's predicates."""
    if pcb.is_checkmate():
        return (0.0 if pcb.turn == chess.WHITE else 1.0, "checkmate")
    if pcb.is_stalemate():
        return (0.5, "stalemate")
    if pcb.halfmove_clock >= 100:
        return (0.5, "fifty-move rule")
    if pcb.is_repetition(3):
        return (0.5, "threefold repetition")
    if dead_material(pcb):
        return (0.5, "insufficient material")
    return None


def compare(ours: Board, pcb: chess.Board) -> None:
    where = pcb.fen()
    assert set(ours.legal_moves()) == {m.uci() for m in pcb.legal_moves}, where
    assert len(ours.legal_moves()) == pcb.legal_moves.count(), where
    assert ours.is_check() == pcb.is_check(), where
    assert ours.fen() == pcb.fen(), where
    assert ours.turn == ("w" if pcb.turn == chess.WHITE else "b")
    assert ours.halfmove_clock == pcb.halfmove_clock
    assert dead_material(pcb) == pcb.is_insufficient_material(), where
    got = ours.outcome()
    want = expected_outcome(pcb)
    if want is None:
        assert got is None, (where, got)
    else:
        assert got is not None, (where, want)
        assert (got.white_score, got.termination) == want, where


def pick(rng: random.Random, pcb: chess.Board) -> chess.Move:
    """A random legal move, biased towards promotions, en passant and captures."""
    moves = list(pcb.legal_moves)
    r = rng.random()
    special = [m for m in moves if m.promotion or pcb.is_en_passant(m)]
    if special and r < 0.6:
        return rng.choice(special)
    captures = [m for m in moves if pcb.is_capture(m)]
    if captures and r < 0.5:
        return rng.choice(captures)
    castles = [m for m in moves if pcb.is_castling(m)]
    if castles and r < 0.7:
        return rng.choice(castles)
    return rng.choice(moves)


def play(rng, ours: Board, pcb: chess.Board, plies: int) -> int:
    """Play up to ``plies`` random moves on both boards, comparing after each; undo a few
    moves now and then to check pop() against python-chess too. Returns positions seen."""
    seen = 1
    compare(ours, pcb)
    for _ in range(plies):
        if not any(True for _ in pcb.legal_moves):
            break
        if ours.move_stack and rng.random() < 0.05:
            assert ours.pop() == pcb.pop().uci()
            compare(ours, pcb)
            continue
        move = pick(rng, pcb)
        ours.push(move.uci())
        pcb.push(move)
        seen += 1
        compare(ours, pcb)
    return seen


def test_random_games():
    rng = random.Random(20240611)
    seen = 0
    for _ in range(GAMES):
        seen += play(rng, Board("chess"), chess.Board(), PLIES)
    assert seen > GAMES * PLIES // 2


def random_endgame(rng: random.Random) -> str | None:
    """A random sparse position with castling rights, pawns about to promote and, often,
    an en passant chance for the side to move. None when python-chess calls it invalid."""
    pcb = chess.Board(None)
    turn = rng.choice([chess.WHITE, chess.BLACK])
    rights = []
    if rng.random() < 0.5:                      # White may castle
        pcb.set_piece_at(chess.E1, chess.Piece(chess.KING, chess.WHITE))
        for sq, letter in ((chess.H1, "K"), (chess.A1, "Q")):
            if rng.random() < 0.7:
                pcb.set_piece_at(sq, chess.Piece(chess.ROOK, chess.WHITE))
                rights.append(letter)
    if rng.random() < 0.5:                      # Black may castle
        pcb.set_piece_at(chess.E8, chess.Piece(chess.KING, chess.BLACK))
        for sq, letter in ((chess.H8, "k"), (chess.A8, "q")):
            if rng.random() < 0.7:
                pcb.set_piece_at(sq, chess.Piece(chess.ROOK, chess.BLACK))
                rights.append(letter)
    ep = None
    if rng.random() < 0.6:                      # the opponent just double-stepped
        f = rng.randrange(8)
        if turn == chess.WHITE:                 # Black played f7-f5
            victim, ep, mine_rank = chess.square(f, 4), chess.square(f, 5), 4
            origin = chess.square(f, 6)
        else:                                   # White played f2-f4
            victim, ep, mine_rank = chess.square(f, 3), chess.square(f, 2), 3
            origin = chess.square(f, 1)
        if pcb.piece_at(victim) or pcb.piece_at(ep) or pcb.piece_at(origin):
            ep = None
        else:
            pcb.set_piece_at(victim, chess.Piece(chess.PAWN, not turn))
            for df in rng.sample([-1, 1], rng.randint(1, 2)):
                if 0 <= f + df < 8 and not pcb.piece_at(chess.square(f + df, mine_rank)):
                    pcb.set_piece_at(chess.square(f + df, mine_rank), chess.Piece(chess.PAWN, turn))
    for colour in (chess.WHITE, chess.BLACK):   # kings if not placed yet
        if pcb.king(colour) is None:
            empty = [sq for sq in chess.SQUARES if not pcb.piece_at(sq)]
            pcb.set_piece_at(rng.choice(empty), chess.Piece(chess.KING, colour))
    extra = rng.randint(0, 5)
    for _ in range(extra):
        colour = rng.choice([chess.WHITE, chess.BLACK])
        kind = rng.choice([chess.PAWN, chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK,
                           chess.QUEEN])
        if kind == chess.PAWN:                  # near promotion, either side
            rank = rng.choice([6, 5, 1] if colour == chess.WHITE else [1, 2, 6])
            sq = chess.square(rng.randrange(8), rank)
        else:
            sq = rng.randrange(64)
        if not pcb.piece_at(sq):
            pcb.set_piece_at(sq, chess.Piece(kind, colour))
    pcb.turn = turn
    castling = "".join(r for r in "KQkq" if r in rights) or "-"
    fen = pcb.board_fen() + (" w " if turn else " b ") + castling + " " + \
        (chess.square_name(ep) if ep is not None else "-") + f" {rng.randint(0, 40)} {rng.randint(1, 60)}"
    check = chess.Board(fen)
    return fen if check.is_valid() else None


def test_random_endgames():
    rng = random.Random(7)
    tried = played = seen = 0
    with_ep = with_castling = 0
    while played < ENDGAMES:
        tried += 1
        assert tried < ENDGAMES * 50, "random position generator finds too few valid positions"
        fen = random_endgame(rng)
        if fen is None:
            continue
        pcb = chess.Board(fen)
        ours = Board("chess", fen)
        with_ep += pcb.has_pseudo_legal_en_passant()
        with_castling += bool(pcb.castling_rights)
        played += 1
        seen += play(rng, ours, pcb, ENDGAME_PLIES)
    # the generator really produced what it is for
    assert with_ep >= ENDGAMES // 5
    assert with_castling >= ENDGAMES // 5


@pytest.mark.parametrize("fen", [
    # en passant capture possible but illegal (pinned along the rank): neither the cell
    # is written nor the capture generated
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
    # en passant capture that is the only way out of check from the double-stepped pawn
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    # both neighbours can take en passant
    "4k3/8/8/3PpP2/8/8/8/4K3 w - e6 0 2",
    # castling both ways, rook attacked on b1 (allowed), f8 attacked (black O-O refused)
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "1r2k2r/8/8/8/8/8/8/R3K1R1 b kq - 0 1",
    # promotions with capture, under-promotion, and a checking promotion
    "1n2k3/P7/8/8/8/8/6p1/4K2R b K - 0 1",
    # Kiwipete-style crowded position
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
])
def test_selected_positions(fen):
    ours, pcb = Board("chess", fen), chess.Board(fen)
    compare(ours, pcb)
    for move in list(pcb.legal_moves):       # one ply deeper, every branch
        ours.push(move.uci())
        pcb.push(move)
        compare(ours, pcb)
        ours.pop()
        pcb.pop()
        compare(ours, pcb)


@pytest.mark.parametrize("fen", [
    "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",         # a padded count
    "rnbqkbnr/pppppppp/8/8/8/8/PPPP0003/RNBQKBNR w KQkq - 0 1",          # zeros before 3
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0R w KQkq - 0 1",         # a count of 0
])
def test_fens_python_chess_refuses_are_refused(fen):
    """Empty counts are written without leading zeros: python-chess refuses these rows,
    and so do we, rather than reading the position it would not."""
    with pytest.raises(ValueError):
        chess.Board(fen)
    with pytest.raises(ValueError, match="must not start with 0"):
        Board("chess", fen)
