/* mjfast sampled statistics: the main job of `mjfast stats`, one C loop per chunk of hands.
 *
 * Plain C, no Python: mjfast/_core/_stats.pxi calls ms_run_chunk, on the tables mj_init built,
 * with the GIL released. A chunk deals its hands from its own generator (xoshiro256**, seeded
 * by splitmix64 from the run's key and the chunk number: reproducible, and independent of how
 * chunks are spread over threads) and tallies every statistic at once.
 *
 * Per hand (meld-free, no declared void): the distance (shanten + 1) with and without the void
 * rule and, under the void rule, the effective tiles and waits that mjfast.advise's first choice
 * leaves (14 tiles) or of the hand itself (13 tiles). The void-rule distance is min over the void
 * suit q of D_q, the distance of the two live suits. Each statistic is derived from D_q without
 * probing all 27 kinds per candidate discard:
 * - a tile swap (discard t, draw u) changes D_q by at most one, so u lowers the distance below
 *   d = min D_q only through a q with D_q = d (the set Q of best void suits);
 * - discarding a tile t of suit q leaves D_q as it is, so every such t is a best discard and the
 *   useful draws under q are those of the unchanged live suits, found once per hand;
 * - a tile t of a live suit is a best discard under q when removing it keeps D_q = d; its useful
 *   draws change one suit (a swap within t's suit) or look the other live suit's draws up.
 * tests/stats/test_main_job.py holds this against mjfast.advise, effective_tiles and waits.
 */
#ifndef MJFAST_STATS_H
#define MJFAST_STATS_H

#include "mjfast_kernels.h" /* MJ tables, mj_class, mj_seven_of, mj_load, mj_hand_waits */

#define MS_BINS 16 /* distances 0..15 (shanten -1..14): every meld-free hand */
#define MS_WALL 108

/* ---- the generator ----------------------------------------------------------------------- */

typedef struct {
    uint64_t s[4];
} ms_rng_t;

static inline uint64_t ms_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* xoshiro256** state for chunk `chunk` of the run with key `key` (splitmix64 outputs). */
static inline void ms_seed(ms_rng_t *g, uint64_t key, uint64_t chunk) {
    uint64_t x = ms_mix(key) ^ ms_mix(chunk ^ 0x6A09E667F3BCC909ULL);
    for (int i = 0; i < 4; i++) {
        x += 0x9E3779B97F4A7C15ULL;
        g->s[i] = ms_mix(x);
    }
}

static inline uint64_t ms_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t ms_next(ms_rng_t *g) {
    uint64_t *s = g->s;
    uint64_t r = ms_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ms_rotl(s[3], 45);
    return r;
}

/* Each generator output gives three 21-bit draws (its top 63 bits): a hand of 14 tiles costs 5
 * outputs instead of 14. */
#define MS_DRAW_BITS 21
#define MS_DRAW_MASK ((1u << MS_DRAW_BITS) - 1)

/* Uniform in [0, range) (range <= MS_WALL) from a uniform 21-bit draw x: Lemire's multiply-shift
 * with its rejection step (exactly uniform; a draw is rejected with probability below 2^-14, and
 * its replacement comes from a fresh output). */
static MJ_ALWAYS_INLINE uint32_t ms_below(ms_rng_t *g, uint32_t x, uint32_t range) {
    uint32_t m = x * range; /* < 2^21 * 108: no overflow */
    if ((m & MS_DRAW_MASK) < range) {
        uint32_t floor = ((MS_DRAW_MASK + 1) - range) % range; /* 2^21 mod range */
        while ((m & MS_DRAW_MASK) < floor) {
            m = (uint32_t)(ms_next(g) >> (64 - MS_DRAW_BITS)) * range;
        }
    }
    return m >> MS_DRAW_BITS;
}

/* Per kind: its suit index's power of 5, placed in its suit's 21-bit field (an index < 5^9 <
 * 2^21 never carries into the next field), so one add per tile keeps all three indices. */
#define MS_P(s, e) ((uint64_t)(e) << (MS_DRAW_BITS * (s)))
#define MS_SUIT_POWS(s) MS_P(s, 390625), MS_P(s, 78125), MS_P(s, 15625), MS_P(s, 3125), \
    MS_P(s, 625), MS_P(s, 125), MS_P(s, 25), MS_P(s, 5), MS_P(s, 1)
