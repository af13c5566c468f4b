/* mjfast forecast values: step 2 of a forecast row (the overview is in mjfast_forecast.h), the
 * values V_t of the states and the picks of their groups, over the graph of step 1.
 *
 * Plain C, no Python; the layer over mjfast_forecast_curves.h (fc_work_t, the graph, FC_TIE).
 */
#ifndef MJFAST_FORECAST_VALUES_H
#define MJFAST_FORECAST_VALUES_H

#include "mjfast_forecast_curves.h" /* fc_work_t, fc_graph_t, fc_values_t, FC_TIE */

/* Step 2. V_t(s) = win(s) + stay(s) V_{t-1}(s) + sum_k p_k V_{t-1}(pick), where pick is the best
 * successor (the lowest discard within a relative FC_TIE of the best); states with s >= t (no win
 * possible in t draws) and beyond their depth are worth 0. With a budget the graph is a DAG but
 * for self-loops, so the values go in that order with rows [state][t] (fc_values_dag: a
 * successor's whole row is contiguous, a group's picks come for all t at once with their values,
 * and the states of one class, which do not depend on each other, run their recurrences together
 * per t; states no group lists get no row); without one backward in t over all states
 * (fc_values). A group with one successor stores no picks, and groups with the same successor
 * list share one pick row. */

/* V[state, t]: the value of a state with t draws left. With a budget the rows are per state
 * ([state][t]: a successor's whole row is contiguous), without per t ([t][state]). */
static inline double *fc_v(const fc_work_t *w, int64_t s, int t) { return w->v.V + s * w->v.vsn + t * w->v.vtn; }

/* The row V[state, 0..T] with a budget. */
static inline double *fc_vrow(const fc_work_t *w, int64_t s) { return w->v.V + s * (w->T + 1); }

/* The successor a group picks with t draws left after it: the lowest discard whose value is
 * within FC_TIE (relative) of the best. */
static inline int32_t fc_pick(const fc_work_t *w, const int32_t *ids, int count, int t) {
    double best = *fc_v(w, ids[0], t);
    for (int i = 1; i < count; i++) {
        double v = *fc_v(w, ids[i], t);
        if (v > best) best = v;
    }
    double floor_ = best - FC_TIE * best;
    for (int i = 0; i < count; i++) {
        if (*fc_v(w, ids[i], t) >= floor_) return ids[i];
    }
    return ids[0];
}

/* The picks of a group with successors ids (rows contiguous: with a budget) for every t in
 * lo..hi into picks[t - 1], as fc_pick with t - 1 draws left (the best per t first, row by row
 * over all t at once, then the lowest discard within FC_TIE of it), and the picked values into
 * val[t]. */
static MJ_ALWAYS_INLINE void fc_pick_rows(const fc_work_t *w, const int32_t *ids, int count, int lo, int hi,
                                          int32_t *picks, double *val) {
    const double *r[27];
    double best[FC_MAX_DRAWS + 1];
    r[0] = fc_vrow(w, ids[0]) - 1; /* r[i][t]: t - 1 draws left (count >= 2) */
    for (int i = 1; i < count; i++) r[i] = fc_vrow(w, ids[i]) - 1;
    for (int t = lo; t <= hi; t++) best[t] = r[0][t];
    for (int i = 1; i < count; i++)
        for (int t = lo; t <= hi; t++) best[t] = r[i][t] > best[t] ? r[i][t] : best[t];
    for (int t = lo; t <= hi; t++) {
        double floor_ = best[t] - FC_TIE * best[t];
        int i = 0;
        while (r[i][t] < floor_) i++; /* stops at the best at the latest (values are >= 0) */
        picks[t - 1] = ids[i];
        val[t] = r[i][t];
    }
}

/* Whether the group at edges[e] lists state s. */
static inline int fc_lists(const fc_work_t *w, int64_t e, int32_t s) {
    for (int i = 0, count = fc_head_count(w->g.edges[e]); i < count; i++)
        if (w->g.edges[e + 2 + i] == s) return 1;
    return 0;
}

/* The successor terms of state s with a budget into acc[t] (t = 1..T; what lies outside lo..hi
 * is not used), sum_k p_k V_{t-1}(pick), each group's picks per t on the way; the groups that
 * list s itself (w->g.loop[s]) are left to fc_values_loop. Its loops over t are compiled twice
 * (fc_terms). */
static MJ_ALWAYS_INLINE void fc_terms_on(fc_work_t *w, int32_t s, int lo, int hi, double *acc) {
    const int T = w->T;
    double val[FC_MAX_DRAWS + 1];
    for (int t = 0; t <= T; t++) acc[t] = 0.0;
    for (int64_t e = w->g.e0[s]; e < w->g.e1[s];) {
        int k = fc_head_p(w->g.edges[e]), count = fc_head_count(w->g.edges[e]);
        const int32_t *ids = w->g.edges + e + 2;
        double pk = w->p[k];
        if (w->g.loop[s] && fc_lists(w, e, s)) {
            e += 2 + count;
            continue;
        }
        if (count == 1) {
            const double *row = fc_vrow(w, ids[0]);
            for (int t = lo; t <= hi; t++) acc[t] += pk * row[t - 1];
        } else {
            int32_t g = w->g.edges[e + 1];
            int32_t *picks = w->v.picks + (int64_t)(g & ~FC_SHARED) * T;
            if (!(g & FC_SHARED)) fc_pick_rows(w, ids, count, lo, hi, picks, val);
            else
                for (int t = lo; t <= hi; t++) val[t] = fc_vrow(w, picks[t - 1])[t - 1];
            for (int t = lo; t <= hi; t++) acc[t] += pk * val[t];
        }
        e += 2 + count;
    }
}

