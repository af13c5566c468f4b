/* mjfast forecast engine, step 1: what the expansion asks of a hand (the overview is in
 * mjfast_forecast.h; the job, the work and the state store are in mjfast_forecast_state.h).
 *
 * A hand's probes under the row's plan (fc_probes_of, fc_flush_dist), its waits' payment
 * (fc_paid), its plan (fc_plan_of) and the sorting of its draws (fc_classify). Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_GRAPH_H
#define MJFAST_FORECAST_GRAPH_H

#include <stdlib.h>

#include "mjfast_probes.h"
#include "mjfast_fan.h"
#include "mjfast_forecast_state.h" /* the job, the work, the state store */

/* A meld-free 4-set hand as mj_probe_row_dist reads it (fc_probes fills one; the forecast is its only user). */
typedef struct {
    uint8_t c[27];    /* counts */
    int32_t idx[3];
    int k[3], n[3], odd[3], live_q; /* k: classes, or void classes (vc) */
} mj_probe_row_t;

/* The distances after every probe of a row (bytes as mj_suit_probes:
 * w[s] and last[s] per suit); returns the row's own distance. Only the void suits that give the
 * hand's distance d matter: a draw lowers a distance by at most 1 and a discard raises it by at
 * most 1, so with any other suit q void (dq[q] > d) a draw leaves at least d, which no effective
 * tile needs, and a discard at least d + 1, which the best void suit never exceeds. So with one
 * such suit q (most hands; every hand with a declared void) the probes of q change nothing (d)
 * and those of the other two suits need one row each; without the void rule every suit takes
 * one row; ties take the rows of every suit that gives d. */
static MJ_ALWAYS_INLINE int mj_probe_row_dist(const mj_probe_row_t *b, const int delta, uint64_t *w,
                                              uint64_t *last, const int void_rule, const int reg,
                                              const int sev, const int vc) {
    const int nf = MJ.n_full, cap = 0; /* no fifth copies: draws come to rows without a quad */
    const int *k = b->k;
    const uint8_t *full = vc ? MJ.void_full : MJ.full;
    mj_probe_base_t pb;
    int lv, e[2], e2[2];
    mj_probe_base(k, b->n, b->odd, b->live_q, &pb, void_rule, reg, sev, vc);
    if (!void_rule) {
        mj_probe_sevens(&pb, 0, 1, delta, sev, e);
        for (int s = 0; s < 3; s++) {
            int o1 = s == 0 ? 1 : 0, o2 = s == 2 ? 1 : 2;
            const int8_t *fin = reg ? MJ.final + MJ.pair[k[o1] * nf + k[o2]] * nf : mj_inf_row;
            lv = mj_suit_probes(fin, fin, sev ? e : NULL, MJ.full + b->idx[s], b->c + 9 * s, &w[s],
                                delta, cap, 0);
            last[s] = (uint64_t)lv;
        }
        return pb.d;
    }
    int best = ((pb.dq[0] == pb.d) | (pb.dq[1] == pb.d) << 1 | (pb.dq[2] == pb.d) << 2) & b->live_q;
    if (best == 1 || best == 2 || best == 4) { /* one void suit q gives d */
        int q = best >> 1, s1 = q == 0 ? 1 : 0, s2 = q == 2 ? 1 : 2;
        const int8_t *r1 = reg ? mj_two_row(k[s2], vc) : mj_inf_row;
        const int8_t *r2 = reg ? mj_two_row(k[s1], vc) : mj_inf_row;
        const int *a = sev ? e : NULL;
        mj_probe_sevens(&pb, q, 1, delta, sev, e);
        lv = mj_suit_probes(r1, r1, a, full + b->idx[s1], b->c + 9 * s1, &w[s1], delta, cap, 0);
        last[s1] = (uint64_t)lv;
        lv = mj_suit_probes(r2, r2, a, full + b->idx[s2], b->c + 9 * s2, &w[s2], delta, cap, 0);
        last[s2] = (uint64_t)lv;
        w[q] = (uint64_t)pb.d * MJ_ONES8;
        last[q] = (uint64_t)pb.d;
        return pb.d;
    }
    if (best == 3 || best == 5 || best == 6) { /* two: q1 and q2, suit s3 never void */
        int s3 = best == 3 ? 2 : best == 5 ? 1 : 0, q1 = s3 == 0 ? 1 : 0, q2 = s3 == 2 ? 1 : 2;
        const int8_t *t3 = reg ? mj_two_row(k[s3], vc) : mj_inf_row;
        const int8_t *t1 = reg ? mj_two_row(k[q1], vc) : mj_inf_row;
        const int8_t *t2 = reg ? mj_two_row(k[q2], vc) : mj_inf_row;
        int a1[2], a2[2], a3[2];
        mj_probe_sevens(&pb, q1, 1, delta, sev, e);
        mj_probe_sevens(&pb, q2, 1, delta, sev, e2);
        for (int par = 0; par < 2; par++) {
            a1[par] = e2[par] < pb.d ? e2[par] : pb.d; /* q1 void, or q2 */
            a2[par] = e[par] < pb.d ? e[par] : pb.d;
            a3[par] = e[par] < e2[par] ? e[par] : e2[par];
        }
        lv = mj_suit_probes(t3, t3, a1, full + b->idx[q1], b->c + 9 * q1, &w[q1], delta, cap, 0);
        last[q1] = (uint64_t)lv;
        lv = mj_suit_probes(t3, t3, a2, full + b->idx[q2], b->c + 9 * q2, &w[q2], delta, cap, 0);
        last[q2] = (uint64_t)lv;
        lv = mj_suit_probes(t2, t1, a3, full + b->idx[s3], b->c + 9 * s3, &w[s3], delta, cap, 1);
        last[s3] = (uint64_t)lv;
        return pb.d;
    }
    for (int s = 0; s < 3; s++) {
        lv = mj_suit_probes_live(&pb, k, s, best, full + b->idx[s], b->c + 9 * s, &w[s], delta,
                                 cap, reg, sev, vc);
        last[s] = (uint64_t)lv;
    }
    return pb.d;
}

