# C declarations of the forecast engine (src/mjfast_forecast.h), for _forecast.pxi and for other
# Cython code that cimports them. The headers ship in mjfast/_core/include; compile against that
# folder.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t

cdef extern from "mjfast_forecast.h" nogil:
    int FC_MAX_DRAWS
    int FC_OBJ_WIN, FC_OBJ_VALUE
    int FC_ERR_STATES, FC_ERR_NOMEM, FC_ERR_EMPTY_POOL, FC_ERR_BYTES, FC_ERR_WORK, FC_ERR_STOPPED
    int FC_ERR_FLUSH, FC_POLL

    ctypedef struct fc_job_t:
        const uint8_t *hands
        const uint8_t *melds
        int64_t melds_stride
        const int8_t *voids
        int void_scalar
        const uint8_t *visible
        int64_t visible_stride
        int draws, exchanges, backward, flush, keep, objective, sets, complete
        const int32_t *rules
        const double *pay
        int n_pay
        int64_t max_states
        int64_t max_bytes
        int64_t max_work
        int (*poll)(void *) noexcept nogil
        void *poll_ctx
        double *ready
        double *win
        double *value
        int8_t *best
        uint8_t *is_win
        int64_t peak_states
        int64_t peak_bytes
        int64_t peak_work
        int32_t err[3]

    int64_t fc_run(fc_job_t *job, int64_t start, int64_t end)
