/* mjfast core kernels: shanten, win test, waits, effective tiles and discards over 27-count hands.
 *
 * Plain C, no Python: the Cython layer (mjfast/_core/_kernels.pyx) loads the tables, checks
 * arrays and calls these functions on row ranges with the GIL released.
 *
 * Values: a hand's "distance" is min |C - H| over the winning hands C (RULES.md section 3), so
 * shanten = distance - 1. Per suit, the distance to k sets (+ a pair) comes from the class tables
 * built by mjfast/_core/tablegen.py; suits combine with min-plus tables. Kinds capped by a meld
 * (a pung leaves one free copy, a kong none) cannot use the tables, which assume 4 free copies: the
 * suits holding them go through an exact rank-by-rank DP instead (mj_capped_vector).
 */
#ifndef MJFAST_KERNELS_H
#define MJFAST_KERNELS_H

#include <stdint.h>
#include <string.h>

#define MJ_KINDS 27
#define MJ_UNWINNABLE 127
#define MJ_NOT_HELD (-128)
#define MJ_INVALID_ROW (-100)
#define MJ_INVALID_MASK 0xFFFFFFFFu
#define MJ_INF 100

enum { MJ_FORM_ALL = 0, MJ_FORM_REGULAR = 1, MJ_FORM_SEVEN_PAIRS = 2 };

/* What a row must hold: 13-3m or 14-3m concealed tiles, either, ... */
enum { MJ_SIZE_EITHER = 0, MJ_SIZE_WAITING = 1, MJ_SIZE_COMPLETE = 2 };

/* Row error codes (the Python layer words the message). */
enum {
    MJ_OK = 0,
    MJ_ERR_COUNT = 1,       /* tile, count: a count above 4 */
    MJ_ERR_MELD_VALUE = 2,  /* tile, value: a meld entry other than 0, 3, 4 */
    MJ_ERR_HELD = 3,        /* tile, held: concealed + meld above 4 */
    MJ_ERR_SIZE = 4,        /* melds, tiles: concealed size does not fit */
    MJ_ERR_VISIBLE = 5,     /* tile, held + visible above 4 */
    MJ_ERR_VOID = 6,        /* value: a void suit outside -1..2 */
};

typedef struct {
    const uint8_t *suit;   /* [5^9] class of a full suit */
    const int8_t *vec;     /* [NF][10] distance to k sets (col 2k) or k sets + pair (2k+1) */
    const uint8_t *pair;   /* [NF][NF] class of two full suits combined */
    const int8_t *two;     /* [NF][NF][5] distance of two suits to 4-m sets + pair */
    const int8_t *final;   /* [NP][NF][5] distance of three suits to 4-m sets + pair */
    const uint16_t *wmask; /* [5^9] bits 0-8: ranks whose addition completes the suit; bit 9: complete */
    int n_full;            /* classes of full suits (rows of pair / two) */
} mj_tables_t;

static mj_tables_t MJ;

static const int32_t MJ_POW[9] = {390625, 78125, 15625, 3125, 625, 125, 25, 5, 1};

static inline int32_t mj_index9(const uint8_t *c) {
    return ((((((((int32_t)c[0] * 5 + c[1]) * 5 + c[2]) * 5 + c[3]) * 5 + c[4]) * 5 + c[5]) * 5 +
             c[6]) * 5 + c[7]) * 5 + c[8];
}

/* ---- table construction at import ------------------------------------------------------ */

/* Is the suit pattern (by class and tile count) already a complete set of sets (+ the pair)? */
static inline int mj_complete_class(int cls, int n) {
    int r = n % 3;
    if (r == 1) return 0;
    return MJ.vec[cls * 10 + 2 * (n / 3) + (r == 2)] == 0;
}

/* Fill wmask from the suit classes: one pass in index order with an odometer of the digits. */
static void mj_build_wmask(uint16_t *wmask) {
    uint8_t d[9] = {0};
    int n = 0;
    for (int32_t i = 0; i < 1953125; i++) {
        uint16_t m = 0;
        if (n <= 14) {
            if (mj_complete_class(MJ.suit[i], n)) m |= 1u << 9;
            if (n <= 13) {
                for (int r = 0; r < 9; r++) {
                    if (d[r] < 4 && mj_complete_class(MJ.suit[i + MJ_POW[r]], n + 1)) m |= 1u << r;
                }
            }
        }
        wmask[i] = m;
        for (int r = 8; r >= 0; r--) { /* odometer: rank 8 is the least significant digit */
            if (d[r] < 4) { d[r]++; n++; break; }
            n -= 4;
            d[r] = 0;
        }
    }
}

