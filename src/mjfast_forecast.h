/* mjfast forecast engine: exact ready / win probabilities and expected value per draw (RULES.md
 * section 9), for one 13-3m hand or every legal discard of a 14-3m hand.
 *
 * Plain C, no Python: mjfast/_core/_forecast.pxi checks arrays and calls fc_run on row ranges with
 * the GIL released; mjfast/forecast is the Python face, mjfast/_ref/forecast.py the twin and
 * docs/design/forecast.md the method at length.
 *
 * The pool is fixed, so every draw is kind k with probability p[k] = P[k] / S (masses of several
 * kinds are their copies left over S, so equal counts give equal numbers). A state is a 13-3m
 * concealed hand (melds, dead suits and pool are fixed per row), keyed by its 27 counts in base 5
 * (a uint64), plus with a budget the exchanges it has spent. A row runs three steps, each with its
 * own buffers in fc_work_t:
 *  1. the graph (fc_graph_t): mjfast_forecast_graph.h stores the states and probes hands,
 *     mjfast_forecast_expand.h builds the graph breadth first with the exact pruning; step 1b
 *     (fc_merge_t, mjfast_forecast_merge.h) merges equal ready leaves, then equal states without
 *     exchanges left upwards;
 *  2. the values and picks (fc_values_t): this file;
 *  3. the curves (fc_curves_t): mjfast_forecast_curves.h, forward from each start hand.
 * This file owns step 2, the row's plan and pool (fc_plan, fc_pool), the row (fc_row) and the
 * batch entry (fc_run). For a 14-3m hand the discards share the pool, so one graph and one value
 * pass serve them all.
 *
 * Policy classes (RULES.md 9). With a budget (job->exchanges >= 0, at most T counts) a state is a
 * hand plus the exchanges e it has spent (compared in the hash beside the key): while e < budget a
 * draw that does not lower the shanten is a group too, listing the drawn tile back (the state
 * itself, cost 0, or cost 1 when a discard would make progress), the same-shanten discards and,
 * with backward, the backward ones (cost 1 each, the successor at e + 1); at e = budget a state is
 * one of the class without exchanges, so its reductions (leaves, fc_collapse, merging) apply.
 * Ordered by (exchanges left, shanten, dead tiles) the graph is a DAG but for those self-loops,
 * which the values (fc_values_loop) and the curves (fc_kept) take per t. Without a budget
 * (job->exchanges = -1: every exchange) the state is the hand, the graph has cycles and the values
 * go backward in t over all states. The flush plan (job->flush) swaps the distance for the
 * distance to a win of that suit alone (fc_flush_dist) and makes the other suits dead; without
 * exchanges a start holding dead tiles makes no state until it holds none (its entries in closed
 * form: mjfast_forecast_entry.h). Hands that
 * differ only in which dead tiles (void suit; with a flush, the other suits) they hold are one
 * state (fc_pack_dead).
 *
 * Limits, per row: max_states states (FC_ERR_STATES), max_bytes bytes of buffers, counted where
 * they are allocated (w->bytes: states, hash table, edges, picks, value and flow rows, memo;
 * FC_ERR_BYTES), max_work of work (an expansion counts 1 + the edge entries it writes;
 * FC_ERR_WORK). job->poll is called every FC_POLL of work and per draw of the values: the Python
 * glue checks for Ctrl-C there (FC_ERR_STOPPED).
 */
#ifndef MJFAST_FORECAST_H
#define MJFAST_FORECAST_H

#include <math.h>

#include "mjfast_forecast_expand.h" /* the state graph's build (step 1) */
#include "mjfast_forecast_merge.h"  /* equal ready leaves merged (step 1b) */
#include "mjfast_forecast_curves.h" /* the forward passes (step 3) */
#include "mjfast_forecast_entry.h"  /* the flush plan's dead phase in closed form */
#include "mjfast_forecast_suit.h"   /* the flush plan without a graph */

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