static void fc_terms_base(fc_work_t *w, int32_t s, int lo, int hi, double *acc) { fc_terms_on(w, s, lo, hi, acc); }
#if MJ_AVX2
FC_AVX2 static void fc_terms_avx2(fc_work_t *w, int32_t s, int lo, int hi, double *acc) { fc_terms_on(w, s, lo, hi, acc); }
#endif

/* fc_terms_on with the loops over t four doubles a step where the CPU has AVX2 (FC_AVX2), else
 * two (SSE2). */
static void fc_terms(fc_work_t *w, int32_t s, int lo, int hi, double *acc) {
#if MJ_AVX2
    if (MJ.isa == MJ_ISA_AVX2) {
        fc_terms_avx2(w, s, lo, hi, acc);
        return;
    }
#endif
    fc_terms_base(w, s, lo, hi, acc);
}

#define FC_BLOCK 64 /* states of one (exchanges, shanten, dead tiles) class valued together */

/* The row of a state whose groups list itself (the drawn tile back with exchanges left): the
 * other groups' terms first (fc_terms), then per t the recurrence with those groups' picks, which
 * read the state's own value a draw before. */
static void fc_values_loop(fc_work_t *w, int32_t s, int value) {
    const int T = w->T;
    double acc[FC_MAX_DRAWS + 1], *row = fc_vrow(w, s);
    int sh = w->g.sh[s], lo = sh < 1 ? 1 : sh, hi = T - w->g.depth[s];
    fc_terms(w, s, lo, hi, acc);
    double a = value ? w->g.ppay[s] : w->g.pwin[s], q = w->g.stay[s];
    row[0] = 0.0;
    for (int t = 1; t <= T; t++) {
        double x = a + q * row[t - 1] + (t >= lo && t <= hi ? acc[t] : 0.0);
        for (int64_t e = w->g.e0[s]; t >= lo && t <= hi && e < w->g.e1[s]; e += 2 + fc_head_count(w->g.edges[e])) {
            if (!fc_lists(w, e, s)) continue;
            int32_t g = w->g.edges[e + 1], pick = fc_pick(w, w->g.edges + e + 2, fc_head_count(w->g.edges[e]), t - 1);
            w->v.picks[(int64_t)g * T + t - 1] = pick; /* (never shared: fc_group) */
            x += w->p[fc_head_p(w->g.edges[e])] * fc_vrow(w, pick)[t - 1];
        }
        row[t] = x;
    }
}

/* Values with a budget: every successor has exchanges spent more, or as many and a lower
 * shanten, or the same shanten and one dead tile less (a forced discard), or is the state itself
 * (the drawn tile back: fc_values_loop), so in the order of (exchanges left, shanten, dead tiles)
 * the successors' whole rows V_0..V_T are known before their parent's, and the states of one
 * class do not depend on each other: a block of them takes its successor terms first
 * (fc_terms), then runs the recurrence of fc_values for all of them per t (the chains overlap).
 * No condition is needed: a state of shanten sh >= 1 has no winning draw and successors worth 0
 * up to t = sh, so its values there come out 0; past T - depth (draws it never has) they are not
 * read. States no group lists (ready leaves fc_collapse passed over or step 1b merged) get no
 * row. */
