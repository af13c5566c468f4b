/* mjfast forecast engine: the flush plan without a state graph (the overview is in
 * mjfast_forecast.h; RULES.md 9 defines the plan).
 *
 * Under a flush of suit f without exchanges, objective "win", no melds and 4 sets, every hand
 * after the dead phase holds 13 suit-f tiles, and such a hand is at most 2-shanten (16 hands are
 * 2-shanten, about half ready). So the policy needs no values but there: a ready hand is a leaf
 * (each draw wins with w / S, w its winning copies, or stays); a 1-shanten hand keeps a draw
 * only when it makes it ready, and then discards to the ready hand with the most winning copies,
 * the lowest discard among equals, at every t (fc_collapse's rule, as fc_flush_ready). Only a
 * 2-shanten hand picks by the draws left (fc_suit_two, from its successors' values).
 *
 * So a start's curves and payment are linear in where its mass goes. Its entries y
 * (mjfast_forecast_entry.h) arrive with E(y, j) = P(y) Psi_D(j): D is the set of live ranks y
 * holds four times (at their room), P(y) the product over the other ranks of p_r^a / a! (a: the
 * tiles of rank r kept), and Psi_D(j) = (j - 1)! sum_K d^(j-n-K) / (j-n-K)! Phi_D(K) with
 * Phi_D(K) = u_D G_D(K) + sum_{r in D} p_r P_r(room_r - 1) G_{D-r}(K) (fc_dead_mass with P(y)
 * factored out). A 1-shanten hand filters its arrivals by its stay (S - c) / S (c: its progress
 * copies) into leaves, a leaf by (S - w) / S into wins. So the hands are summed per class: per
 * D, ready ones by (w, start), 1-shanten ones by (c, w of each progress draw's leaf, start); one
 * walk per D over the union of the starts' entries classes each hand once and adds its weights
 * to all the starts at once (a vector over them: 0 for a start not holding it), and each class's
 * filters run once. A start without dead tiles is one entry at draw 0. A ready hand's winning
 * copies and payment, and the hand a progress draw keeps, are remembered per row
 * (mjfast_forecast_suit_leaf.h).
 *
 * The results are the graph's (the same policy and sums, added in another order). Plain C, no
 * Python.
 */
#ifndef MJFAST_FORECAST_SUIT_H
#define MJFAST_FORECAST_SUIT_H

#include "mjfast_forecast_suit_leaf.h" /* the suit hands' numbers per row (and the tables) */

/* The distance of the suit-f hand of index idx with pairs and singles (fc_flush_plain). */
static inline int fc_su_dist(const fc_work_t *w, int32_t idx, int pairs, int singles) {
    return fc_flush_plain(&w->tmpl, idx, pairs, singles);
}


/* The pairs and singles of suit counts x after one tile more (delta 1) or less (-1) of rank r. */
static inline void fc_su_step(const uint8_t *x, int r, int delta, int *pairs, int *singles) {
    int a = x[r], b = a + delta;
    *pairs += (b >> 1) - (a >> 1);
    *singles += (b & 1) - (a & 1);
}


/* Inflow m[j] (j = j0..T) into the leaf class of w winning copies of start s (with the payment
 * pay: a scalar times m, or the row mp when not NULL). */
static inline double *fc_su_b(const fc_suit_t *su, double *base, int s, int w) {
    return base + ((int64_t)s * FC_SU_W + w) * (su->T + 1);
}

/* The 1-shanten hand o with arrivals a[j] (j = 0..T) of start s: its mass filtered by its stay,
 * flowing down its progress draws into the leaves a draw later (through draw T - 1). */