static int fc_reset(fc_work_t *w) {
    if (!w->g.memo) {
        if (!fc_room(w, FC_MEMO * (int64_t)sizeof(fc_memo_t))) return FC_ERR_BYTES;
        w->g.memo = (fc_memo_t *)malloc(FC_MEMO * sizeof(fc_memo_t)); /* zeroed as used: fc_memo_zero */
        if (!w->g.memo) return FC_ERR_NOMEM;
        w->g.mzero = 0;
        w->bytes += FC_MEMO * (int64_t)sizeof(fc_memo_t);
    }
    w->g.row++; /* row 0 never occurs: zeroed entries are stale */
    if (w->g.hcap > 4096 && w->g.hcap > 16 * w->g.n) { /* a big table from an earlier row: start small */
        free(w->g.hkey);
        free(w->g.hval);
        w->bytes -= w->g.hcap * (int64_t)(sizeof(uint64_t) + sizeof(int32_t));
        w->g.hkey = NULL;
        w->g.hval = NULL;
        w->g.hcap = 0;
    } else if (w->g.hkey) {
        memset(w->g.hkey, 0, (size_t)w->g.hcap * sizeof(uint64_t));
    }
    w->g.n = 0;
    w->g.ne = 0;
    w->g.ngroups = 0;
    return MJ_OK;
}

static void fc_free(fc_work_t *w) {
    fc_graph_t *g = &w->g;
    free(g->hkey); free(g->hval); free(g->key); free(g->cnt); free(g->sh); free(g->depth);
    free(g->mark); free(g->nv); free(g->ex); free(g->pv); free(g->loop); free(g->ref); free(g->e0); free(g->e1);
    free(g->stay); free(g->pwin); free(g->ppay); free(g->edges); free(g->memo);
    free(w->m.ctab); free(w->m.at); free(w->en.ids); free(w->en.rep);
    free(w->v.V); free(w->v.picks); free(w->v.cls);
    free(w->c.mass); free(w->c.next); free(w->c.flow); free(w->c.reach); free(w->c.act);
    free(w->c.nact); free(w->c.leaf);
    free(w->p);
    fc_su_give(w->su);
}

/* Pool of row i (hand + melds + visible): the draw probabilities. Returns MJ_OK or an error. */
static int fc_pool(fc_work_t *w, const mj_hand_t *h, const uint8_t *visible, int32_t *err) {
    int total = 0;
    for (int t = 0; t < 27; t++) {
        w->left[t] = 4 - mj_held(h, t) - (visible ? visible[t] : 0);
        total += w->left[t];
    }
    if (total <= 0) {
        err[1] = err[2] = 0;
        return FC_ERR_EMPTY_POOL;
    }
    if (!fc_grow(w, (void **)&w->p, &w->npcap, 27, sizeof(double))) {
        err[1] = err[2] = 0;
        return FC_ERR_NOMEM;
    }
    w->total = total;
    w->np = 27;
    w->pool = 0;
    for (int t = 0; t < 27; t++) {
        w->p[t] = (double)w->left[t] / total;
        w->pool |= (uint32_t)(w->left[t] > 0) << t;
    }
    for (int s = 0; s < 3; s++) {
        w->clo[s][0] = w->chi[s][0] = 0;
        for (int m = 1; m < 64; m++) w->clo[s][m] = w->clo[s][m & (m - 1)] + w->left[9 * s + mj_ctz(m)];
        for (int m = 1; m < 8; m++) w->chi[s][m] = w->chi[s][m & (m - 1)] + w->left[9 * s + 6 + mj_ctz(m)];
    }
    return MJ_OK;
}

/* Best of the values v over the legal discards (lowest within FC_TIE). */
static int fc_best(const double *v, const uint8_t *legal) {
    double best = -1.0;
    for (int d = 0; d < 27; d++)
        if (legal[d] && v[d] > best) best = v[d];
    for (int d = 0; d < 27; d++)
        if (legal[d] && v[d] >= best - FC_TIE * best) return d;
    return -1;
}

