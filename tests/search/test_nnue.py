"""The learnt evaluation: net files, the incremental accumulators, the options.

The incremental updates (make and unmake, engine/position.pyx) are checked against the
accumulators built from scratch along random games on every board, with random nets whose
every weight matters; the feature mapping against python-chess's colour-flipped board;
the file checks against damaged and unsafe files.
"""
from __future__ import annotations

import json
import random
import struct

import chess
import pytest

from engine.board import Board
from engine.eval_tables import eval_tables, shipped_net
from engine.net import MAGIC, Net, NetError, board_signature
from engine.evaluate import evaluate_board
from engine.variant import load_variant, variant_names
from tests.protocol.uci_helpers import Driver

START_FENS = {
    "chess": [None, "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
              "8/2P3k1/8/3pP3/8/8/1p4K1/8 w - d6 0 1"],
    "grand": [None],
    "hexagonal": [None],
    "fogofwar": [None],
}


def random_net(variant, hidden=16, buckets=4, seed=1, w1=None, w2=None, b2=None,
               king_buckets=None) -> bytes:
    """A net file with random weights inside the bounds engine/net.pyx checks;
    ``king_buckets``: the header's map of input blocks by king cell (None: one block)."""
    rng = random.Random(seed)
    sig = board_signature(variant)
    blocks = max(king_buckets) + 1 if king_buckets else 1
    nfeat = blocks * 2 * len(sig["pieces"]) * sig["cells"]
    extra = {"king_buckets": king_buckets} if king_buckets is not None else {}
    head = json.dumps(dict(sig, hidden=hidden, buckets=buckets, bucket_div=8,
                           scale=400, **extra)).encode()
    w1 = w1 if w1 is not None else [rng.randint(-120, 120) for _ in range(nfeat * hidden)]
    b1 = [rng.randint(0, 200) for _ in range(hidden)]
    w2 = w2 if w2 is not None else [rng.randint(-2000, 2000) for _ in range(buckets * 2 * hidden)]
    b2 = b2 if b2 is not None else [rng.randint(-5000, 5000) for _ in range(buckets)]
    return (MAGIC + struct.pack("<I", len(head)) + head + struct.pack(f"<{len(w1)}h", *w1)
            + struct.pack(f"<{len(b1)}h", *b1) + struct.pack(f"<{len(w2)}h", *w2)
            + struct.pack(f"<{len(b2)}i", *b2))


def with_header(data: bytes, **fields) -> bytes:
    """A net file with its JSON header's ``fields`` changed, the weights kept."""
    (hlen,) = struct.unpack_from("<I", data, 4)
    head = json.dumps(dict(json.loads(data[8:8 + hlen]), **fields)).encode()
    return MAGIC + struct.pack("<I", len(head)) + head + data[8 + hlen:]


def random_game(board: Board, plies: int, rng: random.Random) -> list[str]:
    """Random legal moves, captures and promotions preferred (they touch more cells)."""
    board = board.copy()
    moves = []
    for _ in range(plies):
        legal = board.legal_moves()
        if not legal or board.outcome() is not None:
            break
        sharp = [m for m in legal if m[-1].isalpha() or _takes(board, m)]
        m = rng.choice(sharp if sharp and rng.random() < 0.5 else legal)
        board.push(m)
        moves.append(m)
    return moves


def _takes(board: Board, move: str) -> bool:
    before = sum(ch.isalpha() for ch in board.fen().split()[0])
    board.push(move)
    after = sum(ch.isalpha() for ch in board.fen().split()[0])
    board.pop()
    return after < before


def king_cells(board: Board) -> list[int]:
    royal = board.variant.letters.index("k")
    return [c for c, pc in enumerate(board._placement()) if pc and pc & 15 == royal]


