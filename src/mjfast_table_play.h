/* mjfast table engine, part 3: the built-in players (mjfast/table/players.py), whole hands
 * and the observations (mjfast/table/observe.py). Include this one: it includes parts 1 and 2,
 * and mjfast_table_eval.h, the efficient player's hand evaluation.
 */
#ifndef MJFAST_TABLE_PLAY_H
#define MJFAST_TABLE_PLAY_H

#include "mjfast_table_eval.h"
#include "mjfast_table_flow.h"

/* ---- players (players.py) --------------------------------------------------------------- */

/* A uniformly random legal action: the k-th set bit of s for k below the count. */
static inline int mt_random_action(const mt_acts_t *s, uint64_t *rng) {
    int c[3], i = 0;
    for (int j = 0; j < 3; j++) c[j] = s->w[j] ? mt_popcount64(s->w[j]) : 0;
    int k = (int)mt_below(rng, (uint64_t)(c[0] + c[1] + c[2]));
    while (k >= c[i]) k -= c[i++];
    uint64_t x = s->w[i];
    while (k--) x &= x - 1;
    return 64 * i + mt_ctz64(x);
}

/* What seat p sees outside its hand: live discards and the others' open melds (players.py). */
static inline void mt_seen_by(const mt_table_t *t, int p, uint8_t *seen) {
    int c[27];
    for (int k = 0; k < 27; k++) c[k] = t->live[k];
    for (int q = 0; q < t->n; q++) {
        if (q == p) continue;
        for (int i = 0; i < t->n_melds[q]; i++) {
            int k = t->melds[q][i][0], kind = t->melds[q][i][1];
            if (kind == 3) continue; /* another's concealed kong shows no kind */
            c[k] += kind == 0 ? 3 : 4;
        }
    }
    for (int k = 0; k < 27; k++) {
        int room = 4 - t->hands[p][k] - t->meld_counts[p][k];
        seen[k] = (uint8_t)(c[k] < room ? c[k] : room);
    }
}

/* A discard that keeps the least distance: its kind, live suit and rank. */
typedef struct {
    int k, i, r;
} mt_cand_t;

/* The discards of a hand holding no void tile that leave the least distance, into c[0..return)
 * in kind order, that distance into *best. A discard raises the distance by 0 or 1 (a winning
 * hand near the hand is near it less that tile), so the least is the first level from the
 * distance now up that some discard stays below. */
static inline int mt_discard_ties(const mt_eval_t *e, mt_cand_t *c, int *best) {
    int nt = 0, level = mt_eval_dist(e, 1) + 1;
    for (; !nt && level <= MJ_INF; level++) {
        for (int i = 0; i < 2; i++) {
            mt_side_t other;
            mt_side(e, 1 - i, -1, -1, level, &other);
            for (int r = 0; r < 9; r++) {
                if (e->c[i][r] && mt_under(e, &other, i, r, -1, 1)) {
                    c[nt].k = 9 * e->s[i] + r;
                    c[nt].i = i;
                    c[nt++].r = r;
                }
            }
        }
    }
    *best = level - 2;
    return nt;
}

/* Copies left to draw of each kind that lowers the distance of the hand after discard x below
 * `best`: the kernels' effective tiles, summed. same[i]: the test of suit i's draws (the other
 * suit as it is). left[j][r]: copies of live suit j's rank r neither held nor seen; the discard
 * leaves them alike (its copy, no longer held, counts as seen; seen counts are at most what the
 * hand leaves). plus[j][r]: mt_table_of suit j with rank r more. Without `exact`, an upper
 * bound (exact when no suit is capped). */
static inline int mt_effective_count(const mt_eval_t *e, const mt_side_t *same,
                                     const int8_t left[2][9], const uint64_t plus[2][9],
                                     const mt_cand_t *x, int best, int exact) {
    int count = 0, i = x->i, j = 1 - i;
    mt_side_t other; /* the other suit's draws, with suit i less the discard */
    mt_side(e, i, x->r, -1, best, &other);
    for (int r = 0; r < 9; r++) {
        if (left[i][r] > 0 && mt_under(e, &same[i], i, x->r, r, exact)) count += left[i][r];
        if (left[j][r] > 0 && mt_under_at(e, &other, j, -1, r, plus[j][r], exact))
            count += left[j][r];
    }
    return count;
}

/* mt_best_discard with no declared void (不定张): the same ranking by the kernels themselves, as
 * players.py computes it (the two-suit evaluation below needs a declared void suit). */
