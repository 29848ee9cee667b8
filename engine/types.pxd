# Shared C-level types and limits for the whole core (see docs/architecture.md).
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint32_t, uint64_t

ctypedef int16_t cell_t     # index of a real cell, 0..ncells-1; NO_CELL off the board
ctypedef int32_t move_t     # from | to << 7 | extra << 14 | kind << 19
ctypedef uint8_t piece_t    # 0 empty, else type | WHITE_BIT or type | BLACK_BIT
ctypedef uint64_t key_t     # Zobrist key

cdef enum:
    MAX_CELLS = 128         # grand has 100, the hexagon 91
    MAX_VECTORS = 32        # move vectors of one geometry (hex: 6 + 6 + 12)
    MAX_TYPES = 16          # piece types, 1..15 (0 unused)
    MAX_CODES = 48          # piece codes: type | colour bit
    MAX_PIECES = 32         # pieces per side (the FEN and view parsers refuse more)
    # Moves in one position. A bound, not a guess: a side has at most MAX_PIECES pieces,
    # none of which has more moves than the most mobile piece type on an empty board (a
    # pawn counted with all its promotion choices), plus its castling moves. Every
    # variant checks that bound against this when it compiles (variant.py, move_bound):
    # the hexagon's 32 queens would reach 32 * 42 = 1344.
    MAX_MOVES = 1536
    MAX_HISTORY = 4096      # plies kept for unmake and repetition
    MAX_CASTLING = 4        # castling rights
    MAX_CASTLE_PATH = 16    # cells one castling move needs empty or safe
    MAX_PAWN_CAPS = 4       # capture vectors of one pawn

cdef enum:
    NO_CELL = -1
    WHITE = 0
    BLACK = 1
    WHITE_BIT = 16
    BLACK_BIT = 32
    TYPE_MASK = 15

# Move kinds (bits 19..21 of a move).
cdef enum:
    KIND_NORMAL = 0
    KIND_DOUBLE = 1         # pawn double step: sets the en passant cell
    KIND_EP = 2             # en passant capture
    KIND_CASTLE = 3         # extra = castling right index; to = king's target
    KIND_PROMO = 4          # extra = promotion type

cdef inline int move_from(move_t m) noexcept nogil:
    return m & 127

cdef inline int move_to(move_t m) noexcept nogil:
    return (m >> 7) & 127

cdef inline int move_extra(move_t m) noexcept nogil:
    return (m >> 14) & 31

cdef inline int move_kind(move_t m) noexcept nogil:
    return (m >> 19) & 7

cdef inline move_t make_move_code(int frm, int to, int extra, int kind) noexcept nogil:
    return frm | (to << 7) | (extra << 14) | (kind << 19)

cdef inline int colour_bit(int side) noexcept nogil:
    return WHITE_BIT << side

cdef inline int colour_of(piece_t p) noexcept nogil:
    return p >> 5

cdef inline int type_of(piece_t p) noexcept nogil:
    return p & TYPE_MASK

# An int another thread may set while C code runs without the GIL (a stop flag): every
# read goes to memory.
cdef extern from *:
    ctypedef int volatile_int "volatile int"
