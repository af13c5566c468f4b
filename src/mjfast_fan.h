/* mjfast fan kernels: the capped fan of complete hands and the 大叫 (max fan over the waits) of
 * ready hands, over 27-count rows, by table lookups (no recursion over readings).
 *
 * The suit table (mjfast_fan_table.h) gives each complete suit pattern its at most two maximal
 * reading bit masks.
 *
 * The rules. mjfast/scoring/patterns.py compiles a Rules object into an int32 array (MF_R_*):
 * the value of the regular reading per context (flush, all 2/5/8, melds all terminal, every set
 * melded, 天胡/地胡) and combined bits, the value of the seven-pairs reading per context, and the
 * additive extras, cap and display offset. A value is base pattern (龙七对 less a root when it uses one up)
 * + reading extras (掐心五, 姊妹对, 一条龙); the hand total adds roots and the other extras.
 */
#ifndef MJFAST_FAN_H
#define MJFAST_FAN_H

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mjfast_kernels.h" /* MJ.wmask; mj_hand_t, mj_load, mj_copy27, mj_check_visible, ... */
#include "mjfast_fan_table.h" /* MF_TAB, mf_lookup, mf_build, the reading bits */

/* ---- compiled rules -------------------------------------------------------------------- */

/* int32 layout (mjfast/scoring/patterns.py compile_rules writes it). */
#define MF_R_REG 0       /* [48 contexts][32 combined bits]: regular reading value */
#define MF_R_SEVEN 1536  /* [12 contexts]: seven-pairs reading value */
#define MF_R_ROOT 1548   /* fan per root */
#define MF_R_GSH 1549    /* 杠上花 */
#define MF_R_GSP 1550    /* 杠上炮 */
#define MF_R_QGH 1551    /* 抢杠胡 */
#define MF_R_ZIMO 1552   /* 自摸加番 */
#define MF_R_HAIDI 1553  /* 海底 */
#define MF_R_MENQING 1554
#define MF_R_ZHONG 1555  /* 中张 */
#define MF_R_CAP 1556    /* -1: no cap */
#define MF_R_OFFSET 1557 /* display offset */
#define MF_R_SIJIAO 1558 /* 死叫 */
#define MF_R_MIN 1559    /* 赔小: the minimum over the waits */
#define MF_R_JUE 1560    /* 绝张 */
#define MF_R_SIZE 1561

/* The range of each value compile_rules writes (every fan field of a Rules is 0..MF_MAX_FAN,
 * mjfast.rules.MAX_FAN): a regular value is a base fan plus three reading extras, 自摸加番, 死叫
 * and 赔小 are 0 or 1, the cap is -1 (none) or at most INT16_MAX. So every fan total is between
 * 0 and 769 (4 * 48 + 4 roots * 48 + seven extras * 48 + 1 + an offset of 48): never negative,
 * never one of the error codes (-100 and below), and it fits the int16 outputs. */
#define MF_MAX_FAN 48
static inline int mf_rules_ok(const int32_t *R) {
    for (int i = 0; i < MF_R_SIZE; i++) {
        int32_t v = R[i], hi = i < MF_R_SEVEN ? 4 * MF_MAX_FAN : MF_MAX_FAN, lo = 0;
        if (i == MF_R_ZIMO || i == MF_R_SIJIAO || i == MF_R_MIN) hi = 1;
        if (i == MF_R_CAP) lo = -1, hi = INT16_MAX;
        if (v < lo || v > hi) return 0;
    }
    return 1;
}

/* Regular context: flush | all-258 << 1 | melds all terminal << 2 | every set melded << 3 |
 * (0 none, 1 天胡, 2 地胡) << 4. Combined bits: (AND of AT, YJ) | 456 of the win suit when the
 * win tile is a 5 | (OR of TWIN, DRAGON). Seven-pairs context: flush | root << 1 | fixed << 2. */

/* Flags, one bit each (situational; bit order = mjfast._args.FLAG_NAMES). */
enum { MF_SD = 1, MF_AK = 2, MF_AKD = 4, MF_ROB = 8, MF_LAST = 16, MF_TIAN = 32, MF_DI = 64,
       MF_JUE = 128 };

/* Row errors beyond the core's MJ_ERR_* (the Python layer words them). */
enum { MF_ERR_WIN_NOT_HELD = 20, MF_ERR_FLAGS = 21, MF_ERR_CONCEALED = 22, MF_ERR_WIN_RANGE = 23 };

