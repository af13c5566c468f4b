/* mjfast forecast engine, step 1: the state graph's data and the probes (the overview is in
 * mjfast_forecast.h).
 *
 * Owns the job (fc_job_t: one batch call), the work (fc_work_t) with each step's buffers
 * (fc_graph_t, fc_merge_t, fc_values_t, fc_curves_t), the state marks (fc_mark_t), the state
 * store (an open-addressing hash of base-5 keys with the exchanges spent: fc_state), the buffer
 * and work accounting (fc_grow, fc_room, fc_tick), and what the expansion asks of a hand: its
 * probes under the row's plan (fc_probes_of, fc_flush_dist), its waits' payment (fc_paid) and the
 * sorting of its draws (fc_classify). Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_GRAPH_H
#define MJFAST_FORECAST_GRAPH_H

#include <stdlib.h>

#include "mjfast_probes.h"
#include "mjfast_fan.h"

/* A meld-free 4-set hand as mj_probe_row_dist reads it (fc_probes fills one; the forecast is its only user). */
typedef struct {
    uint8_t c[27];    /* counts */
    int32_t idx[3];
    int k[3], n[3], odd[3], live_q; /* k: classes, or void classes (vc) */
} mj_probe_row_t;

/* The distances after every probe of a row (bytes as mj_suit_probes:
 * w[s] and last[s] per suit); returns the row's own distance. Only the void suits that give the
 * hand's distance d matter: a draw lowers a distance by at most 1 and a discard raises it by at
 * most 1, so with any other suit q void (dq[q] > d) a draw leaves at least d, which no effective
 * tile needs, and a discard at least d + 1, which the best void suit never exceeds. So with one
 * such suit q (most hands; every hand with a declared void) the probes of q change nothing (d)
 * and those of the other two suits need one row each; without the void rule every suit takes
 * one row; ties take the rows of every suit that gives d. */
static MJ_ALWAYS_INLINE int mj_probe_row_dist(const mj_probe_row_t *b, const int delta, uint64_t *w,
                                              uint64_t *last, const int void_rule, const int reg,
                                              const int sev, const int vc) {
    const int nf = MJ.n_full, cap = 0; /* no fifth copies: draws come to rows without a quad */
    const int *k = b->k;
    const uint8_t *full = vc ? MJ.void_full : MJ.full;
    mj_probe_base_t pb;
    int lv, e[2], e2[2];
    mj_probe_base(k, b->n, b->odd, b->live_q, &pb, void_rule, reg, sev, vc);
    if (!void_rule) {
        mj_probe_sevens(&pb, 0, 1, delta, sev, e);
        for (int s = 0; s < 3; s++) {
            int o1 = s == 0 ? 1 : 0, o2 = s == 2 ? 1 : 2;
            const int8_t *fin = reg ? MJ.final + MJ.pair[k[o1] * nf + k[o2]] * nf : mj_inf_row;
            lv = mj_suit_probes(fin, fin, sev ? e : NULL, MJ.full + b->idx[s], b->c + 9 * s, &w[s],
                                delta, cap, 0);
            last[s] = (uint64_t)lv;
        }
        return pb.d;
    }
    int best = ((pb.dq[0] == pb.d) | (pb.dq[1] == pb.d) << 1 | (pb.dq[2] == pb.d) << 2) & b->live_q;
    if (best == 1 || best == 2 || best == 4) { /* one void suit q gives d */
        int q = best >> 1, s1 = q == 0 ? 1 : 0, s2 = q == 2 ? 1 : 2;
        const int8_t *r1 = reg ? mj_two_row(k[s2], vc) : mj_inf_row;
        const int8_t *r2 = reg ? mj_two_row(k[s1], vc) : mj_inf_row;
        const int *a = sev ? e : NULL;
        mj_probe_sevens(&pb, q, 1, delta, sev, e);
        lv = mj_suit_probes(r1, r1, a, full + b->idx[s1], b->c + 9 * s1, &w[s1], delta, cap, 0);
        last[s1] = (uint64_t)lv;
        lv = mj_suit_probes(r2, r2, a, full + b->idx[s2], b->c + 9 * s2, &w[s2], delta, cap, 0);
        last[s2] = (uint64_t)lv;
        w[q] = (uint64_t)pb.d * MJ_ONES8;
        last[q] = (uint64_t)pb.d;
        return pb.d;
    }
    if (best == 3 || best == 5 || best == 6) { /* two: q1 and q2, suit s3 never void */
        int s3 = best == 3 ? 2 : best == 5 ? 1 : 0, q1 = s3 == 0 ? 1 : 0, q2 = s3 == 2 ? 1 : 2;
        const int8_t *t3 = reg ? mj_two_row(k[s3], vc) : mj_inf_row;
        const int8_t *t1 = reg ? mj_two_row(k[q1], vc) : mj_inf_row;
        const int8_t *t2 = reg ? mj_two_row(k[q2], vc) : mj_inf_row;
        int a1[2], a2[2], a3[2];
        mj_probe_sevens(&pb, q1, 1, delta, sev, e);
        mj_probe_sevens(&pb, q2, 1, delta, sev, e2);
        for (int par = 0; par < 2; par++) {
            a1[par] = e2[par] < pb.d ? e2[par] : pb.d; /* q1 void, or q2 */
            a2[par] = e[par] < pb.d ? e[par] : pb.d;
            a3[par] = e[par] < e2[par] ? e[par] : e2[par];
        }
        lv = mj_suit_probes(t3, t3, a1, full + b->idx[q1], b->c + 9 * q1, &w[q1], delta, cap, 0);
        last[q1] = (uint64_t)lv;
        lv = mj_suit_probes(t3, t3, a2, full + b->idx[q2], b->c + 9 * q2, &w[q2], delta, cap, 0);
        last[q2] = (uint64_t)lv;
        lv = mj_suit_probes(t2, t1, a3, full + b->idx[s3], b->c + 9 * s3, &w[s3], delta, cap, 1);
        last[s3] = (uint64_t)lv;
        return pb.d;
    }
    for (int s = 0; s < 3; s++) {
        lv = mj_suit_probes_live(&pb, k, s, best, full + b->idx[s], b->c + 9 * s, &w[s], delta,
                                 cap, reg, sev, vc);
        last[s] = (uint64_t)lv;
    }
    return pb.d;
}

