/* mjfast table engine: one hand of 血战到底 (RULES.md section 10) as a state machine over flat
 * arrays, the C port of mjfast/table (engine.py, legal.py, players.py), which stays the
 * reference: tests/table/test_c_engine.py plays the same walls through both.
 *
 * The engine knows no presets: the caller passes the fan rules table (MF_R_*, compiled with no
 * cap so that fans come out uncapped) and the numbers of mt_rules_t. Payments follow the Round
 * ledger of mjfast/settlement (kongs, wins with 自摸加底 and 呼叫转移, the draw settlement with
 * 查花猪, 查大叫 and kong refunds).
 */
#ifndef MJFAST_TABLE_H
#define MJFAST_TABLE_H

#include <stdint.h>
#include <string.h>

#include "mjfast_fan.h"
#include "mjfast_kernels.h"

enum { MT_KINDS = 27, MT_WALL = 108, MT_MAX_DISCARDS = 48, MT_MAX_PLAYERS = 4 };
enum { MT_DISCARD = 0, MT_PUNG = 27, MT_KONG = 54, MT_ADDED = 81, MT_CONCEALED = 108,
       MT_WIN = 135, MT_PASS = 136, MT_VOID = 137, MT_ACTIONS = 140 };
enum { MT_VOIDP = 0, MT_TURN = 1, MT_CLAIM = 2, MT_ROB = 3, MT_OVER = 4 };
enum { MT_PLAYER_RANDOM = 0, MT_PLAYER_EFFICIENT = 1 };

typedef struct {
    const int32_t *fan;   /* MF_R_* table with cap -1 (uncapped fans) */
    int cap;              /* -1: none */
    int offset;           /* display offset */
    int64_t exposed_kong, added_kong, concealed_kong, hua_zhu;
    int jia_jia_you, zhuan_yi, add_base, kong_refund, guo_shui, zui_hou;
} mt_rules_t;

typedef struct {
    int8_t player, tile, status; /* status 0 active, 1 income handed on (呼叫转移) */
    int8_t npay;
    int8_t payer[MT_MAX_PLAYERS];
    int64_t amount[MT_MAX_PLAYERS];
} mt_kong_t;

typedef struct {
    const mt_rules_t *R;
    int n, dealer;
    uint8_t wall[MT_WALL];
    int pos;
    uint8_t hands[MT_MAX_PLAYERS][MT_KINDS];
    int8_t melds[MT_MAX_PLAYERS][4][2];
    int8_t n_melds[MT_MAX_PLAYERS];
    uint8_t meld_counts[MT_MAX_PLAYERS][MT_KINDS];
    uint8_t conc[MT_MAX_PLAYERS][MT_KINDS];
    int8_t river[MT_MAX_PLAYERS][MT_MAX_DISCARDS];
    int16_t river_len[MT_MAX_PLAYERS];
    uint8_t taken[MT_MAX_PLAYERS][MT_MAX_DISCARDS];
    int8_t void_[MT_MAX_PLAYERS];
    uint8_t won[MT_MAX_PLAYERS];
    int8_t win_order[MT_MAX_PLAYERS];
    int16_t win_fan[MT_MAX_PLAYERS];
    uint32_t waits[MT_MAX_PLAYERS];
    int16_t passed_fan[MT_MAX_PLAYERS];
    int16_t draws[MT_MAX_PLAYERS];
    int64_t scores[MT_MAX_PLAYERS];
    int64_t rewards[MT_MAX_PLAYERS];
    uint8_t won_tiles[MT_KINDS];
    int phase, current, drawn, after_kong, after_pung, tile, source, kong_discard;
    int8_t queue[MT_MAX_PLAYERS];
    int nq, qi;
    int16_t claims[MT_MAX_PLAYERS];
    int any_meld, turns, winners;
    mt_kong_t kongs[16];
    int n_kongs;
    /* per-hand flags for the results */
    int ended_drawn, tian_hu, multi;
    uint8_t hua_zhu[MT_MAX_PLAYERS], cha[MT_MAX_PLAYERS];
} mt_table_t;

