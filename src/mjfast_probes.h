/* mjfast meld-free probes: the distances of a meld-free 4-set hand after one tile more (a draw)
 * or less (a discard) of every kind.
 *
 * Plain C, no Python; the layer over mjfast_kernels.h (whose tables and distances it uses). The
 * single-hand kernels and the forecasts (fc_probes) probe here; the batch fast paths of effective
 * tiles and discards read per-suit records instead (mjfast_columns.h). mj_probes takes any hand:
 * the meld-free 4-set ones here, the others through mj_probe of the kernels.
 *
 * A probe of suit s changes that suit's class only, so the other two suits are looked up once
 * per hand; seven pairs and the distance with suit s void move by the parity of the probed count
 * only. With the void rule only the void suits that give the hand's distance can matter (a probe
 * moves a distance by at most 1), which leaves one table row per probed suit on most hands.
 */
#ifndef MJFAST_PROBES_H
#define MJFAST_PROBES_H

#include "mjfast_kernels.h" /* MJ, mj_hand_t, mj_job_t, MJ_BLOCK */

/* What the probes (one tile more or less) of a meld-free 13- or 14-tile hand share. A probe of
 * suit s changes that suit only: with suit q void (q != s), the regular-form distance after it
 * is the TWO row of the other live suit at the new class kk of suit s (without the void rule:
 * the FINAL row of the other two suits combined), and seven pairs moves by the parity of the
 * probed count only (mj_probe_sevens); with suit s void nothing that counts changes (dq[s]). */
typedef struct {
    int d;       /* the hand's distance */
    int dq[3];   /* its distance with suit q void (MJ_INF where q may not be void) */
    int need[3]; /* seven pairs with suit q void: 7 - pairs of the live suits (no void rule:
                    need[0], every suit live) */
    int x[3];    /* need - singles of the live suits */
} mj_probe_base_t;

/* The two-live-suit row of a suit of class k: with vc (the void rule, every form) the void
 * classes' table, seven pairs inside (the callers then pass sev = 0); else the regular form's. */
static MJ_ALWAYS_INLINE const int8_t *mj_two_row(int k, const int vc) {
    return vc ? mj_void_row(k) : MJ.two + k * MJ.n_full;
}

/* Seven pairs of the live suits after a probe, by the parity of the probed count (par0 / par1),
 * from need = 7 - pairs and x = need - singles before it. A draw of a kind held 0 or 2 times adds
 * a single, of one held 1 or 3 times makes a pair; a discard of a kind held 2 or 4 times breaks a
 * pair into a single, of one held 1 or 3 times drops a single. (mj_seven_of without its cap: a
 * 13- or 14-tile hand holds at most 7 pairs after the probe.) */
static MJ_ALWAYS_INLINE void mj_seven_probe(int need, int x, const int delta, int *par0, int *par1) {
    int xm = delta > 0 ? x - 1 : x, xp = delta > 0 ? x : x + 1;
    *par0 = need + (delta < 0) + (xm > 0 ? xm : 0);
    *par1 = need - (delta > 0) + (xp > 0 ? xp : 0);
}

/* Fill pb for the probes of a meld-free 4-set hand of 13 (draws) or 14 (discards) tiles:
 * classes k, tiles n, odd kinds odd (read only with sev), live_q as in mj_hand_t.
 * Options as constants: each combination compiles to straight code. */
static MJ_ALWAYS_INLINE void mj_probe_base(const int *k, const int *n, const int *odd, int live_q,
                                           mj_probe_base_t *pb, const int void_rule, const int reg,
                                           const int sev, const int vc) {
    static const int none[3] = {0, 0, 0};
    int pr[3];
    if (!sev) n = odd = none; /* no seven-pairs terms: need and x go unused */
    for (int s = 0; s < 3; s++) pr[s] = (n[s] - odd[s]) >> 1;
    if (!void_rule) {
        int need = 7 - pr[0] - pr[1] - pr[2], x = need - odd[0] - odd[1] - odd[2];
        int v = reg ? mj_plain_regular(k, -1) : MJ_INF, sv = sev ? need + (x > 0 ? x : 0) : MJ_INF;
        pb->need[0] = need;
        pb->x[0] = x;
        pb->d = sv < v ? sv : v;
        return;
    }
    pb->d = MJ_INF;
    for (int q = 0; q < 3; q++) { /* suit q void: suits a and b live */
        int a = q == 0 ? 1 : 0, b = q == 2 ? 1 : 2, live = live_q >> q & 1;
        int need = 7 - pr[a] - pr[b], x = need - odd[a] - odd[b];
        int v = reg ? mj_two_row(k[a], vc)[k[b]] : MJ_INF, sv = sev ? need + (x > 0 ? x : 0) : MJ_INF;
        v = sv < v ? sv : v;
        pb->dq[q] = live ? v : MJ_INF;
        pb->d = pb->dq[q] < pb->d ? pb->dq[q] : pb->d;
        pb->need[q] = need;
        pb->x[q] = x;
    }
}

/* Seven pairs after a probe of a live suit with suit q void (no void rule: q = 0), by parity into
 * e[2]; MJ_INF where q may not be void (live = 0) or without the seven-pairs form. */
