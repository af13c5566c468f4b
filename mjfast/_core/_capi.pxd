# The tables of the C library (src/mjfast_shared.h), for _kernels, _fan and _stats: each points
# its kernels' table pointers (MJ of mjfast_kernels.h, MF_TAB of mjfast_fan.h) at them on import,
# so there is one copy per process. The public API is mjfast/capi.pxd.

from libc.stdint cimport uint8_t, uint32_t
from cpython.pycapsule cimport PyCapsule_GetPointer

cdef extern from "mjfast_shared.h" nogil:
    ctypedef struct mj_shared_t:
        const void *tables
        const uint32_t *fan_table
        int complete_patterns
        const uint8_t *raw
        size_t raw_size

    const mj_shared_t *mj_shared()


cdef inline const mj_shared_t *shared_tables() except NULL:
    """The library's tables, from the capsule of mjfast._core._capi (which builds them)."""
    from mjfast._core._capi import SHARED
    return <const mj_shared_t *>PyCapsule_GetPointer(SHARED, "mjfast._core._capi.shared")
