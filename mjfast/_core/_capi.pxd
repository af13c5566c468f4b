# C declarations of the C library's entry points that the extension itself calls: mj_init (the
# tables), the public function table, and mjfast_shared.h (what the kernels' tests read of the
# tables). The public Cython API is mjfast/capi.pxd.

from libc.stdint cimport uint8_t, uint32_t

cdef extern from "mjfast.h":
    ctypedef struct mj_capi_t:
        pass
    int MJFAST_ABI_VERSION
    int MJ_E_NOMEM
    int mj_init()
    const mj_capi_t *mj_capi()

cdef extern from "mjfast_shared.h" nogil:
    ctypedef struct mj_shared_t:
        const void *tables
        const uint32_t *fan_table
        int complete_patterns
        const uint8_t *raw
        size_t raw_size

    const mj_shared_t *mj_shared()
