"""Zobrist keys, make/unmake and FEN round trips along seeded random walks, all variants.

Properties (style.md, "Tests layout", tests/property/):
* the incremental key equals the key computed from scratch after every push and pop;
* pop() restores the FEN and the key exactly;
* FEN round-trips: Board(v, b.fen()).fen() == b.fen(), and that board has the same key;
* transpositions (the same position by different move orders) have the same key.
"""
from __future__ import annotations

import random

import pytest

from engine.board import Board
from engine.notation import move_cells
from testkit import PERFT_FILES, read_tsv, refdata

VARIANTS = ["chess", "grand", "hexagonal"]
WALKS = 12          # per variant and start position group
PLIES = 70


def _start_fens(variant: str) -> list[str]:
    """The start position plus every reference perft position (promotions, en passant,
    castling and near-mates are in there), so short walks reach odd corners quickly."""
    fens = [Board(variant).fen()]
    for r in read_tsv(refdata(PERFT_FILES[variant])):
        if r["fen"] not in fens:
            fens.append(r["fen"])
    return fens


def _pick(rng: random.Random, board: Board, moves: list[str]) -> str:
    """A random move, biased towards en passant, captures and promotions (in that order)
    to reach unusual positions."""
    ep = _ep_cell(board)
    en_passant = [m for m in moves if move_cells(m)[1] == ep and board.piece_at(move_cells(m)[0]) in "Pp"]
    if en_passant and rng.random() < 0.8:
        return rng.choice(en_passant)
    if rng.random() < 0.5:
        special = [m for m in moves if m[-1].isalpha() or _is_capture(board, m)]
        if special:
            return rng.choice(special)
    return rng.choice(moves)


def _ep_cell(board: Board) -> str:
    fields = board.fen().split()
    return fields[3] if board.variant.spec.fen_castling_field else fields[2]


def _is_capture(board: Board, uci: str) -> bool:
    return board.piece_at(move_cells(uci)[1]) is not None


def _check(board: Board) -> None:
    assert board.key == board.compute_key(), board.fen()
    fen = board.fen()
    again = Board(board.variant.name, fen)
    assert again.fen() == fen
    assert again.key == board.key, fen


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_walks(variant):
    rng = random.Random(f"zobrist-{variant}")
    fens = _start_fens(variant)
    plies = 0
    for walk in range(WALKS * 2):
        board = Board(variant, fens[walk % len(fens)])
        _check(board)
        trail = [(board.fen(), board.key)]
        for _ in range(PLIES):
            moves = board.legal_moves()
            if not moves:
                break
            if len(trail) > 1 and rng.random() < 0.15:
                board.pop()
                trail.pop()
                assert (board.fen(), board.key) == trail[-1]
                _check(board)
                continue
            board.push(_pick(rng, board, moves))
            plies += 1
            trail.append((board.fen(), board.key))
            _check(board)
        # unwind the whole walk: every position comes back exactly
        while len(trail) > 1:
            board.pop()
            trail.pop()
            assert (board.fen(), board.key) == trail[-1]
            assert board.key == board.compute_key()
    assert plies > WALKS * PLIES // 2


