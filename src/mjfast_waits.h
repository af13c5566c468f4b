/* mjfast meld-free fast paths of the win test and the waits: rows of 4-set hands without melds,
 * read once and answered from the suits' wait masks (MJ.wmask) without building a hand.
 *
 * Plain C, no Python; the layer over mjfast_kernels.h (tables, mj_job_t); mjfast_batch.h runs it.
 * The general path (mj_hand_is_win, mj_hand_waits) gives the same answers on these rows: the
 * tests compare both with the pure-Python reference.
 *
 * A suit's wait mask holds the ranks whose addition completes the suit (bits 0-8) and whether it
 * is complete as it is (bit 9), so kind t of suit s completes a 13-tile hand when t is in suit s's
 * mask and the two other suits are complete. The void rule then asks that the completed hand hold
 * at most two suits and none of the declared void suit; seven pairs completes a 13-tile hand of
 * one odd kind with that kind (the other kinds are pairs or quads): the masks' bits 10-15 count
 * a suit's odd kinds and name the one.
 */
#ifndef MJFAST_WAITS_H
#define MJFAST_WAITS_H

#include "mjfast_kernels.h" /* MJ, mj_job_t, mj_row_t, mj_row_bad, MJ_BLOCK; mjfast_simd.h */
#include "mjfast_rank.h"    /* MJR, mj_suit_rank, MJ_NRANK14 */

/* The tables of the fast paths, filled by mj_init (mj_build_waits):
 * - mj_win14 (50 KB): per suit pattern of at most 14 tiles (its dense rank), whether it is
 *   complete, one bit each, for the win test a row at a time (MJ.wmask takes 3.9 MB; two rows
 *   at a time, mj_plain_win_avx2 reads it for the few rows whose suits may win);
 * - mj_wait_key: per three suits' wait-mask bits 9-11 (complete, odd kinds up to 3: suit s at
 *   bits 3s-3s+2), the suits whose waits are the row's (0x1FF at bit 16 s: the two others are
 *   complete), and bit 63 when exactly one kind of the row is odd (seven pairs);
 * - mj_wait_ok: per void setting (0: no void rule; 1-4: declared void suit -1..2), bit e set when
 *   a row lacking the suits e (bit s: suit s; bit 3 repeats bit 2) holds suits that may win. */
static uint64_t mj_win14[(MJ_NRANK14 + 63) / 64];
static uint64_t mj_wait_key[512];
static uint16_t mj_wait_ok[5];

/* Kinds held an odd number of times in a row of counts at most 4. */
static MJ_ALWAYS_INLINE int mj_row_odd(const mj_row_t *row) {
#if MJ_SWAR
    uint64_t low = (row->x[0] & MJ_ONES8) + (row->x[1] & MJ_ONES8) + (row->x[2] & MJ_ONES8);
    return (int)((low * MJ_ONES8) >> 56) + (int)((row->b[0] & 1) + (row->b[1] & 1) + (row->b[2] & 1));
#else
    int n = 0;
    for (int t = 0; t < 27; t++) n += row->c[t] & 1;
    return n;
#endif
}

/* The suits a row holds, bit s for suit s. */
static MJ_ALWAYS_INLINE int mj_row_suits(const mj_row_t *row) {
    int present = 0;
    for (int s = 0; s < 3; s++) {
#if MJ_SWAR
        present |= ((row->x[s] | row->b[s]) != 0) << s;
#else
        uint8_t any = 0;
        for (int r = 0; r < 9; r++) any |= row->c[9 * s + r];
        present |= (any != 0) << s;
#endif
    }
    return present;
}

/* Bit S (S a 3-bit mask of suits) set when a complete hand holding suits S may win: every S
 * without the void rule; with it, at most two suits and not the declared void suit (-1: none). */
static MJ_ALWAYS_INLINE uint32_t mj_suits_ok(int void_rule, int void_suit) {
    if (!void_rule) return 0xFF;
    uint32_t ok = 0x7F; /* every set but all three suits */
    if (void_suit >= 0) ok &= void_suit == 0 ? 0x55 : void_suit == 1 ? 0x33 : 0x0F;
    return ok;
}

