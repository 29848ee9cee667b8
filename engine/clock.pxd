# The monotonic clock of the C core: deadlines of the searches (search.pyx, aleacore.pyx,
# through searchkit) and of the belief step (particles.pyx). An inline function in a .pxd
# needs no .pyx: each module that cimports it compiles its own copy.
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC


cdef inline double now() noexcept nogil:
    """Monotonic seconds (an arbitrary origin: only differences and deadlines mean anything)."""
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9