static void fc_suit_one_flow(fc_work_t *w, const fc_su_one_t *o, const double *a, int s) {
    fc_suit_t *su = w->su;
    const int T = su->T;
    double x[FC_MAX_DRAWS + 1], q = (double)(su->total - o->c) / su->total, m = 0.0;
    for (int j = 0; j < T; j++) x[j] = m = q * m + a[j];
    for (int i = 0; i < o->n; i++) {
        double p = w->p[9 * su->f + o->k[i]], pp = p * o->pay[i];
        double *b = fc_su_b(su, su->b, s, o->w[i]) + 1, *bp = fc_su_b(su, su->bp, s, o->w[i]) + 1;
        for (int j = 0; j < T; j++) {
            b[j] += p * x[j];
            bp[j] += pp * x[j];
        }
        su->bw[s] |= 1ULL << o->w[i];
    }
}

/* The values V_0..V_T of the 1-shanten hand o (its leaves' V_t = pw + sw V_{t-1}). */
static void fc_suit_one_values(const fc_work_t *w, const fc_su_one_t *o, double *V) {
    const fc_suit_t *su = w->su;
    const int T = su->T;
    double L[9][FC_MAX_DRAWS + 1], q = (double)(su->total - o->c) / su->total;
    for (int i = 0; i < o->n; i++) {
        double pw = (double)o->w[i] / su->total, sw = (double)(su->total - o->w[i]) / su->total;
        L[i][0] = 0.0;
        for (int t = 1; t <= T; t++) L[i][t] = pw + sw * L[i][t - 1];
    }
    V[0] = 0.0;
    for (int t = 1; t <= T; t++) {
        double v = q * V[t - 1];
        for (int i = 0; i < o->n; i++) v += w->p[9 * su->f + o->k[i]] * L[i][t - 1];
        V[t] = v;
    }
}

/* The 2-shanten hand y with arrivals a[i][j] of the starts of rare[i] (n of them): its progress
 * draws lead to 1-shanten hands, picked per draws left by their values (the lowest discard within
 * FC_TIE of the best); their arrivals are then followed as fc_suit_one_flow. */
static void fc_suit_two(fc_work_t *w, const uint8_t *y, const fc_su_rare_t *const *rare, int n,
                        double (*a)[FC_MAX_DRAWS + 1]) {
    fc_suit_t *su = w->su;
    const int T = su->T, f = su->f;
    int pairs = 0, singles = 0, c = 0, nu = 0;
    for (int r = 0; r < 9; r++) {
        pairs += y[r] >> 1;
        singles += y[r] & 1;
    }
    const int32_t idx = mj_index9(y);
    fc_su_one_t u[81];
    double V[81][FC_MAX_DRAWS + 1], in[81][FC_MAX_DRAWS + 1], x[FC_MAX_DRAWS + 1];
    int ks[9], u0[10], nk = 0;
    for (int k = 0; k < 9; k++) {
        if (!w->left[9 * f + k] || y[k] >= 4) continue;
        int zp = pairs, zs = singles;
        fc_su_step(y, k, 1, &zp, &zs);
        int32_t zi = idx + MJ_POW[k];
        if (fc_su_dist(w, zi, zp, zs) > 2) continue;
        uint8_t z[9];
        memcpy(z, y, 9);
        z[k]++;
        ks[nk] = k;
        u0[nk++] = nu;
        for (int d = 0; d < 9; d++) {
            if (!z[d] || d == k) continue;
            int lp = zp, ls = zs;
            fc_su_step(z, d, -1, &lp, &ls);
            if (fc_su_dist(w, zi - MJ_POW[d], lp, ls) > 2) continue;
            int32_t ui = zi - MJ_POW[d];
            fc_su_at_t ua = {ui / 3125, ui % 3125};
            fc_suit_one(w, FC_SU13[fc_su_num(ua, 0)], &u[nu]);
            fc_suit_one_values(w, &u[nu], V[nu]);
            nu++;
        }
        c += w->left[9 * f + k];
    }
    u0[nk] = nu;
    int32_t pick[9][FC_MAX_DRAWS + 1];
    uint8_t picked[81] = {0};
    for (int j = 0; j + 2 <= T; j++) { /* through draw T - 2: later it is never ready in time */
        int t = T - j;
        for (int i = 0; i < nk; i++) {
            int lo = u0[i], hi = u0[i + 1], p = lo;
            double best = V[lo][t - 1];
            for (int v = lo + 1; v < hi; v++) best = V[v][t - 1] > best ? V[v][t - 1] : best;
            while (V[p][t - 1] < best - FC_TIE * best) p++;
            pick[i][j] = p;
            picked[p] = 1;
        }
    }
    const double q = (double)(su->total - c) / su->total;
    for (int r = 0; r < n; r++) { /* (the hands never picked get nothing) */
        double m = 0.0;
        for (int v = 0; v < nu; v++)
            if (picked[v]) memset(in[v], 0, sizeof in[v]);
        for (int j = 0; j + 2 <= T; j++) {
            x[j] = m = q * m + a[r][j];
            for (int i = 0; i < nk; i++) in[pick[i][j]][j + 1] += w->p[9 * f + ks[i]] * x[j];
        }
        for (int v = 0; v < nu; v++)
            if (picked[v]) fc_suit_one_flow(w, &u[v], in[v], rare[r]->s);
    }
}