/* One tile more (delta 1) or less (-1) of kind t in a loaded hand. The classes (mj_classes) are
 * not kept: the row fast path of fc_probes does not read them, so only the paths that read them
 * load them (their 5^9-entry tables are cache misses). */
static void fc_adjust(mj_hand_t *h, int t, int delta) {
    int s = t / 9, r = t % 9;
    h->c[t] = (uint8_t)(h->c[t] + delta);
    h->idx[s] += delta * MJ_POW[r];
    h->n[s] += delta;
    h->odd[s] += (h->c[t] & 1) ? 1 : -1;
}

/* The distances after mj_probes of a loaded hand (delta +1: draws, -1: discards) as bytes; an
 * impossible probe's byte means nothing (callers mask those kinds). A meld-free 4-set hand (the
 * void rule and every form: the engine's own) takes the row fast path of mjfast_probes.h on its
 * void classes, which probes only the suits that can change the distance; a draw onto a kind
 * held four times would leave its table, so such hands do not. */
static void fc_probes(mj_hand_t *h, int delta, uint8_t *dist) {
    if (h->meld_suits || h->sets != 4 || !h->void_rule || h->form != MJ_FORM_ALL ||
        (delta > 0 && mj_full_kinds(h))) {
        int d[27];
        mj_classes(h);
        mj_probes(h, delta, d);
        for (int t = 0; t < 27; t++) dist[t] = (uint8_t)d[t];
        return;
    }
    mj_probe_row_t b;
    uint64_t w8[3], last[3];
    mj_copy27(b.c, h->c); /* words where the probes read them (store forwarding) */
    for (int s = 0; s < 3; s++) {
        b.idx[s] = h->idx[s];
        b.k[s] = MJ.void_full[h->idx[s]];
        b.n[s] = h->n[s];
        b.odd[s] = h->odd[s];
    }
    b.live_q = h->live_q;
    if (delta > 0) mj_probe_row_dist(&b, +1, w8, last, 1, 1, 0, 1);
    else mj_probe_row_dist(&b, -1, w8, last, 1, 1, 0, 1);
    for (int s = 0; s < 3; s++) {
        mj_put8(dist + 9 * s, w8[s]);
        dist[9 * s + 8] = (uint8_t)last[s];
    }
}

