/* mjfast column rows by AVX2: one row's 27 answers of discards or effective tiles (the regular
 * form, with or without seven pairs and the void rule) from its three column records, in vector lanes
 * instead of the bit masks of mj_col_mask (mjfast_column_rows.h calls it where the CPU has AVX2,
 * MJ.isa; GCC and Clang on x86-64 only; -DMJ_AVX2=0 leaves it out).
 *
 * The three void choices q are the 32-bit lanes of one 128-bit vector (lane 3 repeats q = 2):
 * the pair classes' entries of MJC.opt2 come by scalar loads, seven pairs by its arithmetic
 * (mj_seven_probe: a discard keeps it only from an odd count, and only while singles are short
 * of need; a draw lowers it from an odd count always, from an even one while singles exceed
 * need). The 27 kinds are the bytes of one 256-bit vector, tiles 0-15 in the low half and 11-26
 * in the high one (the two overlapping stores of mj_col_write): each suit's word (its columns
 * attaining d, its rank masks) is spread to its kinds by a byte shuffle, and a kind keeps /
 * lowers d where its record byte shares a column with the suit's (columns 1-8), or its bit is
 * set in the suit's rank mask (column 9, a tied void choice, column 0, seven pairs by parity).
 *
 * Plain C, no Python; the layer over mjfast_columns.h (the record layout, MJC.opt2).
 */
#ifndef MJFAST_COLUMN_AVX2_H
#define MJFAST_COLUMN_AVX2_H

#include "mjfast_columns.h" /* mj_columns_t, mj_job_t, MJR, MJ_REC_WORD */
#include "mjfast_simd.h"    /* MJ_IDX_W1 / W2, MJ_AVX2 */

#if MJ_AVX2

/* Lanes of the 256-bit vectors of kinds: byte p of the low half is tile p, of the high half tile
 * 11 + p. MJ_BY_SUIT picks byte 4s (suit s's word in a 128-bit vector of three), MJ_BY_RANK byte
 * 4s or, for rank 9, 4s + 1 (a 9-bit rank mask), MJ_RANK_BIT the kind's bit in that byte. */
#define MJ_BY_SUIT 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8
#define MJ_BY_RANK 0, 0, 0, 0, 0, 0, 0, 0, 1, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 8, 8, 8, 8, 8, 8, 8, 8, 9
#define MJ_RANK_BIT                                                                                \
    1, 2, 4, 8, 16, 32, 64, -128, 1, 1, 2, 4, 8, 16, 32, 64, 4, 8, 16, 32, 64, -128, 1, 1, 2, 4, 8, \
        16, 32, 64, -128, 1
/* The record bytes 0-8 of suits 0 and 1 ([rec 0 | rec 1]), of suits 1 and 2 ([rec 1 | rec 2]) to
 * the kinds' lanes (-128: none). */
#define MJ_REC_01                                                                                  \
    0, 1, 2, 3, 4, 5, 6, 7, 8, -128, -128, -128, -128, -128, -128, -128, 2, 3, 4, 5, 6, 7, 8, -128, \
        -128, -128, -128, -128, -128, -128, -128, -128
#define MJ_REC_12                                                                                  \
    -128, -128, -128, -128, -128, -128, -128, -128, -128, 0, 1, 2, 3, 4, 5, 6, -128, -128, -128,   \
        -128, -128, -128, -128, 0, 1, 2, 3, 4, 5, 6, 7, 8

/* A row between the two passes of the AVX2 path. */
typedef struct {
    uint8_t c[32];           /* counts in the kinds' lanes (tiles 0-15, then 11-26) */
    uint8_t left[32];        /* copies left, the same lanes (effective tiles) */
    uint32_t at[3];          /* the suits' records: byte offsets in the table (MJC.rec[m]) */
    uint32_t dead;           /* as mj_col_row_t */
} mj_col_vrow_t;

