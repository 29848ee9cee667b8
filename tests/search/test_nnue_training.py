"""scripts/nnue's trainer end to end on a small data set: it learns (the held-out loss
falls), and the file it writes scores in the engine as the float model does.

The label is the material balance of random-game positions (pawn 1, knight and bishop 3,
rook 5, queen 9, archbishop 7, chancellor 8), a target the net can learn exactly and that
needs no engine; the shipped nets are trained the same way on reference-engine labels
(docs/nnue.md).
"""
from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

from engine.board import Board
from engine.net import Net
from engine.variant import load_variant

pytest.importorskip("numpy")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from nnuetrain import train  # noqa: E402


VALUES = {"p": 100, "n": 300, "b": 300, "r": 500, "q": 900, "a": 700, "c": 800, "k": 0}


def material(fen: str) -> int:
    """White's material minus Black's, centipawns."""
    return sum(VALUES[ch.lower()] * (1 if ch.isupper() else -1)
               for ch in fen.split()[0] if ch.isalpha())


@pytest.mark.parametrize("variant", ["chess", "hexagonal"])
def test_trainer_learns_and_its_file_matches_the_float_model(tmp_path, variant):
    rng = random.Random(5)
    rows = []
    while len(rows) < 8000:
        board = Board(variant)
        for _ in range(rng.randint(10, 70)):
            moves = board.legal_moves()
            if not moves or board.outcome() is not None:
                break
            board.push(rng.choice(moves))
        if board.outcome() is not None or board.is_check():
            continue
        cp = material(board.fen())
        rows.append(f"{board.fen()}\t1/2-1/2\t{cp}\t{cp}\n")
    data = tmp_path / f"{variant}-1-0.tsv"
    data.write_text("".join(rows))
    out = tmp_path / "net.qnn"
    report = train(variant, [data], out, hidden=32, epochs=8, lam=1.0, batch=512,
                   lr=0.01, seed=1, limit=0)
    # a constant guess of 0.5 scores the targets' spread; the net must do far better
    spread = sum((1 / (1 + math.exp(-int(r.split("\t")[3]) / 400)) - 0.5) ** 2 for r in rows) / len(rows)
    assert report["held_out"][-1] < 0.2 * spread
    assert report["mean_diff"] < 5 and report["max_diff"] < 30
    net = Net(out.read_bytes(), load_variant(variant))
    # the net has learnt the label: clear advantages get the sign the hand evaluation gives
    agree = total = 0
    for line in rows[:600]:
        fen, _, _, cp = line.rstrip("\n").split("\t")
        if abs(int(cp)) < 200:
            continue
        board = Board(variant, fen)
        mine = net.evaluate(board) * (1 if board.turn == "w" else -1)
        total += 1
        agree += (mine > 0) == (int(cp) > 0)
    assert total > 50 and agree > 0.8 * total