#define FC_MAX_DRAWS 27

#if MJ_AVX2
/* The loops over the draws t (values, curves) compiled for AVX2 beside the baseline, taken where
 * MJ.isa has it: the same multiplies and adds in the same order (no FMA: "avx2" alone does not
 * enable it, so nothing is contracted), four doubles a step, so the same bits. */
#define FC_AVX2 __attribute__((target("avx2")))
#endif
#define FC_ID_BITS 26 /* a state id in the hash's values, the exchanges spent (<= 27) above it */
#define FC_ID_MASK ((1 << FC_ID_BITS) - 1)
#define FC_TIE 1e-12 /* relative: values this close count as equal (then the lowest discard) */


enum { FC_OBJ_WIN = 0, FC_OBJ_VALUE = 1 };
enum { FC_ERR_STATES = 30, FC_ERR_NOMEM = 31, FC_ERR_EMPTY_POOL = 32, FC_ERR_BYTES = 33,
       FC_ERR_WORK = 34, FC_ERR_STOPPED = 35, FC_ERR_FLUSH = 36 };

/* Work (an expansion counts 1 + the edge entries it writes: time goes with both) between two
 * calls of job->poll and checks of job->max_work: a few milliseconds. */
#define FC_POLL 4096

static const uint64_t FC_SUIT_W[3] = {1ULL, 1953125ULL, 3814697265625ULL}; /* 5^0, 5^9, 5^18 */

/* One batch call. Optional arrays are NULL; a stride of 0 broadcasts one row to all. */
typedef struct {
    const uint8_t *hands;     /* [n][27] */
    const uint8_t *melds;     /* [n][27] meld tiles per kind (0, 3, 4), stride melds_stride */
    int64_t melds_stride;
    const int8_t *voids;      /* [n] declared void (-1 none), or NULL: void_scalar */
    int void_scalar;
    const uint8_t *visible;   /* [n][27] copies seen elsewhere, stride visible_stride */
    int64_t visible_stride;
    int draws, objective;
    int exchanges;            /* the budget of exchanges (RULES.md 9), or -1: no budget */
    int backward;             /* backward moves allowed (each costs one exchange) */
    int flush;                /* 清一色 plan: the suit (0-2) only whose wins count, or -1 */
    int keep;                 /* complete rows: only the discards of the lowest shanten, others NaN */
    int sets;                 /* sets of a complete hand: 4, or 3 / 2 for the short hands */
    int complete;             /* rows are 3 * sets + 2 - 3m hands (every discard), else one less */
    const int32_t *rules;     /* [MF_R_SIZE] compiled rules (mjfast_fan.h) */
    const double *pay;        /* [n_pay] payment per payer by capped internal fan */
    int n_pay;
    int64_t max_states;
    int64_t max_bytes;        /* cap on the buffers of one row's graph (w->bytes), 0: none */
    int64_t max_work;         /* cap on one row's work (fc_tick), 0: none */
    int (*poll)(void *);      /* NULL, or called every FC_POLL of work and per draw of the
                               * values: nonzero stops the run (FC_ERR_STOPPED) */
    void *poll_ctx;
    double *ready, *win;      /* [n][T] (complete: [n][27][T]) */
    double *value;            /* [n] (complete: [n][27]) */
    int8_t *best;             /* complete: [n] best discard */
    uint8_t *is_win;          /* complete: [n] the 14 tiles already win */
    int64_t peak_states;      /* largest graph of the run (written by the caller's thread) */
    int64_t peak_bytes;
    int64_t peak_work;        /* most work of one row (fc_tick) */
    int32_t err[3];
} fc_job_t;

/* One remembered successor list: the discards allowed from the 14 - 3m hand key, drawn onto a
 * hand of distance dh on the frontier or next to it or neither, with e exchanges spent and (where
 * the drawn tile's cost depends on it) the drawn kind k (the mkey of fc_expand and fc_group), lead
 * to the count states listed at edges[off]. That list depends only on the hand and those, so a
 * hand reached from several states is probed once. */
typedef struct {
    uint64_t key;
    int64_t off;
    uint32_t row;
    uint32_t tag; /* the hand's mkey (fc_expand) | count << 24 */
} fc_memo_t;

#define FC_MEMO (1 << 14)

/* An edge group's head: the index of its probability in w->p (the drawn kind, or a merged
 * group's: fc_merge_groups) and its count of successors. */