/* The flush distance of a meld-free suit of base-5 index idx with the pairs and singles given
 * (fc_flush_dist's terms): the suit's distance to sets + pair, or seven pairs within it. */
static inline int fc_flush_plain(const mj_hand_t *h, int32_t idx, int pairs, int singles) {
    int best = h->form != MJ_FORM_SEVEN_PAIRS ? MJ.vec[10 * mj_class(idx) + 2 * h->sets + 1] : MJ_INF;
    if (h->form != MJ_FORM_REGULAR && h->sets == 4) {
        int sv = mj_seven_of(pairs, singles);
        if (sv < best) best = sv;
    }
    return best < MJ_INF ? best : MJ_INF;
}

/* Distance of the counts c (with the row's melds, form and sets: the template h) to a win all
 * of suit f (the flush plan, RULES.md 9): the suit's distance vector at the sets left plus the
 * pair (the target holds no tile of the other suits, so theirs cost nothing and count nothing),
 * or seven pairs within the suit; MJ_INF when a meld lies outside it. */
static int fc_flush_dist(const mj_hand_t *h, const uint8_t *c, int f) {
    if (h->meld_suits & ~(1 << f)) return MJ_INF;
    const uint8_t *x = c + 9 * f;
    if (!h->meld_suits) {
        int pairs = 0, singles = 0;
        for (int r = 0; r < 9; r++) {
            pairs += x[r] >> 1;
            singles += x[r] & 1;
        }
        return fc_flush_plain(h, mj_index9(x), pairs, singles);
    }
    int8_t v[10];
    uint8_t cap[9];
    mj_caps(h, f, cap);
    mj_capped_vector(x, cap, v);
    int best = h->form != MJ_FORM_SEVEN_PAIRS ? v[2 * (h->sets - h->m) + 1] : MJ_INF;
    return best < MJ_INF ? best : MJ_INF;
}

/* fc_probes for the flush plan of suit f: a tile of another suit changes nothing. A meld-free
 * hand steps its suit's index and pair counts per probe. */
static void fc_flush_probes(const mj_hand_t *h, int delta, int f, uint8_t *dist) {
    uint8_t c[27];
    const uint8_t *x = h->c + 9 * f;
    if (h->meld_suits) {
        memcpy(c, h->c, 27);
        memset(dist, fc_flush_dist(h, c, f), 27);
        for (int t = 9 * f; t < 9 * f + 9; t++) {
            if (delta < 0 ? !c[t] : c[t] >= 4) continue; /* impossible: the callers mask it */
            c[t] = (uint8_t)(c[t] + delta);
            dist[t] = (uint8_t)fc_flush_dist(h, c, f);
            c[t] = (uint8_t)(c[t] - delta);
        }
        return;
    }
    int pairs = 0, singles = 0;
    for (int r = 0; r < 9; r++) {
        pairs += x[r] >> 1;
        singles += x[r] & 1;
    }
    int32_t idx = mj_index9(x);
    memset(dist, fc_flush_plain(h, idx, pairs, singles), 27);
    for (int r = 0; r < 9; r++) {
        int a = x[r], b = a + delta;
        if (b < 0 || b > 4) continue; /* impossible: the callers mask it */
        dist[9 * f + r] = (uint8_t)fc_flush_plain(h, idx + delta * MJ_POW[r], pairs - (a >> 1) + (b >> 1),
                                                  singles - (a & 1) + (b & 1));
    }
}

/* The probes of the row's plan: the flush plan's, or every win's (fc_probes). */
static inline void fc_probes_of(const fc_work_t *w, mj_hand_t *h, int delta, uint8_t *dist) {
    if (w->flush >= 0) fc_flush_probes(h, delta, w->flush, dist);
    else fc_probes(h, delta, dist);
}

/* 27-bit mask of the kinds t whose byte x[t] (below 128) is below v (1..127): on SSE2 the row's
 * words as mj_row_words reads them (loads that match the probes' stores), two byte compares,
 * the bits put in kind order; else word by word. */
