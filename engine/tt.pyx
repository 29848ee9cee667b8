"""Transposition table shared by the iterations of a search (and kept between moves).

Entries are found by the full 64-bit key, so a hit is a real hit. A bucket holds two
entries; a new entry replaces the one of the same key, else the shallower or older one.
Single-threaded search, so no locking or racy-entry handling is needed.
"""
from libc.stdint cimport uintptr_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

cdef enum:
    CACHE_LINE = 64

ENTRY_BYTES = sizeof(TTEntry)


cdef TTEntry* tt_probe(TTRec* tt, key_t key) noexcept nogil:
    cdef TTEntry* b = &tt.table[(key & (tt.nbuckets - 1)) * 2]
    if b[0].key == key and b[0].flags & 3:
        return &b[0]
    if b[1].key == key and b[1].flags & 3:
        return &b[1]
    return NULL


cdef inline int worth(const TTEntry* e, uint8_t gen) noexcept nogil:
    """Replacement value: depth, minus a penalty for entries of older searches."""
    return e.depth - (8 if (e.flags >> 2) != gen else 0) if e.flags & 3 else -1000


cdef void tt_store(TTRec* tt, key_t key, move_t move, int score, int depth, int bound) noexcept nogil:
    cdef TTEntry* b = &tt.table[(key & (tt.nbuckets - 1)) * 2]
    cdef TTEntry* e
    cdef uint8_t gen = tt.generation & 63
    if b[0].key == key:
        e = &b[0]
    elif b[1].key == key:
        e = &b[1]
    else:
        e = &b[0] if worth(&b[0], gen) <= worth(&b[1], gen) else &b[1]
        e.move = 0
    if e.key == key and bound != BOUND_EXACT and depth < e.depth - 2 and (e.flags >> 2) == gen:
        return
    if move or e.key != key:
        e.move = move
    e.key = key
    e.score = score
    e.depth = depth if depth < 127 else 127
    e.flags = bound | (gen << 2)


cdef class TranspositionTable:
    """A table of ``mb`` megabytes (rounded down to a power of two of buckets)."""

    def __cinit__(self, int mb=16):
        self.rec.table = NULL
        self.rec.block = NULL
        self.rec.nbuckets = 0
        self.resize(mb)

    def __dealloc__(self):
        free(self.rec.block)

    def resize(self, int mb):
        """A new, empty table of ``mb`` megabytes. The new one is allocated before the old
        one is freed: when that fails, MemoryError, and the old table stays as it was."""
        cdef uint64_t want = (<uint64_t> max(mb, 1)) * 1024 * 1024 // (2 * sizeof(TTEntry))
        cdef uint64_t n = 1
        cdef void* block
        while n * 2 <= want:
            n *= 2
        # a line more than the table, so that it can start on a line: calloc aligns to 16
        block = calloc(n * 2 * sizeof(TTEntry) + CACHE_LINE, 1)
        if block == NULL:
            raise MemoryError(f"cannot allocate a {mb} MB hash table; the "
                              f"{self.megabytes:g} MB table stays")
        free(self.rec.block)
        self.rec.block = block
        self.rec.table = <TTEntry*> ((<uintptr_t> block + CACHE_LINE - 1) & ~(<uintptr_t> (CACHE_LINE - 1)))
        self.rec.nbuckets = n
        self.rec.generation = 0

    def clear(self):
        memset(self.rec.table, 0, self.rec.nbuckets * 2 * sizeof(TTEntry))
        self.rec.generation = 0

    def new_search(self):
        """Age the entries of earlier searches (they become cheaper to replace)."""
        self.rec.generation = (self.rec.generation + 1) & 63

    def hashfull(self) -> int:
        """Permille of the first 1000 entries used by the current search (UCI `hashfull`)."""
        cdef int i, used = 0
        cdef int n = min(1000, <int> (self.rec.nbuckets * 2))
        for i in range(n):
            if self.rec.table[i].flags & 3 and (self.rec.table[i].flags >> 2) == self.rec.generation:
                used += 1
        return used * 1000 // n if n else 0

    @property
    def megabytes(self) -> float:
        return self.rec.nbuckets * 2 * sizeof(TTEntry) / (1024 * 1024)
