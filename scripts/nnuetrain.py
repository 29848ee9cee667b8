"""Training of a Quantum net (engine/nnue.pxd, engine/net.pyx) with numpy on the CPU.

The model is the engine's, in floating point: per perspective an accumulator
b1 + sum of w1 rows of the pieces (Black's cells mirrored), a squared clipped ReLU on
[side to move's half, other half], one linear output per material bucket; centipawns =
output * SCALE. The loss is the squared error of sigmoid(cp / 400) against
lam * sigmoid(label / 400) + (1 - lam) * result, from the side to move's view. Adam with
a step-decayed rate; weights are clipped to what the integer engine can hold (the bounds
engine/net.pyx checks), then quantised and written as a ``.qnn`` file. At the end the
written file is loaded by the engine and its scores compared with the float model's.
"""
from __future__ import annotations

import json
import random
import struct
import time
from pathlib import Path

import numpy as np

from engine import fen as fen_mod
from engine.board import Board
from engine.net import MAGIC, Net, board_signature, mirror_cells
from engine.variant import load_variant

QA, QB = 255, 1024
SCALE = 400
BUCKETS, BUCKET_DIV = 8, 4
MAX_PIECES = 64
W1_CLIP = 1.98 * 0.9                  # 64 * 255 * |w1| + |b1| * 255 stays below 32767
B1_CLIP = 1.5
RESULT = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "3/4-1/4": 0.75, "1/4-3/4": 0.25,
          "*": float("nan")}       # no game behind the position: the label alone
HOLD_OUT = 0.05                  # of each file, its last rows: whole games the fit never sees
HAND_ROWS = 20000                # held-out rows the hand-written evaluation is scored on


KING_LAYOUTS = ("none", "wings")


def king_layout(geometry, name: str) -> list[int] | None:
    """The king buckets of a layout (the header's ``king_buckets``: for each cell, the
    input block of a side whose king stands there, as that side sees the board), or None
    for ``none``. ``wings`` (square boards): the king on its first rank or beyond it, on
    the files of the king's wing (the right half from White's side) or the queen's:
    castled short, castled long, and the two halves of the board in the endgame. Block 0
    holds the start cell and the short castle's, so castling short keeps the block."""
    if name == "none":
        return None
    if name != "wings" or geometry.kind != "square":
        raise ValueError(f"king buckets {name!r}: one of {KING_LAYOUTS} (wings: square boards)")
    half = len(geometry.files) // 2
    return [(0 if x >= half else 1) + (0 if rank == 1 else 2)
            for (x, _), rank in zip(geometry.coords, geometry.ranks)]


class Features:
    """Feature rows of positions for one variant: indices from White's and Black's view,
    each in the block of that side's king bucket (``king_buckets``: a layout's map)."""

    def __init__(self, variant, king_buckets: list[int] | None = None):
        self.variant = variant
        self.ntypes = len(variant.letters) - 1
        self.ncells = len(variant.geometry.names)
        self.block = 2 * self.ntypes * self.ncells
        self.king_buckets = king_buckets
        self.blocks = max(king_buckets) + 1 if king_buckets else 1
        self.nfeat = self.blocks * self.block
        self.mirror = mirror_cells(variant.geometry)
        self.flip = file_flip(variant.geometry)
        self.royal = variant.royal_type

    def of(self, pieces, persp: int) -> list[int]:
        base = 0
        if self.king_buckets:
            king = [c for c, pc in pieces if (pc & 15) == self.royal and (pc >> 5) == persp]
            if king:
                cell = king[0] if persp == 0 else self.mirror[king[0]]
                base = self.block * self.king_buckets[cell]
        out = []
        for cell, pc in pieces:
            rel = 0 if (pc >> 5) == persp else 1
            c = cell if persp == 0 else self.mirror[cell]
            out.append(base + (rel * self.ntypes + (pc & 15) - 1) * self.ncells + c)
        return out


def file_flip(geometry) -> list[int]:
    """The cell across the board's vertical middle line (a1 and h1 on chess's board, a1 and
    l1 on the hexagon, whose f-file is the line): a mirror that changes no rule once
    castling rights are gone, so a mirrored position is as good a row as the original."""
    xs = [x for x, _ in geometry.coords]
    at = {c: i for i, c in enumerate(geometry.coords)}
    return [at[(min(xs) + max(xs) - x, y)] for x, y in geometry.coords]