/* ---- per-suit distance vectors --------------------------------------------------------- */

/* Exact distance vector of one suit whose kinds may be capped below 4 free copies.
 * DP over ranks; state (a, b) = runs started at r-2 and r-1 still needing rank r; value = most
 * tiles of the target found in the hand, per (sets, pair). */
static void mj_capped_vector(const uint8_t *c, const uint8_t *cap, int8_t out[10]) {
    int8_t best[5][5][10], next[5][5][10];
    memset(best, -1, sizeof best);
    best[0][0][0] = 0;
    for (int r = 0; r < 9; r++) {
        memset(next, -1, sizeof next);
        int cr = c[r], capr = cap[r];
        for (int a = 0; a <= 4; a++) {
            for (int b = 0; a + b <= 4; b++) {
                const int8_t *cur = best[a][b];
                int any = 0;
                for (int j = 0; j < 10; j++) any |= cur[j] >= 0;
                if (!any) continue;
                int smax = r <= 6 ? 4 - a - b : 0;
                for (int s = 0; s <= smax; s++) {
                    for (int t = 0; t <= 1; t++) {
                        for (int q = 0; q <= 1; q++) {
                            int used = a + b + s + 3 * t + 2 * q;
                            if (used > capr) continue;
                            int gain = used < cr ? used : cr;
                            int8_t *dst = next[b][s];
                            for (int k = 0; k + s + t <= 4; k++) {
                                for (int p = 0; p + q <= 1; p++) {
                                    int v = cur[2 * k + p];
                                    if (v < 0) continue;
                                    v += gain;
                                    int col = 2 * (k + s + t) + p + q;
                                    if (v > dst[col]) dst[col] = (int8_t)v;
                                }
                            }
                        }
                    }
                }
            }
        }
        memcpy(best, next, sizeof best);
    }
    /* runs must be closed after rank 9: only state (0, 0) counts */
    for (int k = 0; k <= 4; k++)
        for (int p = 0; p <= 1; p++) {
            int v = best[0][0][2 * k + p];
            out[2 * k + p] = (int8_t)(v < 0 ? MJ_INF : 3 * k + 2 * p - v);
        }
}

/* Distance of two suit vectors to K sets + pair; of three. */
static inline int mj_comb2(const int8_t *x, const int8_t *y, int K) {
    int best = MJ_INF;
    for (int k = 0; k <= K; k++) {
        int v1 = x[2 * k + 1] + y[2 * (K - k)];
        int v2 = x[2 * k] + y[2 * (K - k) + 1];
        if (v1 < best) best = v1;
        if (v2 < best) best = v2;
    }
    return best;
}

static inline int mj_comb3(const int8_t *x, const int8_t *y, const int8_t *z, int K) {
    int8_t xy[10];
    for (int k = 0; k <= 4; k++) {
        for (int p = 0; p <= 1; p++) {
            int best = MJ_INF;
            for (int i = 0; i <= k; i++) {
                for (int pi = 0; pi <= p; pi++) {
                    int v = x[2 * i + pi] + y[2 * (k - i) + p - pi];
                    if (v < best) best = v;
                }
            }
            xy[2 * k + p] = (int8_t)(best > MJ_INF ? MJ_INF : best);
        }
    }
    int v = mj_comb2(xy, z, K);
    return v < MJ_INF ? v : MJ_INF;
}

/* ---- one hand -------------------------------------------------------------------------- */

/* What the kernels know of one hand; probes change one suit and recompute. */
typedef struct {
    uint8_t c[27];      /* concealed counts */
    uint8_t cap[27];    /* free copies per kind: 4 - meld tiles */
    int32_t idx[3];     /* base-5 index per suit */
    int n[3];           /* tiles per suit */
    int odd[3];         /* kinds held an odd number of times, per suit */
    int m;              /* melds */
    int meld_suits;     /* bit per suit holding a meld */
    int capped;         /* bit per suit holding a capped kind (= meld_suits) */
    int live_q;         /* bit q set: suit q may be the void suit (void rule); 0 = never wins */
    int void_rule;
    int form;
    int8_t v[3][10];    /* distance vectors of capped suits */
} mj_hand_t;

static inline void mj_suit_stats(mj_hand_t *h, int s) {
    const uint8_t *c = h->c + 9 * s;
    int n = 0, odd = 0;
    for (int r = 0; r < 9; r++) {
        n += c[r];
        odd += c[r] & 1;
    }
    h->n[s] = n;
    h->odd[s] = odd;
    h->idx[s] = mj_index9(c);
    if (h->capped >> s & 1) mj_capped_vector(c, h->cap + 9 * s, h->v[s]);
}

