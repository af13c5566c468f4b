/* mjfast kernel tables built at mj_init: the expansions of the shipped class tables into the
 * per-index tables the kernels read (MJ.full, the wait masks, the void classes and the void-pair
 * tables of the headline shanten loops).
 *
 * Plain C, no Python; over mjfast_kernels.h (MJ, mj_class), called only by mj_build_tables in
 * mjfast_api.c, once per process.
 */
#ifndef MJFAST_KERNEL_BUILD_H
#define MJFAST_KERNEL_BUILD_H

#include <string.h>

#include "mjfast_kernels.h" /* MJ, mj_class, MJ_POW */

/* Expand the shipped split tables into MJ.full's one byte per index. MJ.right sits at an odd
 * offset of the shipped bytes (after the 125 of MJ.left), so its entries are read byte by byte. */
static inline void mj_build_full(uint8_t *full) {
    for (int32_t i = 0; i < 1953125; i++) {
        int32_t l = i / 15625, r = i - l * 15625;
        int right = MJ.right[2 * r] | MJ.right[2 * r + 1] << 8;
        full[i] = MJ.lr[MJ.left[l] * MJ.n_right + right];
    }
}

/* ---- table construction at import ------------------------------------------------------ */

/* Is the suit pattern (by class and tile count) already a complete set of sets (+ the pair)? */
static inline int mj_complete_class(int cls, int n) {
    int r = n % 3;
    if (r == 1) return 0;
    return MJ.vec[cls * 10 + 2 * (n / 3) + (r == 2)] == 0;
}

/* Fill wmask from the suit classes: one pass in index order with an odometer of the digits. */
static inline void mj_build_wmask(uint16_t *wmask) {
    uint8_t d[9] = {0};
    int n = 0;
    for (int32_t i = 0; i < 1953125; i++) {
        int odd = 0, lone = 0;
        for (int r = 0; r < 9; r++) {
            if (d[r] & 1) {
                odd++;
                lone = r;
            }
        }
        uint16_t m = (uint16_t)((odd < 3 ? odd : 3) << 10 | (odd == 1 ? lone : 0) << 12);
        if (n <= 14) {
            if (mj_complete_class(mj_class(i), n)) m |= 1u << 9;
            if (n <= 13) {
                for (int r = 0; r < 9; r++) {
                    if (d[r] < 4 && mj_complete_class(mj_class(i + MJ_POW[r]), n + 1)) m |= 1u << r;
                }
            }
        }
        wmask[i] = m;
        for (int r = 8; r >= 0; r--) { /* odometer: rank 8 is the least significant digit */
            if (d[r] < 4) { d[r]++; n++; break; }
            n -= 4;
            d[r] = 0;
        }
    }
}

/* Fill void_full: the void class of every suit index, pairs and singles kept by an odometer;
 * and counts: bit n of counts[v] when a pattern of n <= 14 tiles has void class v. */
static inline void mj_build_void_full(uint8_t *void_full, uint32_t counts[256]) {
    uint8_t d[9] = {0};
    int pairs = 0, singles = 0;
    memset(counts, 0, 256 * sizeof counts[0]);
    for (int32_t i = 0; i < 1953125; i++) {
        int p = pairs < 7 ? pairs : 7, o = singles < 7 ? singles : 7, n = 2 * pairs + singles;
        void_full[i] = MJ.void_class[(mj_class(i) * 8 + p) * 8 + o];
        if (n <= 14) counts[void_full[i]] |= 1u << n;
        for (int r = 8; r >= 0; r--) {
            if (d[r] < 4) {
                d[r]++;
                pairs += d[r] == 2 || d[r] == 4;
                singles += d[r] & 1 ? 1 : -1;
                break;
            }
            pairs -= 2; /* 4 -> 0 */
            d[r] = 0;
        }
    }
}

/* The void-pair tables: the distance of a meld-free 13- or 14-tile hand under the void rule
 * (any form) is min(two[v0][v1], two[v0][v2], two[v1][v2]) over its suits' void classes v;
 * void_pair[v0][v1] gives a class p of the pair and void_last[p][v2] that minimum less 1, so the
 * headline loop takes two lookups instead of three and a minimum. Pairs share a class when their
 * rows agree wherever both can be read: at the v2 whose tile counts (counts, of
 * mj_build_void_full) bring the hand to 13 or 14 tiles. Rows are merged first fit; a row seen
 * before (hashed) goes straight to its class. While building, void_last holds distances, with
 * MJ_VOID_ANY where no hand reads it (bytes below 0x80 otherwise: mj_void_rows_agree). */
#define MJ_VOID_ANY 0x80

