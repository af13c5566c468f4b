/* mjfast dense rank of suit patterns: the patterns of at most 14 (or 13) tiles numbered from 0,
 * so that a table over them holds 405,350 (286,550) entries instead of 5^9 = 1,953,125 base-5
 * slots, and stays in a core's L2 cache while streamed rows pass through it: the column records
 * (mjfast_columns.h) and the win test's bitmap of complete suits (mjfast_waits.h) are indexed
 * by it.
 *
 * rank = MJR.base[m][ranks 1-4] + MJR.pos[ranks 5-9] (m = 0: at most 14 tiles, 1: at most 13),
 * with the patterns of ranks 5-9 sorted by their tiles, so that those fitting beside a pattern of
 * ranks 1-4 come first. The empty suit has rank 0. 11 KB of static tables, filled by mj_init
 * (mj_build_rank: nothing to allocate, nothing to fail but a wrong count).
 *
 * Plain C, no Python; the layer over mjfast_row.h (mj_row_t).
 */
#ifndef MJFAST_RANK_H
#define MJFAST_RANK_H

#include "mjfast_row.h" /* mj_row_t, mj_index9, MJ_SWAR, MJ_ALWAYS_INLINE */

#define MJ_NRANK14 405350 /* suit patterns of at most 14 tiles */
#define MJ_NRANK13 286550 /* of at most 13 */

typedef struct {
    uint32_t base[2][625]; /* first rank of a ranks 1-4 pattern: [0] at most 14 tiles, [1] 13 */
    uint16_t pos[3125];    /* position of a ranks 5-9 pattern in order */
    uint16_t order[3125];  /* the ranks 5-9 patterns (base-5 indices) sorted by tiles */
    uint16_t right_le[21]; /* patterns of ranks 5-9 of at most t tiles */
} mj_rank_t;

static mj_rank_t MJR;

/* How many patterns of ranks 5-9 fit beside the ranks 1-4 pattern l (a base-5 index) in a suit
 * of at most 14 - m tiles: they are the first ones of MJR.order (after MJR.right_le is built). */
static int mj_rank_room(int l, int m) {
    int lt = l / 125 + l / 25 % 5 + l / 5 % 5 + l % 5, max = 14 - m;
    return lt <= max ? MJR.right_le[max - lt] : 0;
}

/* Fill MJR: 0, or -1 when the counts are not MJ_NRANK14 / MJ_NRANK13. */
static int mj_build_rank(void) {
    uint8_t tiles[3125];
    for (int r = 0; r < 3125; r++) tiles[r] = (uint8_t)(r ? tiles[r / 5] + r % 5 : 0);
    for (int t = 0, pos = 0; t <= 20; t++) {
        for (int r = 0; r < 3125; r++) {
            if (tiles[r] == t) {
                MJR.pos[r] = (uint16_t)pos;
                MJR.order[pos++] = (uint16_t)r;
            }
        }
        MJR.right_le[t] = (uint16_t)pos;
    }
    int bad = 0;
    for (int m = 0; m < 2; m++) {
        uint32_t base = 0;
        for (int l = 0; l < 625; l++) {
            MJR.base[m][l] = base;
            base += (uint32_t)mj_rank_room(l, m);
        }
        bad |= base != (m ? MJ_NRANK13 : MJ_NRANK14);
    }
    return bad ? -1 : 0;
}

/* The rank (m: 0 for at most 14 tiles, 1 for 13) of suit s of a row whose counts are at most 4
 * (else meaningless): base[ranks 1-4] + pos[ranks 5-9], with SWAR without the base-5 index
 * (ranks 1-4 and 5-8 as two base-5 numbers by the multiplies of mj_suit_index, stopped before
 * they join). */
static MJ_ALWAYS_INLINE uint32_t mj_suit_rank(const mj_row_t *row, int s, const int m) {
#if MJ_SWAR
    uint64_t x = row->x[s];
    uint64_t y = ((x * 0x501) >> 8) & 0x00FF00FF00FF00FFULL;
    uint64_t z = ((y * 0x190001) >> 16) & 0x0000FFFF0000FFFFULL;
    return MJR.base[m][z & 0xFFFF] + MJR.pos[(z >> 32) * 5 + row->b[s]];
#else
    uint64_t idx = (uint64_t)mj_index9(row->c + 9 * s), left = idx / 3125;
    return MJR.base[m][left] + MJR.pos[idx - left * 3125];
#endif
}

#endif