/* m[s] += a P[s] and mp[s] += b P[s] for s < n (even: pairs of lanes, which compilers
 * vectorize; a 64-bit index: with -fwrapv an int one keeps GCC from it). */
static inline void fc_su_axpy(double *restrict m, double *restrict mp, const double *restrict P,
                              double a, double b, int64_t n) {
    for (int64_t s = 0; s < n; s += 2)
        for (int t = 0; t < 2; t++) {
            m[s + t] += a * P[s + t];
            mp[s + t] += b * P[s + t];
        }
}

/* The same where only lane one (>= 0) may be above zero: that lane alone. */
static inline void fc_su_add(double *restrict m, double *restrict mp, const double *restrict P,
                             double a, double b, int64_t n, int one) {
    if (one < 0) {
        fc_su_axpy(m, mp, P, a, b, n);
        return;
    }
    m[one] += a * P[one];
    mp[one] += b * P[one];
}

/* Class the 13-tile suit hand y (its number n13) for the starts act holding it with weights
 * P[s] (s < ns2; 0 for the starts not in act, or where one start alone holds it, one >= 0, that
 * lane alone set). */
static void fc_suit_hand(fc_work_t *w, const uint8_t *y, int32_t n13, uint32_t act, int one,
                         const double *restrict P) {
    fc_suit_t *su = w->su;
    const uint32_t info = FC_SU13[n13];
    const int d = (int)(info >> 9 & 3);
    su->used |= act;
    if (d <= 1) { /* ready: a leaf */
        const uint32_t ri = fc_su_ready(w, info >> 11);
        fc_su_add(su->R[su->w8[ri]], su->RP[su->w8[ri]], P, 1.0, su->pay[ri], su->ns2, one);
        su->rw |= 1ULL << su->w8[ri];
        return;
    }
    if (d == 2) { /* its progress draws by the winning copies of the hand each keeps */
        const uint32_t *pv = FC_SU_PROG + (info >> 11), mask = info & 0x1FFu;
        const int c = fc_su_copies(w, mask);
        double a[FC_SU_W], ap[FC_SU_W];
        uint64_t ws = 0;
        for (uint32_t m = mask; m; m &= m - 1, pv++) {
            const int k = mj_ctz(m);
            if (!(su->poolf >> k & 1)) continue;
            const uint32_t ri = fc_su_kept(w, *pv), l = su->w8[ri];
            const double left = su->lf[k];
            if (!(ws >> l & 1)) a[l] = ap[l] = 0.0;
            a[l] += left;
            ap[l] += left * su->pay[ri];
            ws |= 1ULL << l;
        }
        for (uint64_t m = ws; m; m &= m - 1) {
            const int l = fc_ctz64(m);
            const int64_t at = ((int64_t)c * FC_SU_W + l) * su->ns2;
            fc_su_add(su->W + at, su->WP + at, P, a[l], ap[l], su->ns2, one);
        }
        su->ww[c] |= ws;
        su->wc |= 1ULL << c;
        return;
    }
    for (; act; act &= act - 1) { /* 2-shanten: after the walk */
        fc_su_rare_t *r = su->rare + su->nrare++;
        memcpy(r->y, y, 9);
        r->s = mj_ctz(act);
        r->P = P[r->s];
    }
}


