/* mjfast shanten rows: the batch fast path of shanten on meld-free 4-set rows (mj_plain_shanten,
 * which mj_plain_rows of mjfast_column_rows.h dispatches to) and the C API's one-row call
 * (mj_plain_row): each row read once, checked and turned into its three suit indices together
 * (SSE2, SSSE3 or AVX2 where the CPU has them), then the class tables.
 *
 * Plain C, no Python; the layer over mjfast_kernels.h (MJ, mj_job_t, mj_plain_best, MJ_BLOCK)
 * and mjfast_simd.h.
 */
#ifndef MJFAST_SHANTEN_ROWS_H
#define MJFAST_SHANTEN_ROWS_H

#include "mjfast_kernels.h" /* MJ, mj_job_t, mj_row_t, mj_plain_best, mj_plain_seven, MJ_BLOCK */

/* Read a row once, check it like mj_row_bad (counts of at most 4, lo..hi tiles: nonzero when
 * bad) and put its three suit indices in idx (meaningless when bad): with SSE2 the three suits
 * together (with pshufb and pmaddubsw where ssse3 is set, the caller being compiled for it). */
static MJ_ALWAYS_INLINE int mj_row_index3(const uint8_t *src, const int lo, const int hi,
                                          uint64_t *idx, const int ssse3) {
#if MJ_SSE2
    __m128i x01, x2n;
    (void)ssse3;
#if MJ_SSSE3
    if (ssse3) {
        mj_row_words_ssse3(src, &x01, &x2n);
        mj_index3_ssse3(x01, x2n, idx);
        return mj_row_check(x01, x2n, lo, hi);
    }
#endif
    mj_row_words(src, &x01, &x2n);
    mj_index3_sse2(x01, x2n, idx);
    return mj_row_check(x01, x2n, lo, hi);
#else
    (void)ssse3;
    mj_row_t row;
    mj_row_read(&row, src);
    /* constant suits, so that row stays in registers */
    idx[0] = mj_suit_index(&row, 0);
    idx[1] = mj_suit_index(&row, 1);
    idx[2] = mj_suit_index(&row, 2);
    return mj_row_bad(&row, lo, hi);
#endif
}

/* The tables of the two headline shanten cases, copied into a loop's registers. */
typedef struct {
    const uint8_t *vf, *vpair, *full, *pair;
    const int8_t *vlast, *fsh;
    size_t nf;
} mj_fast_t;

static MJ_ALWAYS_INLINE mj_fast_t mj_fast_tables(void) {
    mj_fast_t t = {MJ.void_full, MJ.void_pair, MJ.full, MJ.pair,
                   MJ.void_last, MJ.final_shanten, (size_t)MJ.n_full};
    return t;
}

/* Shanten of a meld-free 13- or 14-tile hand of suit indices i0..i2 in the two headline cases:
 * Sichuan rules (void_rule: every form, no void declared; mj_build_void_pair) or the regular
 * form without the void rule. */
static MJ_ALWAYS_INLINE int mj_fast_shanten(const mj_fast_t *t, size_t i0, size_t i1, size_t i2,
                                            const int void_rule) {
    if (void_rule) {
        size_t p = t->vpair[(size_t)t->vf[i0] << 8 | t->vf[i1]];
        return t->vlast[p << 8 | t->vf[i2]];
    }
    size_t k0 = t->full[i0], k1 = t->full[i1], k2 = t->full[i2];
    return t->fsh[t->pair[k0 * t->nf + k1] * t->nf + k2];
}

/* Shanten of one meld-free row of 13 or 14 tiles without building a hand (the row read once)
 * into *sh: 1, or 0 when the row must take the general path (which reports it if it is bad).
 * Compiled once per option combination. */
static MJ_ALWAYS_INLINE int mj_plain_row(const uint8_t *src, int void_suit, int *sh,
                                         const int void_rule, const int reg, const int sev) {
    if (!sev || (void_rule && reg)) { /* the suit indices are all it needs of the row */
        uint64_t idx[3];
        if (mj_row_index3(src, 13, 14, idx, 0) | ((unsigned)(void_suit + 1) > 3u)) return 0;
        if (sev == void_rule && (!void_rule || void_suit < 0)) { /* a headline case */
            const mj_fast_t t = mj_fast_tables();
            *sh = mj_fast_shanten(&t, idx[0], idx[1], idx[2], void_rule);
        } else if (sev) { /* never MJ_INF */
            *sh = mj_plain_void(idx[0], idx[1], idx[2], void_suit) - 1;
        } else {
            int k[3] = {MJ.full[idx[0]], MJ.full[idx[1]], MJ.full[idx[2]]};
            *sh = mj_shanten_of(mj_plain_best(k, void_rule, void_suit));
        }
        return 1;
    }
    mj_row_t row;
    mj_row_read(&row, src);
    if (mj_row_bad(&row, 13, 14) | ((unsigned)(void_suit + 1) > 3u)) return 0;
    /* constant suits, so that row stays in registers */
    uint64_t i0 = mj_suit_index(&row, 0), i1 = mj_suit_index(&row, 1), i2 = mj_suit_index(&row, 2);
    int best = MJ_INF;
    if (reg) {
        int k[3] = {MJ.full[i0], MJ.full[i1], MJ.full[i2]};
        best = mj_plain_best(k, void_rule, void_suit);
    }
    /* Seven pairs needs at least 7 - pairs tiles (fewer pairs still with a suit void), so it
     * can only win when that bound is below the regular distance: rare on dealt hands. */
    if (sev && 7 - mj_row_pairs(&row) < best) {
        int32_t idx[3];
        int n[3], odd[3];
        for (int s = 0; s < 3; s++) mj_suit_load(&row, s, &idx[s], &n[s], &odd[s]);
        int sv = mj_plain_seven(n, odd, void_rule, void_suit);
        best = sv < best ? sv : best;
    }
    *sh = mj_shanten_of(best);
    return 1;
}

