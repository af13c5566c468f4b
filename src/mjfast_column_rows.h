/* mjfast column rows: the batch fast path of discards and effective tiles on meld-free 4-set rows,
 * over the column records of mjfast_columns.h (built on the first call, through mj_once).
 *
 * Plain C, no Python; the layer over mjfast_columns.h (MJC, mj_build_columns, mj_record,
 * mj_columns_or); mjfast_batch.h runs mj_plain_rows. Each row: its three records, then the
 * probes that keep (discards) or lower (draws) its distance as one 27-bit mask (mj_col_mask),
 * spread to the 27 output bytes (mj_col_write).
 */
#ifndef MJFAST_COLUMN_ROWS_H
#define MJFAST_COLUMN_ROWS_H

#include "mjfast_columns.h" /* MJC, mj_build_columns, mj_record, mj_columns_or, MJ_ALL27 */
#include "mjfast_once.h"    /* mj_once */
#include "mjfast_probes.h"  /* mj_job_t, mj_probe_ok8, MJ_BLOCK */
#include "mjfast_shanten_rows.h" /* mj_plain_shanten */

/* Loops over the three suits unrolled, so that their arrays stay in registers. */
#if defined(__GNUC__) && !defined(__clang__)
#define MJ_UNROLL3 _Pragma("GCC unroll 3")
#else
#define MJ_UNROLL3
#endif

static mj_state_t mj_columns_state;

/* SSE2 (every x86-64) writes the 27 output bytes of a row as two overlapping 16-byte vectors;
 * elsewhere, or with -DMJ_SIMD=0 (to test it), 8-byte words. */
#ifndef MJ_SIMD
#if defined(__SSE2__) || defined(_M_X64)
#define MJ_SIMD 1
#else
#define MJ_SIMD 0
#endif
#endif
#if MJ_SIMD
#include <emmintrin.h>
#else
/* Discards bytes (8 lanes) from distance bytes d (below 128) and counts x: the shanten d - 1,
 * MJ_NOT_HELD where the count is 0. (A meld-free 13-tile hand can always win, so its distance
 * is never MJ_INF: no MJ_UNWINNABLE here.) */
static inline uint64_t mj_discard_bytes(uint64_t d, uint64_t x) {
    const uint64_t L = MJ_ONES8, H = 0x80 * MJ_ONES8;
    uint64_t sh = ((d | H) - L) ^ H; /* d - 1 per byte, no borrow between them */
    uint64_t held = mj_probe_ok8(x, -1);
    return (sh & held) | (H & ~held);
}
#endif

/* A row of mj_plain_probe_rows_as between its two passes. */
typedef struct {
    uint8_t c[27];    /* counts */
    uint8_t left[27]; /* copies left (effective tiles) */
    uint64_t rec[3][2]; /* the suits' records (reg), in order (SIMD reads two at once) */
    uint32_t w[3];    /* seven-pairs terms (mj_seven_terms) without reg (else in hi) */
    uint32_t dead;    /* byte q: MJ_INF where suit q may not be the void suit (void rule), else 0;
                         byte 3 repeats byte 2 */
} mj_col_row_t;

/* Rows a pass (MJ_PROBE_BLOCKS): a row's records are asked for about a pass before they are read;
 * same-process A/B on streamed discards: 8 rows 10% slower than 16, 32 4% faster, 64 3% slower
 * than 32 (the prefetched records start to crowd the L1 cache). */
#define MJ_PROBE_PASS 32

/* The first pass over rows [i, i + rows): read and check each row into blk and load its records
 * (reg; else its seven-pairs terms, which the records hold). Returns the rows it took: all, or
 * up to the first that the fast path leaves to the general one (a bad row, visible counts that
 * do not fit, and for effective tiles a kind held four times). */