/* Fill the tables above (after MJ.wmask and MJR). */
static void mj_build_waits(void) {
    for (int l = 0; l < 625; l++) {
        for (int p = 0, room = mj_rank_room(l, 0); p < room; p++) {
            uint32_t rank = MJR.base[0][l] + (uint32_t)p;
            mj_win14[rank >> 6] |= (uint64_t)(MJ.wmask[l * 3125 + MJR.order[p]] >> 9 & 1) << (rank & 63);
        }
    }
    for (int k = 0; k < 512; k++) {
        int x[3] = {k & 7, k >> 3 & 7, k >> 6 & 7};
        uint64_t e = (uint64_t)((x[0] >> 1) + (x[1] >> 1) + (x[2] >> 1) == 1) << 63;
        for (int s = 0; s < 3; s++)
            if (x[(s + 1) % 3] & x[(s + 2) % 3] & 1) e |= (uint64_t)0x1FF << (16 * s);
        mj_wait_key[k] = e;
    }
    for (int v = 0; v < 5; v++) {
        uint32_t ok = mj_suits_ok(v > 0, v - 2);
        for (int e = 0; e < 16; e++) mj_wait_ok[v] |= (uint16_t)((ok >> (~e & 7) & 1) << e);
    }
}

/* Read a meld-free row of lo..hi tiles into row: the suits it holds (bit s), or -1 when the row
 * must take the general path (which reports it if it is bad). */
static MJ_ALWAYS_INLINE int mj_plain_read(const uint8_t *src, int void_suit, mj_row_t *row,
                                          const int lo, const int hi) {
    mj_row_read(row, src);
    if (mj_row_bad(row, lo, hi) | ((unsigned)(void_suit + 1) > 3u)) return -1;
    return mj_row_suits(row);
}

/* The wait masks of a row's suit indices idx[0..2] side by side, 16 bits each. */
static MJ_ALWAYS_INLINE uint64_t mj_waits_masks(const uint32_t *idx, const uint16_t *wmask) {
    return (uint64_t)wmask[idx[0]] | (uint64_t)wmask[idx[1]] << 16 | (uint64_t)wmask[idx[2]] << 32;
}

/* The wait of seven pairs of a row whose suits' wait masks, side by side 16 bits each, count one
 * odd kind in all: that kind (held once or three times, so a copy is left), in the suit whose
 * mask counts one; already held, so the suits stay those held. */
static MJ_ALWAYS_INLINE uint32_t mj_seven_wait(uint64_t w) {
    int s = (w >> 10 & 3) ? 0 : (w >> 26 & 3) ? 1 : 2;
    return 1u << (9 * s + (int)(w >> (16 * s + 12) & 15));
}

/* The waits of a meld-free 13-tile row from its suits' indices (0 when it is not ready; the
 * caller answers 0 for rows whose suits may not win: no superset of them may either, so the
 * suits a completed hand holds are those held, and a suit held by no wait adds none). The three
 * wait masks side by side, 16 bits each; a multiply gathers their bits 9-11 into mj_wait_key's
 * index. */
static MJ_ALWAYS_INLINE uint32_t mj_plain_waits_of(const uint16_t *wmask, const uint32_t *idx) {
    uint64_t w = mj_waits_masks(idx, wmask);
    uint64_t key = mj_wait_key[((w >> 9 & 0x700070007ULL) * (1ULL << 32 | 1ULL << 19 | 1ULL << 6)) >> 32 & 511];
    uint64_t m = w & key;
    uint32_t waits = (uint32_t)((m & 0x1FF) | (m >> 7 & 0x3FE00) | (m >> 14 & 0x7FC0000));
    if (MJ_UNLIKELY((int64_t)key < 0)) waits |= mj_seven_wait(w);
    return waits;
}

#if MJ_SSE2
/* Keep the suit indices in 32-bit lanes 0-2 of v in idx and ask for their wait masks. */
static MJ_ALWAYS_INLINE void mj_waits_keep(__m128i v, uint32_t *idx, const uint16_t *wmask) {
    _mm_storeu_si128((__m128i *)idx, v);
    uint64_t v01 = (uint64_t)_mm_cvtsi128_si64(v);
    MJ_PREFETCH(&wmask[(uint32_t)v01]);
    MJ_PREFETCH(&wmask[v01 >> 32]);
    MJ_PREFETCH(&wmask[(uint32_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(v, v))]);
}
#endif