static MJ_ALWAYS_INLINE void mj_probe_sevens(const mj_probe_base_t *pb, int q, int live,
                                             const int delta, const int sev, int *e) {
    mj_seven_probe(pb->need[q], pb->x[q], delta, &e[0], &e[1]);
    if (!sev || !live) e[0] = e[1] = MJ_INF;
}

/* Per byte lane of counts x (at most 4): 0xFF where a probe of delta is possible (a kind held,
 * for a discard; held fewer than 4 times, for a draw), else 0. */
static inline uint64_t mj_probe_ok8(uint64_t x, const int delta) {
    const uint64_t L = MJ_ONES8, H = 0x80 * MJ_ONES8;
    uint64_t top = delta > 0 ? ~(x + 0x7C * L) & H : ((x | H) - L) & H; /* no carry or borrow */
    return (top >> 7) * 0xFF;
}

/* Per byte lane (values below 128): the smaller of x and y. */
static inline uint64_t mj_min8(uint64_t x, uint64_t y) {
    const uint64_t H = 0x80 * MJ_ONES8;
    uint64_t y_ge = ((((y | H) - x) & H) >> 7) * 0xFF; /* no borrow between lanes */
    return (x & y_ge) | (y & ~y_ge);
}

/* A row of the regular-form tables that never wins: the term of a suit that may not be live. */
#define MJ_INF4 MJ_INF, MJ_INF, MJ_INF, MJ_INF
#define MJ_INF32 MJ_INF4, MJ_INF4, MJ_INF4, MJ_INF4, MJ_INF4, MJ_INF4, MJ_INF4, MJ_INF4
static const int8_t mj_inf_row[256] = {MJ_INF32, MJ_INF32, MJ_INF32, MJ_INF32,
                                       MJ_INF32, MJ_INF32, MJ_INF32, MJ_INF32};
#undef MJ_INF32
#undef MJ_INF4

/* Distances after the 9 probes of one suit (counts c, its classes at full = MJ.full + its index),
 * one byte per rank: min(row1[kk], row2[kk] when two_rows, a[parity of the count]) for the class
 * kk after the probe (a = NULL: no such term, as MJ_INF, which no row entry exceeds); ranks 1-8
 * in a word (rank 1 the low byte), rank 9 returned apart. Where the probe is impossible (a kind
 * not held; a fifth copy, with may_cap) the byte means nothing (it is at most MJ_INF). Branch-free; the class loads do not depend on each other, so they
 * overlap; the rows are looked up per probe, a lane by lane. A discard of a kind not held reads
 * at most 5^8 before the suit's index (MJ_GUARD); a draw of a fifth copy could read past the
 * table, so with may_cap it reads the class at offset 0 instead. */
static MJ_ALWAYS_INLINE int mj_suit_probes(const int8_t *row1, const int8_t *row2, const int *a,
                                           const uint8_t *full, const uint8_t *c, uint64_t *lo,
                                           const int delta, const int may_cap, const int two_rows) {
    const uint8_t *r1 = (const uint8_t *)row1, *r2 = (const uint8_t *)row2;
    const int mask = delta > 0 && may_cap;
    uint8_t kk[9], ok[9];
    if (mask) {
        mj_put8(ok, mj_probe_ok8(mj_word8(c), delta));
        ok[8] = (uint8_t)mj_probe_ok8(c[8], delta);
    }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 9
#endif
    for (int r = 0; r < 9; r++) {
        int32_t off = delta * MJ_POW[r];
        if (mask) off &= (int32_t)(int8_t)ok[r];
        kk[r] = full[off];
    }
    uint64_t w = 0; /* gathered in a register: bytes stored apart would not forward to a word */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (int r = 0; r < 8; r++) {
        uint64_t v = r1[kk[r]];
        if (two_rows) v = r2[kk[r]] < v ? r2[kk[r]] : v;
        w |= v << (8 * r);
    }
    int v = r1[kk[8]];
    if (two_rows) v = r2[kk[8]] < v ? r2[kk[8]] : v;
    if (a) {
        uint64_t odd = (mj_word8(c) & MJ_ONES8) * 0xFF;
        w = mj_min8(w, ((uint64_t)a[0] * MJ_ONES8 & ~odd) | ((uint64_t)a[1] * MJ_ONES8 & odd));
        v = a[c[8] & 1] < v ? a[c[8] & 1] : v;
    }
    *lo = w;
    return v;
}

/* The distances after the probes of suit s (lanes as mj_suit_probes) when the suits of mask live
 * may be void: the TWO rows of the other suits and the terms that need no lookup. */
