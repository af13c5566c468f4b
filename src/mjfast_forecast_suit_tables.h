/* mjfast forecast engine: what the flush pass without a graph (mjfast_forecast_suit.h) keeps
 * beyond one row: its scratch (fc_suit_t, one spare kept for the next call), the numbered suit
 * patterns of 13 and 14 tiles (FC_SU13, FC_SU_CAND: built once per process) and the cache of the
 * fans of ready suit hands' wins per rules table (FC_FANS).
 *
 * Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_SUIT_TABLES_H
#define MJFAST_FORECAST_SUIT_TABLES_H

#include "mjfast_forecast_entry.h"
#include "mjfast_once.h" /* mj_state_t, mj_once: the pattern tables once per process */

#define FC_SU_W 37      /* copies of one suit left to draw: 0..36 */
#define FC_MAX_STARTS 27 /* starts of a row: one per discard at most */
#define FC_SU_NS 28      /* FC_MAX_STARTS rounded up to even: the sums' vectors over starts */
#define FC_SU_RARE (16 * FC_MAX_STARTS) /* 2-shanten entries of one D: 16 hands per start */

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

/* The pass's scratch (w->su), kept across the rows of one fc_run. The sums over starts are
 * vectors of ns2 (ns rounded up to even): a hand's class adds to all its starts at once (a
 * start not holding it adds 0). */
typedef struct fc_suit {
    /* the row's memos (reset per row): per ready pattern (its ready number, FC_SU13) its winning
     * copies (fc_su_wins_of) and payment; per 14-tile pattern that a 1-shanten hand's progress draw
     * makes, the ready number of the hand it keeps (0xFFFF: not yet) */
    uint8_t *w8;
    uint16_t *pk;
    double *pay;
    double payv[128];              /* the payment per payer of fan v - 1 (-1 .. 126) */
    struct fc_fans *fans;          /* the rules' fan cache (fc_fans_of), or NULL */
    int ns, ns2, T, total, f;
    uint32_t poolf;                /* the drawable ranks of suit f */
    double lf[9];                  /* their copies left */
    const fc_dead_start_t *st;     /* the starts */
    fc_dead_ctx_t *ctx;            /* [FC_MAX_STARTS]: each start's dead phase */
    double fac[FC_MAX_STARTS][9][5]; /* P(y) per start: the factor of rank r holding a tiles */
    /* per D: ready hands' sum P and sum P pay per (w, start); 1-shanten hands' sum P copies_k and
     * sum P copies_k pay per (c, w, start); the touched w, c and (c, w) bits */
    double R[FC_SU_W][FC_SU_NS], RP[FC_SU_W][FC_SU_NS];
    double *W, *WP;                /* [c][w][ns2] */
    uint64_t rw, wc, ww[FC_SU_W];
    uint32_t used;                 /* starts holding some hand of this D */
    int dirty;                     /* a run under way: the sums may not be zero */
    fc_su_rare_t rare[FC_SU_RARE];
    int nrare;
    double psi[FC_MAX_STARTS][FC_MAX_DRAWS + 1];
    /* the halves of the patterns (fc_su_halves): [0] ranks 1-4, [1] ranks 5-9 */
    fc_su_half_t half[2][FC_SU_HALF], htmp[FC_SU_HALF];
    double *hp[2], *hptmp;         /* [pattern][ns2] */
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
    free(su->w8);
    free(su->pk);
    free(su->pay);
    free(su->ctx);
    free(su->W);
    free(su->WP);
    free(su->b);
    free(su->bp);
    free(su->hp[0]);
    free(su->hp[1]);
    free(su->hptmp);
    free(su);
}


/* What the pass asks of a suit pattern, whatever the pool (meld-free, 4 sets, every form), built
 * once (fc_su_build, 3.5 MB), by the pattern's number among those of its tiles (fc_su_num): per
 * ready number its base-5 index and waits (FC_SU_READY: the row prices them in that order); per
 * pattern of 13 tiles (FC_SU13) a mask of ranks (a ready hand's waits, no fifth copy; a 1- or
 * 2-shanten hand's progress draws, no fifth copy), its distance << 9 and << 11, if ready, its
 * number among the ready ones (the row's memos and the fan cache are indexed by it), if
 * 1-shanten, where its progress draws start in FC_SU_PROG; per pattern z of 14 tiles at distance
 * 1, the discards that leave it ready, ascending (FC_SU_CAND[FC_SU_COFF[z] .. FC_SU_COFF[z + 1]]),
 * each as the ready hand's number | its waits << 20; per 1-shanten pattern y
 * and progress draw k (in the order of the mask's ranks), the pattern z = y + k: its only
 * candidate | 1 << 31 where it has one (the pick then needs no pool), else its number. */
