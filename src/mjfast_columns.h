/* mjfast column masks: the tables of the batch fast path of discards and effective tiles on
 * meld-free 4-set rows (mjfast_column_rows.h).
 *
 * Plain C, no Python; the layer over mjfast_probes.h (mj_seven_probe) and mjfast_rank.h;
 * mjfast_column_rows.h runs the rows, whose first discards / effective-tiles call builds the tables
 * from the kernels' own (mj_build_columns, once: 11 MB and ~0.1 s that a program using only the
 * other kernels never pays). Should the build fail, the rows go through the general path.
 *
 * Why it works: a suit's distance vector has one column j = 2k + p per target (k sets, p pairs),
 * and one tile less raises a column by 0 or 1, one tile more lowers it by 0 or 1. The distance of
 * two suits a, b is min over j of x_a[j] + x_b[9 - j]; after a probe of suit a it keeps its value
 * (a discard) or drops by one (a draw) exactly when the probe does so to some column j of a that
 * attains the minimum. So each suit pattern stores, per column, the 9-bit mask of the ranks whose
 * discard keeps the column (a draw lowers it): its *record*; each pair of classes stores which
 * columns attain the minimum (opt2; opt3 for a suit against the other two combined, without the
 * void rule). A hand's 27 answers are then three record loads and a few masks, instead of a class
 * load and a table lookup per probe. Seven pairs moves by the parity of the probed count only.
 *
 * Records are dense: suit patterns of at most 14 tiles (discards; 13 for draws) by their rank
 * (mjfast_rank.h). 16 bytes each (one cache line; a table of 6.5 MB for discards, 4.6 MB for
 * draws), laid out by rank so that SIMD reads them as bytes, one per probed kind: bytes 0-8 the
 * columns 1-8 (bit j - 1) of ranks 1-9, bytes 9-10 the ranks of the suit's odd counts (bit r - 1),
 * then a 32-bit word (MJ_REC_WORD) of the suit's class (bits 0-6), its pairs (8-11) and odd
 * kinds (12-15), and the ranks of column 9 (16-24). Column 0 (no set, no pair) is 0 whatever
 * the suit holds: every discard keeps it, no draw lowers it.
 */
#ifndef MJFAST_COLUMNS_H
#define MJFAST_COLUMNS_H

#include <stdint.h>
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h> /* madvise (declared unless a strict -std hides it) */
#endif

#include "mjfast_probes.h" /* MJ, mj_row_t, mj_seven_probe */
#include "mjfast_rank.h"   /* MJR, mj_suit_rank, MJ_NRANK14 / 13 */

#define MJ_REC 16     /* bytes per record */
#define MJ_REC_WORD 12 /* offset of its word of class, seven-pairs terms and column 9 */

/* Bits of the 27-bit row masks: suit s holds bits 9s .. 9s + 8 (rank 1 lowest). */
#define MJ_SUIT27(s) (0x1FFu << (9 * (s)))
#define MJ_ALL27 0x7FFFFFFu

typedef struct {
    const uint64_t *bytes;   /* [256] bit i to byte i: 0xFF or 0 */
    const uint32_t *opt2;    /* [128][128] by classes: columns of a (bits 0-9), of b (16-25), distance
                                (26-31, at most 63) */
    const uint16_t *opt3;    /* [NF][NP] columns of a against the pair class, distance (10-) */
    const uint64_t *sev;     /* [2][256] seven pairs of pairs | odd kinds << 4: its distance (bits
                                56-63), and the 27 bits of every kind at bit 0 / 27 where the probes
                                of kinds held an even / odd number of times keep it ([0]: discards)
                                or lower it ([1]: draws) */
    const uint8_t *pair;     /* MJ.pair */
    int n_full;              /* MJ.n_full */
    const uint8_t *rec[2];   /* [0] discards, [1] draws */
    const uint32_t *at_left[2]; /* [2][625] byte offset in rec[m] of the first record of a ranks
                                   1-4 pattern: MJ_REC * MJR.base[m] */
    const uint32_t *at_right;   /* [3125] MJ_REC * MJR.pos: a record is at rec[m] + at_left[m][l]
                                   + at_right[r] (the AVX2 path: no multiply a row) */
    int n_pair;
    void *mem;
} mj_columns_t;

static mj_columns_t MJC;