static const uint64_t MS_KIND_POW[27] = {MS_SUIT_POWS(0), MS_SUIT_POWS(1), MS_SUIT_POWS(2)};

/* Move a uniform pick from wall[i..MS_WALL) to wall[i] (the pick from 21-bit draw x) and count
 * it. */
static MJ_ALWAYS_INLINE void ms_take(ms_rng_t *g, uint8_t *wall, int i, uint32_t x, uint8_t *c,
                                     uint64_t *packed) {
    int j = i + (int)ms_below(g, x & MS_DRAW_MASK, (uint32_t)(MS_WALL - i));
    uint8_t t = wall[j];
    wall[j] = wall[i];
    wall[i] = t;
    c[t]++;
    *packed += MS_KIND_POW[t];
}

/* Deal `tiles` tiles into counts c[27] and base-5 suit indices idx[3]: a partial Fisher-Yates
 * shuffle of the wall (whatever order the wall is in, the tiles drawn are a uniform sample
 * without replacement). */
static MJ_ALWAYS_INLINE void ms_deal(ms_rng_t *g, uint8_t *wall, int tiles, uint8_t *c,
                                     int32_t *idx) {
    uint64_t packed = 0, r;
    int i = 0;
    memset(c, 0, 27);
    for (; i + 3 <= tiles; i += 3) {
        r = ms_next(g);
        ms_take(g, wall, i, (uint32_t)(r >> 43), c, &packed);
        ms_take(g, wall, i + 1, (uint32_t)(r >> 22), c, &packed);
        ms_take(g, wall, i + 2, (uint32_t)(r >> 1), c, &packed);
    }
    if (i < tiles) {
        r = ms_next(g);
        ms_take(g, wall, i, (uint32_t)(r >> 43), c, &packed);
        if (i + 1 < tiles) ms_take(g, wall, i + 1, (uint32_t)(r >> 22), c, &packed);
    }
    for (int s = 0; s < 3; s++) idx[s] = (int32_t)(packed >> (MS_DRAW_BITS * s) & MS_DRAW_MASK);
}

static inline void ms_wall(uint8_t *wall) {
    for (int i = 0; i < MS_WALL; i++) wall[i] = (uint8_t)(i / 4);
}

/* ---- one hand ---------------------------------------------------------------------------- */

/* What the distances need of a suit: without the void rule its class (seven pairs counts pairs
 * and odd kinds from the hand's masks); with it, its void class (MJ.void_two with the other live
 * suit). */
typedef struct {
    int32_t idx;
    int k, v;
} ms_suit_t;

typedef struct {
    uint8_t c[32];       /* counts (27 used; 8-byte loads of each suit stay inside) */
    ms_suit_t s[3];      /* idx set by the caller, the rest by ms_load */
    uint32_t bit0, bit1; /* per kind: bit 0 and bit 1 of the count */
    uint32_t full, held; /* per kind: held 4 times, held at all */
    uint8_t pk[3][9];    /* void class after drawing one more tile of each rank (on first use) */
    int have_pk;         /* bit s: pk[s] filled */
    int dq[3];           /* distance with suit q void */
} ms_hand_t;

typedef struct {
    int dist_void, dist_free; /* shanten + 1 */
    int discard;              /* the best discard (14 tiles), else -1 */
    int eff_kinds, eff_copies;
    int waits;                /* waiting kinds when ready (after the best discard), else -1 */
} ms_result_t;

static MJ_ALWAYS_INLINE uint32_t ms_suit_bits(uint32_t mask, int s) {
    return mask >> (9 * s) & 0x1FFu;
}

/* Distance of two live suits (every form), one given by its void class. */
static MJ_ALWAYS_INLINE int ms_two(int va, const ms_suit_t *b) { return mj_void_row(va)[b->v]; }

static MJ_ALWAYS_INLINE const uint8_t *ms_plus(ms_hand_t *h, int s) {
    if (!(h->have_pk >> s & 1)) {
        /* locals: a byte store into pk could alias the table pointers, which would be reloaded */
        const uint8_t *c = h->c + 9 * s, *vf = MJ.void_full;
        uint8_t *pk = h->pk[s];
        int32_t idx = h->s[s].idx;
        for (int r = 0; r < 9; r++) { /* a rank held 4 times reads the suit's own class */
            pk[r] = vf[idx + (c[r] < 4 ? MJ_POW[r] : 0)];
        }
        h->have_pk |= 1 << s;
    }
    return h->pk[s];
}

