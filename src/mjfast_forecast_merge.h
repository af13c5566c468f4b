/* mjfast forecast engine, step 1b (with a budget): equal ready leaves merged (the overview is in
 * mjfast_forecast.h). Owns the merge and its scratch (fc_merge_t).
 *
 * A ready leaf (every draw wins or stays) is worth V_t = a + q V_{t-1} and holds its mass until
 * it wins: its values and its share of the curves depend only on its win probability, stay
 * probability and expected payment. Those come from counts of copies over the pool (fc_mass,
 * fc_paid), so leaves with the same counts have the same three numbers to the bit. The first leaf
 * of each class stands for the rest: their edges go to it, and a state's one-successor groups
 * that now share their successor become one group whose probability is the sum. Without
 * exchanges (a DAG by shanten and dead tiles) the same goes on upwards, class by class: a state
 * whose groups all have one successor is worth and flows what its numbers and its groups (their
 * probabilities and successors, in order) say, so states equal in those are one too (fc_same_groups).
 * Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_MERGE_H
#define MJFAST_FORECAST_MERGE_H

#include "mjfast_forecast_graph.h"

/* Whether ready leaves a and b are worth the same and flow the same, in the same class of the
 * values' order (fc_class): a leaf with exchanges left (every draw wins or stays near the end)
 * must not stand for one with none, which a state of the first leaf's class may list, or that
 * state would read its row before fc_values_dag makes it. */
static inline int fc_same_leaf(const fc_work_t *w, int32_t a, int32_t b) {
    return w->g.pwin[a] == w->g.pwin[b] && w->g.stay[a] == w->g.stay[b] && w->g.ppay[a] == w->g.ppay[b] &&
           fc_class(w, a) == fc_class(w, b);
}

static inline uint64_t fc_leaf_hash(const fc_work_t *w, int32_t s) {
    uint64_t a, b, c;
    memcpy(&a, &w->g.pwin[s], 8);
    memcpy(&b, &w->g.stay[s], 8);
    memcpy(&c, &w->g.ppay[s], 8);
    return fc_hash(a ^ fc_hash(b ^ fc_hash(c ^ (uint64_t)fc_class(w, s))));
}

/* The first state of the table tab (size a power of two) equal to s under same and hashed as h,
 * or s itself after it is entered. */
static int32_t fc_class_of(int32_t *tab, int64_t size, uint64_t h, int32_t s, const fc_work_t *w,
                           int (*same)(const fc_work_t *, int32_t, int32_t)) {
    uint64_t j = h & (uint64_t)(size - 1);
    while (tab[j] >= 0 && !same(w, tab[j], s)) j = (j + 1) & (uint64_t)(size - 1);
    if (tab[j] < 0) tab[j] = s;
    return tab[j];
}

/* State r stands for s from now on (rep), with the least depth of the two. */
static void fc_stand_in(fc_work_t *w, int32_t *rep, int32_t s, int32_t r) {
    rep[s] = r;
    w->g.ref[s] = 0;
    if (w->g.depth[s] < w->g.depth[r]) w->g.depth[r] = w->g.depth[s];
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
        int32_t r = fc_class_of(tab, size, fc_leaf_hash(w, (int32_t)s), (int32_t)s, w, fc_same_leaf);
        if (r != s) fc_stand_in(w, rep, (int32_t)s, r);
    }
    return MJ_OK;
}

/* The successors of the group at g (FC_HEAD, pick id, ids) through rep, each once: a later copy of
 * a successor is never picked (the pick is the lowest discard within FC_TIE of the best, and the
 * copy's value is the same), so it goes; a group left with one successor needs no picks (nor do
 * the groups sharing its picks: they list the same successors). Returns the count left. */
static int fc_unique(int32_t *g, const int32_t *rep) {
    int count = fc_head_count(g[0]), n = 0;
    for (int i = 0; i < count; i++) {
        int32_t c = rep[g[2 + i]];
        int j = 0;
        while (j < n && g[2 + j] != c) j++;
        if (j == n) g[2 + n++] = c;
    }
    g[0] = FC_HEAD(fc_head_p(g[0]), n);
    if (n == 1) g[1] = -1;
    return n;
}

/* The groups of state s with their successors through rep (fc_unique); groups of one successor
 * with the same successor as an earlier one add their probability to it (a merged entry of w->p)
 * and go (not those fc_unique left with one: their sums stay as they were). at[c] is -1 for every
 * state c on entry and on return (the place of c's group while s is done). *picks: whether a
 * group is left with more than one successor (then the state's row needs picks). */
