# The Python-facing Board (board.pyx); the search reads its PosRec directly.
from engine.types cimport move_t
from engine.position cimport PosRec
from engine.tables cimport CompiledTables, TablesRec

cdef str uci_text(tuple names, list letters, const TablesRec* t, move_t m)

cdef class Board:
    cdef PosRec* p
    cdef readonly object variant
    cdef CompiledTables _tables
    cdef list _stack
    cdef _load(self, PosRec* q, data, CompiledTables tables)
    cdef _check_ep(self, PosRec* q, int ep)
    cdef str _uci(self, move_t m)
    cdef int _legal(self, move_t* out)
    cdef _compact(self)
