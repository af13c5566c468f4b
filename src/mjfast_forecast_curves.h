/* mjfast forecast engine, step 3: the ready / win curves and the paid value of a start state,
 * forward along the picks of step 2 (the method is described in mjfast_forecast.h).
 *
 * The probability mass over states after each draw follows the picks; won mass, ready mass
 * (shanten <= 0) and paid value accumulate per draw. Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_CURVES_H
#define MJFAST_FORECAST_CURVES_H

#include "mjfast_forecast_graph.h" /* the state graph (step 1), on the kernels of mjfast_kernels.h */

/* Mass m onto state s for the next draw: a ready leaf (live 2, listed: 3) keeps its mass in place
 * on the leaf list (its ready total in *lsum); any other state goes on the next active list. */
static inline void fc_push(fc_work_t *w, int32_t s, double m, int64_t *nn, int64_t *nl, double *lsum) {
    if (m == 0.0) return; /* (underflow) a zero never enters the list, so no state is listed twice */
    if (w->live[s] >= 2) {
        if (w->live[s] == 2) {
            w->live[s] = 3;
            w->leaf[(*nl)++] = s;
        }
        w->mass[s] += m;
        *lsum += m;
        return;
    }
    if (w->next[s] == 0.0) w->nact[(*nn)++] = s;
    w->next[s] += m;
}

/* Curves of start state s0 with exchanges, draw by draw over lists of the states holding mass. Ready
 * states without edges (every draw wins or stays) are most of the mass late on: they sit on a
 * list of their own, their mass decaying in place by their stay probability. */
static double fc_curves_list(fc_work_t *w, int32_t s0, double *ready, double *win) {
    const int T = w->T;
    int64_t na = 0, nl = 0;
    double won = 0, paid = 0, lsum = 0;
    if (w->live[s0] >= 2) fc_push(w, s0, 1.0, &na, &nl, &lsum);
    else {
        w->act[na++] = s0;
        w->mass[s0] = 1.0;
    }
    for (int j = 0; j < T; j++) {
        int t = T - j;
        int64_t nn = 0;
        lsum = 0;
        for (int64_t i = 0; i < nl; i++) {
            int32_t s = w->leaf[i];
            double m = w->mass[s];
            won += m * w->pwin[s];
            paid += m * w->ppay[s];
            m *= w->stay[s];
            w->mass[s] = m;
            lsum += m;
        }
        for (int64_t i = 0; i < na; i++) {
            int32_t s = w->act[i];
            double m = w->mass[s];
            w->mass[s] = 0.0;
            if (!w->live[s] || w->sh[s] > t) continue; /* never ready nor won in time */
            won += m * w->pwin[s];
            paid += m * w->ppay[s];
            if (w->stay[s] > 0) fc_push(w, s, m * w->stay[s], &nn, &nl, &lsum);
            for (int64_t e = w->e0[s]; e < w->e1[s];) {
                int k = w->edges[e] & 0xFF, count = w->edges[e] >> 8;
                int32_t g = w->edges[e + 1];
                fc_push(w, g < 0 ? w->edges[e + 2] : w->picks[(int64_t)(g & ~FC_SHARED) * T + t - 1],
                        m * w->p[k], &nn, &nl, &lsum);
                e += 2 + count;
            }
        }
        double r = won + lsum;
        for (int64_t i = 0; i < nn; i++) {
            int32_t s = w->nact[i];
            if (w->sh[s] <= 0) r += w->next[s];
            w->mass[s] = w->next[s];
            w->next[s] = 0.0;
        }
        int32_t *tmp = w->act;
        w->act = w->nact;
        w->nact = tmp;
        na = nn;
        ready[j] = r;
        win[j] = won;
    }
    for (int64_t i = 0; i < na; i++) w->mass[w->act[i]] = 0.0;
    for (int64_t i = 0; i < nl; i++) {
        w->mass[w->leaf[i]] = 0.0;
        w->live[w->leaf[i]] = 2;
    }
    return paid;
}

/* State x joins the list of states the start's mass can reach (once: inq). */
static inline void fc_reach(fc_work_t *w, int32_t x, int64_t *n) {
    if (!w->inq[x]) {
        w->inq[x] = 1;
        w->act[(*n)++] = x;
    }
}

/* A state's place in the DAG order: (shanten, void tiles) falling, states never expanded last. */
static inline int fc_order_key(const fc_work_t *w, int32_t s) {
    return w->live[s] ? FC_ORDER - 1 - (w->sh[s] * 16 + w->nv[s]) : FC_ORDER;
}

/* The states start s0's mass can reach (along every pick of the draws left they see) into
 * w->nact, parents first: by (shanten, void tiles) falling (the graph's DAG order without
 * exchanges), states never expanded last. Returns their number. */