/* Ranks of a live suit (void classes after each draw pk, ranks below 4 copies lt4) whose draw
 * takes the distance with the other live suit b below d: bits 0-8. Eight distances are compared
 * at once, one per byte of a word: a distance x is 0..14 and d 1..15, so x + 128 - d sets the
 * byte's top bit exactly when x >= d (no carry between bytes); a multiply gathers the bits. */
static MJ_ALWAYS_INLINE uint32_t ms_draws(const uint8_t *pk, uint32_t lt4, const ms_suit_t *b,
                                          int d) {
    const uint64_t ONES = 0x0101010101010101ULL, GATHER = 0x0102040810204080ULL;
    const int8_t *row = mj_void_row(b->v);
    uint64_t w = 0;
    for (int r = 0; r < 8; r++) w |= (uint64_t)(uint8_t)row[pk[r]] << (8 * r);
    uint64_t below = ((w + (uint64_t)(128 - d) * ONES) >> 7 & ONES) ^ ONES;
    uint32_t m = (uint32_t)((below * GATHER) >> 56) | (uint32_t)(row[pk[8]] < d) << 8;
    return m & lt4 & 0x1FFu;
}

/* Useful draws when suit q is void and the live suits are as dealt: a 27-bit mask. */
static MJ_ALWAYS_INLINE uint32_t ms_useful(ms_hand_t *h, int q, int d) {
    int a = q == 0 ? 1 : 0, b = q == 2 ? 1 : 2;
    const ms_suit_t *sa = &h->s[a], *sb = &h->s[b];
    uint32_t ma = ms_draws(ms_plus(h, a), ms_suit_bits(~h->full, a), sb, d);
    uint32_t mb = ms_draws(ms_plus(h, b), ms_suit_bits(~h->full, b), sa, d);
    return ma << (9 * a) | mb << (9 * b);
}

/* Per-kind bits of h->c: bit 0 and bit 1 of the count, held 4 times, held at all. */
static MJ_ALWAYS_INLINE void ms_masks(ms_hand_t *h) {
    const uint8_t *c = h->c;
    uint32_t bit0 = 0, bit1 = 0, full = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* counts <= 4: bit 2 is set exactly for 4; the bits of 8 bytes gather with a multiply */
    const uint64_t ONES = 0x0101010101010101ULL, GATHER = 0x0102040810204080ULL;
    for (int s = 0; s < 3; s++) {
        uint64_t x;
        memcpy(&x, c + 9 * s, 8);
        uint32_t last = c[9 * s + 8];
        bit0 |= ((uint32_t)(((x & ONES) * GATHER) >> 56) | (last & 1) << 8) << (9 * s);
        bit1 |= ((uint32_t)((((x >> 1) & ONES) * GATHER) >> 56) | (last >> 1 & 1) << 8) << (9 * s);
        full |= ((uint32_t)((((x >> 2) & ONES) * GATHER) >> 56) | (last >> 2 & 1) << 8) << (9 * s);
    }
#else
    for (int t = 0; t < 27; t++) {
        bit0 |= (uint32_t)(c[t] & 1) << t;
        bit1 |= (uint32_t)(c[t] >> 1 & 1) << t;
        full |= (uint32_t)(c[t] == 4) << t;
    }
#endif
    h->bit0 = bit0;
    h->bit1 = bit1;
    h->full = full;
    h->held = bit0 | bit1 | full;
}

/* Fill h from h->c and h->s[].idx: the masks, classes, and the distance per void suit. */
static MJ_ALWAYS_INLINE void ms_load(ms_hand_t *h) {
    ms_masks(h);
    for (int s = 0; s < 3; s++) {
        h->s[s].k = mj_class(h->s[s].idx);
        h->s[s].v = MJ.void_full[h->s[s].idx];
    }
    h->have_pk = 0;
    for (int q = 0; q < 3; q++) {
        int a = q == 0 ? 1 : 0, b = q == 2 ? 1 : 2;
        h->dq[q] = ms_two(h->s[a].v, &h->s[b]);
    }
}

static MJ_ALWAYS_INLINE int ms_free_distance(const ms_hand_t *h) {
    const ms_suit_t *s = h->s;
    int nf = MJ.n_full;
    int reg = MJ.final[(int)MJ.pair[s[0].k * nf + s[1].k] * nf + s[2].k];
    /* pairs: sum c // 2 (a count of 2 or 3 has bit 1, 4 is two pairs); odd kinds: bit 0 */
    int sev = mj_seven_of(mj_popcount(h->bit1) + 2 * mj_popcount(h->full), mj_popcount(h->bit0));
    return reg < sev ? reg : sev;
}

