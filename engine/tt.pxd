# Transposition table: two-entry buckets of 16-byte entries (32 bytes, two to a cache line),
# sized by the Hash option.
from engine.types cimport key_t, move_t
from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t

cdef enum:
    BOUND_NONE = 0
    BOUND_UPPER = 1         # score <= stored (fail low)
    BOUND_LOWER = 2         # score >= stored (fail high)
    BOUND_EXACT = 3

cdef struct TTEntry:
    key_t key
    move_t move
    int16_t score           # mate scores stored relative to this node (see search.pyx)
    int8_t depth
    uint8_t flags           # bound | generation << 2

cdef struct TTRec:
    TTEntry* table          # 64-byte aligned inside ``block``: a bucket never straddles cache lines
    void* block             # what calloc returned (freed)
    uint64_t nbuckets       # power of two; bucket i holds entries 2i and 2i+1
    uint8_t generation

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define QUANTUM_PREFETCH(addr) __builtin_prefetch(addr)
    #else
    #define QUANTUM_PREFETCH(addr) ((void) (addr))
    #endif
    """
    void QUANTUM_PREFETCH(const void* addr) noexcept nogil   # other compilers: no hint

cdef TTEntry* tt_probe(TTRec* tt, key_t key) noexcept nogil
cdef void tt_store(TTRec* tt, key_t key, move_t move, int score, int depth, int bound) noexcept nogil

cdef inline void tt_prefetch(TTRec* tt, key_t key) noexcept nogil:
    """Start loading key's bucket into the cache: called right after a move is made, the
    load overlaps the child's first work instead of stalling its probe."""
    QUANTUM_PREFETCH(&tt.table[(key & (tt.nbuckets - 1)) * 2])


cdef class TranspositionTable:
    cdef TTRec rec