/* Validate a row and fill h. melds may be NULL. Returns an MJ_ERR_* code, details in err[1..2]. */
static inline int mj_load(mj_hand_t *h, const uint8_t *hand, const uint8_t *melds, int void_suit,
                          int void_rule, int form, int size_rule, int32_t *err) {
    int m = 0, meld_suits = 0, total = 0;
    for (int t = 0; t < 27; t++) {
        int x = hand[t];
        if (x > 4) { err[1] = t; err[2] = x; return MJ_ERR_COUNT; }
        total += x;
        h->c[t] = (uint8_t)x;
    }
    if (melds) {
        for (int t = 0; t < 27; t++) {
            int y = melds[t];
            if (y) {
                if (y != 3 && y != 4) { err[1] = t; err[2] = y; return MJ_ERR_MELD_VALUE; }
                if (hand[t] + y > 4) { err[1] = t; err[2] = hand[t] + y; return MJ_ERR_HELD; }
                m++;
                meld_suits |= 1 << (t / 9);
            }
            h->cap[t] = (uint8_t)(4 - y);
        }
    } else {
        memset(h->cap, 4, 27);
    }
    int waiting = 13 - 3 * m, complete = 14 - 3 * m;
    int ok = m <= 4 && (size_rule == MJ_SIZE_WAITING ? total == waiting
                        : size_rule == MJ_SIZE_COMPLETE ? total == complete
                        : (total == waiting || total == complete));
    if (!ok) { err[1] = m; err[2] = total; return MJ_ERR_SIZE; }
    if (void_suit < -1 || void_suit > 2) { err[1] = void_suit; err[2] = 0; return MJ_ERR_VOID; }
    h->m = m;
    h->meld_suits = meld_suits;
    h->capped = meld_suits;
    h->void_rule = void_rule;
    h->form = form;
    if (void_rule) {
        int q = void_suit >= 0 ? 1 << void_suit : 7;
        h->live_q = q & ~meld_suits & 7;
    } else {
        h->live_q = 7;
    }
    for (int s = 0; s < 3; s++) mj_suit_stats(h, s);
    return MJ_OK;
}

static inline const int8_t *mj_vec(const mj_hand_t *h, int s, int32_t idx) {
    return (h->capped >> s & 1) ? h->v[s] : MJ.vec + 10 * MJ.suit[idx];
}

/* Seven-pairs distance with live suits given by a bit mask. */
static inline int mj_seven(const int *n, const int *odd, int live) {
    int pairs = 0, singles = 0;
    for (int s = 0; s < 3; s++) {
        if (live >> s & 1) {
            pairs += (n[s] - odd[s]) >> 1;
            singles += odd[s];
        }
    }
    int need = 7 - (pairs < 7 ? pairs : 7);
    return need <= singles ? need : singles + 2 * (need - singles);
}

/* Distance of the hand whose suit indices / stats are given (one suit may differ from h). */
static inline int mj_distance_with(const mj_hand_t *h, const int32_t *idx, const int *n,
                                   const int *odd) {
    int best = MJ_INF;
    int K = 4 - h->m;
    int regular = h->form != MJ_FORM_SEVEN_PAIRS;
    int seven = h->form != MJ_FORM_REGULAR && h->m == 0;
    if (!h->void_rule) {
        if (regular) {
            if (!h->capped) {
                best = MJ.final[((int)MJ.pair[MJ.suit[idx[0]] * MJ.n_full + MJ.suit[idx[1]]] *
                                     MJ.n_full + MJ.suit[idx[2]]) * 5 + h->m];
            } else {
                best = mj_comb3(mj_vec(h, 0, idx[0]), mj_vec(h, 1, idx[1]), mj_vec(h, 2, idx[2]), K);
            }
        }
        if (seven) {
            int v = mj_seven(n, odd, 7);
            if (v < best) best = v;
        }
        return best;
    }
    for (int q = 0; q < 3; q++) {
        if (!(h->live_q >> q & 1)) continue;
        int a = q == 0 ? 1 : 0, b = q == 2 ? 1 : 2;
        if (regular) {
            int v;
            if (!h->capped) {
                v = MJ.two[((int)MJ.suit[idx[a]] * MJ.n_full + MJ.suit[idx[b]]) * 5 + h->m];
            } else {
                v = mj_comb2(mj_vec(h, a, idx[a]), mj_vec(h, b, idx[b]), K);
            }
            if (v < best) best = v;
        }
        if (seven) {
            int v = mj_seven(n, odd, 7 & ~(1 << q));
            if (v < best) best = v;
        }
    }
    return best;
}

static inline int mj_distance(const mj_hand_t *h) { return mj_distance_with(h, h->idx, h->n, h->odd); }

