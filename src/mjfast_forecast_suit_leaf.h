/* mjfast forecast engine: the flush pass's numbers of the suit hands it meets (the pass is
 * mjfast_forecast_suit.h): per row (the pool sets them), each ready hand's winning copies and
 * expected payment of a draw (fc_paid's), and for each progress draw of a 1-shanten hand the
 * ready hand it keeps (the most winning copies, the lowest discard among equals), remembered in
 * the scratch's memos by the patterns' numbers (mjfast_forecast_suit_tables.h); the fans of the
 * ready hands' wins from the cache per rules table. A walk meets the patterns in no order, so
 * what it will mostly need is filled up front in number order, where the tables stream (the
 * cached ready hands always, the picks for a broad walk: the suit held least), the rest when met.
 *
 * Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_SUIT_LEAF_H
#define MJFAST_FORECAST_SUIT_LEAF_H

#include "mjfast_forecast_suit_tables.h" /* fc_suit_t, FC_SU13, FC_SU_CAND, the fan cache */

/* The fans of the wins of the ready hand of ready number ri, per rank: the cache's entry, or NULL
 * when it is not cached (then scored, mf_wait_totals as fc_paid, into fan and cached). */
static const int8_t *fc_su_fans(fc_work_t *w, uint32_t ri, int *fan) {
    const fc_suit_t *su = w->su;
    const int f = su->f;
    const int32_t *R = w->job->rules;
    fc_fan_t *e = su->fans ? su->fans->e + (size_t)f * FC_SU_NR + ri : NULL;
    if (e && mj_state_get(&e->state) == MJ_STATE_READY) return e->fan;
    uint8_t c[27] = {0};
    mj_hand_t h;
    mf_info_t fi;
    int32_t err[3];
    int val[27], ok = 1;
    for (int32_t r = 8, idx = (int32_t)(FC_SU_READY[ri] & 0x1FFFFFu); r >= 0; r--, idx /= 5)
        c[9 * f + r] = (uint8_t)(idx % 5);
    fc_load(w, c, &h);
    mf_info(&h, NULL, &fi, err); /* no concealed-kong marks: no error */
    uint32_t waits = mf_wait_totals(R, &h, &fi, w->vs, val) >> (9 * f);
    for (int r = 0; r < 9; r++) {
        int v = waits >> r & 1 ? mf_capped(R, val[9 * f + r] + R[MF_R_ZIMO]) : FC_NO_FAN;
        fan[r] = v == FC_NO_FAN ? v : v < 0 ? -1 : v;
        ok &= fan[r] < 127; /* (else not kept: a byte holds it) */
    }
    if (e && ok && mj_state_claim(&e->state)) {
        for (int r = 0; r < 9; r++) e->fan[r] = (int8_t)fan[r];
        mj_state_set(&e->state, MJ_STATE_READY);
    }
    return NULL;
}

/* The copies left of the ranks of mask m in suit f. */
static inline int fc_su_copies(const fc_work_t *w, uint32_t m) {
    return w->clo[w->flush][m & 63] + w->chi[w->flush][m >> 6 & 7];
}

/* The winning copies of the ready hand of ready number ri and waits m, remembered for the row
 * (w8: 0xFF not yet, 0x40 | w without its payment yet, w with it). */
static inline int fc_su_wins_of(fc_work_t *w, uint32_t ri, uint32_t m) {
    uint8_t *x = w->su->w8 + ri;
    if (*x == 0xFF) *x = (uint8_t)(0x40 | fc_su_copies(w, m & w->pool >> (9 * w->flush)));
    return *x & 0x3F;
}

/* The expected payment of a draw (fc_paid's) of a ready hand with the drawable waits b and the
 * fans of its wins per rank (c8 where cached, else fan). */
static inline double fc_su_paid(const fc_work_t *w, uint32_t b, const int8_t *c8, const int *fan) {
    const fc_suit_t *su = w->su;
    const int f = su->f, np = w->job->n_pay;
    double paid = 0.0;
    for (; b; b &= b - 1) {
        const int r = mj_ctz(b), v = c8 ? c8[r] : fan[r];
        if (v == FC_NO_FAN) continue;
        paid += w->left[9 * f + r] * (v < 127 ? su->payv[v + 1] : w->job->pay[v >= np ? np - 1 : v]);
    }
    return paid / w->total;
}

/* The winning copies and payment of the ready hand of ready number ri into the row's memos. */
static void fc_su_price(fc_work_t *w, uint32_t ri) {
    fc_suit_t *su = w->su;
    const uint32_t b = FC_SU_READY[ri] >> 21 & su->poolf;
    int fan[9];
    const int8_t *cached = fc_su_fans(w, ri, fan);
    su->pay[ri] = fc_su_paid(w, b, cached, fan);
    su->w8[ri] = (uint8_t)fc_su_copies(w, b);
}