/* The start state of the 13 - 3m counts c (dead tiles packed where the row allows: fc_pack_dead;
 * with plans, the suit of its plan: fc_plan_of), of shanten sh. Returns its id, or -FC_ERR_*. */
static int64_t fc_start(fc_work_t *w, const uint8_t *c, int sh) {
    uint8_t x[27];
    int pv = -1;
    memcpy(x, c, 27);
    if (w->canon) fc_pack_dead(x, w->dead_suits);
    if (w->plans && !w->budget) { /* (with exchanges to spend, no plan) */
        mj_hand_t h;
        fc_load(w, x, &h);
        if ((pv = fc_plan_of(&h)) >= 0) fc_pack_plan(x, pv);
    }
    return fc_state(w, fc_key(x), 0, pv, sh, 0, x, -1);
}

/* The row's plan: the budget (none, or at most T: no more can be spent), the dead suits (the
 * declared void one; with a flush the other two), whether their tiles are held as a count
 * (no meld there: else no win is possible anyway), and whether the states without an exchange
 * left (with a budget) pack the void suit of their plan (fc_plan_of: no suit dead yet). */
static void fc_plan(fc_work_t *w, const mj_hand_t *h, int vs) {
    const fc_job_t *job = w->job;
    w->budget = job->exchanges < 0 ? -1 : job->exchanges < w->T ? job->exchanges : w->T;
    w->flush = job->flush;
    w->dead_suits = (vs >= 0 ? 1 << vs : 0) | (job->flush >= 0 ? 7 & ~(1 << job->flush) : 0);
    w->dead = 0;
    for (int q = 0; q < 3; q++)
        if (w->dead_suits >> q & 1) w->dead |= 0x1FFu << (9 * q);
    w->canon = w->dead_suits && !(h->meld_suits & w->dead_suits);
    w->plans = w->budget >= 0 && !w->dead_suits && h->void_rule;
}

/* The shanten of the loaded hand h (classes loaded) under the row's plan. */
static int fc_shanten(const fc_work_t *w, mj_hand_t *h) {
    return mj_shanten_of(w->flush >= 0 ? fc_flush_dist(h, h->c, w->flush) : mj_distance(h));
}

static inline int64_t fc_min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* The dead start of the 13 - 3m counts c (dead tiles held) among the nds in dst, added if new.
 * Returns its index. */
static int fc_dead_add(const fc_work_t *w, const uint8_t *c, fc_dead_start_t *dst, int *nds) {
    fc_dead_start_t st;
    memcpy(st.x, c + 9 * w->flush, 9);
    st.n = fc_dead_held(w, c);
    for (int k = 0; k < *nds; k++)
        if (dst[k].n == st.n && !memcmp(dst[k].x, st.x, 9)) return k;
    dst[*nds] = st;
    return (*nds)++;
}

/* The index of the k-th of the nds dead starts by dead tiles held (then by index). */
static int fc_dead_order(const fc_dead_start_t *dst, int nds, int k) {
    int lo = dst[0].n, seen = 0;
    for (int i = 1; i < nds; i++) lo = dst[i].n < lo ? dst[i].n : lo;
    for (int n = lo;; n++)
        for (int i = 0; i < nds; i++)
            if (dst[i].n == n && seen++ == k) return i;
}

/* Keep the merge's stand-ins (in w->c.nact until fc_values) for the entries. */
static int fc_keep_reps(fc_work_t *w) {
    if (!fc_grow(w, (void **)&w->en.rep, &w->en.repcap, w->g.n, sizeof(int32_t))) return FC_ERR_NOMEM;
    memcpy(w->en.rep, w->c.nact, (size_t)w->g.n * sizeof(int32_t));
    return MJ_OK;
}

/* The curves and the expected payment of start id (a dead start: -1 - its index in dst), its
 * value into *obj. */
