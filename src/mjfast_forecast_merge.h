/* mjfast forecast engine, step 1b (with a budget): equal ready leaves merged (the overview is in
 * mjfast_forecast.h). Owns the merge and its scratch (fc_merge_t).
 *
 * A ready leaf (every draw wins or stays) is worth V_t = a + q V_{t-1} and holds its mass until
 * it wins: its values and its share of the curves depend only on its win probability, stay
 * probability and expected payment. Those come from counts of copies over the pool (fc_mass,
 * fc_paid), so leaves with the same counts have the same three numbers to the bit. The first leaf
 * of each class stands for the rest: their edges go to it, and a state's one-successor groups
 * that now share their successor become one group whose probability is the sum. Plain C, no
 * Python.
 */
#ifndef MJFAST_FORECAST_MERGE_H
#define MJFAST_FORECAST_MERGE_H

#include "mjfast_forecast_graph.h"

/* Whether ready leaves a and b are worth the same and flow the same. */
static inline int fc_same_leaf(const fc_work_t *w, int32_t a, int32_t b) {
    return w->g.pwin[a] == w->g.pwin[b] && w->g.stay[a] == w->g.stay[b] && w->g.ppay[a] == w->g.ppay[b];
}

static inline uint64_t fc_leaf_hash(const fc_work_t *w, int32_t s) {
    uint64_t a, b, c;
    memcpy(&a, &w->g.pwin[s], 8);
    memcpy(&b, &w->g.stay[s], 8);
    memcpy(&c, &w->g.ppay[s], 8);
    return fc_hash(a ^ fc_hash(b ^ fc_hash(c)));
}

/* rep[s]: the leaf that stands for s (s itself for every other state). The starts keep their own
 * states (fc_row holds their ids), and leaves no group lists are left out. The stand-in takes the
 * least depth of its class, so its curves see mass from the earliest draw any of them could. */
static int fc_leaf_reps(fc_work_t *w, int32_t *rep) {
    int64_t size = 64;
    while (size < 2 * w->g.n) size *= 2;
    if (!fc_grow(w, (void **)&w->m.ctab, &w->m.ccap, size, sizeof(int32_t))) return FC_ERR_NOMEM;
    int32_t *tab = w->m.ctab;
    for (int64_t i = 0; i < size; i++) tab[i] = -1;
    for (int64_t s = 0; s < w->g.n; s++) {
        rep[s] = (int32_t)s;
        if (w->g.mark[s] != FC_LEAF || !w->g.ref[s] || !w->g.depth[s]) continue;
        uint64_t j = fc_leaf_hash(w, (int32_t)s) & (uint64_t)(size - 1);
        while (tab[j] >= 0 && !fc_same_leaf(w, tab[j], (int32_t)s)) j = (j + 1) & (uint64_t)(size - 1);
        if (tab[j] < 0) {
            tab[j] = (int32_t)s;
            continue;
        }
        rep[s] = tab[j];
        w->g.ref[s] = 0;
        if (w->g.depth[s] < w->g.depth[tab[j]]) w->g.depth[tab[j]] = w->g.depth[s];
    }
    return MJ_OK;
}

/* The groups of state s with their successors through rep; one-successor groups with the same
 * successor as an earlier one add their probability to it (a merged entry of w->p) and go. at[c]
 * is -1 for every state c on entry and on return (the place of c's group while s is done). */
static int fc_merge_groups(fc_work_t *w, int64_t s, const int32_t *rep, int64_t *at) {
    int32_t seen[27];
    int nseen = 0;
    int64_t out = w->g.e0[s];
    for (int64_t e = w->g.e0[s]; e < w->g.e1[s];) {
        int32_t head = w->g.edges[e];
        int count = fc_head_count(head), len = 2 + count;
        for (int i = 0; i < count; i++) w->g.edges[e + 2 + i] = rep[w->g.edges[e + 2 + i]];
        int32_t c = w->g.edges[e + 2];
        if (count == 1 && at[c] >= 0) {
            int32_t *h = w->g.edges + at[c];
            int q = fc_head_p(*h);
            if (q < 27 && w->np < FC_MAX_P) { /* the first merge: a table entry of its own */
                if (!fc_grow(w, (void **)&w->p, &w->npcap, w->np + 1, sizeof(double))) return FC_ERR_NOMEM;
                w->p[w->np] = w->p[q];
                q = (int)w->np++;
                *h = FC_HEAD(q, 1);
            }
            if (q >= 27) {
                w->p[q] += w->p[fc_head_p(head)];
                e += len;
                continue;
            }
        } else if (count == 1) {
            at[c] = out;
            seen[nseen++] = c;
        }
        if (out != e)
            for (int i = 0; i < len; i++) w->g.edges[out + i] = w->g.edges[e + i];
        out += len;
        e += len;
    }
    for (int i = 0; i < nseen; i++) at[seen[i]] = -1;
    w->g.e1[s] = out;
    return MJ_OK;
}

/* Merge the graph's equal ready leaves and the groups that then share a successor. Only states
 * of shanten 1 or less can list a ready leaf (a draw lowers the shanten by one at most). */
static int fc_merge(fc_work_t *w) {
    int32_t *rep = w->c.nact; /* scratch: fc_values_dag fills it later */
    int code = fc_leaf_reps(w, rep);
    if (code != MJ_OK || !fc_grow(w, (void **)&w->m.at, &w->m.atcap, w->g.n, sizeof(int64_t)))
        return code != MJ_OK ? code : FC_ERR_NOMEM;
    for (int64_t s = 0; s < w->g.n; s++) w->m.at[s] = -1;
    for (int64_t s = 0; code == MJ_OK && s < w->g.n; s++)
        if (w->g.e1[s] > w->g.e0[s] && w->g.sh[s] <= 1) code = fc_merge_groups(w, s, rep, w->m.at);
    return code;
}

#endif
