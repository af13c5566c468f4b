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

#include "mjfast_columns.h" /* mj_columns_t, MJ_REC_WORD */

#ifndef MJ_COLS_AVX2
#if (defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)))
#define MJ_COLS_AVX2 1
#else
#define MJ_COLS_AVX2 0
#endif
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

/* Suit s's lanes of a 256-bit vector from the words (s: 32-bit lane s) of w by the byte indices
 * of at. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE __m256i mj_by_suit(__m128i w, __m256i at) {
    return _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(w), at);
}

/* One row: its 27 output bytes at out (as mj_col_write) from the block row b (records loaded),
 * with the void rule and the regular form (sev: seven pairs too). */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE void
mj_col_row_avx2(const mj_columns_t *t, const mj_col_row_t *b, uint8_t *out, const int delta,
                const int sev) {
    const __m128i m7f = _mm_set1_epi32(0x7F), mff = _mm_set1_epi32(0xFF), zero = _mm_setzero_si128();
    __m256i rec01 = _mm256_loadu_si256((const __m256i *)b->rec[0]);
    __m256i rec12 = _mm256_loadu_si256((const __m256i *)b->rec[1]);
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
    __m256i c = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)b->c)),
                                        _mm_loadu_si128((const __m128i *)(b->c + 11)), 1);
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
        __m256i left = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)b->left)),
                                               _mm_loadu_si128((const __m128i *)(b->left + 11)), 1);
        y = _mm256_or_si256(left, no);
    }
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(y));
    _mm_storeu_si128((__m128i *)(out + 11), _mm256_extracti128_si256(y, 1)); /* 11-15 twice, the same */
}
#endif

#endif
