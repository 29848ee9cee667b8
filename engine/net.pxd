# A loaded net file (net.pyx): its weights in C arrays and the NetRec positions point at.
from libc.stdint cimport int16_t, int32_t
from engine.nnue cimport NetRec

cdef class Net:
    cdef NetRec rec
    cdef int16_t* w1
    cdef int16_t* b1
    cdef int16_t* w2
    cdef int32_t* b2
    cdef readonly dict header
    cdef readonly str label
    cdef void* _copy(self, arr, int width) except NULL