static int64_t fc_reachable(fc_work_t *w, int32_t s0) {
    const int T = w->T;
    int64_t n = 0, cnt[FC_ORDER + 2];
    fc_reach(w, s0, &n);
    for (int64_t i = 0; i < n; i++) {
        int32_t s = w->act[i];
        int lo = w->sh[s] < 1 ? 1 : w->sh[s], hi = T - w->depth[s];
        for (int64_t e = w->e0[s]; e < w->e1[s]; e += 2 + (w->edges[e] >> 8)) {
            int32_t g = w->edges[e + 1];
            const int32_t *picks = w->picks + (int64_t)(g & ~FC_SHARED) * T;
            if (g < 0) fc_reach(w, w->edges[e + 2], &n);
            else
                for (int t = lo; t <= hi; t++) fc_reach(w, picks[t - 1], &n);
        }
    }
    int klo = fc_order_key(w, s0), khi = klo; /* n >= 1: s0 */
    for (int64_t i = 1; i < n; i++) {
        int key = fc_order_key(w, w->act[i]);
        klo = key < klo ? key : klo;
        khi = key > khi ? key : khi;
    }
    memset(cnt + klo, 0, (size_t)(khi - klo + 2) * sizeof(cnt[0]));
    for (int64_t i = 0; i < n; i++) cnt[fc_order_key(w, w->act[i]) + 1]++;
    for (int b = klo; b < khi; b++) cnt[b + 1] += cnt[b];
    for (int64_t i = 0; i < n; i++) {
        int32_t s = w->act[i];
        w->nact[cnt[fc_order_key(w, s)]++] = s;
        w->inq[s] = 0;
    }
    return n;
}

/* Curves of start state s0 without exchanges, state by state in the DAG order: each state's
 * mass per draw, in[j] arriving before draw j + 1 (flow rows [state][T + 1], zero outside this
 * pass), is complete once its parents are done; its stay keeps a share in place, the rest flows
 * down its picks a draw later. Tight loops over the draws instead of lists per draw. */
static double fc_curves_dag(fc_work_t *w, int32_t s0, double *ready, double *win) {
    const int T = w->T, R = T + 1;
    int64_t n = fc_reachable(w, s0);
    double won[FC_MAX_DRAWS + 1] = {0}, rmass[FC_MAX_DRAWS + 1] = {0}, paid = 0;
    w->flow[(int64_t)s0 * R] = 1.0;
    for (int64_t i = 0; i < n; i++) {
        int32_t s = w->nact[i];
        double *in = w->flow + (int64_t)s * R, x[FC_MAX_DRAWS + 1], mp = 0.0, held = 0.0;
        int sh = w->sh[s], lo = sh < 1 ? 1 : sh;
        /* mass arrives from draw depth on; it counts while it can still get ready or win in the
         * draws left (through draw j1), and is dropped after */
        int j0 = w->depth[s], j1 = w->live[s] ? T - lo : -1;
        double stay = w->stay[s], pw = w->pwin[s];
        for (int j = j0; j <= T; j++) {
            x[j] = stay * mp + in[j]; /* the mass at s before draw j + 1 */
            in[j] = 0.0;              /* (the row is clear again for the next pass) */
            mp = j <= j1 ? x[j] : 0.0;
        }
        for (int j = j0; j <= j1; j++) {
            won[j] += x[j] * pw;
            held += x[j];
        }
        if (sh <= 0)
            for (int j = j0 > 1 ? j0 : 1; j <= T; j++) rmass[j - 1] += x[j];
        paid += held * w->ppay[s];
        for (int64_t e = w->e0[s]; e < w->e1[s]; e += 2 + (w->edges[e] >> 8)) {
            int32_t g = w->edges[e + 1];
            double pk = w->p[w->edges[e] & 0xFF];
            if (g < 0) {
                double *c = w->flow + (int64_t)w->edges[e + 2] * R + 1;
                for (int j = j0; j <= j1; j++) c[j] += pk * x[j];
                continue;
            }
            const int32_t *picks = w->picks + (int64_t)(g & ~FC_SHARED) * T;
            for (int j = j0; j <= j1; j++) w->flow[(int64_t)picks[T - j - 1] * R + j + 1] += pk * x[j];
        }
    }
    for (int j = 0; j < T; j++) {
        if (j) won[j] += won[j - 1];
        ready[j] = won[j] + rmass[j];
        win[j] = won[j];
    }
    return paid;
}

/* Curves of start state s0: ready[j], win[j] after draw j + 1, and the expected payment. */
static double fc_curves(fc_work_t *w, int32_t s0, double *ready, double *win) {
    return w->job->exchanges ? fc_curves_list(w, s0, ready, win) : fc_curves_dag(w, s0, ready, win);
}

#endif
