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
from engine.eval_tables import shipped_net
from engine.net import Net
from engine.variant import load_variant
from testkit import random_board

pytest.importorskip("numpy")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from nnuetrain import agreement, comment_positions, held_out_loss, rescale, train  # noqa: E402


VALUES = {"p": 100, "n": 300, "b": 300, "r": 500, "q": 900, "a": 700, "c": 800, "k": 0}


def material(fen: str) -> int:
    """White's material minus Black's, centipawns."""
    return sum(VALUES[ch.lower()] * (1 if ch.isupper() else -1)
               for ch in fen.split()[0] if ch.isalpha())


@pytest.mark.parametrize("variant, bucket_div", [("chess", 4), ("hexagonal", 5)])
def test_trainer_learns_and_its_file_matches_the_float_model(tmp_path, variant, bucket_div):
    rng = random.Random(5)
    rows = []
    while len(rows) < 8000:
        board = random_board(variant, rng, rng.randint(10, 70))
        if board.outcome() is not None or board.is_check():
            continue
        cp = material(board.fen())
        rows.append(f"{board.fen()}\t1/2-1/2\t{cp}\t{cp}\n")
    data = tmp_path / f"{variant}-1-0.tsv"
    data.write_text("".join(rows))
    out = tmp_path / "net.qnn"
    report = train(variant, [data], out, hidden=32, epochs=8, lam=1.0, batch=512,
                   lr=0.01, seed=1, limit=0, bucket_div=bucket_div)
    # a constant guess of 0.5 scores the targets' spread; the net must do far better
    spread = sum((1 / (1 + math.exp(-int(r.split("\t")[3]) / 400)) - 0.5) ** 2 for r in rows) / len(rows)
    assert report["held_out"][-1] < 0.2 * spread
    # the engine buckets by the header's bucket_div: any other split would not match
    assert report["mean_diff"] < 5 and report["max_diff"] < 30
    net = Net(out.read_bytes(), load_variant(variant))
    assert net.header["bucket_div"] == bucket_div
    # `scripts/nnue loss` scores the written file on the trainer's held-out rows with the
    # engine's arithmetic: the loss the trainer reported, but for rounding
    losses = held_out_loss(variant, [data], {"net": out}, lam=1.0)
    assert abs(losses["net"] - report["held_out"][-1]) < 0.05 * report["held_out"][-1]
    assert losses["hand"] == pytest.approx(report["hand_loss"])
    # a warm start (--init) begins where the written file stands, its bucket split kept
    again = tmp_path / "again.qnn"
    warm = train(variant, [data], again, hidden=32, epochs=1, lam=1.0, batch=512,
                 lr=1e-7, seed=2, limit=0, init=out)
    assert abs(warm["start"] - report["held_out"][-1]) < 0.05 * report["held_out"][-1]
    assert abs(warm["held_out"][-1] - warm["start"]) < 0.05 * warm["start"]
    assert Net(again.read_bytes(), load_variant(variant)).header["bucket_div"] == bucket_div
    # a wider fit starts from the file too: its new hidden units begin silent
    wide = tmp_path / "wide.qnn"
    widened = train(variant, [data], wide, hidden=48, epochs=1, lam=1.0, batch=512,
                    lr=1e-7, seed=3, limit=0, init=out)
    assert abs(widened["start"] - report["held_out"][-1]) < 0.05 * report["held_out"][-1]
    assert Net(wide.read_bytes(), load_variant(variant)).header["hidden"] == 48
    with pytest.raises(ValueError, match="hidden 32"):
        train(variant, [data], tmp_path / "narrow.qnn", hidden=16, epochs=1, lam=1.0,
              batch=512, lr=1e-7, seed=3, limit=0, init=out)
    # king buckets (square boards): a bucketed fit starts from the unbucketed file (every
    # block a copy of it), its blocks then part, and the engine still scores its file as
    # the float model does (the trainer's blocks are the engine's)
    if variant == "chess":
        kb = tmp_path / "kb.qnn"
        bucketed = train(variant, [data], kb, hidden=32, epochs=1, lam=1.0, batch=512,
                         lr=0.005, seed=4, limit=0, init=out, king_buckets="wings")
        assert abs(bucketed["start"] - report["held_out"][-1]) < 0.05 * report["held_out"][-1]
        assert bucketed["mean_diff"] < 5 and bucketed["max_diff"] < 30
        assert len(set(Net(kb.read_bytes(), load_variant(variant)).header["king_buckets"])) == 4
    else:
        with pytest.raises(ValueError, match="square boards"):
            train(variant, [data], tmp_path / "kb.qnn", hidden=32, epochs=1, lam=1.0,
                  batch=512, lr=0.005, seed=4, limit=0, king_buckets="wings")
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