/* ---- random numbers (splitmix64: seeds, shuffles, the random player) -------------------- */

static inline uint64_t mt_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t mt_below(uint64_t *s, uint64_t n) { return mt_next(s) % n; }

/* The wall of hand `index` of a run seeded `seed`: a Fisher-Yates shuffle of 4 x 27 kinds. */
static inline void mt_deal_wall(uint64_t seed, uint64_t index, uint8_t *wall) {
    uint64_t s = seed * 0x2545F4914F6CDD1Dull ^ (index + 0x632BE59BD9B4E019ull);
    mt_next(&s);
    for (int i = 0; i < MT_WALL; i++) wall[i] = (uint8_t)(i / 4);
    for (int i = MT_WALL - 1; i > 0; i--) {
        int j = (int)mt_below(&s, (uint64_t)i + 1);
        uint8_t t = wall[i];
        wall[i] = wall[j];
        wall[j] = t;
    }
}

/* ---- kernels on one hand --------------------------------------------------------------- */

static inline int64_t mt_kernel(int op, const uint8_t *hands, int64_t rows, const uint8_t *melds,
                                int void_s, const uint8_t *visible, void *out) {
    mj_job_t job;
    memset(&job, 0, sizeof job);
    job.op = op;
    job.form = MJ_FORM_ALL;
    job.void_rule = 1;
    job.hands = hands;
    job.melds = melds;
    job.void_scalar = void_s;
    job.visible = visible;
    job.visible_stride = visible ? 27 : 0;
    job.out = out;
    return mj_run(&job, 0, rows);
}

/* Seat p's meld counts for the kernels: NULL without melds (the meld-free path is the fast one). */
static inline const uint8_t *mt_melds(const mt_table_t *t, int p) {
    return t->n_melds[p] ? t->meld_counts[p] : NULL;
}

static inline int mt_shanten(const uint8_t *hand, const uint8_t *melds, int v) {
    int8_t out = 0;
    mt_kernel(MJ_OP_SHANTEN, hand, 1, melds, v, NULL, &out);
    return out;
}

static inline void mt_update_waits(mt_table_t *t, int p) {
    uint32_t w = 0;
    mt_kernel(MJ_OP_WAITS, t->hands[p], 1, mt_melds(t, p), t->void_[p], NULL, &w);
    t->waits[p] = w;
}

static inline int mt_is_win14(const uint8_t *hand, int v) {
    uint8_t out = 0;
    mt_kernel(MJ_OP_IS_WIN, hand, 1, NULL, v, NULL, &out);
    return out;
}

/* The uncapped display fan of a win (hand includes the win tile), or -1. */
static inline int mt_fan(const mt_table_t *t, int p, const uint8_t *hand, int w, int flags) {
    mf_job_t job;
    int16_t out = -1;
    memset(&job, 0, sizeof job);
    job.hands = hand;
    job.melds = mt_melds(t, p);
    job.conc = t->n_melds[p] ? t->conc[p] : NULL;
    job.void_scalar = t->void_[p];
    job.win_scalar = w;
    job.flag_scalar = flags;
    job.rules = t->R->fan;
    job.out = &out;
    if (mf_run(&job, MF_OP_FAN, 0, 1) >= 0) return -1;
    return out;
}

static inline int64_t mt_multiplier(const mt_rules_t *R, int display_fan) {
    int f = display_fan - R->offset;
    if (R->cap >= 0 && f > R->cap) f = R->cap;
    return (int64_t)1 << f;
}

/* ---- state helpers ---------------------------------------------------------------------- */

static inline int mt_wall_left(const mt_table_t *t) { return MT_WALL - t->pos; }
static inline int mt_wins_on(const mt_table_t *t, int p, int k) { return (int)(t->waits[p] >> k & 1); }
static inline int mt_in_void(const mt_table_t *t, int p, int k) { return k / 9 == t->void_[p]; }