/* The record (tables t: a copy of MJC) of suit s of a row (at most 14 tiles for discards, 13 for
 * draws). */
static MJ_ALWAYS_INLINE const uint8_t *mj_record(const mj_columns_t *t, const mj_row_t *row, int s,
                                                 const int delta) {
    return t->rec[delta > 0] + (size_t)MJ_REC * mj_suit_rank(row, s, delta > 0);
}

/* The ranks (bit r - 1) of a record's columns in mask o (bits as opt2: column j at bit j), column
 * 0 aside: lo = its bytes 0-7, hi = bytes 8-15 (MJ_REC_WORD at bit 32). Per rank byte: nonzero
 * where it shares a column with o, then one bit of each byte by a multiply. */
static MJ_ALWAYS_INLINE uint32_t mj_columns_or(uint64_t lo, uint64_t hi, uint32_t o) {
    const uint64_t L7 = 0x7F * MJ_ONES8, H = 0x80 * MJ_ONES8;
    uint64_t o8 = o >> 1 & 0xFF, w = lo & o8 * MJ_ONES8;
    uint64_t nz = (((w & L7) + L7) | w) & H; /* bit 7 of each byte: the byte is nonzero */
    uint32_t m = (uint32_t)((nz * 0x0002040810204081ULL) >> 56); /* bit 7 of byte r to bit r */
    m |= (uint32_t)((hi & o8) != 0) << 8;
    return m | ((uint32_t)(hi >> 48) & 0x1FFu & (0u - (o >> 9 & 1)));
}

/* The void choices a row's declared void suit (-1..2) rules out: byte q MJ_INF where suit q may
 * not be the void suit, else 0; byte 3 repeats byte 2 (the rows' dead, mjfast_column_rows.h). */
static MJ_ALWAYS_INLINE uint32_t mj_col_dead(int void_suit) {
    if (void_suit == 2) return MJ_INF * 0x0101u;
    return void_suit >= 0 ? MJ_INF * 0x01010101u & ~(0xFFu << (8 * void_suit)) : 0u;
}

/* Minimum of x[j] + y[9 - j] over the columns, and the columns of x attaining it (bit j). */
static int mj_columns_min(const int8_t *x, const int8_t *y, uint32_t *cols) {
    int best = MJ_INF;
    *cols = 0;
    for (int j = 0; j < 10; j++) {
        int v = x[j] + y[9 - j];
        if (v < best) { best = v; *cols = 0; }
        if (v == best) *cols |= 1u << j;
    }
    return best;
}

/* The mirror of a column mask: column j of a is column 9 - j of its partner. */
static uint32_t mj_columns_mirror(uint32_t o) {
    uint32_t m = 0;
    for (int j = 0; j < 10; j++) m |= (o >> j & 1) << (9 - j);
    return m;
}

/* Seven-pairs terms of a suit of counts x (ranks 1-8, SWAR) and b (rank 9): its pairs, its odd
 * kinds << 4 (so that two or three suits' terms add up to an index of MJC.sev) and the ranks of
 * its odd kinds << 8. */
static MJ_ALWAYS_INLINE uint32_t mj_seven_terms(uint64_t x, uint64_t b) {
    uint64_t odd = x & MJ_ONES8;
    uint32_t pairs = (uint32_t)((((x >> 1) & 0x0303030303030303ULL) * MJ_ONES8) >> 56) + (uint32_t)(b >> 1);
    uint32_t odds = (uint32_t)((odd * MJ_ONES8) >> 56) + (uint32_t)(b & 1);
    uint32_t ranks = (uint32_t)((odd * 0x0102040810204080ULL) >> 56) | (uint32_t)(b & 1) << 8;
    return pairs | odds << 4 | ranks << 8;
}

/* Fill one record (layout: above): for each rank r the probe can make, the columns where it keeps
 * (delta -1) or lowers (+1) the suit's distance: cm[class before][class after] (bits 0-8: columns
 * 1-9). */