/* The row's memos of the ready hands whose fans are cached, in ready-number order (a walk meets
 * most of them, in no order: so the cache streams); the others are not yet known (0xFF). */
static void fc_su_price_cached(fc_work_t *w) {
    fc_suit_t *su = w->su;
    if (!su->fans) {
        memset(su->w8, 0xFF, FC_SU_NR);
        return;
    }
    fc_fan_t *e = su->fans->e + (size_t)su->f * FC_SU_NR;
    for (int32_t ri = 0; ri < FC_SU_NR; ri++) {
        if (mj_state_get(&e[ri].state) != MJ_STATE_READY) {
            su->w8[ri] = 0xFF;
            continue;
        }
        const uint32_t b = FC_SU_READY[ri] >> 21 & su->poolf;
        su->pay[ri] = fc_su_paid(w, b, e[ri].fan, NULL);
        su->w8[ri] = (uint8_t)fc_su_copies(w, b);
    }
}

/* Ready number ri, its winning copies and payment known (su->w8, su->pay). */
static inline uint32_t fc_su_ready(fc_work_t *w, uint32_t ri) {
    if (w->su->w8[ri] >= 0x40) fc_su_price(w, ri);
    return ri;
}

/* The ready hand that the 14-tile pattern z (its number; at distance 1, two candidates or more)
 * keeps: the one with the most winning copies, the lowest discard among equals. */
static uint32_t fc_su_pick(fc_work_t *w, int32_t z) {
    int best = -1;
    uint32_t pick = 0;
    for (int32_t e = FC_SU_COFF[z]; e < FC_SU_COFF[z + 1]; e++) {
        const uint32_t c = FC_SU_CAND[e];
        const int won = fc_su_wins_of(w, c & 0xFFFFu, c >> 20);
        if (won > best) {
            best = won;
            pick = c;
        }
    }
    return pick & 0xFFFFu;
}

/* Every such pattern's pick into the row's memo (su->pk), in number order: for a walk that meets
 * most of them, in no order (then the candidates stream; else picked when met). */
static void fc_su_pick_all(fc_work_t *w) {
    uint16_t *pk = w->su->pk;
    for (int32_t z = 0; z < FC_SU_N14; z++)
        pk[z] = (uint16_t)(FC_SU_COFF[z + 1] - FC_SU_COFF[z] > 1 ? fc_su_pick(w, z) : 0xFFFF);
}

/* The most 13-tile suit hands that one start's entries can be (a few hundred instructions each):
 * the walk meets at least as many. */
static int32_t fc_su_span(const fc_work_t *w) {
    const fc_suit_t *su = w->su;
    int32_t most = 0;
    for (int s = 0; s < su->ns; s++) {
        const fc_dead_start_t *st = su->st + s;
        int32_t n[14] = {1}, m[14];
        if (st->n > su->T) continue;
        for (int r = 0; r < 9; r++) {
            const int lo = st->x[r], hi = st->n && su->lf[r] > 0 ? 4 : lo;
            for (int t = 0; t <= 13; t++) {
                m[t] = 0;
                for (int a = lo; a <= hi && a <= t; a++) m[t] += n[t - a];
            }
            memcpy(n, m, sizeof n);
        }
        most = n[13] > most ? n[13] : most;
    }
    return most;
}

/* The ready number of the hand that a 1-shanten hand keeps after a progress draw (v: its
 * FC_SU_PROG entry, the pattern z it makes): z's only candidate, or its pick; its winning copies
 * and payment known. */
static inline uint32_t fc_su_kept(fc_work_t *w, uint32_t v) {
    if (v & FC_SU_ONE) return fc_su_ready(w, v & 0xFFFFu);
    uint16_t *pk = w->su->pk + v;
    if (*pk == 0xFFFF) *pk = (uint16_t)fc_su_pick(w, (int32_t)v);
    return fc_su_ready(w, *pk);
}

/* The progress draws of a 1-shanten hand (info: its FC_SU13 entry) into o. */
static void fc_suit_one(fc_work_t *w, uint32_t info, fc_su_one_t *o) {
    fc_suit_t *su = w->su;
    const uint32_t *pv = FC_SU_PROG + (info >> 11), mask = info & 0x1FFu;
    o->n = 0;
    o->c = fc_su_copies(w, mask);
    for (uint32_t m = mask; m; m &= m - 1, pv++) {
        const int k = mj_ctz(m);
        if (!(su->poolf >> k & 1)) continue;
        const uint32_t ri = fc_su_kept(w, *pv);
        o->k[o->n] = k;
        o->w[o->n] = su->w8[ri];
        o->pay[o->n] = su->pay[ri];
        o->n++;
    }
}

#endif
