/* mjfast column rows by AVX2: one row's 27 answers of discards or effective tiles (the void rule,
 * the regular form, with or without seven pairs) from its three column records, in vector lanes
 * instead of the bit masks of mj_col_mask (mjfast_column_rows.h calls it where the CPU has AVX2;
 * GCC and Clang on x86-64 only; -DMJ_COLS_AVX2=0 leaves it out).
 *
 * The three void choices q are the 32-bit lanes of one 128-bit vector (lane 3 repeats q = 2):
 * the pair classes' entries of MJC.opt2 come by one gather, seven pairs by its arithmetic
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
#include "mjfast_simd.h"    /* MJ_IDX_W1 / W2, MJ_SSSE3 */

#ifndef MJ_COLS_AVX2
#define MJ_COLS_AVX2 MJ_SSSE3 /* x86-64, GCC or Clang, and the SSE2 row words */
#endif

#if MJ_COLS_AVX2
#include <immintrin.h>

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
    const uint8_t *rec[3];   /* the suits' records */
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

/* The suits' ranks of a row of counts c (kinds' lanes, each at most 4), in 32-bit lanes 0-2
 * (lane 3: suit 2 again) for the rank tables base (MJR.base[m]): the row regrouped by suit (ranks
 * 1-8 of suits 0 and 1 in the low half, of suit 2 and the ranks 9 in the high one, as
 * mj_row_words), the base-5 halves of each suit by the multiply-adds of mj_index3_ssse3 (ranks
 * 5-8 times 5 by the weights), then two gathers of MJR (mj_suit_rank). */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE __m128i mj_col_ranks(const int *base, __m256i c) {
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
    __m256i nines = _mm256_unpackhi_epi16(q, zero); /* dwords 4-6 */
    __m128i left = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(r, _mm256_setr_epi32(0, 2, 4, 4, 0, 0, 0, 0)));
    __m128i right = _mm256_castsi256_si128(_mm256_add_epi32(
        _mm256_permutevar8x32_epi32(r, _mm256_setr_epi32(1, 3, 5, 5, 0, 0, 0, 0)),
        _mm256_permutevar8x32_epi32(nines, _mm256_setr_epi32(4, 5, 6, 6, 0, 0, 0, 0))));
    return _mm_add_epi32(_mm_i32gather_epi32(base, left, 4),
                         _mm_and_si128(_mm_i32gather_epi32((const int *)MJR.pos, right, 2), _mm_set1_epi32(0xFFFF)));
}

/* mj_col_rows_load (reg) by SIMD: each row read into the kinds' lanes (mj_kinds_read) and checked
 * there, the suits' ranks by mj_col_ranks, and the records prefetched for the second pass
 * rather than copied. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE int64_t
mj_col_vrows_load(const mj_columns_t *t, const mj_job_t *job, int64_t i, int64_t rows,
                  mj_col_vrow_t *blk, const int delta, const int reg) {
    const uint8_t *src = job->hands + 27 * i, *rec = t->rec[delta > 0];
    const int8_t *voids = job->voids ? job->voids + i : NULL;
    const uint8_t *vis = job->visible ? job->visible + job->visible_stride * i : NULL;
    const int *base = (const int *)MJR.base[delta > 0];
    const __m256i zero = _mm256_setzero_si256(), four = _mm256_set1_epi8(4), once = _mm256_setr_epi8(MJ_KINDS_ONCE);
    (void)reg;
    for (int64_t j = 0; j < rows; j++, src += 27) {
        mj_col_vrow_t *b = &blk[j];
        __m256i c = mj_kinds_read(src);
        int void_suit = voids ? mj_once_i8(voids + j) : job->void_scalar;
        /* tiles + 256 * (the counts' excess over 4), as mj_row_load3 */
        __m256i sum = _mm256_add_epi64(_mm256_sad_epu8(_mm256_and_si256(c, once), zero),
                                       _mm256_slli_epi64(_mm256_sad_epu8(_mm256_subs_epu8(c, four), zero), 8));
        __m128i s2 = _mm_add_epi64(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        int bad = _mm_cvtsi128_si32(_mm_add_epi64(s2, _mm_unpackhi_epi64(s2, s2))) != 13 + (delta < 0);
        __m256i left = _mm256_sub_epi8(four, c);
        if (vis) { /* hand + seen at most 4 (saturating: any seen byte from 252 up fails too) */
            __m256i seen = mj_kinds_read(vis + job->visible_stride * j);
            __m256i over = _mm256_subs_epu8(_mm256_adds_epu8(c, seen), four);
            bad |= _mm256_movemask_epi8(_mm256_cmpeq_epi8(over, zero)) != -1;
            left = _mm256_sub_epi8(left, seen);
        }
        if (delta > 0) /* a kind held four times: no draw of it */
            bad |= _mm256_movemask_epi8(_mm256_cmpeq_epi8(c, four)) != 0;
        if (bad | ((unsigned)(void_suit + 1) > 3u)) return j;
        __m128i rank = mj_col_ranks(base, c);
        uint64_t r01 = (uint64_t)_mm_cvtsi128_si64(rank);
        b->rec[0] = rec + (size_t)MJ_REC * (uint32_t)r01;
        b->rec[1] = rec + (size_t)MJ_REC * (r01 >> 32);
        b->rec[2] = rec + (size_t)MJ_REC * (uint32_t)_mm_extract_epi32(rank, 2);
        MJ_PREFETCH(b->rec[0]);
        MJ_PREFETCH(b->rec[1]);
        MJ_PREFETCH(b->rec[2]);
        _mm256_storeu_si256((__m256i *)b->c, c);
        if (delta > 0) _mm256_storeu_si256((__m256i *)b->left, left);
        b->dead = void_suit >= 0 ? MJ_INF * 0x01010101u & ~(0xFFu << (8 * void_suit)) : 0;
        if (void_suit == 2) b->dead = MJ_INF * 0x0101u;
    }
    return rows;
}