/* Do two rows agree wherever both hold a value? (8 bytes at a time: a byte differs in its low
 * 7 bits, and neither has the MJ_VOID_ANY bit.) */
static inline int mj_void_rows_agree(const uint8_t *x, const uint8_t *y) {
    const uint64_t low = 0x7F7F7F7F7F7F7F7FULL, high = ~low;
    for (int c = 0; c < 256; c += 8) {
        uint64_t u, v;
        memcpy(&u, x + c, 8);
        memcpy(&v, y + c, 8);
        if ((((u ^ v) & low) + low) & ~(u | v) & high) return 0;
    }
    return 1;
}

/* The row of pair (a, b) into g (MJ_VOID_ANY where no hand reads it): 0 if no hand holds it.
 * by_count + 256 t lists the n_count[t] void classes of patterns of t tiles. */
static inline int mj_void_pair_row(int a, int b, const uint32_t counts[256],
                                   const uint8_t *by_count, const int n_count[15], uint8_t g[256]) {
    uint32_t sums = 0; /* bit s: suits 0 and 1 may hold s tiles together */
    for (int t = 0; t <= 14; t++)
        if (counts[a] >> t & 1) sums |= counts[b] << t;
    const int8_t *ra = MJ.void_two + ((size_t)a << 8), *rb = MJ.void_two + ((size_t)b << 8);
    int any = 0;
    memset(g, MJ_VOID_ANY, 256);
    for (int t = 0; t <= 14; t++) {
        if (!((sums << 1) >> (14 - t) & 3)) continue; /* no s with s + t = 13 or 14 */
        any = 1;
        for (int i = 0; i < n_count[t]; i++) {
            int c = by_count[256 * t + i], d = ra[b];
            d = ra[c] < d ? ra[c] : d;
            g[c] = (uint8_t)(rb[c] < d ? rb[c] : d);
        }
    }
    return any;
}

/* Fill void_pair and void_last ([256][256] each): the classes, or -1 if more than 256. */
static inline int mj_build_void_pair(uint8_t *pair, int8_t *last, const uint32_t counts[256]) {
    static const uint64_t K = 0x9E3779B97F4A7C15ULL;
    uint8_t by_count[15 * 256], *rows = (uint8_t *)last, g[256];
    int n_count[15] = {0}, n = 0, used = 0;
    struct {
        uint64_t key;
        int cls; /* -1: empty */
    } seen[1024];
    for (int i = 0; i < 1024; i++) seen[i].cls = -1;
    for (int v = 0; v < 256; v++)
        for (int t = 0; t <= 14; t++)
            if (counts[v] >> t & 1) by_count[256 * t + n_count[t]++] = (uint8_t)v;
    memset(pair, 0, 65536);
    for (int a = 0; a < 256; a++) {
        for (int b = 0; b <= a; b++) {
            if (!mj_void_pair_row(a, b, counts, by_count, n_count, g)) continue;
            uint64_t key = 0;
            for (int c = 0; c < 256; c += 8) {
                uint64_t w;
                memcpy(&w, g + c, 8);
                key = (key ^ w) * K;
            }
            int slot = (int)(key >> 54), k = -1;
            while (seen[slot].cls >= 0 && seen[slot].key != key) slot = (slot + 1) & 1023;
            if (seen[slot].cls >= 0 && mj_void_rows_agree(g, rows + 256 * seen[slot].cls))
                k = seen[slot].cls;
            for (int c = 0; k < 0 && c < n; c++)
                if (mj_void_rows_agree(g, rows + 256 * c)) k = c;
            if (k < 0) {
                if (n == 256) return -1;
                memset(rows + 256 * n, MJ_VOID_ANY, 256);
                k = n++;
            }
            for (int c = 0; c < 256; c++)
                if (g[c] != MJ_VOID_ANY) rows[256 * k + c] = g[c];
            if (seen[slot].cls < 0 && used < 768) { /* a quarter left empty ends each probe */
                seen[slot].key = key;
                seen[slot].cls = k;
                used++;
            }
            pair[a << 8 | b] = pair[b << 8 | a] = (uint8_t)k;
        }
    }
    for (int i = 0; i < 256 * n; i++)
        last[i] = (int8_t)(rows[i] == MJ_VOID_ANY ? MJ_UNWINNABLE : mj_shanten_of(rows[i]));
    return n;
}

/* Fill final_shanten: the n entries of MJ.final ([NP][NF]) as shanten, so that the regular
 * form's headline loop stores its last lookup as it is. */
static inline void mj_build_final_shanten(int8_t *final_shanten, size_t n) {
    for (size_t i = 0; i < n; i++)
        final_shanten[i] = (int8_t)mj_shanten_of(MJ.final[i]);
}

#endif
