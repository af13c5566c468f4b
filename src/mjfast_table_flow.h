/* mjfast table engine, part 2: the payments of the Round ledger and the transitions of one
 * hand (mjfast/table/engine.py). Part 1 (mjfast_table.h): the state and the legal actions;
 * part 3 (mjfast_table_play.h): the built-in players and the observations.
 */
#ifndef MJFAST_TABLE_FLOW_H
#define MJFAST_TABLE_FLOW_H

#include "mjfast_table.h"

/* What mt_check finds (and t->violation records): a bug of the engine, never a game outcome. */
enum { MT_BAD_TILES = 1, MT_BAD_MONEY = 2, MT_BAD_WIN = 3, MT_BAD_VOID = 4, MT_BAD_COUNT = 5,
       MT_BAD_KEPT = 6 };

/* ---- payments (the Round ledger) -------------------------------------------------------- */

static inline void mt_pay(mt_table_t *t, int payer, int receiver, int64_t amount) {
    if (amount <= 0) return;
    t->scores[payer] -= amount;
    t->scores[receiver] += amount;
    t->rewards[payer] -= amount;
    t->rewards[receiver] += amount;
}

/* What seat q pays for kong g (when it pays): the discarder of an exposed kong the exposed
 * amount, the others 1 with 家家有; each player the added or concealed amount. */
static inline int64_t mt_kong_amount(const mt_rules_t *R, const mt_kong_t *g, int q) {
    if (g->kind == 0) return q == g->source ? R->exposed_kong : (R->jia_jia_you ? 1 : 0);
    return g->kind == 1 ? R->added_kong : R->concealed_kong;
}

/* kind: 0 exposed (from d), 1 added, 2 concealed. With 即时加杠 an added kong not declared on
 * the turn its fourth copy was drawn is recorded (for 抢杠 and 杠上花) but earns nothing. */