/* Read a meld-free 13-tile row once and check it (counts of at most 4, 13 tiles), its three suit
 * indices into idx[0..2] (idx[3] meaningless): -1 when the row is bad (then idx is meaningless),
 * else the suits it lacks (bit s for suit s, bit 3 repeats bit 2), asking for the indices' wait
 * masks when they may be read (the suits lacked are in ok's bits). */
static MJ_ALWAYS_INLINE int mj_waits_index(const uint8_t *src, uint32_t *idx, const uint16_t *wmask,
                                           uint32_t ok) {
#if MJ_SSE2
    __m128i x01, x2n;
    mj_row_words(src, &x01, &x2n);
    int bad = mj_row_check(x01, x2n, 13, 13);
    __m128i v = mj_index3v_sse2(x01, x2n);
    if (bad) return -1;
    int lacks = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, _mm_setzero_si128())));
    if (ok >> lacks & 1) mj_waits_keep(v, idx, wmask);
    return lacks;
#else
    mj_row_t row;
    mj_row_read(&row, src);
    if (mj_row_bad(&row, 13, 13)) return -1;
    int lacks = 0;
    for (int s = 0; s < 3; s++) {
        idx[s] = (uint32_t)mj_suit_index(&row, s);
        lacks |= (idx[s] == 0) << s;
    }
    if (ok >> lacks & 1)
        for (int s = 0; s < 3; s++) MJ_PREFETCH(&wmask[idx[s]]);
    return lacks;
#endif
}

/* Rows n.. of a block of meld-free 13-tile rows from row i (rows in all; todo of them in idx and
 * at already), in two passes: the first reads and checks the rows, answers 0 for those whose
 * suits may not win (most random deals hold three suits) and indexes the suits of the others,
 * asking for their wait masks' cache lines; the second reads the masks, by then near, instead of
 * each row's waiting on its own loads (MJ.wmask, 3.9 MB, is not in a core's L2). Returns the rows
 * written, like mj_plain_shanten_as. per_row: the void suits are a vector. */
static MJ_ALWAYS_INLINE int64_t mj_plain_waits_rows(const mj_job_t *job, int64_t i, int64_t n,
                                                    int64_t rows, uint32_t (*idx)[4], uint8_t *at,
                                                    int64_t todo, const int void_rule,
                                                    const int per_row) {
    const uint8_t *src = job->hands + 27 * (i + n);
    const int8_t *voids = per_row ? job->voids + i : NULL;
    const uint16_t *wmask = MJ.wmask;
    uint32_t *out = (uint32_t *)job->out + i;
    int void_suit = job->void_scalar;
    uint32_t ok = per_row ? 0 : mj_wait_ok[void_rule ? void_suit + 2 : 0];
    for (; n < rows; n++, src += 27) {
        if (per_row) {
            void_suit = mj_once_i8(voids + n);
            if ((unsigned)(void_suit + 1) > 3u) break;
            ok = mj_wait_ok[void_rule ? void_suit + 2 : 0];
        }
        int lacks = mj_waits_index(src, idx[todo], wmask, ok);
        if (lacks < 0) break;
        out[n] = 0;
        if (ok >> lacks & 1) at[todo++] = (uint8_t)n;
    }
    for (int64_t j = 0; j < todo; j++) out[at[j]] = mj_plain_waits_of(wmask, idx[j]);
    return n;
}

static MJ_ALWAYS_INLINE int64_t mj_plain_waits_block(const mj_job_t *job, int64_t i, int64_t end,
                                                     const int void_rule, const int per_row) {
    uint32_t idx[MJ_BLOCK][4];
    uint8_t at[MJ_BLOCK];
    if (!per_row && (unsigned)(job->void_scalar + 1) > 3u) return 0; /* the general path reports it */
    return mj_plain_waits_rows(job, i, 0, end - i < MJ_BLOCK ? end - i : MJ_BLOCK, idx, at, 0,
                               void_rule, per_row);
}