#define FC_HEAD(k, count) ((int32_t)((uint32_t)(k) | (uint32_t)(count) << 16))
#define FC_MAX_P 0xFFFF
static inline int fc_head_p(int32_t head) { return head & FC_MAX_P; }
static inline int fc_head_count(int32_t head) { return head >> 16; }
#define FC_SHARED (1 << 30) /* pick id flag: another group's picks, computed before */
#define FC_ORDER ((FC_MAX_DRAWS + 1) * 16) /* (shanten, void tiles) classes of live states */

typedef struct {
    uint8_t c[32]; /* 27 counts, padded */
} fc_counts_t;

/* What a state's mark says (fc_graph_t.mark): how far the build took it and, for a ready leaf,
 * whether fc_curves_list has it on its leaf list. */
typedef enum {
    FC_NEW = 0,         /* created, not expanded (beyond the pruning, or not reached yet) */
    FC_EXPANDED = 1,    /* expanded: its win / stay / pay numbers and edge groups are set */
    FC_LEAF = 2,        /* expanded, a ready leaf: no edge group, every draw wins or stays */
    FC_LEAF_LISTED = 3  /* a ready leaf on fc_curves_list's leaf list (during that pass only) */
} fc_mark_t;

/* Step 1, the state graph (mjfast_forecast_graph.h, mjfast_forecast_expand.h): the states, by
 * id in creation order (breadth first), their hash, their numbers and their edge groups. */
typedef struct {
    uint64_t *hkey;           /* key + 1, 0 = empty */
    int32_t *hval;            /* id | exchanges spent << FC_ID_BITS */
    int64_t hcap;             /* power of two */
    int64_t n, cap;           /* states, and room in the per-state arrays (fc_grow_states) */
    uint64_t *key;
    fc_counts_t *cnt;         /* the hand's counts (fc_fill) */
    int8_t *sh;
    uint8_t *depth;           /* the fewest draws that reach the state */
    uint8_t *mark;            /* fc_mark_t */
    uint8_t *nv;              /* dead tiles held */
    uint8_t *ex;              /* exchanges spent (with a budget; 0 otherwise) */
    int8_t *pv;               /* the suit the hand must clear, its tiles packed (fc_plan_of), or -1 */
    uint8_t *loop;            /* a group of the state lists the state itself (the drawn tile back) */
    uint8_t *ref;             /* a start or listed in a group: its values are read */
    int64_t *e0, *e1;         /* its edge groups: edges[e0..e1) */
    double *stay, *pwin, *ppay;
    int32_t *edges;           /* per group: FC_HEAD(k, count), pick id (-1: one successor; FC_SHARED:
                               * another group's), count successor ids */
    int64_t ne, ecap, ngroups;
    fc_memo_t *memo;          /* [FC_MEMO] successor lists by 14 - 3m hand (lossy, per row) */
    uint32_t row;             /* memo generation: entries of earlier rows are stale */
    int64_t mzero;            /* memo entries zeroed so far (the first fc_memo_span ones are read) */
} fc_graph_t;

/* Step 1b, equal ready leaves merged (mjfast_forecast_merge.h): its scratch. */
typedef struct {
    int32_t *ctab;            /* the leaf classes' table */
    int64_t ccap;
    int64_t *at, atcap;       /* per state: the place of its group in the state being merged */
} fc_merge_t;

/* The flush plan's entries (mjfast_forecast_entry.h): the states its dead starts end in. */
typedef struct {
    int32_t *ids;             /* the entries of each dead start in turn */
    int64_t n, cap;
    int32_t *rep;             /* per state: its stand-in after the merge (fc_merge) */
    int64_t repcap;
} fc_entries_t;

/* Step 2, the values and the picks (mjfast_forecast.h). */
typedef struct {
    double *V;                /* V[state, t] at V + state * vsn + t * vtn (fc_v) */
    int64_t vcap, vsn, vtn;
    int32_t *picks;           /* [group][t - 1]: the successor picked with t - 1 draws left */
    int64_t pcap;
    int64_t *cls, clscap;     /* the class starts of fc_values_dag */
    int64_t nlive, nref;      /* with a budget: the live and all the listed states, in that
                               * order in the curves' act (fc_values_dag, fc_dag_state) */
} fc_values_t;

/* Step 3, the forward passes (mjfast_forecast_curves.h). The per-state buffers grow with the
 * graph (fc_grow_states); with a budget fc_values_dag leaves its order in act and each state's
 * place in it in nact. */
typedef struct {
    double *mass, *next;      /* per state, zero outside fc_curves_list's lists */
    double *flow;             /* [state][T + 1]: fc_curves_dag's mass per draw, zero outside it */
    int64_t fcap;
    uint64_t *reach;          /* places holding some of the start's mass (fc_curves_dag) */
    int64_t rcap;
    int32_t *act, *nact, *leaf; /* fc_curves_list's lists of states holding mass */
} fc_curves_t;

/* One row's work: its plan and pool, its limits, and each step's buffers (kept across the rows
 * of one fc_run). */