static inline void mt_record_kong(mt_table_t *t, int p, int k, int kind, int d) {
    const mt_rules_t *R = t->R;
    mt_kong_t *g = &t->kongs[t->n_kongs++];
    g->player = (int8_t)p;
    g->tile = (int8_t)k;
    g->status = 0;
    g->source = (int8_t)(kind == 0 ? d : -1);
    g->kind = (int8_t)kind;
    g->payers = 0;
    if (kind == 1 && R->immediate && !(t->turn_drawn >> k & 1)) return;
    for (int q = 0; q < t->n; q++) {
        if (q == p || t->won[q]) continue;
        int64_t a = mt_kong_amount(R, g, q);
        if (a <= 0) continue;
        mt_pay(t, q, p, a);
        g->payers |= (uint8_t)(1u << q);
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

/* The income of the kong a win follows, per the rules: handed to each winner (returned: 呼叫转移
 * on 杠上炮, 转雨 on 抢杠), refunded to its payers (杠上炮 "refund") or kept. The robbed kong of
 * 转雨 was recorded just before the win; an annulled one never was. */
static inline int64_t mt_kong_money(mt_table_t *t, int d, int flags) {
    const mt_rules_t *R = t->R;
    if (!t->n_kongs || d < 0) return 0;
    mt_kong_t *g = &t->kongs[t->n_kongs - 1];
    int64_t income = 0;
    int pao = (flags & MF_AKD) != 0;
    if ((pao && R->pao_kong == MT_PAO_TRANSFER) || ((flags & MF_ROB) && R->rob_transfer)) {
        for (int q = 0; q < t->n; q++)
            if (g->payers >> q & 1) income += mt_kong_amount(R, g, q);
        g->status = 1;
    } else if (pao && R->pao_kong == MT_PAO_REFUND) {
        for (int q = 0; q < t->n; q++)
            if (g->payers >> q & 1) mt_pay(t, d, q, mt_kong_amount(R, g, q));
        g->status = 1;
    }
    return income;
}

/* One win event: winners[0..nw) on tile w from d (-1: self-drawn), their hands incl. w; each
 * winner's flags are `flags` plus its own (mt_own_flags: 地胡 on a discard, 绝张). */
static inline void mt_win(mt_table_t *t, const int *winners, int nw, int w, int d, int flags) {
    const mt_rules_t *R = t->R;
    int own[MT_MAX_PLAYERS];
    for (int i = 0; i < nw; i++) own[i] = mt_own_flags(t, winners[i], w, d >= 0);
    int64_t income = mt_kong_money(t, d, flags);
    /* 点杠花: a 杠上花 on an exposed kong's replacement draw is paid by its discarder alone */
    int dian = d < 0 && (flags & MF_AK) && R->dian_gang_hua && t->n_kongs
               ? t->kongs[t->n_kongs - 1].source : -1;
    for (int i = 0; i < nw; i++) {
        int p = winners[i];
        uint8_t hand[27];
        memcpy(hand, t->hands[p], 27);
        if (d >= 0) hand[w]++;
        int fan = mt_fan(t, p, hand, w, flags | own[i]);
        if (fan < 0 && !t->violation) t->violation = MT_BAD_WIN;
        int64_t amount = mt_multiplier(R, fan);
        if (dian >= 0) {
            mt_pay(t, dian, p, amount);
        } else if (d < 0) {
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
    if (d >= 0) t->dealt_in[d] = 1;
    if (t->winners == 0) t->first_from = d;
    t->winners++;
    if (nw > 1) t->multi = 1;
    if (flags & MF_TIAN) t->tian_hu = 1;
}

static inline int mt_won_count(const mt_table_t *t) {
    int c = 0;
    for (int q = 0; q < t->n; q++) c += t->won[q];
    return c;
}

static inline void mt_settle(mt_table_t *t);

static inline void mt_after_win(mt_table_t *t, int last) {
    if (mt_won_count(t) >= t->n - 1 || !t->R->xue_zhan) {
        t->phase = MT_OVER;
        /* 晒太阳: the last player settles alone (血战 only: 普通场 settles only a hand nobody won) */
        if (t->R->shai_tai_yang && t->R->xue_zhan) mt_settle(t);
        return;
    }
    mt_start_turn(t, mt_next_in(t, last), 0);
}

/* Copies seat p has seen outside its own hand (engine.py _visible). */
static inline void mt_visible(const mt_table_t *t, int p, uint8_t *seen) {
    int c[27];
    for (int k = 0; k < 27; k++) c[k] = t->live[k];
    for (int q = 0; q < t->n; q++) {
        if (q != p)
            for (int k = 0; k < 27; k++) c[k] += t->meld_counts[q][k] + (t->won[q] ? t->hands[q][k] : 0);
    }
    for (int k = 0; k < 27; k++) seen[k] = (uint8_t)(c[k] + t->won_tiles[k]);
}

/* Is seat p a 花猪 at the settlement: three suits, or a tile of its void suit (with the 花猪
 * exception, not when it discarded tiles of one suit only)? */
static inline int mt_hua_zhu(const mt_table_t *t, int p) {
    int suits = 0, thrown = 0;
    uint32_t kinds = t->held[p] | mt_held_kinds(t->meld_counts[p]);
    for (int q = 0; q < 3; q++) suits |= (kinds >> 9 * q & 0x1FF ? 1 : 0) << q;
    if (!(suits == 7 || (t->void_[p] >= 0 && (suits >> t->void_[p] & 1)))) return 0;
    if (!t->R->one_suit) return 1;
    for (int i = 0; i < t->river_len[p]; i++) thrown |= 1 << (t->river[p][i] / 9);
    return !(thrown == 1 || thrown == 2 || thrown == 4);
}

/* Seat p's 大叫 payment (what each player not ready pays it), or -1 when it is not ready. */
static inline int64_t mt_da_jiao(const mt_table_t *t, int p) {
    const mt_rules_t *R = t->R;
    if (!t->waits[p]) return -1; /* no wait: not ready (waits are kept current) */
    uint8_t seen[27];
    mf_job_t job;
    int16_t out = -1;
    int si_jiao = R->fan[MF_R_SIJIAO]; /* only 死叫 reads the copies seen */
    if (si_jiao) mt_visible(t, p, seen);
    memset(&job, 0, sizeof job);
    job.sets = t->sets;
    job.hands = t->hands[p];
    job.melds = mt_melds(t, p);
    job.conc = t->n_melds[p] ? t->conc[p] : NULL;
    job.void_scalar = t->void_[p];
    job.visible = si_jiao ? seen : NULL;
    job.rules = R->fan;
    job.out = &out;
    mf_run(&job, MF_OP_MAX_FAN, 0, 1);
    return out >= 0 ? mt_multiplier(R, out) : -1;
}

/* The draw settlement (RULES.md 6, draw.py) of the seats still in: at a draw, or for the last
 * one alone (晒太阳). The flags of the results mark a seat that paid a 花猪 or a 大叫. */
static inline void mt_settle(mt_table_t *t) {
    const mt_rules_t *R = t->R;
    int n = t->n, pig[MT_MAX_PLAYERS] = {0};
    int64_t pay[MT_MAX_PLAYERS];
    for (int p = 0; p < n; p++) {
        pay[p] = -1;
        if (t->won[p]) continue;
        pig[p] = R->cha_hua_zhu && mt_hua_zhu(t, p);
        if (!pig[p]) pay[p] = mt_da_jiao(t, p);
    }
    for (int h = 0; h < n; h++) {
        if (t->won[h] || !pig[h]) continue;
        for (int j = 0; j < n; j++) {
            if (t->won[j] || pig[j] || R->hua_zhu <= 0) continue;
            t->hua_zhu[h] = 1;
            mt_pay(t, h, j, R->hua_zhu);
        }
    }
    for (int i = 0; i < n; i++) {
        if (t->won[i] || pig[i] || pay[i] >= 0) continue;
        for (int j = 0; j < n; j++) {
            if (t->won[j] || pay[j] <= 0) continue;
            t->cha[i] = 1;
            mt_pay(t, i, j, pay[j]);
        }
    }
    if (!R->kong_refund) return;
    for (int i = 0; i < n; i++) {
        if (t->won[i] || pay[i] >= 0) continue;
        int64_t owed[MT_MAX_PLAYERS] = {0};
        for (int g = 0; g < t->n_kongs; g++) {
            const mt_kong_t *k = &t->kongs[g];
            if (k->player != i || k->status) continue;
            for (int q = 0; q < n; q++)
                if (k->payers >> q & 1) owed[q] += mt_kong_amount(R, k, q);
        }
        for (int q = 0; q < n; q++) mt_pay(t, i, q, owed[q]);
    }
}

static inline void mt_draw_end(mt_table_t *t) {
    t->ended_drawn = 1;
    t->phase = MT_OVER;
    mt_settle(t);
}

/* ---- transitions (engine.py) ------------------------------------------------------------ */

static inline void mt_start_turn(mt_table_t *t, int p, int replacement) {
    if (mt_wall_left(t) == 0) {
        mt_draw_end(t);
        return;
    }
    t->drawn = t->wall[t->pos++];
    t->turn_drawn = (replacement ? t->turn_drawn : 0) | 1u << t->drawn;
    mt_hand_add(t, p, t->drawn, 1);
    t->draws[p]++;
    t->passed_fan[p] = -1;
    t->passed_tiles[p] = 0;
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
    if (mt_may_win(t, q)) return 1;
    return t->phase == MT_CLAIM && t->hands[q][k] >= 2 && !mt_in_void(t, q, k);
}

static inline void mt_open(mt_table_t *t, int phase, int source) {
    t->phase = phase;
    t->nq = t->qi = 0;
    for (int q = 0; q < MT_MAX_PLAYERS; q++) t->claims[q] = -1; /* all: no memset call */
    for (int i = 1, q = mt_after(t, source); i < t->n; i++, q = mt_after(t, q))
        if (!t->won[q] && mt_asked(t, q)) t->queue[t->nq++] = (int8_t)q;
    mt_ask_next(t);
}

/* Seat d's last discard is claimed (won on, punged or konged): out of its river's live tiles. */
static inline void mt_take_discard(mt_table_t *t, int d) {
    int i = t->river_len[d] - 1;
    t->taken[d][i] = 1;
    t->live[(int)t->river[d][i]]--;
}

static inline void mt_discard_win(mt_table_t *t, int robbing) {
    int winners[MT_MAX_PLAYERS], nw = 0, d = t->source, k = t->tile;
    for (int i = 1, q = mt_after(t, d); i < t->n; i++, q = mt_after(t, q))
        if (t->claims[q] == MT_WIN) winners[nw++] = q;
    if (!robbing) mt_take_discard(t, d);
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
            if (t->R->rob_transfer) mt_record_kong(t, d, k, 1, -1); /* 转雨: for the robbers */
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
        mt_take_discard(t, d);
        if (t->claims[q] >= MT_KONG) {
            mt_hand_add(t, q, k, -3);
            mt_add_meld(t, q, k, 1);
            mt_record_kong(t, q, k, 0, d);
            mt_update_waits(t, q);
            mt_start_turn(t, q, 1);
        } else {
            mt_hand_add(t, q, k, -2);
            mt_add_meld(t, q, k, 0);
            t->phase = MT_TURN;
            t->current = q;
            t->after_pung = 1;
            t->after_kong = 0;
            t->drawn = -1;
            t->turn_drawn = 0;
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
        mt_hand_add(t, p, k, -4);
        mt_add_meld(t, p, k, 3);
        mt_record_kong(t, p, k, 2, -1);
        mt_update_waits(t, p);
        mt_start_turn(t, p, 1);
    } else if (a >= MT_ADDED) {
        int k = a - MT_ADDED;
        mt_hand_add(t, p, k, -1);
        mt_update_waits(t, p);
        t->tile = k;
        t->source = p;
        t->kong_discard = 0;
        mt_open(t, MT_ROB, p);
    } else {
        int k = a - MT_DISCARD;
        if (mt_void_held(t, p) && !mt_in_void(t, p, k) && !t->violation) t->violation = MT_BAD_VOID;
        mt_hand_add(t, p, k, -1);
        t->river[p][t->river_len[p]++] = (int8_t)k;
        t->live[k]++;
        mt_update_waits(t, p);
        t->tile = k;
        t->source = p;
        t->kong_discard = t->after_kong;
        mt_open(t, MT_CLAIM, p);
    }
}

/* The dealer's first turn, once the void suits are declared (or at once with 不定张). */
static inline void mt_begin_play(mt_table_t *t) {
    for (int i = 0; i < t->n; i++)
        if (i != t->dealer) mt_update_waits(t, i);
    t->phase = MT_TURN;
    t->current = t->dealer;
    t->turns = 1;
}

/* Deal from `wall` (copied) in seat order from the dealer: the dealer 3 sets + 2 tiles, the
 * others 3 sets + 1 (14 / 13; the short hands of 5 and 6 seats: 11 / 10 and 8 / 7). */
static inline void mt_init(mt_table_t *t, const mt_rules_t *R, int n, int dealer,
                           const uint8_t *wall) {
    memset(t, 0, sizeof *t);
    t->R = R;
    t->n = n;
    t->dealer = dealer;
    t->sets = mt_sets_for(n);
    memcpy(t->wall, wall, MT_WALL);
    for (int i = 0; i < n; i++) {
        int p = (dealer + i) % n, size = 3 * t->sets + (i == 0 ? 2 : 1);
        for (int j = 0; j < size; j++) t->hands[p][t->wall[t->pos++]]++;
        mt_hand_index(t, p);
        t->void_[i] = -1;
        t->win_order[i] = -1;
        t->win_fan[i] = -1;
        t->passed_fan[i] = -1;
        for (int j = 0; j < 4; j++) t->melds[i][j][0] = t->melds[i][j][1] = -1;
        for (int j = 0; j < MT_MAX_DISCARDS; j++) t->river[i][j] = -1;
    }
    t->drawn = t->wall[3 * t->sets + 1]; /* the dealer's last dealt tile */
    t->current = dealer;
    t->phase = MT_VOIDP;
    t->tile = t->source = -1;
    t->first_from = -1;
    if (!R->ding_que) mt_begin_play(t);
}

/* The dealer of the next hand once this one is over (Round.next_dealer): the first winner;
 * after several wins on one discard as the first win, the discarder; else the same dealer. */
static inline int mt_next_dealer(const mt_table_t *t) {
    int first = -1, count = 0;
    for (int q = 0; q < t->n; q++)
        if (t->win_order[q] == 0) {
            first = q;
            count++;
        }
    if (!count) return t->dealer;
    return count > 1 ? t->first_from : first;
}

/* The current player takes action a (legal: the caller checked the mask). The step's payments
 * are left in t->rewards. */
static inline void mt_step(mt_table_t *t, int a) {
    int p = t->current;
    memset(t->rewards, 0, sizeof t->rewards);
    if (t->phase == MT_VOIDP) {
        t->void_[p] = (int8_t)(a - MT_VOID);
        int q = mt_after(t, p);
        if (q != t->dealer) {
            t->current = q;
            return;
        }
        mt_begin_play(t);
    } else if (t->phase == MT_TURN) {
        mt_turn_action(t, p, a);
    } else {
        if (a != MT_WIN && t->R->guo_shui && mt_may_win(t, p)) { /* 过水不胡: a win let go */
            if (t->R->guo_shui == 2) {
                t->passed_tiles[p] |= 1u << t->tile;
            } else {
                int f = mt_claim_fan(t, p);
                if (f > t->passed_fan[p]) t->passed_fan[p] = (int16_t)f;
            }
        }
        t->claims[p] = (int16_t)a;
        mt_ask_next(t);
    }
}

/* The invariants after a step: every kind 4 times over wall, hands, melds, live discards, won
 * tiles and a kong's tile waiting for robbers; no count above 4; the hands' kept suit indices
 * and held kinds those of their counts; net payments summing to zero; no win that does not
 * score, no discard against the 定缺 rule. Returns 0 or an MT_BAD_* code. */
static inline int mt_check(const mt_table_t *t) {
    int c[27] = {0}, live[27] = {0};
    int64_t sum = 0;
    if (t->violation) return t->violation;
    for (int i = t->pos; i < MT_WALL; i++) c[t->wall[i]]++;
    for (int q = 0; q < t->n; q++) {
        for (int k = 0; k < 27; k++) {
            if (t->hands[q][k] > 4) return MT_BAD_COUNT;
            c[k] += t->hands[q][k] + t->meld_counts[q][k];
        }
        if (t->held[q] != mt_held_kinds(t->hands[q])) return MT_BAD_KEPT;
        for (int u = 0; u < 3; u++)
            if (t->idx[q][u] != mj_index9(t->hands[q] + 9 * u)) return MT_BAD_KEPT;
        for (int i = 0; i < t->river_len[q]; i++)
            if (!t->taken[q][i]) live[t->river[q][i]]++;
        sum += t->scores[q];
    }
    if (t->phase == MT_ROB) c[t->tile]++;
    for (int k = 0; k < 27; k++)
        if (c[k] + live[k] + t->won_tiles[k] != 4 || live[k] != t->live[k]) return MT_BAD_TILES;
    return sum != 0 ? MT_BAD_MONEY : 0;
}

#endif