static MJ_ALWAYS_INLINE int mj_suit_probes_live(const mj_probe_base_t *pb, const int *k, int s,
                                                int live, const uint8_t *full, const uint8_t *c,
                                                uint64_t *lo, const int delta, const int may_cap,
                                                const int reg, const int sev, const int vc) {
    int o1 = s == 0 ? 1 : 0, o2 = s == 2 ? 1 : 2, a[2], e1[2], e2[2];
    const int8_t *r1 = reg && (live >> o1 & 1) ? mj_two_row(k[o2], vc) : mj_inf_row;
    const int8_t *r2 = reg && (live >> o2 & 1) ? mj_two_row(k[o1], vc) : mj_inf_row;
    int base = live >> s & 1 ? pb->dq[s] : MJ_INF;
    mj_probe_sevens(pb, o1, live >> o1 & 1, delta, sev, e1);
    mj_probe_sevens(pb, o2, live >> o2 & 1, delta, sev, e2);
    for (int par = 0; par < 2; par++) {
        int best = base < e1[par] ? base : e1[par];
        a[par] = e2[par] < best ? e2[par] : best;
    }
    return mj_suit_probes(r1, r2, a, full, c, lo, delta, may_cap, 1);
}

/* Distances of a meld-free 4-set hand after one tile more (delta = +1) or less (-1) of every
 * kind, into dist[27] (MJ_INF where the probe is impossible); returns the hand's own distance. */
static MJ_ALWAYS_INLINE int mj_plain_probes_as(const mj_hand_t *h, const int delta, int *dist,
                                               const int void_rule, const int reg, const int sev) {
    const int nf = MJ.n_full;
    mj_probe_base_t pb;
    int e[2];
    mj_probe_base(h->k, h->n, h->odd, h->live_q, &pb, void_rule, reg, sev, 0);
    mj_probe_sevens(&pb, 0, 1, delta, sev, e);
    for (int s = 0; s < 3; s++) {
        const uint8_t *cs = h->c + 9 * s, *full = MJ.full + h->idx[s];
        uint64_t w;
        int last, o1 = s == 0 ? 1 : 0, o2 = s == 2 ? 1 : 2;
        if (void_rule) {
            last = mj_suit_probes_live(&pb, h->k, s, h->live_q, full, cs, &w, delta, 1, reg, sev, 0);
        } else {
            const int8_t *fin = reg ? MJ.final + MJ.pair[h->k[o1] * nf + h->k[o2]] * nf : mj_inf_row;
            last = mj_suit_probes(fin, fin, e, full, cs, &w, delta, 1, 0);
        }
        for (int r = 0; r < 9; r++) {
            int v = r < 8 ? (int)(w >> (8 * r) & 0xFF) : last;
            dist[9 * s + r] = (delta > 0 ? cs[r] < 4 : cs[r] > 0) ? v : MJ_INF;
        }
    }
    return pb.d;
}

/* The same with the options as constants. */
static void mj_plain_probes(const mj_hand_t *h, int delta, int *dist) {
    int reg = h->form != MJ_FORM_SEVEN_PAIRS, sev = h->form != MJ_FORM_REGULAR;
#define MJ_PROBES(D, V)                                                                   \
    do {                                                                                  \
        if (reg && sev) mj_plain_probes_as(h, D, dist, V, 1, 1);                          \
        else if (reg) mj_plain_probes_as(h, D, dist, V, 1, 0);                            \
        else mj_plain_probes_as(h, D, dist, V, 0, 1);                                     \
    } while (0)
    if (delta > 0) {
        if (h->void_rule) MJ_PROBES(1, 1);
        else MJ_PROBES(1, 0);
    } else {
        if (h->void_rule) MJ_PROBES(-1, 1);
        else MJ_PROBES(-1, 0);
    }
#undef MJ_PROBES
}

/* Distance after each probe, for any hand (melds go through the exact capped-suit path, short
 * hands through the vector combiners). */
static inline void mj_probes(mj_hand_t *h, int delta, int *dist) {
    if (!h->meld_suits && h->sets == 4) {
        mj_plain_probes(h, delta, dist);
        return;
    }
    mj_base_t base;
    mj_base(h, &base);
    for (int t = 0; t < 27; t++) {
        int c = h->c[t];
        dist[t] = (delta > 0 ? mj_held(h, t) >= 4 : c == 0) ? MJ_INF : mj_probe(h, &base, t, delta);
    }
}

/* Effective tiles of a 13-3m hand: -1, or copies left. visible may be NULL. */
static inline void mj_hand_effective(mj_hand_t *h, const uint8_t *visible, int8_t *out) {
    int d = mj_distance(h);
    if (d >= MJ_INF) {
        memset(out, -1, 27);
        return;
    }
    int dist[27];
    uint8_t held[27];
    mj_probes(h, +1, dist);
    for (int t = 0; t < 27; t++) held[t] = (uint8_t)mj_held(h, t);
    for (int t = 0; t < 27; t++) {
        int left = 4 - held[t] - (visible ? visible[t] : 0);
        out[t] = (int8_t)(held[t] < 4 && dist[t] < d ? (left > 0 ? left : 0) : -1);
    }
}

/* Shanten after discarding each kind from a 14-3m hand (-128 where not held). */
static inline void mj_hand_discards(mj_hand_t *h, int8_t *out) {
    int dist[27];
    mj_probes(h, -1, dist);
    for (int t = 0; t < 27; t++) {
        out[t] = h->c[t] ? (int8_t)mj_shanten_of(dist[t]) : (int8_t)MJ_NOT_HELD;
    }
}

#endif