/* The patterns of half h within the ranges lo..hi into su's lists, grouped by (D, tiles) (at),
 * each with its starts' factors of P(y) (their product over the half). */
static void fc_su_halves(fc_work_t *w, int h, const uint8_t *lo, const uint8_t *hi) {
    fc_suit_t *su = w->su;
    const int r0 = h ? 4 : 0, nr = h ? 5 : 4, ns = su->ns, ns2 = su->ns2, f = su->f;
    fc_su_half_t *e = su->half[h], *tmp = su->htmp;
    double *P = su->hp[h], *ptmp = su->hptmp;
    int32_t (*at)[22] = su->hat[h];
    int n = 0, none = 0;
    uint8_t a[5];
    for (int i = 0; i < nr; i++) {
        a[i] = lo[r0 + i];
        none |= lo[r0 + i] > hi[r0 + i]; /* (no start has an entry in time) */
    }
    memset(at, 0, sizeof su->hat[h]);
    double pre[6][FC_SU_NS]; /* the products over the first i ranks, kept while those stay */
    for (int s = 0; s < ns; s++) pre[0][s] = 1.0;
    for (int from = 0; !none;) {
        fc_su_half_t *x = tmp + n;
        double *p = ptmp + (int64_t)n * ns2;
        x->n = x->D = 0;
        x->key = 0;
        x->act = 0;
        for (int i = 0; i < nr; i++) {
            int r = r0 + i;
            x->y[i] = a[i];
            x->n = (uint8_t)(x->n + a[i]);
            x->key = (uint16_t)(5 * x->key + a[i]);
            x->D |= (uint8_t)((a[i] == 4 && w->left[9 * f + r] > 0) << i);
            if (i >= from)
                for (int s = 0; s < ns; s++) pre[i + 1][s] = pre[i][s] * su->fac[s][r][a[i]];
        }
        for (int s = 0; s < ns; s++) {
            p[s] = pre[nr][s];
            x->act |= (uint32_t)(p[s] != 0.0) << s;
        }
        for (int s = ns; s < ns2; s++) p[s] = 0.0;
        if (x->act && x->n <= 13) {
            at[x->D][x->n]++;
            n++;
        }
        int i = nr - 1;
        while (i >= 0 && a[i] == hi[r0 + i]) a[i] = lo[r0 + i], i--;
        if (i < 0) break;
        a[i]++;
        from = i;
    }
    /* counting sort by (D, tiles): at[D][t] .. at[D][t + 1] */
    int32_t sum = 0;
    for (int d = 0; d < 32; d++)
        for (int t = 0; t < 22; t++) {
            int32_t c = at[d][t];
            at[d][t] = sum;
            sum += c;
        }
    int32_t next[32][22];
    memcpy(next, at, sizeof next);
    for (int i = 0; i < n; i++) {
        int32_t j = next[tmp[i].D][tmp[i].n]++;
        e[j] = tmp[i];
        memcpy(P + (int64_t)j * ns2, ptmp + (int64_t)i * ns2, (size_t)ns2 * sizeof(double));
    }
}

