# C declarations of the fan kernels, for _fan.pxi and for other Cython code that cimports them.
# The headers ship in mjfast/_core/include (copied from src/ at build time); compile against that
# folder.

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t

cdef extern from "mjfast_fan.h" nogil:
    int MF_HASH_SIZE
    int MF_R_SIZE
    int MF_INVALID
    int MF_OP_FAN, MF_OP_MAX_FAN
    int MF_ERR_WIN_NOT_HELD, MF_ERR_FLAGS, MF_ERR_CONCEALED, MF_ERR_WIN_RANGE
    int MF_AT, MF_YJ, MF_456, MF_TWIN, MF_DRAGON
    int MF_SD, MF_AK, MF_AKD, MF_ROB, MF_LAST, MF_TIAN, MF_DI, MF_JUE
    uint32_t *MF_TAB  # the suit table, built by mj_init (one translation unit: _ext.pxd)

    ctypedef struct mf_job_t:
        int coerce
        const uint8_t *hands
        const uint8_t *melds
        int64_t melds_stride
        const uint8_t *conc
        int64_t conc_stride
        const int8_t *voids
        int void_scalar
        int sets
        const int8_t *wins
        int win_scalar
        const uint8_t *flags
        int flag_scalar
        const uint8_t *visible
        int64_t visible_stride
        const int32_t *rules
        int16_t *out
        int8_t *best
        int32_t err[3]

    int MJ_OK, MF_NONE, MF_R_CAP, MF_R_OFFSET
    int mf_lookup(int32_t idx)
    int mf_capped(const int32_t *R, int total)
    int mf_fan_total(const mf_job_t *job, int64_t i, int32_t *err, int *total)
    int mf_max_row(const mf_job_t *job, int64_t i, int32_t *err, int *fan, int *tile)
    int64_t mf_run(mf_job_t *job, int op, int64_t start, int64_t end)