static void mj_record_fill(uint8_t *rec, int32_t idx, const uint8_t *c, int delta, const uint16_t *cm) {
    const int nf = MJ.n_full, k = MJ.full[idx];
    uint32_t seven = mj_seven_terms(mj_word8(c), c[8]), col9 = 0;
    memset(rec, 0, MJ_REC);
    for (int r = 0; r < 9; r++) {
        if (delta < 0 ? c[r] == 0 : c[r] == 4) continue;
        uint32_t cols = cm[k * nf + MJ.full[idx + delta * MJ_POW[r]]];
        rec[r] = (uint8_t)cols;
        col9 |= (cols >> 8 & 1) << r;
    }
    rec[9] = (uint8_t)(seven >> 8);
    rec[10] = (uint8_t)(seven >> 16);
    uint32_t word = (uint32_t)k | (seven & 0xFF) << 8 | col9 << 16;
    memcpy(rec + MJ_REC_WORD, &word, 4);
}

/* Records of every pattern of at most max tiles in rank order, into rec (cm: as mj_record_fill). */
static void mj_records_fill(uint8_t *rec, int max, int delta, const uint16_t *cm) {
    for (int l = 0; l < 625; l++) {
        uint8_t c[9] = {(uint8_t)(l / 125), (uint8_t)(l / 25 % 5), (uint8_t)(l / 5 % 5), (uint8_t)(l % 5)};
        int lt = c[0] + c[1] + c[2] + c[3];
        if (lt > max) continue;
        for (int p = 0; p < MJR.right_le[max - lt]; p++, rec += MJ_REC) {
            int r = MJR.order[p];
            c[4] = (uint8_t)(r / 625);
            c[5] = (uint8_t)(r / 125 % 5);
            c[6] = (uint8_t)(r / 25 % 5);
            c[7] = (uint8_t)(r / 5 % 5);
            c[8] = (uint8_t)(r % 5);
            mj_record_fill(rec, l * 3125 + r, c, delta, cm);
        }
    }
}

/* The columns (bits 0-8: columns 1-9) where a probe from class a to class b keeps the distance
 * (cm[0]) or lowers it (cm[1]), into cm[2][NF][NF]. */
static void mj_column_changes(uint16_t *cm) {
    const int nf = MJ.n_full;
    for (int a = 0; a < nf; a++) {
        for (int b = 0; b < nf; b++) {
            uint16_t keep = 0, lower = 0;
            for (int j = 1; j < 10; j++) {
                keep |= (uint16_t)((MJ.vec[10 * b + j] == MJ.vec[10 * a + j]) << (j - 1));
                lower |= (uint16_t)((MJ.vec[10 * b + j] < MJ.vec[10 * a + j]) << (j - 1));
            }
            cm[a * nf + b] = keep;
            cm[nf * nf + a * nf + b] = lower;
        }
    }
}

/* The combined vector of the pair classes (the min-plus of two suits' vectors), into vec2[NP][10]. */
static void mj_pair_vectors(int8_t *vec2) {
    const int nf = MJ.n_full;
    for (int a = 0; a < nf; a++) {
        for (int b = 0; b < nf; b++) {
            const int8_t *x = MJ.vec + 10 * a, *y = MJ.vec + 10 * b;
            int8_t *out = vec2 + 10 * MJ.pair[a * nf + b];
            memset(out, MJ_INF, 10);
            for (int i = 0; i < 10; i++) {
                for (int j = 0; j < 10; j++) {
                    int col = 2 * (i / 2 + j / 2) + (i & 1) + (j & 1), v = x[i] + y[j];
                    if (col < 10 && !((i & 1) && (j & 1)) && v < out[col]) out[col] = (int8_t)v;
                }
            }
        }
    }
}

/* The tables' start in a block of total + MJ_TABLES_ALIGN bytes at raw. On Linux it is aligned
 * to 2 MB and advised to be backed by huge pages: a row's three record loads land anywhere in
 * 11 MB, which 4 KB pages would spread over ~2,700 TLB entries (more than a core holds). */
#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define MJ_TABLES_ALIGN ((size_t)2 << 20)
#else
#define MJ_TABLES_ALIGN ((size_t)64)
#endif
static uint8_t *mj_tables_base(void *raw, size_t total) {
    uint8_t *base = (uint8_t *)raw + ((MJ_TABLES_ALIGN - ((uintptr_t)raw & (MJ_TABLES_ALIGN - 1))) & (MJ_TABLES_ALIGN - 1));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    (void)madvise(base, total & ~(size_t)4095, MADV_HUGEPAGE); /* advice: failing changes nothing */
#else
    (void)total;
#endif
    return base;
}