@pytest.mark.parametrize("layout", ["none", "wings"])
def test_trainer_gradients_match_finite_differences(layout):
    """Every parameter's analytic gradient, the piece factor's and the king blocks'
    shared rows included, agrees with the loss's central difference (in float64): the fit
    follows the loss it reports."""
    import numpy as np
    from nnuetrain import Features, Model, _arrays, king_layout, targets
    variant = load_variant("chess")
    feats = Features(variant, king_layout(variant.geometry, layout))
    rng = random.Random(3)
    rows = []
    while len(rows) < 48:
        board = random_board("chess", rng, rng.randint(4, 40))
        rows.append((board.fen(), "1-0", "0", str(rng.randint(-600, 600))))
    iw, ib, stm, count, label, result = _arrays(feats, rows)
    tgt = targets(stm, label, result, 0.8).astype(np.float64)
    model = Model(feats.nfeat, feats.ncells, 8, np.random.default_rng(2), blocks=feats.blocks)
    prng = np.random.default_rng(4)
    for k in model.p:
        model.p[k] = (model.p[k] + prng.normal(0, 0.05, model.p[k].shape)).astype(np.float64)
    model.p["w1"][feats.nfeat] = 0.0
    _, g = model.grads(iw, ib, stm, count, tgt)
    checked = 0
    params = ("w1", "f1", "b1", "w2", "b2") + (("base",) if layout != "none" else ())
    for k in params:
        flat = np.abs(g[k]).ravel()
        for idx in np.argsort(flat)[-4:]:                 # the entries that move the loss most
            pos = np.unravel_index(idx, g[k].shape)
            old = model.p[k][pos]
            model.p[k][pos] = old + 1e-5
            up = model.loss(iw, ib, stm, count, tgt)
            model.p[k][pos] = old - 1e-5
            down = model.loss(iw, ib, stm, count, tgt)
            model.p[k][pos] = old
            numeric = (up - down) / 2e-5
            assert numeric == pytest.approx(g[k][pos], rel=2e-3, abs=1e-9), (k, pos)
            checked += 1
    assert checked == 4 * len(params)
    # the engine's rows are the feature's own row plus its piece's factor row (and, with
    # king buckets, the row every block shares)
    rows_ = model.rows()
    cell = (0 * feats.ntypes + 1) * feats.ncells + 28          # own piece type 1 on cell 28
    feature = (feats.blocks - 1) * feats.block + cell           # in the last block
    shared = model.p["f1"][1] + (model.p["base"][cell] if layout != "none" else 0.0)
    assert rows_[feature] == pytest.approx(model.p["w1"][feature] + shared)


STOCKFISH = next((p for p in ["/usr/games/stockfish"] if Path(p).exists()), None)


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed")
def test_reference_games_label_from_whites_view():
    """scripts/nnue data --player: the reference engine's games give quiet positions of
    the game with a result, and every label is from White's view whoever was to move."""
    from selfplay import Labeller, reference_games
    lab = Labeller("chess", STOCKFISH, 3)
    try:
        # Black to move, a queen down: White's view is far above zero
        _, cp, _ = lab.search("position fen 4k3/8/8/8/8/8/8/3QK3 b - - 0 1", "b")
        assert cp > 500
        _, cp, _ = lab.search("position fen 3qk3/8/8/8/8/8/8/4K3 w - - 0 1", "w")
        assert cp < -500
        games = reference_games("chess", lab, seed=4, keep=1.0, random_move=0.0)
        for _ in range(2):
            positions, result, plies = next(games)
            assert result in ("1-0", "0-1", "1/2-1/2") and plies >= 8
            assert positions
            for fen, white_cp in positions:
                board = Board("chess", fen)
                assert not board.is_check() and isinstance(white_cp, int)
    finally:
        lab.quit()


FAIRY = next((p for p in ["/usr/games/fairy-stockfish"] if Path(p).exists()), None)


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed")
def test_static_labels_from_whites_view():
    """scripts/nnue data --player ... --static: the reference engine's static evaluation
    (its `eval` command) from White's view, none in check; the games it plays at
    ``--player-nodes`` carry those labels for their kept positions."""
    from selfplay import Labeller, reference_games
    lab = Labeller("chess", STOCKFISH, 3, nodes=200)
    try:
        assert lab.go_args == "nodes 200"
        assert lab.static("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") > 500
        assert lab.static("3qk3/8/8/8/8/8/8/4K3 w - - 0 1") < -500
        assert lab.static("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1") is None      # in check
        positions, result, plies = next(reference_games("chess", lab, seed=4, keep=0.5,
                                                        static=True))
        assert result in ("1-0", "0-1", "1/2-1/2") and positions
        for fen, label in positions:
            assert not Board("chess", fen).is_check() and label == lab.static(fen)
    finally:
        lab.quit()


