"""Dense positions: the most pieces each variant's FEN allows, and the most moves, found by
a seeded search rather than typed by hand.

The move generator writes into fixed C buffers of ``MAX_MOVES`` (engine/types.pxd); a
variant compiles only when its proven bound (engine/variant.py, ``move_bound``) fits
them. These tests look for positions with as many moves as a seeded simulated annealing
over the side to move's pieces can find, and for positions packed with 32 pieces a side, then check that they load, that their moves
stay within the bound, that perft, the search (SEE exchanges on crowded cells
included) and the UCI process all handle them, and, in chess, that the moves equal
python-chess's. A hexagonal position of 28 queens once had more than 512 moves and
crashed the process; the search must find such positions again (so these tests would
catch it), and the debug build (tests/build/test_debug_build.py) runs them with
AddressSanitizer, which reports any write past a buffer.
"""
from __future__ import annotations

import math
import random
import sys
from functools import lru_cache

import chess
import pytest

from adapters.uci_engine import UciEngine
from engine.board import Board
from engine.deepening import GoLimits
from engine.engine import Engine
from engine.tables import LIMITS
from engine.variant import load_variant, variant_names
from testkit import placement_fen

VARIANTS = variant_names()
OLD_MAX_MOVES = 512             # the buffer size before the bound was proven
CLIMB_STEPS = 8000


def fen_of(variant: str, placement: dict, side: str = "w") -> str:
    v = load_variant(variant)
    castling = " -" if v.spec.fen_castling_field else ""
    return f"{placement_fen(v.geometry, placement)} {side}{castling} - 0 1"


def board_or_none(variant: str, placement: dict) -> Board | None:
    """The position, or None when its FEN is refused (a pawn on its last rank, the side
    not to move in check, ...)."""
    try:
        return Board(variant, fen_of(variant, placement))
    except ValueError:
        return None


def kings(variant: str, rng: random.Random) -> dict:
    """Both kings on random cells, apart."""
    v = load_variant(variant)
    king = v.letters[v.royal_type]
    names = list(v.geometry.names)
    while True:
        a, b = rng.sample(names, 2)
        placement = {a: king.upper(), b: king}
        if board_or_none(variant, placement) is not None:
            return placement


def pieces_of(variant: str) -> list[str]:
    v = load_variant(variant)
    return [v.letters[t] for t in range(1, len(v.letters)) if t != v.royal_type]


def walled_king(variant: str) -> dict:
    """The black king on the cell with the fewest lines into it (a corner), a black rook
    on the first cell of each of those lines, and the white king, not in check, on the
    last cell where the position is legal: what lets White fill the rest of the board
    without giving check."""
    v = load_variant(variant)
    d, names = v.tables_data, v.geometry.names
    king = v.letters[v.royal_type]

    def lines(cell):
        return [d["nxt"][cell][vec] for vec in d["slide_vecs"] if d["nxt"][cell][vec] >= 0]

    corner = min(range(len(names)), key=lambda c: len(lines(c)))
    placement = {names[corner]: king, **{names[c]: "r" for c in lines(corner)}}
    for name in reversed(names):
        board = board_or_none(variant, {**placement, name: king.upper()})
        if name not in placement and board is not None and not board.is_check():
            return {**placement, name: king.upper()}
    raise AssertionError(f"no cell for the white king in {variant}")


@lru_cache(maxsize=None)
def most_moves(variant: str, seed: int = 1) -> tuple[str, int]:
    """(FEN, moves) of a position where White, with up to 32 pieces, has as many moves as
    a seeded simulated annealing over White's pieces (add one, take one off, move one,
    change its type) could find in CLIMB_STEPS steps from ``walled_king``."""
    rng = random.Random(seed)
    names = load_variant(variant).geometry.names
    letters = [p.upper() for p in pieces_of(variant)]
    placement = walled_king(variant)
    own_king = next(ch for ch in placement.values() if ch.isupper())

    def moves(trial):
        board = board_or_none(variant, trial)
        return None if board is None else len(board.legal_moves())

    current = moves(placement)
    best = (current, placement)
    for step in range(CLIMB_STEPS):
        heat = 6.0 * (1 - step / CLIMB_STEPS) + 0.05
        trial = dict(placement)
        own = [c for c, ch in trial.items() if ch.isupper() and ch != own_king]
        free = [c for c in names if c not in trial]
        roll = rng.random()
        if (roll < 0.4 or not own) and len(own) < LIMITS["pieces"] - 1:
            trial[rng.choice(free)] = rng.choice(letters)
        elif roll < 0.55:
            del trial[rng.choice(own)]
        elif roll < 0.9:
            trial[rng.choice(free)] = trial.pop(rng.choice(own))
        else:
            trial[rng.choice(own)] = rng.choice(letters)
        count = moves(trial)
        if count is None:
            continue
        if count >= current or rng.random() < math.exp((count - current) / heat):
            placement, current = trial, count
            if count > best[0]:
                best = (count, trial)
    return fen_of(variant, best[1]), best[0]


