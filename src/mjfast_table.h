/* mjfast table engine: one hand of 血战到底 (RULES.md section 10) as a state machine over flat
 * arrays, the C port of mjfast/table (engine.py, legal.py, players.py), which stays the
 * reference: tests/table/test_c_engine.py plays the same walls through both.
 *
 * The engine knows no presets: the caller passes the fan rules table (MF_R_*, compiled with no
 * cap so that fans come out uncapped) and the numbers of mt_rules_t, the payment multipliers
 * among them (mjfast/table/cengine.py, which refuses by name any Rules field it does not play).
 * Payments follow the Round ledger of mjfast/settlement (kongs with 即时加杠, wins with 自摸加底,
 * 点杠花 and the kong money of 杠上炮 and 转雨, the draw settlement with 查花猪 and its exception,
 * 查大叫 and kong refunds, also for the last player with 晒太阳).
 *
 * Part 1 (this file): the state, random numbers, the kernels on one hand, the legal actions.
 * Part 2 (mjfast_table_flow.h): payments and transitions. Part 3 (mjfast_table_play.h): the
 * built-in players, whole hands and the observations; it includes the other two and the
 * efficient player's hand evaluation (mjfast_table_eval.h).
 */
#ifndef MJFAST_TABLE_H
#define MJFAST_TABLE_H

#include <stdint.h>
#include <string.h>

#include "mjfast_fan.h"
#include "mjfast_batch.h"

enum { MT_KINDS = 27, MT_WALL = 108, MT_MAX_DISCARDS = 48, MT_MAX_PLAYERS = 6 };
enum { MT_DISCARD = 0, MT_PUNG = 27, MT_KONG = 54, MT_ADDED = 81, MT_CONCEALED = 108,
       MT_WIN = 135, MT_PASS = 136, MT_VOID = 137, MT_ACTIONS = 140 };
enum { MT_VOIDP = 0, MT_TURN = 1, MT_CLAIM = 2, MT_ROB = 3, MT_OVER = 4 };
enum { MT_PLAYER_RANDOM = 0, MT_PLAYER_EFFICIENT = 1 };

enum { MT_MULT = 49 }; /* multipliers of internal fan 0..48 (MAX_FAN of mjfast/rules.py) */
enum { MT_PAO_KEEP = 0, MT_PAO_TRANSFER = 1, MT_PAO_REFUND = 2 };

/* The rules as numbers (mjfast/table/cengine.py fills it from a Rules; every field of Rules is
 * played through it or the fan table, or refused there). */
typedef struct {
    const int32_t *fan;   /* MF_R_* table with cap -1 (uncapped fans) */
    const int64_t *mult;  /* [MT_MULT]: a win or 大叫 of internal fan f pays mult[min(f, 48)]
                           * (Rules.multiplier: 2^min(f, cap), or the points) */
    int offset;           /* display offset */
    int64_t exposed_kong, added_kong, concealed_kong, hua_zhu;
    int jia_jia_you, pao_kong, add_base, kong_refund, guo_shui, zui_hou;
    int cha_hua_zhu, one_suit, shai_tai_yang, dian_gang_hua, immediate, rob_transfer;
    int xue_zhan;         /* 0: 普通场, the first win ends the hand */
    int ding_que;         /* 0: 不定张, no declaration phase */
    int di_hu_discard;    /* 地胡 also on a discard in the first go-round */
    int jue_zhang;        /* 绝张 is scored (its fan is in the table): flag it */
} mt_rules_t;

/* A kong's payments are the seats in `payers`, each paying mt_kong_amount (a few bytes a kong:
 * the tables of a batch stay small). */
typedef struct {
    int8_t player, tile, status; /* status 0 active, 1 its income gone (handed on or refunded) */
    int8_t source;               /* the discarder of an exposed kong (点杠花), else -1 */
    int8_t kind;                 /* 0 exposed, 1 added, 2 concealed */
    uint8_t payers;              /* bit q: seat q paid it */
} mt_kong_t;

