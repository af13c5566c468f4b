/* mjfast forecast engine, step 3: the ready / win curves and the paid value of a start state,
 * forward along the picks of step 2 (the overview is in mjfast_forecast.h). Owns the forward
 * passes and their buffers (fc_curves_t).
 *
 * The probability mass over states after each draw follows the picks; won mass, ready mass
 * (shanten <= 0) and paid value accumulate per draw. With a budget state by state in the values'
 * DAG order, visiting the places the start's mass reaches (a bitset), each one's mass per draw in
 * a row, pushed down its picks in loops over the draws (fc_curves_dag); without one draw by draw
 * over lists of the states holding mass (fc_curves_list). Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_CURVES_H
#define MJFAST_FORECAST_CURVES_H

#include "mjfast_forecast_graph.h" /* the state graph (step 1), on the kernels of mjfast_kernels.h */

/* Mass m onto state s for the next draw: a ready leaf (live 2, listed: 3) keeps its mass in place
 * on the leaf list (its ready total in *lsum); any other state goes on the next active list. */
static inline void fc_push(fc_work_t *w, int32_t s, double m, int64_t *nn, int64_t *nl, double *lsum) {
    if (m == 0.0) return; /* (underflow) a zero never enters the list, so no state is listed twice */
    if (w->g.mark[s] >= FC_LEAF) {
        if (w->g.mark[s] == FC_LEAF) {
            w->g.mark[s] = FC_LEAF_LISTED;
            w->c.leaf[(*nl)++] = s;
        }
        w->c.mass[s] += m;
        *lsum += m;
        return;
    }
    if (w->c.next[s] == 0.0) w->c.nact[(*nn)++] = s;
    w->c.next[s] += m;
}

/* Curves of start state s0 without a budget, draw by draw over lists of the states holding mass. Ready
 * states without edges (every draw wins or stays) are most of the mass late on: they sit on a
 * list of their own, their mass decaying in place by their stay probability. */
static double fc_curves_list(fc_work_t *w, int32_t s0, double *ready, double *win) {
    const int T = w->T;
    int64_t na = 0, nl = 0;
    double won = 0, paid = 0, lsum = 0;
    if (w->g.mark[s0] >= FC_LEAF) fc_push(w, s0, 1.0, &na, &nl, &lsum);
    else {
        w->c.act[na++] = s0;
        w->c.mass[s0] = 1.0;
    }
    for (int j = 0; j < T; j++) {
        int t = T - j;
        int64_t nn = 0;
        lsum = 0;
        for (int64_t i = 0; i < nl; i++) {
            int32_t s = w->c.leaf[i];
            double m = w->c.mass[s];
            won += m * w->g.pwin[s];
            paid += m * w->g.ppay[s];
            m *= w->g.stay[s];
            w->c.mass[s] = m;
            lsum += m;
        }
        for (int64_t i = 0; i < na; i++) {
            int32_t s = w->c.act[i];
            double m = w->c.mass[s];
            w->c.mass[s] = 0.0;
            if (w->g.mark[s] == FC_NEW || w->g.sh[s] > t) continue; /* never ready nor won in time */
            won += m * w->g.pwin[s];
            paid += m * w->g.ppay[s];
            if (w->g.stay[s] > 0) fc_push(w, s, m * w->g.stay[s], &nn, &nl, &lsum);
            for (int64_t e = w->g.e0[s]; e < w->g.e1[s];) {
                int k = fc_head_p(w->g.edges[e]), count = fc_head_count(w->g.edges[e]);
                int32_t g = w->g.edges[e + 1];
                fc_push(w, g < 0 ? w->g.edges[e + 2] : w->v.picks[(int64_t)(g & ~FC_SHARED) * T + t - 1],
                        m * w->p[k], &nn, &nl, &lsum);
                e += 2 + count;
            }
        }
        double r = won + lsum;
        for (int64_t i = 0; i < nn; i++) {
            int32_t s = w->c.nact[i];
            if (w->g.sh[s] <= 0) r += w->c.next[s];
            w->c.mass[s] = w->c.next[s];
            w->c.next[s] = 0.0;
        }
        int32_t *tmp = w->c.act;
        w->c.act = w->c.nact;
        w->c.nact = tmp;
        na = nn;
        ready[j] = r;
        win[j] = won;
    }
    for (int64_t i = 0; i < na; i++) w->c.mass[w->c.act[i]] = 0.0;
    for (int64_t i = 0; i < nl; i++) {
        w->c.mass[w->c.leaf[i]] = 0.0;
        w->g.mark[w->c.leaf[i]] = FC_LEAF;
    }
    return paid;
}