typedef struct {
    fc_job_t *job;
    int T, vs;
    int budget;               /* exchanges allowed (the job's, at most T), or -1: no budget */
    int flush;                /* the job's flush suit, or -1 */
    int dead_suits;           /* bit per suit whose tiles are dead: the void suit, with a flush the other two */
    uint32_t dead;            /* the kinds of those suits */
    int canon;                /* dead tiles held as a count (see fc_pack_dead) */
    int plans;                /* a state whose hand has one best void suit packs it (fc_plan_of) */
    const uint8_t *melds;
    mj_hand_t tmpl;           /* the row's loaded hand: melds, void rule, form and sets for fc_fill */
    double *p;                /* [np]: the draw probability of kind k < 27, then the merged
                               * groups' (fc_merge_groups); an edge group's head indexes it */
    int64_t np, npcap;
    int left[27], total;      /* copies of each kind left to draw, and in all */
    uint64_t wt[27];          /* fc_weight_of per kind */
    int clo[3][64], chi[3][8]; /* left summed over each subset of ranks 1-6 / 7-9 of a suit */
    uint32_t pool;            /* kinds left to draw (p > 0) */
    int64_t bytes;            /* the buffers' bytes, counted where they are allocated */
    int64_t work, next_poll;  /* this row's work (fc_tick), and where it polls next */
    int over;                 /* a buffer was refused for job->max_bytes: NOMEM is FC_ERR_BYTES */
    fc_graph_t g;
    fc_merge_t m;
    fc_entries_t en;
    fc_values_t v;
    fc_curves_t c;
    struct fc_suit *su;       /* the flush pass's scratch (mjfast_forecast_suit.h), or NULL */
} fc_work_t;

/* The class of state s in the values' order: exchanges left, shanten, dead tiles. */
static inline int fc_class(const fc_work_t *w, int64_t s) {
    return (w->budget - w->g.ex[s]) * FC_ORDER + w->g.sh[s] * 16 + w->g.nv[s];
}

/* Slot hash (the low bits index the tables): one multiply, the product's upper half (Fibonacci
 * hashing; the keys are sums of powers of 5, so their low bits alone would cluster). */
static inline uint64_t fc_hash(uint64_t x) { return (x * 0x9E3779B97F4A7C15ULL) >> 32; }

/* The key weight of one tile of kind t: 5^(9 suit) times its rank's power (the keys' digits). */
static inline uint64_t fc_weight_of(int t) { return FC_SUIT_W[t / 9] * (uint64_t)MJ_POW[t % 9]; }

static inline uint64_t fc_key(const uint8_t *c) {
    return (uint64_t)mj_index9(c) + FC_SUIT_W[1] * (uint64_t)mj_index9(c + 9) +
           FC_SUIT_W[2] * (uint64_t)mj_index9(c + 18);
}

/* Pack the dead tiles (of the suits in the mask: the declared void suit, with a flush the other
 * two) of counts x into those suits from the lowest kind up, 4 per kind. Which dead tiles a hand
 * holds never matters: they count for neither the shanten nor the win, every dead draw leaves
 * the hand as it was (discarded at once, or for a held dead tile), and while one is held a dead
 * discard is forced (any one: all equally good). So hands that differ only there are one state. */
static void fc_pack_dead(uint8_t *x, int suits) {
    int n = 0;
    for (int t = 0; t < 27; t++) n += (suits >> (t / 9) & 1) ? x[t] : 0;
    for (int t = 0; t < 27; t++) {
        if (!(suits >> (t / 9) & 1)) continue;
        x[t] = (uint8_t)(n > 4 ? 4 : n);
        n -= x[t];
    }
}

/* Whether the buffers may grow by more bytes within job->max_bytes; when not, w->over is set
 * (the caller fails as out of memory, and fc_row reports FC_ERR_BYTES). */
static inline int fc_room(fc_work_t *w, int64_t more) {
    if (!w->job->max_bytes || w->bytes + more <= w->job->max_bytes) return 1;
    w->over = 1;
    return 0;
}

/* An expansion done that wrote `edges` edge entries: MJ_OK, or FC_ERR_WORK past job->max_work,
 * or FC_ERR_STOPPED when job->poll (called every FC_POLL of work) asks to stop. */
static inline int fc_tick(fc_work_t *w, int64_t edges) {
    w->work += 1 + edges;
    if (w->work < w->next_poll) return MJ_OK;
    w->next_poll = w->work + FC_POLL;
    const fc_job_t *job = w->job;
    if (job->max_work && w->work > job->max_work) return FC_ERR_WORK;
    return job->poll && job->poll(job->poll_ctx) ? FC_ERR_STOPPED : MJ_OK;
}

/* Grow *p (elements of size sz) to hold at least need; 0 on failure. */
static int fc_grow(fc_work_t *w, void **p, int64_t *cap, int64_t need, size_t sz) {
    if (need <= *cap) return 1;
    int64_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    if (!fc_room(w, (c - *cap) * (int64_t)sz)) return 0;
    void *q = realloc(*p, (size_t)c * sz);
    if (!q) return 0;
    w->bytes += (c - *cap) * (int64_t)sz;
    *p = q;
    *cap = c;
    return 1;
}

/* The bytes of one state's entries in the per-state arrays (the FC_RE list below). */
#define FC_STATE_BYTES                                                                      \
    (sizeof(uint64_t) + sizeof(fc_counts_t) + 6 + 2 * sizeof(int64_t) + 5 * sizeof(double) + \
     3 * sizeof(int32_t))