@lru_cache(maxsize=None)
def packed(variant: str, seed: int = 2) -> str:
    """A FEN with 32 pieces a side (the most a FEN may hold) wherever the board has room,
    placed at random, White to move."""
    rng = random.Random(seed)
    letters = pieces_of(variant)
    names = list(load_variant(variant).geometry.names)
    placement = kings(variant, rng)
    for white in (True, False):
        while sum(ch.isupper() == white for ch in placement.values()) < LIMITS["pieces"]:
            free = [c for c in names if c not in placement]
            for _ in range(200):
                letter = rng.choice(letters)
                trial = {**placement, rng.choice(free): letter.upper() if white else letter}
                if board_or_none(variant, trial) is not None:
                    placement = trial
                    break
            else:
                break
    return fen_of(variant, placement)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_fits_the_move_buffers(variant):
    bound = load_variant(variant).tables_data["move_bound"]
    assert 0 < bound <= LIMITS["moves"]


def test_the_climb_finds_positions_past_the_old_buffer():
    """The hexagonal positions that overflowed 512 moves exist, and the search finds
    one."""
    fen, moves = most_moves("hexagonal")
    assert moves > OLD_MAX_MOVES, (moves, fen)


@pytest.mark.parametrize("variant", VARIANTS)
def test_most_moves_stay_within_the_bound(variant):
    fen, moves = most_moves(variant)
    board = Board(variant, fen)
    assert moves == len(board.legal_moves()) <= load_variant(variant).tables_data["move_bound"]
    divide = board.perft_divide(2)
    assert len(divide) == moves and sum(n for _, n in divide) == board.perft(2)


@pytest.mark.parametrize("variant", VARIANTS)
def test_packed_positions_load_and_move(variant):
    board = Board(variant, packed(variant))
    counts = [sum(ch.isupper() == white for ch in board.fen().split()[0] if ch.isalpha())
              for white in (True, False)]
    assert max(counts) == LIMITS["pieces"]
    assert board.perft(2) == sum(n for _, n in board.perft_divide(2))
    with pytest.raises(ValueError, match="too many pieces"):
        extra = dict.fromkeys(board.variant.geometry.names[:LIMITS["pieces"] + 1], "Q")
        Board(variant, fen_of(variant, extra))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("which", ["most moves", "packed"])
def test_the_search_plays_dense_positions(variant, which):
    """Every node of these searches generates up to the bound and runs SEE on crowded
    cells; the answer must be a legal move."""
    fen = most_moves(variant)[0] if which == "most moves" else packed(variant)
    engine = Engine(variant)
    engine.set_position(fen)
    best, _ = engine.search_sync(GoLimits(nodes=20000))
    legal = engine.board.legal_moves()
    assert best.move in legal if legal else best.move is None


@pytest.mark.parametrize("which", ["most moves", "packed"])
def test_dense_chess_moves_equal_python_chess(which):
    fen = most_moves("chess")[0] if which == "most moves" else packed("chess")
    ours = sorted(Board("chess", fen).legal_moves())
    assert ours == sorted(m.uci() for m in chess.Board(fen).legal_moves)


def test_the_uci_process_answers_dense_positions():
    """What a GUI sends: every dense position through the engine process, with ``go perft
    1`` and a short search, each answer awaited; the process still answers afterwards."""
    eng = UciEngine([sys.executable, "-m", "engine"])
    try:
        for variant in VARIANTS:
            eng.send(f"setoption name UCI_Variant value {variant}")
            for fen in (most_moves(variant)[0], packed(variant)):
                eng.send(f"position fen {fen}")
                eng.send("go perft 1")
                answer = list(eng.until(lambda s: s.startswith(("Nodes searched", "info string")),
                                        120))
                assert answer[-1].startswith("Nodes searched"), answer[-3:]
                assert int(answer[-1].split(":")[1]) == len(Board(variant, fen).legal_moves())
                eng.send("go nodes 5000")
                lines = list(eng.until(lambda s: s.startswith("bestmove"), 120))
                assert not [ln for ln in lines if ln.startswith("info string error")], lines
        eng.ready()
    finally:
        eng.quit()
    assert eng.proc.returncode == 0