static MJ_ALWAYS_INLINE int64_t mj_col_rows_load(const mj_columns_t *t, const mj_job_t *job,
                                                 int64_t i, int64_t rows, mj_col_row_t *blk,
                                                 const int delta, const int reg) {
    const uint8_t *src = job->hands + 27 * i;
    const int8_t *voids = job->voids ? job->voids + i : NULL;
    const uint8_t *vis = job->visible ? job->visible + job->visible_stride * i : NULL;
    for (int64_t j = 0; j < rows; j++, src += 27) {
        mj_col_row_t *b = &blk[j];
        mj_row_t row, seen;
        mj_row_read(&row, src);
        int bad = mj_row_bad(&row, 13 + (delta < 0), 13 + (delta < 0));
        int void_suit = voids ? mj_once_i8(voids + j) : job->void_scalar;
        if (vis) {
            mj_row_read(&seen, vis + job->visible_stride * j);
            bad |= mj_row_over(&row, &seen);
        }
        if (delta > 0) bad |= mj_row_has4(&row);
        if (bad | ((unsigned)(void_suit + 1) > 3u)) return j;
        MJ_UNROLL3
        for (int s = 0; s < 3; s++) { /* unrolled: row stays in registers */
            if (reg) {
                const uint8_t *rec = mj_record(t, &row, s, delta);
                memcpy(b->rec[s], rec, MJ_REC);
            } else {
#if MJ_SWAR
                b->w[s] = mj_seven_terms(row.x[s], row.b[s]);
#else
                b->w[s] = mj_seven_terms(mj_word8(row.c + 9 * s), row.c[9 * s + 8]);
#endif
            }
        }
        mj_row_write(&row, b->c);
        if (delta > 0) mj_row_left(&row, vis ? &seen : NULL, b->left);
        b->dead = mj_col_dead(void_suit);
    }
    return rows;
}

/* The probes that keep the row's distance (delta -1) or lower it (+1), as a 27-bit mask (bit t:
 * kind t, held or not); returns the distance. A probe of suit s keeps / lowers the distance
 * exactly when it does so to a form that attains it: a regular form through a column of s that
 * attains it (mj_columns_or; column 0, no set and no pair, keeps every discard and lowers no
 * draw), seven pairs by the parity of the probed count (MJC.sev). With the void rule only the
 * void suits q giving the distance d count (a probe moves a distance by one at most), each with
 * its two live suits; a probe of suit q itself changes nothing there (a discard keeps d).
 * Branch-free: which suits q give d, and by which form, varies from row to row. */