/* The lowest set bit of x != 0 (mj_ctz on its halves). */
static inline int fc_ctz64(uint64_t x) {
    return (uint32_t)x ? mj_ctz((uint32_t)x) : 32 + mj_ctz((uint32_t)(x >> 32));
}

/* The state at place i of the DAG order of fc_curves_dag: fc_values_dag's order of the live
 * states backwards ((shanten, void tiles) falling), then the states never expanded. */
static inline int32_t fc_dag_state(const fc_work_t *w, int64_t i) {
    return w->c.act[i < w->v.nlive ? w->v.nlive - 1 - i : i];
}

/* The share of state s's mass that its picks keep in place at draw j (t = T - j draws left), for
 * j in j0..j1 into keep[j]: the groups that list s itself (w->g.loop[s]) and pick it then. */
static void fc_kept(const fc_work_t *w, int32_t s, int j0, int j1, double *keep) {
    const int T = w->T;
    for (int j = j0; j <= j1; j++) keep[j] = 0.0;
    for (int64_t e = w->g.e0[s]; e < w->g.e1[s]; e += 2 + fc_head_count(w->g.edges[e])) {
        int32_t g = w->g.edges[e + 1];
        if (g < 0) continue; /* (a group of one that is s itself is a stay: fc_group) */
        const int32_t *picks = w->v.picks + (int64_t)(g & ~FC_SHARED) * T;
        for (int j = j0; j <= j1; j++)
            if (picks[T - j - 1] == s) keep[j] += w->p[fc_head_p(w->g.edges[e])];
    }
}

/* Curves with a budget from the mass seeded (fc_seed; the first seeded place: first), state by
 * state in the DAG order (fc_dag_state), its loops over the draws compiled twice (fc_curves_flow),
 * visiting only the places its mass reaches (bits of w->c.reach, by place: w->c.nact): each state's
 * mass per draw, in[j] arriving before draw j + 1 (flow rows [state][T + 1], zero outside this
 * pass), is complete once its parents (earlier places) are done; its stay (and the picks that
 * keep it: fc_kept) keeps a share in place, the rest flows down its picks a draw later. Tight
 * loops over the draws instead of lists per draw. */
