# C declarations of the statistics kernels (src/mjfast_stats.h: the sampled main job;
# src/mjfast_exact.h: exact deal counts), for _stats.pxi and for other Cython code that cimports
# them. The headers ship in mjfast/_core/include; compile against that folder.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t

cdef extern from "mjfast_stats.h" nogil:
    int MS_BINS

    ctypedef struct ms_tally_t:
        int64_t hist_void[16]  # MS_BINS
        int64_t hist_free[16]
        int64_t eff_kinds, eff_copies
        int64_t waits_hands, waits_sum

    void ms_run_chunk(uint64_t key, uint64_t chunk, int64_t hands, int tiles, ms_tally_t *t)
    void ms_deal_rows(uint64_t key, uint64_t chunk, int64_t hands, int tiles, uint8_t *out)
    int64_t ms_analyse_rows(const uint8_t *rows, int64_t n, int tiles, int32_t *out)

cdef extern from "mjfast_exact.h" nogil:
    int MX_BINS
    int MX_MAX_TILES
    int mx_exact(int n, const uint8_t *copies, int void_rule, int form, uint64_t *hist)