static inline int mj_shanten_of(int distance) {
    return distance >= MJ_INF ? MJ_UNWINNABLE : distance - 1;
}

/* Distance after adding (delta = +1) or removing (delta = -1) one tile of kind t. */
static inline int mj_probe(mj_hand_t *h, int t, int delta) {
    int s = t / 9, r = t % 9;
    int32_t idx[3] = {h->idx[0], h->idx[1], h->idx[2]};
    int n[3] = {h->n[0], h->n[1], h->n[2]};
    int odd[3] = {h->odd[0], h->odd[1], h->odd[2]};
    idx[s] += delta * MJ_POW[r];
    n[s] += delta;
    odd[s] += (h->c[t] & 1) ? -1 : 1;
    if (h->capped >> s & 1) {
        int8_t saved[10];
        memcpy(saved, h->v[s], 10);
        h->c[t] = (uint8_t)(h->c[t] + delta);
        mj_capped_vector(h->c + 9 * s, h->cap + 9 * s, h->v[s]);
        int d = mj_distance_with(h, idx, n, odd);
        h->c[t] = (uint8_t)(h->c[t] - delta);
        memcpy(h->v[s], saved, 10);
        return d;
    }
    return mj_distance_with(h, idx, n, odd);
}

/* Suits present in the hand (concealed or melded). */
static inline int mj_suits_present(const mj_hand_t *h) {
    return (h->n[0] > 0) | (h->n[1] > 0) << 1 | (h->n[2] > 0) << 2 | h->meld_suits;
}

/* Does the void rule let a hand holding these suits win? */
static inline int mj_void_ok(const mj_hand_t *h, int suits, int void_suit) {
    if (!h->void_rule) return 1;
    if (suits == 7) return 0;
    return void_suit < 0 || !(suits >> void_suit & 1);
}

static inline int mj_is_win(const mj_hand_t *h, int void_suit) {
    if (h->n[0] + h->n[1] + h->n[2] != 14 - 3 * h->m) return 0; /* a waiting hand is not complete */
    if (!mj_void_ok(h, mj_suits_present(h), void_suit)) return 0;
    int regular = 1;
    for (int s = 0; s < 3; s++) regular &= MJ.wmask[h->idx[s]] >> 9 & 1;
    if (regular) return 1;
    if (h->m) return 0;
    return h->odd[0] + h->odd[1] + h->odd[2] == 0;
}

/* 27-bit mask of the kinds that complete a 13-3m hand. */
static inline uint32_t mj_waits(const mj_hand_t *h, int void_suit) {
    uint16_t w[3] = {MJ.wmask[h->idx[0]], MJ.wmask[h->idx[1]], MJ.wmask[h->idx[2]]};
    int present = mj_suits_present(h);
    uint32_t mask = 0;
    for (int s = 0; s < 3; s++) {
        int o1 = (s + 1) % 3, o2 = (s + 2) % 3;
        if (!((w[o1] >> 9) & (w[o2] >> 9) & 1)) continue;
        if (!mj_void_ok(h, present | 1 << s, void_suit)) continue;
        mask |= (uint32_t)(w[s] & 0x1FF) << (9 * s);
    }
    if (h->m == 0 && h->odd[0] + h->odd[1] + h->odd[2] == 1) {
        int pairs = 0;
        for (int s = 0; s < 3; s++) pairs += (h->n[s] - h->odd[s]) >> 1;
        if (pairs == 6) {
            for (int t = 0; t < 27; t++) {
                if ((h->c[t] & 1) && mj_void_ok(h, present | 1 << (t / 9), void_suit)) mask |= 1u << t;
            }
        }
    }
    for (int t = 0; t < 27; t++) {
        if (h->c[t] + 4 - h->cap[t] >= 4) mask &= ~(1u << t);
    }
    return mask;
}

/* held copies (concealed + melds) */
static inline int mj_held(const mj_hand_t *h, int t) { return h->c[t] + 4 - h->cap[t]; }

/* Effective tiles of a 13-3m hand: -1, or copies left. visible may be NULL. */
static inline void mj_effective(mj_hand_t *h, const uint8_t *visible, int8_t *out) {
    int base = mj_distance(h);
    for (int t = 0; t < 27; t++) {
        int held = mj_held(h, t);
        int8_t v = -1;
        if (held < 4 && base < MJ_INF && mj_probe(h, t, +1) < base) {
            int left = 4 - held - (visible ? visible[t] : 0);
            v = (int8_t)(left > 0 ? left : 0);
        }
        out[t] = v;
    }
}