/* Copies left of the kinds in e (none held 4 times): sum over u in e of 4 - c[u]. */
static MJ_ALWAYS_INLINE int ms_copies_left(const ms_hand_t *h, uint32_t e) {
    return 4 * mj_popcount(e) - mj_popcount(e & h->bit0) - 2 * mj_popcount(e & h->bit1);
}

/* Waits of the hand less one tile of kind t (t = -1: the hand as it is), void rule, no
 * declared void: the kernels' own definition (mj_hand_waits). */
static inline uint32_t ms_waits_without(const ms_hand_t *h, int t) {
    uint8_t row[27];
    mj_hand_t hh;
    int32_t err[3];
    memcpy(row, h->c, 27);
    if (t >= 0) row[t]--;
    if (mj_load(&hh, row, NULL, -1, 1, MJ_FORM_ALL, MJ_SIZE_EITHER, 4, err) != MJ_OK) return 0;
    return mj_hand_waits(&hh, -1);
}

/* The useful draws after discarding t (of suit a), for the best void suits q in qmask under which
 * t's suit is live: the kinds of shared[q] whose draw still lowers D_q below d, if removing t
 * keeps D_q = d (else t is no best discard under q). Bit 31 is set when t is a best discard
 * under one of them. Draws into the other live suit b look up b's plus classes; a draw into a
 * is a swap within a: one class load each, tested for both q that may want it (there are at
 * most two: q != a), and skipped when even all of them could not give t the `need` copies left
 * it needs to win (then the result is a subset: such a t loses anyway). `known` holds no kind
 * of suit a (nor do the draws into b), so every swap is still to test. */
static MJ_ALWAYS_INLINE uint32_t ms_cut_effect(ms_hand_t *h, int t, int a, int qmask,
                                               const uint32_t *shared, int d, uint32_t known,
                                               int need) {
    int r = t - 9 * a, n = 0, vb[2] = {0, 0};
    int32_t cut_idx = h->s[a].idx - MJ_POW[r];
    ms_suit_t cut = {cut_idx, 0, MJ.void_full[cut_idx]};
    uint32_t found = known, want[2] = {0, 0}; /* per live q: the swaps it wants, b's class */
    for (uint32_t qs = (uint32_t)qmask; qs; qs &= qs - 1) {
        int q = mj_ctz(qs), b = 3 - a - q;
        const ms_suit_t *sb = &h->s[b];
        if (ms_two(cut.v, sb) != d) continue;
        uint32_t open = ms_suit_bits(shared[q] & ~found, b); /* b's kinds still to test */
        if (open) found |= ms_draws(ms_plus(h, b), open, &cut, d) << (9 * b);
        want[n] = ms_suit_bits(shared[q], a) & ~(1u << r);
        vb[n++] = sb->v;
    }
    if (!n) return found;
    uint32_t swaps = want[0] | want[1], fa = 0;
    if (ms_copies_left(h, found | swaps << (9 * a)) >= need) {
        for (uint32_t w = swaps; w; w &= w - 1) {
            int x = mj_ctz(w);
            const int8_t *row = mj_void_row(MJ.void_full[cut_idx + MJ_POW[x]]);
            uint32_t hit = (uint32_t)(row[vb[0]] < d) & want[0] >> x;
            if (n == 2) hit |= (uint32_t)(row[vb[1]] < d) & want[1] >> x;
            fa |= (hit & 1u) << x;
        }
    }
    return found | fa << (9 * a) | 1u << 31;
}

/* The discard advise ranks first for a hand that is not complete (d >= 1): most copies left of
 * its effective tiles, then the lowest kind. A best discard t of suit a leaves the useful draws
 * U_q of every best void q: those of the dealt live suits (shared[q]) when a = q, else a subset
 * of shared[q] (a draw useful without t is useful with it). So the union S of shared bounds
 * every candidate's copies, and a candidate whose bound cannot beat the best so far is skipped;
 * the others probe only the kinds of shared[q] they still miss. Candidates are visited over the
 * set bits of masks: testing all 27 kinds in turn mispredicts often. */
