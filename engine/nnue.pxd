# A learnt evaluation (NNUE): the net's C record, and the accumulator updates make and
# unmake apply (position.pyx) and the output evaluate reads (evaluate.pyx).
#
# Features: (relative colour, piece type, cell) seen from each side, Black's cells
# mirrored rank-wise, in the block of that side's king bucket (the region its own king
# stands in; one block when the net has no buckets); one accumulator per perspective; a
# squared clipped ReLU; one output per material bucket. Integer weights; the bounds that
# keep the integers in range are checked when a net loads (net.pyx, Net), so these loops
# need no overflow tests.
from libc.stdint cimport int16_t, int32_t
from engine.types cimport MAX_CELLS, MAX_TYPES, TYPE_MASK, NO_CELL, colour_of, type_of

cdef enum:
    MAX_HIDDEN = 256            # accumulator width per perspective
    MAX_BUCKETS = 16            # output buckets by pieces on the board
    MAX_KING_BUCKETS = 16       # input blocks by the perspective's king cell
    NN_QA = 255                 # the accumulator's scale: 1.0 is 255, clipped to 0..255
    NN_QB = 1024                # the output weights' scale

cdef struct NetRec:
    int hidden                  # accumulator width, <= MAX_HIDDEN
    int ntypes                  # piece types 1..ntypes take part
    int ncells
    int nbuckets
    int bucket_div              # bucket = (pieces on board - 2) // bucket_div, capped
    int scale                   # output scale: centipawns per unit of the net's output
    int mirror[MAX_CELLS]       # the cell Black sees where White sees this one
    int king_buckets            # input blocks, 1: none
    int king_bucket[MAX_CELLS]  # the block of an own king on this cell (as its side sees it)
    int block                   # features per block: 2 * ntypes * ncells
    const int16_t* w1           # [feature][hidden], feature = bucket * block
                                #   + (rel * ntypes + type - 1) * ncells + cell
    const int16_t* b1           # [hidden]
    const int16_t* w2           # [bucket][2 * hidden]: side to move's half, then the other's
    const int32_t* b2           # [bucket]


cdef inline int nn_feature(const NetRec* n, int persp, int first, int pc, int cell) noexcept nogil:
    """Row of w1 for piece code pc on cell, seen from side ``persp`` whose king's block
    starts at row ``first``."""
    cdef int rel = 0 if colour_of(pc) == persp else 1
    cdef int c = cell if persp == 0 else n.mirror[cell]
    return first + (rel * n.ntypes + type_of(pc) - 1) * n.ncells + c


cdef inline int nn_block_start(const NetRec* n, int persp, int king) noexcept nogil:
    """First w1 row of the block side ``persp`` sees its pieces in with its king on cell
    ``king`` (NO_CELL, a captured king: the first block)."""
    if king == NO_CELL:
        return 0
    return n.king_bucket[king if persp == 0 else n.mirror[king]] * n.block


cdef inline void nn_add(const NetRec* n, int16_t* acc, int row) noexcept nogil:
    cdef const int16_t* w = n.w1 + <Py_ssize_t> row * n.hidden
    cdef int i
    for i in range(n.hidden):
        acc[i] += w[i]


cdef inline void nn_sub(const NetRec* n, int16_t* acc, int row) noexcept nogil:
    cdef const int16_t* w = n.w1 + <Py_ssize_t> row * n.hidden
    cdef int i
    for i in range(n.hidden):
        acc[i] -= w[i]


cdef inline void nn_shift(const NetRec* n, int16_t* acc, int row_from, int row_to) noexcept nogil:
    """A piece moved: its old row out, its new row in, in one pass."""
    cdef const int16_t* a = n.w1 + <Py_ssize_t> row_from * n.hidden
    cdef const int16_t* b = n.w1 + <Py_ssize_t> row_to * n.hidden
    cdef int i
    for i in range(n.hidden):
        acc[i] += b[i] - a[i]


cdef inline long long nn_half(const int16_t* acc, const int16_t* w, int hidden) noexcept nogil:
    """One perspective's share of the output at scale QA * QA * QB: sum of clip(acc)^2 * w.

    Bound: clip(acc) * w is at most 255 * 32767 (int32), times clip(acc) at most
    2.2e9, summed in 64 bits over at most MAX_HIDDEN terms: no overflow for any weights."""
    cdef long long total = 0
    cdef int32_t v
    cdef int i
    for i in range(hidden):
        v = acc[i]
        if v < 0:
            v = 0
        elif v > NN_QA:
            v = NN_QA
        total += <long long> (v * w[i]) * v
    return total


cdef inline int nn_output(const NetRec* n, const int16_t* own, const int16_t* other,
                          int pieces) noexcept nogil:
    """The net's score in centipawns for the side whose accumulator is ``own``."""
    cdef int b = (pieces - 2) // n.bucket_div
    cdef const int16_t* w
    cdef long long total
    if b < 0:
        b = 0
    elif b >= n.nbuckets:
        b = n.nbuckets - 1
    w = n.w2 + <Py_ssize_t> b * 2 * n.hidden
    total = (nn_half(own, w, n.hidden) + nn_half(other, w + n.hidden, n.hidden)) // NN_QA
    total += n.b2[b]
    return <int> (total * n.scale // (NN_QA * NN_QB))
