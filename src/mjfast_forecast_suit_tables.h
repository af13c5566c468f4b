/* mjfast forecast engine: what the flush pass without a graph (mjfast_forecast_suit.h) keeps
 * beyond one row: its scratch (fc_suit_t, one spare kept for the next call), the numbered suit
 * patterns of 13 and 14 tiles (FC_SU13 / FC_SU14, built once per process) and the cache of the
 * fans of ready suit hands' wins per rules table (FC_FANS).
 *
 * Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_SUIT_TABLES_H
#define MJFAST_FORECAST_SUIT_TABLES_H

#include "mjfast_forecast_entry.h"
#include "mjfast_once.h" /* mj_state_t, mj_once: the pattern tables once per process */
#include "mjfast_rank.h" /* MJR: the dense rank that numbers the patterns */

#define FC_SU_W 37      /* copies of one suit left to draw: 0..36 */
#define FC_MAX_STARTS 27 /* starts of a row: one per discard at most */
#define FC_SU_RARE (16 * FC_MAX_STARTS) /* 2-shanten entries of one D: 16 hands per start */

/* A hand's numbers, remembered for a row (tag: the row's generation). */
typedef struct {
    uint32_t tag;
    int32_t w;  /* winning copies */
    double pay; /* expected payment of a draw (fc_paid); -1: not yet */
} fc_su_leaf_t;

/* A 1-shanten hand's progress draws: their kinds, their copies c in all, and the ready hand each
 * leads to (its winning copies and payment). */
typedef struct {
    int n, c;
    int k[9], w[9];
    double pay[9];
} fc_su_one_t;

/* A 2-shanten entry met in a walk, followed after it (fc_suit_two). */
typedef struct {
    uint8_t y[9];
    int s;
    double P;
} fc_su_rare_t;

/* One half of the suit's ranks (0: ranks 1-4, 1: ranks 5-9) in a pattern: its counts, tiles,
 * live ranks held four times (D's bits there), base-5 index (fc_su_at_t's), the starts whose
 * factor is above zero. */
typedef struct {
    uint8_t y[5], n, D;
    uint16_t key;
    uint32_t act;
} fc_su_half_t;

#define FC_SU_HALF 3125 /* patterns of one half at most */

/* The pass's scratch (fc_work_t.su), kept across the rows of one fc_run. */
typedef struct fc_suit {
    fc_su_leaf_t *memo, *zmemo;    /* by pattern number: ready hands [FC_SU_N13]; a 1-shanten
                                    * hand's progress draw z = y + k, the ready hand it keeps
                                    * [FC_SU_N14] */
    uint32_t gen;                  /* the row's generation in memo tags (never 0) */
    struct fc_fans *fans;          /* the rules' fan cache (fc_fans_of), or NULL */
    int ns, T, total, f;
    const fc_dead_start_t *st;     /* the starts */
    fc_dead_ctx_t *ctx;            /* [FC_MAX_STARTS]: each start's dead phase */
    double fac[FC_MAX_STARTS][9][5]; /* P(y) per start: the factor of rank r holding a tiles */
    /* per D: ready hands' sum P and sum P pay per (start, w); 1-shanten hands' sum P copies_k and
     * sum P copies_k pay per (start, c, w); the touched w, c and (c, w) bits */
    double R[FC_MAX_STARTS][FC_SU_W], RP[FC_MAX_STARTS][FC_SU_W];
    double *W, *WP;                /* [start][c][w] */
    uint64_t rw[FC_MAX_STARTS], wc[FC_MAX_STARTS], *ww;
    uint32_t used;                 /* starts holding some hand of this D */
    int dirty;                     /* a run under way: the sums may not be zero */
    fc_su_rare_t rare[FC_SU_RARE];
    int nrare;
    double psi[FC_MAX_STARTS][FC_MAX_DRAWS + 1];
    /* the halves of the patterns (fc_su_halves): [0] ranks 1-4, [1] ranks 5-9 */
    fc_su_half_t half[2][FC_SU_HALF], htmp[FC_SU_HALF];
    double *hp[2], *hptmp;           /* [pattern][start] */
    int32_t hat[2][32][22];
    /* per start: each leaf class's inflow per draw (bp: times the payments), touched w */
    double *b, *bp;                /* [start][w][T + 1] */
    uint64_t bw[FC_MAX_STARTS];
    /* per start: the results */
    double ready[FC_MAX_STARTS][FC_MAX_DRAWS], win[FC_MAX_STARTS][FC_MAX_DRAWS];
    double paid[FC_MAX_STARTS], obj[FC_MAX_STARTS];
} fc_suit_t;

