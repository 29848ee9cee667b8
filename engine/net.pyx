"""The learnt evaluation's net file (engine/nnue.pxd has its arithmetic): loading, the
checks that make the arithmetic safe, and its value over a Board.

A ``.qnn`` file holds one net for one board and piece set (docs/nnue.md): the magic
``QNN1``, a little-endian uint32 header length, a JSON header (board, pieces, hidden,
buckets, bucket_div, scale, optionally king_buckets, and what it was trained on), then
the integer weights in order: w1 int16 [features][hidden], b1 int16 [hidden], w2 int16
[buckets][2 * hidden], b2 int32 [buckets]. ``Net`` refuses a file whose sizes do not match its header or whose
weights could overflow the integer arithmetic of nnue.pxd; the accumulator updates and the
output then need no checks of their own.
"""
import json
import struct
from array import array

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from engine.types cimport MAX_PIECES
from engine.board cimport Board
from engine.position cimport PosRec, pos_attach_net, pos_net_score
from engine.nnue cimport MAX_HIDDEN, MAX_BUCKETS, MAX_KING_BUCKETS

MAGIC = b"QNN1"
INT32_LIMIT = 1 << 30


class NetError(ValueError):
    """A net file that cannot be used (unreadable, the wrong board, unsafe weights)."""


def mirror_cells(geometry) -> list:
    """For each cell, the cell Black sees there: the same file, the rank counted from the
    other end of that file (on square boards a rank flip; on Gliński's hexagon it maps
    White's start onto Black's)."""
    files = {}
    for c, name in enumerate(geometry.names):
        files.setdefault(name.rstrip("0123456789"), []).append((int(name.lstrip("abcdefghijklmnopqrstuvwxyz")), c))
    out = [0] * len(geometry.names)
    for cells in files.values():
        cells.sort()
        for i, (_, c) in enumerate(cells):
            out[c] = cells[len(cells) - 1 - i][1]
    return out


def board_signature(variant) -> dict:
    """What a net must have been trained for: the board and the piece letters by type."""
    return {"board": variant.geometry.kind, "cells": len(variant.geometry.names),
            "pieces": "".join(variant.letters[1:])}


def king_bucket_map(header: dict, ncells: int, label: str) -> list:
    """The header's ``king_buckets``: for each cell, the input block of a side whose own
    king stands there (as that side sees the board, Black's cells mirrored); blocks
    numbered from 0 with none skipped. Absent: one block, every cell 0."""
    kmap = header.get("king_buckets")
    if kmap is None:
        return [0] * ncells
    if (not isinstance(kmap, list) or len(kmap) != ncells
            or not all(type(k) is int and 0 <= k < MAX_KING_BUCKETS for k in kmap)
            or set(kmap) != set(range(max(kmap) + 1))):
        raise NetError(f"{label}: king_buckets must give each of the {ncells} cells a "
                       f"block 0..{MAX_KING_BUCKETS - 1}, none skipped")
    return kmap