static MJ_ALWAYS_INLINE uint32_t mj_col_mask(const mj_columns_t *t, const mj_col_row_t *b, int *dist,
                                             const int delta, const int void_rule, const int reg,
                                             const int sev) {
    const uint64_t *sev_tab = t->sev + 256 * (delta > 0), SEV = ((uint64_t)1 << 54) - 1;
    uint32_t k[3], w[3], odd9[3], o[3] = {0, 0, 0}, tied = 0, m = 0;
    uint64_t par = 0; /* the seven-pairs bits of MJC.sev where seven pairs attains d */
    int d;
    MJ_UNROLL3
    for (int s = 0; s < 3; s++) {
        uint64_t hi = b->rec[s][1]; /* bytes 8-15: odd ranks at bit 8, MJ_REC_WORD at 32 */
        k[s] = reg ? (uint32_t)(hi >> 32) & 0x7F : 0;
        w[s] = reg ? (uint32_t)(hi >> 40) & 0xFF : b->w[s] & 0xFF; /* pairs | odd kinds << 4 */
        odd9[s] = (reg ? (uint32_t)(hi >> 8) : b->w[s] >> 8) & 0x1FF; /* ranks of odd counts */
    }
    if (!void_rule) {
        uint64_t sv = sev ? sev_tab[(w[0] + w[1] + w[2]) & 0xFF] : (uint64_t)MJ_INF << 56;
        uint32_t e[3] = {0, 0, 0}, rv = MJ_INF, sq = (uint32_t)(sv >> 56);
        if (reg) {
            MJ_UNROLL3
            for (int s = 0; s < 3; s++) {
                int o1 = s == 0 ? 1 : 0, o2 = s == 2 ? 1 : 2;
                e[s] = t->opt3[k[s] * t->n_pair + t->pair[k[o1] * t->n_full + k[o2]]];
            }
            rv = e[0] >> 10;
        }
        d = (int)(rv < sq ? rv : sq);
        uint32_t rt = 0u - (rv == (uint32_t)d);
        MJ_UNROLL3
        for (int s = 0; s < 3; s++) o[s] = e[s] & rt;
        par = sv & SEV & (0 - (uint64_t)(sq == (uint32_t)d));
    } else {
        uint32_t rq[3], sq[3], dq[3], e[3];
        uint64_t sv[3];
        d = MJ_INF;
        MJ_UNROLL3
        for (int q = 0; q < 3; q++) { /* suit q void: suits a and c live */
            int a = q == 0 ? 1 : 0, c = q == 2 ? 1 : 2;
            uint32_t dead = b->dead >> (8 * q) & 0xFF; /* lifts every term past d */
            e[q] = reg ? t->opt2[k[a] << 7 | k[c]] : 0;
            sv[q] = sev ? sev_tab[(w[a] + w[c]) & 0xFF] : 0;
            rq[q] = (reg ? e[q] >> 26 : MJ_INF) + dead;
            sq[q] = (sev ? (uint32_t)(sv[q] >> 56) : MJ_INF) + dead;
            dq[q] = rq[q] < sq[q] ? rq[q] : sq[q];
            d = (int)dq[q] < d ? (int)dq[q] : d;
        }
        const uint32_t d1 = (uint32_t)d + 1; /* every term is at least d: x == d when x - d1 < 0 */
        MJ_UNROLL3
        for (int q = 0; q < 3; q++) {
            int a = q == 0 ? 1 : 0, c = q == 2 ? 1 : 2;
            const uint64_t live2 = (uint64_t)(MJ_ALL27 & ~MJ_SUIT27(q)) * ((1 << 27) + 1); /* a and c */
            uint32_t rt = 0u - ((rq[q] - d1) >> 31);
            tied |= (0u - ((dq[q] - d1) >> 31)) & MJ_SUIT27(q);
            o[a] |= e[q] & 0x3FF & rt;
            o[c] |= e[q] >> 16 & 0x3FF & rt;
            par |= sv[q] & live2 & (0 - (uint64_t)((sq[q] - d1) >> 31));
        }
        if (delta < 0) m = tied; /* suit q void: its discards keep d */
    }
    MJ_UNROLL3
    for (int s = 0; s < 3; s++) {
        uint32_t ms = reg ? mj_columns_or(b->rec[s][0], b->rec[s][1], o[s]) : 0;
        if (delta < 0) ms |= (0u - (o[s] & 1)) & 0x1FFu;
        m |= ms << (9 * s);
    }
    if (sev) { /* by the parity of each kind's count: the odd ones from the seven-pairs terms */
        uint32_t odd = odd9[0] | odd9[1] << 9 | odd9[2] << 18;
        uint32_t even_keep = (uint32_t)par & MJ_ALL27, odd_keep = (uint32_t)(par >> 27);
        m |= even_keep ^ ((even_keep ^ odd_keep) & odd);
    }
    *dist = d;
    return m & MJ_ALL27;
}

/* Write one row's 27 output bytes from the mask m of mj_col_mask and its distance d: discards
 * (delta -1) the shanten d - 1 where the discard keeps d, else d, and MJ_NOT_HELD where the kind
 * is not held (counts c); effective tiles (+1) the copies left where the draw lowers d, else -1. */