static void fc_suit_free(fc_suit_t *su) {
    if (!su) return;
    free(su->memo);
    free(su->zmemo);
    free(su->ctx);
    free(su->W);
    free(su->WP);
    free(su->ww);
    free(su->b);
    free(su->bp);
    free(su->hp[0]);
    free(su->hp[1]);
    free(su->hptmp);
    free(su);
}


/* What the pass asks of a suit pattern, whatever the pool (meld-free, 4 sets, every form), built
 * once (fc_su_build, 2.8 MB): per pattern of 13 tiles by its rank (mjfast_rank.h, at most 13) a
 * mask of ranks (a ready hand's waits, no fifth copy; a 1- or 2-shanten hand's progress draws, no
 * fifth copy), its distance << 9 and its number among the 13-tile patterns << 11; per pattern of
 * 14 tiles by its rank (at most 14) the discards that leave it ready (at distance 1) and its
 * number among the 14-tile patterns << 9. The numbers index the row's memos (fc_suit_t). */
#define FC_SU_N13 93600  /* suit patterns of 13 tiles */
#define FC_SU_N14 118800 /* of 14 */
static uint32_t *FC_SU13, *FC_SU14;
static int32_t fc_su_n[2];
static mj_state_t fc_su_state;

static inline uint32_t fc_su_rank(int32_t idx, int m) {
    return MJR.base[m][idx / 3125] + MJR.pos[idx % 3125];
}

/* A suit index split as the rank tables read it: ranks 1-4 (hi) and 5-9 (lo), each base 5. */
typedef struct {
    int hi, lo;
} fc_su_at_t;

static inline uint32_t fc_su_rank_at(fc_su_at_t a, int m) { return MJR.base[m][a.hi] + MJR.pos[a.lo]; }

/* a with one tile more (delta 1) or less (-1) of rank r. */
static inline fc_su_at_t fc_su_move(fc_su_at_t a, int r, int delta) {
    if (r < 4) a.hi += delta * MJ_POW[r + 5];
    else a.lo += delta * MJ_POW[r];
    return a;
}

/* The patterns of n tiles from rank r on (x: the counts so far; idx, pairs, singles of them). */
static void fc_su_fill(mj_hand_t *h, uint8_t *x, int r, int left, int32_t idx, int pairs, int singles) {
    if (r < 9) {
        for (int a = left > 4 * (8 - r) ? left - 4 * (8 - r) : 0; a <= 4 && a <= left; a++) {
            x[r] = (uint8_t)a;
            fc_su_fill(h, x, r + 1, left - a, idx + a * MJ_POW[r], pairs + (a >> 1), singles + (a & 1));
        }
        x[r] = 0;
        return;
    }
    if (left) return;
    int n = 0;
    for (int q = 0; q < 9; q++) n += x[q];
    const int d = fc_flush_plain(h, idx, pairs, singles);
    uint32_t m = 0;
    if (n == 14) { /* (after the 13-tile ones) */
        for (int q = 0; q < 9; q++)
            if (d == 1 && x[q] && (FC_SU13[fc_su_rank(idx - MJ_POW[q], 1)] >> 9 & 3) == 1) m |= 1u << q;
        FC_SU14[fc_su_rank(idx, 0)] = m | (uint32_t)fc_su_n[1]++ << 9;
        return;
    }
    if (d == 1) {
        m = MJ.wmask[idx] & 0x1FFu;
        if (singles == 1)
            for (int q = 0; q < 9; q++) m |= (uint32_t)(x[q] & 1) << q;
    }
    for (int q = 0; q < 9; q++) {
        if (x[q] >= 4) {
            m &= ~(1u << q);
            continue;
        }
        if (d == 1) continue;
        int a = x[q], zp = pairs + ((a + 1) >> 1) - (a >> 1), zs = singles + ((a + 1) & 1) - (a & 1);
        if (fc_flush_plain(h, idx + MJ_POW[q], zp, zs) < d) m |= 1u << q;
    }
    FC_SU13[fc_su_rank(idx, 1)] = m | (uint32_t)d << 9 | (uint32_t)fc_su_n[0]++ << 11;
}

