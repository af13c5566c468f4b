/* mjfast table engine, part 3: the built-in players (mjfast/table/players.py), whole hands
 * and the observations (mjfast/table/observe.py). Include this one: it includes parts 1 and 2.
 */
#ifndef MJFAST_TABLE_PLAY_H
#define MJFAST_TABLE_PLAY_H

#include "mjfast_table_flow.h"

/* ---- players (players.py) --------------------------------------------------------------- */

static inline int mt_random_action(const uint8_t *m, uint64_t *rng) {
    /* Count the legal actions 8 mask bytes (each 0 or 1) at a time, then find the chosen one:
     * no branch per action (a byte-by-byte scan of the unpredictable mask was the hot spot). */
    uint64_t w[18] = {0};
    int cnt[18], n = 0;
    memcpy(w, m, MT_ACTIONS);
    for (int i = 0; i < 18; i++) {
        cnt[i] = (int)((w[i] * 0x0101010101010101ull) >> 56);
        n += cnt[i];
    }
    int k = (int)mt_below(rng, (uint64_t)n);
    int i = 0;
    while (k >= cnt[i]) k -= cnt[i++];
    for (int a = 8 * i;; a++) {
        if (m[a] && k-- == 0) return a;
    }
}

/* What seat p sees outside its hand: live discards and the others' open melds (players.py). */
static inline void mt_seen_by(const mt_table_t *t, int p, uint8_t *seen) {
    int c[27] = {0};
    for (int q = 0; q < t->n; q++) {
        for (int i = 0; i < t->river_len[q]; i++)
            if (!t->taken[q][i]) c[t->river[q][i]]++;
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

static inline int mt_best_discard(const mt_table_t *t, int p, const uint8_t *m) {
    const uint8_t *hand = t->hands[p];
    int8_t after[27];
    int tied[27], nt = 0, best = 127, v = t->void_[p];
    mt_kernel(MJ_OP_DISCARDS, hand, 1, mt_melds(t, p), v, NULL, after);
    for (int k = 0; k < 27; k++)
        if (m[MT_DISCARD + k] && after[k] < best) best = after[k];
    for (int k = 0; k < 27; k++)
        if (m[MT_DISCARD + k] && after[k] == best) tied[nt++] = k;
    if (nt == 1) return MT_DISCARD + tied[0];
    uint8_t seen[27], rest[27 * 27], vis[27 * 27];
    int8_t eff[27 * 27];
    mt_seen_by(t, p, seen);
    for (int i = 0; i < nt; i++) {
        int k = tied[i];
        memcpy(rest + 27 * i, hand, 27);
        memcpy(vis + 27 * i, seen, 27);
        rest[27 * i + k]--;
        int room = 4 - rest[27 * i + k] - t->meld_counts[p][k];
        int x = vis[27 * i + k] + 1;
        vis[27 * i + k] = (uint8_t)(x < room ? x : room);
    }
    mt_kernel(MJ_OP_EFFECTIVE, rest, nt, mt_melds(t, p), v, vis, eff);
    int top = -1, pick = tied[0];
    for (int i = 0; i < nt; i++) {
        int count = 0;
        for (int k = 0; k < 27; k++)
            if (eff[27 * i + k] > 0) count += eff[27 * i + k];
        if (count > top) {
            top = count;
            pick = tied[i];
        }
    }
    return MT_DISCARD + pick;
}

static inline int mt_efficient_action(const mt_table_t *t, const uint8_t *m) {
    int p = t->current, v = t->void_[p];
    const uint8_t *hand = t->hands[p];
    if (m[MT_VOID]) {
        int best = -1, key = 0;
        for (int s = 0; s < 3; s++) {
            int n = 0;
            for (int r = 0; r < 9; r++) n += hand[9 * s + r];
            int k = mt_shanten(hand, NULL, s) * 64 + n;
            if (best < 0 || k < key) {
                best = s;
                key = k;
            }
        }
        return MT_VOID + best;
    }
    if (m[MT_WIN]) return MT_WIN;
    int now = mt_shanten(hand, mt_melds(t, p), v);
    static const int base[4] = {MT_CONCEALED, MT_ADDED, MT_KONG, MT_PUNG};
    static const int used[4] = {4, 1, 3, 2}, kept[4] = {4, 4, 4, 3};
    for (int i = 0; i < 4; i++) {
        for (int k = 0; k < 27; k++) {
            if (!m[base[i] + k]) continue;
            uint8_t h[27], mc[27];
            memcpy(h, hand, 27);
            memcpy(mc, t->meld_counts[p], 27);
            h[k] = (uint8_t)(h[k] - used[i]);
            mc[k] = (uint8_t)kept[i];
            if (mt_shanten(h, mc, v) <= now) return base[i] + k;
        }
    }
    if (m[MT_PASS]) return MT_PASS;
    return mt_best_discard(t, p, m);
}

static inline int mt_choose(const mt_table_t *t, int kind, const uint8_t *m, uint64_t *rng) {
    return kind == MT_PLAYER_EFFICIENT ? mt_efficient_action(t, m) : mt_random_action(m, rng);
}

/* Play one hand to the end; the actions taken go to log[0..cap) when log is given. Returns the
 * number of actions, -1 if the log was too short, or with `check` -100 - an MT_BAD_* code as
 * soon as mt_check fails after a step. */
static inline int mt_play(mt_table_t *t, const int *kinds, uint64_t *rng, int16_t *log, int cap,
                          int check) {
    uint8_t m[MT_ACTIONS];
    int steps = 0;
    while (t->phase != MT_OVER) {
        mt_mask(t, m);
        int a = mt_choose(t, kinds[t->current], m, rng);
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
