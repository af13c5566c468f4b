/* mjfast forecast engine: the flush plan's dead phase in closed form (the overview is in
 * mjfast_forecast.h; RULES.md 9 defines the plan).
 *
 * Under a flush of suit f without exchanges (dead tiles packed) a start holding n > 0 dead tiles has no
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
    int64_t e0, e1; /* its entries: w->en.ids[e0..e1) */
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
    int8_t gat[512];                   /* per mask D: its row in g, or -1 */
    double g[FC_GCACHE][FC_MAX_DRAWS + 1];
} fc_dead_ctx_t;

static void fc_dead_ctx(const fc_work_t *w, const fc_dead_start_t *st, fc_dead_ctx_t *x) {
    const int f = w->flush, T = w->T;
    int kept = 0;
    x->st = st;
    x->live = 0;
    x->K = T - st->n;
    x->ng = 0;
    memset(x->gat, -1, sizeof x->gat);
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
    if (x->gat[D] >= 0) return x->g[x->gat[D]];
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
    if (x->ng < FC_GCACHE) x->gat[D] = (int8_t)x->ng++;
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
    const int top = D ? K : 0; /* (no rank at its room: no wasted draw) */
    for (int j = n; j <= n + K; j++) {
        double v = 0.0;
        for (int k = 0; k <= j - n && k <= top; k++) v += x->h[j - n - k] * S[k];
        e[j] = x->fact[j] * v;
    }
}

/* Make the entry of start st that keeps the tiles alpha (depth n, read: ref), unless it cannot
 * be ready in time (its mass is dropped), and list it (w->en.ids). */
static int fc_dead_entry(fc_work_t *w, const fc_dead_start_t *st, const uint8_t *alpha) {
    const int f = w->flush;
    uint8_t c[27] = {0};
    uint64_t key = 0;
    for (int r = 0; r < 9; r++) {
        c[9 * f + r] = (uint8_t)(st->x[r] + alpha[r]);
        key += c[9 * f + r] * w->wt[9 * f + r];
    }
    int sh = mj_shanten_of(fc_flush_dist(&w->tmpl, c, f));
    if (sh > w->T - st->n) return MJ_OK;
    int64_t id = fc_state(w, key, 0, -1, sh, st->n, c, -1);
    if (id < 0) return (int)-id;
    if (!fc_grow(w, (void **)&w->en.ids, &w->en.cap, w->en.n + 1, sizeof(int32_t))) return FC_ERR_NOMEM;
    w->en.ids[w->en.n++] = (int32_t)id;
    w->g.ref[id] = 1;
    return fc_tick(w, 0);
}

/* Every entry of start st: the n tiles alpha kept, rank by rank from r (left: still to place). */
static int fc_dead_walk(fc_work_t *w, const fc_dead_start_t *st, uint8_t *alpha, int r, int left) {
    if (r == 9) return left ? MJ_OK : fc_dead_entry(w, st, alpha);
    const int f = w->flush;
    int most = w->left[9 * f + r] > 0 ? 4 - (w->melds ? w->melds[9 * f + r] : 0) - st->x[r] : 0;
    if (most > left) most = left;
    for (int a = 0; a <= most; a++) {
        alpha[r] = (uint8_t)a;
        int code = fc_dead_walk(w, st, alpha, r + 1, left - a);
        if (code != MJ_OK) return code;
    }
    alpha[r] = 0;
    return MJ_OK;
}

/* Make and list the entries of start st (before the build): w->en.ids[st->e0..e1). */
static int fc_dead_entries(fc_work_t *w, fc_dead_start_t *st) {
    uint8_t alpha[9] = {0};
    st->e0 = w->en.n;
    int code = st->n <= w->T ? fc_dead_walk(w, st, alpha, 0, st->n) : MJ_OK;
    st->e1 = w->en.n;
    return code;
}

/* The curves of start st from its entries (after the values; w->en.rep set): ready[j], win[j]
 * and the expected payment (returned); its value into *obj: E(y, j) seeded at each entry's
 * stand-in, E(y, j) V_{T-j} summed. */
static double fc_dead_curves(fc_work_t *w, const fc_dead_start_t *st, double *ready, double *win,
                             double *obj) {
    const int T = w->T, f = w->flush;
    fc_dead_ctx_t x;
    int64_t first = INT64_MAX;
    double sum = 0.0, e[FC_MAX_DRAWS + 1];
    if (st->e1 > st->e0) fc_dead_ctx(w, st, &x);
    for (int64_t i = st->e0; i < st->e1; i++) {
        int32_t id = w->en.ids[i], s = w->en.rep[id];
        uint8_t alpha[9];
        for (int r = 0; r < 9; r++) alpha[r] = (uint8_t)(w->g.cnt[id].c[9 * f + r] - st->x[r]);
        const double *V = w->v.V + (int64_t)s * (T + 1);
        double *flow = w->c.flow + (int64_t)s * (T + 1);
        fc_dead_mass(&x, alpha, e);
        for (int j = st->n; j <= T; j++) {
            sum += e[j] * V[T - j];
            flow[j] += e[j];
        }
        fc_seed(w, s, st->n, 0.0); /* (its place reached) */
        if (w->c.nact[s] < first) first = w->c.nact[s];
    }
    *obj = sum;
    if (first == INT64_MAX) { /* no entry can be ready in time */
        for (int j = 0; j < T; j++) ready[j] = win[j] = 0.0;
        return 0.0;
    }
    return fc_curves_flow(w, first, ready, win);
}

#endif