/* Suit s's lanes of a 256-bit vector from the words (s: 32-bit lane s) of w by the byte indices
 * of at. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE __m256i mj_by_suit(__m128i w, __m256i at) {
    return _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(w), at);
}

/* One row: its 27 output bytes at out (as mj_col_write) from the block row b, with the void rule
 * and the regular form (sev: seven pairs too). */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE void
mj_col_row_avx2(const mj_columns_t *t, const mj_col_vrow_t *b, uint8_t *out, const int delta,
                const int sev) {
    const __m128i m7f = _mm_set1_epi32(0x7F), mff = _mm_set1_epi32(0xFF), zero = _mm_setzero_si128();
    __m128i rec1 = _mm_loadu_si128((const __m128i *)b->rec[1]);
    __m256i rec01 = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)b->rec[0])), rec1, 1);
    __m256i rec12 = _mm256_inserti128_si256(_mm256_castsi128_si256(rec1), _mm_loadu_si128((const __m128i *)b->rec[2]), 1);
    /* the records' words, lane s (lane 3: suit 2 again) */
    __m128i v = _mm256_castsi256_si128(_mm256_blend_epi32(
        _mm256_permutevar8x32_epi32(rec01, _mm256_setr_epi32(3, 7, 7, 7, 7, 7, 7, 7)),
        _mm256_permutevar8x32_epi32(rec12, _mm256_set1_epi32(7)), 0xFC));
    /* void choice q (lane q): the live suits a = (1, 0, 0) and c = (2, 2, 1) */
    __m128i k = _mm_and_si128(v, m7f), seven = _mm_and_si128(_mm_srli_epi32(v, 8), mff);
    __m128i ka = _mm_shuffle_epi32(k, 0x01), kc = _mm_shuffle_epi32(k, 0x5A);
    __m128i e = _mm_i32gather_epi32((const int *)t->opt2, _mm_or_si128(_mm_slli_epi32(ka, 7), kc), 4);
    __m128i dead = _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)b->dead));
    __m128i rq = _mm_add_epi32(_mm_srli_epi32(e, 26), dead), d7 = _mm_set1_epi32(MJ_INF), x = zero;
    if (sev) { /* need = 7 - pairs, x = need - singles of the live suits: need + max(x, 0) */
        __m128i s2 = _mm_add_epi32(_mm_shuffle_epi32(seven, 0x01), _mm_shuffle_epi32(seven, 0x5A));
        __m128i need = _mm_sub_epi32(_mm_set1_epi32(7), _mm_and_si128(s2, _mm_set1_epi32(15)));
        x = _mm_sub_epi32(need, _mm_srli_epi32(s2, 4));
        d7 = _mm_add_epi32(_mm_add_epi32(need, _mm_max_epi32(x, zero)), dead);
    }
    __m128i dq = _mm_min_epu32(rq, d7);
    __m128i dm = _mm_min_epu32(dq, _mm_shuffle_epi32(dq, 0x4E));
    dm = _mm_min_epu32(dm, _mm_shuffle_epi32(dm, 0xB1)); /* d in every lane */
    /* the columns attaining d of suit s (lane s): of the void choices q != s whose regular form
     * attains it (e: columns of a in bits 0-9, of c in 16-25) */
    e = _mm_and_si128(e, _mm_cmpeq_epi32(rq, dm));
    __m128i cols = _mm_and_si128(
        _mm_or_si128(_mm_shuffle_epi8(e, _mm_setr_epi8(4, 5, -1, -1, 0, 1, -1, -1, 2, 3, -1, -1, -1, -1, -1, -1)),
                     _mm_shuffle_epi8(e, _mm_setr_epi8(8, 9, -1, -1, 10, 11, -1, -1, 6, 7, -1, -1, -1, -1, -1, -1))),
        _mm_set1_epi32(0x3FF));
    /* rank masks of suit s: even (counts) and odd kinds */
    __m128i m9 = _mm_set1_epi32(0x1FF), col9 = _mm_and_si128(_mm_srli_epi32(v, 16), m9);
    __m128i z = _mm_and_si128(col9, _mm_cmpgt_epi32(cols, _mm_set1_epi32(0x1FF))), even = zero, odd = zero;
    if (sev) { /* seven pairs attaining d with suit q void, lane q, then by suit */
        __m128i st = _mm_cmpeq_epi32(d7, dm);
        __m128i so = delta < 0 ? _mm_and_si128(st, _mm_cmpgt_epi32(zero, x)) : st;
        odd = _mm_or_si128(_mm_shuffle_epi32(so, 0x01), _mm_shuffle_epi32(so, 0x5A));
        if (delta > 0) {
            __m128i se = _mm_and_si128(st, _mm_cmpgt_epi32(x, zero));
            even = _mm_or_si128(_mm_shuffle_epi32(se, 0x01), _mm_shuffle_epi32(se, 0x5A));
        }
    }
    if (delta < 0) { /* every discard keeps d where suit s void gives d, or by column 0 */
        __m128i all = _mm_or_si128(_mm_cmpeq_epi32(dq, dm), _mm_cmpeq_epi32(_mm_and_si128(cols, _mm_set1_epi32(1)), _mm_set1_epi32(1)));
        even = _mm_or_si128(even, all);
        odd = _mm_or_si128(odd, all);
    }
    __m128i za = _mm_or_si128(z, _mm_and_si128(even, m9)), zb = _mm_or_si128(z, _mm_and_si128(odd, m9));
    /* to the kinds' lanes */
    const __m256i by_rank = _mm256_setr_epi8(MJ_BY_RANK), bit = _mm256_setr_epi8(MJ_RANK_BIT);
    __m256i c = _mm256_loadu_si256((const __m256i *)b->c);
    __m256i rank = _mm256_blendv_epi8(mj_by_suit(za, by_rank), mj_by_suit(zb, by_rank),
                                      _mm256_slli_epi16(c, 7)); /* odd counts take zb */
    __m256i col = _mm256_or_si256(_mm256_shuffle_epi8(rec01, _mm256_setr_epi8(MJ_REC_01)),
                                  _mm256_shuffle_epi8(rec12, _mm256_setr_epi8(MJ_REC_12)));
    col = _mm256_and_si256(col, mj_by_suit(_mm_srli_epi32(cols, 1), _mm256_setr_epi8(MJ_BY_SUIT)));
    /* 0xFF where the probe neither keeps nor lowers d */
    __m256i no = _mm256_andnot_si256(_mm256_cmpeq_epi8(_mm256_and_si256(rank, bit), bit),
                                     _mm256_cmpeq_epi8(col, _mm256_setzero_si256()));
    __m256i y;
    if (delta < 0) { /* the shanten d - 1 where kept, else d; MJ_NOT_HELD where not held */
        __m256i sh = _mm256_sub_epi8(_mm256_broadcastb_epi8(_mm_sub_epi32(dm, _mm_set1_epi32(1))), no);
        y = _mm256_blendv_epi8(sh, _mm256_set1_epi8(MJ_NOT_HELD), _mm256_cmpeq_epi8(c, _mm256_setzero_si256()));
    } else { /* copies left where lowered, else -1 */
        y = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)b->left), no);
    }
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(y));
    _mm_storeu_si128((__m128i *)(out + 11), _mm256_extracti128_si256(y, 1)); /* 11-15 twice, the same */
}
#endif

#endif