static MJ_ALWAYS_INLINE void ms_best_discard(ms_hand_t *h, int d, ms_result_t *res) {
    int qmask = (h->dq[0] == d) | (h->dq[1] == d) << 1 | (h->dq[2] == d) << 2;
    uint32_t shared[3] = {0, 0, 0}, all = 0, in_q = 0;
    for (int q = 0; q < 3; q++) {
        if (qmask >> q & 1) {
            all |= shared[q] = ms_useful(h, q, d) & ~h->full;
            in_q |= 0x1FFu << (9 * q);
        }
    }
    int all_copies = ms_copies_left(h, all), best_t = 27, best_copies = -1;
    uint32_t best_e = 0, todo[2] = {h->held & in_q, h->held & ~in_q};
    if ((qmask & (qmask - 1)) == 0 && todo[0]) {
        /* one best void suit v, holding tiles: its lowest kind is a best discard leaving all of
         * S, so only a lower kind that leaves all of S too (so not in S) can come first */
        best_t = mj_ctz(todo[0]);
        best_copies = all_copies;
        best_e = all;
        for (uint32_t w = todo[1] & ((1u << best_t) - 1) & ~all; w; w &= w - 1) {
            int t = mj_ctz(w);
            if (ms_cut_effect(h, t, t / 9, qmask, shared, d, 0, all_copies) == (1u << 31 | all)) {
                best_t = t;
                break;
            }
        }
        todo[0] = todo[1] = 0;
    }
    /* otherwise discards from a best void suit first (always best discards, with the largest
     * sets), then the others */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t w = todo[pass]; w; w &= w - 1) {
            int t = mj_ctz(w), a = t / 9, void_a = qmask >> a & 1;
            int most = all_copies - (int)(all >> t & 1) * (4 - h->c[t]);
            int need = best_copies + (t > best_t); /* ties go to the lower kind */
            if (most < need) continue;
            uint32_t e = ms_cut_effect(h, t, a, qmask & ~(1 << a), shared, d,
                                       void_a ? shared[a] : 0, need);
            int copies = ms_copies_left(h, e & 0x7FFFFFFu);
            if ((void_a || e >> 31) && copies >= need) {
                best_copies = copies;
                best_t = t;
                best_e = e & 0x7FFFFFFu;
            }
        }
    }
    res->discard = best_t;
    res->eff_copies = best_copies;
    res->eff_kinds = mj_popcount(best_e);
}

/* A complete 14-tile hand: every discard leaves it ready; the effective tiles are the waits. */
static inline void ms_complete_discard(ms_hand_t *h, ms_result_t *res) {
    int best_copies = -1;
    for (uint32_t w = h->held; w; w &= w - 1) {
        int t = mj_ctz(w);
        uint32_t waits = ms_waits_without(h, t);
        /* copies left: 4 - (held after the discard) - (the discard, seen) = 4 - c[u], so none
         * of a kind held 4 times (only t itself can be such a wait) */
        int copies = ms_copies_left(h, waits & ~h->full);
        if (copies > best_copies) {
            best_copies = copies;
            res->discard = t;
            res->eff_kinds = res->waits = mj_popcount(waits);
        }
    }
    res->eff_copies = best_copies;
}

/* The per-hand analysis is built twice and picked when the library loads (an ifunc): with the
 * POPCNT instruction where the CPU has it (GCC turns mj_popcount's bit tricks into it: ~10% of
 * the main job), else as the compiler flags say. GCC on x86-64 with glibc only; elsewhere one
 * build. */
#if defined(__GNUC__) && __GNUC__ >= 8 && !defined(__clang__) && defined(__x86_64__) && \
    defined(__GLIBC__) && !defined(__POPCNT__)
#define MS_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define MS_POPCNT_CLONES
#endif

/* Every statistic of one meld-free hand of 13 or 14 tiles in h->c (suit indices in h->s). */
MS_POPCNT_CLONES
static void ms_analyse(ms_hand_t *h, int tiles, ms_result_t *res) {
    ms_load(h);
    int d = h->dq[0] < h->dq[1] ? h->dq[0] : h->dq[1];
    d = h->dq[2] < d ? h->dq[2] : d;
    res->dist_void = d;
    res->dist_free = ms_free_distance(h);
    res->waits = res->discard = -1;
    res->eff_kinds = res->eff_copies = 0;
    if (tiles == 14) {
        if (d == 0) {
            ms_complete_discard(h, res);
            return;
        }
        ms_best_discard(h, d, res);
        if (d == 1) res->waits = mj_popcount(ms_waits_without(h, res->discard));
        return;
    }
    uint32_t e = 0;
    for (int q = 0; q < 3; q++) {
        if (h->dq[q] == d) e |= ms_useful(h, q, d);
    }
    e &= ~h->full;
    res->eff_kinds = mj_popcount(e);
    res->eff_copies = ms_copies_left(h, e);
    if (d == 1) res->waits = mj_popcount(ms_waits_without(h, -1));
}

