/* mjfast forecast engine: the flush plan's dead phase in closed form (the overview is in
 * mjfast_forecast.h; RULES.md 9 defines the plan).
 *
 * Under a flush of suit f (budget >= 0, dead tiles packed) a start holding n > 0 dead tiles has no
 * choice until it holds none: every draw of suit f not held four times (melds included) is
 * kept and a dead tile goes, every other draw stays. So the states of that phase are not made:
 * its end, the hand y of 13 - 3m suit-f tiles entered at draw j (the n-th tile kept), has a
 * closed form, and y is a state of the graph (an entry, made before the build at depth n: the
 * fewest draws that reach it). The start's value is the sum over the entries of
 * E(y, j) V_{T-j}(y), its curves the forward pass from the entries seeded with E(y, j)
 * (fc_seed): no draw of the dead phase wins or is ready (a hand short of 14 - 3m suit tiles is
 * at least 2 from a flush win), so the curves are those of the states after it.
 *
 * E(y, j). Draws of suit f come with probability a = sum p_r each; between them the dead draws
 * (probability d = 1 - a each) change nothing. Let alpha = y - x0 (n tiles kept) and room_r the
 * copies of rank r the start may still take; a draw of rank r once alpha_r = room_r is a fifth
 * copy: wasted, like a dead draw. If the n-th kept tile is the (n + K)-th draw of suit f (K of
 * them wasted), the draws before it hold each rank r below its room exactly beta_r times and each
 * rank D at its room room_r + (its wasted draws) times, so with P(c) = p^c / c!
 *   E(y, j) = (j - 1)! sum_K d^(j-n-K) / (j-n-K)! S_K,
 *   S_K = sum_{r: alpha_r > 0} p_r prod_{r' not in D} P(beta_r') G_D(K),  beta = alpha - e_r,
 * where D = D(beta) (the ranks at their room, drawable) and G_D(K) = [z^K] prod_{r in D}
 * sum_{c >= room_r} P(c) z^(c - room_r). Without a rank at its room this is the negative
 * binomial times the multinomial, C(j - 1, n - 1) d^(j-n) n! prod P(alpha_r). Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_ENTRY_H
#define MJFAST_FORECAST_ENTRY_H

#include "mjfast_forecast_curves.h"

/* A start holding dead tiles: its suit-f counts and the dead tiles held. */
typedef struct {
    uint8_t x[9];
    int n;
} fc_dead_start_t;

#define FC_GCACHE 64 /* G_D rows kept per start (few masks D occur) */

/* What the entries of one dead start share (fc_dead_ctx). */
typedef struct {
    const fc_dead_start_t *st;
    int room[9];
    uint32_t live;                     /* ranks with p > 0 */
    double p[9];
    double pc[9][FC_MAX_DRAWS + 6];    /* P(c) = p^c / c! per rank, c <= 4 + FC_MAX_DRAWS */
    double h[FC_MAX_DRAWS + 1];        /* d^i / i! */
    double fact[FC_MAX_DRAWS + 1];     /* (j - 1)! */
    int K;                             /* the most wasted draws: T - n */
    int ng;
    uint32_t gmask[FC_GCACHE];
    double g[FC_GCACHE][FC_MAX_DRAWS + 1];
} fc_dead_ctx_t;

static void fc_dead_ctx(const fc_work_t *w, const fc_dead_start_t *st, fc_dead_ctx_t *x) {
    const int f = w->flush, T = w->T;
    int kept = 0;
    x->st = st;
    x->live = 0;
    x->K = T - st->n;
    x->ng = 0;
    for (int r = 0; r < 9; r++) {
        x->room[r] = 4 - (w->melds ? w->melds[9 * f + r] : 0) - st->x[r];
        x->p[r] = w->p[9 * f + r];
        kept += w->left[9 * f + r];
        x->live |= (uint32_t)(w->left[9 * f + r] > 0) << r;
        x->pc[r][0] = 1.0;
        for (int c = 1; c < FC_MAX_DRAWS + 6; c++) x->pc[r][c] = x->pc[r][c - 1] * x->p[r] / c;
    }
    double d = (double)(w->total - kept) / w->total;
    x->h[0] = x->fact[0] = x->fact[1] = 1.0;
    for (int i = 1; i <= T; i++) x->h[i] = x->h[i - 1] * d / i;
    for (int j = 2; j <= T; j++) x->fact[j] = x->fact[j - 1] * (j - 1);
}

