/* mjfast table engine, the efficient player's hand evaluation: the distances the kernels
 * compute (mjfast_kernels.h, MJ_FORM_ALL with the void rule and a declared void suit), for the
 * hands one decision looks at, without a kernel call per hand.
 *
 * With a declared void suit only the two live suits count, so a hand is two suit states: a table
 * class, and for a suit holding a meld (its kinds capped below 4 free copies) the exact vector of
 * mj_capped_vector_k. That DP is the costly part, so (1) the table's vector, which ignores the
 * caps, is a lower bound of it (the table's targets are a superset) and decides most questions
 * alone, and (2) the DP's vectors go through a small direct-mapped memo kept across decisions.
 * A hand with melds, or a short hand (5 and 6 seats: 3 or 2 sets, no seven pairs), combines the
 * two suits' vectors for its sets - m sets + pair; a plain 4-set hand reads the void classes.
 * Every answer equals the kernels' (tests/table compares the C and Python players hand by hand).
 */
#ifndef MJFAST_TABLE_EVAL_H
#define MJFAST_TABLE_EVAL_H

#include <stdlib.h>

#include "mjfast_kernels.h"

/* ---- the memo of capped-suit vectors ---------------------------------------------------- */

/* 2^18 slots of 16 bytes (4 MB, its pages touched as used): vectors recur across hands, and a
 * run of 10^4 hands still gains from 2^17 to 2^18. */
enum { MT_MEMO_BITS = 18 };

typedef struct {
    uint64_t key; /* 0: empty; else 1 << 63 | sets << 39 | caps << 21 | base-5 index */
    int8_t v[8];  /* columns 0-7: a melded hand makes at most 3 sets more (8, 9 are MJ_INF) */
} mt_memo_slot_t;

typedef struct {
    mt_memo_slot_t slot[1 << MT_MEMO_BITS];
} mt_memo_t;

/* A cleared memo (free it with free()), or NULL when out of memory: then the DP runs every time. */
static inline mt_memo_t *mt_memo_new(void) { return (mt_memo_t *)calloc(1, sizeof(mt_memo_t)); }

/* ---- suit states -------------------------------------------------------------------------- */

typedef struct {
    int v, m, K, dead;    /* void suit, melds, sets to make; dead: a meld in the void suit */
    int plain;            /* no meld and 4 sets: the void classes (seven pairs among the forms) */
    int s[2];             /* the live suits, lower first */
    int capped[2];
    uint32_t pungs[2];    /* ranks with a pung (bits), and is a rank of the suit in a kong? */
    int kong[2];
    uint8_t cap[2][9];    /* free copies per rank (4 - meld tiles) */
    uint64_t capkey[2];   /* the caps as memo key bits */
    uint8_t c[2][9];      /* concealed counts */
    int32_t idx[2];
    mt_memo_t *memo;
} mt_eval_t;

/* One suit pattern: its class (in a meld-free hand its void class, which folds in seven pairs'
 * pairs and singles) and, in melded hands, its distance vector x (exact, or the table's lower
 * bound while exact is 0). */
typedef struct {
    int cls, exact;
    int32_t idx;
    int8_t x[10];
} mt_suit_t;

static inline void mt_eval_init(mt_eval_t *e, const uint8_t *hand, const uint8_t *mc, int v,
                                int sets, mt_memo_t *memo) {
    e->v = v;
    e->memo = memo;
    e->m = 0;
    e->dead = 0;
    for (int k = 0; k < 27; k++) {
        if (mc[k]) {
            e->m++;
            if (k / 9 == v) e->dead = 1;
        }
    }
    e->K = sets - e->m;
    e->plain = !e->m && sets == 4;
    for (int i = 0, s = 0; s < 3; s++) {
        if (s == v) continue;
        const uint8_t *c = hand + 9 * s, *mk = mc + 9 * s;
        uint64_t key = 0;
        e->pungs[i] = 0;
        e->kong[i] = 0;
        for (int r = 0; r < 9; r++) {
            e->pungs[i] |= (uint32_t)(mk[r] == 3) << r;
            e->kong[i] |= mk[r] == 4;
            e->c[i][r] = c[r];
            e->cap[i][r] = (uint8_t)(4 - mk[r]);
            key |= (uint64_t)(mk[r] == 0 ? 0 : mk[r] == 3 ? 1 : 2) << (21 + 2 * r);
        }
        e->s[i] = s;
        e->capped[i] = key != 0;
        e->capkey[i] = key;
        e->idx[i] = mj_index9(c);
        i++;
    }
}

/* The exact vector of a capped pattern of live suit i (counts c9, index idx), through the memo
 * (a capped suit means a meld, so e->K <= 3). */