static int fc_su_build(void) {
    FC_SU13 = (uint32_t *)calloc(MJ_NRANK13, sizeof(uint32_t));
    FC_SU14 = (uint32_t *)calloc(MJ_NRANK14, sizeof(uint32_t));
    if (!FC_SU13 || !FC_SU14) {
        free(FC_SU13);
        free(FC_SU14);
        return -1;
    }
    mj_hand_t h;
    uint8_t x[9] = {0};
    memset(&h, 0, sizeof h);
    h.form = MJ_FORM_ALL;
    h.sets = 4;
    fc_su_n[0] = fc_su_n[1] = 0;
    fc_su_fill(&h, x, 0, 13, 0, 0, 0);
    fc_su_fill(&h, x, 0, 14, 0, 0, 0);
    return fc_su_n[0] == FC_SU_N13 && fc_su_n[1] == FC_SU_N14 ? 0 : -2;
}

/* Whether the row takes this pass: a flush without exchanges, objective "win", no melds, 4 sets
 * (and the suit tables built: else, out of memory, the graph serves). */
static inline int fc_suit_ok(const fc_work_t *w, const mj_hand_t *h) {
    return w->flush >= 0 && w->budget == 0 && w->job->objective == FC_OBJ_WIN && !h->m &&
           !h->meld_suits && h->sets == 4 && w->T >= 1 &&
           (mj_state_get(&fc_su_state) == MJ_STATE_READY || !mj_once(&fc_su_state, fc_su_build, -1, -2));
}

/* The fans of the ready suit hands' wins under one rules table, shared by the rows and threads
 * that use those rules (fc_fans_of): per suit and 13-tile pattern number, a state word (the
 * first thread to fill the entry claims it, then marks it ready) and each winning rank's capped
 * fan with the self-draw (FC_NO_FAN: not a win of the rules' scoring). 4.5 MB per rules table,
 * for the process; FC_FAN_SLOTS tables at most (other rules go without). */
#define FC_FAN_SLOTS 4
#define FC_NO_FAN (-128)
typedef struct {
    mj_state_t state;
    int8_t fan[9];
} fc_fan_t;

typedef struct fc_fans {
    mj_state_t state;
    int32_t rules[MF_R_SIZE];
    fc_fan_t *e; /* [3][FC_SU_N13] */
} fc_fans_t;

static fc_fans_t FC_FANS[FC_FAN_SLOTS];

/* The fan cache of the rules R: a ready one with the same table, else a new one, else NULL. */
static fc_fans_t *fc_fans_of(const int32_t *R) {
    for (int i = 0; i < FC_FAN_SLOTS; i++) {
        fc_fans_t *c = FC_FANS + i;
        int st = mj_state_get(&c->state);
        if (st == MJ_STATE_READY && !memcmp(c->rules, R, sizeof c->rules)) return c;
        if (st == MJ_STATE_NEW && mj_state_claim(&c->state)) {
            c->e = (fc_fan_t *)calloc(3 * (size_t)FC_SU_N13, sizeof(fc_fan_t));
            if (!c->e) {
                mj_state_set(&c->state, MJ_STATE_NEW);
                return NULL;
            }
            memcpy(c->rules, R, sizeof c->rules);
            mj_state_set(&c->state, MJ_STATE_READY);
            return c;
        }
    }
    return NULL;
}

