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
/* SSSE3 (pshufb, pmaddubsw) and AVX2, where the CPU has them (mj_isa_level, checked once at
 * mj_init), for the batch loop of the two headline shanten cases; GCC and Clang only (functions
 * compiled for them beside the rest). -DMJ_SSSE3=0 leaves both out, -DMJ_AVX2=0 AVX2 alone (to
 * test the paths they leave). */
#ifndef MJ_SSSE3
#if MJ_SSE2 && (defined(__GNUC__) || defined(__clang__))
#define MJ_SSSE3 1
#else
#define MJ_SSSE3 0
#endif
#endif
#ifndef MJ_AVX2
#define MJ_AVX2 MJ_SSSE3
#endif
#if MJ_SSSE3
#include <immintrin.h>
#endif

/* What mj_isa_level finds: the instruction sets of the headline shanten loops this CPU can take. */
enum { MJ_ISA_SSE2 = 0, MJ_ISA_SSSE3 = 1, MJ_ISA_AVX2 = 2 };

/* The best of MJ_ISA_* this build and this CPU have (MJ_ISA_SSE2 also where there is no SSE2:
 * the callers then take their plain C path). */
static inline int mj_isa_level(void) {
#if MJ_SSSE3
    __builtin_cpu_init();
#if MJ_AVX2
    if (__builtin_cpu_supports("avx2")) return MJ_ISA_AVX2;
#endif
    if (__builtin_cpu_supports("ssse3")) return MJ_ISA_SSSE3;
#endif
    return MJ_ISA_SSE2;
}

#if MJ_SSE2
/* A row read once (see mj_row_t) as x01 = ranks 1-8 of suits 0 and 1, x2n = ranks 1-8 of suit 2
 * then the rank-9 counts in 16-bit lanes 4-6 (mj_row_words_ssse3: the same with pshufb). */
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

/* Nonzero unless the row of mj_row_words' x01, x2n has counts of at most 4 and lo..hi tiles:
 * tiles + 256 * (the counts' excess over 4) from psadbw (when no count is above 4, the bytes of
 * x01 + x2n are at most 8 and sum to the tiles). */