static inline int mt_void_held(const mt_table_t *t, int p) {
    int v = t->void_[p];
    if (v < 0) return 0;
    for (int r = 0; r < 9; r++)
        if (t->hands[p][9 * v + r]) return 1;
    return 0;
}

static inline int mt_pung_slot(const mt_table_t *t, int p, int k) {
    for (int i = 0; i < t->n_melds[p]; i++)
        if (t->melds[p][i][0] == k && t->melds[p][i][1] == 0) return i;
    return -1;
}

static inline int mt_next_in(const mt_table_t *t, int seat) {
    for (int i = 1; i <= t->n; i++) {
        int q = (seat + i) % t->n;
        if (!t->won[q]) return q;
    }
    return seat;
}

static inline int mt_self_win(const mt_table_t *t, int p) {
    if (t->draws[p] == 0) return mt_is_win14(t->hands[p], t->void_[p]);
    return mt_wins_on(t, p, t->drawn);
}

static inline int mt_claim_flags(const mt_table_t *t) {
    return (t->phase == MT_ROB ? MF_ROB : 0) | (t->kong_discard ? MF_AKD : 0) |
           (mt_wall_left(t) == 0 ? MF_LAST : 0);
}

static inline int mt_claim_fan(const mt_table_t *t, int p) {
    uint8_t hand[27];
    memcpy(hand, t->hands[p], 27);
    hand[t->tile]++;
    int f = mt_fan(t, p, hand, t->tile, mt_claim_flags(t));
    return f < 0 ? 0 : f;
}

static inline int mt_forced(const mt_table_t *t) {
    return t->R->zui_hou && mt_wall_left(t) <= 4;
}

/* ---- legal actions (legal.py) ----------------------------------------------------------- */

static inline void mt_mask(const mt_table_t *t, uint8_t *m) {
    memset(m, 0, MT_ACTIONS);
    if (t->phase == MT_OVER) return;
    int p = t->current;
    const uint8_t *hand = t->hands[p];
    if (t->phase == MT_VOIDP) {
        m[MT_VOID] = m[MT_VOID + 1] = m[MT_VOID + 2] = 1;
        return;
    }
    if (t->phase == MT_TURN) {
        if (!t->after_pung) {
            if (mt_self_win(t, p)) {
                m[MT_WIN] = 1;
                if (mt_forced(t)) return;
            }
            if (mt_wall_left(t) > 0) {
                for (int k = 0; k < 27; k++)
                    if (hand[k] == 4 && !mt_in_void(t, p, k)) m[MT_CONCEALED + k] = 1;
                for (int i = 0; i < t->n_melds[p]; i++) {
                    int k = t->melds[p][i][0];
                    if (t->melds[p][i][1] == 0 && hand[k]) m[MT_ADDED + k] = 1;
                }
            }
        }
        int v = t->void_[p];
        if (mt_void_held(t, p)) {
            for (int r = 0; r < 9; r++) m[MT_DISCARD + 9 * v + r] = hand[9 * v + r] > 0;
        } else {
            for (int k = 0; k < 27; k++) m[MT_DISCARD + k] = hand[k] > 0;
        }
        return;
    }
    int k = t->tile;
    m[MT_PASS] = 1;
    if (mt_wins_on(t, p, k) &&
        !(t->R->guo_shui && t->passed_fan[p] >= 0 && mt_claim_fan(t, p) <= t->passed_fan[p])) {
        m[MT_WIN] = 1;
        if (mt_forced(t)) {
            m[MT_PASS] = 0;
            return;
        }
    }
    if (t->phase == MT_CLAIM && !mt_in_void(t, p, k)) {
        m[MT_PUNG + k] = hand[k] >= 2;
        m[MT_KONG + k] = hand[k] == 3 && mt_wall_left(t) > 0;
    }
}

/* ---- payments (the Round ledger) -------------------------------------------------------- */

