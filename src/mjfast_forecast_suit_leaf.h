/* mjfast forecast engine: the flush pass's numbers of the suit hands it meets (the pass is
 * mjfast_forecast_suit.h): per row (the pool sets them), each ready hand's winning copies and
 * expected payment of a draw (fc_paid's), and for each progress draw of a 1-shanten hand the
 * ready hand it keeps (the most winning copies, the lowest discard among equals), remembered in
 * the scratch's memos by the patterns' numbers (mjfast_forecast_suit_tables.h); the fans of the
 * ready hands' wins from the cache per rules table.
 *
 * Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_SUIT_LEAF_H
#define MJFAST_FORECAST_SUIT_LEAF_H

#include "mjfast_forecast_suit_tables.h" /* fc_suit_t, FC_SU13, FC_SU_CAND, the fan cache */

/* The fans of the wins of the ready hand of ready number ri, per rank (its suit counts: y, with
 * a tile of rank k more and of rank d less where k >= 0): the cache's entry, or NULL when it is
 * not cached (then scored, mf_wait_totals as fc_paid, into fan and cached). */
static const int8_t *fc_su_fans(fc_work_t *w, const uint8_t *y, int k, int d, uint32_t ri, int *fan) {
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
    memcpy(c + 9 * f, y, 9);
    if (k >= 0) {
        c[9 * f + k]++;
        c[9 * f + d]--;
    }
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

/* The same of the ready hand of FC_SU13 entry info. */
static inline int fc_su_wins(fc_work_t *w, uint32_t info) { return fc_su_wins_of(w, info >> 11, info); }

/* The payment (fc_paid's) of the ready hand of FC_SU13 entry info into the row's memo: the suit
 * counts y, with a tile of rank k more and of rank d less where k >= 0. */
static void fc_su_price(fc_work_t *w, const uint8_t *y, int k, int d, uint32_t info) {
    fc_suit_t *su = w->su;
    const uint32_t ri = info >> 11;
    const int f = su->f, won = fc_su_wins(w, info);
    const int np = w->job->n_pay;
    int fan[9];
    double paid = 0.0;
    const int8_t *cached = fc_su_fans(w, y, k, d, ri, fan);
    for (uint32_t b = info & w->pool >> (9 * f) & 0x1FFu; b; b &= b - 1) {
        const int r = mj_ctz(b), v = cached ? cached[r] : fan[r];
        if (v == FC_NO_FAN) continue;
        paid += w->left[9 * f + r] * (v < 127 ? su->payv[v + 1] : w->job->pay[v >= np ? np - 1 : v]);
    }
    su->pay[ri] = paid / w->total;
    su->w8[ri] = (uint8_t)won;
}

/* The ready number of the ready hand of FC_SU13 entry info (y, k, d: as fc_su_price), its
 * winning copies and payment known (su->w8, su->pay). */
static inline uint32_t fc_su_ready(fc_work_t *w, const uint8_t *y, int k, int d, uint32_t info) {
    if (w->su->w8[info >> 11] >= 0x40) fc_su_price(w, y, k, d, info);
    return info >> 11;
}

/* The ready number of the hand that the 1-shanten hand y keeps after the progress draw k (v: its
 * FC_SU_PROG entry): the ready hand with the most winning copies, the lowest discard among
 * equals; that of a pattern z = y + k with one candidate at once, else picked once per row. */
static inline uint32_t fc_su_kept(fc_work_t *w, const uint8_t *y, int k, uint32_t v) {
    fc_suit_t *su = w->su;
    if (v & FC_SU_ONE)
        return fc_su_ready(w, y, k, (int)(v >> 16 & 15), (v >> 20 & 0x1FFu) | (v & 0xFFFFu) << 11);
    uint32_t ri = su->pk[v];
    if (ri == 0xFFFF) {
        int best = -1;
        uint32_t pick = 0;
        for (int32_t e = FC_SU_COFF[v]; e < FC_SU_COFF[v + 1]; e++) {
            const uint32_t c = FC_SU_CAND[e];
            const int won = fc_su_wins_of(w, c & 0xFFFFu, c >> 20);
            if (won > best) {
                best = won;
                pick = c;
            }
        }
        ri = fc_su_ready(w, y, k, (int)(pick >> 16 & 15), (pick >> 20) | (pick & 0xFFFFu) << 11);
        su->pk[v] = (uint16_t)ri;
    }
    return ri;
}

/* The progress draws of the 1-shanten hand y (info: its FC_SU13 entry) into o. */
static void fc_suit_one(fc_work_t *w, const uint8_t *y, uint32_t info, fc_su_one_t *o) {
    fc_suit_t *su = w->su;
    const uint32_t *pv = FC_SU_PROG + (info >> 11), mask = info & 0x1FFu;
    o->n = 0;
    o->c = fc_su_copies(w, mask);
    for (uint32_t m = mask; m; m &= m - 1, pv++) {
        const int k = mj_ctz(m);
        if (!(su->poolf >> k & 1)) continue;
        const uint32_t ri = fc_su_kept(w, y, k, *pv);
        o->k[o->n] = k;
        o->w[o->n] = su->w8[ri];
        o->pay[o->n] = su->pay[ri];
        o->n++;
    }
}

#endif