static int fc_grow_states(fc_work_t *w, int64_t need) {
    if (need <= w->g.cap) return 1;
    int64_t c = w->g.cap ? w->g.cap : 1024;
    while (c < need) c *= 2;
    if (!fc_room(w, (c - w->g.cap) * (int64_t)FC_STATE_BYTES)) return 0;
#define FC_RE(field, type)                                                  \
    do {                                                                    \
        void *q = realloc(w->field, (size_t)c * sizeof(type));              \
        if (!q) return 0;                                                   \
        w->field = (type *)q;                                               \
        w->bytes += (c - w->g.cap) * (int64_t)sizeof(type);                   \
    } while (0)
    FC_RE(g.key, uint64_t);
    FC_RE(g.cnt, fc_counts_t);
    FC_RE(g.sh, int8_t);
    FC_RE(g.depth, uint8_t);
    FC_RE(g.mark, uint8_t);
    FC_RE(g.nv, uint8_t);
    FC_RE(g.ex, uint8_t);
    FC_RE(g.pv, int8_t);
    FC_RE(g.loop, uint8_t);
    FC_RE(g.ref, uint8_t);
    FC_RE(g.e0, int64_t);
    FC_RE(g.e1, int64_t);
    FC_RE(g.stay, double);
    FC_RE(g.pwin, double);
    FC_RE(g.ppay, double);
    FC_RE(c.mass, double);
    FC_RE(c.next, double);
    FC_RE(c.act, int32_t);
    FC_RE(c.nact, int32_t);
    FC_RE(c.leaf, int32_t);
#undef FC_RE
    /* the forward pass keeps mass and next at zero outside its lists */
    memset(w->c.mass + w->g.cap, 0, (size_t)(c - w->g.cap) * sizeof(double));
    memset(w->c.next + w->g.cap, 0, (size_t)(c - w->g.cap) * sizeof(double));
    w->g.cap = c;
    return 1;
}

/* A state's tag in the hash beside its key: the exchanges spent e, and with a plan (only without
 * exchanges: e = 0) the planned void suit pv + 1 (1-3). */
static inline int fc_tag(int e, int pv) { return e + pv + 1; }

/* The slot hash of the key (+ 1, as stored) of a state of tag e (fc_tag). */
static inline uint64_t fc_slot(uint64_t key1, int e) { return fc_hash(key1 + (uint64_t)e * 0x9E3779B97F4A7C15ULL); }

/* The memo entries in use: the first 4 hcap (a small graph's stay in cache), at most FC_MEMO. */
static inline int64_t fc_memo_span(const fc_work_t *w) { return 4 * w->g.hcap < FC_MEMO ? 4 * w->g.hcap : FC_MEMO; }

/* Zero the memo entries that came into use (a grown hash table), so a fresh call's first rows
 * touch only the pages they read. */
static void fc_memo_zero(fc_work_t *w) {
    int64_t span = fc_memo_span(w);
    if (!w->g.memo || span <= w->g.mzero) return;
    memset(w->g.memo + w->g.mzero, 0, (size_t)(span - w->g.mzero) * sizeof(fc_memo_t));
    w->g.mzero = span;
}

/* Rehash into a table of twice the size. */
static int fc_rehash(fc_work_t *w) {
    int64_t cap = w->g.hcap ? 2 * w->g.hcap : 1024;
    if (!fc_room(w, (cap - w->g.hcap) * (int64_t)(sizeof(uint64_t) + sizeof(int32_t)))) return 0;
    uint64_t *k = (uint64_t *)calloc((size_t)cap, sizeof(uint64_t));
    int32_t *v = (int32_t *)malloc((size_t)cap * sizeof(int32_t));
    if (!k || !v) {
        free(k);
        free(v);
        return 0;
    }
    for (int64_t i = 0; i < w->g.hcap; i++) {
        if (!w->g.hkey[i]) continue;
        uint64_t j = fc_slot(w->g.hkey[i], w->g.hval[i] >> FC_ID_BITS) & (uint64_t)(cap - 1);
        while (k[j]) j = (j + 1) & (uint64_t)(cap - 1);
        k[j] = w->g.hkey[i];
        v[j] = w->g.hval[i];
    }
    free(w->g.hkey);
    free(w->g.hval);
    w->bytes += (cap - w->g.hcap) * (int64_t)(sizeof(uint64_t) + sizeof(int32_t));
    w->g.hkey = k;
    w->g.hval = v;
    w->g.hcap = cap;
    fc_memo_zero(w);
    return 1;
}

/* The id of the state of key and tag e (fc_tag), or -1 (the table is not empty); *slot: where a
 * new one goes. */
static inline int64_t fc_find(const fc_work_t *w, uint64_t key, int e, uint64_t *slot) {
    uint64_t mask = (uint64_t)(w->g.hcap - 1), j = fc_slot(key + 1, e) & mask;
    while (w->g.hkey[j]) {
        if (w->g.hkey[j] == key + 1 && w->g.hval[j] >> FC_ID_BITS == e) return w->g.hval[j] & FC_ID_MASK;
        j = (j + 1) & mask;
    }
    *slot = j;
    return -1;
}

/* A new state of key with tag (fc_tag) e + pv + 1 in the free hash slot j (fc_state). */
static MJ_NOINLINE int64_t fc_new_state(fc_work_t *w, uint64_t j, uint64_t key, int e, int pv, int sh, int d,
                                        const uint8_t *c, int drop) {
    if (w->g.n >= w->job->max_states || w->g.n >= FC_ID_MASK) return -FC_ERR_STATES;
    if (!fc_grow_states(w, w->g.n + 1)) return -FC_ERR_NOMEM;
    int64_t id = w->g.n++;
    w->g.hkey[j] = key + 1;
    w->g.hval[j] = (int32_t)(id | (int64_t)fc_tag(e, pv) << FC_ID_BITS);
    w->g.key[id] = key;
    memcpy(w->g.cnt[id].c, c, 27);
    if (drop >= 0) w->g.cnt[id].c[drop]--;
    w->g.sh[id] = (int8_t)(sh > 100 ? 100 : sh);
    w->g.depth[id] = (uint8_t)d;
    w->g.mark[id] = FC_NEW;
    w->g.ex[id] = (uint8_t)e;
    w->g.pv[id] = (int8_t)pv;
    w->g.loop[id] = 0;
    w->g.ref[id] = d == 0; /* the starts */
    w->g.e0[id] = w->g.e1[id] = 0;
    w->g.stay[id] = w->g.pwin[id] = w->g.ppay[id] = 0.0;
    return id;
}