/* The hands of D: each pair of halves of 13 tiles in all, classed for the starts holding both. */
static void fc_su_pairs(fc_work_t *w, uint32_t D) {
    fc_suit_t *su = w->su;
    const int ns2 = su->ns2, dh = (int)(D & 15), dl = (int)(D >> 4);
    const fc_su_half_t *H = su->half[0], *L = su->half[1];
    double Q[FC_SU_NS];
    uint8_t y[9];
    for (int nh = 0; nh <= 13; nh++) {
        const int nl = 13 - nh;
        for (int32_t i = su->hat[0][dh][nh]; i < su->hat[0][dh][nh + 1]; i++) {
            const double *ph = su->hp[0] + (int64_t)i * ns2;
            const int32_t base = FC_SU_BASE[0][H[i].key];
            memcpy(y, H[i].y, 4);
            for (int32_t j = su->hat[1][dl][nl]; j < su->hat[1][dl][nl + 1]; j++) {
                uint32_t act = H[i].act & L[j].act;
                if (!act) continue;
                const double *pl = su->hp[1] + (int64_t)j * ns2;
                const int one = act & (act - 1) ? -1 : mj_ctz(act);
                if (one >= 0) Q[one] = ph[one] * pl[one];
                else
                    for (int64_t s = 0; s < ns2; s += 2) /* (0 outside act) */
                        for (int t = 0; t < 2; t++) Q[s + t] = ph[s + t] * pl[s + t];
                memcpy(y + 4, L[j].y, 5);
                fc_suit_hand(w, y, base + FC_SU_POS[L[j].key], act, one, Q);
            }
        }
    }
}

/* Psi_D(j), j = 0..T, of start s into su->psi[s]. */
static void fc_suit_psi(fc_work_t *w, int s, uint32_t D) {
    fc_suit_t *su = w->su;
    const int T = su->T, n = su->st[s].n;
    double *psi = su->psi[s];
    for (int j = 0; j <= T; j++) psi[j] = 0.0;
    if (!n) {
        psi[0] = 1.0;
        return;
    }
    fc_dead_ctx_t *x = su->ctx + s;
    double phi[FC_MAX_DRAWS + 1], tmp[FC_MAX_DRAWS + 1];
    const int K = x->K;
    int u = n;
    for (uint32_t m = D; m; m &= m - 1) u -= x->room[mj_ctz(m)];
    for (int i = 0; i <= K; i++) phi[i] = 0.0;
    if (!D) phi[0] = u;
    else {
        const double *g = fc_dead_g(x, D, tmp);
        for (int i = 0; i <= K; i++) phi[i] = u * g[i];
        for (uint32_t m = D; m; m &= m - 1) {
            int r = mj_ctz(m);
            if (!x->room[r]) continue;
            double c = x->p[r] * x->pc[r][x->room[r] - 1];
            uint32_t rest = D & ~(1u << r);
            if (!rest) {
                phi[0] += c;
                continue;
            }
            g = fc_dead_g(x, rest, tmp);
            for (int i = 0; i <= K; i++) phi[i] += c * g[i];
        }
    }
    const int top = D ? K : 0;
    for (int j = n; j <= T; j++) {
        double v = 0.0;
        for (int i = 0; i <= j - n && i <= top; i++) v += x->h[j - n - i] * phi[i];
        psi[j] = x->fact[j] * v;
    }
}

