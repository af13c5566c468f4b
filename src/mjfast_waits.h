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

/* Bit S (S a 3-bit mask of suits) set when a complete hand holding suits S may win: every S
 * without the void rule; with it, at most two suits and not the declared void suit (-1: none). */
static MJ_ALWAYS_INLINE uint32_t mj_suits_ok(int void_rule, int void_suit) {
    if (!void_rule) return 0xFF;
    uint32_t ok = 0x7F; /* every set but all three suits */
    if (void_suit >= 0) ok &= void_suit == 0 ? 0x55 : void_suit == 1 ? 0x33 : 0x0F;
    return ok;
}

/* Read a meld-free row of lo..hi tiles into row: its suits' wait masks into w and the suits it
 * holds (the return value), or -1 when the row must take the general path (which reports it if
 * it is bad). When the suits held may not win (ok from mj_suits_ok: no superset of them may
 * either), neither may any completion: the masks are 0, not loaded (most random deals hold three
 * suits, and a streamed row saves its table loads). */
static MJ_ALWAYS_INLINE int mj_plain_masks(const uint8_t *src, int void_suit, uint32_t ok,
                                           mj_row_t *row, uint32_t *w, const int lo, const int hi) {
    mj_row_read(row, src);
    if (mj_row_bad(row, lo, hi) | ((unsigned)(void_suit + 1) > 3u)) return -1;
    uint64_t i0 = mj_suit_index(row, 0), i1 = mj_suit_index(row, 1), i2 = mj_suit_index(row, 2);
    int present = (i0 != 0) | (i1 != 0) << 1 | (i2 != 0) << 2;
    w[0] = w[1] = w[2] = 0;
    if (ok >> present & 1) {
        w[0] = MJ.wmask[i0];
        w[1] = MJ.wmask[i1];
        w[2] = MJ.wmask[i2];
    }
    return present;
}

/* The waits of a meld-free 13-tile row (0 when it is not ready) from mj_plain_masks, with ok
 * from mj_suits_ok. */
static MJ_ALWAYS_INLINE uint32_t mj_plain_waits_of(const mj_row_t *row, const uint32_t *w,
                                                   int present, uint32_t ok) {
    uint32_t m = 0;
    /* kind of suit s: the others complete, and the suits held with s may win (wmask has no rank
     * held four times: no fifth copy) */
    if ((w[1] & w[2]) >> 9 & ok >> (present | 1) & 1) m |= w[0] & 0x1FF;
    if ((w[0] & w[2]) >> 9 & ok >> (present | 2) & 1) m |= (w[1] & 0x1FF) << 9;
    if ((w[0] & w[1]) >> 9 & ok >> (present | 4) & 1) m |= (w[2] & 0x1FF) << 18;
    /* seven pairs: one odd kind (the others pairs or quads) completes it; already held, so the
     * suits stay those held, and held once or three times, so a copy is left */
    if (MJ_UNLIKELY(mj_row_odd(row) == 1) && (ok >> present & 1)) m |= mj_row_odd_mask(row);
    return m;
}

/* Whether a meld-free 13- or 14-tile row is complete, as mj_plain_waits_of. 13 tiles never win
 * (though their suits may each be complete: two of them with a pair); seven pairs: 14 tiles of
 * no odd kind. */
static MJ_ALWAYS_INLINE uint8_t mj_plain_win_of(const mj_row_t *row, const uint32_t *w,
                                                int present, uint32_t ok) {
    uint32_t complete = (w[0] & w[1] & w[2]) >> 9 | (mj_row_odd(row) == 0);
    return (uint8_t)(complete & ok >> present & (mj_row_tiles(row) == 14));
}

/* Waits (op MJ_OP_WAITS) or the win test of meld-free 4-set rows, like mj_plain_shanten_as (the
 * same return value). */
static MJ_ALWAYS_INLINE int64_t mj_plain_waits_as(const mj_job_t *job, int64_t i, int64_t end,
                                                  const int waits, const int void_rule) {
    const uint8_t *src = job->hands + 27 * i;
    const int8_t *voids = job->voids ? job->voids + i : NULL;
    int64_t rows = end - i < MJ_BLOCK ? end - i : MJ_BLOCK;
    for (int64_t j = 0; j < rows; j++, src += 27) {
        int void_suit = voids ? mj_once_i8(voids + j) : job->void_scalar;
        mj_row_t row;
        uint32_t w[3], ok = mj_suits_ok(void_rule, void_suit);
        int present = mj_plain_masks(src, void_suit, ok, &row, w, 13, waits ? 13 : 14);
        if (present < 0) return j;
        if (waits) ((uint32_t *)job->out)[i + j] = mj_plain_waits_of(&row, w, present, ok);
        else ((uint8_t *)job->out)[i + j] = mj_plain_win_of(&row, w, present, ok);
    }
    return rows;
}

static int64_t mj_plain_waits(const mj_job_t *job, int64_t i, int64_t end) {
    int waits = job->op == MJ_OP_WAITS;
    if (job->void_rule) return waits ? mj_plain_waits_as(job, i, end, 1, 1) : mj_plain_waits_as(job, i, end, 0, 1);
    return waits ? mj_plain_waits_as(job, i, end, 1, 0) : mj_plain_waits_as(job, i, end, 0, 0);
}

#endif