/* A row of 27 counts read once (see mj_row_t) into the kinds' lanes: two 16-byte loads, tiles 0-15
 * and 11-26, the high one's tiles 11-15 then taken from the low one, so that each count comes
 * from one read. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE __m256i mj_kinds_read(const uint8_t *src) {
    __m128i lo = _mm_loadu_si128((const __m128i *)src), hi = _mm_loadu_si128((const __m128i *)(src + 11));
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+x"(lo), "+x"(hi));
#endif
    hi = _mm_blendv_epi8(hi, _mm_srli_si128(lo, 11), _mm_setr_epi8(-1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

/* The kinds' lanes with tiles 11-15 once (their second copy 0): for sums over the row. */
#define MJ_KINDS_ONCE                                                                              \
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, -1, -1, -1, -1,  \
        -1, -1, -1, -1, -1, -1, -1

/* The byte offsets at[3] of the records of the suits of a row of counts c (kinds' lanes, each at
 * most 4) by their ranks (at_left: MJC.at_left[m]): the row regrouped by suit (ranks 1-8 of
 * suits 0 and 1 in the low half, of suit 2 and the ranks 9 in the high one, as mj_row_words),
 * the base-5 halves of each suit by the multiply-adds of mj_index3_ssse3 (ranks 5-8 times 5 by
 * the weights), side by side (ranks 1-4 in dwords 0-2, 5-9 in 4-6) and stored, then the loads of
 * mj_suit_rank, as offsets (scalar: a gather costs more on the CPUs tried). */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE void mj_col_ranks(const uint32_t *at_left,
                                                                        const uint32_t *at_right,
                                                                        __m256i c, uint32_t *at) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i z = _mm256_or_si256(
        _mm256_shuffle_epi8(c, _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, -128, 7, 8, 9,
                                                10, 11, 12, 13, 14, -128, -128, 6, -128, 15, -128, -128, -128)),
        _mm256_shuffle_epi8(_mm256_permute4x64_epi64(c, 0x4E),
                            _mm256_setr_epi8(-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
                                             -128, -128, -128, -128, 5, -128, -128, -128, -128, -128, -128,
                                             -128, -128, 8, -128, -128, -128, -128, -128, -128, -128)));
    __m256i q = _mm256_maddubs_epi16(z, _mm256_set_epi16(1, 1, 1, 1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1,
                                                         MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1,
                                                         MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1));
    /* dwords: ranks 1-4 of suits 0, 1 (lanes 0, 2) and 2 (4), 5 x ranks 5-8 (lanes 1, 3, 5) */
    __m256i r = _mm256_madd_epi16(q, _mm256_set1_epi64x((int64_t)MJ_IDX_W2 | (int64_t)(5 * MJ_IDX_W2) << 32));
    __m256i nines = _mm256_unpackhi_epi16(q, zero); /* dwords 4-6; dword 7 is 0 */
    uint32_t lr[8]; /* ranks 1-4 of the suits in 0-2, ranks 5-9 in 4-6 */
    _mm256_storeu_si256((__m256i *)lr, _mm256_add_epi32(_mm256_permutevar8x32_epi32(r, _mm256_setr_epi32(0, 2, 4, 4, 1, 3, 5, 5)),
                                                       _mm256_permutevar8x32_epi32(nines, _mm256_setr_epi32(7, 7, 7, 7, 4, 5, 6, 6))));
    for (int s = 0; s < 3; s++) at[s] = at_left[lr[s]] + at_right[lr[4 + s]];
}

/* The check of a row of counts c (kinds' lanes) of mj_col_vrows_load_as, with its visible counts
 * (vis: read at seen) or none: its tile total + 256 * the sum of the counts' excess over 4 (or of
 * hand + seen's: saturating, any seen byte from 252 up fails too) in 64-bit lanes to add up, as
 * mj_row_check; its copies left into *left. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE __m256i mj_col_vcheck(__m256i c, const uint8_t *seen,
                                                                            __m256i *left, const int vis) {
    const __m256i zero = _mm256_setzero_si256(), four = _mm256_set1_epi8(4);
    __m256i over = _mm256_subs_epu8(c, four);
    *left = _mm256_sub_epi8(four, c);
    if (vis) {
        __m256i v = mj_kinds_read(seen);
        over = _mm256_or_si256(over, _mm256_subs_epu8(_mm256_adds_epu8(c, v), four));
        *left = _mm256_sub_epi8(*left, v);
    }
    return _mm256_add_epi64(_mm256_sad_epu8(_mm256_and_si256(c, _mm256_setr_epi8(MJ_KINDS_ONCE)), zero),
                            _mm256_slli_epi64(_mm256_sad_epu8(over, zero), 8));
}

/* The sum of the four 64-bit lanes of x. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE uint64_t mj_sum4x64(__m256i x) {
    __m128i s2 = _mm_add_epi64(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
    return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(s2, _mm_unpackhi_epi64(s2, s2)));
}

/* A checked row of counts c, copies left and dead void choices (mj_col_dead) into b, with its
 * records' offsets (the records prefetched for the second pass rather than copied). */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE void
