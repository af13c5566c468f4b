/* mjfast core kernels: shanten, win test, waits, effective tiles and discards over 27-count hands.
 *
 * Plain C, no Python: mj_init (mjfast_api.c) builds the tables; the Cython layer
 * (mjfast/_core/_kernels.pxi) checks arrays and calls these functions on row ranges with the GIL released.
 *
 * Values: a hand's "distance" is min |C - H| over the winning hands C (RULES.md section 3), so
 * shanten = distance - 1. Per suit, the distance to k sets (+ a pair) comes from the class tables
 * built by tools/tablegen.py; suits combine with min-plus tables. Kinds capped by a meld
 * (a pung leaves one free copy, a kong none) cannot use the tables, which assume 4 free copies: the
 * suits holding them go through an exact rank-by-rank DP instead (mj_capped_vector).
 *
 * Short hands (RULES.md 7: `sets` = 3 or 2 at the 5- and 6-player tables) aim at sets - m sets:
 * the suits' distance vectors (which hold 0-4 sets) are combined for that many with
 * mj_comb2 / mj_comb3, while the precomputed two / final tables (4 sets) keep the default path
 * as it was. Seven pairs needs 14 tiles, so it exists only with 4 sets.
 */
#ifndef MJFAST_KERNELS_H
#define MJFAST_KERNELS_H

#include "mjfast_row.h" /* mj_hand_t, mj_load, MJ_POW, MJ_ERR_*, MJ_FORM_* */
#include "mjfast_simd.h" /* mj_row_words*, mj_row_check, mj_index*, MJ_SSE2, MJ_SSSE3, MJ_AVX2 */

#define MJ_UNWINNABLE 127
#define MJ_NOT_HELD (-128)
#define MJ_INVALID_ROW (-100)
#define MJ_INVALID_MASK 0xFFFFFFFFu
#define MJ_INF 100

static inline int mj_shanten_of(int distance) {
    return distance >= MJ_INF ? MJ_UNWINNABLE : distance - 1;
}

typedef struct {
    const uint8_t *left;   /* [125] class of ranks 1-3 */
    const uint8_t *right;  /* [15625] class of ranks 4-9: uint16 little-endian, unaligned */
    const uint8_t *lr;     /* [n_left][n_right] suit class from the two (tools/tablegen.py) */
    const uint8_t *full;   /* [5^9] suit class, expanded from the split tables at import;
                              MJ_GUARD bytes of class 0 readable before it (as void_full) */
    const int8_t *vec;     /* [NF][10] distance to k sets (col 2k) or k sets + pair (2k+1) */
    const uint8_t *pair;   /* [NF][NF] class of two full suits combined */
    const int8_t *two;     /* [NF][NF] distance of two meld-free suits to 4 sets + pair */
    const int8_t *final;   /* [NP][NF] distance of three meld-free suits to 4 sets + pair */
    const uint16_t *wmask; /* [5^9] bits 0-8: ranks whose addition completes the suit; bit 9:
                            * complete; bits 10-11: kinds held an odd number of times (3 for 3 or
                            * more); bits 12-15: the rank of the one such kind (0 unless one) */
    const uint8_t *void_class; /* [NF][8][8] void class of (class, pairs, singles), both capped at 7 */
    const uint8_t *void_full;  /* [5^9] void class per suit index, expanded at import */
    const int8_t *void_two;    /* [256][256] distance of two meld-free suits to 4 sets + pair, any form */
    const uint8_t *void_pair;  /* [256][256] class of suits 0 and 1's void classes, for void_last */
    const int8_t *void_last;   /* [256][256] shanten of a meld-free 13- or 14-tile hand under the
                                  void rule, any form, by void_pair's class and suit 2's void class */
    const int8_t *final_shanten; /* [NP][NF] final as shanten (mj_shanten_of) */
    int n_full;            /* suit classes (rows of pair / two) */
    int n_right;
    int isa;               /* mj_isa_level(): MJ_ISA_* */
} mj_tables_t;

static mj_tables_t MJ;