static MJ_ALWAYS_INLINE int mj_row_check(__m128i x01, __m128i x2n, const int lo, const int hi) {
    const __m128i zero = _mm_setzero_si128();
    __m128i over = _mm_subs_epu8(_mm_max_epu8(x01, x2n), _mm_set1_epi8(4));
    __m128i sad = _mm_add_epi64(_mm_sad_epu8(_mm_add_epi8(x01, x2n), zero),
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

/* The three suit indices of mj_row_words' words in 32-bit lanes 0-2 (lane 3 repeats lane 2), the
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
/* The bytes of mj_row_words' x2n in three 16-byte words of the row, at bytes 0, 9 and 11 (all
 * inside the row): x01 is the low halves of the first two; x2n takes ranks 1-8 of suit 2 and
 * the rank-9 counts of suits 1 and 2 from the third (pshufb: MJ_WORDS_2N, -1 zeroes), that of
 * suit 0 from the first (MJ_WORDS_9: its byte 8). */
#define MJ_WORDS_2N 7, 8, 9, 10, 11, 12, 13, 14, -1, -1, 6, -1, 15, -1, -1, -1
#define MJ_WORDS_9 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0
__attribute__((target("ssse3"))) static inline void mj_row_words_ssse3(const uint8_t *src,
                                                                       __m128i *x01,
                                                                       __m128i *x2n) {
    __m128i w0 = _mm_loadu_si128((const __m128i *)src);
    __m128i w9 = _mm_loadu_si128((const __m128i *)(src + 9));
    __m128i w11 = _mm_loadu_si128((const __m128i *)(src + 11));
    *x01 = _mm_unpacklo_epi64(w0, w9);
    *x2n = _mm_or_si128(_mm_shuffle_epi8(w11, _mm_setr_epi8(MJ_WORDS_2N)),
                        _mm_and_si128(w0, _mm_setr_epi8(MJ_WORDS_9)));
}

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
#endif

#if MJ_AVX2
/* mj_row_words_ssse3 of rows a and b, one in each 128-bit lane. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE void
mj_rows_words_avx2(const uint8_t *a, const uint8_t *b, __m256i *x01, __m256i *x2n) {
#define MJ_LOAD2(off)                                                                            \
    _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(a + off))), \
                            _mm_loadu_si128((const __m128i *)(b + off)), 1)
    __m256i w0 = MJ_LOAD2(0), w9 = MJ_LOAD2(9), w11 = MJ_LOAD2(11);
#undef MJ_LOAD2
    *x01 = _mm256_unpacklo_epi64(w0, w9);
    *x2n = _mm256_or_si256(_mm256_shuffle_epi8(w11, _mm256_setr_epi8(MJ_WORDS_2N, MJ_WORDS_2N)),
                           _mm256_and_si256(w0, _mm256_setr_epi8(MJ_WORDS_9, MJ_WORDS_9)));
}

/* mj_row_check of four rows of lo..hi tiles at once (two per pair of words; hi - lo is 0 or 1): 1
 * when all four pass. Each lane's tile total (psadbw, summed across its halves) sits in dwords 0
 * and 2 of the lane, so one blend puts the four rows' totals side by side (dwords 1 and 3 stay
 * 0); a count above 4 anywhere leaves a nonzero byte in the maximum less 4. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE int
mj_rows4_ok_avx2(__m256i a01, __m256i a2n, __m256i b01, __m256i b2n, const int lo, const int hi) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i sa = _mm256_sad_epu8(_mm256_add_epi8(a01, a2n), zero);
    __m256i sb = _mm256_sad_epu8(_mm256_add_epi8(b01, b2n), zero);
    sa = _mm256_add_epi32(sa, _mm256_shuffle_epi32(sa, 0x4E));
    sb = _mm256_add_epi32(sb, _mm256_shuffle_epi32(sb, 0x4E));
    __m256i over = _mm256_subs_epu8(
        _mm256_max_epu8(_mm256_max_epu8(a01, a2n), _mm256_max_epu8(b01, b2n)), _mm256_set1_epi8(4));
    /* 0 where the total is lo..hi */
    __m256i off = _mm256_srli_epi32(_mm256_sub_epi32(_mm256_blend_epi32(sa, sb, 0xCC),
                                                     _mm256_setr_epi32(lo, 0, lo, 0, lo, 0, lo, 0)),
                                    hi - lo);
    return _mm256_testz_si256(_mm256_or_si256(off, over), _mm256_or_si256(off, over));
}

/* mj_row_check's tile totals + 256 * the counts' excess over 4 of the two rows of
 * mj_rows_words_avx2's words, in dwords 0 and 4 (the waits and the win test, two rows at a time). */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE __m256i mj_rows_tiles_avx2(__m256i x01,
                                                                                   __m256i x2n) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i over = _mm256_subs_epu8(_mm256_max_epu8(x01, x2n), _mm256_set1_epi8(4));
    __m256i sad = _mm256_add_epi64(_mm256_sad_epu8(_mm256_add_epi8(x01, x2n), zero),
                                   _mm256_slli_epi64(_mm256_sad_epu8(over, zero), 8));
    return _mm256_add_epi32(sad, _mm256_shuffle_epi32(sad, 0x4E));
}

/* mj_index3_ssse3 of the two rows of mj_rows_words_avx2's words: the suit indices in dwords
 * 0-2 (the first row) and 4-6 (the second). */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE __m256i mj_index6_avx2(__m256i x01,
                                                                               __m256i x2n) {
    const __m256i w1 = _mm256_set1_epi16(MJ_IDX_W1),
                  w1n = _mm256_set_epi16(1, 1, 1, 1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1,
                                         1, 1, 1, 1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1, MJ_IDX_W1),
                  w2 = _mm256_set1_epi32(MJ_IDX_W2), w3 = _mm256_set1_epi32(MJ_IDX_W3);
    __m256i q01 = _mm256_maddubs_epi16(x01, w1), q2n = _mm256_maddubs_epi16(x2n, w1n);
    __m256i r01 = _mm256_madd_epi16(q01, w2), r2 = _mm256_madd_epi16(q2n, w2);
    __m256i v = _mm256_madd_epi16(_mm256_packs_epi32(r01, r2), w3);
    return _mm256_add_epi32(v, _mm256_unpackhi_epi16(q2n, _mm256_setzero_si256()));
}
#endif
#endif

#endif