#define MF_INVALID (-100)
#define MF_NONE INT_MIN

/* Best regular value over the maximal masks of the three suits (codes e[s] >= 0). */
static inline int mf_regular(const int32_t *T, const int *e, int ws, int qm) {
    int a[2] = {e[0] & 31, e[0] >> 5}, b[2] = {e[1] & 31, e[1] >> 5}, d[2] = {e[2] & 31, e[2] >> 5};
    /* most suits have one maximal mask (both halves equal): try it once */
    int na = 1 + (a[0] != a[1]), nb = 1 + (b[0] != b[1]), nd = 1 + (d[0] != d[1]);
    int best = MF_NONE;
    for (int i = 0; i < na; i++) {
        for (int j = 0; j < nb; j++) {
            for (int k = 0; k < nd; k++) {
                int x = a[i], y = b[j], z = d[k];
                int w = ws == 0 ? x : ws == 1 ? y : z;
                int f = (x & y & z & (MF_AT | MF_YJ)) | ((x | y | z) & (MF_TWIN | MF_DRAGON)) |
                        (w & qm);
                int v = T[f];
                if (v > best) best = v;
            }
        }
    }
    return best;
}

/* Hand-level features the fan needs beyond the suit readings. */
typedef struct {
    int present;   /* suits held, concealed or melded */
    int roots;     /* kinds held four times (melds included) */
    int terminal;  /* a 1 or a 9 anywhere */
    int all258;    /* every tile of rank 2, 5 or 8 */
    int meld_yj;   /* every meld of a 1 or a 9 (true without melds) */
    int men_qing;  /* no pung / exposed or added kong */
    int has_kong;
    int odd;       /* kinds held an odd number of times (seven pairs: 0; ready for it: 1) */
} mf_info_t;

#define MF_ONES 0x0101010101010101ULL

/* Fill f; conc (concealed-kong marks) may be NULL. Returns MF_ERR_CONCEALED (err: tile, meld
 * value) when a mark is not on a kong, else MJ_OK. */
static inline int mf_info(const mj_hand_t *h, const uint8_t *conc, mf_info_t *f, int32_t *err) {
    const uint8_t *c = h->c;
    int roots = 0;
    uint64_t term = 0, non258 = 0;
    for (int s = 0; s < 3; s++) {
        const uint8_t *p = c + 9 * s;
        uint64_t x;
        memcpy(&x, p, 8);
        uint64_t b = p[8];
        roots += (int)((((x >> 2) & MF_ONES) * MF_ONES) >> 56) + (int)(b >> 2); /* bytes == 4 */
#if MJ_SWAR
        term |= (x & 0xFF) | b;
        non258 |= (x & 0x00FFFF00FFFF00FFULL) | b;
#else
        term |= p[0] | b;
        non258 |= p[0] | p[2] | p[3] | p[5] | p[6] | b;
#endif
    }
    f->present = (h->n[0] > 0) | (h->n[1] > 0) << 1 | (h->n[2] > 0) << 2 | h->meld_suits;
    f->odd = h->odd[0] + h->odd[1] + h->odd[2];
    int meld_yj = 1, men_qing = 1, has_kong = 0;
    if (h->melds) {
        const uint8_t *m = h->melds;
        for (int t = 0; t < 27; t++) {
            int y = m[t];
            if (conc && conc[t] && y != 4) {
                err[1] = t;
                err[2] = y;
                return MF_ERR_CONCEALED;
            }
            if (!y) continue;
            int r = t % 9;
            int yj = r == 0 || r == 8;
            roots += c[t] + y == 4;
            term |= (uint64_t)yj;
            meld_yj &= yj;
            non258 |= (uint64_t)(r != 1 && r != 4 && r != 7);
            has_kong |= y == 4;
            men_qing &= y == 4 && conc && conc[t];
        }
    } else if (conc) {
        for (int t = 0; t < 27; t++) {
            if (conc[t]) {
                err[1] = t;
                err[2] = 0;
                return MF_ERR_CONCEALED;
            }
        }
    }
    f->roots = roots;
    f->terminal = term != 0;
    f->all258 = non258 == 0;
    f->meld_yj = meld_yj;
    f->men_qing = men_qing;
    f->has_kong = has_kong;
    return MJ_OK;
}

/* ---- batch jobs ------------------------------------------------------------------------ */