/* The bytes readable before MJ.full and MJ.void_full (5^8, the largest step of a suit index): a
 * discard probe of a kind not held reads its class there or at another index, without a mask,
 * and the caller drops that lane. */
#define MJ_GUARD 390625

/* Class of a suit pattern of at most 14 tiles (other indices hold an arbitrary class). */
static inline int mj_class(int32_t idx) { return MJ.full[idx]; }

/* ---- per-suit distance vectors --------------------------------------------------------- */

/* Exact distance vector of one suit whose kinds may be capped below 4 free copies, for up to
 * `sets` sets (the columns of more sets get MJ_INF: callers that need fewer save the work).
 * DP over ranks; state (a, b) = runs started at r-2 and r-1 still needing rank r; value = most
 * tiles of the target found in the hand, per (sets, pair). Runs are counted as sets when they
 * start, so a state never has more runs open than `sets`; only the states reached are visited.
 *
 * A state's values are two words, without and with the pair, byte k for k sets (SWAR: a new set
 * shifts a word by one byte, a pair moves the first word into the second). A value v is stored
 * as 64 + v; bytes below 64 hold no value (they stay below 64 whatever is added: at most 4 a
 * rank), so a shift brings in "no value" and every byte stays below 128 for the byte-wise max. */
typedef struct {
    uint64_t w[2];
} mj_dp_cell_t;

#define MJ_DP_ONES 0x0101010101ULL  /* bytes 0-4: 0-4 sets */
#define MJ_DP_HIGH 0x8080808080ULL

static inline uint64_t mj_dp_max(uint64_t x, uint64_t y) {
    uint64_t ge = (((x | MJ_DP_HIGH) - y) & MJ_DP_HIGH) >> 7; /* 1 in the bytes where x >= y */
    uint64_t m = ge * 0xFF;
    return (x & m) | (y & ~m);
}

static MJ_ALWAYS_INLINE void mj_capped_vector_as(const uint8_t *c, const uint8_t *cap,
                                                  const int sets, int8_t out[10]) {
    mj_dp_cell_t buf[2][5][5];
    mj_dp_cell_t (*best)[5] = buf[0], (*next)[5] = buf[1];
    uint32_t live = 1; /* bit 5a + b: state (a, b) holds a value */
    best[0][0].w[0] = 64;
    best[0][0].w[1] = 0;
    for (int r = 0; r < 9; r++) {
        uint32_t reached = 0;
        int cr = c[r], capr = cap[r];
        memset(next, 0, sizeof buf[1]);
        for (int a = 0; a <= sets; a++) {
            for (int b = 0; a + b <= sets; b++) {
                if (!(live >> (5 * a + b) & 1)) continue;
                const uint64_t x0 = best[a][b].w[0], x1 = best[a][b].w[1];
                int smax = r <= 6 ? sets - a - b : 0;
                for (int s = 0; s <= smax; s++) {
                    mj_dp_cell_t *dst = &next[b][s];
                    for (int t = 0; t <= 1 && s + t <= sets; t++) {
                        int used = a + b + s + 3 * t, shift = 8 * (s + t);
                        if (used > capr) break;
                        reached |= 1u << (5 * b + s);
                        uint64_t g = (uint64_t)(used < cr ? used : cr) * MJ_DP_ONES;
                        uint64_t y0 = ((x0 << shift) & (MJ_DP_ONES * 0xFF)) + g;
                        uint64_t y1 = ((x1 << shift) & (MJ_DP_ONES * 0xFF)) + g;
                        dst->w[0] = mj_dp_max(dst->w[0], y0);
                        if (used + 2 <= capr) { /* the pair here too */
                            uint64_t g2 = (uint64_t)(used + 2 < cr ? used + 2 : cr) * MJ_DP_ONES;
                            y1 = mj_dp_max(y1, ((x0 << shift) & (MJ_DP_ONES * 0xFF)) + g2);
                        }
                        dst->w[1] = mj_dp_max(dst->w[1], y1);
                    }
                }
            }
        }
        mj_dp_cell_t (*swap)[5] = best;
        best = next;
        next = swap;
        live = reached;
    }
    /* runs must be closed after rank 9: only state (0, 0) counts */
    for (int k = 0; k <= 4; k++)
        for (int p = 0; p <= 1; p++) {
            int v = (live & 1) && k <= sets ? (int)(best[0][0].w[p] >> (8 * k) & 0xFF) - 64 : -1;
            out[2 * k + p] = (int8_t)(v < 0 ? MJ_INF : 3 * k + 2 * p - v);
        }
}