@pytest.mark.parametrize("blocks", [1, 3])
@pytest.mark.parametrize("variant", sorted(START_FENS))
def test_incremental_accumulators_match_scratch(variant, blocks):
    """With king buckets (3 blocks, neighbouring cells in different ones) nearly every
    king move, castling and king capture changes a side's block: its accumulator is
    rebuilt, the other side's rows shifted."""
    v = load_variant(variant)
    ncells = len(v.geometry.names)
    kmap = [c % blocks for c in range(ncells)] if blocks > 1 else None
    net = Net(random_net(v, seed=len(variant), king_buckets=kmap), v)
    rng = random.Random(7)
    checked = rebucketed = 0
    for fen in START_FENS[variant]:
        for _ in range(6):
            start = Board(variant, fen)
            moves = random_game(start, 120, rng)
            forward, back = net.follow(start, moves)
            board = start.copy()
            scratch = []
            for m in moves:
                kings = king_cells(board)
                board.push(m)
                rebucketed += kings != king_cells(board)
                scratch.append(net.evaluate(board))
            assert forward == scratch
            before = [net.evaluate(start)] + scratch[:-1]
            assert back == list(reversed(before))
            checked += len(moves)
    assert checked > 200 and rebucketed > 10


def test_king_buckets_change_the_score():
    """The same pieces with a king on a cell of another block score differently, and a
    net whose blocks are copies of one block scores as that block alone (the bucket
    indexes the rows, nothing else)."""
    v = load_variant("chess")
    rng = random.Random(5)
    block = [rng.randint(-120, 120) for _ in range(2 * 6 * 64 * 16)]
    kmap = [0 if c < 32 else 1 for c in range(64)]
    plain = Net(random_net(v, seed=9, w1=block), v)
    copied = Net(random_net(v, seed=9, w1=block + block, king_buckets=kmap), v)
    other = Net(random_net(v, seed=9, w1=block + block[::-1], king_buckets=kmap), v)
    a = Board("chess", "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1")
    assert copied.evaluate(a) == plain.evaluate(a)
    assert other.evaluate(a) == plain.evaluate(a)                   # both kings in block 0
    b = Board("chess", "4k3/8/4K3/3q4/8/8/3Q4/8 w - - 0 1")          # White's king in block 1
    assert copied.evaluate(b) == plain.evaluate(b)
    assert other.evaluate(b) != plain.evaluate(b)


def test_features_agree_with_python_chess_colour_flip():
    """A position and its colour-flipped mirror (python-chess) score alike for the side
    to move: the perspective features (own/their, Black's ranks mirrored) are symmetric."""
    v = load_variant("chess")
    net = Net(random_net(v, seed=3), v)
    rng = random.Random(11)
    pc = chess.Board()
    for _ in range(200):
        if pc.is_game_over():
            pc = chess.Board()
        pc.push(rng.choice(list(pc.legal_moves)))
        flipped = pc.mirror()
        assert net.evaluate(Board("chess", pc.fen())) == net.evaluate(Board("chess", flipped.fen()))
    # and a change of side to move alone does change the score (the test can fail)
    a = Board("chess", "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1")
    b = Board("chess", "4k3/8/8/3q4/8/8/3Q4/4K3 b - - 0 1")
    assert net.evaluate(a) != net.evaluate(b)