typedef struct {
    int coerce;
    const uint8_t *hands;    /* [n][27] */
    const uint8_t *melds;    /* meld tiles per kind (0, 3, 4), stride melds_stride (0: one row) */
    int64_t melds_stride;
    const uint8_t *conc;     /* concealed-kong marks per kind, stride conc_stride, or NULL */
    int64_t conc_stride;
    const int8_t *voids;     /* [n] or NULL: void_scalar */
    int void_scalar;
    int sets;                /* sets of a complete hand: 4, or 3 / 2 (short hands) */
    const int8_t *wins;      /* fan: [n] win tiles, or NULL: win_scalar */
    int win_scalar;
    const uint8_t *flags;    /* fan: [n] MF_* bits, or NULL: flag_scalar */
    int flag_scalar;
    const uint8_t *visible;  /* max: copies seen elsewhere, stride visible_stride, or NULL */
    int64_t visible_stride;
    const int32_t *rules;    /* [MF_R_SIZE] */
    int16_t *out;            /* [n] */
    int8_t *best;            /* max: [n] best wait, or NULL */
    int32_t err[3];
} mf_job_t;

/* Load row i (hand, melds, marks and void suit, each read once: mj_row_t) into h and f. */
static inline int mf_load_row(const mf_job_t *job, int64_t i, int size_rule, mj_hand_t *h,
                              mf_info_t *f, int *void_suit, int32_t *err) {
    uint8_t marks[27];
    int vs = job->voids ? mj_once_i8(job->voids + i) : job->void_scalar;
    const uint8_t *melds = job->melds ? job->melds + job->melds_stride * i : NULL;
    int code = mj_load(h, job->hands + 27 * i, melds, vs, 1, MJ_FORM_ALL, size_rule, job->sets,
                       err);
    if (code != MJ_OK) return code;
    *void_suit = vs;
    const uint8_t *conc = job->conc ? mj_copy27(marks, job->conc + job->conc_stride * i) : NULL;
    return mf_info(h, conc, f, err);
}

/* Total of one row: MF_NONE when it does not win, else the uncapped internal total (平胡 = 0;
 * the single-hand scorer needs it for raw_fan, mf_fan_row caps it). */
static inline int mf_fan_total(const mf_job_t *job, int64_t i, int32_t *err, int *fan) {
    mj_hand_t h;
    mf_info_t f;
    int vs;
    int code = mf_load_row(job, i, MJ_SIZE_COMPLETE, &h, &f, &vs, err);
    if (code != MJ_OK) return code;
    const int32_t *R = job->rules;
    int w = job->wins ? mj_once_i8(job->wins + i) : job->win_scalar;
    int fl = job->flags ? mj_once_u8(job->flags + i) : job->flag_scalar;
    if (w < 0 || w > 26) {
        err[1] = w;
        err[2] = 0;
        return MF_ERR_WIN_RANGE;
    }
    if (!h.c[w]) {
        err[1] = w;
        err[2] = 0;
        return MF_ERR_WIN_NOT_HELD;
    }
    if (fl) { /* the contradictions of situation() in mjfast/scoring/inputs.py (tested alike) */
        int sd = fl & MF_SD, ak = fl & MF_AK, akd = fl & MF_AKD, rob = fl & MF_ROB;
        int last = fl & MF_LAST, tian = fl & MF_TIAN, di = fl & MF_DI;
        int drawn = sd || ak || tian; /* 地胡 may be on a discard (di_hu_on_discard) */
        int bad = ((tian || di) && ((tian && di) || ak || akd || rob || last || h.m)) ||
                  (drawn && (rob || akd)) || (rob && akd) || (ak && !f.has_kong) ||
                  (rob && (h.c[w] != 1 || (h.melds && h.melds[w])));
        if (bad) {
            err[1] = w;
            err[2] = fl;
            return MF_ERR_FLAGS;
        }
    }
    *fan = MF_NONE;
    int present = f.present;
    if (mj_popcount((uint32_t)present) > 2 || (vs >= 0 && (present >> vs & 1))) return MJ_OK;
    int qing = mj_popcount((uint32_t)present) == 1;
    int fixed = (fl & MF_TIAN) ? 1 : (fl & MF_DI) ? 2 : 0;
    int best = MF_NONE;
    int e[3];
    for (int s = 0; s < 3; s++) e[s] = h.n[s] ? mf_lookup(h.idx[s]) : (MF_AT | MF_YJ) * 33;
    if (e[0] >= 0 && e[1] >= 0 && e[2] >= 0) {
        int ctx = qing | f.all258 << 1 | f.meld_yj << 2 | (h.m == h.sets) << 3 | fixed << 4;
        best = mf_regular(R + MF_R_REG + 32 * ctx, e, w / 9, w % 9 == 4 ? MF_456 : 0);
    }
    if (h.m == 0 && h.sets == 4 && f.odd == 0) {
        int v = R[MF_R_SEVEN + (qing | (f.roots > 0) << 1 | fixed << 2)];
        if (v > best) best = v;
    }
    if (best == MF_NONE) return MJ_OK;
    int total = best + f.roots * R[MF_R_ROOT];
    if (fl) {
        if (fl & MF_AK) total += R[MF_R_GSH];
        if (fl & MF_AKD) total += R[MF_R_GSP];
        if (fl & MF_ROB) total += R[MF_R_QGH];
        if (fl & (MF_SD | MF_AK | MF_TIAN)) total += R[MF_R_ZIMO];
        if (fl & MF_LAST) total += R[MF_R_HAIDI];
        if (fl & MF_JUE) total += R[MF_R_JUE];
    }
    if (f.men_qing) total += R[MF_R_MENQING];
    if (!f.terminal) total += R[MF_R_ZHONG];
    *fan = total;
    return MJ_OK;
}