#if MJ_AVX2
/* The waits of four rows from their suits' wait masks w (16-bit lanes 0-2 of each 64-bit lane,
 * lane 3 zero) side by side, as mj_plain_waits_of: suit s's waits count when the two other suits
 * are complete (bit 9). Dwords 0, 2, 4, 6 get the rows' waits without seven pairs; *seven has
 * bit k set when row k holds one odd kind in all (the masks' bits 10-11 summed by psadbw). */
#define MJ_NEXT1 2, 3, 4, 5, 0, 1, -1, -1, 10, 11, 12, 13, 8, 9, -1, -1
#define MJ_NEXT2 4, 5, 0, 1, 2, 3, -1, -1, 12, 13, 8, 9, 10, 11, -1, -1
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE __m256i mj_waits4_avx2(__m256i w, int *seven) {
    __m256i c = _mm256_srai_epi16(_mm256_slli_epi16(w, 6), 15); /* -1: complete suit */
    __m256i e = _mm256_and_si256(_mm256_shuffle_epi8(c, _mm256_setr_epi8(MJ_NEXT1, MJ_NEXT1)),
                                 _mm256_shuffle_epi8(c, _mm256_setr_epi8(MJ_NEXT2, MJ_NEXT2)));
    __m256i x = _mm256_and_si256(_mm256_and_si256(w, e), _mm256_set1_epi16(0x1FF));
    /* ranks of suits 0 and 1 in dword 0 (times 1 and 512), suit 2's in dword 1, moved to bit 18 */
    __m256i d = _mm256_sllv_epi32(
        _mm256_madd_epi16(x, _mm256_setr_epi16(1, 512, 1, 0, 1, 512, 1, 0, 1, 512, 1, 0, 1, 512, 1, 0)),
        _mm256_setr_epi32(0, 18, 0, 18, 0, 18, 0, 18));
    __m256i odd = _mm256_sad_epu8(_mm256_and_si256(_mm256_srli_epi16(w, 10), _mm256_set1_epi16(3)),
                                  _mm256_setzero_si256());
    *seven = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(odd, _mm256_set1_epi64x(1))));
    return _mm256_add_epi32(d, _mm256_shuffle_epi32(d, 0xB1));
}
#undef MJ_NEXT1
#undef MJ_NEXT2

/* The second pass of mj_plain_waits_avx2: the waits of the todo rows kept at idx (their row
 * numbers in at; idx has room for four entries more) into out, four rows at a time by
 * mj_waits4_avx2 from their wait masks (asked for by the first pass); dense: row j is kept at
 * idx[j] (every row kept), so four results go out in one store. */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE void