def test_damaged_and_unsafe_files_are_refused():
    chess_v, grand_v = load_variant("chess"), load_variant("grand")
    good = random_net(chess_v)
    Net(good, chess_v)
    with pytest.raises(NetError, match="not a Quantum net"):
        Net(b"PK\x03\x04" + good[4:], chess_v)
    with pytest.raises(NetError, match="trained for"):
        Net(good, grand_v)
    with pytest.raises(NetError, match="bytes of weights"):
        Net(good[:-3], chess_v)
    with pytest.raises(NetError, match="unreadable header"):
        Net(MAGIC + struct.pack("<I", 5) + b"{nope" + good[8:], chess_v)
    nfeat = 2 * 6 * 64
    with pytest.raises(NetError, match="16-bit accumulator"):
        Net(random_net(chess_v, w1=[600] * (nfeat * 16)), chess_v)
    with pytest.raises(NetError, match="output bias"):
        Net(random_net(chess_v, b2=[1 << 30] * 4), chess_v)
    Net(random_net(chess_v, hidden=256, w2=[32767] * (4 * 512)), chess_v)   # 64-bit sums
    Net(random_net(chess_v, king_buckets=[c // 16 for c in range(64)]), chess_v)
    for kmap in ([0] * 63, [0, 2] * 32, [-1] + [0] * 63, [0.5] * 64, "0" * 64):
        with pytest.raises(NetError, match="king_buckets"):
            Net(with_header(good, king_buckets=kmap), chess_v)


def test_every_variant_has_a_usable_net_or_none():
    for variant in variant_names():
        path = shipped_net(variant)
        tables = eval_tables(variant)
        if path is None:
            assert tables.net is None
        else:
            assert path.is_file() and tables.net is not None and tables.net.header["positions"] > 0
        assert eval_tables(variant, None).net is None


def test_a_net_named_in_the_params_is_what_searches_use(tmp_path, monkeypatch):
    """``[net] file`` in the params makes eval_tables attach that net; a damaged one stops
    the start-up check (engine/datafiles.py) with the variant's name."""
    from engine import datafiles, eval_tables as et
    params = et.load_params("chess")
    monkeypatch.setattr(et, "NET_DIR", tmp_path)
    monkeypatch.setattr(et, "load_params", lambda name: {**params, "net": {"file": "x.qnn"}})
    (tmp_path / "x.qnn").write_bytes(random_net(load_variant("chess"), seed=9))
    tables = et.eval_tables("chess")
    assert tables.net is not None and tables.net.label == str(tmp_path / "x.qnn")
    board = Board("chess", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    from engine.search import Searcher
    from engine.tt import TranspositionTable
    searcher = Searcher()
    searcher.set_root(board, tables, TranspositionTable(1))
    assert searcher.static_eval() == tables.net.evaluate(board) != evaluate_board(board, tables)
    (tmp_path / "x.qnn").write_bytes(b"QNN1 damaged")
    with pytest.raises(datafiles.DataFileError, match="chess: the shipped net cannot be used"):
        datafiles.check()


BLEND_FENS = {
    "fogofwar": ("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                 "4k3/8/8/8/8/8/P7/3QK3 b - - 0 1", "4k3/pp6/8/8/8/8/5PPP/6K1 w - - 0 1"),
    "grand": (None, "r8r/1nbqkcabn1/pppp1ppppp/10/4p5/4P5/5A4/PPPP1PPPPP/1NBQKC1BN1/R8R b - - 1 2",
              "10/4k5/10/10/4p5/10/10/4P5/4K5/10 w - - 0 1"),
}


@pytest.mark.parametrize("variant, other", [("fogofwar", "chess"), ("grand", None)])
def test_a_board_blends_its_net_with_the_hand_written_evaluation(variant, other):
    """Fog of War borrows chess's net and Grand has its own, and each blends in ``[net]
    hand`` of the hand-written evaluation (engine/params/<variant>.toml): a search's static
    evaluation is that mix, side to move's view, in 256ths; chess searches get the net's
    score alone."""
    from engine.eval_tables import load_params
    from engine.search import Searcher
    from engine.tt import TranspositionTable
    share = round(256 * load_params(variant)["net"]["hand"])
    assert 0 < share < 256
    searcher = Searcher()
    fens = BLEND_FENS[variant]
    pairs = [(variant, share)]
    if other:
        assert "hand" not in load_params(other)["net"]
        pairs.append((other, 0))
    for name, part in pairs:
        tables = eval_tables(name)
        for fen in fens:
            board = Board(name, fen)
            searcher.set_root(board, tables, TranspositionTable(1))
            net = tables.net.evaluate(board)
            hand = evaluate_board(board, eval_tables(name, None))
            assert net != hand
            assert searcher.static_eval() == (net * (256 - part) + hand * part) // 256


def search(d: Driver) -> tuple[str, int]:
    """(best move, nodes) of a fresh depth-6 search from the start (cleared table and
    history, so equal settings give equal numbers)."""
    d.send("ucinewgame")
    d.send("setoption name Clear Hash")
    lines = d.go("go depth 6")
    last = [line for line in lines if line.startswith("info depth 6 ")][-1].split()
    return lines[-1].split()[1], int(last[last.index("nodes") + 1])


def test_eval_file_and_use_nnue_options(tmp_path):
    d = Driver()
    d.send("uci")
    d.send("position startpos")
    shipped = search(d)
    assert search(d) == shipped                     # the measure repeats
    mine = tmp_path / "mine.qnn"
    mine.write_bytes(random_net(load_variant("chess"), seed=5))
    d.send(f"setoption name EvalFile value {mine}")
    with_file = search(d)
    assert with_file != shipped
    lines = d.send(f"setoption name EvalFile value {tmp_path / 'missing.qnn'}")
    assert any(line.startswith("info string error") for line in lines)
    assert search(d) == with_file                   # the old file stays
    grand = tmp_path / "grand.qnn"
    grand.write_bytes(random_net(load_variant("grand")))
    lines = d.send(f"setoption name EvalFile value {grand}")
    assert any("trained for" in line for line in lines)
    assert search(d) == with_file
    d.send("setoption name Use NNUE value false")
    assert search(d) == search_hand(d)
    d.send("setoption name Use NNUE value true")
    assert search(d) == with_file
    d.send("setoption name EvalFile value")
    assert search(d) == shipped


def search_hand(d: Driver) -> tuple[str, int]:
    """The same search with a fresh engine on the hand-written evaluation."""
    other = Driver()
    other.send("uci")
    other.send("setoption name Use NNUE value false")
    other.send("position startpos")
    return search(other)


def test_eval_file_refuses_what_is_not_a_net_file(tmp_path):
    """A device, a folder or a huge file never gets read whole (no hang, no memory blow-up)."""
    d = Driver()
    d.send("uci")
    big = tmp_path / "big.qnn"
    with open(big, "wb") as fh:
        fh.truncate(65 << 20)
    for path, why in (("/dev/zero", "not a regular file"), (str(tmp_path), "not a regular file"),
                      (str(big), "more than a net can be")):
        lines = d.send(f"setoption name EvalFile value {path}")
        assert any(line.startswith("info string error") and why in line for line in lines), lines
    d.send("position startpos")
    assert d.go("go depth 3")[-1].startswith("bestmove")


def test_a_net_file_rewritten_in_place_is_read_again(tmp_path):
    """The documented loop (train, write out/nnue/chess.qnn, play) must not keep an old
    net: a file changed on disk is loaded anew at the next search."""
    import os
    d = Driver()
    d.send("uci")
    d.send("position startpos")
    path = tmp_path / "chess.qnn"
    path.write_bytes(random_net(load_variant("chess"), seed=5))
    d.send(f"setoption name EvalFile value {path}")
    first = search(d)
    path.write_bytes(random_net(load_variant("chess"), seed=6))
    stamp = os.stat(path).st_mtime_ns + 10**9
    os.utime(path, ns=(stamp, stamp))
    second = search(d)
    other = Driver()
    other.send("uci")
    other.send(f"setoption name EvalFile value {path}")
    other.send("position startpos")
    assert second != first and second == search(other)


def test_weakened_strengths_keep_the_hand_written_evaluation(tmp_path):
    """The levels below hard and UCI_Elo up to 1900 were calibrated against Stockfish with
    the hand-written evaluation; they keep it whatever net is loaded, while full strength
    (hard, no UCI_Elo) and the UCI_Elo anchors measured with the net search with it."""
    from engine import levels
    from engine.engine import Engine
    net = tmp_path / "mine.qnn"
    net.write_bytes(random_net(load_variant("chess"), seed=3))
    engine = Engine("chess")
    engine.set_eval_file(str(net))
    assert engine.evaluation(levels.LEVELS["hard"]).net is not None
    assert engine.evaluation(levels.FULL).net is not None
    for weak in (levels.LEVELS["beginner"], levels.LEVELS["easy"], levels.LEVELS["normal"],
                 levels.for_elo(1500), levels.for_elo(1979)):
        assert weak.hand_written and engine.evaluation(weak).net is None, weak
    for strong in (levels.for_elo(1980), levels.for_elo(2500)):
        assert strong.weakened and not strong.hand_written, strong
        assert engine.evaluation(strong).net is not None, strong
    assert not levels.LEVELS["hard"].weakened


def test_uci_elo_searches_as_the_hand_written_evaluation_does(tmp_path):
    net = tmp_path / "mine.qnn"
    net.write_bytes(random_net(load_variant("chess"), seed=5))
    found = []
    for options in ([f"EvalFile value {net}"], ["Use NNUE value false"]):
        d = Driver()
        d.send("uci")
        for option in options + ["UCI_LimitStrength value true", "UCI_Elo value 1900"]:
            d.send(f"setoption name {option}")
        d.send("position startpos")
        found.append(search(d))
    assert found[0] == found[1]