typedef struct {
    const mt_rules_t *R;
    int n, dealer;
    int sets; /* of a winning hand: 4, or 3 / 2 at 5 / 6 seats (the short hands, mt_sets_for) */
    uint8_t wall[MT_WALL];
    int pos;
    uint8_t hands[MT_MAX_PLAYERS][MT_KINDS]; /* changed through mt_hand_add only */
    int32_t idx[MT_MAX_PLAYERS][3];          /* its suits' base-5 indices, kept as it changes */
    uint32_t held[MT_MAX_PLAYERS];           /* its kinds held (bit k), kept as it changes */
    int8_t melds[MT_MAX_PLAYERS][4][2];
    int8_t n_melds[MT_MAX_PLAYERS];
    uint8_t meld_counts[MT_MAX_PLAYERS][MT_KINDS];
    uint8_t conc[MT_MAX_PLAYERS][MT_KINDS];
    int8_t river[MT_MAX_PLAYERS][MT_MAX_DISCARDS];
    int16_t river_len[MT_MAX_PLAYERS];
    uint8_t taken[MT_MAX_PLAYERS][MT_MAX_DISCARDS];
    uint8_t live[MT_KINDS]; /* discards not taken, per kind (the rivers summed, kept as they change) */
    int8_t void_[MT_MAX_PLAYERS];
    uint8_t won[MT_MAX_PLAYERS];
    int8_t win_order[MT_MAX_PLAYERS];
    int16_t win_fan[MT_MAX_PLAYERS];
    uint32_t waits[MT_MAX_PLAYERS];
    int16_t passed_fan[MT_MAX_PLAYERS];
    uint32_t passed_tiles[MT_MAX_PLAYERS]; /* 过水不胡 "tile": the kinds passed since the draw */
    int16_t draws[MT_MAX_PLAYERS];
    int64_t scores[MT_MAX_PLAYERS];
    int64_t rewards[MT_MAX_PLAYERS];
    uint8_t won_tiles[MT_KINDS];
    int phase, current, drawn, after_kong, after_pung, tile, source, kong_discard;
    int8_t queue[MT_MAX_PLAYERS];
    int nq, qi;
    int16_t claims[MT_MAX_PLAYERS];
    int any_meld, turns, winners;
    int first_from; /* the discarder of the first win event (-1: self-drawn or none yet) */
    mt_kong_t kongs[24]; /* at most 4 melds a seat, and one robbed kong per win (转雨) */
    int n_kongs;
    uint32_t turn_drawn; /* bit k: the current player drew kind k this turn (即时加杠) */
    /* per-hand flags for the results */
    int ended_drawn, tian_hu, multi;
    int violation; /* the first broken rule the engine noticed (mt_check's codes), or 0 */
    uint8_t hua_zhu[MT_MAX_PLAYERS], cha[MT_MAX_PLAYERS];
    uint8_t dealt_in[MT_MAX_PLAYERS]; /* a win was made on the seat's discard or added kong */
} mt_table_t;

/* ---- random numbers (splitmix64: seeds, shuffles, the random player) -------------------- */

static inline uint64_t mt_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A draw from [0, n): the high half of a 64 x 64-bit product (no division), else a modulo. */
static inline uint64_t mt_below(uint64_t *s, uint64_t n) {
#if defined(__SIZEOF_INT128__) && (defined(__GNUC__) || defined(__clang__))
    __extension__ typedef unsigned __int128 mt_u128; /* a GNU type: no -Wpedantic warning */
    return (uint64_t)(((mt_u128)mt_next(s) * n) >> 64);
#else
    return mt_next(s) % n;
#endif
}

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

/* Sets of a winning hand at a table of n seats (RULES.md 7): 4 + pair at 2-4 seats, and the
 * short hands: 3 at 5 seats (dealt 11 / 10), 2 at 6 (8 / 7). */
static inline int mt_sets_for(int n) { return n <= 4 ? 4 : n == 5 ? 3 : 2; }