static inline int mt_best_discard_any(const mt_table_t *t, int p, const mt_acts_t *m) {
    const uint8_t *mc = mt_melds(t, p);
    int8_t after[27], eff[27];
    int best = 127, ties[27], nt = 0;
    mt_kernel(MJ_OP_DISCARDS, t->hands[p], 1, mc, -1, NULL, after, t->sets);
    for (int k = 0; k < 27; k++) {
        if (!mt_acts_has(m, MT_DISCARD + k)) continue;
        if (after[k] < best) {
            best = after[k];
            nt = 0;
        }
        if (after[k] == best) ties[nt++] = k;
    }
    if (nt == 1) return MT_DISCARD + ties[0];
    uint8_t seen[27], rest[27], vis[27];
    int top = -1, pick = ties[0];
    mt_seen_by(t, p, seen);
    for (int i = 0; i < nt; i++) {
        int k = ties[i], count = 0;
        memcpy(rest, t->hands[p], 27);
        memcpy(vis, seen, 27);
        rest[k]--; /* the discarded copy is seen, so it is not left to draw */
        int room = 4 - rest[k] - t->meld_counts[p][k];
        vis[k] = (uint8_t)(seen[k] + 1 < room ? seen[k] + 1 : room);
        mt_kernel(MJ_OP_EFFECTIVE, rest, 1, mc, -1, vis, eff, t->sets);
        for (int j = 0; j < 27; j++)
            if (eff[j] > 0) count += eff[j];
        if (count > top) {
            top = count;
            pick = k;
        }
    }
    return MT_DISCARD + pick;
}

/* The efficient player's discard (players.py _best_discard): the legal discard ranked first by
 * shanten after it, then effective copies left, then the lowest kind. While a void tile is held
 * only void tiles are legal and they all rank alike (the void suit counts for nothing), so the
 * lowest goes. */
static inline int mt_best_discard(const mt_table_t *t, int p, const mt_acts_t *m,
                                  mt_memo_t *memo) {
    if (t->void_[p] < 0) return mt_best_discard_any(t, p, m);
    int first = mt_acts_first(m); /* the lowest legal discard (a turn always has one) */
    if (mt_void_held(t, p)) return first;
    mt_eval_t e;
    mt_cand_t c[18];
    mt_side_t same[2];
    int best;
    mt_eval_init(&e, t->hands[p], t->idx[p], t->meld_counts[p], t->void_[p], t->sets, memo);
    int nt = mt_discard_ties(&e, c, &best);
    if (nt <= 1 || best >= MJ_INF) return nt ? MT_DISCARD + c[0].k : first;
    uint8_t seen[27];
    int8_t left[2][9];
    uint64_t plus[2][9];
    mt_seen_by(t, p, seen);
    for (int j = 0; j < 2; j++) {
        for (int r = 0; r < 9; r++) {
            int k = 9 * e.s[j] + r;
            left[j][r] = (int8_t)(4 - e.c[j][r] - t->meld_counts[p][k] - seen[k]);
            plus[j][r] = left[j][r] > 0 ? mt_table_of(&e, j, -1, r) : 0;
        }
        mt_side(&e, 1 - j, -1, -1, best, &same[j]);
    }
    /* The most copies, then the lowest kind. Bounds first (exact without melds); with melds the
     * exact counts go from the highest bound down while a bound can still beat the pick. */
    int bound[18], top = -1, pick = 27;
    for (int i = 0; i < nt; i++) {
        bound[i] = mt_effective_count(&e, same, (const int8_t (*)[9])left,
                                      (const uint64_t (*)[9])plus, &c[i], best, 0);
        if (!e.m && bound[i] > top) {
            top = bound[i];
            pick = c[i].k;
        }
    }
    while (e.m) {
        int j = -1;
        for (int i = 0; i < nt; i++)
            if (bound[i] >= 0 && (j < 0 || bound[i] > bound[j])) j = i;
        if (j < 0 || bound[j] < top || (bound[j] == top && c[j].k > pick)) break;
        int count = mt_effective_count(&e, same, (const int8_t (*)[9])left,
                                       (const uint64_t (*)[9])plus, &c[j], best, 1);
        if (count > top || (count == top && c[j].k < pick)) {
            top = count;
            pick = c[j].k;
        }
        bound[j] = -1; /* done */
    }
    return MT_DISCARD + pick;
}

/* Does shanten stay (no higher) after a kong or pung? Shanten orders as the distance does. */
static inline int mt_meld_keeps(const mt_table_t *t, int p, int k, int used, int kept, int now,
                                mt_memo_t *memo) {
    uint8_t h[27], mc[27];
    int32_t idx[3] = {t->idx[p][0], t->idx[p][1], t->idx[p][2]};
    memcpy(h, t->hands[p], 27);
    memcpy(mc, t->meld_counts[p], 27);
    h[k] = (uint8_t)(h[k] - used);
    idx[k / 9] -= used * MJ_POW[k % 9];
    mc[k] = (uint8_t)kept;
    if (t->void_[p] < 0) return mt_shanten(h, mc, -1, t->sets) <= now; /* 不定张: the kernels' */
    return mt_hand_dist(h, idx, mc, t->void_[p], t->sets, memo, 0) <= now &&
           mt_hand_dist(h, idx, mc, t->void_[p], t->sets, memo, 1) <= now;
}

