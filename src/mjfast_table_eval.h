/* mjfast table engine, the efficient player's hand evaluation: the distances the kernels
 * compute (mjfast_kernels.h, MJ_FORM_ALL with the void rule and a declared void suit), for the
 * hands one decision looks at, without a kernel call per hand.
 *
 * With a declared void suit only the two live suits count, so a hand is two suit states: a table
 * class, and for a suit holding a meld (its kinds capped below 4 free copies) the exact vector of
 * mj_capped_vector_k. That DP is the costly part, so (1) the table's vector, which ignores the
 * caps, is a lower bound of it (the table's targets are a superset) and decides most questions
 * alone, (2) it is exact in most suits, told by the counts around the melds (mt_table_exact:
 * windows derived on every pattern by tools/pung_windows.py), and (3) the DP's vectors go
 * through a small direct-mapped memo kept across decisions.
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
#include "mjfast_table.h"
#include "mjfast_table_windows.h"

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

/* The state of a hand (counts, its suits' indices idx as mjfast_table.h keeps them, meld counts
 * mc, void v). A suit without melds (most) is read as a whole: its counts and index. */
static inline void mt_eval_init(mt_eval_t *e, const uint8_t *hand, const int32_t *idx,
                                const uint8_t *mc, int v, int sets, mt_memo_t *memo) {
    uint32_t melded = mt_held_kinds(mc); /* meld counts are 3 or 4 */
    e->v = v;
    e->memo = memo;
    e->m = mt_popcount64(melded);
    e->dead = (melded & mt_suit_bits(v)) != 0;
    e->K = sets - e->m;
    e->plain = !e->m && sets == 4;
    for (int i = 0, s = 0; s < 3; s++) {
        if (s == v) continue;
        const uint8_t *mk = mc + 9 * s;
        uint64_t key = 0;
        e->pungs[i] = e->kongs[i] = 0;
        memcpy(e->c[i], hand + 9 * s, 9);
        for (uint32_t bits = melded >> 9 * s & 0x1FF; bits; bits &= bits - 1) {
            int r = mj_ctz(bits);
            if (!key) memset(e->cap[i], 4, 9); /* the caps matter only to a capped suit */
            e->pungs[i] |= (uint32_t)(mk[r] == 3) << r;
            e->kongs[i] |= (uint32_t)(mk[r] == 4) << r;
            e->cap[i][r] = (uint8_t)(4 - mk[r]);
            key |= (uint64_t)(mk[r] == 3 ? 1 : 2) << (21 + 2 * r);
        }
        e->s[i] = s;
        e->capped[i] = key != 0;
        e->capkey[i] = key;
        e->idx[i] = idx[s];
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

/* The bit of MT_MELD_UNSAFE (mjfast_table_windows.h) of the one meld of a suit, a pung (cap 1)
 * or a kong (cap 0) of rank q, and the counts h around it (0 outside the suit). */
static inline int mt_meld_window(const uint8_t *h, int q, int kong) {
    return ((2 * kong + h[q]) * 9 + q) * 625 + 125 * (q > 1 ? h[q - 2] : 0) +
           25 * (q > 0 ? h[q - 1] : 0) + 5 * (q < 8 ? h[q + 1] : 0) + (q < 7 ? h[q + 2] : 0);
}

/* Is the table's vector of live suit i with counts c9 its exact (capped) vector? A suit with one
 * meld: unless its window is unsafe; else: when its melds are pungs with safe pung windows. */
static inline int mt_table_exact(const mt_eval_t *e, int i, const uint8_t *c9) {
    uint32_t melds = e->pungs[i] | e->kongs[i];
    if (!(melds & (melds - 1))) {
        int w = mt_meld_window(c9, mj_ctz(melds), e->kongs[i] != 0);
        return !(MT_MELD_UNSAFE[w >> 6] >> (w & 63) & 1);
    }
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
    /* MJ_POW shifted by one, so that rank -1 (none) steps by 0 */
    static const int32_t step[10] = {0, 390625, 78125, 15625, 3125, 625, 125, 25, 5, 1};
    return e->idx[i] - step[rm + 1] + step[rp + 1];
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

/* The bounds word of mt_side: byte c (c <= 2K + 1) level - y[2K + 1 - c] clamped to 0..127, the
 * column of y that column c combines with in mj_comb2 (x[2k + 1] + y[2(K - k)], x[2k] +
 * y[2(K - k) + 1]); 0 above. y's columns hold 0..100, level at most MJ_INF + 1. */
static inline uint64_t mt_bounds(uint64_t y, int K, int level) {
#if MJ_SWAR && (defined(__GNUC__) || defined(__clang__))
    const uint64_t high = 0x8080808080808080ull;
    uint64_t rev = __builtin_bswap64(y) >> (8 * (6 - 2 * K)); /* y[2K + 1 - c] at byte c */
    uint64_t z = ((uint64_t)level * MJ_ONES8 | high) - rev;    /* 128 + level - y: no borrow */
    uint64_t keep = ((z & high) >> 7) * 0xFF;                  /* where level - y >= 0 */
    uint64_t lanes = K >= 3 ? ~0ull : (1ull << (16 * K + 16)) - 1;
    return z & ~high & keep & lanes;
#else
    int8_t x[8];
    uint8_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint64_t out;
    memcpy(x, &y, 8);
    for (int c = 0; c <= 2 * K + 1; c++) {
        int b = level - x[2 * K + 1 - c];
        t[c] = (uint8_t)(b < 0 ? 0 : b);
    }
    memcpy(&out, t, 8);
    return out;
#endif
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
    s->below = mt_bounds(mt_word(e, f, rm, rp, 1), e->K, level);
}

/* What mt_under reads of live suit i at rank rm less / rp more: its void class (a plain hand),
 * else its table's vector word. */
static inline uint64_t mt_table_of(const mt_eval_t *e, int i, int rm, int rp) {
    return e->plain ? MJ.void_full[mt_index_of(e, i, rm, rp)] : mt_word(e, i, rm, rp, 0);
}

/* Is the distance of the hand with live suit i at rank rm less / rp more (the other suit the
 * fixed one of s; table: mt_table_of) below s's level? Exact, or without `exact` possibly a
 * false yes (the table's lower bound). The hand is not dead (a meld in the void suit). */
static inline int mt_under_at(const mt_eval_t *e, const mt_side_t *s, int i, int rm, int rp,
                              uint64_t table, int exact) {
    const uint64_t high = 0x8080808080808080ull; /* columns hold 0..100: no borrow between them */
    if (e->plain) return s->row[(size_t)table * s->stride] < s->level;
    if ((((table | high) - s->below) & high) == high) return 0; /* no column below its bound */
    if (!exact || !e->capped[i]) return 1;
    uint64_t w = mt_word(e, i, rm, rp, 1);
    return (((w | high) - s->below) & high) != high;
}

static inline int mt_under(const mt_eval_t *e, const mt_side_t *s, int i, int rm, int rp,
                           int exact) {
    return mt_under_at(e, s, i, rm, rp, mt_table_of(e, i, rm, rp), exact);
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

/* The distance of a whole hand (hand, indices idx, melds mc, void v): exact, or with `exact` 0
 * a lower bound (the table's, without the capped DP). */
static inline int mt_hand_dist(const uint8_t *hand, const int32_t *idx, const uint8_t *mc, int v,
                               int sets, mt_memo_t *memo, int exact) {
    mt_eval_t e;
    mt_eval_init(&e, hand, idx, mc, v, sets, memo);
    return mt_eval_dist(&e, exact);
}

#endif
