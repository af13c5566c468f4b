/* mjfast fan kernels, the suit table (mjfast_fan.h reads it).
 *
 * The suit table. A suit's readings (its splits into sets, plus the pair when it holds 3k+2 tiles)
 * matter to the fan only through five bits per reading (MF_AT ... MF_DRAGON, the R_* bits of
 * mjfast.scoring): all triplets, every set and the pair with a 1 or a 9, a 456 sequence, two
 * identical sequences, 123+456+789. The fan is monotone in each bit (a bit only adds base patterns
 * or extras worth >= 0), so only the maximal bit masks among a suit's readings count; among the
 * 21,743 complete suit patterns of at most 14 tiles there are never more than two. The table maps
 * a complete pattern's base-5 index to those (at most two) masks: an open-addressing hash of
 * 2^16 uint32 entries (256 KB, load 0.33), entry = index (bits 0-20) | mask1 << 21 | mask2 << 26
 * (mask2 = mask1 when there is one). A miss means the pattern is not complete. mf_build fills it
 * at import (about a millisecond) by enumerating every multiset of at most four sets plus an
 * optional pair; tools/fangen.py computes the same mapping in Python for the tests.
 */
#ifndef MJFAST_FAN_TABLE_H
#define MJFAST_FAN_TABLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mjfast_row.h" /* mj_index9 */

#define MF_HASH_BITS 16
#define MF_HASH_SIZE (1 << MF_HASH_BITS)
#define MF_EMPTY 0xFFFFFFFFu
#define MF_KEY_MASK 0x1FFFFFu

/* Reading bits: the R_* of mjfast/scoring/readings.py (tests/scoring/test_fan_rules.py compares them). */
enum { MF_AT = 1, MF_YJ = 2, MF_456 = 4, MF_TWIN = 8, MF_DRAGON = 16 };

/* The table (MF_HASH_SIZE entries): the storage mf_build filled, or the C library's table that a
 * Python extension points it at (mjfast_shared.h). */
static uint32_t *MF_TAB;

static inline uint32_t mf_slot(int32_t idx) {
    return ((uint32_t)idx * 2654435761u) >> (32 - MF_HASH_BITS);
}

/* Maximal masks of a complete suit pattern (mask1 | mask2 << 5), or -1: not complete. */
static inline int mf_lookup(int32_t idx) {
    uint32_t h = mf_slot(idx);
    for (;;) {
        uint32_t e = MF_TAB[h];
        if ((e & MF_KEY_MASK) == (uint32_t)idx) return (int)(e >> 21);
        if (e == MF_EMPTY) return -1;
        h = (h + 1) & (MF_HASH_SIZE - 1);
    }
}

/* Build state: the key slots live in MF_TAB, the set of reachable masks (a 32-bit set) per slot
 * in seen[]. */
static void mf_insert(uint32_t *seen, int32_t idx, int mask) {
    uint32_t h = mf_slot(idx);
    while (MF_TAB[h] != MF_EMPTY && MF_TAB[h] != (uint32_t)idx) h = (h + 1) & (MF_HASH_SIZE - 1);
    MF_TAB[h] = (uint32_t)idx;
    seen[h] |= 1u << mask;
}

/* Every pair choice for the sets in types[0..k) (type < 9: triplet of that rank, else the
 * sequence starting at rank type - 9), counts c. */
static void mf_visit(uint32_t *seen, const uint8_t *c, const int *types, int k) {
    int seq[7] = {0}, nseq = 0, yj = 1;
    for (int i = 0; i < k; i++) {
        int t = types[i];
        if (t < 9) {
            yj &= t == 0 || t == 8;
        } else {
            seq[t - 9]++;
            nseq++;
            yj &= t == 9 || t == 15;
        }
    }
    int bits = nseq ? 0 : MF_AT;
    if (seq[3]) bits |= MF_456;
    for (int s = 0; s < 7; s++)
        if (seq[s] >= 2) bits |= MF_TWIN;
    if (seq[0] && seq[3] && seq[6]) bits |= MF_DRAGON;
    int32_t idx = mj_index9(c);
    mf_insert(seen, idx, bits | (yj ? MF_YJ : 0));
    for (int p = 0; p < 9; p++) {
        if (c[p] > 2) continue;
        mf_insert(seen, idx + 2 * MJ_POW[p], bits | (yj && (p == 0 || p == 8) ? MF_YJ : 0));
    }
}

static void mf_sets(uint32_t *seen, uint8_t *c, int *types, int k, int first) {
    mf_visit(seen, c, types, k);
    if (k == 4) return;
    for (int t = first; t < 16; t++) {
        int r = t < 9 ? t : t - 9, ok;
        if (t < 9) {
            ok = c[r] <= 1;
            if (ok) c[r] += 3;
        } else {
            ok = c[r] < 4 && c[r + 1] < 4 && c[r + 2] < 4;
            if (ok) { c[r]++; c[r + 1]++; c[r + 2]++; }
        }
        if (!ok) continue;
        types[k] = t;
        mf_sets(seen, c, types, k + 1, t);
        if (t < 9) {
            c[r] -= 3;
        } else {
            c[r]--; c[r + 1]--; c[r + 2]--;
        }
    }
}

#define MF_NOMEM (-2)

/* Fill tab (MF_HASH_SIZE entries) and point MF_TAB at it. Returns the number of complete
 * patterns, MF_NOMEM (out of memory), or -1 (more than two maximal masks, which the scheme
 * cannot store). */
static inline int mf_build(uint32_t *tab) {
    uint32_t *seen = (uint32_t *)calloc(MF_HASH_SIZE, sizeof(uint32_t));
    if (!seen) return MF_NOMEM;
    MF_TAB = tab;
    memset(MF_TAB, 0xFF, MF_HASH_SIZE * sizeof *MF_TAB);
    uint8_t c[9] = {0};
    int types[4];
    mf_sets(seen, c, types, 0, 0);
    int count = 0, ok = 1;
    for (int h = 0; h < MF_HASH_SIZE; h++) {
        if (MF_TAB[h] == MF_EMPTY) continue;
        count++;
        uint32_t s = seen[h];
        int top[2], nt = 0;
        for (int m = 0; m < 32; m++) {
            if (!(s >> m & 1)) continue;
            int maximal = 1;
            for (int o = 0; o < 32; o++)
                if (o != m && (s >> o & 1) && (o | m) == o) maximal = 0;
            if (maximal) {
                if (nt == 2) ok = 0;
                else top[nt++] = m;
            }
        }
        if (nt == 1) top[1] = top[0];
        MF_TAB[h] |= (uint32_t)(top[0] | top[1] << 5) << 21;
    }
    free(seen);
    return ok ? count : -1;
}

#endif