/* The kinds a hand holds (counts 0-4: bits 0-2 tell), 8 counts at a time with SWAR: bit 0 of
 * byte j gathers into bit j by one multiply (kind-by-kind scans were the hot spot of random
 * play). */
static inline uint32_t mt_held_kinds(const uint8_t *hand) {
    uint32_t out = 0;
#if MJ_SWAR
    uint64_t w[4] = {0, 0, 0, 0};
    memcpy(w, hand, 27);
    for (int i = 0; i < 4; i++) {
        uint64_t x = (w[i] | w[i] >> 1 | w[i] >> 2) & MJ_ONES8;
        out |= (uint32_t)((x * 0x0102040810204080ull) >> 56) << (8 * i);
    }
#else
    for (int k = 0; k < 27; k++) out |= (uint32_t)(hand[k] > 0) << k;
#endif
    return out;
}

/* The kinds a hand holds four times (a word test first: rarely any). */
static inline uint32_t mt_four_kinds(const uint8_t *hand) {
    uint32_t out = 0;
#if MJ_SWAR
    uint64_t w[4] = {0, 0, 0, 0};
    memcpy(w, hand, 27);
    if (!((w[0] | w[1] | w[2] | w[3]) & 4 * MJ_ONES8)) return 0;
    for (int i = 0; i < 4; i++)
        out |= (uint32_t)((((w[i] >> 2) & MJ_ONES8) * 0x0102040810204080ull) >> 56) << (8 * i);
#else
    for (int k = 0; k < 27; k++) out |= (uint32_t)(hand[k] == 4) << k;
#endif
    return out;
}

/* The kinds a hand holds an odd number of times. */
static inline int mt_odd_kinds(const uint8_t *hand) {
#if MJ_SWAR
    uint64_t w[4] = {0, 0, 0, 0};
    int n = 0;
    memcpy(w, hand, 27);
    for (int i = 0; i < 4; i++) n += (int)(((w[i] & MJ_ONES8) * MJ_ONES8) >> 56);
    return n;
#else
    int n = 0;
    for (int k = 0; k < 27; k++) n += hand[k] & 1;
    return n;
#endif
}

/* Seat p's count of kind k changes by d: the hand with its suit indices and held kinds. */
static inline void mt_hand_add(mt_table_t *t, int p, int k, int d) {
    int c = t->hands[p][k] + d;
    t->hands[p][k] = (uint8_t)c;
    t->idx[p][k / 9] += d * MJ_POW[k % 9];
    t->held[p] = (t->held[p] & ~(1u << k)) | (uint32_t)(c > 0) << k;
}

/* The suit indices and held kinds of seat p's hand as dealt. */
static inline void mt_hand_index(mt_table_t *t, int p) {
    for (int s = 0; s < 3; s++) t->idx[p][s] = mj_index9(t->hands[p] + 9 * s);
    t->held[p] = mt_held_kinds(t->hands[p]);
}