static inline uint32_t fc_below(const uint8_t *x, int v) {
#if MJ_SSE2
    __m128i x01, x2n;
    mj_row_words(x, &x01, &x2n);
    const __m128i lim = _mm_set1_epi8((char)v);
    uint32_t a = (uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(x01, lim));
    uint32_t b = (uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(x2n, lim));
    /* a: ranks 1-8 of suits 0 and 1; b: ranks 1-8 of suit 2, then the rank-9 bytes 8, 10, 12 */
    return (a & 0xFFu) | (b & 0x100u) | (a & 0xFF00u) << 1 | (b & 0x400u) << 7 | (b & 0xFFu) << 18 |
           (b & 0x1000u) << 14;
#else
    const uint64_t H = 0x80 * MJ_ONES8;
    uint32_t m = 0;
    for (int s = 0; s < 3; s++) {
        uint64_t ge = ((mj_word8(x + 9 * s) | H) - (uint64_t)v * MJ_ONES8) & H; /* no borrow */
        uint64_t lt = (~ge & H) >> 7;
        m |= (uint32_t)((lt * 0x0102040810204080ULL) >> 56) << (9 * s); /* byte r to bit r */
        m |= (uint32_t)(x[9 * s + 8] < v) << (9 * s + 8);
    }
    return m;
#endif
}

/* Distance (under the row's plan) of the loaded hand g less one tile of kind d. */
static int fc_without(const fc_work_t *w, const mj_hand_t *g, int d) {
    mj_hand_t x = *g;
    fc_adjust(&x, d, -1);
    if (w->flush >= 0) return fc_flush_dist(&x, x.c, w->flush);
    mj_classes(&x);
    return mj_distance(&x);
}

/* Expected payment per payer of the winning draws (mask wins) onto the loaded 13 - 3m hand h:
 * the fan of each wait (mf_wait_totals, from the hand's info once) plus the self-draw fan,
 * capped, as the row's payment per payer. */
static double fc_paid(const fc_work_t *w, const mj_hand_t *h, uint32_t wins) {
    if (!wins) return 0.0;
    const fc_job_t *job = w->job;
    const int32_t *R = job->rules;
    mf_info_t f;
    int32_t err[3];
    int val[27];
    mf_info(h, NULL, &f, err); /* no concealed-kong marks: no error */
    uint32_t waits = mf_wait_totals(R, h, &f, w->vs, val);
    double paid = 0.0; /* copies left times payment, over the pool once (as fc_mass) */
    for (wins &= waits; wins; wins &= wins - 1) {
        int k = mj_ctz(wins), fan = mf_capped(R, val[k] + R[MF_R_ZIMO]);
        paid += w->left[k] * job->pay[fan < 0 ? 0 : fan >= job->n_pay ? job->n_pay - 1 : fan];
    }
    return paid / w->total;
}

/* Load the counts c into h from the row's template, without
 * the checks of mj_load (every state is a valid hand of the row) and without the classes (see
 * fc_adjust). */
static MJ_ALWAYS_INLINE void fc_load(const fc_work_t *w, const uint8_t *c, mj_hand_t *h) {
    mj_row_t row;
    *h = w->tmpl;
    if (h->melds) h->melds = w->tmpl.meld_copy;
    memcpy(h->c, c, 27);
    mj_row_read(&row, c); /* (not h->c: words over fresh byte stores stall) */
    for (int q = 0; q < 3; q++) mj_suit_load(&row, q, &h->idx[q], &h->n[q], &h->odd[q]);
}

/* Load the hand of state s into h (fc_load): with a plan, only its void suit is live. */
static MJ_ALWAYS_INLINE void fc_fill(const fc_work_t *w, int64_t s, mj_hand_t *h) {
    fc_load(w, w->g.cnt[s].c, h);
    if (w->g.pv[s] >= 0) h->live_q = 1 << w->g.pv[s];
}

/* The plan of the loaded hand x (rows with w->plans, no exchange left): the void suit q when it
 * alone gives the distance, else -1. Then q stays the only best one on every path of the class: a
 * draw and a discard change each suit's distance by at most one in all, and every kept discard
 * lowers the distance, so the others stay above it. The tiles of suit q are then dead: they count
 * for neither the distance nor a win (which holds none of them), a draw of one never lowers the
 * distance (it stays), and discarding any one of them leaves the same hand up to which q tiles it
 * holds, with its place among the discards (the suit's block) the same. So hands that differ only
 * there are one state, its q tiles packed (fc_pack_plan), probed with suit q alone live (fc_fill):
 * the probes agree with the hand's wherever a distance below the hand's is read. */