static int fc_merge_groups(fc_work_t *w, int64_t s, const int32_t *rep, int64_t *at, int *picks) {
    int32_t seen[27];
    int nseen = 0;
    *picks = 0;
    int64_t out = w->g.e0[s];
    for (int64_t e = w->g.e0[s]; e < w->g.e1[s];) {
        int32_t head = w->g.edges[e];
        int count = fc_head_count(head), next = 2 + count;
        if (count > 1) count = fc_unique(w->g.edges + e, rep);
        else w->g.edges[e + 2] = rep[w->g.edges[e + 2]];
        int len = 2 + count, single = next == 3;
        *picks |= count > 1;
        int32_t c = w->g.edges[e + 2];
        if (single && at[c] >= 0) {
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
                e += next;
                continue;
            }
        } else if (single) {
            at[c] = out;
            seen[nseen++] = c;
        }
        if (out != e)
            for (int i = 0; i < len; i++) w->g.edges[out + i] = w->g.edges[e + i];
        out += len;
        e += next;
    }
    for (int i = 0; i < nseen; i++) at[seen[i]] = -1;
    w->g.e1[s] = out;
    return MJ_OK;
}

/* Whether states a and b (same class, groups of one successor each, merged: fc_merge_groups) are
 * worth the same and flow the same: the same numbers, and the same groups in the same order. */
static int fc_same_groups(const fc_work_t *w, int32_t a, int32_t b) {
    if (!fc_same_leaf(w, a, b) || w->g.e1[a] - w->g.e0[a] != w->g.e1[b] - w->g.e0[b]) return 0;
    const int32_t *x = w->g.edges + w->g.e0[a], *y = w->g.edges + w->g.e0[b];
    for (int64_t i = 0, n = w->g.e1[a] - w->g.e0[a]; i < n; i += 3)
        if (w->p[fc_head_p(x[i])] != w->p[fc_head_p(y[i])] || x[i + 2] != y[i + 2]) return 0;
    return 1;
}

static uint64_t fc_groups_hash(const fc_work_t *w, int32_t s) {
    uint64_t h = fc_leaf_hash(w, s);
    for (int64_t e = w->g.e0[s]; e < w->g.e1[s]; e += 3) {
        uint64_t p;
        memcpy(&p, &w->p[fc_head_p(w->g.edges[e])], 8);
        h = fc_hash(h ^ p ^ fc_hash((uint64_t)w->g.edges[e + 2] + 1));
    }
    return h;
}

/* Class by class upwards (the values' order, fc_class: successors first), each state's groups
 * through rep (fc_merge_groups), then the states with no exchange left equal under
 * fc_same_groups merged (not the starts, whose ids fc_row holds, nor states with picks: another
 * group may share them). Those are the class without exchanges (a DAG: a state's successors lie
 * in lower classes), so their values and flows depend on their numbers and groups alone, whatever
 * the path that reached them. */
static int fc_merge_up(fc_work_t *w, int32_t *rep) {
    const int nclass = (w->budget + 1) * FC_ORDER;
    int64_t size = 64, n = w->g.n;
    while (size < 2 * n) size *= 2;
    int32_t *order = w->c.act, *tab = w->m.ctab; /* (act: fc_values_dag's later; ctab: as big) */
    if (!fc_grow(w, (void **)&w->v.cls, &w->v.clscap, nclass + 1, sizeof(int64_t))) return FC_ERR_NOMEM;
    int64_t *start = w->v.cls;
    memset(start, 0, (size_t)(nclass + 1) * sizeof(int64_t));
    for (int64_t s = 0; s < n; s++)
        if (w->g.e1[s] > w->g.e0[s]) start[fc_class(w, s) + 1]++;
    for (int b = 0; b < nclass; b++) start[b + 1] += start[b];
    for (int64_t s = 0; s < n; s++)
        if (w->g.e1[s] > w->g.e0[s]) order[start[fc_class(w, s)]++] = (int32_t)s;
    for (int64_t i = 0; i < size; i++) tab[i] = -1;
    for (int64_t i = 0, m = start[nclass - 1]; i < m; i++) {
        int32_t s = order[i];
        int picks, code = fc_merge_groups(w, s, rep, w->m.at, &picks);
        if (code != MJ_OK) return code;
        if (w->g.ex[s] < w->budget || !w->g.ref[s] || !w->g.depth[s] || w->g.mark[s] == FC_NEW || picks)
            continue;
        int32_t r = fc_class_of(tab, size, fc_groups_hash(w, s), s, w, fc_same_groups);
        if (r != s) fc_stand_in(w, rep, s, r);
    }
    return MJ_OK;
}

/* Merge the graph's equal ready leaves, then equal states without exchanges left upwards
 * (fc_merge_up), each state's groups through the stand-ins. */
static int fc_merge(fc_work_t *w) {
    int32_t *rep = w->c.nact; /* scratch: fc_values_dag fills it later */
    int code = fc_leaf_reps(w, rep);
    if (code != MJ_OK || !fc_grow(w, (void **)&w->m.at, &w->m.atcap, w->g.n, sizeof(int64_t)))
        return code != MJ_OK ? code : FC_ERR_NOMEM;
    for (int64_t s = 0; s < w->g.n; s++) w->m.at[s] = -1;
    return fc_merge_up(w, rep);
}

#endif