/* The state of key with e exchanges spent and plan pv (created at depth d with shanten sh if new,
 * its hand the counts c less one tile of kind drop, if drop >= 0: fc_new_state). Returns its id,
 * or -FC_ERR_*. */
static MJ_ALWAYS_INLINE int64_t fc_state(fc_work_t *w, uint64_t key, int e, int pv, int sh, int d,
                                         const uint8_t *c, int drop) {
    if (2 * (w->g.n + 1) > w->g.hcap && !fc_rehash(w)) return -FC_ERR_NOMEM;
    uint64_t j;
    int64_t old = fc_find(w, key, fc_tag(e, pv), &j);
    return old >= 0 ? old : fc_new_state(w, j, key, e, pv, sh, d, c, drop);
}

/* A group of the one successor id, drawn kind k, at the end of the edges (room reserved). */
static inline void fc_edge_one(fc_work_t *w, int k, int64_t id) {
    w->g.ref[id] = 1;
    w->g.edges[w->g.ne++] = FC_HEAD(k, 1);
    w->g.edges[w->g.ne++] = -1;
    w->g.edges[w->g.ne++] = (int32_t)id;
}

/* One tile more (delta 1) or less (-1) of kind t in a loaded hand. The classes (mj_classes) are
 * not kept: the row fast path of fc_probes does not read them, so only the paths that read them
 * load them (their 5^9-entry tables are cache misses). */
static void fc_adjust(mj_hand_t *h, int t, int delta) {
    int s = t / 9, r = t % 9;
    h->c[t] = (uint8_t)(h->c[t] + delta);
    h->idx[s] += delta * MJ_POW[r];
    h->n[s] += delta;
    h->odd[s] += (h->c[t] & 1) ? 1 : -1;
}

/* The distances after mj_probes of a loaded hand (delta +1: draws, -1: discards) as bytes; an
 * impossible probe's byte means nothing (callers mask those kinds). A meld-free 4-set hand (the
 * void rule and every form: the engine's own) takes the row fast path of mjfast_probes.h on its
 * void classes, which probes only the suits that can change the distance; a draw onto a kind
 * held four times would leave its table, so such hands do not. */
static void fc_probes(mj_hand_t *h, int delta, uint8_t *dist) {
    if (h->meld_suits || h->sets != 4 || !h->void_rule || h->form != MJ_FORM_ALL ||
        (delta > 0 && mj_full_kinds(h))) {
        int d[27];
        mj_classes(h);
        mj_probes(h, delta, d);
        for (int t = 0; t < 27; t++) dist[t] = (uint8_t)d[t];
        return;
    }
    mj_probe_row_t b;
    uint64_t w8[3], last[3];
    mj_copy27(b.c, h->c); /* words where the probes read them (store forwarding) */
    for (int s = 0; s < 3; s++) {
        b.idx[s] = h->idx[s];
        b.k[s] = MJ.void_full[h->idx[s]];
        b.n[s] = h->n[s];
        b.odd[s] = h->odd[s];
    }
    b.live_q = h->live_q;
    if (delta > 0) mj_probe_row_dist(&b, +1, w8, last, 1, 1, 0, 1);
    else mj_probe_row_dist(&b, -1, w8, last, 1, 1, 0, 1);
    for (int s = 0; s < 3; s++) {
        mj_put8(dist + 9 * s, w8[s]);
        dist[9 * s + 8] = (uint8_t)last[s];
    }
}

/* The flush distance of a meld-free suit of base-5 index idx with the pairs and singles given
 * (fc_flush_dist's terms): the suit's distance to sets + pair, or seven pairs within it. */
static inline int fc_flush_plain(const mj_hand_t *h, int32_t idx, int pairs, int singles) {
    int best = h->form != MJ_FORM_SEVEN_PAIRS ? MJ.vec[10 * mj_class(idx) + 2 * h->sets + 1] : MJ_INF;
    if (h->form != MJ_FORM_REGULAR && h->sets == 4) {
        int sv = mj_seven_of(pairs, singles);
        if (sv < best) best = sv;
    }
    return best < MJ_INF ? best : MJ_INF;
}

/* Distance of the counts c (with the row's melds, form and sets: the template h) to a win all
 * of suit f (the flush plan, RULES.md 9): the suit's distance vector at the sets left plus the
 * pair (the target holds no tile of the other suits, so theirs cost nothing and count nothing),
 * or seven pairs within the suit; MJ_INF when a meld lies outside it. */
static int fc_flush_dist(const mj_hand_t *h, const uint8_t *c, int f) {
    if (h->meld_suits & ~(1 << f)) return MJ_INF;
    const uint8_t *x = c + 9 * f;
    if (!h->meld_suits) {
        int pairs = 0, singles = 0;
        for (int r = 0; r < 9; r++) {
            pairs += x[r] >> 1;
            singles += x[r] & 1;
        }
        return fc_flush_plain(h, mj_index9(x), pairs, singles);
    }
    int8_t v[10];
    uint8_t cap[9];
    mj_caps(h, f, cap);
    mj_capped_vector(x, cap, v);
    int best = h->form != MJ_FORM_SEVEN_PAIRS ? v[2 * (h->sets - h->m) + 1] : MJ_INF;
    return best < MJ_INF ? best : MJ_INF;
}