static int fc_plan_of(mj_hand_t *x) {
    int best = MJ_INF, plan = -1;
    mj_classes(x);
    for (int q = 0; q < 3; q++) {
        if (!(x->live_q >> q & 1)) continue;
        int d = mj_distance_q(x, x->k, x->n, x->odd, x->v, q);
        plan = d < best ? q : d == best ? -1 : plan;
        best = d < best ? d : best;
    }
    return best < MJ_INF ? plan : -1;
}

/* Pack the tiles of suit q in counts x: one per rank from rank 1 up, then again (no quads: the
 * probes' fast path takes the hand). */
static void fc_pack_plan(uint8_t *x, int q) {
    int n = 0;
    for (int r = 0; r < 9; r++) n += x[9 * q + r];
    for (int r = 0; r < 9; r++) x[9 * q + r] = (uint8_t)(n / 9 + (r < n % 9));
}

/* The kind whose discard keeps the packed suit q of n tiles packed (fc_pack_plan). */
static inline int fc_plan_drop(int q, int n) { return 9 * q + (n - 1) % 9; }

/* Probability of drawing a kind of mask m: the copies left in it (fc_copies: six subset sums of
 * the row, fc_pool) over the pool, so equal counts give equal probabilities to the bit (fc_merge). */
static inline int fc_copies(const fc_work_t *w, uint32_t m) {
    int x = 0;
    for (int s = 0; s < 3; s++, m >>= 9) x += w->clo[s][m & 63] + w->chi[s][m >> 6 & 7];
    return x;
}

static inline double fc_mass(const fc_work_t *w, uint32_t m) { return (double)fc_copies(w, m) / w->total; }

/* The draws of the pool that stay on the loaded hand h (a fifth copy; with packed dead tiles any
 * dead draw: discarded at once). */
static inline uint32_t fc_stays(const fc_work_t *w, const mj_hand_t *h) {
    return w->pool & (mj_full_kinds(h) | (w->canon ? w->dead : 0u));
}

/* The winning draws onto the loaded ready leaf h (no dead tile held, no exchange left): the
 * drawable waits that do not stay. A leaf holds no dead tile, so under a flush plan all its
 * tiles are of the suit and its wins (of a tile of the suit: the others are dead, in stay) are
 * the flush's. */
static inline uint32_t fc_leaf_wins(const fc_work_t *w, const mj_hand_t *h) {
    return w->pool & ~fc_stays(w, h) & mj_hand_waits(h, w->vs);
}

/* Sort the kinds drawn onto state s (loaded as h; not a ready leaf: fc_expand_leaf) into masks:
 * a fifth copy is discarded at once, and with packed dead tiles so is any dead draw (stays); the
 * rest win, stay (without exchanges left, not lowering the shanten unless a dead discard is
 * forced) or become edge groups (returned). *dh: the state's distance. */
static uint32_t fc_classify(const fc_work_t *w, int64_t s, mj_hand_t *h, int held_void, int front,
                            int exchanges, uint32_t vmask, int *dh, uint32_t *stays, uint32_t *wins) {
    uint8_t d14[27];
    uint32_t stay = fc_stays(w, h), rest = w->pool & ~stay;
    *dh = w->g.sh[s] + 1; /* an expanded state's shanten is at most T: its distance, exactly */
    fc_probes_of(w, h, +1, d14);
    uint32_t win = rest & fc_below(d14, 1);
    /* a draw that does not lower the distance of the hand leaves every discard at no lower a
     * distance: unless a void discard is forced or exchanges are allowed off the frontier, it
     * stays, and on the frontier that is worth 0 and never ready in time (dropped) */
    uint32_t other = rest & ~win, all = ~0u;
    uint32_t groups = other & (held_void ? all : vmask | (exchanges && !front ? all : fc_below(d14, *dh)));
    if (!front) stay |= other & ~groups;
    *stays = stay;
    *wins = win;
    return groups;
}

#endif