static inline void mt_pay(mt_table_t *t, int payer, int receiver, int64_t amount) {
    if (amount <= 0) return;
    t->scores[payer] -= amount;
    t->scores[receiver] += amount;
    t->rewards[payer] -= amount;
    t->rewards[receiver] += amount;
}

/* kind: 0 exposed (from d), 1 added, 2 concealed. */
static inline void mt_record_kong(mt_table_t *t, int p, int k, int kind, int d) {
    const mt_rules_t *R = t->R;
    mt_kong_t *g = &t->kongs[t->n_kongs++];
    g->player = (int8_t)p;
    g->tile = (int8_t)k;
    g->status = 0;
    g->npay = 0;
    for (int q = 0; q < t->n; q++) {
        if (q == p || t->won[q]) continue;
        int64_t a = kind == 0 ? (q == d ? R->exposed_kong : (R->jia_jia_you ? 1 : 0))
                  : kind == 1 ? R->added_kong : R->concealed_kong;
        if (a <= 0) continue;
        mt_pay(t, q, p, a);
        g->payer[g->npay] = (int8_t)q;
        g->amount[g->npay++] = a;
    }
}

static inline void mt_start_turn(mt_table_t *t, int p, int replacement);

static inline void mt_add_meld(mt_table_t *t, int p, int k, int kind) {
    t->melds[p][t->n_melds[p]][0] = (int8_t)k;
    t->melds[p][t->n_melds[p]][1] = (int8_t)kind;
    t->n_melds[p]++;
    t->meld_counts[p][k] = kind == 0 ? 3 : 4;
    if (kind == 3) t->conc[p][k] = 1;
    t->any_meld = 1;
}

/* One win event: winners[0..nw) on tile w from d (-1: self-drawn), their hands incl. w. */
static inline void mt_win(mt_table_t *t, const int *winners, int nw, int w, int d, int flags) {
    const mt_rules_t *R = t->R;
    int64_t income = 0;
    if ((flags & MF_AKD) && R->zhuan_yi && t->n_kongs) {
        mt_kong_t *g = &t->kongs[t->n_kongs - 1];
        for (int i = 0; i < g->npay; i++) income += g->amount[i];
        g->status = 1;
    }
    for (int i = 0; i < nw; i++) {
        int p = winners[i];
        uint8_t hand[27];
        memcpy(hand, t->hands[p], 27);
        if (d >= 0) hand[w]++;
        int fan = mt_fan(t, p, hand, w, flags);
        int64_t amount = mt_multiplier(R, fan);
        if (d < 0) {
            if (R->add_base) amount += 1;
            for (int q = 0; q < t->n; q++)
                if (q != p && !t->won[q]) mt_pay(t, q, p, amount);
        } else {
            mt_pay(t, d, p, amount);
            if (income > 0) mt_pay(t, d, p, income);
        }
        t->win_fan[p] = (int16_t)fan;
    }
    for (int i = 0; i < nw; i++) {
        int p = winners[i];
        t->won[p] = 1;
        t->win_order[p] = (int8_t)t->winners;
    }
    t->winners++;
    if (nw > 1) t->multi = 1;
    if (flags & MF_TIAN) t->tian_hu = 1;
}

static inline int mt_won_count(const mt_table_t *t) {
    int c = 0;
    for (int q = 0; q < t->n; q++) c += t->won[q];
    return c;
}

static inline void mt_after_win(mt_table_t *t, int last) {
    if (mt_won_count(t) >= t->n - 1) {
        t->phase = MT_OVER;
        return;
    }
    mt_start_turn(t, mt_next_in(t, last), 0);
}

/* Copies seat p has seen outside its own hand (engine.py _visible). */
static inline void mt_visible(const mt_table_t *t, int p, uint8_t *seen) {
    int c[27] = {0};
    for (int q = 0; q < t->n; q++) {
        for (int i = 0; i < t->river_len[q]; i++)
            if (!t->taken[q][i]) c[t->river[q][i]]++;
        if (q != p)
            for (int k = 0; k < 27; k++) c[k] += t->meld_counts[q][k] + (t->won[q] ? t->hands[q][k] : 0);
    }
    for (int k = 0; k < 27; k++) seen[k] = (uint8_t)(c[k] + t->won_tiles[k]);
}