/* The same with `sets` a constant in each case, so that the loops unroll. */
static void mj_capped_vector_k(const uint8_t *c, const uint8_t *cap, int sets, int8_t out[10]) {
    switch (sets) {
    case 0: mj_capped_vector_as(c, cap, 0, out); break;
    case 1: mj_capped_vector_as(c, cap, 1, out); break;
    case 2: mj_capped_vector_as(c, cap, 2, out); break;
    case 3: mj_capped_vector_as(c, cap, 3, out); break;
    default: mj_capped_vector_as(c, cap, 4, out); break;
    }
}

/* The whole vector (0-4 sets). */
static void mj_capped_vector(const uint8_t *c, const uint8_t *cap, int8_t out[10]) {
    mj_capped_vector_k(c, cap, 4, out);
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

/* Tiles in a row of 27 counts of at most 4 each (one multiply: byte sums stay below 256). */
static inline int mj_row_tiles(const mj_row_t *row) {
#if MJ_SWAR
    uint64_t sum = (row->x[0] + row->x[1] + row->x[2]) * 0x0101010101010101ULL;
    return (int)(sum >> 56) + (int)(row->b[0] + row->b[1] + row->b[2]);
#else
    int n = 0;
    for (int t = 0; t < 27; t++) n += row->c[t];
    return n;
#endif
}

/* Nonzero unless every count of the row is at most 4 and it holds lo..hi tiles (hi <= 14): the
 * check of the meld-free fast paths. With SWAR the counts are first tested together: every
 * count is at most 4 when the bytes of the OR of the words (the rank-9 counts in byte 0) are,
 * and the OR is above 4 only where a 4 meets a 1-3 at the same place, rare. Only then each word
 * is tested; a total of at most 14 leaves each rank-9 count below 15, where b + 0x7B sets bit 7
 * exactly when b > 4, so the rank-9 counts join the words' byte test. */
static MJ_ALWAYS_INLINE int mj_row_bad(const mj_row_t *row, const int lo, const int hi) {
    int total = mj_row_tiles(row);
    int bad_size = (unsigned)(total - lo) > (unsigned)(hi - lo);
#if MJ_SWAR
    const uint64_t K = 0x7B * MJ_ONES8, H = 0x80 * MJ_ONES8;
    uint64_t x0 = row->x[0], x1 = row->x[1], x2 = row->x[2];
    uint64_t u = x0 | x1 | x2 | row->b[0] | row->b[1] | row->b[2];
    if (MJ_LIKELY(((u | (u + K)) & H) == 0)) return bad_size;
    uint64_t w = (x0 | x1 | x2) | (x0 + K) | (x1 + K) | (x2 + K) |
                 ((row->b[0] + 0x7Bu) | (row->b[1] + 0x7Bu) | (row->b[2] + 0x7Bu));
    return ((w & H) != 0) | bad_size;
#else
    int bad = 0;
    for (int t = 0; t < 27; t++) bad |= row->c[t] > 4;
    return bad | bad_size;
#endif
}

/* Pairs in a row (a kind held 2-3 times holds one, 4 times two), capped at 7. */
static inline int mj_row_pairs(const mj_row_t *row) {
#if MJ_SWAR
    const uint64_t TWOS = 0x0303030303030303ULL;
    uint64_t p = ((row->x[0] >> 1) & TWOS) + ((row->x[1] >> 1) & TWOS) + ((row->x[2] >> 1) & TWOS);
    int pairs = (int)((p * 0x0101010101010101ULL) >> 56) +
                (int)((row->b[0] >> 1) + (row->b[1] >> 1) + (row->b[2] >> 1));
#else
    int pairs = 0;
    for (int t = 0; t < 27; t++) pairs += row->c[t] >> 1;
#endif
    return pairs < 7 ? pairs : 7;
}

static inline void mj_caps(const mj_hand_t *h, int s, uint8_t *cap) {
    for (int r = 0; r < 9; r++) cap[r] = (uint8_t)(4 - h->melds[9 * s + r]);
}

/* Classes (and the exact vectors of capped suits), needed by the distance. */
static inline void mj_classes(mj_hand_t *h) {
    for (int s = 0; s < 3; s++) {
        h->k[s] = mj_class(h->idx[s]);
        if (h->meld_suits >> s & 1) {
            uint8_t cap[9];
            mj_caps(h, s, cap);
            mj_capped_vector(h->c + 9 * s, cap, h->v[s]);
        }
    }
}

/* Seven-pairs distance from the pairs and singles (odd kinds) of the live suits. */
static inline int mj_seven_of(int pairs, int singles) {
    int need = 7 - (pairs < 7 ? pairs : 7), short_of = need - singles; /* singles to draw twice */
    return need + (short_of > 0 ? short_of : 0);
}

/* Seven-pairs distance when suit q is the void one (q = -1: every suit live). */
static inline int mj_seven(const int *n, const int *odd, int q) {
    int pairs = 0, singles = 0;
    for (int s = 0; s < 3; s++) {
        if (s != q) {
            pairs += (n[s] - odd[s]) >> 1;
            singles += odd[s];
        }
    }
    return mj_seven_of(pairs, singles);
}

/* Regular-form distance of meld-free suits of classes k when suit q is the void one (q = -1: no
 * void rule): one lookup in the combiner tables. */
static MJ_ALWAYS_INLINE int mj_plain_regular(const int *k, int q) {
    int nf = MJ.n_full;
    if (q < 0) return MJ.final[(int)MJ.pair[k[0] * nf + k[1]] * nf + k[2]];
    int a = q == 0 ? 1 : 0, b = q == 2 ? 1 : 2;
    return MJ.two[k[a] * nf + k[b]];
}

/* Regular distance of meld-free suits of classes k: with the void rule, the declared void suit
 * (void_suit >= 0) or the best of the three. */
static MJ_ALWAYS_INLINE int mj_plain_best(const int *k, int void_rule, int void_suit) {
    if (!void_rule) return mj_plain_regular(k, -1);
    if (void_suit >= 0) return mj_plain_regular(k, void_suit);
    int d0 = mj_plain_regular(k, 0), d1 = mj_plain_regular(k, 1), d2 = mj_plain_regular(k, 2);
    int best = d0 < d1 ? d0 : d1;
    return d2 < best ? d2 : best;
}

/* Seven-pairs distance of a meld-free hand, as mj_plain_best for the regular form. */
static inline int mj_plain_seven(const int *n, const int *odd, int void_rule, int void_suit) {
    if (!void_rule) return mj_seven(n, odd, -1);
    if (void_suit >= 0) return mj_seven(n, odd, void_suit);
    int d0 = mj_seven(n, odd, 0), d1 = mj_seven(n, odd, 1), d2 = mj_seven(n, odd, 2);
    int best = d0 < d1 ? d0 : d1;
    return d2 < best ? d2 : best;
}

/* The row of void_two for a suit of void class v: its distances with each void class of the
 * other live suit. */
static MJ_ALWAYS_INLINE const int8_t *mj_void_row(int v) {
    return MJ.void_two + ((size_t)(unsigned)v << 8);
}

/* Distance of a meld-free hand under the void rule with suit void_suit (0-2) void, every form:
 * the void_two entry of the other two suits' void classes (which fold seven pairs' pairs and
 * singles into the class) of suit indices i0..i2. Patterns of more than 14 tiles hold an
 * arbitrary void class, like mj_class. Never MJ_INF: seven pairs in two live suits is at most
 * 14 tiles away. (No void declared: mj_fast_shanten's void-pair tables.) */
static MJ_ALWAYS_INLINE int mj_plain_void(uint64_t i0, uint64_t i1, uint64_t i2, int void_suit) {
    const uint8_t *vf = MJ.void_full;
    size_t a = vf[void_suit == 0 ? i1 : i0], b = vf[void_suit == 2 ? i1 : i2];
    return mj_void_row((int)a)[b];
}
/* Regular + seven-pairs distance when suit q is the void one (q = -1: no void rule), for suit
 * classes k (capped suits: the vectors in v). The combiner tables hold 4 sets: short hands
 * (sets < 4) combine the suits' distance vectors for their sets - m instead, and have no seven
 * pairs (14 tiles). */
static inline int mj_distance_q(const mj_hand_t *h, const int *k, const int *n, const int *odd,
                                int8_t (*v)[10], int q) {
    int best = MJ_INF;
    if (h->form != MJ_FORM_SEVEN_PAIRS) {
        if (!h->meld_suits && h->sets == 4) {
            best = mj_plain_regular(k, q);
        } else if (q < 0) {
            const int8_t *x[3];
            for (int s = 0; s < 3; s++) x[s] = (h->meld_suits >> s & 1) ? v[s] : MJ.vec + 10 * k[s];
            best = mj_comb3(x[0], x[1], x[2], h->sets - h->m);
        } else {
            int a = q == 0 ? 1 : 0, b = q == 2 ? 1 : 2;
            const int8_t *xa = (h->meld_suits >> a & 1) ? v[a] : MJ.vec + 10 * k[a];
            const int8_t *xb = (h->meld_suits >> b & 1) ? v[b] : MJ.vec + 10 * k[b];
            best = mj_comb2(xa, xb, h->sets - h->m);
        }
    }
    if (h->form != MJ_FORM_REGULAR && h->m == 0 && h->sets == 4) {
        int sv = mj_seven(n, odd, q);
        if (sv < best) best = sv;
    }
    return best;
}

static inline int mj_distance_with(const mj_hand_t *h, const int *k, const int *n, const int *odd,
                                   int8_t (*v)[10]) {
    if (!h->void_rule) return mj_distance_q(h, k, n, odd, v, -1);
    int best = MJ_INF;
    for (int q = 0; q < 3; q++) {
        if (h->live_q >> q & 1) {
            int d = mj_distance_q(h, k, n, odd, v, q);
            if (d < best) best = d;
        }
    }
    return best;
}

static inline int mj_distance(mj_hand_t *h) {
    return mj_distance_with(h, h->k, h->n, h->odd, h->v);
}


/* Distances per void choice q, so probes recompute only what changes. */
typedef struct {
    int dq[3];
} mj_base_t;

static inline void mj_base(const mj_hand_t *h, mj_base_t *b) {
    for (int q = 0; q < 3; q++) {
        b->dq[q] = (h->void_rule && (h->live_q >> q & 1))
                       ? mj_distance_q(h, h->k, h->n, h->odd, (int8_t (*)[10])h->v, q) : MJ_INF;
    }
}

/* Distance after adding (delta = +1) or removing (delta = -1) one tile of kind t. With the void
 * rule, a tile of suit s changes nothing when s is the void suit: that term comes from base. */
static inline int mj_probe(const mj_hand_t *h, const mj_base_t *base, int t, int delta) {
    int s = t / 9, r = t % 9;
    int k[3] = {h->k[0], h->k[1], h->k[2]};
    int n[3] = {h->n[0], h->n[1], h->n[2]};
    int odd[3] = {h->odd[0], h->odd[1], h->odd[2]};
    int8_t v[3][10];
    n[s] += delta;
    odd[s] += (h->c[t] & 1) ? -1 : 1;
    if (h->meld_suits) {
        memcpy(v, h->v, sizeof v);
        if (h->meld_suits >> s & 1) {
            uint8_t c9[9], cap[9];
            memcpy(c9, h->c + 9 * s, 9);
            c9[r] = (uint8_t)(c9[r] + delta);
            mj_caps(h, s, cap);
            mj_capped_vector(c9, cap, v[s]);
        }
    }
    k[s] = mj_class(h->idx[s] + delta * MJ_POW[r]);
    if (!h->void_rule) return mj_distance_q(h, k, n, odd, v, -1);
    int best = base->dq[s];
    for (int q = 0; q < 3; q++) {
        if (q != s && (h->live_q >> q & 1)) {
            int d = mj_distance_q(h, k, n, odd, v, q);
            if (d < best) best = d;
        }
    }
    return best;
}

/* 27-bit mask of the kinds held four times, melds included. */
static inline uint32_t mj_full_kinds(const mj_hand_t *h) {
#if MJ_SWAR
    /* held <= 4 (checked on load), so held == 4 exactly when bit 2 of the byte is set; the bits
     * of 8 bytes gather into one byte with a multiply */
    const uint64_t ONES = 0x0101010101010101ULL;
    uint32_t mask = 0;
    for (int s = 0; s < 3; s++) {
        uint64_t x, y = 0;
        memcpy(&x, h->c + 9 * s, 8);
        int last = h->c[9 * s + 8];
        if (h->melds) {
            memcpy(&y, h->melds + 9 * s, 8);
            last += h->melds[9 * s + 8];
        }
        uint64_t bits = (((x + y) >> 2) & ONES) * 0x0102040810204080ULL >> 56;
        mask |= (uint32_t)(bits | (uint64_t)(last >= 4) << 8) << (9 * s);
    }
    return mask;
#else
    uint32_t mask = 0;
    for (int t = 0; t < 27; t++) mask |= (uint32_t)(mj_held(h, t) >= 4) << t;
    return mask;
#endif
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

static inline int mj_hand_is_win(const mj_hand_t *h, int void_suit) {
    /* a waiting hand is not complete */
    if (h->n[0] + h->n[1] + h->n[2] != 3 * (h->sets - h->m) + 2) return 0;
    if (!mj_void_ok(h, mj_suits_present(h), void_suit)) return 0;
    if (MJ.wmask[h->idx[0]] & MJ.wmask[h->idx[1]] & MJ.wmask[h->idx[2]] & (1u << 9)) return 1;
    return h->m == 0 && h->sets == 4 && h->odd[0] + h->odd[1] + h->odd[2] == 0;
}

/* 27-bit mask of the kinds that complete a 13-3m hand. */
static inline uint32_t mj_hand_waits(const mj_hand_t *h, int void_suit) {
    uint32_t w[3] = {MJ.wmask[h->idx[0]], MJ.wmask[h->idx[1]], MJ.wmask[h->idx[2]]};
    int present = mj_suits_present(h);
    uint32_t mask = 0;
    for (int s = 0; s < 3; s++) {
        if (!(w[(s + 1) % 3] & w[(s + 2) % 3] & (1u << 9))) continue; /* the other suits complete */
        if (!mj_void_ok(h, present | 1 << s, void_suit)) continue;
        mask |= (w[s] & 0x1FFu) << (9 * s);
    }
    if (h->m == 0 && h->sets == 4 && h->odd[0] + h->odd[1] + h->odd[2] == 1 &&
        ((h->n[0] - h->odd[0]) >> 1) + ((h->n[1] - h->odd[1]) >> 1) + ((h->n[2] - h->odd[2]) >> 1) == 6) {
        for (int t = 0; t < 27; t++) {
            if ((h->c[t] & 1) && mj_void_ok(h, present | 1 << (t / 9), void_suit)) mask |= 1u << t;
        }
    }
    return mask & ~mj_full_kinds(h); /* no fifth copy */
}

/* ---- row drivers ----------------------------------------------------------------------- */

enum { MJ_OP_SHANTEN = 0, MJ_OP_IS_WIN = 1, MJ_OP_WAITS = 2, MJ_OP_EFFECTIVE = 3, MJ_OP_DISCARDS = 4 };

/* One batch call. Optional arrays are NULL; a stride of 0 broadcasts one row to all. */
typedef struct {
    int op, form, void_rule, coerce;
    int sets;                  /* sets of a complete hand: 4, or 3 / 2 (short hands) */
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

/* Rows per call of the meld-free fast paths (mj_run's block). */
#define MJ_BLOCK 64

#endif