static MJ_ALWAYS_INLINE void mj_col_write(uint8_t *out, const mj_col_row_t *b, uint32_t m, int d,
                                          const int delta) {
#if MJ_SIMD
    /* bit t of m to byte t, tiles 0-15 in lo and 11-26 in hi: each byte of m spread over 8 lanes,
     * then each lane tests its own bit */
    const __m128i bits = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1, -128, 64, 32, 16, 8, 4, 2, 1);
    __m128i x = _mm_cvtsi32_si128((int)((m & 0xFFFF) | (m >> 11) << 16));
    x = _mm_unpacklo_epi8(x, x);
    x = _mm_unpacklo_epi16(x, x);
    __m128i lo = _mm_cmpeq_epi8(_mm_and_si128(_mm_unpacklo_epi32(x, x), bits), bits);
    __m128i hi = _mm_cmpeq_epi8(_mm_and_si128(_mm_unpackhi_epi32(x, x), bits), bits);
    if (delta < 0) {
        const __m128i zero = _mm_setzero_si128(), top = _mm_set1_epi8(-128), D = _mm_set1_epi8((char)d);
        __m128i n0 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)b->c), zero);
        __m128i n1 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b->c + 11)), zero);
        lo = _mm_or_si128(_mm_andnot_si128(n0, _mm_add_epi8(D, lo)), _mm_and_si128(n0, top));
        hi = _mm_or_si128(_mm_andnot_si128(n1, _mm_add_epi8(D, hi)), _mm_and_si128(n1, top));
    } else {
        const __m128i ones = _mm_set1_epi8(-1);
        lo = _mm_or_si128(_mm_loadu_si128((const __m128i *)b->left), _mm_xor_si128(lo, ones));
        hi = _mm_or_si128(_mm_loadu_si128((const __m128i *)(b->left + 11)), _mm_xor_si128(hi, ones));
    }
    _mm_storeu_si128((__m128i *)out, lo);
    _mm_storeu_si128((__m128i *)(out + 11), hi); /* bytes 11-15 again, the same values */
#else
    const uint8_t *c = b->c, *y = b->left;
    const uint64_t *bytes = MJC.bytes;
    uint32_t m9 = (m >> 8 & 1) | (m >> 17 & 1) << 8 | (m >> 26 & 1) << 16;
    uint64_t yes9 = (uint64_t)m9 * 0xFF, o9; /* the ranks 9 together */
    if (delta < 0) { /* distance d where the discard keeps it, else d + 1 */
        const uint64_t D = (uint64_t)d * MJ_ONES8;
        for (int s = 0; s < 3; s++)
            mj_put8(out + 9 * s, mj_discard_bytes(D + (~bytes[m >> (9 * s) & 0xFF] & MJ_ONES8), mj_word8(c + 9 * s)));
        o9 = mj_discard_bytes(D + (~yes9 & 0x010101), (uint64_t)c[8] | (uint64_t)c[17] << 8 | (uint64_t)c[26] << 16);
    } else { /* copies left where the draw lowers it, else -1 */
        for (int s = 0; s < 3; s++) {
            uint64_t yes = bytes[m >> (9 * s) & 0xFF];
            mj_put8(out + 9 * s, (mj_word8(y + 9 * s) & yes) | ~yes);
        }
        o9 = (((uint64_t)y[8] | (uint64_t)y[17] << 8 | (uint64_t)y[26] << 16) & yes9) | ~yes9;
    }
    out[8] = (uint8_t)o9;
    out[17] = (uint8_t)(o9 >> 8);
    out[26] = (uint8_t)(o9 >> 16);
#endif
}

/* The block loop of the rows from i (at most MJ_BLOCK, to end): two passes over MJ_PROBE_PASS rows
 * at a time: the first (LOAD, into blk of TYPE) reads and checks the rows and starts their record
 * loads (independent loads that overlap across rows), the second writes each row's answers at
 * out from blk[j] by ROW, so no row waits on its own loads. A macro: the scalar and the AVX2
 * functions share it. */
#define MJ_PROBE_BLOCKS(TYPE, LOAD, ROW)                                                           \
    const mj_columns_t t = MJC; /* a local copy: the byte stores cannot alias it */               \
    TYPE blk[MJ_PROBE_PASS];                                                                       \
    int64_t rows = end - i < MJ_BLOCK ? end - i : MJ_BLOCK;                                        \
    for (int64_t done = 0; done < rows;) {                                                         \
        int64_t want = rows - done < MJ_PROBE_PASS ? rows - done : MJ_PROBE_PASS;                  \
        int64_t got = LOAD(&t, job, i + done, want, blk, delta, reg);                              \
        uint8_t *restrict out = (uint8_t *)job->out + 27 * (i + done);                             \
        for (int64_t j = 0; j < got; j++, out += 27) ROW;                                          \
        done += got;                                                                               \
        if (got < want) return done;                                                               \
    }                                                                                              \
    return rows

/* Discards (delta = -1, 14-tile rows) or effective tiles (delta = +1, 13-tile rows) of meld-free
 * 4-set rows without building hands, like mj_plain_shanten_as (the same return value; the rows
 * it leaves: mj_col_rows_load). */