static inline void mt_draw_end(mt_table_t *t) {
    const mt_rules_t *R = t->R;
    int n = t->n, ready[MT_MAX_PLAYERS] = {0}, pig[MT_MAX_PLAYERS] = {0};
    int64_t pay[MT_MAX_PLAYERS] = {0};
    t->ended_drawn = 1;
    t->phase = MT_OVER;
    for (int p = 0; p < n; p++) {
        if (t->won[p]) continue;
        int suits = 0;
        for (int k = 0; k < 27; k++)
            if (t->hands[p][k] || t->meld_counts[p][k]) suits |= 1 << (k / 9);
        pig[p] = suits == 7 || (t->void_[p] >= 0 && (suits >> t->void_[p] & 1));
        if (pig[p]) continue;
        uint8_t seen[27];
        mf_job_t job;
        int16_t out = -1;
        mt_visible(t, p, seen);
        memset(&job, 0, sizeof job);
        job.hands = t->hands[p];
        job.melds = mt_melds(t, p);
        job.conc = t->n_melds[p] ? t->conc[p] : NULL;
        job.void_scalar = t->void_[p];
        job.visible = seen;
        job.rules = R->fan;
        job.out = &out;
        mf_run(&job, MF_OP_MAX_FAN, 0, 1);
        if (out >= 0) {
            ready[p] = 1;
            pay[p] = mt_multiplier(R, out);
        }
    }
    for (int h = 0; h < n; h++) {
        if (t->won[h] || !pig[h]) continue;
        t->hua_zhu[h] = 1;
        for (int j = 0; j < n; j++)
            if (!t->won[j] && !pig[j]) mt_pay(t, h, j, R->hua_zhu);
    }
    for (int i = 0; i < n; i++) {
        if (t->won[i] || pig[i] || ready[i]) continue;
        for (int j = 0; j < n; j++) {
            if (t->won[j] || !ready[j]) continue;
            t->cha[i] = 1;
            mt_pay(t, i, j, pay[j]);
        }
    }
    if (!R->kong_refund) return;
    for (int i = 0; i < n; i++) {
        if (t->won[i] || ready[i]) continue;
        int64_t owed[MT_MAX_PLAYERS] = {0};
        for (int g = 0; g < t->n_kongs; g++) {
            const mt_kong_t *k = &t->kongs[g];
            if (k->player != i || k->status) continue;
            for (int j = 0; j < k->npay; j++) owed[k->payer[j]] += k->amount[j];
        }
        for (int q = 0; q < n; q++) mt_pay(t, i, q, owed[q]);
    }
}

/* ---- transitions (engine.py) ------------------------------------------------------------ */

static inline void mt_start_turn(mt_table_t *t, int p, int replacement) {
    if (mt_wall_left(t) == 0) {
        mt_draw_end(t);
        return;
    }
    t->drawn = t->wall[t->pos++];
    t->hands[p][t->drawn]++;
    t->draws[p]++;
    t->passed_fan[p] = -1;
    t->phase = MT_TURN;
    t->current = p;
    t->after_kong = replacement;
    t->after_pung = 0;
    if (!replacement) t->turns++;
}

static inline void mt_ask_next(mt_table_t *t);

/* Does seat q get asked about the tile in play: would its mask hold more than a pass (the mask
 * of legal.py, without building it)? */
static inline int mt_asked(const mt_table_t *t, int q) {
    int k = t->tile;
    if (mt_wins_on(t, q, k)) {
        if (!(t->R->guo_shui && t->passed_fan[q] >= 0 && mt_claim_fan(t, q) <= t->passed_fan[q]))
            return 1;
    }
    return t->phase == MT_CLAIM && t->hands[q][k] >= 2 && !mt_in_void(t, q, k);
}