/* Build MJC from MJ (after the kernels' tables): 0, or -1 (out of memory) or -2 (tables that do
 * not agree with the column masks). */
static int mj_build_columns(void) {
    const int nf = MJ.n_full;
    int np = 0;
    if (nf > 128) return -2; /* classes fit 7 bits of a record */
    for (int i = 0; i < nf * nf; i++) np = MJ.pair[i] + 1 > np ? MJ.pair[i] + 1 : np;
    size_t sizes[8] = {128 * 128 * 4, (size_t)nf * np * 2, (size_t)MJ_NRANK14 * MJ_REC,
                       (size_t)MJ_NRANK13 * MJ_REC, 256 * 8, 512 * 8, 2 * 625 * 4, 3125 * 4},
           off[8], total = 0;
    for (int i = 0; i < 8; i++) {
        off[i] = total;
        total += (sizes[i] + 63) & ~(size_t)63; /* malloc's alignment (16) keeps records in one line */
    }
    void *raw = malloc(total + MJ_TABLES_ALIGN);
    uint8_t *mem = raw ? mj_tables_base(raw, total) : NULL;
    int8_t *vec2 = (int8_t *)malloc((size_t)np * 10);
    uint16_t *cm = (uint16_t *)malloc((size_t)nf * nf * 2 * sizeof *cm);
    if (!mem || !vec2 || !cm) {
        free(raw);
        free(vec2);
        free(cm);
        return -1;
    }
    uint32_t *opt2 = (uint32_t *)(mem + off[0]);
    uint16_t *opt3 = (uint16_t *)(mem + off[1]);
    uint64_t *bytes = (uint64_t *)(mem + off[4]), *sev = (uint64_t *)(mem + off[5]);
    uint32_t *at_left = (uint32_t *)(mem + off[6]), *at_right = (uint32_t *)(mem + off[7]);
    for (int l = 0; l < 2 * 625; l++) at_left[l] = MJ_REC * MJR.base[l / 625][l % 625];
    for (int r = 0; r < 3125; r++) at_right[r] = MJ_REC * MJR.pos[r];
    int bad = 0;
    for (int i = 0; i < 256; i++) {
        bytes[i] = 0;
        for (int r = 0; r < 8; r++) bytes[i] |= (uint64_t)(i >> r & 1) * 0xFF << (8 * r);
    }
    for (int a = 0; a < nf; a++) {
        for (int b = 0; b < nf; b++) {
            uint32_t cols;
            int d = mj_columns_min(MJ.vec + 10 * a, MJ.vec + 10 * b, &cols);
            bad |= d != MJ.two[a * nf + b];
            opt2[a << 7 | b] = cols | mj_columns_mirror(cols) << 16 | (uint32_t)(d < 63 ? d : 63) << 26;
        }
    }
    for (int m = 0; m < 2; m++) {
        for (int i = 0; i < 256; i++) {
            int pairs = i & 15, need = 7 - (pairs < 7 ? pairs : 7), x = need - (i >> 4), e0, e1;
            int d = need + (x > 0 ? x : 0), want = m ? d - 1 : d;
            mj_seven_probe(need, x, m ? +1 : -1, &e0, &e1);
            sev[256 * m + i] = (uint64_t)d << 56 | (uint64_t)(e0 == want) * MJ_ALL27 |
                               (uint64_t)(e1 == want) * MJ_ALL27 << 27;
        }
    }
    mj_pair_vectors(vec2);
    for (int a = 0; a < nf; a++) {
        for (int p = 0; p < np; p++) {
            uint32_t cols;
            int d = mj_columns_min(MJ.vec + 10 * a, vec2 + 10 * p, &cols);
            bad |= d != MJ.final[p * nf + a];
            opt3[a * np + p] = (uint16_t)(cols | (uint32_t)d << 10);
        }
    }
    free(vec2);
    uint8_t *rec14 = mem + off[2], *rec13 = mem + off[3];
    mj_column_changes(cm);
    mj_records_fill(rec14, 14, -1, cm);
    mj_records_fill(rec13, 13, +1, cm + nf * nf);
    free(cm);
    if (bad) {
        free(raw);
        return -2;
    }
    MJC = (mj_columns_t){bytes, opt2, opt3, sev, MJ.pair, nf, {rec14, rec13}, {at_left, at_left + 625},
                         at_right, np, raw};
    return 0;
}

#endif