mj_waits_finish_avx2(uint32_t (*idx)[4], const uint8_t *at, int64_t todo, const uint16_t *wmask,
                     uint32_t *out, int dense) {
    _mm256_storeu_si256((__m256i *)idx[todo], _mm256_setzero_si256()); /* index 0 past the end */
    _mm256_storeu_si256((__m256i *)idx[todo + 2], _mm256_setzero_si256());
    for (int64_t j = 0; j < todo; j += 4) {
        uint64_t w[4];
        for (int k = 0; k < 4; k++) w[k] = mj_waits_masks(idx[j + k], wmask);
        int seven;
        __m256i d = mj_waits4_avx2(_mm256_setr_epi64x((long long)w[0], (long long)w[1],
                                                      (long long)w[2], (long long)w[3]), &seven);
        union {
            __m128i v;
            uint32_t d[4];
        } r;
        r.v = _mm256_castsi256_si128(
            _mm256_permutevar8x32_epi32(d, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
        for (int k = 0; MJ_UNLIKELY(seven); k++, seven >>= 1)
            if (seven & 1) r.d[k] |= mj_seven_wait(w[k]);
        if (dense && j + 4 <= todo) {
            _mm_storeu_si128((__m128i *)(out + j), r.v);
        } else {
            for (int64_t k = 0, m = todo - j < 4 ? todo - j : 4; k < m; k++) out[at[j + k]] = r.d[k];
        }
    }
}

/* mj_plain_waits_block without void vector, both passes four rows at a time: the first two rows
 * in each pair of AVX2 words (mj_rows_words_avx2, mj_rows4_ok_avx2, mj_index6_avx2: one check of
 * the four, the indices of each row in a 128-bit lane), the second by mj_waits_finish_avx2 (every
 * row kept: the four results stored at once). Four rows holding a bad one, and the last rows, go
 * one by one (mj_plain_waits_rows). */
__attribute__((target("avx2"))) static int64_t mj_plain_waits_avx2(const mj_job_t *job, int64_t i,
                                                                   int64_t end, int void_rule) {
    const __m256i zero = _mm256_setzero_si256();
    uint32_t idx[MJ_BLOCK + 4][4];
    uint8_t at[MJ_BLOCK];
    if ((unsigned)(job->void_scalar + 1) > 3u) return 0; /* the general path reports it */
    const uint8_t *src = job->hands + 27 * i;
    const uint16_t *wmask = MJ.wmask;
    uint32_t *out = (uint32_t *)job->out + i;
    uint32_t ok = mj_wait_ok[void_rule ? job->void_scalar + 2 : 0];
    int64_t rows = end - i < MJ_BLOCK ? end - i : MJ_BLOCK, n = 0, todo = 0;
    for (; n + 4 <= rows; n += 4, src += 108) {
        __m256i a01, a2n, b01, b2n;
        mj_rows_words_avx2(src, src + 27, &a01, &a2n);
        mj_rows_words_avx2(src + 54, src + 81, &b01, &b2n);
        MJ_PREFETCH_AHEAD(src, 2);
        if (!mj_rows4_ok_avx2(a01, a2n, b01, b2n, 13, 13)) break;
        __m256i va = mj_index6_avx2(a01, a2n), vb = mj_index6_avx2(b01, b2n);
        int lacks = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(va, zero))) |
                    _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(vb, zero))) << 8;
        _mm_storeu_si128((__m128i *)(out + n), _mm_setzero_si128());
        __m128i v[4] = {_mm256_castsi256_si128(va), _mm256_extracti128_si256(va, 1),
                        _mm256_castsi256_si128(vb), _mm256_extracti128_si256(vb, 1)};
        for (int r = 0; r < 4; r++) {
            if (ok >> (lacks >> 4 * r & 15) & 1) {
                mj_waits_keep(v[r], idx[todo], wmask);
                at[todo++] = (uint8_t)(n + r);
            }
        }
    }
    mj_waits_finish_avx2(idx, at, todo, wmask, out, todo == n);
    return mj_plain_waits_rows(job, i, n, rows, idx, at, 0, void_rule, 0);
}
#endif

/* Whether a meld-free 13- or 14-tile row that holds suits present is complete (ok from
 * mj_suits_ok). 13 tiles never win (though their suits may each be complete: two of them with a
 * pair); seven pairs: 14 tiles of no odd kind. When the suits held may not win, neither the
 * suits' tables nor the odd kinds are read (most random deals hold three suits). */
static MJ_ALWAYS_INLINE uint8_t mj_plain_win_of(const mj_row_t *row, int present, uint32_t ok) {
    if (!(ok >> present & 1)) return 0;
    uint32_t complete = 1;
    for (int s = 0; s < 3; s++) {
        uint32_t r = mj_suit_rank(row, s, 0);
        complete &= (uint32_t)(mj_win14[r >> 6] >> (r & 63));
    }
    return (uint8_t)((complete | (mj_row_odd(row) == 0)) & (mj_row_tiles(row) == 14));
}

