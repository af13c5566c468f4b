/* mjfast forecast engine: the job, the per-row work and the state store (the overview is in
 * mjfast_forecast.h).
 *
 * Owns the job (fc_job_t: one batch call), the work (fc_work_t) with each step's buffers
 * (fc_graph_t, fc_merge_t, fc_values_t, fc_curves_t), the state marks (fc_mark_t), the state
 * store (an open-addressing hash of base-5 keys with the exchanges spent: fc_state), the
 * successor-list memo's upkeep and the buffer and work accounting (fc_grow, fc_room, fc_tick).
 * Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_STATE_H
#define MJFAST_FORECAST_STATE_H

#include <stdlib.h>
#include <string.h>

#include "mjfast_kernels.h"

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
    int plans;                /* a state without an exchange left whose hand has one best void
                               * suit packs it (fc_plan_of) */
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

/* A state's tag in the hash beside its key: the exchanges spent e (at most FC_MAX_DRAWS), or
 * with a plan (only states without an exchange left: e is the budget, the same for all of them)
 * FC_MAX_DRAWS + 1 + the planned void suit pv (28-30: the hash's values keep 5 bits above the id,
 * positive). */
static inline int fc_tag(int e, int pv) { return pv < 0 ? e : FC_MAX_DRAWS + 1 + pv; }

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

/* A new state of key with tag fc_tag(e, pv) in the free hash slot j (fc_state). */
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

#endif /* MJFAST_FORECAST_STATE_H */