#define FC_SU_NW ((size_t)FC_MAX_STARTS * FC_SU_W * FC_SU_W)
#define FC_SU_NB ((size_t)FC_MAX_STARTS * FC_SU_W * (FC_MAX_DRAWS + 1))
/* The scratch's bytes (7.6 MB), counted in the row's buffers (fc_room). */
#define FC_SU_BYTES                                                                                 \
    ((int64_t)(sizeof(fc_suit_t) + (FC_SU_N13 + FC_SU_N14) * sizeof(fc_su_leaf_t) +                \
               FC_MAX_STARTS * sizeof(fc_dead_ctx_t) + (2 * FC_SU_NW + 2 * FC_SU_NB) * sizeof(double) + \
               FC_MAX_STARTS * FC_SU_W * sizeof(uint64_t) +                                        \
               3 * (size_t)FC_SU_HALF * FC_MAX_STARTS * sizeof(double)))

/* One scratch is kept for the next fc_run (its pages stay mapped, its sums zero, its memos
 * stale by their generation), where atomics are at hand; a scratch a failed row left unclean
 * (its sums not zero) is freed instead. */
#if defined(__GNUC__) || defined(__clang__)
static fc_suit_t *FC_SU_SPARE;
static fc_suit_t *fc_su_take(void) { return __atomic_exchange_n(&FC_SU_SPARE, NULL, __ATOMIC_ACQ_REL); }
static void fc_su_give(fc_suit_t *su) {
    if (su && su->dirty) {
        fc_suit_free(su);
        return;
    }
    fc_suit_free(__atomic_exchange_n(&FC_SU_SPARE, su, __ATOMIC_ACQ_REL));
}
#else
static fc_suit_t *fc_su_take(void) { return NULL; }
static void fc_su_give(fc_suit_t *su) { fc_suit_free(su); }
#endif

/* The scratch, taken or allocated at the first row that takes the pass. */
static int fc_suit_alloc(fc_work_t *w) {
    if (w->su) return MJ_OK;
    if (!fc_room(w, FC_SU_BYTES)) return FC_ERR_NOMEM;
    w->bytes += FC_SU_BYTES;
    fc_suit_t *su = fc_su_take();
    if (su) {
        su->fans = fc_fans_of(w->job->rules);
        w->su = su;
        return MJ_OK;
    }
    const size_t nw = FC_SU_NW, nb = FC_SU_NB;
    su = (fc_suit_t *)calloc(1, sizeof(fc_suit_t));
    if (!su) return FC_ERR_NOMEM;
    su->memo = (fc_su_leaf_t *)calloc(FC_SU_N13, sizeof(fc_su_leaf_t));
    su->zmemo = (fc_su_leaf_t *)calloc(FC_SU_N14, sizeof(fc_su_leaf_t));
    su->ctx = (fc_dead_ctx_t *)malloc(FC_MAX_STARTS * sizeof(fc_dead_ctx_t));
    su->W = (double *)calloc(nw, sizeof(double));
    su->WP = (double *)calloc(nw, sizeof(double));
    su->ww = (uint64_t *)calloc((size_t)FC_MAX_STARTS * FC_SU_W, sizeof(uint64_t));
    su->b = (double *)calloc(nb, sizeof(double));
    su->bp = (double *)calloc(nb, sizeof(double));
    for (int h = 0; h < 2; h++) su->hp[h] = (double *)malloc((size_t)FC_SU_HALF * FC_MAX_STARTS * sizeof(double));
    su->hptmp = (double *)malloc((size_t)FC_SU_HALF * FC_MAX_STARTS * sizeof(double));
    su->fans = fc_fans_of(w->job->rules);
    if (!su->hp[0] || !su->hp[1] || !su->hptmp || !su->memo || !su->zmemo || !su->ctx || !su->W ||
        !su->WP || !su->ww || !su->b || !su->bp) {
        fc_suit_free(su);
        return FC_ERR_NOMEM;
    }
    w->su = su;
    return MJ_OK;
}

#endif