mj_col_vrow_fill(const mj_columns_t *t, mj_col_vrow_t *b, __m256i c, __m256i left, uint32_t dead,
                 const int delta) {
    const uint8_t *rec = t->rec[delta > 0];
    mj_col_ranks(t->at_left[delta > 0], t->at_right, c, b->at);
    for (int s = 0; s < 3; s++) MJ_PREFETCH(rec + b->at[s]);
    _mm256_storeu_si256((__m256i *)b->c, c);
    if (delta > 0) _mm256_storeu_si256((__m256i *)b->left, left);
    b->dead = dead;
}

/* mj_col_rows_load (reg) by SIMD: each row read into the kinds' lanes (mj_kinds_read) and checked
 * there (mj_col_vcheck), the suits' ranks by mj_col_ranks, and the records prefetched for the
 * second pass rather than copied. Unlike it, it keeps effective tiles' rows holding a kind four
 * times (mj_col_kinds answers that kind -1). Two rows checked at a time (their totals side by
 * side in one word) took 3-4 instructions a row less but 8% more time on discards. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE int64_t
mj_col_vrows_load_as(const mj_columns_t *t, const mj_job_t *job, int64_t i, int64_t rows,
                     mj_col_vrow_t *blk, const int delta, const int has_voids, const int has_vis) {
    const uint8_t *src = job->hands + 27 * i;
    const int8_t *voids = has_voids ? job->voids + i : NULL;
    const uint8_t *vis = has_vis ? job->visible + job->visible_stride * i : NULL;
    const int void_scalar = job->void_scalar; /* read once: the block's stores might alias it */
    const uint32_t dead = mj_col_dead(void_scalar);
    const int64_t vis_stride = job->visible_stride;
    const uint32_t want = 13 + (delta < 0); /* the row's total; a count above 4 adds 256 or more */
    for (int64_t j = 0; j < rows; j++) {
        __m256i c = mj_kinds_read(src + 27 * j), left;
        MJ_PREFETCH_AHEAD(src + 27 * j, 1);
        if (vis) MJ_PREFETCH_AHEAD(vis + vis_stride * j, 1);
        int v = voids ? mj_once_i8(voids + j) : void_scalar;
        __m256i s = mj_col_vcheck(c, vis ? vis + vis_stride * j : NULL, &left, has_vis);
        if ((uint32_t)mj_sum4x64(s) != want || (unsigned)(v + 1) > 3u) return j;
        mj_col_vrow_fill(t, &blk[j], c, left, voids ? mj_col_dead(v) : dead, delta);
    }
    return rows;
}

/* mj_col_vrows_load_as with a job's per-row void suits and visible rows (present or not) as
 * constants: loops without their tests. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE int64_t
mj_col_vrows_load(const mj_columns_t *t, const mj_job_t *job, int64_t i, int64_t rows,
                  mj_col_vrow_t *blk, const int delta, const int reg) {
    (void)reg;
    if (job->voids)
        return job->visible ? mj_col_vrows_load_as(t, job, i, rows, blk, delta, 1, 1)
                            : mj_col_vrows_load_as(t, job, i, rows, blk, delta, 1, 0);
    return job->visible ? mj_col_vrows_load_as(t, job, i, rows, blk, delta, 0, 1)
                        : mj_col_vrows_load_as(t, job, i, rows, blk, delta, 0, 0);
}

/* The records of a row (in the table rec): [suit 0 | suit 1] and [suit 1 | suit 2]. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE void mj_col_recs(const uint8_t *rec, const mj_col_vrow_t *b,
                                                                        __m256i *r01, __m256i *r12) {
    __m128i rec1 = _mm_loadu_si128((const __m128i *)(rec + b->at[1]));
    *r01 = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(rec + b->at[0]))), rec1, 1);
    *r12 = _mm256_inserti128_si256(_mm256_castsi128_si256(rec1), _mm_loadu_si128((const __m128i *)(rec + b->at[2])), 1);
}

/* What a row's kinds need of its void choices, in 32-bit lane s of each 128-bit lane (one row in
 * each): the columns 1-8 attaining d of suit s (col8), its rank masks of even and odd counts
 * (even, odd: column 9, and with discards the tied void choice and column 0; seven pairs), and
 * the distance d (in every lane; minus 1 with discards). */
