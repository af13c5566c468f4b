/* mjfast row loading, shared by the shanten kernels (mjfast_kernels.h) and the fan kernels
 * (mjfast_fan.h): a 27-count row (plus its melds) checked and read into an mj_hand_t.
 *
 * Plain C, no Python and no tables: the row error codes are the ones the Python layer words.
 */
#ifndef MJFAST_ROW_H
#define MJFAST_ROW_H

#include <stdint.h>
#include <string.h>

enum { MJ_FORM_ALL = 0, MJ_FORM_REGULAR = 1, MJ_FORM_SEVEN_PAIRS = 2 };

/* What a row must hold: 13-3m or 14-3m concealed tiles, either, ... */
enum { MJ_SIZE_EITHER = 0, MJ_SIZE_WAITING = 1, MJ_SIZE_COMPLETE = 2 };

/* Row error codes (the Python layer words the message). */
enum {
    MJ_OK = 0,
    MJ_ERR_COUNT = 1,       /* tile, count: a count above 4 */
    MJ_ERR_MELD_VALUE = 2,  /* tile, value: a meld entry other than 0, 3, 4 */
    MJ_ERR_HELD = 3,        /* tile, held: concealed + meld above 4 */
    MJ_ERR_SIZE = 4,        /* melds, tiles: concealed size does not fit */
    MJ_ERR_VISIBLE = 5,     /* tile, held + visible above 4 */
    MJ_ERR_VOID = 6,        /* value: a void suit outside -1..2 */
};

static const int32_t MJ_POW[9] = {390625, 78125, 15625, 3125, 625, 125, 25, 5, 1};

static inline int32_t mj_index9(const uint8_t *c) {
    return ((((((((int32_t)c[0] * 5 + c[1]) * 5 + c[2]) * 5 + c[3]) * 5 + c[4]) * 5 + c[5]) * 5 +
             c[6]) * 5 + c[7]) * 5 + c[8];
}

/* What the kernels know of one hand: mj_load fills it, the shanten kernels add k and v. Probes
 * (one tile more or less) change one suit's entries in copies of idx/k/n/odd and recompute. */
typedef struct {
    const uint8_t *c;       /* concealed counts (the input row) */
    const uint8_t *melds;   /* meld tiles per kind (0, 3, 4), or NULL */
    int32_t idx[3];         /* base-5 index per suit */
    int k[3];               /* class per suit (valid after mj_classes) */
    int n[3];               /* tiles per suit */
    int odd[3];             /* kinds held an odd number of times, per suit */
    int m;                  /* melds */
    int meld_suits;         /* bit per suit holding a meld: its kinds are capped below 4 */
    int live_q;             /* bit q: suit q may be the void suit (void rule); 0 = never wins */
    int void_rule;
    int form;
    int8_t v[3][10];        /* exact distance vectors of the capped suits */
} mj_hand_t;

/* One suit's 9 counts: base-5 index, tiles, kinds held an odd number of times (n and odd may be
 * NULL: inlined, the work drops out). Returns nonzero when a count is above 4 (then the other
 * outputs are meaningless). */
static inline int mj_suit_load(const uint8_t *p, int32_t *idx, int *n, int *odd) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* SWAR: 8 counts in one word, byte 0 = rank 1 = the most significant base-5 digit */
    const uint64_t ONES = 0x0101010101010101ULL;
    uint64_t x;
    memcpy(&x, p, 8);
    uint32_t b = p[8];
    uint64_t bad = (x | (x + 0x7B * ONES)) & (0x80 * ONES); /* a byte above 4 sets its top bit */
    if (n) *n = (int)((x * ONES) >> 56) + (int)b;
    if (odd) *odd = (int)(((x & ONES) * ONES) >> 56) + (int)(b & 1);
    uint64_t y = (x & 0x00FF00FF00FF00FFULL) * 5 + ((x >> 8) & 0x00FF00FF00FF00FFULL);
    uint64_t z = (y & 0x0000FFFF0000FFFFULL) * 25 + ((y >> 16) & 0x0000FFFF0000FFFFULL);
    *idx = (int32_t)(((z & 0xFFFFFFFFULL) * 625 + (z >> 32)) * 5 + b);
    return bad != 0 || b > 4;
#else
    int nn = 0, oo = 0, bad = 0;
    for (int r = 0; r < 9; r++) {
        nn += p[r];
        oo += p[r] & 1;
        bad |= p[r] > 4;
    }
    if (n) *n = nn;
    if (odd) *odd = oo;
    *idx = mj_index9(p);
    return bad;
#endif
}

static inline int mj_held(const mj_hand_t *h, int t) { return h->c[t] + (h->melds ? h->melds[t] : 0); }

/* Validate a row and fill h. melds may be NULL. Returns an MJ_ERR_* code, details in err[1..2]. */
static inline int mj_load(mj_hand_t *h, const uint8_t *hand, const uint8_t *melds, int void_suit,
                          int void_rule, int form, int size_rule, int32_t *err) {
    int bad = 0;
    for (int s = 0; s < 3; s++) bad |= mj_suit_load(hand + 9 * s, &h->idx[s], &h->n[s], &h->odd[s]);
    if (bad) {
        for (int t = 0; t < 27; t++) {
            if (hand[t] > 4) { err[1] = t; err[2] = hand[t]; return MJ_ERR_COUNT; }
        }
    }
    int m = 0, meld_suits = 0;
    if (melds) {
        for (int t = 0; t < 27; t++) {
            int y = melds[t];
            if (y) {
                if (y != 3 && y != 4) { err[1] = t; err[2] = y; return MJ_ERR_MELD_VALUE; }
                if (hand[t] + y > 4) { err[1] = t; err[2] = hand[t] + y; return MJ_ERR_HELD; }
                m++;
                meld_suits |= 1 << (t / 9);
            }
        }
        if (!m) melds = NULL;
    }
    int total = h->n[0] + h->n[1] + h->n[2];
    int waiting = 13 - 3 * m, complete = 14 - 3 * m;
    int ok = m <= 4 && (size_rule == MJ_SIZE_WAITING ? total == waiting
                        : size_rule == MJ_SIZE_COMPLETE ? total == complete
                        : (total == waiting || total == complete));
    if (!ok) { err[1] = m; err[2] = total; return MJ_ERR_SIZE; }
    if (void_suit < -1 || void_suit > 2) { err[1] = void_suit; err[2] = 0; return MJ_ERR_VOID; }
    h->c = hand;
    h->melds = melds;
    h->m = m;
    h->meld_suits = meld_suits;
    h->void_rule = void_rule;
    h->form = form;
    if (void_rule) {
        int q = void_suit >= 0 ? 1 << void_suit : 7;
        h->live_q = q & ~meld_suits & 7;
    } else {
        h->live_q = 7;
    }
    return MJ_OK;
}

/* Check visible counts against the hand: a kind cannot be seen more often than it exists. */
static inline int mj_check_visible(const mj_hand_t *h, const uint8_t *visible, int32_t *err) {
    for (int t = 0; t < 27; t++) {
        if (mj_held(h, t) + visible[t] > 4) {
            err[1] = t;
            err[2] = mj_held(h, t) + visible[t];
            return MJ_ERR_VISIBLE;
        }
    }
    return MJ_OK;
}

/* Keep the first bad row of a run and its details (code, detail, detail) in job_err. */
static inline int64_t mj_first_bad(int64_t first_bad, int64_t i, int code, const int32_t *err,
                                   int32_t *job_err) {
    if (first_bad >= 0) return first_bad;
    job_err[0] = code;
    job_err[1] = err[1];
    job_err[2] = err[2];
    return i;
}

#endif