@pytest.mark.skipif(FAIRY is None, reason="Fairy-Stockfish is not installed")
def test_static_labels_read_fairy_stockfish():
    """Fairy-Stockfish names its line "Total evaluation:"; in Grand, Black without its
    queen is far behind from White's view, whoever is to move."""
    from selfplay import Labeller
    lab = Labeller("grand", FAIRY, 3)
    try:
        for side in "wb":
            assert lab.static(f"r8r/1nb1kcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R "
                              f"{side} - - 0 1") > 500
    finally:
        lab.quit()


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed")
def test_relabel_scores_rows_again_and_resumes(tmp_path):
    """scripts/nnue relabel: each row's position is searched again (White's view, whoever
    is to move), its result and third column kept; ``every`` and the workers' shares
    split the rows without overlap, and a second run over the same rows appends nothing."""
    from selfplay import Labeller, relabel
    rows = ["4k3/8/8/8/8/8/8/3QK3 b - - 0 1\t1-0\t-\t0",
            "3qk3/8/8/8/8/8/8/4K3 w - - 0 1\t0-1\t17\t0",
            "4k3/8/8/8/8/8/8/2RRK3 w - - 0 1\t1-0\t-\t0",
            "2rrk3/8/8/8/8/8/8/4K3 b - - 0 1\t0-1\t-\t0",
            "4k3/8/8/8/8/8/8/2Q1K3 w - - 0 1\t1-0\t-\t0"]
    src = tmp_path / "chess-s1-0.tsv"
    src.write_text("".join(r + "\n" for r in rows))
    lab = Labeller("chess", STOCKFISH, 3)
    try:
        out0, out1 = tmp_path / "chess-d1-0.tsv", tmp_path / "chess-d1-1.tsv"
        assert relabel([src], out0, lab, worker=0, workers=2) == 3
        assert relabel([src], out1, lab, worker=1, workers=2) == 2
        got = {}
        for out in (out0, out1):
            for line in out.read_text().splitlines():
                fen, result, own, cp = line.split("\t")
                got[fen] = (result, own, int(cp))
        assert set(got) == {r.split("\t")[0] for r in rows}
        for row in rows:
            fen, result, own, _ = row.split("\t")
            assert got[fen][:2] == (result, own)
            assert (got[fen][2] > 300) == (result == "1-0") and (got[fen][2] < -300) == (result == "0-1")
        assert relabel([src], out0, lab, worker=0, workers=2) == 0        # resumed: all done
        sparse = tmp_path / "chess-d2-0.tsv"
        assert relabel([src], sparse, lab, every=2) == 3                 # rows 1, 3 and 5
        assert [line.split("\t")[0] for line in sparse.read_text().splitlines()] == \
            [rows[0].split("\t")[0], rows[2].split("\t")[0], rows[4].split("\t")[0]]
    finally:
        lab.quit()


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed")
def test_reference_games_survive_an_engine_that_dies():
    """A search that fails mid-game (the engine stalled past its timeout or died) drops
    that game and restarts the engine; an engine found dead between games is restarted
    too. Hours of data generation do not end on one stuck search."""
    from adapters.uci_engine import EngineError
    from selfplay import Labeller, reference_games
    lab = Labeller("chess", STOCKFISH, 3)
    real_search, calls = lab.search, []

    def failing_search(position, turn):
        calls.append(position)
        if len(calls) == 12:             # mid-game: after the random plies, 12 searches in
            raise EngineError("stockfish did not answer in 60.0 s")
        return real_search(position, turn)

    lab.search = failing_search
    try:
        games = reference_games("chess", lab, seed=4, keep=1.0, random_move=0.0)
        first_engine = lab.engine
        positions, result, plies = next(games)
        assert lab.engine is not first_engine and len(calls) > 12
        # the game yielded began after the failure: its first search is the 13th
        first_moves = calls[12].split(" moves ")[1].split()
        assert plies > len(first_moves) >= 4 and positions
        lab.engine.kill()                 # dead between games: new_game restarts it
        dead = lab.engine
        positions, result, plies = next(games)
        assert lab.engine is not dead and result in ("1-0", "0-1", "1/2-1/2") and positions
    finally:
        lab.quit()