typedef struct {
    __m256i col8, even, odd, d;
} mj_col_q_t;

/* A row's entries of the class-pair tables, by scalar loads (a gather costs more on the CPUs tried)
 * of the classes in its records (in the table rec; byte MJ_REC_WORD is the class: bit 7 is 0,
 * the column 9 ranks start at bit 16): with the void rule (vr), of MJC.opt2 for each void choice q
 * (lane q, lane 3: q = 2 again; its live suits a = (1, 0, 0) and c = (2, 2, 1)); without, of
 * MJC.opt3 for each suit s against the other two (lane s). */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE __m128i mj_col_pairs(const mj_columns_t *t,
                                                                           const uint8_t *rec,
                                                                           const mj_col_vrow_t *b,
                                                                           const int vr) {
    rec += MJ_REC_WORD;
    uint32_t k0 = rec[b->at[0]], k1 = rec[b->at[1]], k2 = rec[b->at[2]];
    if (!vr) {
        const uint8_t *pair = t->pair;
        const uint32_t nf = (uint32_t)t->n_full, np = (uint32_t)t->n_pair;
        int e2 = t->opt3[k2 * np + pair[k0 * nf + k1]];
        return _mm_setr_epi32(t->opt3[k0 * np + pair[k1 * nf + k2]], t->opt3[k1 * np + pair[k0 * nf + k2]], e2, e2);
    }
    int e2 = (int)t->opt2[k0 << 7 | k1];
    return _mm_setr_epi32((int)t->opt2[k1 << 7 | k2], (int)t->opt2[k0 << 7 | k2], e2, e2);
}