static int fc_values_dag(fc_work_t *w, int value) {
    const int T = w->T, nclass = (w->budget + 1) * FC_ORDER;
    const int64_t n = w->g.n;
    int32_t *order = w->c.act; /* kept for fc_curves_dag */
    if (!fc_grow(w, (void **)&w->v.cls, &w->v.clscap, nclass + 1, sizeof(int64_t))) return FC_ERR_NOMEM;
    int64_t *start = w->v.cls;
    memset(start, 0, (size_t)(nclass + 1) * sizeof(int64_t));
    for (int64_t s = 0; s < n; s++) {
        if (!w->g.ref[s]) continue;
        if (w->g.mark[s] != FC_NEW) start[fc_class(w, s) + 1]++;
        else memset(fc_vrow(w, s), 0, (size_t)(T + 1) * sizeof(double));
    }
    for (int b = 0; b < nclass; b++) start[b + 1] += start[b];
    const int64_t live = start[nclass];
    int64_t nref = live;
    for (int64_t s = 0; s < n; s++) {
        if (!w->g.ref[s]) continue;
        if (w->g.mark[s] != FC_NEW) order[start[fc_class(w, s)]++] = (int32_t)s;
        else order[nref++] = (int32_t)s; /* after the live ones: fc_curves_dag's order */
    }
    w->v.nlive = live;
    w->v.nref = nref;
    for (int64_t i = 0; i < nref; i++) w->c.nact[fc_dag_state(w, i)] = (int32_t)i; /* places */
    double acc[FC_BLOCK][FC_MAX_DRAWS + 1], a[FC_BLOCK], q[FC_BLOCK], x[FC_BLOCK], *row[FC_BLOCK];
    static const double none[FC_MAX_DRAWS + 1]; /* the terms of a state without edges (a ready leaf) */
    const double *terms[FC_BLOCK];
    for (int64_t i = 0, j; i < live; i = j) {
        int cls = fc_class(w, order[i]), nb = 0;
        for (j = i; j < live && nb < FC_BLOCK && fc_class(w, order[j]) == cls; j++) {
            int32_t s = order[j];
            if (w->g.loop[s]) {
                fc_values_loop(w, s, value);
                continue;
            }
            int sh = w->g.sh[s], b = nb++;
            a[b] = value ? w->g.ppay[s] : w->g.pwin[s];
            q[b] = w->g.stay[s];
            x[b] = 0.0;
            terms[b] = w->g.e0[s] == w->g.e1[s] ? none : acc[b];
            if (terms[b] == acc[b]) fc_terms(w, s, sh < 1 ? 1 : sh, T - w->g.depth[s], acc[b]);
            row[b] = fc_vrow(w, s);
            row[b][0] = 0.0;
        }
        for (int t = 1; t <= T; t++) {
            for (int b = 0; b < nb; b++) {
                x[b] = a[b] + q[b] * x[b] + terms[b][t];
                row[b][t] = x[b];
            }
        }
    }
    return MJ_OK;
}

/* Values and every group's pick per t (the forward passes read them): state by state with a
 * budget (fc_values_dag), else backward in t over all states. */
static int fc_values(fc_work_t *w) {
    const int T = w->T;
    int64_t need = w->g.n * (T + 1);
    if (need > w->v.vcap) {
        if (!fc_room(w, (need - w->v.vcap) * (int64_t)sizeof(double))) return FC_ERR_NOMEM;
        free(w->v.V);
        w->v.V = (double *)malloc((size_t)need * sizeof(double));
        if (!w->v.V) {
            w->v.vcap = 0;
            return FC_ERR_NOMEM;
        }
        w->bytes += (need - w->v.vcap) * (int64_t)sizeof(double);
        w->v.vcap = need;
    }
    if (!fc_grow(w, (void **)&w->v.picks, &w->v.pcap, w->g.ngroups * T, sizeof(int32_t))) return FC_ERR_NOMEM;
    int value = w->job->objective == FC_OBJ_VALUE;
    if (w->budget >= 0) {
        int64_t had = w->c.fcap; /* the flow rows of fc_curves_dag: zero outside its passes */
        if (!fc_grow(w, (void **)&w->c.flow, &w->c.fcap, need, sizeof(double))) return FC_ERR_NOMEM;
        if (w->c.fcap > had) memset(w->c.flow + had, 0, (size_t)(w->c.fcap - had) * sizeof(double));
        if (!fc_grow(w, (void **)&w->c.reach, &w->c.rcap, (w->g.n >> 6) + 1, sizeof(uint64_t))) return FC_ERR_NOMEM;
        memset(w->c.reach, 0, (size_t)((w->g.n >> 6) + 1) * sizeof(uint64_t));
        w->v.vsn = T + 1;
        w->v.vtn = 1;
        return fc_values_dag(w, value);
    }
    w->v.vsn = 1;
    w->v.vtn = w->g.n;
    memset(w->v.V, 0, (size_t)need * sizeof(double));
    for (int t = 1; t <= T; t++) {
        if (w->job->poll && w->job->poll(w->job->poll_ctx)) return FC_ERR_STOPPED;
        const double *prev = fc_v(w, 0, t - 1);
        double *cur = fc_v(w, 0, t);
        for (int64_t s = 0; s < w->g.n; s++) {
            /* sh == t: worth 0, but the forward pass follows its picks (it may still get ready) */
            if (w->g.mark[s] == FC_NEW || w->g.depth[s] > T - t || w->g.sh[s] > t) continue;
            double v = (value ? w->g.ppay[s] : w->g.pwin[s]) + w->g.stay[s] * prev[s];
            for (int64_t e = w->g.e0[s]; e < w->g.e1[s];) {
                int k = fc_head_p(w->g.edges[e]), count = fc_head_count(w->g.edges[e]);
                int32_t pick = w->g.edges[e + 2], g = w->g.edges[e + 1];
                if (count > 1) {
                    int32_t *slot = w->v.picks + (int64_t)(g & ~FC_SHARED) * T + t - 1;
                    if (!(g & FC_SHARED)) *slot = fc_pick(w, w->g.edges + e + 2, count, t - 1);
                    pick = *slot;
                }
                v += w->p[k] * prev[pick];
                e += 2 + count;
            }
            if (w->g.sh[s] < t) cur[s] = v;
        }
    }
    return MJ_OK;
}

#endif
