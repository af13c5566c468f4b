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
 *  2. the values and picks (fc_values_t): mjfast_forecast_values.h;
 *  3. the curves (fc_curves_t): mjfast_forecast_curves.h, forward from each start hand.
 * This file owns the row's plan and pool (fc_plan, fc_pool), the row (fc_row) and the batch
 * entry (fc_run). For a 14-3m hand the discards share the pool, so one graph and one value
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
#include "mjfast_forecast_values.h" /* the values and picks (step 2) */

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

/* Load row i into h and set up its work: the row's checks (their error, with details in err),
 * its plan, template and pool. FC_ERR_NOMEM (from the pool) leaves the details to fc_row_failed. */
static int fc_row_load(fc_work_t *w, int64_t i, mj_hand_t *h, int32_t *err) {
    const fc_job_t *job = w->job;
    uint8_t seen[27];
    int vs = job->voids ? mj_once_i8(job->voids + i) : job->void_scalar;
    const uint8_t *melds = job->melds ? job->melds + job->melds_stride * i : NULL;
    const uint8_t *visible =
        job->visible ? mj_copy27(seen, job->visible + job->visible_stride * i) : NULL;
    int size = job->complete ? MJ_SIZE_COMPLETE : MJ_SIZE_WAITING;
    int code = mj_load(h, job->hands + 27 * i, melds, vs, 1, MJ_FORM_ALL, size, job->sets, err);
    if (code == MJ_OK && visible) code = mj_check_visible(h, visible, err);
    if (code != MJ_OK) return code;
    if (job->flush >= 0 && job->flush == vs) {
        err[1] = vs;
        err[2] = 0;
        return FC_ERR_FLUSH;
    }
    mj_classes(h);
    w->T = job->draws;
    w->work = 0;
    w->next_poll = FC_POLL;
    w->over = 0;
    w->vs = vs;
    fc_plan(w, h, vs);
    w->tmpl = *h;
    w->melds = h->melds ? w->tmpl.meld_copy : NULL;
    return fc_pool(w, h, visible, err);
}

/* A row's starts: per legal discard d of a complete hand (legal[d]), else the hand itself
 * (start[0]), its state id, or -1 - the index in dst of its dead start (under a flush without
 * exchanges a start holding dead tiles makes no state until it holds none: its entries instead,
 * mjfast_forecast_entry.h; with the flush pass, suit, every start so). Writes the hand's win
 * (job->is_win[i]) for complete hands. MJ_OK or an error code. */
static int fc_row_starts(fc_work_t *w, int64_t i, mj_hand_t *h, int suit, uint8_t *legal,
                         int32_t *start, fc_dead_start_t *dst, int *nds) {
    const fc_job_t *job = w->job;
    int entries = w->flush >= 0 && w->canon && w->budget == 0;
    int64_t id;
    if (!job->complete) {
        if (entries && (suit || fc_dead_held(w, h->c))) {
            fc_dead_add(w, h->c, dst, nds);
            start[0] = -1;
            return MJ_OK;
        }
        id = fc_start(w, h->c, fc_shanten(w, h));
        start[0] = (int32_t)id;
        return id < 0 ? (int)-id : MJ_OK;
    }
    uint8_t d13[27];
    fc_probes_of(w, h, -1, d13);
    int held_void = w->vs >= 0 && h->n[w->vs] > 0, low = MJ_INF;
    job->is_win[i] = (uint8_t)(mj_distance(h) == 0); /* section 2's win, whatever the plan */
    for (int d = 0; d < 27; d++) /* candidates "keep": the discards of the lowest shanten only */
        if (h->c[d] && !(held_void && d / 9 != w->vs) && d13[d] < low) low = d13[d];
    for (int d = 0; d < 27; d++) {
        if (!h->c[d] || (held_void && d / 9 != w->vs) || (job->keep && d13[d] > low)) continue;
        legal[d] = 1;
        uint8_t rest[27];
        memcpy(rest, h->c, 27);
        rest[d]--;
        if (entries && (suit || fc_dead_held(w, rest))) {
            start[d] = -1 - fc_dead_add(w, rest, dst, nds);
            continue;
        }
        id = fc_start(w, rest, mj_shanten_of(d13[d]));
        if (id < 0) return (int)-id;
        start[d] = (int32_t)id;
    }
    return MJ_OK;
}

/* Steps 1 and 2 from the starts: the flush pass (suit), or the dead starts' entries, the graph,
 * the merge and the values. MJ_OK or an error code. */
static int fc_row_solve(fc_work_t *w, fc_dead_start_t *dst, int nds, int suit) {
    int code;
    w->en.n = 0;
    if (suit) return fc_suit_run(w, dst, nds);
    for (int k = 0; k < nds; k++) /* fewest dead tiles first: an entry's depth is its least */
        if ((code = fc_dead_entries(w, &dst[fc_dead_order(dst, nds, k)])) != MJ_OK) return code;
    if ((code = fc_build(w)) != MJ_OK || (w->budget >= 0 && (code = fc_merge(w)) != MJ_OK) ||
        (nds && (code = fc_keep_reps(w)) != MJ_OK))
        return code;
    return fc_values(w);
}

/* Step 3 and the row's answers: the peaks, then per start its curves, value and (complete
 * hands) the best discard; illegal discards NaN. */
static void fc_row_write(fc_work_t *w, int64_t i, const int32_t *start, const uint8_t *legal,
                         const fc_dead_start_t *dst, int suit) {
    fc_job_t *job = w->job;
    const int T = w->T;
    if (w->g.n > job->peak_states) job->peak_states = w->g.n;
    if (w->bytes > job->peak_bytes) job->peak_bytes = w->bytes;
    if (w->work > job->peak_work) job->peak_work = w->work;
    double obj[27];
    if (!job->complete) {
        job->value[i] = fc_start_curves(w, start[0], dst, job->ready + T * i, job->win + T * i, obj, suit);
        return;
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
}

/* A row that failed with code in a step past its checks: out of memory over the byte cap is the
 * cap's error; details, the cap that was passed (states; bytes in MiB; work) and the states
 * made. Returns the code. */
static int fc_row_failed(const fc_work_t *w, int code, int32_t *err) {
    const fc_job_t *job = w->job;
    if (code == FC_ERR_NOMEM && w->over) code = FC_ERR_BYTES;
    err[1] = (int32_t)fc_min64(code == FC_ERR_BYTES ? job->max_bytes >> 20
                               : code == FC_ERR_WORK ? job->max_work : job->max_states, INT32_MAX);
    err[2] = (int32_t)fc_min64(w->g.n, INT32_MAX);
    return code;
}

/* One row: load, create the start states, build, value, curves. */
static int fc_row(fc_work_t *w, int64_t i, int32_t *err) {
    mj_hand_t h;
    uint8_t legal[27] = {0};
    int32_t start[27];
    fc_dead_start_t dst[FC_MAX_STARTS];
    int nds = 0, suit = 0, code = fc_row_load(w, i, &h, err);
    if (code != MJ_OK && code != FC_ERR_NOMEM) return code;
    if (code == MJ_OK) code = fc_reset(w);
    if (code == MJ_OK) {
        suit = fc_suit_ok(w, &h);
        code = fc_row_starts(w, i, &h, suit, legal, start, dst, &nds);
    }
    if (code == MJ_OK) code = fc_row_solve(w, dst, nds, suit);
    if (code != MJ_OK) return fc_row_failed(w, code, err);
    fc_row_write(w, i, start, legal, dst, suit);
    return MJ_OK;
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