/* Shanten after discarding each kind from a 14-3m hand (-128 where not held). */
static inline void mj_discards(mj_hand_t *h, int8_t *out) {
    for (int t = 0; t < 27; t++) {
        out[t] = h->c[t] ? (int8_t)mj_shanten_of(mj_probe(h, t, -1)) : (int8_t)MJ_NOT_HELD;
    }
}

/* ---- row drivers ----------------------------------------------------------------------- */

enum { MJ_OP_SHANTEN = 0, MJ_OP_IS_WIN = 1, MJ_OP_WAITS = 2, MJ_OP_EFFECTIVE = 3, MJ_OP_DISCARDS = 4 };

/* One batch call. Optional arrays are NULL; a stride of 0 broadcasts one row to all. */
typedef struct {
    int op, form, void_rule, coerce;
    const uint8_t *hands;      /* [n][27] */
    const uint8_t *melds;      /* [n][27] meld tiles per kind (0, 3, 4), stride melds_stride */
    int64_t melds_stride;
    const int8_t *voids;       /* [n] declared void (-1 none), or NULL: void_scalar for all */
    int void_scalar;
    const uint8_t *visible;    /* [n][27] copies seen elsewhere, stride visible_stride */
    int64_t visible_stride;
    void *out;                 /* int8 [n], uint8 [n], uint32 [n] or int8 [n][27] by op */
    int32_t err[3];            /* first bad row: code, detail, detail */
} mj_job_t;

static inline int mj_size_rule(int op) {
    return (op == MJ_OP_SHANTEN || op == MJ_OP_IS_WIN) ? MJ_SIZE_EITHER
         : op == MJ_OP_DISCARDS ? MJ_SIZE_COMPLETE : MJ_SIZE_WAITING;
}

/* Check visible counts against the hand: a kind cannot be seen more often than it exists. */
static inline int mj_check_visible(const mj_hand_t *h, const uint8_t *visible, int32_t *err) {
    for (int t = 0; t < 27; t++) {
        if (mj_held(h, t) + visible[t] > 4) {
            err[1] = t;
            err[2] = mj_held(h, t) + visible[t];
            return MJ_ERR_VISIBLE;
        }
    }
    return MJ_OK;
}

static inline void mj_write_invalid(mj_job_t *job, int64_t i) {
    switch (job->op) {
    case MJ_OP_SHANTEN: ((int8_t *)job->out)[i] = MJ_INVALID_ROW; break;
    case MJ_OP_IS_WIN: ((uint8_t *)job->out)[i] = 0; break;
    case MJ_OP_WAITS: ((uint32_t *)job->out)[i] = MJ_INVALID_MASK; break;
    default: memset((int8_t *)job->out + 27 * i, MJ_INVALID_ROW, 27); break;
    }
}

/* Run rows [start, end). Returns the first bad row (details in job->err), or -1. Without
 * coerce it stops there; with coerce the bad rows get the sentinel and the run goes on. */
static int64_t mj_run(mj_job_t *job, int64_t start, int64_t end) {
    int64_t first_bad = -1;
    int size_rule = mj_size_rule(job->op);
    mj_hand_t h;
    int32_t err[3];
    for (int64_t i = start; i < end; i++) {
        int void_suit = job->voids ? job->voids[i] : job->void_scalar;
        const uint8_t *melds = job->melds ? job->melds + job->melds_stride * i : NULL;
        const uint8_t *visible = job->visible ? job->visible + job->visible_stride * i : NULL;
        int code = mj_load(&h, job->hands + 27 * i, melds, void_suit, job->void_rule, job->form,
                           size_rule, err);
        if (code == MJ_OK && visible) code = mj_check_visible(&h, visible, err);
        if (code != MJ_OK) {
            if (first_bad < 0) {
                first_bad = i;
                job->err[0] = code;
                job->err[1] = err[1];
                job->err[2] = err[2];
            }
            if (!job->coerce) return first_bad;
            mj_write_invalid(job, i);
            continue;
        }
        switch (job->op) {
        case MJ_OP_SHANTEN: ((int8_t *)job->out)[i] = (int8_t)mj_shanten_of(mj_distance(&h)); break;
        case MJ_OP_IS_WIN: ((uint8_t *)job->out)[i] = (uint8_t)mj_is_win(&h, void_suit); break;
        case MJ_OP_WAITS: ((uint32_t *)job->out)[i] = mj_waits(&h, void_suit); break;
        case MJ_OP_EFFECTIVE: mj_effective(&h, visible, (int8_t *)job->out + 27 * i); break;
        default: mj_discards(&h, (int8_t *)job->out + 27 * i); break;
        }
    }
    return first_bad;
}

#endif
