"""Fill the C tables of one variant from the plain data that engine/variant.py compiles.

The layout of every table is documented in tables.pxd; this module only copies.
"""
from libc.string cimport memcpy
from engine.types cimport MAX_CELLS, MAX_VECTORS, MAX_TYPES, MAX_CASTLING, MAX_CASTLE_PATH, \
    MAX_PAWN_CAPS, MAX_PIECES, MAX_MOVES, NO_CELL

# The core's fixed buffer sizes (engine/types.pxd), for the checks engine/variant.py
# makes when it compiles a variant.
LIMITS = {"cells": MAX_CELLS, "vectors": MAX_VECTORS, "types": MAX_TYPES,
          "pieces": MAX_PIECES, "moves": MAX_MOVES}


cdef class CompiledTables:
    """C tables for one variant; built once per variant and shared by its positions."""

    def __init__(self, dict d):
        cdef TablesRec* t = &self.rec
        cdef int a, b, v, i, s
        ncells = d["ncells"]
        nvec = d["nvec"]
        if ncells > MAX_CELLS or nvec > MAX_VECTORS or d["ntypes"] >= MAX_TYPES:
            raise ValueError("variant exceeds the core's limits")
        if d["move_bound"] > MAX_MOVES:
            raise ValueError(f"a position of this variant may have up to {d['move_bound']} "
                             f"moves; the core's move buffers hold {MAX_MOVES}")
        t.ncells = ncells
        t.nvec = nvec
        for a in range(MAX_CELLS):
            for v in range(MAX_VECTORS):
                t.nxt[a][v] = NO_CELL
            for b in range(MAX_CELLS):
                t.dir_from[a][b] = -1
                t.dist[a][b] = 0
        for a in range(ncells):
            for v in range(nvec):
                t.nxt[a][v] = d["nxt"][a][v]
            t.colour[a] = d["colour"][a]
            for b in range(ncells):
                t.dir_from[a][b] = d["dir_from"][a][b]
                t.dist[a][b] = d["dist"][a][b]
        for a in range(MAX_CELLS):
            t.near[a][0] = t.near[a][1] = 0
        for a in range(ncells):
            for b in range(ncells):
                if b == a or (t.dir_from[a][b] >= 0 and t.dist[a][b] == 1):
                    t.near[a][b >> 6] |= (<uint64_t> 1) << (b & 63)
        for v in range(nvec):
            t.opp[v] = d["opp"][v]

        t.ntypes = d["ntypes"]
        for i in range(MAX_TYPES):
            t.slide_mask[i] = 0
            t.leap_mask[i] = 0
            t.promo_limit[i] = 0
        for i in range(1, d["ntypes"] + 1):
            t.slide_mask[i] = d["slide_mask"][i]
            t.leap_mask[i] = d["leap_mask"][i]
            t.promo_limit[i] = d["promo_limit"][i]
        t.pawn_type = d["pawn_type"]
        t.royal_type = d["royal_type"]
        for s in range(2):
            for v in range(MAX_VECTORS):
                t.slide_attackers[s][v] = d["slide_attackers"][s][v] if v < nvec else 0
                t.leap_attackers[s][v] = d["leap_attackers"][s][v] if v < nvec else 0
        t.n_slide_vecs = len(d["slide_vecs"])
        for i, v in enumerate(d["slide_vecs"]):
            t.slide_vecs[i] = v
        t.n_leap_vecs = len(d["leap_vecs"])
        for i, v in enumerate(d["leap_vecs"]):
            t.leap_vecs[i] = v

        t.n_pawn_caps = len(d["pawn_caps"][0])
        if t.n_pawn_caps > MAX_PAWN_CAPS:
            raise ValueError("too many pawn capture vectors")
        for s in range(2):
            t.pawn_push[s] = d["pawn_push"][s]
            for i in range(t.n_pawn_caps):
                t.pawn_caps[s][i] = d["pawn_caps"][s][i]
            for a in range(MAX_CELLS):
                t.double_step[s][a] = 0
                t.promo_zone[s][a] = 0
            for a in d["double_step"][s]:
                t.double_step[s][a] = 1
            for a, z in d["promo_zone"][s].items():
                t.promo_zone[s][a] = z
        t.n_promo_types = len(d["promo_types"])
        for i, v in enumerate(d["promo_types"]):
            t.promo_types[i] = v

        _fill_castling(t, d["castling"])
        self.castling = tuple(d["castling"])

        t.royal_check = d["royal_check"]
        t.castle_path_safe = d["castle_path_safe"]

        for i in range(len(d["z_piece"])):
            for a in range(ncells):
                t.z_piece[i][a] = d["z_piece"][i][a]
        t.z_side = d["z_side"]
        for i in range(16):
            t.z_castling[i] = d["z_castling"][i]
        for a in range(ncells):
            t.z_ep[a] = d["z_ep"][a]

    def with_castling(self, castling) -> CompiledTables:
        """A copy of these tables with other castling rights (Chess960: each start
        position castles with its own rooks). ``castling`` holds a record per right
        index, as engine/variant.py compiles them, or None for a right that does not
        exist; the indices, and so the Zobrist keys of the rights, stay the same."""
        if len(castling) != self.rec.n_castling:
            raise ValueError("a castling record (or None) is needed per right")
        cdef CompiledTables out = CompiledTables.__new__(CompiledTables)
        memcpy(&out.rec, &self.rec, sizeof(TablesRec))
        _fill_castling(&out.rec, castling)
        out.castling = tuple(castling)
        return out


cdef _fill_castling(TablesRec* t, castling):
    """Copy the castling records (None: a right that does not exist) and the rights each
    cell's move clears."""
    cdef int i, j, a
    if len(castling) > MAX_CASTLING:
        raise ValueError("too many castling rights")
    for c in castling:
        if c is not None and (len(c["empty"]) > MAX_CASTLE_PATH
                              or len(c["safe"]) > MAX_CASTLE_PATH):
            raise ValueError("castling path too long")
    t.n_castling = len(castling)
    for a in range(MAX_CELLS):
        t.castle_clear[a] = 0
    for i, c in enumerate(castling):
        if c is None:
            t.castling[i].side = -1
            t.castling[i].king_from = t.castling[i].king_to = NO_CELL
            t.castling[i].rook_from = t.castling[i].rook_to = t.castling[i].uci_to = NO_CELL
            t.castling[i].n_empty = t.castling[i].n_safe = t.castling[i].lift_rook = 0
            continue
        t.castling[i].side = c["side"]
        t.castling[i].king_from = c["king_from"]
        t.castling[i].king_to = c["king_to"]
        t.castling[i].rook_from = c["rook_from"]
        t.castling[i].rook_to = c["rook_to"]
        t.castling[i].uci_to = c["uci_to"]
        t.castling[i].lift_rook = c["lift_rook"]
        t.castling[i].n_empty = len(c["empty"])
        for j, a in enumerate(c["empty"]):
            t.castling[i].empty[j] = a
        t.castling[i].n_safe = len(c["safe"])
        for j, a in enumerate(c["safe"]):
            t.castling[i].safe[j] = a
        t.castle_clear[c["king_from"]] |= 1 << i
        t.castle_clear[c["rook_from"]] |= 1 << i
