# Fog of War belief particles: compact positions, their view in C, their expansion.
from engine.types cimport MAX_CELLS
from engine.position cimport PosRec
from engine.tables cimport TablesRec
from libc.stdint cimport uint8_t, uint64_t

cdef enum:
    FOGGED = 255            # ViewRec.code of a cell the viewer does not see
    HEADER = 6              # particle bytes after the cells: side, castling, ep + 1,
                            # fullmove (2 bytes, little-endian), halfmove (capped at 255)

cdef struct ViewRec:
    # One received view (engine/fog.py's View) plus the lost cells, as C arrays.
    int side                # the viewer, who is to move
    int ncells
    uint8_t code[MAX_CELLS] # FOGGED, 0 (seen empty) or the piece code seen there
    int nseen
    int seen[MAX_CELLS]     # the visible cells, for the quick placement test
    int own_mask            # castling right bits that belong to the viewer
    int own_rights          # the viewer's rights the view states
    int ep                  # en passant cell of the view, or -1
    int fullmove
    uint64_t lost[2]        # lost cells: bit c & 63 of lost[c >> 6]

cdef class ViewCode:
    cdef ViewRec rec
    cdef readonly object variant
    cdef readonly object view

cdef bint view_matches(PosRec* p, const ViewRec* v, bint check_lost) noexcept nogil
cdef void load_particle(PosRec* p, const TablesRec* t, const uint8_t* data) noexcept nogil
cdef void dump_particle(const PosRec* p, uint8_t* out) noexcept nogil
