"""scripts/tune.py's labelling and fit on a small hexagonal data set, Quantum's own
search the reference (how the hexagon's weights were tuned, docs/strength.md): labels
keep their rows' order with several engines side by side and are from White's view; the
fit lowers the held-out error and writes a params file the engine loads. Data from a
match's PGN keep the quiet positions only; a probe reports the error of set weights."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from engine import eval_tables
from engine.board import Board
from engine.evaluate import evaluate_boards
from engine.variant import load_variant
from testkit import random_board

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import tune  # noqa: E402

QUANTUM = f"{sys.executable} -m engine"
# White a queen up, each side to move: a label from White's view is far above zero both times
WHITE_AHEAD = [f"b/1bk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 {turn} - 0 1"
               for turn in "wb"]


def random_positions(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = random_board("hexagonal", rng, rng.randint(6, 40))
        if board.outcome() is None and not board.is_check():
            out.append(board.fen())
    return out


def write_knight_labels(out, fens: list[str]) -> None:
    """Labels of ``fens`` from the hexagon's weights with the knight worth 450, in the
    tuner's labels file under ``out``."""
    truth = eval_tables.load_params("hexagonal")
    truth["value"]["n"] = [450, 450]
    tables = tune.tables_for(load_variant("hexagonal"), truth)
    scores = evaluate_boards([Board("hexagonal", f) for f in fens], tables)
    (out / "tune-hexagonal-labels.tsv").write_text(
        "".join(f"{f}\t1/2-1/2\t{s}\n" for f, s in zip(fens, scores)))


def test_label_with_two_workers_keeps_the_rows_and_scores_from_whites_view(tmp_path, monkeypatch):
    monkeypatch.setattr(tune, "OUT", tmp_path)
    fens = random_positions(30, 3) + WHITE_AHEAD
    rng = random.Random(1)
    results = [rng.choice(["1-0", "0-1", "1/2-1/2"]) for _ in fens]
    (tmp_path / "tune-hexagonal.tsv").write_text(
        "".join(f"{f}\t{r}\n" for f, r in zip(fens, results)))
    path = tune.label("hexagonal", QUANTUM, 2, workers=2)
    rows = [line.rstrip("\n").split("\t") for line in open(path)]
    assert [(f, r) for f, r, _ in rows] == list(zip(fens, results))
    assert all(int(cp) > 500 for _, _, cp in rows[-2:])


def test_fit_lowers_the_held_out_error_and_writes_loadable_params(tmp_path, monkeypatch):
    """Labels from a params file whose knight is worth 450: the fit moves towards it."""
    monkeypatch.setattr(tune, "OUT", tmp_path)
    write_knight_labels(tmp_path, random_positions(600, 4))
    path = tune.fit("hexagonal", limit=600, rounds=3, target="engine", l2=0.0)
    header = path.read_text().splitlines()[0]
    before, after = (float(x) for x in header.split("held-out error ")[1].split(" (")[0].split(" -> "))
    assert after < before
    monkeypatch.setenv("QUANTUM_PARAMS_HEXAGONAL", str(path))
    tuned = eval_tables.load_params("hexagonal")
    assert tuned["value"]["n"][0] > 300


def test_fit_only_moves_the_weights_it_is_given(tmp_path, monkeypatch):
    """``--only value.b``: the knight the labels want stays, the bishops move or not, every
    other weight is untouched; a name that names no weight is an error."""
    monkeypatch.setattr(tune, "OUT", tmp_path)
    write_knight_labels(tmp_path, random_positions(600, 4))
    before = eval_tables.load_params("hexagonal")
    path = tune.fit("hexagonal", limit=600, rounds=3, target="engine", l2=0.0, only=["value.b"])
    monkeypatch.setenv("QUANTUM_PARAMS_HEXAGONAL", str(path))
    tuned = eval_tables.load_params("hexagonal")
    moved = [a for a in tune.flatten(before) if tune.get(before, a) != tune.get(tuned, a)]
    assert all(a[:2] == ("value", "b") for a in moved)
    with pytest.raises(SystemExit, match="no weight"):
        tune.fit("hexagonal", limit=600, rounds=1, target="engine", l2=0.0, only=["nothing"])


def test_data_from_a_pgn_keeps_the_quiet_positions_with_the_result(tmp_path, monkeypatch):
    """A random Grand game written as scripts/match writes it: every position from the
    ninth ply on whose side is not in check and whose next move takes nothing, none other,
    each with the game's result."""
    monkeypatch.setattr(tune, "OUT", tmp_path)
    rng = random.Random(5)
    board, moves, expected = Board("grand"), [], []
    while len(moves) < 60 and board.outcome() is None:
        move = rng.choice(board.legal_moves())
        before = board.fen().split()[0]
        in_check = board.is_check()
        board.push(move)
        quiet = sum(ch.isalpha() for ch in board.fen().split()[0]) == \
            sum(ch.isalpha() for ch in before) and not move[-1].isalpha()
        if len(moves) >= 8 and not in_check and quiet:
            board.pop()
            expected.append(board.fen())
            board.push(move)
        moves.append(move)
    assert 10 < len(expected) < len(moves) - 8        # some positions are left out
    body = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    pgn = tmp_path / "games.pgn"
    pgn.write_text(f'[Event "t"]\n[Round "1"]\n[Result "0-1"]\n[Variant "Grand"]\n\n{body} 0-1\n')
    path = tune.pgn_data("grand", [str(pgn)], seed=1, keep=1.0)
    rows = [line.rstrip("\n").split("\t") for line in open(path)]
    assert rows == [[fen, "0-1"] for fen in expected]


def test_probe_reports_a_lower_error_for_the_weight_the_labels_came_from(tmp_path, monkeypatch,
                                                                         capsys):
    monkeypatch.setattr(tune, "OUT", tmp_path)
    write_knight_labels(tmp_path, random_positions(300, 6))
    shipped = tune.probe("hexagonal", 300, "engine", [])
    assert tune.probe("hexagonal", 300, "engine", ["value.n=[450, 450]"]) < shipped
    assert "value.n=[450, 450]: error" in capsys.readouterr().out
    for bad in ("valu.n=[450, 450]", "value.n=[450", "value.n"):
        with pytest.raises(SystemExit, match="--set"):
            tune.probe("hexagonal", 300, "engine", [bad])