/* fc_probes for the flush plan of suit f: a tile of another suit changes nothing. A meld-free
 * hand steps its suit's index and pair counts per probe. */
static void fc_flush_probes(const mj_hand_t *h, int delta, int f, uint8_t *dist) {
    uint8_t c[27];
    const uint8_t *x = h->c + 9 * f;
    if (h->meld_suits) {
        memcpy(c, h->c, 27);
        memset(dist, fc_flush_dist(h, c, f), 27);
        for (int t = 9 * f; t < 9 * f + 9; t++) {
            if (delta < 0 ? !c[t] : c[t] >= 4) continue; /* impossible: the callers mask it */
            c[t] = (uint8_t)(c[t] + delta);
            dist[t] = (uint8_t)fc_flush_dist(h, c, f);
            c[t] = (uint8_t)(c[t] - delta);
        }
        return;
    }
    int pairs = 0, singles = 0;
    for (int r = 0; r < 9; r++) {
        pairs += x[r] >> 1;
        singles += x[r] & 1;
    }
    int32_t idx = mj_index9(x);
    memset(dist, fc_flush_plain(h, idx, pairs, singles), 27);
    for (int r = 0; r < 9; r++) {
        int a = x[r], b = a + delta;
        if (b < 0 || b > 4) continue; /* impossible: the callers mask it */
        dist[9 * f + r] = (uint8_t)fc_flush_plain(h, idx + delta * MJ_POW[r], pairs - (a >> 1) + (b >> 1),
                                                  singles - (a & 1) + (b & 1));
    }
}

/* The probes of the row's plan: the flush plan's, or every win's (fc_probes). */
static inline void fc_probes_of(const fc_work_t *w, mj_hand_t *h, int delta, uint8_t *dist) {
    if (w->flush >= 0) fc_flush_probes(h, delta, w->flush, dist);
    else fc_probes(h, delta, dist);
}

/* 27-bit mask of the kinds t whose byte x[t] (below 128) is below v (1..127): on SSE2 the row's
 * words as mj_row_words reads them (loads that match the probes' stores), two byte compares,
 * the bits put in kind order; else word by word. */
static inline uint32_t fc_below(const uint8_t *x, int v) {
#if MJ_SSE2
    __m128i x01, x2n;
    mj_row_words(x, &x01, &x2n);
    const __m128i lim = _mm_set1_epi8((char)v);
    uint32_t a = (uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(x01, lim));
    uint32_t b = (uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(x2n, lim));
    /* a: ranks 1-8 of suits 0 and 1; b: ranks 1-8 of suit 2, then the rank-9 bytes 8, 10, 12 */
    return (a & 0xFFu) | (b & 0x100u) | (a & 0xFF00u) << 1 | (b & 0x400u) << 7 | (b & 0xFFu) << 18 |
           (b & 0x1000u) << 14;
#else
    const uint64_t H = 0x80 * MJ_ONES8;
    uint32_t m = 0;
    for (int s = 0; s < 3; s++) {
        uint64_t ge = ((mj_word8(x + 9 * s) | H) - (uint64_t)v * MJ_ONES8) & H; /* no borrow */
        uint64_t lt = (~ge & H) >> 7;
        m |= (uint32_t)((lt * 0x0102040810204080ULL) >> 56) << (9 * s); /* byte r to bit r */
        m |= (uint32_t)(x[9 * s + 8] < v) << (9 * s + 8);
    }
    return m;
#endif
}

/* Distance (under the row's plan) of the loaded hand g less one tile of kind d. */
static int fc_without(const fc_work_t *w, const mj_hand_t *g, int d) {
    mj_hand_t x = *g;
    fc_adjust(&x, d, -1);
    if (w->flush >= 0) return fc_flush_dist(&x, x.c, w->flush);
    mj_classes(&x);
    return mj_distance(&x);
}

/* Expected payment per payer of the winning draws (mask wins) onto the loaded 13 - 3m hand h:
 * the fan of each wait (mf_wait_totals, from the hand's info once) plus the self-draw fan,
 * capped, as the row's payment per payer. */
static double fc_paid(const fc_work_t *w, const mj_hand_t *h, uint32_t wins) {
    if (!wins) return 0.0;
    const fc_job_t *job = w->job;
    const int32_t *R = job->rules;
    mf_info_t f;
    int32_t err[3];
    int val[27];
    mf_info(h, NULL, &f, err); /* no concealed-kong marks: no error */
    uint32_t waits = mf_wait_totals(R, h, &f, w->vs, val);
    double paid = 0.0; /* copies left times payment, over the pool once (as fc_mass) */
    for (wins &= waits; wins; wins &= wins - 1) {
        int k = mj_ctz(wins), fan = mf_capped(R, val[k] + R[MF_R_ZIMO]);
        paid += w->left[k] * job->pay[fan < 0 ? 0 : fan >= job->n_pay ? job->n_pay - 1 : fan];
    }
    return paid / w->total;
}

/* Load the counts c into h from the row's template, without
 * the checks of mj_load (every state is a valid hand of the row) and without the classes (see
 * fc_adjust). */