/* mj_col_q_t of two rows at once from their records' words v (lane s: suit s, lane 3: suit 2
 * again), their entries e of mj_col_pairs and their dead void choices (lane q;
 * mj_col_row_t.dead), with (vr) or without the void rule, the regular form (sev: seven pairs
 * too). With the void rule lane q is void choice q (live suits a = (1, 0, 0) and c = (2, 2, 1)),
 * without it every lane holds the hand's distances. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE mj_col_q_t
mj_col_voids(__m256i v, __m256i e, __m256i dead, const int delta, const int vr, const int sev) {
    const __m256i zero = _mm256_setzero_si256(), m9 = _mm256_set1_epi32(0x1FF);
    mj_col_q_t r;
    __m256i rq = vr ? _mm256_add_epi32(_mm256_srli_epi32(e, 26), dead) : _mm256_srli_epi32(e, 10);
    __m256i d7 = _mm256_set1_epi32(MJ_INF), x = zero;
    if (sev) { /* need = 7 - pairs, x = need - singles of the live suits: need + max(x, 0) */
        __m256i seven = _mm256_and_si256(_mm256_srli_epi32(v, 8), _mm256_set1_epi32(0xFF));
        __m256i s2 = _mm256_add_epi32(_mm256_shuffle_epi32(seven, 0x01), _mm256_shuffle_epi32(seven, 0x5A));
        if (!vr) s2 = _mm256_add_epi32(_mm256_shuffle_epi32(seven, 0x00), _mm256_shuffle_epi32(s2, 0x00));
        __m256i need = _mm256_sub_epi32(_mm256_set1_epi32(7), _mm256_and_si256(s2, _mm256_set1_epi32(15)));
        x = _mm256_sub_epi32(need, _mm256_srli_epi32(s2, 4));
        d7 = _mm256_add_epi32(need, _mm256_max_epi32(x, zero));
        if (vr) d7 = _mm256_add_epi32(d7, dead);
    }
    __m256i dq = _mm256_min_epu32(rq, d7), dm = dq;
    if (vr) {
        dm = _mm256_min_epu32(dq, _mm256_shuffle_epi32(dq, 0x4E));
        dm = _mm256_min_epu32(dm, _mm256_shuffle_epi32(dm, 0xB1)); /* d in every lane */
    }
    /* the columns attaining d of suit s (lane s): of the void choices q != s whose regular form
     * attains it (e: columns of a in bits 0-9, of c in 16-25); without the void rule, of e */
    e = _mm256_and_si256(e, _mm256_cmpeq_epi32(rq, dm));
    __m256i cols = vr ? _mm256_or_si256(_mm256_shuffle_epi8(e, _mm256_setr_epi8(4, 5, -1, -1, 0, 1, -1, -1, 2, 3, -1, -1, -1, -1, -1, -1,
                                                                 4, 5, -1, -1, 0, 1, -1, -1, 2, 3, -1, -1, -1, -1, -1, -1)),
                        _mm256_shuffle_epi8(e, _mm256_setr_epi8(8, 9, -1, -1, 10, 11, -1, -1, 6, 7, -1, -1, -1, -1, -1, -1,
                                                                 8, 9, -1, -1, 10, 11, -1, -1, 6, 7, -1, -1, -1, -1, -1, -1)))
                      : e;
    cols = _mm256_and_si256(cols, _mm256_set1_epi32(0x3FF));
    /* column 9: its ranks where it attains d */
    __m256i z = _mm256_and_si256(_mm256_and_si256(_mm256_srli_epi32(v, 16), m9),
                                 _mm256_cmpgt_epi32(cols, m9));
    __m256i even = zero, odd = zero;
    if (sev) { /* seven pairs attaining d with suit q void, lane q, then by suit */
        __m256i st = _mm256_cmpeq_epi32(d7, dm);
        __m256i so = delta < 0 ? _mm256_and_si256(st, _mm256_cmpgt_epi32(zero, x)) : st;
        odd = vr ? _mm256_or_si256(_mm256_shuffle_epi32(so, 0x01), _mm256_shuffle_epi32(so, 0x5A)) : so;
        if (delta > 0) {
            __m256i se = _mm256_and_si256(st, _mm256_cmpgt_epi32(x, zero));
            even = vr ? _mm256_or_si256(_mm256_shuffle_epi32(se, 0x01), _mm256_shuffle_epi32(se, 0x5A)) : se;
        }
    }
    if (delta < 0) { /* every discard keeps d where suit s void gives d, or by column 0 */
        const __m256i one = _mm256_set1_epi32(1);
        __m256i all = _mm256_cmpeq_epi32(_mm256_and_si256(cols, one), one);
        if (vr) all = _mm256_or_si256(all, _mm256_cmpeq_epi32(dq, dm));
        even = _mm256_or_si256(even, all);
        odd = _mm256_or_si256(odd, all);
        dm = _mm256_sub_epi32(dm, one);
    }
    r.col8 = _mm256_srli_epi32(cols, 1);
    r.even = _mm256_or_si256(z, _mm256_and_si256(even, m9));
    r.odd = _mm256_or_si256(z, _mm256_and_si256(odd, m9));
    r.d = dm;
    return r;
}

/* Writes a row's 27 bytes at out (as mj_col_write) from its block row b, its records r01 / r12
 * (mj_col_recs) and its mj_col_q_t's lanes h (0 or 1: the 128-bit lane of q). */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE void
