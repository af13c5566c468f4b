# C declarations of the shanten kernels, for _kernels.pxi and for other Cython code that cimports
# them. The headers ship in mjfast/_core/include (copied from src/ at build time); compile
# against that folder.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t

cdef extern from "mjfast_batch.h" nogil:
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
    int64_t mj_check(mj_job_t *job, int64_t start, int64_t end)
    void mj_capped_vector(const uint8_t *c, const uint8_t *cap, int8_t *out)

    int MJ_OP_SHANTEN, MJ_OP_IS_WIN, MJ_OP_WAITS, MJ_OP_EFFECTIVE, MJ_OP_DISCARDS
    int MJ_UNWINNABLE, MJ_NOT_HELD, MJ_INVALID_ROW
    uint32_t MJ_INVALID_MASK