static double fc_start_curves(fc_work_t *w, int32_t id, const fc_dead_start_t *dst, double *ready,
                              double *win, double *obj, int suit) {
    if (id < 0 && suit) { /* (fc_suit_run's) */
        memcpy(ready, w->su->ready[-1 - id], (size_t)w->T * sizeof(double));
        memcpy(win, w->su->win[-1 - id], (size_t)w->T * sizeof(double));
        *obj = w->su->obj[-1 - id];
        return w->su->paid[-1 - id];
    }
    if (id < 0) return fc_dead_curves(w, &dst[-1 - id], ready, win, obj);
    *obj = *fc_v(w, id, w->T);
    return fc_curves(w, id, ready, win);
}

/* One row: load, create the start states, build, value, curves. */
static int fc_row(fc_work_t *w, int64_t i, int32_t *err) {
    fc_job_t *job = w->job;
    const int T = job->draws;
    uint8_t seen[27];
    mj_hand_t h;
    int vs = job->voids ? mj_once_i8(job->voids + i) : job->void_scalar;
    const uint8_t *melds = job->melds ? job->melds + job->melds_stride * i : NULL;
    const uint8_t *visible =
        job->visible ? mj_copy27(seen, job->visible + job->visible_stride * i) : NULL;
    int size = job->complete ? MJ_SIZE_COMPLETE : MJ_SIZE_WAITING;
    int code = mj_load(&h, job->hands + 27 * i, melds, vs, 1, MJ_FORM_ALL, size, job->sets, err);
    if (code == MJ_OK && visible) code = mj_check_visible(&h, visible, err);
    if (code != MJ_OK) return code;
    if (job->flush >= 0 && job->flush == vs) {
        err[1] = vs;
        err[2] = 0;
        return FC_ERR_FLUSH;
    }
    mj_classes(&h);
    w->T = T;
    w->work = 0;
    w->next_poll = FC_POLL;
    w->over = 0;
    w->vs = vs;
    fc_plan(w, &h, vs);
    w->tmpl = h;
    w->melds = h.melds ? w->tmpl.meld_copy : NULL;
    int64_t id;
    if ((code = fc_pool(w, &h, visible, err)) != MJ_OK) {
        if (code != FC_ERR_NOMEM) return code;
        id = -code;
        goto fail;
    }
    if ((code = fc_reset(w)) != MJ_OK) {
        id = -code;
        goto fail;
    }
    uint8_t legal[27] = {0};
    int32_t start[27];
    /* starts holding dead tiles under a flush without exchanges: no state; their entries instead
     * (mjfast_forecast_entry.h), start -1 - their index; with the flush pass (fc_suit_ok) every
     * start so */
    fc_dead_start_t dst[FC_MAX_STARTS];
    int nds = 0, entries = w->flush >= 0 && w->canon && w->budget == 0, suit = fc_suit_ok(w, &h);
    if (!job->complete) {
        if (entries && (suit || fc_dead_held(w, h.c))) {
            fc_dead_add(w, h.c, dst, &nds);
            start[0] = -1;
        } else {
            id = fc_start(w, h.c, fc_shanten(w, &h));
            if (id < 0) goto fail;
            start[0] = (int32_t)id;
        }
    } else {
        uint8_t d13[27];
        fc_probes_of(w, &h, -1, d13);
        int held_void = vs >= 0 && h.n[vs] > 0, low = MJ_INF;
        job->is_win[i] = (uint8_t)(mj_distance(&h) == 0); /* section 2's win, whatever the plan */
        for (int d = 0; d < 27; d++) /* candidates "keep": the discards of the lowest shanten only */
            if (h.c[d] && !(held_void && d / 9 != vs) && d13[d] < low) low = d13[d];
        for (int d = 0; d < 27; d++) {
            if (!h.c[d] || (held_void && d / 9 != vs) || (job->keep && d13[d] > low)) continue;
            legal[d] = 1;
            uint8_t rest[27];
            memcpy(rest, h.c, 27);
            rest[d]--;
            if (entries && (suit || fc_dead_held(w, rest))) {
                start[d] = -1 - fc_dead_add(w, rest, dst, &nds);
                continue;
            }
            id = fc_start(w, rest, mj_shanten_of(d13[d]));
            if (id < 0) goto fail;
            start[d] = (int32_t)id;
        }
    }
    w->en.n = 0;
    if (suit) {
        if ((code = fc_suit_run(w, dst, nds)) != MJ_OK) {
            id = -code;
            goto fail;
        }
        goto curves;
    }
    for (int k = 0; k < nds; k++) /* fewest dead tiles first: an entry's depth is its least */
        if ((code = fc_dead_entries(w, &dst[fc_dead_order(dst, nds, k)])) != MJ_OK) {
            id = -code;
            goto fail;
        }
    if ((code = fc_build(w)) != MJ_OK || (w->budget >= 0 && (code = fc_merge(w)) != MJ_OK) ||
        (nds && (code = fc_keep_reps(w)) != MJ_OK) || (code = fc_values(w)) != MJ_OK) {
        id = -code;
        goto fail;
    }
curves:
    if (w->g.n > job->peak_states) job->peak_states = w->g.n;
    if (w->bytes > job->peak_bytes) job->peak_bytes = w->bytes;
    if (w->work > job->peak_work) job->peak_work = w->work;
    double obj[27];
    if (!job->complete) {
        job->value[i] = fc_start_curves(w, start[0], dst, job->ready + T * i, job->win + T * i, obj, suit);
        return MJ_OK;
    }
    for (int d = 0; d < 27; d++) {
        double *rd = job->ready + (27 * i + d) * T, *wd = job->win + (27 * i + d) * T;
        if (!legal[d]) {
            for (int j = 0; j < T; j++) rd[j] = wd[j] = NAN;
            job->value[27 * i + d] = NAN;
            continue;
        }
        int same = 0; /* discards that leave the same state (dead tiles, packed) share its curves */
        while (same < d && !(legal[same] && start[same] == start[d])) same++;
        if (same < d) {
            obj[d] = obj[same];
            for (int j = 0; j < T; j++) { /* not memcpy: with draws=0 the curves may be NULL */
                rd[j] = job->ready[(27 * i + same) * T + j];
                wd[j] = job->win[(27 * i + same) * T + j];
            }
            job->value[27 * i + d] = job->value[27 * i + same];
            continue;
        }
        job->value[27 * i + d] = fc_start_curves(w, start[d], dst, rd, wd, obj + d, suit);
    }
    job->best[i] = (int8_t)fc_best(obj, legal);
    return MJ_OK;
fail:
    code = (int)-id;
    if (code == FC_ERR_NOMEM && w->over) code = FC_ERR_BYTES;
    /* details: the cap that was passed (states; bytes in MiB; work), and the states made */
    err[1] = (int32_t)fc_min64(code == FC_ERR_BYTES ? job->max_bytes >> 20
                               : code == FC_ERR_WORK ? job->max_work : job->max_states, INT32_MAX);
    err[2] = (int32_t)fc_min64(w->g.n, INT32_MAX);
    return code;
}

/* Run rows [start, end). Returns the first bad row (details in job->err), or -1. */
static int64_t fc_run(fc_job_t *job, int64_t start, int64_t end) {
    fc_work_t w;
    int32_t err[3] = {0, 0, 0}; /* the error paths that give no details give zeros */
    int64_t bad = -1;
    memset(&w, 0, sizeof w);
    w.job = job;
    for (int t = 0; t < 27; t++) w.wt[t] = fc_weight_of(t);
    for (int64_t i = start; i < end; i++) {
        int code = fc_row(&w, i, err);
        if (code != MJ_OK) {
            bad = mj_first_bad(-1, i, code, err, job->err);
            break;
        }
    }
    fc_free(&w);
    return bad;
}

#endif