static inline int mt_efficient_action(const mt_table_t *t, const mt_acts_t *m, mt_memo_t *memo) {
    int p = t->current;
    const uint8_t *hand = t->hands[p];
    if (t->phase == MT_VOIDP) {
        int best = -1, key = 0;
        for (int s = 0; s < 3; s++) {
            if (!mt_acts_has(m, MT_VOID + s)) continue;
            int n = 0;
            for (int r = 0; r < 9; r++) n += hand[9 * s + r];
            int k = mt_shanten(hand, NULL, s, t->sets) * 64 + n;
            if (best < 0 || k < key) {
                best = s;
                key = k;
            }
        }
        return MT_VOID + best;
    }
    if (mt_acts_has(m, MT_WIN)) return MT_WIN;
    static const int base[4] = {MT_CONCEALED, MT_ADDED, MT_KONG, MT_PUNG};
    static const int used[4] = {4, 1, 3, 2}, kept[4] = {4, 4, 4, 3};
    int now = 0, got = 0;
    for (int i = 0; i < 4; i++) {
        for (uint32_t ks = mt_acts_get(m, base[i]); ks; ks &= ks - 1) {
            int k = mj_ctz(ks);
            if (!got++)
                now = t->void_[p] < 0
                    ? mt_shanten(hand, mt_melds(t, p), -1, t->sets)
                    : mt_hand_dist(hand, t->idx[p], t->meld_counts[p], t->void_[p], t->sets,
                                   memo, 1);
            if (mt_meld_keeps(t, p, k, used[i], kept[i], now, memo)) return base[i] + k;
        }
    }
    if (mt_acts_has(m, MT_PASS)) return MT_PASS;
    return mt_best_discard(t, p, m, memo);
}

static inline int mt_choose(const mt_table_t *t, int kind, const mt_acts_t *m, uint64_t *rng,
                            mt_memo_t *memo) {
    return kind == MT_PLAYER_EFFICIENT ? mt_efficient_action(t, m, memo) : mt_random_action(m, rng);
}

/* Play one hand to the end; the actions taken go to log[0..cap) when log is given. Returns the
 * number of actions, -1 if the log was too short, or with `check` -100 - an MT_BAD_* code as
 * soon as mt_check fails after a step. `memo` (mt_memo_new, may be NULL) serves the efficient
 * players of every hand played with it, in one thread at a time. */
static inline int mt_play(mt_table_t *t, const int *kinds, uint64_t *rng, int16_t *log, int cap,
                          int check, mt_memo_t *memo) {
    mt_acts_t m;
    int steps = 0;
    while (t->phase != MT_OVER) {
        mt_legal(t, &m);
        int a = mt_choose(t, kinds[t->current], &m, rng, memo);
        if (log && steps < cap) log[steps] = (int16_t)a;
        steps++;
        mt_step(t, a);
        if (check) {
            int bad = mt_check(t);
            if (bad) return -100 - bad;
        }
    }
    return log && steps > cap ? -1 : steps;
}

/* Seat p's observation (observe.py) into flat outputs. */
static inline void mt_observe(const mt_table_t *t, int p, int64_t *scalars, uint8_t *hand,
                              int8_t *melds, int8_t *discards, uint8_t *taken, int8_t *voids,
                              uint8_t *out, int64_t *scores) {
    int n = t->n, own = t->phase == MT_TURN && t->current == p;
    scalars[0] = p;
    scalars[1] = t->phase;
    scalars[2] = t->current;
    scalars[3] = t->dealer;
    scalars[4] = own ? t->drawn : -1;
    scalars[5] = (t->phase == MT_CLAIM || t->phase == MT_ROB) ? t->tile : -1;
    scalars[6] = mt_wall_left(t);
    memcpy(hand, t->hands[p], 27);
    for (int q = 0; q < n; q++) {
        for (int i = 0; i < 4; i++) {
            int k = t->melds[q][i][0], kind = t->melds[q][i][1];
            melds[(q * 4 + i) * 2] = (int8_t)(q != p && kind == 3 ? -1 : k);
            melds[(q * 4 + i) * 2 + 1] = (int8_t)kind;
        }
        memcpy(discards + q * MT_MAX_DISCARDS, t->river[q], MT_MAX_DISCARDS);
        memcpy(taken + q * MT_MAX_DISCARDS, t->taken[q], MT_MAX_DISCARDS);
        voids[q] = (int8_t)(t->phase == MT_VOIDP && q != p ? -1 : t->void_[q]);
        out[q] = t->won[q];
        scores[q] = t->scores[q];
    }
}

#endif