static inline int64_t mt_kernel(int op, const uint8_t *hands, int64_t rows, const uint8_t *melds,
                                int void_s, const uint8_t *visible, void *out, int sets) {
    mj_job_t job;
    memset(&job, 0, sizeof job);
    job.sets = sets;
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

static inline int mt_shanten(const uint8_t *hand, const uint8_t *melds, int v, int sets) {
    int8_t out = 0;
    mt_kernel(MJ_OP_SHANTEN, hand, 1, melds, v, NULL, &out, sets);
    return out;
}

/* Seat p's waits (MJ_OP_WAITS), after each change of its 3 sets + 1 - 3m concealed tiles: the
 * hand is the engine's own and valid, so it goes to mj_hand_waits without a job or checks. */
static inline void mt_update_waits(mt_table_t *t, int p) {
    mj_hand_t h;
    mj_row_t row;
    const int32_t *idx = t->idx[p];
    int complete = (MJ.wmask[idx[0]] >> 9 & 1) + (MJ.wmask[idx[1]] >> 9 & 1) +
                   (MJ.wmask[idx[2]] >> 9 & 1);
    /* mj_hand_waits finds a regular wait only where two suits are complete, and seven pairs'
     * only in a meld-free 4-set hand with one kind held an odd number of times: most hands of
     * a game have neither (no waits), and skip the rest */
    if (complete < 2 &&
        !(t->n_melds[p] == 0 && t->sets == 4 && mt_odd_kinds(t->hands[p]) == 1)) {
        t->waits[p] = 0;
        return;
    }
    mj_row_read(&row, t->hands[p]);
    for (int s = 0; s < 3; s++) mj_suit_load(&row, s, &h.idx[s], &h.n[s], &h.odd[s]);
    mj_row_write(&row, h.c);
    h.melds = mt_melds(t, p);
    h.m = t->n_melds[p];
    h.sets = t->sets;
    h.meld_suits = 0;
    for (int i = 0; i < h.m; i++) h.meld_suits |= 1 << (t->melds[p][i][0] / 9);
    h.void_rule = 1;
    h.form = MJ_FORM_ALL;
    t->waits[p] = mj_hand_waits(&h, t->void_[p]);
}

/* Is the dealer's dealt hand (3 sets + 2 tiles, no melds) a win? */
static inline int mt_is_win_dealt(const mt_table_t *t, int p) {
    uint8_t out = 0;
    mt_kernel(MJ_OP_IS_WIN, t->hands[p], 1, NULL, t->void_[p], NULL, &out, t->sets);
    return out;
}

/* The uncapped display fan of a win (hand includes the win tile), or -1. */
static inline int mt_fan(const mt_table_t *t, int p, const uint8_t *hand, int w, int flags) {
    mf_job_t job;
    int16_t out = -1;
    memset(&job, 0, sizeof job);
    job.sets = t->sets;
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
    return R->mult[f < MT_MULT ? f : MT_MULT - 1];
}

/* ---- state helpers ---------------------------------------------------------------------- */

static inline int mt_wall_left(const mt_table_t *t) { return MT_WALL - t->pos; }
static inline int mt_wins_on(const mt_table_t *t, int p, int k) { return (int)(t->waits[p] >> k & 1); }
static inline int mt_in_void(const mt_table_t *t, int p, int k) { return k / 9 == t->void_[p]; }

static inline uint32_t mt_suit_bits(int v) { return v < 0 ? 0 : 0x1FFu << (9 * v); }

static inline int mt_void_held(const mt_table_t *t, int p) {
    return (t->held[p] & mt_suit_bits(t->void_[p])) != 0;
}

static inline int mt_pung_slot(const mt_table_t *t, int p, int k) {
    for (int i = 0; i < t->n_melds[p]; i++)
        if (t->melds[p][i][0] == k && t->melds[p][i][1] == 0) return i;
    return -1;
}

/* The seat after q (no division: loops over seats run at every discard). */
static inline int mt_after(const mt_table_t *t, int q) { return q + 1 == t->n ? 0 : q + 1; }

static inline int mt_next_in(const mt_table_t *t, int seat) {
    int q = seat;
    for (int i = 1; i <= t->n; i++) {
        q = mt_after(t, q);
        if (!t->won[q]) return q;
    }
    return seat;
}

static inline int mt_self_win(const mt_table_t *t, int p) {
    if (t->draws[p] == 0) return mt_is_win_dealt(t, p);
    return mt_wins_on(t, p, t->drawn);
}

static inline int mt_claim_flags(const mt_table_t *t) {
    return (t->phase == MT_ROB ? MF_ROB : 0) | (t->kong_discard ? MF_AKD : 0) |
           (mt_wall_left(t) == 0 ? MF_LAST : 0);
}

/* 绝张 (state.py jue_zhang): seat p wins on the last live copy of k: none left in the wall or in
 * the hand of another seat still in. */
static inline int mt_jue_zhang(const mt_table_t *t, int p, int k) {
    if (!t->R->jue_zhang) return 0;
    for (int i = t->pos; i < MT_WALL; i++)
        if (t->wall[i] == k) return 0;
    for (int q = 0; q < t->n; q++)
        if (q != p && !t->won[q] && t->hands[q][k]) return 0;
    return 1;
}

/* The flags of seat p's own win on k (on a discard: `discard`): 地胡 on a discard in the first
 * go-round before any claim (state.py di_hu_on_discard), 绝张. */
static inline int mt_own_flags(const mt_table_t *t, int p, int k, int discard) {
    int di = discard && t->R->di_hu_discard && p != t->dealer && !t->any_meld && t->turns <= t->n;
    return (di ? MF_DI : 0) | (mt_jue_zhang(t, p, k) ? MF_JUE : 0);
}

static inline int mt_claim_fan(const mt_table_t *t, int p) {
    uint8_t hand[27];
    memcpy(hand, t->hands[p], 27);
    hand[t->tile]++;
    int f = mt_fan(t, p, hand, t->tile, mt_claim_flags(t) | mt_own_flags(t, p, t->tile, 1));
    return f < 0 ? 0 : f;
}

/* 最后四张必胡: a win on one of the last four tiles (the fourth from last drawn: 3 left). */
static inline int mt_forced(const mt_table_t *t) {
    return t->R->zui_hou && mt_wall_left(t) < 4;
}

/* 过水不胡 (legal.py guo_shui_blocked): may seat p not win on the tile in play? */
static inline int mt_guo_shui_blocked(const mt_table_t *t, int p) {
    if (t->R->guo_shui == 2) return (int)(t->passed_tiles[p] >> t->tile & 1);
    return t->R->guo_shui == 1 && t->passed_fan[p] >= 0 && mt_claim_fan(t, p) <= t->passed_fan[p];
}

/* May seat p win on the tile in play (a discard or a kong to rob)? */
static inline int mt_may_win(const mt_table_t *t, int p) {
    return mt_wins_on(t, p, t->tile) && !mt_guo_shui_blocked(t, p);
}

/* The suits seat p may declare void (legal.py void_choices): those it holds none of, if any. */
static inline int mt_void_choices(const mt_table_t *t, int p) {
    int absent = 0;
    for (int q = 0; q < 3; q++)
        if (!(t->held[p] & mt_suit_bits(q))) absent |= 1 << q;
    return absent ? absent : 7;
}
/* ---- legal actions (legal.py) ----------------------------------------------------------- */

/* The legal actions as a set of bits: action a is bit a % 64 of w[a / 64]. The players and
 * the drivers read it (a random pick counts bits); mt_mask spreads it to the 140 bytes of the
 * Python API. */
typedef struct {
    uint64_t w[3];
} mt_acts_t;

static inline void mt_acts_set(mt_acts_t *s, int a) { s->w[a >> 6] |= 1ull << (a & 63); }
static inline int mt_acts_has(const mt_acts_t *s, int a) { return (int)(s->w[a >> 6] >> (a & 63) & 1); }

/* Kinds (27 bits) as the actions base + k. */
static inline void mt_acts_kinds(mt_acts_t *s, int base, uint32_t kinds) {
    int i = base >> 6, o = base & 63;
    s->w[i] |= (uint64_t)kinds << o;
    if (o > 64 - 27) s->w[i + 1] |= (uint64_t)kinds >> (64 - o);
}

/* The kinds (27 bits) of actions base + k in s. */
static inline uint32_t mt_acts_get(const mt_acts_t *s, int base) {
    int i = base >> 6, o = base & 63;
    uint64_t x = s->w[i] >> o;
    if (o > 64 - 27) x |= s->w[i + 1] << (64 - o);
    return (uint32_t)x & 0x7FFFFFFu;
}

/* Bits set in x (bit tricks: without -mpopcnt the builtin is a libgcc call). */
static inline int mt_popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full) * MJ_ONES8) >> 56);
}

