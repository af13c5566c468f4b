# C declarations of the shanten kernels, for _kernels.pyx and for other Cython code that cimports
# them. The headers ship in mjfast/_core/include (copied from src/ at build time); compile
# against that folder.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t

cdef extern from "mjfast_batch.h" nogil:
    ctypedef struct mj_tables_t:
        const uint8_t *left
        const uint8_t *right  # uint16 little-endian, unaligned
        const uint8_t *lr
        const uint8_t *full
        const int8_t *vec
        const uint8_t *pair
        const int8_t *two
        const int8_t *final
        const uint16_t *wmask
        const uint8_t *void_class
        const int8_t *void_two
        const uint8_t *void_full
        int n_full
        int n_right

    # static in the header: each extension that includes it holds its own copy of these
    # pointers, set at import to the C library's tables (mjfast/_core/_capi.pxd)
    mj_tables_t MJ

    ctypedef struct mj_job_t:
        int op, form, void_rule, coerce
        int sets
        const uint8_t *hands
        const uint8_t *melds
        int64_t melds_stride
        const int8_t *voids
        int void_scalar
        const uint8_t *visible
        int64_t visible_stride
        void *out
        int32_t err[3]

    int64_t mj_run(mj_job_t *job, int64_t start, int64_t end)
    void mj_capped_vector(const uint8_t *c, const uint8_t *cap, int8_t *out)

    int MJ_OP_SHANTEN, MJ_OP_IS_WIN, MJ_OP_WAITS, MJ_OP_EFFECTIVE, MJ_OP_DISCARDS
    int MJ_UNWINNABLE, MJ_NOT_HELD, MJ_INVALID_ROW
    uint32_t MJ_INVALID_MASK