/* After the walk of D: each start's classes with their Psi_D into the leaves' inflows. */
static void fc_suit_fold(fc_work_t *w, uint32_t D) {
    fc_suit_t *su = w->su;
    const int T = su->T, R1 = T + 1;
    const int ns2 = su->ns2;
    const double total = su->total;
    for (uint32_t act = su->used; act; act &= act - 1) {
        int s = mj_ctz(act);
        fc_suit_psi(w, s, D);
        const double *psi = su->psi[s];
        for (uint64_t m = su->rw; m; m &= m - 1) {
            int c = fc_ctz64(m);
            double r = su->R[c][s], rp = su->RP[c][s];
            if (r == 0.0 && rp == 0.0) continue; /* (a start without such hands) */
            double *b = fc_su_b(su, su->b, s, c), *bp = fc_su_b(su, su->bp, s, c);
            for (int j = 0; j < R1; j++) {
                b[j] += r * psi[j];
                bp[j] += rp * psi[j];
            }
            su->bw[s] |= 1ULL << c;
        }
        for (uint64_t mc = su->wc; mc; mc &= mc - 1) {
            int c = fc_ctz64(mc), filtered = 0;
            double x[FC_MAX_DRAWS + 1], q = (double)(su->total - c) / su->total, mass = 0.0;
            const double *cw = su->W + (int64_t)c * FC_SU_W * ns2, *cwp = su->WP + (int64_t)c * FC_SU_W * ns2;
            for (uint64_t m = su->ww[c]; m; m &= m - 1) {
                int l = fc_ctz64(m);
                if (cw[l * ns2 + s] == 0.0 && cwp[l * ns2 + s] == 0.0) continue;
                if (!filtered++)
                    for (int j = 0; j < T; j++) x[j] = mass = q * mass + psi[j];
                double p = cw[l * ns2 + s] / total, pp = cwp[l * ns2 + s] / total;
                double *b = fc_su_b(su, su->b, s, l) + 1, *bp = fc_su_b(su, su->bp, s, l) + 1;
                for (int j = 0; j < T; j++) {
                    b[j] += p * x[j];
                    bp[j] += pp * x[j];
                }
                su->bw[s] |= 1ULL << l;
            }
        }
    }
    for (uint64_t m = su->rw; m; m &= m - 1) { /* the sums back to zero */
        int c = fc_ctz64(m);
        memset(su->R[c], 0, (size_t)ns2 * sizeof(double));
        memset(su->RP[c], 0, (size_t)ns2 * sizeof(double));
    }
    for (uint64_t mc = su->wc; mc; mc &= mc - 1) {
        int c = fc_ctz64(mc);
        for (uint64_t m = su->ww[c]; m; m &= m - 1) {
            int64_t at = ((int64_t)c * FC_SU_W + fc_ctz64(m)) * ns2;
            memset(su->W + at, 0, (size_t)ns2 * sizeof(double));
            memset(su->WP + at, 0, (size_t)ns2 * sizeof(double));
        }
        su->ww[c] = 0;
    }
    su->rw = su->wc = 0;
    for (int i = 0; i < su->nrare; i++) { /* each 2-shanten hand once, with all its starts */
        const fc_su_rare_t *r = su->rare + i, *of[FC_MAX_STARTS];
        double a[FC_MAX_STARTS][FC_MAX_DRAWS + 1];
        int n = 0;
        if (r->s < 0) continue;
        for (int k = i; k < su->nrare; k++) {
            fc_su_rare_t *o = su->rare + k;
            if (o->s < 0 || memcmp(o->y, r->y, 9)) continue;
            for (int j = 0; j < R1; j++) a[n][j] = o->P * su->psi[o->s][j];
            of[n++] = o;
        }
        fc_suit_two(w, r->y, of, n, a);
        for (int k = 0; k < n; k++) ((fc_su_rare_t *)of[k])->s = -1 - of[k]->s;
    }
    su->used = 0;
    su->nrare = 0;
}

/* The leaves' inflows of start s into its curves, payment and value. */
static void fc_suit_finish(fc_work_t *w, int s) {
    fc_suit_t *su = w->su;
    const int T = su->T;
    double won[FC_MAX_DRAWS + 1] = {0}, rmass[FC_MAX_DRAWS + 1] = {0}, paid = 0.0;
    for (uint64_t m = su->bw[s]; m; m &= m - 1) {
        int l = fc_ctz64(m);
        double *b = fc_su_b(su, su->b, s, l), *bp = fc_su_b(su, su->bp, s, l);
        double pw = (double)l / su->total, sw = (double)(su->total - l) / su->total, z = 0.0, zp = 0.0;
        for (int j = 0; j <= T; j++) {
            z = sw * z + b[j];
            zp = sw * zp + bp[j];
            b[j] = bp[j] = 0.0;
            if (j < T) {
                won[j] += pw * z;
                paid += zp;
            }
            if (j) rmass[j - 1] += z;
        }
    }
    su->bw[s] = 0;
    for (int j = 0; j < T; j++) {
        if (j) won[j] += won[j - 1];
        su->ready[s][j] = won[j] + rmass[j];
        su->win[s][j] = won[j];
    }
    su->paid[s] = paid;
    su->obj[s] = won[T - 1];
}