static inline int mt_acts_count(const mt_acts_t *s) {
    return mt_popcount64(s->w[0]) + mt_popcount64(s->w[1]) + mt_popcount64(s->w[2]);
}

/* The lowest set bit of x != 0. */
static inline int mt_ctz64(uint64_t x) {
    return (uint32_t)x ? mj_ctz((uint32_t)x) : 32 + mj_ctz((uint32_t)(x >> 32));
}

/* The lowest action in s (s not empty). */
static inline int mt_acts_first(const mt_acts_t *s) {
    int i = 0;
    while (!s->w[i]) i++;
    return 64 * i + mt_ctz64(s->w[i]);
}

static inline void mt_legal(const mt_table_t *t, mt_acts_t *s) {
    s->w[0] = s->w[1] = s->w[2] = 0;
    if (t->phase == MT_OVER) return;
    int p = t->current;
    const uint8_t *hand = t->hands[p];
    if (t->phase == MT_VOIDP) {
        int c = mt_void_choices(t, p);
        for (int q = 0; q < 3; q++)
            if (c >> q & 1) mt_acts_set(s, MT_VOID + q);
        return;
    }
    if (t->phase == MT_TURN) {
        uint32_t v = mt_suit_bits(t->void_[p]), held = t->held[p];
        if (!t->after_pung && mt_self_win(t, p)) {
            if (mt_forced(t)) {
                mt_acts_set(s, MT_WIN);
                return;
            }
            mt_acts_set(s, MT_WIN);
        }
        /* the discards (void tiles first), before the kongs: GCC 12.2 (-O2, tree jump
         * threading) miscompiled this choice when it came after them */
        mt_acts_kinds(s, MT_DISCARD, held & v ? held & v : held);
        if (!t->after_pung && mt_wall_left(t) > 0) {
            mt_acts_kinds(s, MT_CONCEALED, mt_four_kinds(hand) & ~v);
            for (int i = 0; i < t->n_melds[p]; i++) {
                int k = t->melds[p][i][0];
                if (t->melds[p][i][1] == 0 && hand[k]) mt_acts_set(s, MT_ADDED + k);
            }
        }
        return;
    }
    int k = t->tile;
    mt_acts_set(s, MT_PASS);
    if (mt_may_win(t, p)) {
        mt_acts_set(s, MT_WIN);
        if (mt_forced(t)) {
            s->w[MT_PASS >> 6] &= ~(1ull << (MT_PASS & 63));
            return;
        }
    }
    if (t->phase == MT_CLAIM && !mt_in_void(t, p, k)) {
        if (hand[k] >= 2) mt_acts_set(s, MT_PUNG + k);
        if (hand[k] == 3 && mt_wall_left(t) > 0) mt_acts_set(s, MT_KONG + k);
    }
}

/* The legal actions as 140 bytes of 0 / 1 (the masks of the Python API). */
static inline void mt_mask(const mt_table_t *t, uint8_t *m) {
    mt_acts_t s;
    mt_legal(t, &s);
#if MJ_SWAR
    /* 8 bits to 8 bytes at a time: byte j keeps bit j of the copied byte, and adding 0x7F
     * carries it to the byte's top bit */
    for (int i = 0; i < MT_ACTIONS / 8; i++) {
        uint64_t b = (s.w[i >> 3] >> (8 * (i & 7)) & 0xFF) * MJ_ONES8 & 0x8040201008040201ull;
        b = ((b + 0x7F7F7F7F7F7F7F7Full) >> 7) & MJ_ONES8;
        memcpy(m + 8 * i, &b, 8);
    }
    for (int a = MT_ACTIONS / 8 * 8; a < MT_ACTIONS; a++) m[a] = (uint8_t)mt_acts_has(&s, a);
#else
    for (int a = 0; a < MT_ACTIONS; a++) m[a] = (uint8_t)mt_acts_has(&s, a);
#endif
}

#endif