static MJ_ALWAYS_INLINE double fc_curves_flow_on(fc_work_t *w, int64_t first, double *ready, double *win) {
    const int T = w->T, R = T + 1;
    const int32_t *place = w->c.nact;
    uint64_t *reach = w->c.reach;
    double won[FC_MAX_DRAWS + 1] = {0}, rmass[FC_MAX_DRAWS + 1] = {0}, paid = 0;
    for (int64_t word = first >> 6, last = (w->v.nref - 1) >> 6;;) {
        while (word <= last && !reach[word]) word++;
        if (word > last) break;
        int32_t s = fc_dag_state(w, word * 64 + fc_ctz64(reach[word]));
        reach[word] &= reach[word] - 1;
        double *in = w->c.flow + (int64_t)s * R, x[FC_MAX_DRAWS + 1], mp = 0.0, held = 0.0;
        int sh = w->g.sh[s], lo = sh < 1 ? 1 : sh;
        /* mass arrives from draw depth on; it counts while it can still get ready or win in the
         * draws left (through draw j1), and is dropped after */
        int j0 = w->g.depth[s], j1 = w->g.mark[s] != FC_NEW ? T - lo : -1;
        double stay = w->g.stay[s], pw = w->g.pwin[s], keep[FC_MAX_DRAWS + 1];
        if (w->g.loop[s]) {
            fc_kept(w, s, j0, j1, keep);
            for (int j = j0; j <= T; j++) {
                x[j] = mp + in[j];
                in[j] = 0.0;
                mp = j <= j1 ? (stay + keep[j]) * x[j] : 0.0;
            }
        } else {
            for (int j = j0; j <= T; j++) {
                x[j] = stay * mp + in[j]; /* the mass at s before draw j + 1 */
                in[j] = 0.0;              /* (the row is clear again for the next pass) */
                mp = j <= j1 ? x[j] : 0.0;
            }
        }
        for (int j = j0; j <= j1; j++) {
            won[j] += x[j] * pw;
            held += x[j];
        }
        if (sh <= 0)
            for (int j = j0 > 1 ? j0 : 1; j <= T; j++) rmass[j - 1] += x[j];
        paid += held * w->g.ppay[s];
        if (j1 < j0) continue;
        for (int64_t e = w->g.e0[s]; e < w->g.e1[s]; e += 2 + fc_head_count(w->g.edges[e])) {
            int32_t g = w->g.edges[e + 1];
            double pk = w->p[fc_head_p(w->g.edges[e])];
            if (g < 0) {
                int32_t c = w->g.edges[e + 2];
                double *f = w->c.flow + (int64_t)c * R + 1;
                for (int j = j0; j <= j1; j++) f[j] += pk * x[j];
                reach[place[c] >> 6] |= 1ULL << (place[c] & 63);
                continue;
            }
            const int32_t *picks = w->v.picks + (int64_t)(g & ~FC_SHARED) * T;
            for (int j = j0; j <= j1; j++) {
                int32_t c = picks[T - j - 1];
                if (c == s) continue; /* kept in place (fc_kept) */
                w->c.flow[(int64_t)c * R + j + 1] += pk * x[j];
                reach[place[c] >> 6] |= 1ULL << (place[c] & 63);
            }
        }
    }
    for (int j = 0; j < T; j++) {
        if (j) won[j] += won[j - 1];
        ready[j] = won[j] + rmass[j];
        win[j] = won[j];
    }
    return paid;
}

static double fc_curves_flow_base(fc_work_t *w, int64_t first, double *ready, double *win) {
    return fc_curves_flow_on(w, first, ready, win);
}
#if MJ_AVX2
FC_AVX2 static double fc_curves_flow_avx2(fc_work_t *w, int64_t first, double *ready, double *win) {
    return fc_curves_flow_on(w, first, ready, win);
}
#endif

/* fc_curves_flow_on with its loops over the draws four doubles a step where the CPU has AVX2
 * (FC_AVX2), else two (SSE2). */
static double fc_curves_flow(fc_work_t *w, int64_t first, double *ready, double *win) {
#if MJ_AVX2
    if (MJ.isa == MJ_ISA_AVX2) return fc_curves_flow_avx2(w, first, ready, win);
#endif
    return fc_curves_flow_base(w, first, ready, win);
}

/* Mass m onto state s before draw j + 1 (a seed of fc_curves_flow: flow[s][j], reach). */
static inline void fc_seed(fc_work_t *w, int32_t s, int j, double m) {
    int64_t at = w->c.nact[s];
    w->c.flow[(int64_t)s * (w->T + 1) + j] += m;
    w->c.reach[at >> 6] |= 1ULL << (at & 63);
}

/* fc_curves_flow from start state s0 alone. */
static double fc_curves_dag(fc_work_t *w, int32_t s0, double *ready, double *win) {
    fc_seed(w, s0, 0, 1.0);
    return fc_curves_flow(w, w->c.nact[s0], ready, win);
}

/* Curves of start state s0: ready[j], win[j] after draw j + 1, and the expected payment. */
static double fc_curves(fc_work_t *w, int32_t s0, double *ready, double *win) {
    return w->budget < 0 ? fc_curves_list(w, s0, ready, win) : fc_curves_dag(w, s0, ready, win);
}

#endif