/* Every start's per-rank factors of P(y) and the walk's ranges. */
static void fc_suit_setup(fc_work_t *w, uint8_t *lo, uint8_t *hi) {
    fc_suit_t *su = w->su;
    const int f = su->f, T = su->T;
    for (int r = 0; r < 9; r++) {
        lo[r] = 4;
        hi[r] = 0;
    }
    for (int s = 0; s < su->ns; s++) {
        const fc_dead_start_t *st = su->st + s;
        if (st->n) fc_dead_ctx(w, st, su->ctx + s);
        for (int r = 0; r < 9; r++) {
            int live = w->left[9 * f + r] > 0, x0 = st->x[r];
            for (int a = 0; a < 5; a++) {
                double v = 0.0;
                if (st->n > T) v = 0.0; /* no entry in time */
                else if (!st->n || !live) v = a == x0;
                else if (a >= x0) v = a == 4 ? 1.0 : su->ctx[s].pc[r][a - x0];
                su->fac[s][r][a] = v;
            }
            if (st->n > T) continue;
            if (x0 < lo[r]) lo[r] = (uint8_t)x0;
            int top = st->n && live ? 4 : x0;
            if (top > hi[r]) hi[r] = (uint8_t)top;
        }
    }
}

/* The flush pass over the ns starts dst (fc_dead_add; n = 0: no dead tile): su->ready, win,
 * paid and obj per start. */
static int fc_suit_run(fc_work_t *w, const fc_dead_start_t *dst, int ns) {
    int code = fc_suit_alloc(w);
    if (code != MJ_OK) return code;
    fc_suit_t *su = w->su;
    su->dirty = 1;
    for (int v = -1; v < 127; v++) /* the payment per payer of a fan (as fc_paid clamps it) */
        su->payv[v + 1] = w->job->pay[v < 0 ? 0 : v >= w->job->n_pay ? w->job->n_pay - 1 : v];
    su->ns = ns;
    su->ns2 = (ns + 1) & ~1;
    su->st = dst;
    su->T = w->T;
    su->total = w->total;
    su->f = w->flush;
    const int f = su->f;
    su->poolf = w->pool >> (9 * f) & 0x1FFu;
    for (int r = 0; r < 9; r++) su->lf[r] = w->left[9 * f + r];
    fc_su_price_cached(w); /* the row's memos: another pool */
    uint8_t lo[9], hi[9];
    fc_suit_setup(w, lo, hi);
    if (fc_su_span(w) >= FC_SU_BROAD) fc_su_pick_all(w);
    else memset(su->pk, 0xFF, FC_SU_N14 * sizeof(uint16_t));
    uint32_t live = 0;
    for (int r = 0; r < 9; r++) live |= (uint32_t)(w->left[9 * f + r] > 0 && hi[r] == 4) << r;
    fc_su_halves(w, 0, lo, hi);
    fc_su_halves(w, 1, lo, hi);
    /* D: the live ranks held four times (at most three of them in 13 tiles) */
    for (uint32_t D = 0; D < 512; D++) {
        if ((D & ~live) || mj_popcount(D) > 3) continue;
        fc_su_pairs(w, D);
        if (!su->used) continue;
        fc_suit_fold(w, D);
        if ((code = fc_tick(w, 0)) != MJ_OK) return code;
    }
    for (int s = 0; s < ns; s++) fc_suit_finish(w, s);
    su->dirty = 0;
    return MJ_OK;
}

#endif