TRANSPOSITIONS = {
    "chess": ("g1f3 g8f6 b1c3 b8c6", "b1c3 b8c6 g1f3 g8f6"),
    "grand": ("b2c4 b9c7 i2h4 i9h7", "i2h4 i9h7 b2c4 b9c7"),
    "hexagonal": ("d1c3 d9c6 h1i3 h9i6", "h1i3 h9i6 d1c3 d9c6"),
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_transposition_same_key(variant):
    a, b = Board(variant), Board(variant)
    for m in TRANSPOSITIONS[variant][0].split():
        a.push(m)
    for m in TRANSPOSITIONS[variant][1].split():
        b.push(m)
    assert a.fen() == b.fen()
    assert a.key == b.key == a.compute_key()
    assert a.key != Board(variant).key


@pytest.mark.parametrize("variant,moves", [
    ("chess", "e2e4 g8f6 e4e5 d7d5"),        # exd6 e.p. possible
    ("grand", "e3e5 a8a7 e5e6 d8d6"),        # exd7 e.p. possible
    ("hexagonal", "f5f6 e7e5"),              # f6xe6 e.p. possible
])
def test_en_passant_is_part_of_the_key(variant, moves):
    """A position with an en passant capture available differs from the same placement
    without it (FIDE: the possible moves differ), and the ep cell goes in the FEN."""
    board = Board(variant)
    for m in moves.split():
        board.push(m)
    fen = board.fen()
    fields = fen.split()
    ep_index = 3 if board.variant.spec.fen_castling_field else 2
    assert fields[ep_index] != "-"
    fields[ep_index] = "-"
    without = Board(variant, " ".join(fields))
    assert without.key != board.key
    assert without.key == without.compute_key()
    # and the ep field survives a round trip
    assert Board(variant, fen).key == board.key


def test_ep_cell_not_capturable_is_dropped():
    """An en passant cell no enemy pawn could capture on is not shown and not hashed."""
    b = Board("chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert b.fen().split()[3] == "-"
    assert b.key == Board("chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").key


def test_castling_rights_are_part_of_the_key():
    with_rights = Board("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    keys = {with_rights.key}
    for rights in ("KQk", "KQ", "K", "-", "Qkq", "q"):
        b = Board("chess", f"r3k2r/8/8/8/8/8/8/R3K2R w {rights} - 0 1")
        assert b.key == b.compute_key()
        keys.add(b.key)
    assert len(keys) == 7


@pytest.mark.parametrize("variant", VARIANTS)
def test_side_to_move_is_part_of_the_key(variant):
    fields = Board(variant).fen().split()
    fields[1] = "b"
    assert Board(variant, " ".join(fields)).key != Board(variant).key


@pytest.mark.parametrize("variant", VARIANTS)
def test_copy_is_independent(variant):
    board = Board(variant)
    rng = random.Random(variant)
    for _ in range(10):
        board.push(rng.choice(board.legal_moves()))
    twin = board.copy()
    assert (twin.fen(), twin.key, twin.move_stack) == (board.fen(), board.key, board.move_stack)
    twin.push(twin.legal_moves()[0])
    assert twin.fen() != board.fen()
    twin.pop()
    assert twin.fen() == board.fen()
    for _ in range(10):
        board.pop()
        twin.pop()
        assert (twin.fen(), twin.key) == (board.fen(), board.key)
    assert board.fen() == Board(variant).fen()


BAD_FENS = {
    "chess": ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",             # 7 rows
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",      # short row
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",     # side
              "rnbqkbnr/ppppppzp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",     # piece letter
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w KQkq - 0 1",     # no white king
              "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1",     # pawn on rank 8
              "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",                               # side not to move in check
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1",    # en passant cell
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",     # counter
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x"],  # extra field
    "grand": ["r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1 w - - 0 1",
              "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R9R w - - 0 1",
              "P8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPP1/1NBQKCABN1/R8R w - - 0 1"],
    "hexagonal": ["b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2 w - 0 1",
                  "b/qbk/n1b1n/r5r/ppppppppp/12/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - 0 1",
                  "P/qbk/n1b1n/r5r/ppppppppp/11/11/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - 0 1",
                  "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w e6 0 1",
                  "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w j5 0 1"],
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_set_fen_error_keeps_the_position(variant):
    """set_fen raises ValueError on a malformed or impossible FEN (wrong rows, letters,
    fields, king count, a pawn on its mandatory promotion cell, the side not to move in
    check, an en passant cell with no double-stepped pawn, j5 in hex) and keeps the old
    position, its key and its history."""
    board = Board(variant)
    board.push(board.legal_moves()[0])
    before = (board.fen(), board.key, board.move_stack)
    for fen in BAD_FENS[variant]:
        with pytest.raises(ValueError):
            Board(variant, fen)
        with pytest.raises(ValueError):
            board.set_fen(fen)
        assert (board.fen(), board.key, board.move_stack) == before
    board.pop()
    assert board.fen() == Board(variant).fen()


@pytest.mark.parametrize("variant,cycle", [
    ("chess", "g1f3 g8f6 f3g1 f6g8"),
    ("hexagonal", "d1c3 d9c6 c3d1 c6d9"),
])
def test_long_game_keeps_keys_and_repetitions(variant, cycle):
    """Games longer than the undo buffer (4096 plies) stay consistent: the history is
    compacted, keys stay right, repetitions are still seen, recent moves still pop."""
    board = Board(variant)
    start = (board.fen().split()[0], board.key)
    moves = cycle.split()
    for i in range(5000):
        board.push(moves[i % 4])
        if i % 500 == 0:
            assert board.key == board.compute_key()
    assert board.key == board.compute_key() == start[1]
    assert board.fen().split()[0] == start[0]
    assert board.repetitions() >= 2
    assert board.halfmove_clock == 5000
    assert board.outcome().termination == "fifty-move rule"     # checked before repetition
    for _ in range(400):
        board.pop()
        assert board.key == board.compute_key()
    assert board.fen().split()[0] == start[0] and board.key == start[1]