/* G_D(K) for K = 0..x->K (D: a mask of ranks, each drawable), kept per mask. */
static const double *fc_dead_g(fc_dead_ctx_t *x, uint32_t D, double *tmp) {
    for (int i = 0; i < x->ng; i++)
        if (x->gmask[i] == D) return x->g[i];
    double *g = x->ng < FC_GCACHE ? x->g[x->ng] : tmp;
    const int K = x->K;
    g[0] = 1.0;
    for (int k = 1; k <= K; k++) g[k] = 0.0;
    for (uint32_t m = D; m; m &= m - 1) {
        int r = mj_ctz(m);
        const double *s = x->pc[r] + x->room[r];
        for (int k = K; k >= 0; k--) {
            double v = 0.0;
            for (int i = 0; i <= k; i++) v += g[i] * s[k - i];
            g[k] = v;
        }
    }
    if (x->ng < FC_GCACHE) x->gmask[x->ng++] = D;
    return g;
}

/* E(y, j) of the entry alpha (y = x0 + alpha) into e[j], j = n..T. */
static void fc_dead_mass(fc_dead_ctx_t *x, const uint8_t *alpha, double *e) {
    const int n = x->st->n, K = x->K;
    double S[FC_MAX_DRAWS + 1], tmp[FC_MAX_DRAWS + 1], P = 1.0;
    uint32_t D = 0;
    int u = 0;
    for (int r = 0; r < 9; r++) {
        if ((x->live >> r & 1) && alpha[r] == x->room[r]) D |= 1u << r;
        else {
            P *= x->pc[r][alpha[r]];
            u += alpha[r];
        }
    }
    for (int k = 0; k <= K; k++) S[k] = 0.0;
    if (u) { /* the last kept tile of a rank below its room */
        const double *g = D ? fc_dead_g(x, D, tmp) : NULL;
        if (!g) S[0] = P * u;
        else
            for (int k = 0; k <= K; k++) S[k] = P * u * g[k];
    }
    for (uint32_t m = D; m; m &= m - 1) { /* or of a rank at its room: then below it before */
        int r = mj_ctz(m);
        if (!alpha[r]) continue;
        double c = P * x->p[r] * x->pc[r][alpha[r] - 1];
        uint32_t rest = D & ~(1u << r);
        const double *g = rest ? fc_dead_g(x, rest, tmp) : NULL;
        if (!g) S[0] += c;
        else
            for (int k = 0; k <= K; k++) S[k] += c * g[k];
    }
    for (int j = n; j <= x->st->n + K; j++) {
        double v = 0.0;
        for (int k = 0; k <= j - n; k++) v += x->h[j - n - k] * S[k];
        e[j] = x->fact[j] * v;
    }
}

/* The counts of the entry alpha of start st (no dead tile: dead tiles are packed) and its key. */
static uint64_t fc_dead_hand(const fc_work_t *w, const fc_dead_start_t *st, const uint8_t *alpha,
                             uint8_t *c) {
    const int f = w->flush;
    uint64_t key = 0;
    memset(c, 0, 27);
    for (int r = 0; r < 9; r++) {
        c[9 * f + r] = (uint8_t)(st->x[r] + alpha[r]);
        key += c[9 * f + r] * w->wt[9 * f + r];
    }
    return key;
}