#define FC_SU_N13 93600  /* suit patterns of 13 tiles */
#define FC_SU_N14 118800 /* of 14 */
#define FC_SU_NR 47933   /* ready ones of 13 */
#define FC_SU_NC 292726  /* discards of the 14-tile ones that leave them ready */
#define FC_SU_NP 332807  /* progress draws of the 1-shanten ones */
#define FC_SU_BROAD 20000 /* a walk over this many 13-tile hands makes every pick up front */
#define FC_SU_ONE 0x80000000u /* a progress draw's pattern with one candidate */
static uint32_t *FC_SU13, *FC_SU_CAND, *FC_SU_PROG;
static int32_t *FC_SU_COFF;
static uint32_t *FC_SU_READY; /* per ready number: its base-5 index | its waits (FC_SU13's) << 21 */
static int32_t FC_SU_BASE[2][625]; /* [m]: the first number of a ranks 1-4 pattern, 13 + m tiles */
static uint16_t FC_SU_POS[3125];   /* a ranks 5-9 pattern's place among those of its tiles */
static mj_state_t fc_su_state;

/* A suit index split in halves, each base 5: ranks 1-4 (hi) and 5-9 (lo). */
typedef struct {
    int hi, lo;
} fc_su_at_t;

/* The number of the pattern a among the suit patterns of 13 + m tiles, in the order of their
 * base-5 index (rank 1 the most significant digit). */
static inline int32_t fc_su_num(fc_su_at_t a, int m) { return FC_SU_BASE[m][a.hi] + FC_SU_POS[a.lo]; }

/* A tile of rank r in either half's index (base 5, rank 1 the most significant digit). */
static const int16_t FC_SU_DHI[9] = {125, 25, 5, 1, 0, 0, 0, 0, 0};
static const int16_t FC_SU_DLO[9] = {0, 0, 0, 0, 625, 125, 25, 5, 1};

/* a with one tile more (delta 1) or less (-1) of rank r. */
static inline fc_su_at_t fc_su_move(fc_su_at_t a, int r, int delta) {
    a.hi += delta * FC_SU_DHI[r];
    a.lo += delta * FC_SU_DLO[r];
    return a;
}

