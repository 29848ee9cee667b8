# Position state over C arrays: placement, piece lists, Zobrist key, make/unmake.
from engine.types cimport cell_t, move_t, piece_t, key_t, MAX_CELLS, MAX_CODES, MAX_PIECES, \
    MAX_HISTORY
from engine.tables cimport TablesRec
from engine.nnue cimport NetRec, MAX_HIDDEN, nn_output
from libc.stdint cimport int8_t, int16_t

cdef struct UndoRec:
    # Everything make_move changes that unmake cannot recompute.
    move_t move
    key_t key
    int16_t halfmove
    cell_t ep
    int8_t castling
    piece_t captured
    piece_t moved           # the moving piece as it was (a pawn before promotion)

cdef struct PosRec:
    const TablesRec* t
    piece_t board[MAX_CELLS]
    int side                # side to move: WHITE or BLACK
    int ep                  # en passant target cell, NO_CELL unless a legal capture there exists
    int castling            # castling rights, bit i = tables castling[i]
    int halfmove            # plies since the last capture or pawn move
    int fullmove
    key_t key               # Zobrist key, updated incrementally
    int king[2]             # cell of each side's royal piece, NO_CELL if none
    int counts[MAX_CODES]   # pieces on the board per piece code
    cell_t plist[2][MAX_PIECES]
    int pcount[2]
    int8_t pidx[MAX_CELLS]  # index of the cell's piece in its side's plist
    int ply                 # entries used in hist
    const NetRec* nn        # the net whose accumulators follow every change, or NULL
    int16_t acc[2][MAX_HIDDEN]  # its accumulator seen from White, from Black
    int acc_block[2]        # first w1 row of the king block each accumulator is built in
    UndoRec hist[MAX_HISTORY]

cdef void pos_clear(PosRec* p, const TablesRec* t) noexcept nogil
cdef void pos_put(PosRec* p, int cell, piece_t pc) noexcept nogil
cdef void pos_remove(PosRec* p, int cell) noexcept nogil
cdef void pos_attach_net(PosRec* p, const NetRec* nn) noexcept nogil
cdef int pawn_attacker(const PosRec* p, int cell, int by) noexcept nogil
cdef bint pos_attacked(const PosRec* p, int cell, int by) noexcept nogil
cdef bint pos_in_check(const PosRec* p) noexcept nogil
cdef bint pos_ep_capturable(PosRec* p, int cell, int by) noexcept nogil
cdef void pos_make(PosRec* p, move_t m) noexcept nogil
cdef void pos_unmake(PosRec* p) noexcept nogil
cdef void pos_make_null(PosRec* p) noexcept nogil
cdef void pos_unmake_null(PosRec* p) noexcept nogil
cdef key_t pos_compute_key(const PosRec* p) noexcept nogil
cdef int pos_repetitions(const PosRec* p) noexcept nogil


cdef inline int pos_net_score(const PosRec* p) noexcept nogil:
    """The attached net's score (p.nn must be set), side to move's view."""
    return nn_output(p.nn, p.acc[p.side], p.acc[p.side ^ 1], p.pcount[0] + p.pcount[1])
