# Move generation over PosRec: legal moves (or pseudo-legal where the variant has no
# check rule) and perft.
from engine.types cimport move_t, volatile_int
from engine.position cimport PosRec
from libc.stdint cimport uint64_t

cdef int generate_moves(PosRec* p, move_t* out) noexcept nogil
cdef int generate_noisy(PosRec* p, move_t* out) noexcept nogil
cdef uint64_t perft(PosRec* p, int depth, volatile_int* stop) noexcept nogil