/* Shanten of `rows` meld-free rows in the two headline cases (mj_fast_shanten), with the tables
 * in registers and no void suit to check or choose. Returns the rows written. */
static MJ_ALWAYS_INLINE int64_t mj_plain_fast_rows(const uint8_t *src, int8_t *restrict out,
                                                   int64_t rows, const int void_rule,
                                                   const int ssse3) {
    const mj_fast_t t = mj_fast_tables();
    for (int64_t j = 0; j < rows; j++, src += 27) {
        uint64_t idx[3];
        if (mj_row_index3(src, 13, 14, idx, ssse3)) return j;
        out[j] = (int8_t)mj_fast_shanten(&t, idx[0], idx[1], idx[2], void_rule);
    }
    return rows;
}

#if MJ_SSSE3
__attribute__((target("ssse3"))) static int64_t mj_plain_fast_rows_ssse3(const uint8_t *src,
                                                                        int8_t *restrict out,
                                                                        int64_t rows, int void_rule) {
    return void_rule ? mj_plain_fast_rows(src, out, rows, 1, 1) : mj_plain_fast_rows(src, out, rows, 0, 1);
}
#endif

#if MJ_AVX2
/* mj_plain_fast_rows four rows at a time: two in each pair of AVX2 words (a row in each 128-bit
 * lane), one check of the four, their suit indices stored side by side for the table lookups.
 * Four rows holding a bad one, and the last rows, go one by one. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE int64_t
mj_plain_fast_quads(const uint8_t *src, int8_t *restrict out, int64_t rows, const int void_rule) {
    const mj_fast_t t = mj_fast_tables();
    int64_t j = 0;
    for (; j + 4 <= rows; j += 4, src += 4 * 27) {
        __m256i a01, a2n, b01, b2n;
        mj_rows_words_avx2(src, src + 27, &a01, &a2n);
        mj_rows_words_avx2(src + 2 * 27, src + 3 * 27, &b01, &b2n);
        MJ_PREFETCH_AHEAD(src, 2);
        if (!mj_rows4_ok_avx2(a01, a2n, b01, b2n, 13, 14)) break;
        union {
            __m256i v[2];
            uint32_t i[16]; /* row r's suit indices at 4r .. 4r + 2 */
        } idx;
        idx.v[0] = mj_index6_avx2(a01, a2n);
        idx.v[1] = mj_index6_avx2(b01, b2n);
        for (int r = 0; r < 4; r++)
            out[j + r] = (int8_t)mj_fast_shanten(&t, idx.i[4 * r], idx.i[4 * r + 1],
                                                 idx.i[4 * r + 2], void_rule);
    }
    return j + mj_plain_fast_rows(src, out + j, rows - j, void_rule, 1);
}

__attribute__((target("avx2"))) static int64_t mj_plain_fast_rows_avx2(const uint8_t *src,
                                                                      int8_t *restrict out,
                                                                      int64_t rows, int void_rule) {
    return void_rule ? mj_plain_fast_quads(src, out, rows, 1) : mj_plain_fast_quads(src, out, rows, 0);
}
#endif

/* Shanten of meld-free rows: the hot batch case. Returns how many rows from i on it wrote (all
 * good, at most MJ_BLOCK); the caller sends the first row it did not write through the general
 * path. */
static MJ_ALWAYS_INLINE int64_t mj_plain_shanten_as(const mj_job_t *job, int64_t i, int64_t end,
                                                    const int void_rule, const int reg, const int sev) {
    const uint8_t *src = job->hands + 27 * i;
    int8_t *restrict out = (int8_t *)job->out + i;
    int64_t rows = end - i < MJ_BLOCK ? end - i : MJ_BLOCK;
    /* a few rows (one hand through the C API's mj_shanten) skip the dispatch */
    if (rows >= 16 && reg && sev == void_rule && !job->voids && job->void_scalar == -1) {
#if MJ_AVX2
        if (MJ.isa == MJ_ISA_AVX2) return mj_plain_fast_rows_avx2(src, out, rows, void_rule);
#endif
#if MJ_SSSE3
        if (MJ.isa >= MJ_ISA_SSSE3) return mj_plain_fast_rows_ssse3(src, out, rows, void_rule);
#endif
        return mj_plain_fast_rows(src, out, rows, void_rule, 0);
    }
    const int8_t *voids = job->voids ? job->voids + i : NULL;
    for (int64_t j = 0; j < rows; j++, src += 27) {
        int void_suit = voids ? mj_once_i8(voids + j) : job->void_scalar;
        int v;
        if (!mj_plain_row(src, void_suit, &v, void_rule, reg, sev)) return j;
        out[j] = (int8_t)v;
    }
    return rows;
}

static int64_t mj_plain_shanten(const mj_job_t *job, int64_t i, int64_t end) {
    int reg = job->form != MJ_FORM_SEVEN_PAIRS, sev = job->form != MJ_FORM_REGULAR;
    if (job->void_rule) {
        if (reg && sev) return mj_plain_shanten_as(job, i, end, 1, 1, 1);
        if (reg) return mj_plain_shanten_as(job, i, end, 1, 1, 0);
        return mj_plain_shanten_as(job, i, end, 1, 0, 1);
    }
    if (reg && sev) return mj_plain_shanten_as(job, i, end, 0, 1, 1);
    if (reg) return mj_plain_shanten_as(job, i, end, 0, 1, 0);
    return mj_plain_shanten_as(job, i, end, 0, 0, 1);
}

#endif