/* An internal fan total under the rules' cap (R[MF_R_CAP] < 0: none). */
static inline int mf_capped(const int32_t *R, int total) {
    int cap = R[MF_R_CAP];
    return cap >= 0 && total > cap ? cap : total;
}

/* Fan of one row: MF_NONE when it does not win, else the capped display fan. */
static inline int mf_fan_row(const mf_job_t *job, int64_t i, int32_t *err, int *fan) {
    int code = mf_fan_total(job, i, err, fan);
    if (code != MJ_OK || *fan == MF_NONE) return code;
    *fan = mf_capped(job->rules, *fan) + job->rules[MF_R_OFFSET];
    return MJ_OK;
}

/* The fan of every wait t of a loaded 13 - 3m hand h (its info f, void suit vs) into val[t]: the
 * uncapped internal total without situational flags. Returns the waits as a mask. */
static inline uint32_t mf_wait_totals(const int32_t *R, const mj_hand_t *h, const mf_info_t *f,
                                      int vs, int *val) {
    const uint8_t *c = h->c;
    const uint8_t *melds = h->melds;
    uint32_t waits = 0;
    int e[3];
    int rem[3];
    for (int s = 0; s < 3; s++) {
        rem[s] = h->n[s] % 3;
        e[s] = -2; /* not looked up yet */
    }
    /* Regular waits: the suit taking the tile holds 3k+1 (it gets the pair) with the others
     * 3k, or 3k+2 with one other 3k+2 (the pair) and one 3k. */
    int ones = (rem[0] == 1) + (rem[1] == 1) + (rem[2] == 1);
    int twos = (rem[0] == 2) + (rem[1] == 2) + (rem[2] == 2);
    int cand = (ones == 1 && twos == 0) ? (rem[0] == 1) | (rem[1] == 1) << 1 | (rem[2] == 1) << 2
             : (ones == 0 && twos == 2) ? (rem[0] == 2) | (rem[1] == 2) << 1 | (rem[2] == 2) << 2
             : 0;
    int root_fan = R[MF_R_ROOT];
    int base_extra = f->men_qing ? R[MF_R_MENQING] : 0;
    for (int s = 0; s < 3; s++) {
        if (!(cand >> s & 1)) continue;
        int present = f->present | 1 << s;
        if (mj_popcount((uint32_t)present) > 2 || (vs >= 0 && (present >> vs & 1))) continue;
        int ok = 1;
        for (int o = 0; o < 3; o++) {
            if (o == s) continue;
            if (e[o] == -2) e[o] = h->n[o] ? mf_lookup(h->idx[o]) : (MF_AT | MF_YJ) * 33;
            ok &= e[o] >= 0;
        }
        if (!ok) continue;
        int qing = mj_popcount((uint32_t)present) == 1;
        int ctx0 = qing | f->meld_yj << 2 | (h->m == h->sets) << 3;
        int es[3] = {e[0], e[1], e[2]};
        /* only the ranks whose draw completes the suit (the wait masks) are looked up */
        for (uint32_t ranks = MJ.wmask[h->idx[s]] & 0x1FFu; ranks; ranks &= ranks - 1) {
            int r = mj_ctz(ranks), t = 9 * s + r;
            int held = c[t] + (melds ? melds[t] : 0);
            if (held >= 4) continue;
            int x = mf_lookup(h->idx[s] + MJ_POW[r]);
            if (x < 0) continue;
            es[s] = x;
            int all258 = f->all258 && (r == 1 || r == 4 || r == 7);
            int v = mf_regular(R + MF_R_REG + 32 * (ctx0 | all258 << 1), es, s,
                               r == 4 ? MF_456 : 0);
            int terminal = f->terminal || r == 0 || r == 8;
            val[t] = v + (f->roots + (held == 3)) * root_fan + base_extra +
                     (terminal ? 0 : R[MF_R_ZHONG]);
            waits |= 1u << t;
        }
    }
    /* Seven pairs: no melds, 13 tiles and one kind held an odd number of times. */
    if (h->m == 0 && h->sets == 4 && f->odd == 1) {
        for (int t = 0; t < 27; t++) {
            if (!(c[t] & 1)) continue;
            int s = t / 9, r = t % 9;
            int present = f->present | 1 << s;
            if (mj_popcount((uint32_t)present) > 2 || (vs >= 0 && (present >> vs & 1))) break;
            int qing = mj_popcount((uint32_t)present) == 1;
            int roots = f->roots + (c[t] == 3);
            int terminal = f->terminal || r == 0 || r == 8;
            int v = R[MF_R_SEVEN + (qing | (roots > 0) << 1)] + roots * root_fan + base_extra +
                    (terminal ? 0 : R[MF_R_ZHONG]);
            if (!(waits >> t & 1) || v > val[t]) val[t] = v;
            waits |= 1u << t;
            break;
        }
    }
    return waits;
}