/* What fc_dead_walk does at each entry. */
typedef struct {
    fc_dead_ctx_t *x;   /* NULL: make the entries' states; else seed them */
    double obj;         /* the start's value (seeding) */
    int64_t first;      /* the first place seeded */
} fc_dead_job_t;

/* One entry alpha: make its state (depth n, read: ref) unless it cannot be ready in time, or
 * seed its mass E(y, j) at its stand-in (w->m.rep) and add E(y, j) V_{T-j} to the value. */
static int fc_dead_entry(fc_work_t *w, const fc_dead_start_t *st, const uint8_t *alpha,
                         fc_dead_job_t *job) {
    uint8_t c[27];
    const int T = w->T;
    uint64_t key = fc_dead_hand(w, st, alpha, c), slot;
    if (!job->x) {
        int sh = mj_shanten_of(fc_flush_dist(&w->tmpl, c, w->flush));
        if (sh > T - st->n) return MJ_OK; /* (never ready in time: its mass is dropped) */
        int64_t id = fc_state(w, key, 0, -1, sh, st->n, c, -1);
        if (id < 0) return (int)-id;
        w->g.ref[id] = 1;
        return fc_tick(w, 0);
    }
    int64_t id = fc_find(w, key, fc_tag(0, -1), &slot);
    if (id < 0) return MJ_OK;
    int32_t s = w->m.rep[id];
    double e[FC_MAX_DRAWS + 1];
    const double *V = w->v.V + (int64_t)s * (T + 1);
    fc_dead_mass(job->x, alpha, e);
    for (int j = st->n; j <= T; j++) {
        if (e[j] == 0.0) continue;
        job->obj += e[j] * V[T - j];
        fc_seed(w, s, j, e[j]);
    }
    if (w->c.nact[s] < job->first) job->first = w->c.nact[s];
    return MJ_OK;
}

/* Every entry of start st: the n tiles alpha kept, rank by rank from r (left: still to place). */
static int fc_dead_walk(fc_work_t *w, const fc_dead_start_t *st, uint8_t *alpha, int r, int left,
                        fc_dead_job_t *job) {
    if (r == 9) return left ? MJ_OK : fc_dead_entry(w, st, alpha, job);
    const int f = w->flush;
    int most = w->left[9 * f + r] > 0 ? 4 - (w->melds ? w->melds[9 * f + r] : 0) - st->x[r] : 0;
    if (most > left) most = left;
    for (int a = 0; a <= most; a++) {
        alpha[r] = (uint8_t)a;
        int code = fc_dead_walk(w, st, alpha, r + 1, left - a, job);
        if (code != MJ_OK) return code;
    }
    alpha[r] = 0;
    return MJ_OK;
}

/* Make the entries of start st (before the build). */
static int fc_dead_entries(fc_work_t *w, const fc_dead_start_t *st) {
    uint8_t alpha[9] = {0};
    fc_dead_job_t job = {NULL, 0.0, 0};
    return fc_dead_walk(w, st, alpha, 0, st->n, &job);
}

/* The curves of start st from its entries (after the values; w->m.rep set): ready[j], win[j]
 * and the expected payment (returned); its value into *obj. */
static double fc_dead_curves(fc_work_t *w, const fc_dead_start_t *st, double *ready, double *win,
                             double *obj) {
    fc_dead_ctx_t x;
    uint8_t alpha[9] = {0};
    fc_dead_job_t job = {&x, 0.0, INT64_MAX};
    if (st->n <= w->T && w->g.n) { /* (else no entry: no state is made) */
        fc_dead_ctx(w, st, &x);
        fc_dead_walk(w, st, alpha, 0, st->n, &job); /* (seeding fails never) */
    }
    *obj = job.obj;
    if (job.first == INT64_MAX) { /* no entry can be ready in time */
        for (int j = 0; j < w->T; j++) ready[j] = win[j] = 0.0;
        return 0.0;
    }
    return fc_curves_flow(w, job.first, ready, win);
}

#endif
