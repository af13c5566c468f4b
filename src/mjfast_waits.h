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
 * one odd kind with that kind (the other kinds are pairs or quads).
 */
#ifndef MJFAST_WAITS_H
#define MJFAST_WAITS_H

#include "mjfast_kernels.h" /* MJ, mj_job_t, mj_row_t, mj_row_bad, MJ_BLOCK */
#include "mjfast_rank.h"    /* MJR, mj_suit_rank, MJ_NRANK13 / 14 */

/* The tables of the fast paths, filled by mj_init (mj_build_waits) from MJ.wmask and indexed by
 * the dense rank, so that they stay in L2 while rows stream by (MJ.wmask takes 3.9 MB):
 * - mj_wait13 (573 KB): per suit pattern of at most 13 tiles, its wait mask (bits 0-8), whether
 *   it is complete (bit 9) and its kinds held an odd number of times (bits 10-13);
 * - mj_win14 (50 KB): per pattern of at most 14 tiles, whether it is complete, one bit each;
 * - mj_wait_lut: per void setting (0: no void rule; 1-4: declared void suit -1..2) and per suits
 *   held (bits 3-5) and complete (bits 0-2), the suits whose waits are the row's (0x1FF at bit
 *   16 s). */
static uint16_t mj_wait13[MJ_NRANK13];
static uint64_t mj_win14[(MJ_NRANK14 + 63) / 64];
static uint64_t mj_wait_lut[5][64];


/* Kinds held an odd number of times in a row of counts at most 4: how many, and (mj_row_odd_mask)
 * which, as a 27-bit mask. */
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

static inline uint32_t mj_row_odd_mask(const mj_row_t *row) {
    uint32_t m = 0;
    for (int s = 0; s < 3; s++) {
#if MJ_SWAR
        /* bit 0 of byte r to bit r: one multiply gathers the 8 bits into the top byte */
        uint32_t low = (uint32_t)(((row->x[s] & MJ_ONES8) * 0x0102040810204080ULL) >> 56);
        m |= (low | (uint32_t)(row->b[s] & 1) << 8) << (9 * s);
#else
        for (int r = 0; r < 9; r++) m |= (uint32_t)(row->c[9 * s + r] & 1) << (9 * s + r);
#endif
    }
    return m;
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
    for (int m = 0; m < 2; m++) {
        for (int l = 0; l < 625; l++) {
            for (int p = 0, room = mj_rank_room(l, m); p < room; p++) {
                int32_t idx = l * 3125 + MJR.order[p];
                uint32_t w = MJ.wmask[idx], rank = MJR.base[m][l] + (uint32_t)p, odd = 0;
                for (int32_t x = idx; x; x /= 5) odd += x % 5 & 1;
                if (m) mj_wait13[rank] = (uint16_t)(w | odd << 10);
                else mj_win14[rank >> 6] |= (uint64_t)(w >> 9 & 1) << (rank & 63);
            }
        }
    }
    for (int v = 0; v < 5; v++) {
        uint32_t ok = mj_suits_ok(v > 0, v - 2);
        for (int i = 0; i < 64; i++) {
            int complete = i & 7, present = i >> 3;
            uint64_t e = 0;
            /* suit s takes a tile when the two others are complete and the suits held with s may win */
            for (int s = 0; s < 3; s++)
                if ((complete | 1 << s) == 7 && ok >> (present | 1 << s) & 1) e |= (uint64_t)0x1FF << (16 * s);
            mj_wait_lut[v][i] = e;
        }
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

/* The waits of a meld-free 13-tile row (0 when it is not ready) from its suits' ranks (all 0
 * when the suits held may not win: no superset of them may either) and lut = mj_wait_lut[its
 * void setting] + (suits held << 3). The suits' entries side by side, 16 bits each; two
 * multiplies gather their complete bits (to bits 30-32) and add their odd kinds (to bits 32-36). */
static MJ_ALWAYS_INLINE uint32_t mj_plain_waits_of(const mj_row_t *row, const uint32_t *rank,
                                                   const uint64_t *lut) {
    uint64_t w = (uint64_t)mj_wait13[rank[0]] | (uint64_t)mj_wait13[rank[1]] << 16 |
                 (uint64_t)mj_wait13[rank[2]] << 32;
    uint64_t complete = ((w >> 9 & 0x100010001ULL) * (1 | 1ULL << 15 | 1ULL << 30)) >> 30 & 7;
    uint64_t m = w & lut[complete];
    uint32_t waits = (uint32_t)((m & 0x1FF) | (m >> 7 & 0x3FE00) | (m >> 14 & 0x7FC0000));
    /* seven pairs: one odd kind (the others pairs or quads) completes it; already held, so the
     * suits stay those held, and held once or three times, so a copy is left */
    uint64_t odd = ((w >> 10 & 0xF000F000FULL) * 0x100010001ULL) >> 32 & 31;
    if (MJ_UNLIKELY(odd == 1)) waits |= mj_row_odd_mask(row);
    return waits;
}

/* Waits of a block of meld-free 13-tile rows from row i, like mj_plain_shanten_as (the same
 * return value), in two passes: the first reads and checks the rows, answers 0 for those whose
 * suits may not win (no superset of them may either: most random deals hold three suits) and
 * ranks the suits of the others, asking for their table entries' cache lines; the second reads
 * the entries, by then near, instead of each row's waiting on its own loads (the table, 573 KB,
 * is not all in a 512 KB L2 with the rows streaming through it). */
static MJ_ALWAYS_INLINE int64_t mj_plain_waits_block(const mj_job_t *job, int64_t i, int64_t end,
                                                     const int void_rule) {
    const uint8_t *src = job->hands + 27 * i;
    const int8_t *voids = job->voids ? job->voids + i : NULL;
    const int void_scalar = job->void_scalar;
    uint32_t *out = (uint32_t *)job->out + i;
    int64_t rows = end - i < MJ_BLOCK ? end - i : MJ_BLOCK, n, todo = 0;
    mj_row_t row[MJ_BLOCK];
    uint32_t rank[MJ_BLOCK][3];
    uint16_t key[MJ_BLOCK];
    uint8_t at[MJ_BLOCK];
    for (n = 0; n < rows; n++, src += 27) {
        int void_suit = voids ? mj_once_i8(voids + n) : void_scalar;
        int present = mj_plain_read(src, void_suit, &row[todo], 13, 13);
        if (present < 0) break;
        out[n] = 0;
        if (mj_suits_ok(void_rule, void_suit) >> present & 1) {
            key[todo] = (uint16_t)((void_rule ? void_suit + 2 : 0) << 6 | present << 3);
            for (int s = 0; s < 3; s++) {
                rank[todo][s] = mj_suit_rank(&row[todo], s, 1);
                MJ_PREFETCH(&mj_wait13[rank[todo][s]]);
            }
            at[todo++] = (uint8_t)n;
        }
    }
    for (int64_t j = 0; j < todo; j++)
        out[at[j]] = mj_plain_waits_of(&row[j], rank[j], mj_wait_lut[0] + key[j]);
    return n;
}

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

static int64_t mj_plain_waits(const mj_job_t *job, int64_t i, int64_t end) {
    if (job->op == MJ_OP_WAITS)
        return job->void_rule ? mj_plain_waits_block(job, i, end, 1) : mj_plain_waits_block(job, i, end, 0);
    return job->void_rule ? mj_plain_win_as(job, i, end, 1) : mj_plain_win_as(job, i, end, 0);
}

#endif
