/* mjfast rows by SIMD: the three suit indices of a row of 27 counts, its count check and its tile
 * total computed together (SSE2 on x86-64; SSSE3 and AVX2 in functions compiled for them, which
 * mjfast_kernels.h calls where the CPU has them). The shanten kernels' batch loops use them.
 *
 * Plain C, no Python and no tables; the layer over mjfast_row.h (mj_row_t's read-once rule).
 */
#ifndef MJFAST_SIMD_H
#define MJFAST_SIMD_H

#include "mjfast_row.h" /* MJ_SWAR, MJ_ALWAYS_INLINE */

/* SSE2 (every x86-64 CPU) for the suit indices of the shanten batch paths; -DMJ_SSE2=0 builds the
 * SWAR path instead (to test it). */
#ifndef MJ_SSE2
#if MJ_SWAR && (defined(__x86_64__) || defined(_M_X64))
#define MJ_SSE2 1
#else
#define MJ_SSE2 0
#endif
#endif
#if MJ_SSE2
#include <emmintrin.h>
#endif
/* SSSE3 (pmaddubsw), where the CPU has it (checked at run time), for the batch loop of the two
 * headline shanten cases; GCC and Clang only (a function compiled for SSSE3 beside the rest).
 * -DMJ_SSSE3=0 leaves it out. */
#ifndef MJ_SSSE3
#if MJ_SSE2 && (defined(__GNUC__) || defined(__clang__))
#define MJ_SSSE3 1
#else
#define MJ_SSSE3 0
#endif
#endif
#if MJ_SSSE3
#include <immintrin.h>
#endif

#if MJ_SSE2
/* A row read once (see mj_row_t) as x01 = ranks 1-8 of suits 0 and 1, x2n = ranks 1-8 of suit 2
 * then the rank-9 counts in 16-bit lanes 4-6. */
static MJ_ALWAYS_INLINE void mj_row_words(const uint8_t *src, __m128i *x01, __m128i *x2n) {
    __m128i x0 = _mm_loadl_epi64((const __m128i *)src);
    __m128i x1 = _mm_loadl_epi64((const __m128i *)(src + 9));
    __m128i x2 = _mm_loadl_epi64((const __m128i *)(src + 18));
    uint64_t nines = src[8] | (uint64_t)src[17] << 16 | (uint64_t)src[26] << 32;
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+x"(x0), "+x"(x1), "+x"(x2), "+r"(nines));
#endif
    *x01 = _mm_unpacklo_epi64(x0, x1);
    *x2n = _mm_unpacklo_epi64(x2, _mm_cvtsi64_si128((long long)nines));
}

/* mj_row_words, then nonzero unless the row's counts are at most 4 and it holds lo..hi tiles:
 * tiles + 256 * (the counts' excess over 4) from psadbw (when no count is above 4, the bytes of
 * x01 + x2n are at most 8 and sum to the tiles). */
static MJ_ALWAYS_INLINE int mj_row_load3(const uint8_t *src, const int lo, const int hi,
                                         __m128i *x01, __m128i *x2n) {
    mj_row_words(src, x01, x2n);
    const __m128i zero = _mm_setzero_si128();
    __m128i over = _mm_subs_epu8(_mm_max_epu8(*x01, *x2n), _mm_set1_epi8(4));
    __m128i sad = _mm_add_epi64(_mm_sad_epu8(_mm_add_epi8(*x01, *x2n), zero),
                                _mm_slli_epi64(_mm_sad_epu8(over, zero), 8));
    int tiles = _mm_cvtsi128_si32(_mm_add_epi32(sad, _mm_shuffle_epi32(sad, 0x4E)));
    return (unsigned)(tiles - lo) > (unsigned)(hi - lo);
}

/* The suit indices from 32-bit lanes 0-2 of v. */
static MJ_ALWAYS_INLINE void mj_lanes3(__m128i v, uint64_t *idx) {
    uint64_t v01 = (uint64_t)_mm_cvtsi128_si64(v);
    idx[0] = (uint32_t)v01;
    idx[1] = v01 >> 32;
    idx[2] = (uint32_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(v, v));
}

/* The multiply-add weights of the base-5 suit index (mj_index3_sse2 / _ssse3 and the AVX2 pairs
 * of mjfast_kernels.h): lane pairs of bytes times (5, 1), of 16-bit sums times (25, 1), of 32-bit
 * sums times (3125, 5). */
#define MJ_IDX_W1 0x0105     /* bytes (5, 1) */
#define MJ_IDX_W2 0x00010019 /* (25, 1) */
#define MJ_IDX_W3 0x00050C35 /* (3125, 5) */

/* The three suit indices of mj_row_load3's words in 32-bit lanes 0-2 (lane 3 repeats lane 2), the
 * base-5 sums taken together: bytes widened to 16 bits, then multiply-adds of lane pairs (5, 1),
 * (25, 1), (3125, 5) take ranks 1-8 of each suit to 5 * their index, and the rank-9 counts are
 * added. */