/* The win test of meld-free 4-set rows, like mj_plain_shanten_as (the same return value). */
static MJ_ALWAYS_INLINE int64_t mj_plain_win_as(const mj_job_t *job, int64_t i, int64_t end,
                                                const int void_rule) {
    const uint8_t *src = job->hands + 27 * i;
    const int8_t *voids = job->voids ? job->voids + i : NULL;
    int64_t rows = end - i < MJ_BLOCK ? end - i : MJ_BLOCK;
    for (int64_t j = 0; j < rows; j++, src += 27) {
        int void_suit = voids ? mj_once_i8(voids + j) : job->void_scalar;
        mj_row_t row;
        int present = mj_plain_read(src, void_suit, &row, 13, 14);
        if (present < 0) return j;
        ((uint8_t *)job->out)[i + j] = mj_plain_win_of(&row, present, mj_suits_ok(void_rule, void_suit));
    }
    return rows;
}

#if MJ_AVX2
/* mj_plain_win_as without void vector, two rows at a time like mj_plain_waits_avx2: a row whose
 * suits may win and that holds 14 tiles is complete when its three suits are, or when no kind is
 * held an odd number of times (seven pairs), from its suits' wait masks (most random deals hold
 * three suits: no mask is read). */
__attribute__((target("avx2"))) static int64_t mj_plain_win_avx2(const mj_job_t *job, int64_t i,
                                                                 int64_t end, int void_rule) {
    const __m256i zero = _mm256_setzero_si256(), thirteen = _mm256_set1_epi32(13),
                  fourteen = _mm256_set1_epi32(14);
    if ((unsigned)(job->void_scalar + 1) > 3u) return 0; /* the general path reports it */
    const uint8_t *src = job->hands + 27 * i;
    const uint16_t *wmask = MJ.wmask;
    uint8_t *out = (uint8_t *)job->out + i;
    uint32_t ok = mj_wait_ok[void_rule ? job->void_scalar + 2 : 0];
    int64_t rows = end - i < MJ_BLOCK ? end - i : MJ_BLOCK, n = 0;
    for (; n + 2 <= rows; n += 2, src += 54) {
        __m256i x01, x2n;
        mj_rows_words_avx2(src, src + 27, &x01, &x2n);
        __m256i tiles = mj_rows_tiles_avx2(x01, x2n), v = mj_index6_avx2(x01, x2n);
        int full = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(tiles, fourteen)));
        int sizes = full | _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(tiles, thirteen)));
        if ((sizes & 0x11) != 0x11) break;
        int lacks = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, zero)));
        uint32_t idx[8];
        _mm256_storeu_si256((__m256i *)idx, v);
        for (int r = 0; r < 2; r++) {
            uint8_t win = 0;
            if (full >> (4 * r) & ok >> (lacks >> (4 * r) & 15) & 1) {
                uint32_t w0 = wmask[idx[4 * r]], w1 = wmask[idx[4 * r + 1]], w2 = wmask[idx[4 * r + 2]];
                win = (uint8_t)((w0 & w1 & w2) >> 9 & 1) | (((w0 | w1 | w2) & 0xC00) == 0);
            }
            out[n + r] = win;
        }
    }
    return n + mj_plain_win_as(job, i + n, i + rows, void_rule);
}
#endif

/* The waits of meld-free rows (apart from the win test's loop, which keeps its registers). */
static MJ_NOINLINE int64_t mj_plain_waits_rows_of(const mj_job_t *job, int64_t i, int64_t end) {
#if MJ_AVX2
    if (!job->voids && end - i >= 16 && MJ.isa == MJ_ISA_AVX2)
        return mj_plain_waits_avx2(job, i, end, job->void_rule);
#endif
    if (job->voids)
        return job->void_rule ? mj_plain_waits_block(job, i, end, 1, 1) : mj_plain_waits_block(job, i, end, 0, 1);
    return job->void_rule ? mj_plain_waits_block(job, i, end, 1, 0) : mj_plain_waits_block(job, i, end, 0, 0);
}

static int64_t mj_plain_waits(const mj_job_t *job, int64_t i, int64_t end) {
    if (job->op == MJ_OP_WAITS) return mj_plain_waits_rows_of(job, i, end);
#if MJ_AVX2
    if (!job->voids && end - i >= 16 && MJ.isa == MJ_ISA_AVX2)
        return mj_plain_win_avx2(job, i, end, job->void_rule);
#endif
    return job->void_rule ? mj_plain_win_as(job, i, end, 1) : mj_plain_win_as(job, i, end, 0);
}

#endif
