# Move and hash tables compiled from a variant description (engine/variant.py).
from engine.types cimport cell_t, key_t, move_t, MAX_CELLS, MAX_VECTORS, MAX_TYPES, MAX_CODES, \
    MAX_CASTLING, MAX_CASTLE_PATH, MAX_PAWN_CAPS, KIND_CASTLE, move_to, move_extra, move_kind
from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t

cdef struct CastlingRec:
    int side                            # -1: a right this position's setup lacks (Chess960)
    int king_from
    int king_to
    int rook_from
    int rook_to
    int n_empty                         # cells that must be empty (king and rook excluded)
    cell_t empty[MAX_CASTLE_PATH]
    int n_safe                          # cells the king stands on or crosses
    cell_t safe[MAX_CASTLE_PATH]
    int uci_to                          # the target UCI writes: king_to, or in Chess960
                                        # rook_from (king takes rook)
    bint lift_rook                      # a cell lies beyond the rook on the rank: test the
                                        # king's path without it (it may shield the king)

cdef struct TablesRec:
    int ncells
    int nvec
    cell_t nxt[MAX_CELLS][MAX_VECTORS]  # cell reached from a cell by a vector, NO_CELL off board
    int opp[MAX_VECTORS]                # index of the opposite vector
    int8_t dir_from[MAX_CELLS][MAX_CELLS]   # slide vector leading from a to b, or -1
    uint8_t dist[MAX_CELLS][MAX_CELLS]      # steps along dir_from[a][b]
    uint64_t near[MAX_CELLS][2]         # the cell and those one slide step away, as bits
    uint8_t colour[MAX_CELLS]           # cell colour (bishop colour complex)

    int ntypes
    uint32_t slide_mask[MAX_TYPES]      # vectors a type slides along
    uint32_t leap_mask[MAX_TYPES]       # vectors a type leaps by (one step)
    int pawn_type                       # 0 when the variant has no pawns
    int royal_type                      # 0 when the variant has no royal piece
    # Attack lookup: walking from a target cell along vector v, the first piece found
    # attacks the target when its code's bit is set here (per attacking side).
    uint64_t slide_attackers[2][MAX_VECTORS]
    uint64_t leap_attackers[2][MAX_VECTORS]
    int n_slide_vecs
    int slide_vecs[MAX_VECTORS]         # vectors any piece slides along
    int n_leap_vecs
    int leap_vecs[MAX_VECTORS]          # vectors any piece leaps by

    int pawn_push[2]                    # vector of a pawn's step, per side
    int n_pawn_caps
    int pawn_caps[2][MAX_PAWN_CAPS]     # capture vectors, per side
    uint8_t double_step[2][MAX_CELLS]   # cells a pawn may double-step from
    uint8_t promo_zone[2][MAX_CELLS]    # 0 none, 1 optional, 2 mandatory promotion
    int n_promo_types
    int promo_types[MAX_TYPES]
    int promo_limit[MAX_TYPES]          # 0 no limit, else promote only while count < limit

    int n_castling
    CastlingRec castling[MAX_CASTLING]
    uint8_t castle_clear[MAX_CELLS]     # castling rights lost when a move touches the cell

    bint royal_check                    # moves may not leave the own royal piece attacked
    bint castle_path_safe               # castling may not start, cross or end in attack

    key_t z_piece[MAX_CODES][MAX_CELLS]
    key_t z_side
    key_t z_castling[16]
    key_t z_ep[MAX_CELLS]

cdef class CompiledTables:
    cdef TablesRec rec
    cdef readonly tuple castling        # the castling records (plain data), per right index


cdef inline int uci_target(const TablesRec* t, move_t m) noexcept nogil:
    """The cell a move's UCI text names as its target (a castling move's: ``uci_to``)."""
    if move_kind(m) == KIND_CASTLE:
        return t.castling[move_extra(m)].uci_to
    return move_to(m)