/* The patterns of n tiles from rank r on (x: the counts so far; idx, pairs, singles of them). */
static void fc_su_fill(mj_hand_t *h, uint8_t *x, int r, int left, int32_t idx, int pairs, int singles,
                       int32_t *nr) {
    if (r < 9) {
        for (int a = left > 4 * (8 - r) ? left - 4 * (8 - r) : 0; a <= 4 && a <= left; a++) {
            x[r] = (uint8_t)a;
            fc_su_fill(h, x, r + 1, left - a, idx + a * MJ_POW[r], pairs + (a >> 1), singles + (a & 1), nr);
        }
        x[r] = 0;
        return;
    }
    if (left) return;
    int n = 0;
    for (int q = 0; q < 9; q++) n += x[q];
    const fc_su_at_t at = {idx / 3125, idx % 3125};
    const int d = fc_flush_plain(h, idx, pairs, singles);
    uint32_t m = 0;
    if (n == 14) { /* (after the 13-tile ones, in the order of their numbers) */
        for (int q = 0; q < 9 && d == 1; q++) {
            uint32_t u = x[q] ? FC_SU13[fc_su_num(fc_su_move(at, q, -1), 0)] : 0;
            if ((u >> 9 & 3) != 1) continue;
            if (*nr < FC_SU_NC) FC_SU_CAND[*nr] = (u >> 11) | (u & 0x1FFu) << 20;
            ++*nr;
        }
        FC_SU_COFF[fc_su_num(at, 1) + 1] = *nr;
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
    if (d == 1 && *nr < FC_SU_NR) FC_SU_READY[*nr] = (uint32_t)idx | m << 21;
    FC_SU13[fc_su_num(at, 0)] = m | (uint32_t)d << 9 | (uint32_t)(d == 1 ? (*nr)++ : 0) << 11;
}

/* FC_SU_PROG and the 1-shanten patterns' places in it (tiles: of each half's index); returns
 * its entries (FC_SU_NP: written up to it). */
static int32_t fc_su_progress(const int *tiles) {
    int32_t np = 0;
    for (int hi = 0; hi < 625; hi++)
        for (int lo = 0; lo < 3125; lo++) {
            if (tiles[hi] + tiles[lo] != 13) continue;
            const fc_su_at_t at = {hi, lo};
            uint32_t *info = FC_SU13 + fc_su_num(at, 0);
            if ((*info >> 9 & 3) != 2) continue;
            *info |= (uint32_t)np << 11;
            for (uint32_t m = *info & 0x1FFu; m; m &= m - 1, np++) {
                const int32_t zn = fc_su_num(fc_su_move(at, mj_ctz(m), 1), 1);
                if (np < FC_SU_NP)
                    FC_SU_PROG[np] = FC_SU_COFF[zn + 1] - FC_SU_COFF[zn] == 1
                                         ? FC_SU_ONE | FC_SU_CAND[FC_SU_COFF[zn]] : (uint32_t)zn;
            }
        }
    return np;
}

static int fc_su_build(void) {
    int cnt[21] = {0}, tiles[3125], total[2];
    for (int l = 0; l < 3125; l++) { /* the numbering: per tiles of ranks 5-9, then ranks 1-4 */
        tiles[l] = l ? tiles[l / 5] + l % 5 : 0;
        FC_SU_POS[l] = (uint16_t)cnt[tiles[l]]++;
    }
    for (int m = 0; m < 2; m++) {
        int base = 0;
        for (int hi = 0; hi < 625; hi++) {
            int t = 13 + m - tiles[hi]; /* (tiles[hi]: its digits are those of ranks 1-4) */
            FC_SU_BASE[m][hi] = base;
            base += t >= 0 && t <= 20 ? cnt[t] : 0;
        }
        total[m] = base;
    }
    if (total[0] != FC_SU_N13 || total[1] != FC_SU_N14) return -2;
    FC_SU13 = (uint32_t *)calloc(FC_SU_N13, sizeof(uint32_t));
    FC_SU_COFF = (int32_t *)calloc(FC_SU_N14 + 1, sizeof(int32_t));
    FC_SU_CAND = (uint32_t *)malloc(FC_SU_NC * sizeof(uint32_t));
    FC_SU_PROG = (uint32_t *)malloc(FC_SU_NP * sizeof(uint32_t));
    FC_SU_READY = (uint32_t *)malloc(FC_SU_NR * sizeof(uint32_t));
    if (!FC_SU13 || !FC_SU_COFF || !FC_SU_CAND || !FC_SU_PROG || !FC_SU_READY) {
        free(FC_SU_READY);
        free(FC_SU13);
        free(FC_SU_COFF);
        free(FC_SU_CAND);
        free(FC_SU_PROG);
        return -1;
    }
    mj_hand_t h;
    uint8_t x[9] = {0};
    int32_t nr = 0, nc = 0;
    memset(&h, 0, sizeof h);
    h.form = MJ_FORM_ALL;
    h.sets = 4;
    fc_su_fill(&h, x, 0, 13, 0, 0, 0, &nr);
    fc_su_fill(&h, x, 0, 14, 0, 0, 0, &nc);
    return nr == FC_SU_NR && nc == FC_SU_NC && fc_su_progress(tiles) == FC_SU_NP ? 0 : -2;
}

/* Whether the row takes this pass: a flush without exchanges, objective "win", no melds, 4 sets
 * (and the suit tables built: else, out of memory, the graph serves). */
static inline int fc_suit_ok(const fc_work_t *w, const mj_hand_t *h) {
    return w->flush >= 0 && w->budget == 0 && w->job->objective == FC_OBJ_WIN && !h->m &&
           !h->meld_suits && h->sets == 4 && w->T >= 1 &&
           (mj_state_get(&fc_su_state) == MJ_STATE_READY || !mj_once(&fc_su_state, fc_su_build, -1, -2));
}

/* The fans of the ready suit hands' wins under one rules table, shared by the rows and threads
 * that use those rules (fc_fans_of): per suit and ready 13-tile pattern (its ready number), a
 * state word (the first thread to fill the entry claims it, then marks it ready) and each winning
 * rank's capped fan with the self-draw (FC_NO_FAN: not a win of the rules' scoring). 2.3 MB per
 * rules table, for the process; FC_FAN_SLOTS tables at most (other rules go without). */
#define FC_FAN_SLOTS 4
#define FC_NO_FAN (-128)
typedef struct {
    mj_state_t state;
    int8_t fan[9];
} fc_fan_t;

typedef struct fc_fans {
    mj_state_t state;
    int32_t rules[MF_R_SIZE];
    fc_fan_t *e; /* [3][FC_SU_NR] */
} fc_fans_t;

static fc_fans_t FC_FANS[FC_FAN_SLOTS];

/* The fan cache of the rules R: a ready one with the same table, else a new one, else NULL. */
static fc_fans_t *fc_fans_of(const int32_t *R) {
    for (int i = 0; i < FC_FAN_SLOTS; i++) {
        fc_fans_t *c = FC_FANS + i;
        int st = mj_state_get(&c->state);
        if (st == MJ_STATE_READY && !memcmp(c->rules, R, sizeof c->rules)) return c;
        if (st == MJ_STATE_NEW && mj_state_claim(&c->state)) {
            c->e = (fc_fan_t *)calloc(3 * (size_t)FC_SU_NR, sizeof(fc_fan_t));
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

#define FC_SU_NW ((size_t)FC_SU_W * FC_SU_W * FC_SU_NS)
#define FC_SU_NB ((size_t)FC_MAX_STARTS * FC_SU_W * (FC_MAX_DRAWS + 1))
/* The scratch's bytes (3.2 MB), counted in the row's buffers (fc_room). */
#define FC_SU_BYTES                                                                                 \
    ((int64_t)(sizeof(fc_suit_t) + FC_SU_NR * (sizeof(uint8_t) + sizeof(double)) + FC_SU_N14 * 2 +     \
               FC_MAX_STARTS * sizeof(fc_dead_ctx_t) + (2 * FC_SU_NW + 2 * FC_SU_NB) * sizeof(double) + \
               3 * (size_t)FC_SU_HALF * FC_SU_NS * sizeof(double)))

/* One scratch is kept for the next fc_run (its pages stay mapped, its sums zero), where atomics
 * are at hand; a scratch a failed row left unclean (its sums not zero) is freed instead. */
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
    const size_t nw = FC_SU_NW, nb = FC_SU_NB, nh = (size_t)FC_SU_HALF * FC_SU_NS;
    su = (fc_suit_t *)calloc(1, sizeof(fc_suit_t));
    if (!su) return FC_ERR_NOMEM;
    su->w8 = (uint8_t *)malloc(FC_SU_NR);
    su->pk = (uint16_t *)malloc(FC_SU_N14 * sizeof(uint16_t));
    su->pay = (double *)malloc(FC_SU_NR * sizeof(double));
    su->ctx = (fc_dead_ctx_t *)malloc(FC_MAX_STARTS * sizeof(fc_dead_ctx_t));
    su->W = (double *)calloc(nw, sizeof(double));
    su->WP = (double *)calloc(nw, sizeof(double));
    su->b = (double *)calloc(nb, sizeof(double));
    su->bp = (double *)calloc(nb, sizeof(double));
    for (int h = 0; h < 2; h++) su->hp[h] = (double *)malloc(nh * sizeof(double));
    su->hptmp = (double *)malloc(nh * sizeof(double));
    su->fans = fc_fans_of(w->job->rules);
    if (!su->hp[0] || !su->hp[1] || !su->hptmp || !su->w8 || !su->pk || !su->pay || !su->ctx ||
        !su->W || !su->WP || !su->b || !su->bp) {
        fc_suit_free(su);
        return FC_ERR_NOMEM;
    }
    w->su = su;
    return MJ_OK;
}

#endif