static inline void mt_open(mt_table_t *t, int phase, int source) {
    t->phase = phase;
    t->nq = t->qi = 0;
    for (int q = 0; q < t->n; q++) t->claims[q] = -1;
    for (int i = 1; i < t->n; i++) {
        int q = (source + i) % t->n;
        if (!t->won[q] && mt_asked(t, q)) t->queue[t->nq++] = (int8_t)q;
    }
    mt_ask_next(t);
}

static inline void mt_discard_win(mt_table_t *t, int robbing) {
    int winners[MT_MAX_PLAYERS], nw = 0, d = t->source, k = t->tile;
    for (int i = 1; i < t->n; i++) {
        int q = (d + i) % t->n;
        if (t->claims[q] == MT_WIN) winners[nw++] = q;
    }
    if (!robbing) t->taken[d][t->river_len[d] - 1] = 1;
    t->won_tiles[k]++;
    int flags = (robbing ? MF_ROB : 0) | (t->kong_discard ? MF_AKD : 0) |
                (mt_wall_left(t) == 0 ? MF_LAST : 0);
    mt_win(t, winners, nw, k, d, flags);
    mt_after_win(t, winners[nw - 1]);
}

static inline void mt_ask_next(mt_table_t *t) {
    if (t->qi < t->nq) {
        t->current = t->queue[t->qi++];
        return;
    }
    int any_win = 0, taker = -1;
    for (int q = 0; q < t->n; q++) {
        if (t->claims[q] == MT_WIN) any_win = 1;
        else if (t->claims[q] >= 0 && t->claims[q] != MT_PASS) taker = q;
    }
    int k = t->tile, d = t->source;
    if (t->phase == MT_ROB) {
        if (any_win) {
            mt_discard_win(t, 1);
        } else {
            t->melds[d][mt_pung_slot(t, d, k)][1] = 2;
            t->meld_counts[d][k] = 4;
            mt_record_kong(t, d, k, 1, -1);
            mt_start_turn(t, d, 1);
        }
        return;
    }
    if (any_win) {
        mt_discard_win(t, 0);
    } else if (taker >= 0) {
        int q = taker;
        t->taken[d][t->river_len[d] - 1] = 1;
        if (t->claims[q] >= MT_KONG) {
            t->hands[q][k] = 0;
            mt_add_meld(t, q, k, 1);
            mt_record_kong(t, q, k, 0, d);
            mt_update_waits(t, q);
            mt_start_turn(t, q, 1);
        } else {
            t->hands[q][k] -= 2;
            mt_add_meld(t, q, k, 0);
            t->phase = MT_TURN;
            t->current = q;
            t->after_pung = 1;
            t->after_kong = 0;
            t->drawn = -1;
            t->turns++;
        }
    } else {
        mt_start_turn(t, mt_next_in(t, d), 0);
    }
}

static inline void mt_turn_action(mt_table_t *t, int p, int a) {
    if (a == MT_WIN) {
        int first = t->draws[p] <= 1 && !t->any_meld && !t->after_kong;
        int flags = MF_SD | (t->after_kong ? MF_AK : 0) | (mt_wall_left(t) == 0 ? MF_LAST : 0) |
                    (first && p == t->dealer && t->draws[p] == 0 ? MF_TIAN : 0) |
                    (first && p != t->dealer ? MF_DI : 0);
        int w[1] = {p};
        mt_win(t, w, 1, t->drawn, -1, flags);
        mt_after_win(t, p);
    } else if (a >= MT_CONCEALED) {
        int k = a - MT_CONCEALED;
        t->hands[p][k] = 0;
        mt_add_meld(t, p, k, 3);
        mt_record_kong(t, p, k, 2, -1);
        mt_update_waits(t, p);
        mt_start_turn(t, p, 1);
    } else if (a >= MT_ADDED) {
        int k = a - MT_ADDED;
        t->hands[p][k]--;
        mt_update_waits(t, p);
        t->tile = k;
        t->source = p;
        t->kong_discard = 0;
        mt_open(t, MT_ROB, p);
    } else {
        int k = a - MT_DISCARD;
        t->hands[p][k]--;
        t->river[p][t->river_len[p]++] = (int8_t)k;
        mt_update_waits(t, p);
        t->tile = k;
        t->source = p;
        t->kong_discard = t->after_kong;
        mt_open(t, MT_CLAIM, p);
    }
}