static MJ_ALWAYS_INLINE __m128i mj_index3v_sse2(__m128i x01, __m128i x2n) {
    const __m128i zero = _mm_setzero_si128(), w1 = _mm_set1_epi32(0x00010005),
                  w2 = _mm_set1_epi32(MJ_IDX_W2), w3 = _mm_set1_epi32(MJ_IDX_W3);
    __m128i q0 = _mm_madd_epi16(_mm_unpacklo_epi8(x01, zero), w1);
    __m128i q1 = _mm_madd_epi16(_mm_unpackhi_epi8(x01, zero), w1);
    __m128i q2 = _mm_madd_epi16(_mm_unpacklo_epi8(x2n, zero), w1);
    __m128i r01 = _mm_madd_epi16(_mm_packs_epi32(q0, q1), w2);
    __m128i r2 = _mm_madd_epi16(_mm_packs_epi32(q2, q2), w2);
    __m128i v = _mm_madd_epi16(_mm_packs_epi32(r01, r2), w3);
    return _mm_add_epi32(v, _mm_unpackhi_epi16(x2n, zero));
}

/* mj_index3v_sse2 into idx[0..2]. */
static MJ_ALWAYS_INLINE void mj_index3_sse2(__m128i x01, __m128i x2n, uint64_t *idx) {
    mj_lanes3(mj_index3v_sse2(x01, x2n), idx);
}

#if MJ_SSSE3
/* mj_index3_sse2 with pmaddubsw: its first step, bytes times (5, 1) (the rank-9 lanes times
 * (1, 0), which keeps them), needs no widening. */
__attribute__((target("ssse3"))) static inline void mj_index3_ssse3(__m128i x01, __m128i x2n,
                                                                    uint64_t *idx) {
    const __m128i zero = _mm_setzero_si128(), w1 = _mm_set1_epi16(MJ_IDX_W1),
                  w1n = _mm_set_epi16(1, 1, 1, 1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1),
                  w2 = _mm_set1_epi32(MJ_IDX_W2), w3 = _mm_set1_epi32(MJ_IDX_W3);
    __m128i q01 = _mm_maddubs_epi16(x01, w1), q2n = _mm_maddubs_epi16(x2n, w1n);
    __m128i r01 = _mm_madd_epi16(q01, w2), r2 = _mm_madd_epi16(q2n, w2);
    __m128i v = _mm_madd_epi16(_mm_packs_epi32(r01, r2), w3);
    mj_lanes3(_mm_add_epi32(v, _mm_unpackhi_epi16(q2n, zero)), idx);
}

/* Two rows read once (src and src + 27), one in each 128-bit lane of the AVX2 registers, through
 * the steps of mj_row_load3 and mj_index3_ssse3 (which act within lanes): the rows' suit indices
 * in 32-bit lanes 0-2 and 4-6, and in *tiles (32-bit lanes 0 and 4) their tile totals + 256 *
 * their counts' excess over 4. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE __m256i mj_index3_pair_avx2(const uint8_t *src,
                                                                                   __m256i *tiles) {
    const __m256i zero = _mm256_setzero_si256(), four = _mm256_set1_epi8(4),
                  w1 = _mm256_set1_epi16(MJ_IDX_W1),
                  w1n = _mm256_set_epi16(1, 1, 1, 1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1,
                                         1, 1, 1, 1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1),
                  w2 = _mm256_set1_epi32(MJ_IDX_W2), w3 = _mm256_set1_epi32(MJ_IDX_W3);
    /* mj_row_words' layout from two 16-byte loads per row, bytes 0-15 and 11-26 (each count
     * taken from one of them), each row read once (see mj_row_t) */
    const __m256i s01p = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, -1,
                                         0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, -1),
                  s01q = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 5,
                                         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 5),
                  s2nq = _mm256_setr_epi8(7, 8, 9, 10, 11, 12, 13, 14, -1, -1, 6, -1, 15, -1, -1, -1,
                                         7, 8, 9, 10, 11, 12, 13, 14, -1, -1, 6, -1, 15, -1, -1, -1),
                  s2np = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 8, -1, -1, -1, -1, -1, -1, -1,
                                         -1, -1, -1, -1, -1, -1, -1, -1, 8, -1, -1, -1, -1, -1, -1, -1);
    __m256i p = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)src)),
                                        _mm_loadu_si128((const __m128i *)(src + 27)), 1);
    __m256i q = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(src + 11))),
                                        _mm_loadu_si128((const __m128i *)(src + 38)), 1);
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+x"(p), "+x"(q));
#endif
    __m256i x01 = _mm256_or_si256(_mm256_shuffle_epi8(p, s01p), _mm256_shuffle_epi8(q, s01q));
    __m256i x2n = _mm256_or_si256(_mm256_shuffle_epi8(q, s2nq), _mm256_shuffle_epi8(p, s2np));
    __m256i over = _mm256_subs_epu8(_mm256_max_epu8(x01, x2n), four);
    __m256i sad = _mm256_add_epi64(_mm256_sad_epu8(_mm256_add_epi8(x01, x2n), zero),
                                   _mm256_slli_epi64(_mm256_sad_epu8(over, zero), 8));
    *tiles = _mm256_add_epi32(sad, _mm256_shuffle_epi32(sad, 0x4E));
    __m256i q01 = _mm256_maddubs_epi16(x01, w1), q2n = _mm256_maddubs_epi16(x2n, w1n);
    __m256i r01 = _mm256_madd_epi16(q01, w2), r2 = _mm256_madd_epi16(q2n, w2);
    __m256i v = _mm256_madd_epi16(_mm256_packs_epi32(r01, r2), w3);
    return _mm256_add_epi32(v, _mm256_unpackhi_epi16(q2n, zero));
}
#endif
#endif

#endif