cdef class Net:
    """A loaded net: its weights in C arrays and ``rec``, which positions point at."""

    def __cinit__(self):
        self.w1 = self.b1 = self.w2 = NULL
        self.b2 = NULL

    def __dealloc__(self):
        free(self.w1)
        free(self.b1)
        free(self.w2)
        free(self.b2)

    def __init__(self, data: bytes, variant, str label="net"):
        """``data``: the file's bytes; ``variant``: the Variant it will evaluate."""
        self.label = label
        if data[:4] != MAGIC or len(data) < 8:
            raise NetError(f"{label}: not a Quantum net (no QNN1 header)")
        (hlen,) = struct.unpack_from("<I", data, 4)
        try:
            self.header = json.loads(data[8:8 + hlen].decode("utf-8"))
            hidden = int(self.header["hidden"])
            buckets = int(self.header["buckets"])
            bucket_div = int(self.header["bucket_div"])
            scale = int(self.header["scale"])
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            raise NetError(f"{label}: unreadable header ({exc})") from None
        want = board_signature(variant)
        have = {k: self.header.get(k) for k in want}
        if have != want:
            raise NetError(f"{label}: trained for {have}, not for {variant.name} ({want})")
        if not (0 < hidden <= MAX_HIDDEN and 0 < buckets <= MAX_BUCKETS and bucket_div > 0
                and 0 < scale < 100000):
            raise NetError(f"{label}: sizes out of range (hidden {hidden}, buckets {buckets})")
        ntypes = len(want["pieces"])
        ncells = want["cells"]
        king_map = king_bucket_map(self.header, ncells, label)
        nblocks = max(king_map) + 1
        nfeat = nblocks * 2 * ntypes * ncells
        body = memoryview(data)[8 + hlen:]
        sizes = [nfeat * hidden * 2, hidden * 2, buckets * 2 * hidden * 2, buckets * 4]
        if len(body) != sum(sizes):
            raise NetError(f"{label}: {len(body)} bytes of weights, the header needs {sum(sizes)}")
        parts = []
        at = 0
        for size, code in zip(sizes, "hhhi"):
            arr = array(code)
            arr.frombytes(bytes(body[at:at + size]))
            if struct.pack("=H", 1) != struct.pack("<H", 1):
                arr.byteswap()
            parts.append(arr)
            at += size
        w1, b1, w2, b2 = parts
        # The accumulator is b1 plus at most 2 * MAX_PIECES rows of w1: it fits int16.
        if max(map(abs, b1)) + 2 * MAX_PIECES * max(map(abs, w1)) > 32767:
            raise NetError(f"{label}: first-layer weights too large for a 16-bit accumulator")
        # The output sums in 64 bits (nnue.pxd); its bias must leave room for them.
        if max(map(abs, b2)) >= INT32_LIMIT:
            raise NetError(f"{label}: output bias too large")
        self.w1 = <int16_t*> self._copy(w1, 2)
        self.b1 = <int16_t*> self._copy(b1, 2)
        self.w2 = <int16_t*> self._copy(w2, 2)
        self.b2 = <int32_t*> self._copy(b2, 4)
        self.rec.hidden = hidden
        self.rec.ntypes = ntypes
        self.rec.ncells = ncells
        self.rec.nbuckets = buckets
        self.rec.bucket_div = bucket_div
        self.rec.scale = scale
        for c, m in enumerate(mirror_cells(variant.geometry)):
            self.rec.mirror[c] = m
        self.rec.king_buckets = nblocks
        self.rec.block = 2 * ntypes * ncells
        for c, k in enumerate(king_map):
            self.rec.king_bucket[c] = k
        self.rec.w1 = self.w1
        self.rec.b1 = self.b1
        self.rec.w2 = self.w2
        self.rec.b2 = self.b2

    cdef void* _copy(self, arr, int width) except NULL:
        cdef const unsigned char[:] raw = memoryview(arr.tobytes())
        cdef void* out = malloc(max(len(arr), 1) * width)
        if out == NULL:
            raise MemoryError()
        if len(arr):
            memcpy(out, &raw[0], len(arr) * width)
        return out

    @property
    def hidden(self) -> int:
        return self.rec.hidden

    @property
    def king_blocks(self) -> int:
        """Input blocks (1: no king buckets)."""
        return self.rec.king_buckets

    def weights(self) -> tuple:
        """(w1, b1, w2, b2) as the loader checked them, native-endian bytes of int16
        (int32 for b2) in the file's order: the trainer's warm start reads these instead
        of the file's layout."""
        cdef Py_ssize_t h = self.rec.hidden, nb = self.rec.nbuckets
        cdef Py_ssize_t nfeat = self.rec.king_buckets * self.rec.block
        return ((<char*> self.w1)[:nfeat * h * 2], (<char*> self.b1)[:h * 2],
                (<char*> self.w2)[:nb * 2 * h * 2], (<char*> self.b2)[:nb * 4])

    def evaluate(self, Board board) -> int:
        """The net's score of ``board`` (side to move's view), its accumulators built
        from scratch: the reference the incremental updates are tested against."""
        cdef PosRec* p = <PosRec*> malloc(sizeof(PosRec))
        if p == NULL:
            raise MemoryError()
        memcpy(p, board.p, sizeof(PosRec))
        pos_attach_net(p, &self.rec)
        score = pos_net_score(p)
        free(p)
        return score

    def follow(self, Board board, moves) -> tuple:
        """The net's scores along ``moves`` (UCI, legal in turn) and back, with its
        accumulators updated by make and unmake as a search updates them: (scores after
        each move, scores after each unmake). Tests compare them with ``evaluate``."""
        cdef Board b = board.copy()
        forward, back = [], []
        pos_attach_net(b.p, &self.rec)
        try:
            for m in moves:
                b.push(m)
                forward.append(pos_net_score(b.p))
            for _ in moves:
                b.pop()
                back.append(pos_net_score(b.p))
        finally:
            pos_attach_net(b.p, NULL)
        return forward, back