/* Deal from `wall` (copied): the dealer 14, the others 13, in seat order from the dealer. */
static inline void mt_init(mt_table_t *t, const mt_rules_t *R, int n, int dealer,
                           const uint8_t *wall) {
    memset(t, 0, sizeof *t);
    t->R = R;
    t->n = n;
    t->dealer = dealer;
    memcpy(t->wall, wall, MT_WALL);
    for (int i = 0; i < n; i++) {
        int p = (dealer + i) % n, size = i == 0 ? 14 : 13;
        for (int j = 0; j < size; j++) t->hands[p][t->wall[t->pos++]]++;
        t->void_[i] = -1;
        t->win_order[i] = -1;
        t->win_fan[i] = -1;
        t->passed_fan[i] = -1;
        for (int j = 0; j < 4; j++) t->melds[i][j][0] = t->melds[i][j][1] = -1;
        for (int j = 0; j < MT_MAX_DISCARDS; j++) t->river[i][j] = -1;
    }
    t->drawn = t->wall[13];
    t->current = dealer;
    t->phase = MT_VOIDP;
    t->tile = t->source = -1;
}

/* The current player takes action a (legal: the caller checked the mask). The step's payments
 * are left in t->rewards. */
static inline void mt_step(mt_table_t *t, int a) {
    int p = t->current;
    memset(t->rewards, 0, sizeof t->rewards);
    if (t->phase == MT_VOIDP) {
        t->void_[p] = (int8_t)(a - MT_VOID);
        int q = (p + 1) % t->n;
        if (q != t->dealer) {
            t->current = q;
            return;
        }
        for (int i = 0; i < t->n; i++)
            if (i != t->dealer) mt_update_waits(t, i);
        t->phase = MT_TURN;
        t->current = t->dealer;
        t->turns = 1;
    } else if (t->phase == MT_TURN) {
        mt_turn_action(t, p, a);
    } else {
        uint8_t m[MT_ACTIONS];
        mt_mask(t, m);
        t->claims[p] = (int16_t)a;
        if (a != MT_WIN && m[MT_WIN] && t->R->guo_shui) {
            int f = mt_claim_fan(t, p);
            if (f > t->passed_fan[p]) t->passed_fan[p] = (int16_t)f;
        }
        mt_ask_next(t);
    }
}

/* ---- players (players.py) --------------------------------------------------------------- */

static inline int mt_random_action(const uint8_t *m, uint64_t *rng) {
    int legal[MT_ACTIONS], n = 0;
    for (int a = 0; a < MT_ACTIONS; a++)
        if (m[a]) legal[n++] = a;
    return legal[mt_below(rng, (uint64_t)n)];
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
    mj_job_t job;
    memset(&job, 0, sizeof job);
    job.op = MJ_OP_EFFECTIVE;
    job.form = MJ_FORM_ALL;
    job.void_rule = 1;
    job.hands = rest;
    job.melds = mt_melds(t, p);
    job.void_scalar = v;
    job.visible = vis;
    job.visible_stride = 27;
    job.out = eff;
    mj_run(&job, 0, nt);
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

/* Play one hand to the end; the actions taken go to log[0..cap) (the count is returned, -1 if
 * the log was too short). */
static inline int mt_play(mt_table_t *t, const int *kinds, uint64_t *rng, int16_t *log, int cap) {
    uint8_t m[MT_ACTIONS];
    int steps = 0;
    while (t->phase != MT_OVER) {
        mt_mask(t, m);
        int a = mt_choose(t, kinds[t->current], m, rng);
        if (log) {
            if (steps < cap) log[steps] = (int16_t)a;
        }
        steps++;
        mt_step(t, a);
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