/* 大叫 of one 13 - 3m row: F (uncapped display) or MF_NONE, and the wait giving it. */
static inline int mf_max_row(const mf_job_t *job, int64_t i, int32_t *err, int *fan, int *tile) {
    mj_hand_t h;
    mf_info_t f;
    int vs;
    uint8_t seen[27];
    int code = mf_load_row(job, i, MJ_SIZE_WAITING, &h, &f, &vs, err);
    if (code != MJ_OK) return code;
    const uint8_t *visible =
        job->visible ? mj_copy27(seen, job->visible + job->visible_stride * i) : NULL;
    if (visible && (code = mj_check_visible(&h, visible, err)) != MJ_OK) return code;
    const int32_t *R = job->rules;
    const uint8_t *c = h.c;
    const uint8_t *melds = h.melds;
    int val[27];
    uint32_t waits = mf_wait_totals(R, &h, &f, vs, val);
    int best = MF_NONE, best_t = -1;
    int si_jiao = R[MF_R_SIJIAO], want_min = R[MF_R_MIN];
    for (int t = 0; waits >> t; t++) {
        if (!(waits >> t & 1)) continue;
        if (si_jiao) {
            int held = c[t] + (melds ? melds[t] : 0);
            if (4 - held - (visible ? visible[t] : 0) <= 0) continue;
        }
        int v = val[t];
        if (best_t < 0 || (want_min ? v < best : v > best)) {
            best = v;
            best_t = t;
        }
    }
    *fan = best_t < 0 ? MF_NONE : best + R[MF_R_OFFSET];
    *tile = best_t;
    return MJ_OK;
}

enum { MF_OP_FAN = 0, MF_OP_MAX_FAN = 1 };

/* Run rows [start, end) of a fan (MF_OP_FAN) or max-fan (MF_OP_MAX_FAN) job. Returns the first
 * bad row (details in job->err) or -1; without coerce it stops there, with coerce bad rows get
 * MF_INVALID. */
static inline int64_t mf_run(mf_job_t *job, int op, int64_t start, int64_t end) {
    int64_t first_bad = -1;
    int32_t err[3];
    for (int64_t i = start; i < end; i++) {
        int fan, tile = -1;
        int code = op == MF_OP_FAN ? mf_fan_row(job, i, err, &fan)
                                   : mf_max_row(job, i, err, &fan, &tile);
        if (code != MJ_OK) {
            first_bad = mj_first_bad(first_bad, i, code, err, job->err);
            if (!job->coerce) return first_bad;
            job->out[i] = MF_INVALID;
            if (job->best) job->best[i] = MF_INVALID;
            continue;
        }
        job->out[i] = (int16_t)(fan == MF_NONE ? -1 : fan);
        if (job->best) job->best[i] = (int8_t)tile;
    }
    return first_bad;
}

#endif