mj_col_kinds(uint8_t *out, const mj_col_vrow_t *b, __m256i r01, __m256i r12, const mj_col_q_t *q,
             const int h, const int delta) {
    const __m256i by_rank = _mm256_setr_epi8(MJ_BY_RANK), bit = _mm256_setr_epi8(MJ_RANK_BIT);
    /* suit s's word of a q vector (lane s of q's lane h) to the kinds of suit s, by the indices at */
#define MJ_BY_SUIT_OF(w, at)                                                                       \
    _mm256_shuffle_epi8(h ? _mm256_permute4x64_epi64(w, 0xEE) : _mm256_permute4x64_epi64(w, 0x44), at)
    __m256i c = _mm256_loadu_si256((const __m256i *)b->c);
    __m256i rank = _mm256_blendv_epi8(MJ_BY_SUIT_OF(q->even, by_rank), MJ_BY_SUIT_OF(q->odd, by_rank),
                                      _mm256_slli_epi16(c, 7)); /* odd counts take odd */
    __m256i col = _mm256_or_si256(_mm256_shuffle_epi8(r01, _mm256_setr_epi8(MJ_REC_01)),
                                  _mm256_shuffle_epi8(r12, _mm256_setr_epi8(MJ_REC_12)));
    col = _mm256_and_si256(col, MJ_BY_SUIT_OF(q->col8, _mm256_setr_epi8(MJ_BY_SUIT)));
#undef MJ_BY_SUIT_OF
    /* 0xFF where the probe neither keeps nor lowers d */
    __m256i no = _mm256_andnot_si256(_mm256_cmpeq_epi8(_mm256_and_si256(rank, bit), bit),
                                     _mm256_cmpeq_epi8(col, _mm256_setzero_si256()));
    __m256i y;
    if (delta < 0) { /* the shanten d - 1 where kept, else d; MJ_NOT_HELD where not held */
        __m128i d = h ? _mm256_extracti128_si256(q->d, 1) : _mm256_castsi256_si128(q->d);
        __m256i sh = _mm256_sub_epi8(_mm256_broadcastb_epi8(d), no);
        y = _mm256_blendv_epi8(sh, _mm256_set1_epi8(MJ_NOT_HELD), _mm256_cmpeq_epi8(c, _mm256_setzero_si256()));
    } else { /* copies left where lowered, else -1; -1 for a kind held four times (no draw) */
        no = _mm256_or_si256(no, _mm256_cmpeq_epi8(c, _mm256_set1_epi8(4)));
        y = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)b->left), no);
    }
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(y));
    _mm_storeu_si128((__m128i *)(out + 11), _mm256_extracti128_si256(y, 1)); /* 11-15 twice, the same */
}

/* Rows b[0] and b[pair] (pair 0: one row) to out and out + 27 * pair: mj_col_voids of both at
 * once, then mj_col_kinds of each. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE void
mj_col_rows_avx2(const mj_columns_t *t, const mj_col_vrow_t *b, uint8_t *out, const int pair,
                 const int delta, const int vr, const int sev) {
    const mj_col_vrow_t *b1 = b + pair;
    __m256i a01, a12, b01, b12;
    const uint8_t *rec = t->rec[delta > 0];
    mj_col_recs(rec, b, &a01, &a12);
    mj_col_recs(rec, b1, &b01, &b12);
    /* the records' words (lanes 0-3: row b[0], 4-7: b[pair]) */
    __m256i v = _mm256_blend_epi32(
        _mm256_blend_epi32(_mm256_permutevar8x32_epi32(a01, _mm256_setr_epi32(3, 7, 7, 7, 7, 7, 7, 7)),
                           _mm256_permutevar8x32_epi32(a12, _mm256_set1_epi32(7)), 0x0C),
        _mm256_blend_epi32(_mm256_permutevar8x32_epi32(b01, _mm256_setr_epi32(3, 3, 3, 3, 3, 7, 7, 7)),
                           _mm256_permutevar8x32_epi32(b12, _mm256_set1_epi32(7)), 0xC0),
        0xF0);
    __m256i dead = _mm256_cvtepu8_epi32(_mm_insert_epi32(_mm_cvtsi32_si128((int)b->dead), (int)b1->dead, 1));
    __m256i e = _mm256_inserti128_si256(_mm256_castsi128_si256(mj_col_pairs(t, rec, b, vr)), mj_col_pairs(t, rec, b1, vr), 1);
    mj_col_q_t q = mj_col_voids(v, e, dead, delta, vr, sev);
    mj_col_kinds(out, b, a01, a12, &q, 0, delta);
    if (pair) mj_col_kinds(out + 27, b1, b01, b12, &q, 1, delta);
}
#endif

#endif