static MJ_ALWAYS_INLINE void fc_load(const fc_work_t *w, const uint8_t *c, mj_hand_t *h) {
    mj_row_t row;
    *h = w->tmpl;
    if (h->melds) h->melds = w->tmpl.meld_copy;
    memcpy(h->c, c, 27);
    mj_row_read(&row, c); /* (not h->c: words over fresh byte stores stall) */
    for (int q = 0; q < 3; q++) mj_suit_load(&row, q, &h->idx[q], &h->n[q], &h->odd[q]);
}

/* Load the hand of state s into h (fc_load): with a plan, only its void suit is live. */
static MJ_ALWAYS_INLINE void fc_fill(const fc_work_t *w, int64_t s, mj_hand_t *h) {
    fc_load(w, w->g.cnt[s].c, h);
    if (w->g.pv[s] >= 0) h->live_q = 1 << w->g.pv[s];
}

/* The plan of the loaded hand x (rows with w->plans, no exchanges): the void suit q when it alone
 * gives the distance, else -1. Then q stays the only best one on every path of the class: a draw
 * and a discard change each suit's distance by at most one in all, and every kept discard lowers
 * the distance, so the others stay above it. The tiles of suit q are then dead: they count for
 * neither the distance nor a win (which holds none of them), a draw of one never lowers the
 * distance (it stays), and discarding any one of them leaves the same hand up to which q tiles it
 * holds, with its place among the discards (the suit's block) the same. So hands that differ only
 * there are one state, its q tiles packed (fc_pack_plan), probed with suit q alone live (fc_fill):
 * the probes agree with the hand's wherever a distance below the hand's is read. */
static int fc_plan_of(mj_hand_t *x) {
    int best = MJ_INF, plan = -1;
    mj_classes(x);
    for (int q = 0; q < 3; q++) {
        if (!(x->live_q >> q & 1)) continue;
        int d = mj_distance_q(x, x->k, x->n, x->odd, x->v, q);
        plan = d < best ? q : d == best ? -1 : plan;
        best = d < best ? d : best;
    }
    return best < MJ_INF ? plan : -1;
}

/* Pack the tiles of suit q in counts x: one per rank from rank 1 up, then again (no quads: the
 * probes' fast path takes the hand). */
static void fc_pack_plan(uint8_t *x, int q) {
    int n = 0;
    for (int r = 0; r < 9; r++) n += x[9 * q + r];
    for (int r = 0; r < 9; r++) x[9 * q + r] = (uint8_t)(n / 9 + (r < n % 9));
}

/* The kind whose discard keeps the packed suit q of n tiles packed (fc_pack_plan). */
static inline int fc_plan_drop(int q, int n) { return 9 * q + (n - 1) % 9; }

/* Probability of drawing a kind of mask m: the copies left in it (fc_copies: six subset sums of
 * the row, fc_pool) over the pool, so equal counts give equal probabilities to the bit (fc_merge). */
static inline int fc_copies(const fc_work_t *w, uint32_t m) {
    int x = 0;
    for (int s = 0; s < 3; s++, m >>= 9) x += w->clo[s][m & 63] + w->chi[s][m >> 6 & 7];
    return x;
}

static inline double fc_mass(const fc_work_t *w, uint32_t m) { return (double)fc_copies(w, m) / w->total; }

/* The draws of the pool that stay on the loaded hand h (a fifth copy; with packed dead tiles any
 * dead draw: discarded at once). */
static inline uint32_t fc_stays(const fc_work_t *w, const mj_hand_t *h) {
    return w->pool & (mj_full_kinds(h) | (w->canon ? w->dead : 0u));
}

/* The winning draws onto the loaded ready leaf h (no dead tile held, no exchange left): the
 * drawable waits that do not stay. A leaf holds no dead tile, so under a flush plan all its
 * tiles are of the suit and its wins (of a tile of the suit: the others are dead, in stay) are
 * the flush's. */
static inline uint32_t fc_leaf_wins(const fc_work_t *w, const mj_hand_t *h) {
    return w->pool & ~fc_stays(w, h) & mj_hand_waits(h, w->vs);
}

/* Sort the kinds drawn onto state s (loaded as h; not a ready leaf: fc_expand_leaf) into masks:
 * a fifth copy is discarded at once, and with packed dead tiles so is any dead draw (stays); the
 * rest win, stay (without exchanges left, not lowering the shanten unless a dead discard is
 * forced) or become edge groups (returned). *dh: the state's distance. */
static uint32_t fc_classify(const fc_work_t *w, int64_t s, mj_hand_t *h, int held_void, int front,
                            int exchanges, uint32_t vmask, int *dh, uint32_t *stays, uint32_t *wins) {
    uint8_t d14[27];
    uint32_t stay = fc_stays(w, h), rest = w->pool & ~stay;
    *dh = w->g.sh[s] + 1; /* an expanded state's shanten is at most T: its distance, exactly */
    fc_probes_of(w, h, +1, d14);
    uint32_t win = rest & fc_below(d14, 1);
    /* a draw that does not lower the distance of the hand leaves every discard at no lower a
     * distance: unless a void discard is forced or exchanges are allowed off the frontier, it
     * stays, and on the frontier that is worth 0 and never ready in time (dropped) */
    uint32_t other = rest & ~win, all = ~0u;
    uint32_t groups = other & (held_void ? all : vmask | (exchanges && !front ? all : fc_below(d14, *dh)));
    if (!front) stay |= other & ~groups;
    *stays = stay;
    *wins = win;
    return groups;
}

#endif