def test_file_flip_rows_are_the_mirrored_positions():
    """--flip: a row entered across the middle file has the features of the position
    written mirrored (each rank reversed), on the square boards and on the hexagon (its
    f-file the line), and the mirror is a symmetry of the rules: as many legal moves."""
    from nnuetrain import Features, _arrays, file_flip
    for name, fen, mirrored in (
            ("chess", "r4rk1/pp3ppp/2n5/3qp3/8/1B3N2/PP3PPP/R2Q1RK1 w - - 0 14",
             "1kr4r/ppp3pp/5n2/3pq3/8/2N3B1/PPP3PP/1KR1Q2R w - - 0 14"),
            ("grand", "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
             "r8r/1nbackqbn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBACKQBN1/R8R w - - 0 1"),
            ("hexagonal", "1/1bq/nb2n/r4kr/ppppp1p1p/6p1p2/2B2P5/4PRP1P2/2PP1B1P1P1/6N4/"
                          "1P2QBKNRb1 w - 3 7",
             "1/qb1/n2bn/rk4r/p1p1ppppp/2p1p6/5P2B2/2P1PRP4/1P1P1B1PP2/4N6/1bRNKBQ2P1 w - 3 7")):
        feats = Features(load_variant(name))
        flip = file_flip(load_variant(name).geometry)
        assert sorted(flip) == list(range(feats.ncells))
        assert all(flip[flip[c]] == c for c in range(feats.ncells))
        assert flip != list(range(feats.ncells))
        row = (fen, "1-0", "0", "12")
        across = _arrays(feats, [row], flip)
        direct = _arrays(feats, [(mirrored, "1-0", "0", "12")])
        for a, b in zip(across, direct):
            assert sorted(a[0].tolist()) == sorted(b[0].tolist()) if a.ndim == 2 else a[0] == b[0]
        assert len(Board(name, fen).legal_moves()) == len(Board(name, mirrored).legal_moves())


def test_agree_reads_the_reference_engines_own_scores():
    """scripts/nnue agree: the quiet positions before engine 2's commented moves (Black in
    round 1, White in round 2) with its scores, side to move's view; a capture, a score
    of 1000 cp or more and a mate are left out. A net's agreement with its own
    evaluations is exact (correlation 1, loss 0, scale 1); against half of them the
    factor is 0.5."""
    game = '[Event "Quantum match"]\n[Round "{r}"]\n[Result "*"]\n\n{moves} *\n\n'
    text = (game.format(r=1, moves="1. e4 {+0.20/10 0.10s} e5 {-0.10/10 0.10s} 2. Nf3 "
                        "{+0.10/10 0.10s} Nc6 {+12.00/10 0.10s} 3. Bb5 {-2.00/10 0.10s} a6 "
                        "{+0.30/10 0.10s} 4. Bxc6 {+0.10/10 0.10s} dxc6 {-0.40/10 0.10s}")
            + game.format(r=2, moves="1. d4 {+0.25/9 0.10s} d5 {-0.25/9 0.10s} 2. c4 "
                                     "{+M5/9 0.10s}"))
    fens, scores = comment_positions("chess", text, 2)
    assert [f.split()[0] for f in fens] == [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"]
    assert list(scores) == [-10, 30, 25]
    net_path = shipped_net("chess")
    net = Net(net_path.read_bytes(), load_variant("chess"), str(net_path))
    own = [float(net.evaluate(Board("chess", f))) for f in fens]
    import numpy as np
    corr, loss, slope, best, factor = agreement("chess", fens, np.array(own, dtype=np.float32),
                                                {"shipped": net_path})["shipped"]
    assert corr == pytest.approx(1.0) and loss == pytest.approx(0.0) and slope == pytest.approx(1.0)
    assert best == pytest.approx(0.0) and factor == pytest.approx(1.0)
    half = agreement("chess", fens, np.array(own, dtype=np.float32) / 2, {"shipped": net_path})
    assert half["shipped"][2] == pytest.approx(0.5) and half["shipped"][4] == pytest.approx(0.5)


def test_rescale_changes_the_output_scale_only():
    """scripts/nnue rescale: the shipped net's weights with twice its header scale
    evaluate every position twice as high (to the engine's rounding), and the header says
    where the file came from."""
    variant = load_variant("chess")
    data = shipped_net("chess").read_bytes()
    base = Net(data, variant, "a")
    doubled = Net(rescale(data, 2 * base.header["scale"], "test"), variant, "b")
    assert doubled.header["rescaled"] == "test"
    rng = random.Random(3)
    for _ in range(30):
        board = random_board("chess", rng, plies=rng.randint(4, 40))
        assert abs(doubled.evaluate(board) - 2 * base.evaluate(board)) <= 2
