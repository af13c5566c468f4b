/* mjfast row checks in bulk: the meld-free 4-set rows of a job that pass the fast paths' check
 * (counts of at most 4, lo..hi tiles, hand + visible at most 4, a void suit in -1..2), for
 * mj_check (mjfast_batch.h), which checks a whole batch before its kernel writes a row.
 *
 * A filter only: a row it stops at goes to the general path's check (mj_row_load), which is the
 * one set of row rules and names the error; a row it passes the general path would pass too.
 *
 * Plain C, no Python; the layer over mjfast_kernels.h (mj_job_t, mj_row_bad, MJ.isa).
 */
#ifndef MJFAST_CHECK_H
#define MJFAST_CHECK_H

#include "mjfast_kernels.h" /* mj_job_t, mj_row_t, mj_row_bad, mj_row_over, MJ, MJ_AVX2 */

#if MJ_AVX2
/* Rows from i (to end) while they pass, four at a time, each read as 32 bytes (its 27 and 5 of
 * the next row, masked off): so it stops before the last row of [i, end), whose bytes may end
 * the caller's array. Per four rows, their 16-bit tile totals side by side in one word (psadbw
 * of each, shifted into place and summed across the lanes) and the maximum of their counts
 * (of hand + visible, saturating, with vis) for the bound 4. Returns the first row not passed. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE int64_t
mj_rows_fit4_as(const mj_job_t *job, int64_t i, int64_t end, const int lo, const int hi, const int vis) {
    const __m256i zero = _mm256_setzero_si256(), four = _mm256_set1_epi8(4);
    const __m256i mask = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                          -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0);
    const uint64_t ONES16 = 0x0001000100010001ULL, want = (uint64_t)lo * ONES16;
    const int64_t vs = job->visible_stride;
    __m256i v0 = zero; /* the one visible row of stride 0, read without going past its 27 bytes */
    if (vis && vs == 0) {
        uint8_t one[32] = {0};
        memcpy(one, job->visible, 27);
        v0 = _mm256_loadu_si256((const __m256i *)one);
    }
    for (; i + 4 < end; i += 4) {
        const uint8_t *src = job->hands + 27 * i;
        __m256i r[4], over = zero, sad = zero;
        MJ_PREFETCH_AHEAD(src, 2);
        if (vis && vs) MJ_PREFETCH_AHEAD(job->visible + vs * i, 2);
        for (int k = 0; k < 4; k++) {
            r[k] = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(src + 27 * k)), mask);
            sad = _mm256_or_si256(sad, _mm256_slli_epi64(_mm256_sad_epu8(r[k], zero), 16 * k));
            if (vis) {
                __m256i v = vs ? _mm256_loadu_si256((const __m256i *)(job->visible + vs * (i + k))) : v0;
                r[k] = _mm256_adds_epu8(r[k], _mm256_and_si256(v, mask));
            }
            over = _mm256_max_epu8(over, r[k]);
        }
        __m128i s = _mm_add_epi16(_mm256_castsi256_si128(sad), _mm256_extracti128_si256(sad, 1));
        uint64_t tiles = (uint64_t)_mm_cvtsi128_si64(_mm_add_epi16(s, _mm_unpackhi_epi64(s, s)));
        /* each total lo, or with hi = lo + 1 lo or lo + 1 (a total below lo sets high bits) */
        int bad = lo == hi ? tiles != want : ((tiles - want) & ~ONES16) != 0;
        bad |= !_mm256_testz_si256(_mm256_subs_epu8(over, four), _mm256_subs_epu8(over, four));
        if (job->voids) { /* each in -1..2: + 1 in 0..3, by bytes */
            int32_t v4;
            memcpy(&v4, job->voids + i, 4);
            __m128i v = _mm_add_epi8(_mm_cvtsi32_si128(v4), _mm_set1_epi8(1));
            bad |= _mm_cvtsi128_si32(_mm_and_si128(v, _mm_set1_epi8((char)0xFC))) != 0;
        }
        if (bad) break;
    }
    return i;
}
#endif

/* Rows from i (to end) while they pass, one at a time (mj_row_bad, mj_row_over). */
static MJ_ALWAYS_INLINE int64_t mj_rows_fit1(const mj_job_t *job, int64_t i, int64_t end, const int lo,
                                             const int hi, const int vis) {
    for (; i < end; i++) {
        mj_row_t row;
        mj_row_read(&row, job->hands + 27 * i);
        int void_suit = job->voids ? mj_once_i8(job->voids + i) : job->void_scalar;
        int bad = mj_row_bad(&row, lo, hi) | ((unsigned)(void_suit + 1) > 3u);
        if (vis) {
            mj_row_t seen;
            mj_row_read(&seen, job->visible + job->visible_stride * i);
            bad |= mj_row_over(&row, &seen);
        }
        if (bad) break;
    }
    return i;
}

/* FIT(job, i, end, lo, hi, vis) with the sizes and visible rows of a job as constants. */
#define MJ_FIT_AS(FIT, size)                                                                       \
    do {                                                                                            \
        if (size == MJ_SIZE_COMPLETE) return job->visible ? FIT(job, i, end, 14, 14, 1) : FIT(job, i, end, 14, 14, 0); \
        if (size == MJ_SIZE_WAITING) return job->visible ? FIT(job, i, end, 13, 13, 1) : FIT(job, i, end, 13, 13, 0); \
        return job->visible ? FIT(job, i, end, 13, 14, 1) : FIT(job, i, end, 13, 14, 0);          \
    } while (0)

#if MJ_AVX2
__attribute__((target("avx2"))) static int64_t mj_rows_fit4(const mj_job_t *job, int64_t i, int64_t end,
                                                             int size) {
    MJ_FIT_AS(mj_rows_fit4_as, size);
}
#endif

static int64_t mj_rows_fit1_sized(const mj_job_t *job, int64_t i, int64_t end, int size) {
    MJ_FIT_AS(mj_rows_fit1, size);
}
#undef MJ_FIT_AS

/* The rows from i (to end) of a meld-free 4-set job whose rows are `size` (MJ_SIZE_*) that pass
 * the fast paths' check: the first row not passed (end when all do). */
static int64_t mj_rows_fit(const mj_job_t *job, int64_t i, int64_t end, int size) {
#if MJ_AVX2
    if (MJ.isa == MJ_ISA_AVX2 && (job->voids || (unsigned)(job->void_scalar + 1) <= 3u))
        i = mj_rows_fit4(job, i, end, size);
#endif
    return mj_rows_fit1_sized(job, i, end, size);
}

#endif