def split_rows(files: list[Path]) -> tuple[list, list]:
    """The rows of the data files, unparsed ([fen, result, own, label]), split into
    (training, held out): the held-out rows are the last HOLD_OUT of each file."""
    train, valid = [], []
    for f in files:
        with open(f) as fh:
            rows = [parts for parts in (line.rstrip("\n").split("\t") for line in fh)
                    if len(parts) == 4]
        cut = len(rows) - int(len(rows) * HOLD_OUT)
        train += rows[:cut]
        valid += rows[cut:]
    return train, valid


def load_rows(feats: Features, files: list[Path], limit: int = 0, flip: bool = False):
    """Parse the data files into (training arrays, held-out arrays, held-out FENs). The held-out rows are
    the last HOLD_OUT of each file: a file holds games one after another, so these are
    positions of games the fit never sees (a random split of rows would hold out
    neighbours of training positions and hide overfitting). Arrays: white/black feature
    indices (padded with nfeat), side to move, pieces on board, label (cp, White's view),
    result (White's score, NaN if none). ``flip``: the training rows without castling
    rights also enter mirrored across the middle file, which changes nothing in the
    rules: twice the cells seen for the same positions."""
    train, valid = split_rows(files)
    random.Random(7).shuffle(train)
    if limit:
        train = train[:limit]
        valid = valid[:max(limit // 20, 1)]
    arrays = _arrays(feats, train)
    if flip:
        castles = feats.variant.spec.fen_castling_field
        uncastled = [row for row in train if not castles or row[0].split()[2] == "-"]
        flipped = _arrays(feats, uncastled, feats.flip)
        arrays = tuple(np.concatenate(pair) for pair in zip(arrays, flipped))
    return arrays, _arrays(feats, valid), [row[0] for row in valid]


def _arrays(feats: Features, rows, across: list[int] | None = None):
    """The arrays of ``rows``; ``across``: each piece's cell taken to across[cell]."""
    n = len(rows)
    iw = np.full((n, MAX_PIECES), feats.nfeat, dtype=np.int16)
    ib = np.full((n, MAX_PIECES), feats.nfeat, dtype=np.int16)
    stm = np.zeros(n, dtype=np.int8)
    count = np.zeros(n, dtype=np.int16)
    label = np.zeros(n, dtype=np.float32)
    result = np.zeros(n, dtype=np.float32)
    t0 = time.time()
    for i, (fen, res, _own, ref) in enumerate(rows):
        data = fen_mod.parse(feats.variant, fen)
        pieces = [(c if across is None else across[c], pc) for c, pc in enumerate(data.board) if pc]
        w, b = feats.of(pieces, 0), feats.of(pieces, 1)
        iw[i, :len(w)] = w
        ib[i, :len(b)] = b
        stm[i] = data.side
        count[i] = len(pieces)
        label[i] = float(ref)
        result[i] = RESULT[res]
        if i % 200000 == 0 and i:
            print(f"  parsed {i}/{n} ({time.time() - t0:.0f} s)", flush=True)
    return iw, ib, stm, count, label, result


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


class Model:
    """The net in floats. A feature's first-layer row is its own row plus the row of its
    (colour, piece type), shared by all its cells (a factoriser, as Stockfish's trainer
    has): what a piece is worth anywhere is learnt from every position that has one, so
    cells seen rarely start from the piece's value instead of noise. With king buckets
    (``blocks`` > 1) a row also adds the (colour, type, cell) row shared by every block
    (``base``), so a block seen rarely starts from what all blocks know. Exported nets
    hold the sums (``rows``), so the engine never sees the factors."""

    def __init__(self, nfeat: int, ncells: int, hidden: int, rng: np.random.Generator,
                 bucket_div: int = BUCKET_DIV, blocks: int = 1):
        self.h = hidden
        self.bucket_div = bucket_div
        self.ncells = ncells
        self.blocks = blocks
        self.block = nfeat // blocks
        self.p = {
            "w1": (rng.standard_normal((nfeat + 1, hidden)) * (1.0 / np.sqrt(nfeat))).astype(np.float32),
            "f1": np.zeros((self.block // ncells, hidden), dtype=np.float32),
            "b1": np.full(hidden, 0.1, dtype=np.float32),
            "w2": (rng.standard_normal((BUCKETS, 2 * hidden)) * (1.0 / np.sqrt(2 * hidden))).astype(np.float32),
            "b2": np.zeros(BUCKETS, dtype=np.float32),
        }
        if blocks > 1:
            self.p["base"] = np.zeros((self.block, hidden), dtype=np.float32)
        self.p["w1"][nfeat] = 0.0
        self.nfeat = nfeat
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def load(self, data: bytes, variant) -> None:
        """Start from a net file's weights (a warm start): its rows become this model's own
        rows with the piece factors at zero, its integers are divided back into floats.
        The engine's loader checks the file (its board, its bounds). A net with fewer
        hidden units fills the first ones; the others keep their random first layer and
        start with output weights of zero, so the model begins with the file's scores."""
        net = Net(data, variant)
        head = net.header
        h0, h = head["hidden"], self.h
        blocks0 = net.king_blocks
        if h0 > h or head["buckets"] != BUCKETS or head["scale"] != SCALE \
                or blocks0 not in (1, self.blocks):
            raise ValueError(f"the net has hidden {h0}, buckets {head['buckets']}, "
                             f"scale {head['scale']}, {blocks0} king blocks: this fit needs "
                             f"at most {h}, {BUCKETS}, {SCALE}, 1 or {self.blocks}")
        self.bucket_div = head["bucket_div"]
        w1, b1, w2, b2 = (np.frombuffer(raw, dtype=dtype).astype(np.float32)
                          for raw, dtype in zip(net.weights(), (np.int16,) * 3 + (np.int32,)))
        w2 = w2.reshape(BUCKETS, 2, h0) / QB
        if blocks0 == self.blocks:
            self.p["w1"][:self.nfeat, :h0] = w1.reshape(self.nfeat, h0) / QA
        else:                           # an unbucketed net: every block starts as it
            self.p["w1"][:self.nfeat, :h0] = 0.0
            self.p["base"][:, :h0] = w1.reshape(self.block, h0) / QA
        self.p["f1"][:] = 0.0
        self.p["b1"][:h0] = b1 / QA
        self.p["w2"][:] = 0.0
        self.p["w2"][:, :h0] = w2[:, 0]
        self.p["w2"][:, h:h + h0] = w2[:, 1]
        self.p["b2"][:] = b2 / (QA * QB)

    def rows(self):
        """Each feature's first-layer row as the engine adds it (own row plus its piece's
        factor row), with the padding row (all zero) last."""
        w = self.p["w1"].copy()
        shared = np.repeat(self.p["f1"], self.ncells, axis=0)
        if self.blocks > 1:
            shared = shared + self.p["base"]
        w[:self.nfeat] += np.tile(shared, (self.blocks, 1))
        return w

    def onehot(self, idx):
        x = np.zeros((idx.shape[0], self.nfeat + 1), dtype=np.float32)
        np.put_along_axis(x, idx.astype(np.int64), 1.0, axis=1)
        x[:, self.nfeat] = 0.0
        return x

    def forward(self, iw, ib, stm, count):
        p = self.p
        xw, xb = self.onehot(iw), self.onehot(ib)
        w1 = self.rows()
        aw = xw @ w1 + p["b1"]
        ab = xb @ w1 + p["b1"]
        black = (stm == 1)[:, None]
        own = np.where(black, ab, aw)
        other = np.where(black, aw, ab)
        hcat = np.concatenate([own, other], axis=1)
        clipped = np.clip(hcat, 0.0, 1.0)
        act = clipped * clipped
        bucket = np.clip((count.astype(np.int64) - 2) // self.bucket_div, 0, BUCKETS - 1)
        out = np.einsum("ij,ij->i", act, p["w2"][bucket]) + p["b2"][bucket]
        return out, (xw, xb, black, hcat, clipped, act, bucket)

    def grads(self, iw, ib, stm, count, target):
        """(loss, gradient of every parameter) of one batch."""
        out, (xw, xb, black, hcat, clipped, act, bucket) = self.forward(iw, ib, stm, count)
        pred = sigmoid(out * SCALE / 400.0)
        loss = float(np.mean((pred - target) ** 2))
        dout = (2.0 * (pred - target) * pred * (1.0 - pred) * SCALE / 400.0 / len(out)).astype(np.float32)
        p = self.p
        onehot_b = np.zeros((len(out), BUCKETS), dtype=np.float32)
        onehot_b[np.arange(len(out)), bucket] = 1.0
        g = {"w2": onehot_b.T @ (act * dout[:, None]), "b2": onehot_b.T @ dout}
        dact = p["w2"][bucket] * dout[:, None]
        dh = dact * 2.0 * clipped * ((hcat > 0.0) & (hcat < 1.0))
        h = self.h
        down, doth = dh[:, :h], dh[:, h:]
        daw = np.where(black, doth, down)
        dab = np.where(black, down, doth)
        g["w1"] = xw.T @ daw + xb.T @ dab
        shared = g["w1"][:self.nfeat].reshape(self.blocks, self.block, h).sum(0)
        if self.blocks > 1:
            g["base"] = shared
        g["f1"] = shared.reshape(-1, self.ncells, h).sum(1)
        g["b1"] = daw.sum(0) + dab.sum(0)
        return loss, g

    def step(self, iw, ib, stm, count, target, lr):
        """One Adam step on a batch; its loss before the step."""
        loss, g = self.grads(iw, ib, stm, count, target)
        p = self.p
        self.t += 1
        b1c, b2c = 0.9, 0.999
        for k in p:
            self.m[k] = b1c * self.m[k] + (1 - b1c) * g[k]
            self.v[k] = b2c * self.v[k] + (1 - b2c) * g[k] * g[k]
            mh = self.m[k] / (1 - b1c ** self.t)
            vh = self.v[k] / (1 - b2c ** self.t)
            p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)
        p["w1"][self.nfeat] = 0.0
        rows = self.rows()                       # the sums must stay within the bound
        p["w1"] -= rows - np.clip(rows, -W1_CLIP, W1_CLIP)
        np.clip(p["b1"], -B1_CLIP, B1_CLIP, out=p["b1"])
        np.clip(p["w2"], -32000.0 / QB, 32000.0 / QB, out=p["w2"])
        return loss

    def loss(self, iw, ib, stm, count, target):
        out, _ = self.forward(iw, ib, stm, count)
        return float(np.mean((sigmoid(out * SCALE / 400.0) - target) ** 2))

    def cp(self, iw, ib, stm, count):
        return self.forward(iw, ib, stm, count)[0] * SCALE


def targets(stm, label, result, lam: float):
    """Training target, side to move's view (the label alone where there is no result)."""
    white = np.where(np.isnan(result), sigmoid(label / 400.0),
                     lam * sigmoid(label / 400.0) + (1 - lam) * np.nan_to_num(result))
    return np.where(stm == 1, 1.0 - white, white).astype(np.float32)


def export(model: Model, variant, path: Path, meta: dict, king_buckets=None) -> bytes:
    p = model.p
    header = dict(board_signature(variant), hidden=model.h, buckets=BUCKETS,
                  bucket_div=model.bucket_div, scale=SCALE, **meta)
    if king_buckets:
        header["king_buckets"] = king_buckets
    w1 = np.round(model.rows()[:model.nfeat] * QA).astype("<i2")
    b1 = np.round(p["b1"] * QA).astype("<i2")
    w2 = np.round(p["w2"] * QB).astype("<i2")
    b2 = np.round(p["b2"] * QA * QB).astype("<i4")
    head = json.dumps(header, sort_keys=True).encode()
    data = MAGIC + struct.pack("<I", len(head)) + head + w1.tobytes() + b1.tobytes() + \
        w2.tobytes() + b2.tobytes()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


def train(variant_name: str, files: list[Path], out: Path, hidden: int, epochs: int,
          lam: float, batch: int, lr: float, seed: int, limit: int, flip: bool = False,
          bucket_div: int = BUCKET_DIV, init: Path | None = None,
          king_buckets: str = "none") -> dict:
    """Fit, write ``out`` and check it (from ``init``'s weights if given; an unbucketed
    net may start a bucketed fit, every block a copy of it); the held-out loss per epoch
    and the engine's distance from the float model (mean and max, cp)."""
    variant = load_variant(variant_name)
    kmap = king_layout(variant.geometry, king_buckets)
    feats = Features(variant, kmap)
    t0 = time.time()
    (iw, ib, stm, count, label, result), valid, valid_fens = load_rows(feats, files, limit=limit,
                                                                   flip=flip)
    n = len(stm)
    print(f"{n} positions to fit, {len(valid[2])} held out, from {len(files)} files, "
          f"parsed in {time.time() - t0:.0f} s", flush=True)
    tgt = targets(stm, label, result, lam)
    v_iw, v_ib, v_stm, v_count, v_label, v_result = valid
    v_tgt = targets(v_stm, v_label, v_result, lam)
    hand = hand_scores(variant_name, valid_fens[:HAND_ROWS])
    hand_loss = float(np.mean((sigmoid(hand / 400.0) - v_tgt[:len(hand)]) ** 2))
    print(f"the hand-written evaluation on the first {len(hand)} held-out rows: loss "
          f"{hand_loss:.6f}", flush=True)
    rng = np.random.default_rng(seed)
    model = Model(feats.nfeat, feats.ncells, hidden, rng, bucket_div, feats.blocks)
    start = None
    if init is not None:
        model.load(Path(init).read_bytes(), variant)
        start = model_loss(model, valid, v_tgt, batch)
        print(f"starting from {init}: held out {start:.6f}", flush=True)
    held_out = []
    for epoch in range(1, epochs + 1):
        rate = lr * (0.3 if epoch > epochs * 0.6 else 1.0) * (0.3 if epoch > epochs * 0.85 else 1.0)
        order = rng.permutation(n)
        t1 = time.time()
        losses = []
        for s in range(0, n, batch):
            j = np.sort(order[s:s + batch])
            losses.append(model.step(iw[j], ib[j], stm[j], count[j], tgt[j], rate))
        vl = model_loss(model, valid, v_tgt, batch)
        held_out.append(vl)
        print(f"epoch {epoch}/{epochs}: train {np.mean(losses):.6f} held out {vl:.6f} "
              f"lr {rate:.5f} ({time.time() - t1:.0f} s)", flush=True)
    meta = {"positions": n, "flip": flip, **({"init": Path(init).name} if init else {}),
            "epochs": epochs, "lambda": lam, "held_out_loss": round(vl, 6),
            "data": [f.name for f in files]}
    data = export(model, variant, out, meta, kmap)
    net = Net(data, variant, str(out))
    fens = _sample_fens(files, 300)
    a, b, side, count, _, _ = _arrays(feats, [(fen, "*", "0", "0") for fen in fens])
    floats = model.cp(a, b, side, count)
    diffs = [abs(net.evaluate(Board(variant_name, fen)) - float(fl)) for fen, fl in zip(fens, floats)]
    print(f"wrote {out} ({len(data)} bytes); engine vs float model on {len(diffs)} positions: "
          f"mean |diff| {np.mean(diffs):.2f} cp, max {np.max(diffs):.2f} cp", flush=True)
    return {"held_out": held_out, "start": start, "hand_loss": hand_loss,
            "mean_diff": float(np.mean(diffs)), "max_diff": float(np.max(diffs))}


def model_loss(model: Model, valid, tgt, batch: int) -> float:
    """The float model's loss on the held-out rows, in batches."""
    v_iw, v_ib, v_stm, v_count = valid[:4]
    return float(np.mean([model.loss(v_iw[k:k + batch], v_ib[k:k + batch], v_stm[k:k + batch],
                                     v_count[k:k + batch], tgt[k:k + batch])
                          for k in range(0, len(v_stm), batch)]))


def held_out_loss(variant_name: str, files: list[Path], nets: dict, lam: float = 0.8,
                  rows: int = 0) -> dict:
    """The loss of each net file (and of the hand-written evaluation, key "hand") on the
    same held-out rows of ``files`` (their last HOLD_OUT, ``rows`` of them if given), in
    the engine's own integer arithmetic: nets trained on different data are compared on
    the same positions. ``nets``: {name: path}."""
    variant = load_variant(variant_name)
    valid = split_rows(files)[1]
    if rows:
        valid = valid[:rows]
    fens = [r[0] for r in valid]
    stm = np.array([0 if fen.split()[1] == "w" else 1 for fen in fens], dtype=np.int8)
    label = np.array([float(r[3]) for r in valid], dtype=np.float32)
    result = np.array([RESULT[r[1]] for r in valid], dtype=np.float32)
    tgt = targets(stm, label, result, lam)
    scores = {"hand": hand_scores(variant_name, fens)}
    for name, path in nets.items():
        net = Net(Path(path).read_bytes(), variant, str(path))
        scores[name] = np.array([net.evaluate(Board(variant_name, fen)) for fen in fens],
                                dtype=np.float32)
    return {name: float(np.mean((sigmoid(cp / 400.0) - tgt) ** 2)) for name, cp in scores.items()}


def hand_scores(variant_name: str, fens: list[str]) -> np.ndarray:
    """The hand-written evaluation of each position, side to move's view: the baseline a
    net's held-out loss is read against (the same rows, the same targets)."""
    from engine.eval_tables import eval_tables
    from engine.search import Searcher
    from engine.tt import TranspositionTable
    ev, tt, searcher = eval_tables(variant_name, None), TranspositionTable(1), Searcher()
    scores = []
    for fen in fens:
        searcher.set_root(Board(variant_name, fen), ev, tt)
        scores.append(searcher.static_eval())
    return np.array(scores, dtype=np.float32)


def _sample_fens(files, k):
    fens = []
    with open(files[0]) as fh:
        for i, line in enumerate(fh):
            if i % 7 == 0:
                fens.append(line.split("\t")[0])
            if len(fens) >= k:
                break
    return fens


def comment_positions(variant_name: str, text: str, engine: int) -> tuple[list[str], np.ndarray]:
    """(FENs, scores) of the quiet positions (``selfplay.quiet``) before engine
    ``engine``'s moves in a scripts/match PGN, each with the score that engine's own
    search gave there (its move comment, side to move's view; mates and scores of 1000
    cp or more left out): real games' positions, labelled by the engine that played them."""
    from adapters.pgn import engine_comments, uci_games
    from selfplay import quiet
    said = {(rnd, ply): cp for rnd, _, ply, who, cp, _, _ in engine_comments(text)
            if who == engine and cp is not None and abs(cp) < 1000}
    fens, scores = [], []
    for rnd, _, fen, moves in uci_games(text, variant_name):
        board = Board(variant_name, fen) if fen else Board(variant_name)
        for ply, move in enumerate(moves, 1):
            cp = said.get((rnd, ply))
            if cp is not None and quiet(board, move):
                fens.append(board.fen())
                scores.append(cp)
            board.push(move)
    return fens, np.array(scores, dtype=np.float32)


def agreement(variant_name: str, fens: list[str], scores: np.ndarray, nets: dict,
              static_of: str | None = None) -> dict:
    """{name: (correlation, loss, slope, best loss, its factor)} of each net's evaluation
    (side to move's view) against ``scores``: the correlation, the squared error of
    sigmoid(cp / 400), the least-squares factor from the evaluation to the score (1: the
    same scale), and the smallest loss of the evaluation times a factor (0.3 to 2) with
    that factor: nets of different scales compared on what they know. With
    ``static_of`` (a reference engine command) its static evaluation too (``Labeller.static``)."""
    variant = load_variant(variant_name)
    evals = {}
    for name, path in nets.items():
        net = Net(Path(path).read_bytes(), variant, str(path))
        evals[name] = np.array([net.evaluate(Board(variant_name, f)) for f in fens],
                               dtype=np.float32)
    if static_of:
        from selfplay import Labeller
        ref = Labeller(variant_name, static_of, 1)
        try:
            white = [ref.static(f) for f in fens]
        finally:
            ref.quit()
        evals[static_of] = np.array([(w if f.split()[1] == "w" else -w) if w is not None
                                     else np.nan for f, w in zip(fens, white)], dtype=np.float32)
    out = {}
    for name, ev in evals.items():
        ok = ~np.isnan(ev)
        e, s = ev[ok], scores[ok]
        target = sigmoid(s / 400.0)
        best = min((float(np.mean((sigmoid(k * e / 400.0) - target) ** 2)), float(k))
                   for k in np.arange(0.3, 2.0, 0.01))
        out[name] = (float(np.corrcoef(e, s)[0, 1]),
                     float(np.mean((sigmoid(e / 400.0) - target) ** 2)),
                     float(np.dot(e, s) / max(float(np.dot(e, e)), 1e-9)), *best)
    return out


def rescale(data: bytes, scale: int, note: str) -> bytes:
    """The net file ``data`` with its header's output ``scale`` (the engine's centipawns
    per unit of output) set to ``scale`` and ``note`` recorded as ``rescaled``; the
    weights stay as they are. A net fitted to a reference engine's scores alone has that
    engine's scale, while the search's margins were tuned on nets whose scores are larger."""
    (hlen,) = struct.unpack_from("<I", data, len(MAGIC))
    header = json.loads(data[len(MAGIC) + 4:len(MAGIC) + 4 + hlen])
    header.update(scale=scale, rescaled=note)
    head = json.dumps(header, sort_keys=True).encode()
    return MAGIC + struct.pack("<I", len(head)) + head + data[len(MAGIC) + 4 + hlen:]