/* ---- chunks ------------------------------------------------------------------------------ */

typedef struct {
    int64_t hist_void[MS_BINS], hist_free[MS_BINS]; /* hands per distance */
    int64_t eff_kinds, eff_copies;                  /* sums over all hands */
    int64_t waits_hands, waits_sum;                 /* ready hands and their waiting kinds */
} ms_tally_t;

static inline void ms_add(ms_tally_t *t, const ms_result_t *r) {
    t->hist_void[r->dist_void < MS_BINS ? r->dist_void : MS_BINS - 1]++;
    t->hist_free[r->dist_free < MS_BINS ? r->dist_free : MS_BINS - 1]++;
    t->eff_kinds += r->eff_kinds;
    t->eff_copies += r->eff_copies;
    if (r->waits >= 0) {
        t->waits_hands++;
        t->waits_sum += r->waits;
    }
}

/* The loop of ms_run_chunk for a constant number of tiles: the dealer's loops unroll. */
static MJ_ALWAYS_INLINE void ms_run_tiles(ms_rng_t *g, int64_t hands, int tiles, ms_tally_t *t) {
    uint8_t wall[MS_WALL];
    ms_hand_t h;
    ms_result_t r;
    int32_t idx[3];
    ms_wall(wall);
    for (int64_t i = 0; i < hands; i++) {
        ms_deal(g, wall, tiles, h.c, idx);
        for (int s = 0; s < 3; s++) h.s[s].idx = idx[s];
        ms_analyse(&h, tiles, &r);
        ms_add(t, &r);
    }
}

/* Deal and tally `hands` hands of `tiles` (13 or 14; any other value deals 13) tiles: chunk
 * `chunk` of the run `key`. */
static void ms_run_chunk(uint64_t key, uint64_t chunk, int64_t hands, int tiles, ms_tally_t *t) {
    ms_rng_t g;
    ms_seed(&g, key, chunk);
    memset(t, 0, sizeof *t);
    if (tiles == 14) {
        ms_run_tiles(&g, hands, 14, t);
    } else {
        ms_run_tiles(&g, hands, 13, t);
    }
}

/* The hands chunk `chunk` of run `key` deals, as rows of 27 counts (for tests). */
static void ms_deal_rows(uint64_t key, uint64_t chunk, int64_t hands, int tiles, uint8_t *out) {
    ms_rng_t g;
    uint8_t wall[MS_WALL];
    uint8_t c[32];
    int32_t idx[3];
    ms_seed(&g, key, chunk);
    ms_wall(wall);
    for (int64_t i = 0; i < hands; i++) {
        ms_deal(&g, wall, tiles, c, idx);
        memcpy(out + 27 * i, c, 27);
    }
}

/* Per-hand results of given rows (for tests): 6 ints per row, in ms_result_t's order. Returns the
 * first row that is not a meld-free hand of `tiles` tiles (nothing written from it on), or -1. */
static int64_t ms_analyse_rows(const uint8_t *rows, int64_t n, int tiles, int32_t *out) {
    ms_hand_t h;
    ms_result_t r;
    for (int64_t i = 0; i < n; i++) {
        int total = 0;
        mj_copy27(h.c, rows + 27 * i); /* one read of the caller's row, then checked */
        for (int t = 0; t < 27; t++) {
            if (h.c[t] > 4) return i;
            total += h.c[t];
        }
        if (total != tiles) return i;
        for (int s = 0; s < 3; s++) h.s[s].idx = mj_index9(h.c + 9 * s);
        ms_analyse(&h, tiles, &r);
        int32_t *o = out + 6 * i;
        o[0] = r.dist_void; o[1] = r.dist_free; o[2] = r.discard;
        o[3] = r.eff_kinds; o[4] = r.eff_copies; o[5] = r.waits;
    }
    return -1;
}

#endif
