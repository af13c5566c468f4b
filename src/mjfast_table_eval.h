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
 * The player asks mostly "is this hand's distance below a level?" with one suit fixed: that is a
 * void_two entry, or for vectors one word compare of the varying suit's 8 columns against
 * per-column bounds from the fixed suit (mt_side, mt_under), with no vector combined.
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
    uint32_t pungs[2];    /* ranks with a pung, with a kong (bits) */
    uint32_t kongs[2];
    uint8_t cap[2][9];    /* free copies per rank (4 - meld tiles) */
    uint64_t capkey[2];   /* the caps as memo key bits */
    uint8_t c[2][9];      /* concealed counts */
    int32_t idx[2];
    mt_memo_t *memo;
} mt_eval_t;

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
        e->kongs[i] = 0;
        for (int r = 0; r < 9; r++) {
            e->pungs[i] |= (uint32_t)(mk[r] == 3) << r;
            e->kongs[i] |= (uint32_t)(mk[r] == 4) << r;
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

/* Windows (h[k-1], h[k], h[k+1]) of the counts around a pung of rank k (0 outside the suit),
 * bit 10 h[k-1] + 5 h[k] + h[k+1], near which an optimal target of the table may need a second
 * free copy of k. A suit whose melds are pungs with none of these windows has the table's vector
 * in the columns a hand can use (up to 4 - its melds sets): checked on every suit pattern of at
 * most 14 - 3 m tiles with m = 1-3 pungs (tools/pung_windows.py). */
#define MT_PUNG_UNSAFE 0x84203f6290e0ull

/* Is the table's vector of live suit i with counts c9 its exact (capped) vector? */
static inline int mt_table_exact(const mt_eval_t *e, int i, const uint8_t *c9) {
    if (e->kongs[i]) return 0;
    for (uint32_t m = e->pungs[i]; m; m &= m - 1) {
        int k = mj_ctz(m), a = k > 0 ? c9[k - 1] : 0, d = k < 8 ? c9[k + 1] : 0;
        if (MT_PUNG_UNSAFE >> (10 * a + 5 * c9[k] + d) & 1) return 0;
    }
    return 1;
}

/* ---- distances below a level ------------------------------------------------------------ */

/* The index of live suit i with one tile of rank rm less and one of rank rp more (-1: none). */
static inline int32_t mt_index_of(const mt_eval_t *e, int i, int rm, int rp) {
    return e->idx[i] - (rm >= 0 ? MJ_POW[rm] : 0) + (rp >= 0 ? MJ_POW[rp] : 0);
}

/* Columns 0-7 of live suit i's distance vector with rank rm less / rp more, as a word (byte c:
 * column c; a melded or short hand makes at most 3 sets more, so 8 and 9 are never read): the
 * table's, which is a lower bound for a capped suit, or with `exact` the exact one. */
static inline uint64_t mt_word(const mt_eval_t *e, int i, int rm, int rp, int exact) {
    int32_t idx = mt_index_of(e, i, rm, rp);
    uint64_t w;
    memcpy(&w, MJ.vec + 10 * mj_class(idx), 8);
    if (!exact || !e->capped[i]) return w;
    uint8_t c9[9];
    memcpy(c9, e->c[i], 9);
    if (rm >= 0) c9[rm]--;
    if (rp >= 0) c9[rp]++;
    if (mt_table_exact(e, i, c9)) return w;
    int8_t v[10];
    mt_capped(e, i, idx, c9, v);
    memcpy(&w, v, 8);
    return w;
}

/* A live suit fixed, the other varying: the test "distance below `level`" of the hands made of
 * the two. Without melds (4 sets) the void_two entries of the fixed suit's void class, `stride`
 * apart; else per column c of the varying suit's vector the most it may hold (level minus the
 * fixed suit's column that c combines with, clamped to 0..127: 0 never passes), as a word. */
typedef struct {
    const int8_t *row;
    int stride, level;
    uint64_t below;
} mt_side_t;

/* The test with live suit f fixed at rank rm less / rp more (exact). */
static inline void mt_side(const mt_eval_t *e, int f, int rm, int rp, int level, mt_side_t *s) {
    s->level = level;
    s->row = NULL;
    s->stride = 0;
    s->below = 0;
    if (e->plain) { /* void_two is indexed [suit 0's class][suit 1's class] */
        int cls = MJ.void_full[mt_index_of(e, f, rm, rp)];
        s->row = MJ.void_two + (f == 0 ? (size_t)cls << 8 : (size_t)cls);
        s->stride = f == 0 ? 1 : 256;
        return;
    }
    uint64_t w = mt_word(e, f, rm, rp, 1);
    int8_t y[8];
    uint8_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    memcpy(y, &w, 8);
    for (int k = 0; k <= e->K; k++) { /* mj_comb2: x[2k+1] + y[2(K-k)], x[2k] + y[2(K-k)+1] */
        int a = level - y[2 * (e->K - k)], b = level - y[2 * (e->K - k) + 1];
        t[2 * k + 1] = (uint8_t)(a < 0 ? 0 : a > 127 ? 127 : a);
        t[2 * k] = (uint8_t)(b < 0 ? 0 : b > 127 ? 127 : b);
    }
    memcpy(&s->below, t, 8);
}

/* Is the distance of the hand with live suit i at rank rm less / rp more (the other suit the
 * fixed one of s) below s's level? Exact, or without `exact` possibly a false yes (the table's
 * lower bound). A dead hand (a meld in the void suit) is never below. */
static inline int mt_under(const mt_eval_t *e, const mt_side_t *s, int i, int rm, int rp,
                           int exact) {
    if (e->plain)
        return s->row[(size_t)MJ.void_full[mt_index_of(e, i, rm, rp)] * s->stride] < s->level;
    if (e->dead) return 0;
    const uint64_t high = 0x8080808080808080ull; /* columns hold 0..100: no borrow between them */
    uint64_t w = mt_word(e, i, rm, rp, 0);
    if ((((w | high) - s->below) & high) == high) return 0; /* no column below its bound */
    if (!exact || !e->capped[i]) return 1;
    w = mt_word(e, i, rm, rp, 1);
    return (((w | high) - s->below) & high) != high;
}

/* The distance (min |C - H| over the winning hands, capped at MJ_INF) of the hand: exact, or with
 * `exact` 0 a lower bound (the table's, without the capped DP). */
static inline int mt_eval_dist(const mt_eval_t *e, int exact) {
    int d;
    if (e->dead) return MJ_INF;
    if (e->plain) {
        d = mj_void_row(MJ.void_full[e->idx[0]])[MJ.void_full[e->idx[1]]]; /* regular, 7 pairs */
    } else { /* melds, or the short hands (no seven pairs): their sets - m sets + pair */
        uint64_t w[2] = {mt_word(e, 0, -1, -1, exact), mt_word(e, 1, -1, -1, exact)};
        int8_t x[2][8];
        memcpy(x, w, sizeof x);
        d = mj_comb2(x[0], x[1], e->K);
    }
    return d < MJ_INF ? d : MJ_INF;
}

/* The distance of a whole hand (hand, melds mc, void v): exact, or with `exact` 0 a lower
 * bound (the table's, without the capped DP). */
static inline int mt_hand_dist(const uint8_t *hand, const uint8_t *mc, int v, int sets,
                               mt_memo_t *memo, int exact) {
    mt_eval_t e;
    mt_eval_init(&e, hand, mc, v, sets, memo);
    return mt_eval_dist(&e, exact);
}

#endif