static MJ_ALWAYS_INLINE int64_t mj_plain_probe_rows_as(const mj_job_t *job, int64_t i, int64_t end,
                                                       const int delta, const int void_rule,
                                                       const int reg, const int sev) {
    MJ_PROBE_BLOCKS(mj_col_row_t, mj_col_rows_load, {
        int d;
        uint32_t m = mj_col_mask(&t, &blk[j], &d, delta, void_rule, reg, sev);
        mj_col_write(out, &blk[j], m, d, delta);
    });
}

#include "mjfast_column_avx2.h" /* mj_col_vrow_t, mj_col_vrows_load, mj_col_rows_avx2 */

#if MJ_AVX2
/* mj_plain_probe_rows_as by AVX2 with the regular form (sev: seven pairs too). */
__attribute__((target("avx2"))) static MJ_ALWAYS_INLINE int64_t
mj_probe_rows_avx2_as(const mj_job_t *job, int64_t i, int64_t end, const int delta, const int vr, const int sev) {
    const int reg = 1;
    MJ_PROBE_BLOCKS(mj_col_vrow_t, mj_col_vrows_load, { /* two rows at a time */
        int pair = j + 1 < got;
        mj_col_rows_avx2(&t, &blk[j], out, pair, delta, vr, sev);
        j += pair;
        out += 27 * pair;
    });
}

__attribute__((target("avx2"))) static int64_t mj_probe_rows_avx2(const mj_job_t *job, int64_t i, int64_t end,
                                                                  int delta, int vr, int sev) {
#define MJ_PROBE_AVX2(D)                                                                           \
    do {                                                                                           \
        if (vr) return sev ? mj_probe_rows_avx2_as(job, i, end, D, 1, 1) : mj_probe_rows_avx2_as(job, i, end, D, 1, 0); \
        return sev ? mj_probe_rows_avx2_as(job, i, end, D, 0, 1) : mj_probe_rows_avx2_as(job, i, end, D, 0, 0); \
    } while (0)
    if (delta < 0) MJ_PROBE_AVX2(-1);
    MJ_PROBE_AVX2(1);
#undef MJ_PROBE_AVX2
}
#endif
#undef MJ_PROBE_BLOCKS

/* Dispatch of the meld-free fast paths by op and options (0 rows for an op without one). */
static int64_t mj_plain_rows(const mj_job_t *job, int64_t i, int64_t end) {
    int reg = job->form != MJ_FORM_SEVEN_PAIRS, sev = job->form != MJ_FORM_REGULAR;
    if (job->op == MJ_OP_SHANTEN) return mj_plain_shanten(job, i, end);
    if (MJ_UNLIKELY(mj_state_get(&mj_columns_state) != MJ_STATE_READY) &&
        mj_once(&mj_columns_state, mj_build_columns, -1, -2) != 0)
        return 0;
#if MJ_AVX2
    if ((job->op == MJ_OP_EFFECTIVE || job->op == MJ_OP_DISCARDS) && reg && MJ.isa == MJ_ISA_AVX2)
        return mj_probe_rows_avx2(job, i, end, job->op == MJ_OP_EFFECTIVE ? 1 : -1, job->void_rule, sev);
#endif
#define MJ_PROBE_ROWS(D, V)                                                                         \
    do {                                                                                            \
        if (reg && sev) return mj_plain_probe_rows_as(job, i, end, D, V, 1, 1);                     \
        if (reg) return mj_plain_probe_rows_as(job, i, end, D, V, 1, 0);                            \
        return mj_plain_probe_rows_as(job, i, end, D, V, 0, 1);                                     \
    } while (0)
    if (job->op == MJ_OP_EFFECTIVE) {
        if (job->void_rule) MJ_PROBE_ROWS(1, 1);
        MJ_PROBE_ROWS(1, 0);
    }
    if (job->op == MJ_OP_DISCARDS) {
        if (job->void_rule) MJ_PROBE_ROWS(-1, 1);
        MJ_PROBE_ROWS(-1, 0);
    }
#undef MJ_PROBE_ROWS
    return 0;
}

#endif