static inline void mt_capped(const mt_eval_t *e, int i, int32_t idx, const uint8_t *c9,
                             int8_t *out) {
    mt_memo_slot_t *slot = NULL;
    uint64_t key = 1ull << 63 | (uint64_t)e->K << 39 | e->capkey[i] | (uint64_t)idx;
    if (e->memo) {
        slot = &e->memo->slot[(key * 0x9E3779B97F4A7C15ull) >> (64 - MT_MEMO_BITS)];
        if (slot->key == key) {
            memcpy(out, slot->v, 8);
            out[8] = out[9] = MJ_INF;
            return;
        }
    }
    mj_capped_vector_k(c9, e->cap[i], e->K, out);
    if (slot) {
        slot->key = key;
        memcpy(slot->v, out, 8);
    }
}

/* Live suit i with index idx: the table's void class (a plain hand), or class and vector. */
static inline void mt_suit(const mt_eval_t *e, int i, int32_t idx, mt_suit_t *u) {
    u->idx = idx;
    u->exact = !e->capped[i];
    if (e->plain) {
        u->cls = MJ.void_full[idx]; /* without melds the void classes do */
        return;
    }
    u->cls = mj_class(idx);
    memcpy(u->x, MJ.vec + 10 * u->cls, 10);
}

/* Windows (h[k-1], h[k], h[k+1]) of the counts around a pung of rank k (0 outside the suit),
 * bit 10 h[k-1] + 5 h[k] + h[k+1], near which an optimal target of the table may need a second
 * free copy of k. A suit whose melds are pungs with none of these windows has the table's vector
 * in the columns a hand can use (up to 4 - its melds sets): checked on every suit pattern of at
 * most 14 - 3 m tiles with m = 1-3 pungs (tools/pung_windows.py). */
#define MT_PUNG_UNSAFE 0x84203f6290e0ull

/* Is the table's vector of live suit i with counts c9 its exact (capped) vector? */
static inline int mt_table_exact(const mt_eval_t *e, int i, const uint8_t *c9) {
    if (e->kong[i]) return 0;
    for (uint32_t m = e->pungs[i]; m; m &= m - 1) {
        int k = mj_ctz(m), a = k > 0 ? c9[k - 1] : 0, d = k < 8 ? c9[k + 1] : 0;
        if (MT_PUNG_UNSAFE >> (10 * a + 5 * c9[k] + d) & 1) return 0;
    }
    return 1;
}

/* Make u exact (the capped DP, unless the table's vector is) when it is not. */
static inline void mt_exact(const mt_eval_t *e, int i, mt_suit_t *u) {
    if (u->exact) return;
    uint8_t c9[9];
    int32_t x = u->idx;
    for (int r = 8; r >= 0; r--) {
        c9[r] = (uint8_t)(x % 5);
        x /= 5;
    }
    if (!mt_table_exact(e, i, c9)) mt_capped(e, i, u->idx, c9, u->x);
    u->exact = 1;
}

/* Live suit i with one tile of rank r more (delta 1) or less (-1) than u. */
static inline void mt_suit_step(const mt_eval_t *e, int i, const mt_suit_t *u, int r, int delta,
                                mt_suit_t *out) {
    mt_suit(e, i, u->idx + delta * MJ_POW[r], out);
}

/* mj_comb2 with K a constant in each case (unrolled: it runs for every probe of a melded hand). */
static inline int mt_comb2(const int8_t *x, const int8_t *y, int K) {
    switch (K) {
    case 0: return mj_comb2(x, y, 0);
    case 1: return mj_comb2(x, y, 1);
    case 2: return mj_comb2(x, y, 2);
    default: return mj_comb2(x, y, 3); /* a melded or short hand makes at most 3 sets more */
    }
}

/* The distance (min |C - H| over the winning hands, capped at MJ_INF) of the hand whose live
 * suits are a (the lower) and b: exact when both are exact, else a lower bound. */
static inline int mt_dist(const mt_eval_t *e, const mt_suit_t *a, const mt_suit_t *b) {
    int d;
    if (e->dead) return MJ_INF;
    if (e->plain) {
        d = mj_void_row(a->cls)[b->cls]; /* regular form and seven pairs */
    } else { /* melds, or the short hands (no seven pairs): their sets - m sets + pair */
        d = mt_comb2(a->x, b->x, e->K);
    }
    return d < MJ_INF ? d : MJ_INF;
}

/* The same with suit i replaced by u (the other one is w). */
static inline int mt_dist_with(const mt_eval_t *e, int i, const mt_suit_t *u, const mt_suit_t *w) {
    return i == 0 ? mt_dist(e, u, w) : mt_dist(e, w, u);
}

/* The distance of a whole hand (hand, melds mc, void v): exact, or with `exact` 0 a lower
 * bound (the table's, without the capped DP). */
static inline int mt_hand_dist(const uint8_t *hand, const uint8_t *mc, int v, int sets,
                               mt_memo_t *memo, int exact) {
    mt_eval_t e;
    mt_suit_t u[2];
    mt_eval_init(&e, hand, mc, v, sets, memo);
    for (int i = 0; i < 2; i++) {
        mt_suit(&e, i, e.idx[i], &u[i]);
        if (exact) mt_exact(&e, i, &u[i]);
    }
    return mt_dist(&e, &u[0], &u[1]);
}

#endif
