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
    uint8_t c[27];          /* concealed counts (the copy of the input row) */
    uint8_t meld_copy[27];  /* the copy of the melds row */
    const uint8_t *melds;   /* meld tiles per kind (0, 3, 4): meld_copy, or NULL without melds */
    int32_t idx[3];         /* base-5 index per suit */
    int k[3];               /* class per suit (valid after mj_classes) */
    int n[3];               /* tiles per suit */
    int odd[3];             /* kinds held an odd number of times, per suit */
    int m;                  /* melds */
    int sets;               /* sets of a complete hand: 4, or 3 / 2 for the short hands */
    int meld_suits;         /* bit per suit holding a meld: its kinds are capped below 4 */
    int live_q;             /* bit q: suit q may be the void suit (void rule); 0 = never wins */
    int void_rule;
    int form;
    int8_t v[3][10];        /* exact distance vectors of the capped suits */
} mj_hand_t;

#if defined(__GNUC__)
#define MJ_ALWAYS_INLINE inline __attribute__((always_inline))
/* a function only the Python glue calls: the C library's own translation unit leaves it unused */
#define MJ_GLUE_ONLY __attribute__((unused))
#else
#define MJ_ALWAYS_INLINE inline
#define MJ_GLUE_ONLY
#endif

#if defined(__GNUC__) || defined(__clang__)
#define MJ_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define MJ_LIKELY(x) __builtin_expect(!!(x), 1)
#define MJ_NOINLINE __attribute__((noinline))
#define MJ_PREFETCH(p) __builtin_prefetch(p) /* a hint: no fault, whatever p holds */
#elif defined(_MSC_VER)
#define MJ_UNLIKELY(x) (x)
#define MJ_LIKELY(x) (x)
#define MJ_NOINLINE __declspec(noinline)
#define MJ_PREFETCH(p) ((void)(p))
#else
#define MJ_UNLIKELY(x) (x)
#define MJ_LIKELY(x) (x)
#define MJ_NOINLINE
#define MJ_PREFETCH(p) ((void)(p))
#endif

/* Rows read once in order are asked for MJ_AHEAD bytes (about 38 rows of 27 bytes) before they
 * are read: the hardware's stream prefetch alone lags. The `lines` cache lines from p + MJ_AHEAD
 * (1 for a loop taking a row at a time, 2 for four rows), by integer arithmetic: that address
 * may lie past the array (a hint: no fault). */
#define MJ_AHEAD 1024
#define MJ_PREFETCH_AHEAD(p, lines)                                                               \
    do {                                                                                           \
        for (int mj_k_ = 0; mj_k_ < (lines); mj_k_++)                                              \
            MJ_PREFETCH((const void *)((uintptr_t)(p) + MJ_AHEAD + 64 * (uintptr_t)mj_k_));        \
    } while (0)

/* SWAR (8 counts per 64-bit word) on little-endian targets; -DMJ_SWAR=0 builds the portable
 * byte loops anywhere (to test them). */
#ifndef MJ_SWAR
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MJ_SWAR 1
#else
#define MJ_SWAR 0
#endif
#endif

/* One row of 27 counts, read once from the caller's array.
 *
 * The kernels run with the GIL released, so another thread may rewrite the caller's arrays while
 * a row is in use: a row read twice could pass the checks in one version and index the tables
 * with another. So each row (hand, melds, visible, marks) is read once into an mj_row_t (and each
 * per-row scalar once with mj_once_*), then checked and used from that copy only. An empty asm
 * makes the copy opaque to the compiler, so it cannot read the caller's bytes again in its place.
 * With SWAR the copy is the words the kernels compute with, kept in registers: per suit, ranks
 * 1-8 in one little-endian word (byte 0 = rank 1) and rank 9 apart. */
typedef struct {
#if MJ_SWAR
    uint64_t x[3];
    uint64_t b[3]; /* full words: the index adds them without a zero extension */
#else
    uint8_t c[27];
#endif
} mj_row_t;

static inline void mj_row_read(mj_row_t *r, const uint8_t *src) {
#if MJ_SWAR
    uint64_t x0, x1, x2; /* scalars, so that the compiler keeps the copy in registers */
    uint64_t b0 = src[8], b1 = src[17], b2 = src[26];
    memcpy(&x0, src, 8);
    memcpy(&x1, src + 9, 8);
    memcpy(&x2, src + 18, 8);
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(b0), "+r"(b1), "+r"(b2));
#endif
    r->x[0] = x0;
    r->x[1] = x1;
    r->x[2] = x2;
    r->b[0] = b0;
    r->b[1] = b1;
    r->b[2] = b2;
#else
    memcpy(r->c, src, 27);
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+m"(r->c));
#endif
#endif
}

/* Store the row as 27 bytes (in the pieces later loads read, so the CPU forwards them). */
static inline const uint8_t *mj_row_write(const mj_row_t *r, uint8_t *dst) {
#if MJ_SWAR
    for (int s = 0; s < 3; s++) {
        memcpy(dst + 9 * s, &r->x[s], 8);
        dst[9 * s + 8] = (uint8_t)r->b[s];
    }
#else
    memcpy(dst, r->c, 27);
#endif
    return dst;
}

/* Copy a row of the caller's into dst, reading it once (see mj_row_t). */
static inline const uint8_t *mj_copy27(uint8_t *dst, const uint8_t *src) {
    mj_row_t r;
    mj_row_read(&r, src);
    return mj_row_write(&r, dst);
}

/* The lowest set bit of x != 0. */
static inline int mj_ctz(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* Bits set in x, inline and portable (the builtin calls libgcc's __popcountdi2 without -mpopcnt;
 * GCC turns these bit tricks into the POPCNT instruction where the target has it). */
static MJ_ALWAYS_INLINE int mj_popcount(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

/* One entry of a per-row vector, read exactly once (volatile: the compiler may not read it again). */
static inline int mj_once_i8(const int8_t *p) { return *(const volatile int8_t *)p; }
static inline int mj_once_u8(const uint8_t *p) { return *(const volatile uint8_t *)p; }

/* The base-5 index of suit s of a row whose counts are at most 4 (else meaningless), as a
 * 64-bit value (no sign extension where it indexes a table). */
static MJ_ALWAYS_INLINE uint64_t mj_suit_index(const mj_row_t *row, int s) {
#if MJ_SWAR
    /* by multiplies, no carry between lanes: byte 2j + 1 of x * 0x501 holds 5 c[2j] + c[2j+1],
     * lane 2k + 1 (16 bits) of y * 0x190001 holds 25 y[k-1] + y[k], and the high half of the
     * last product (ranks 1-4) * 3125 + (ranks 5-8) * 5 */
    uint64_t x = row->x[s];
    uint64_t y = ((x * 0x501) >> 8) & 0x00FF00FF00FF00FFULL;
    uint64_t z = ((y * 0x190001) >> 16) & 0x0000FFFF0000FFFFULL;
    return ((z * (5 | 3125ULL << 32)) >> 32) + row->b[s];
#else
    return (uint64_t)mj_index9(row->c + 9 * s);
#endif
}

/* Suit s of a row: base-5 index, tiles, kinds held an odd number of times (n and odd may be
 * NULL: inlined, the work drops out). Returns nonzero when a count is above 4 (then the other
 * outputs are meaningless). */
static MJ_ALWAYS_INLINE int mj_suit_load(const mj_row_t *row, int s, int32_t *idx, int *n, int *odd) {
    *idx = (int32_t)mj_suit_index(row, s);
#if MJ_SWAR
    const uint64_t ONES = 0x0101010101010101ULL;
    uint64_t x = row->x[s];
    uint64_t b = row->b[s];
    uint64_t bad = (x | (x + 0x7B * ONES)) & (0x80 * ONES); /* a byte above 4 sets its top bit */
    if (n) *n = (int)((x * ONES) >> 56) + (int)b;
    if (odd) *odd = (int)(((x & ONES) * ONES) >> 56) + (int)(b & 1);
    return bad != 0 || b > 4;
#else
    const uint8_t *p = row->c + 9 * s;
    int nn = 0, oo = 0, bad = 0;
    for (int r = 0; r < 9; r++) {
        nn += p[r];
        oo += p[r] & 1;
        bad |= p[r] > 4;
    }
    if (n) *n = nn;
    if (odd) *odd = oo;
    return bad;
#endif
}

#define MJ_ONES8 0x0101010101010101ULL

/* 8 bytes as a word, byte 0 the lowest (any byte order), and back. */
static inline uint64_t mj_word8(const uint8_t *p) {
#if MJ_SWAR
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
#else
    uint64_t w = 0;
    for (int r = 0; r < 8; r++) w |= (uint64_t)p[r] << (8 * r);
    return w;
#endif
}

static inline void mj_put8(uint8_t *p, uint64_t w) {
#if MJ_SWAR
    memcpy(p, &w, 8);
#else
    for (int r = 0; r < 8; r++) p[r] = (uint8_t)(w >> (8 * r));
#endif
}

/* Nonzero when a row of counts of at most 4 (checked apart) holds some kind four times. */
static inline int mj_row_has4(const mj_row_t *row) {
#if MJ_SWAR
    return ((row->x[0] | row->x[1] | row->x[2]) & 4 * MJ_ONES8) != 0 ||
           ((row->b[0] | row->b[1] | row->b[2]) & 4) != 0;
#else
    int any = 0;
    for (int t = 0; t < 27; t++) any |= row->c[t] == 4;
    return any;
#endif
}

/* Nonzero when some kind of a row of counts of at most 4 (checked apart) is seen more often than
 * its copies left: hand + seen above 4, seen counts of any byte value. */
static inline int mj_row_over(const mj_row_t *hand, const mj_row_t *seen) {
#if MJ_SWAR
    const uint64_t TOP = 0x80 * MJ_ONES8;
    uint64_t bad = 0;
    for (int s = 0; s < 3; s++) {
        /* a seen byte from 0x80 up sets its top bit; below, the sum cannot carry and sets the
         * top bit of sum + 0x7B exactly when it is above 4 (the rank-9 counts alike, in byte 0
         * of a word of their own: their sum stays below 0x185, bit 8 at most) */
        uint64_t y = seen->x[s], yb = seen->b[s];
        bad |= ((hand->x[s] + y + 0x7B * MJ_ONES8) | y) | ((hand->b[s] + yb + 0x7B) | yb);
    }
    return (bad & TOP) != 0;
#else
    int bad = 0;
    for (int t = 0; t < 27; t++) bad |= hand->c[t] + seen->c[t] > 4;
    return bad;
#endif
}

/* Copies left of each kind, 4 - hand - seen (seen may be NULL), into left[27]; the counts fit
 * (mj_row_over). */
static inline void mj_row_left(const mj_row_t *hand, const mj_row_t *seen, uint8_t *left) {
#if MJ_SWAR
    for (int s = 0; s < 3; s++) {
        uint64_t w = 4 * MJ_ONES8 - hand->x[s] - (seen ? seen->x[s] : 0);
        memcpy(left + 9 * s, &w, 8);
        left[9 * s + 8] = (uint8_t)(4 - hand->b[s] - (seen ? seen->b[s] : 0));
    }
#else
    for (int t = 0; t < 27; t++) left[t] = (uint8_t)(4 - hand->c[t] - (seen ? seen->c[t] : 0));
#endif
}

static inline int mj_held(const mj_hand_t *h, int t) { return h->c[t] + (h->melds ? h->melds[t] : 0); }

/* Copy a row into h (melds may be NULL), validate the copy and fill h from it. A complete hand
 * has `sets` sets (2..4, checked by the caller) plus a pair: 3 * sets + 1 - 3m concealed tiles
 * wait, 3 * sets + 2 - 3m are complete. Returns an MJ_ERR_* code, details in err[1..2]. */
static inline int mj_load(mj_hand_t *h, const uint8_t *row, const uint8_t *meld_row, int void_suit,
                          int void_rule, int form, int size_rule, int sets, int32_t *err) {
    mj_row_t r;
    mj_row_read(&r, row);
    const uint8_t *hand = mj_row_write(&r, h->c);
    const uint8_t *melds = meld_row ? mj_copy27(h->meld_copy, meld_row) : NULL;
    /* suit by suit with constant indices, so that r stays in registers */
    int bad = mj_suit_load(&r, 0, &h->idx[0], &h->n[0], &h->odd[0]) |
              mj_suit_load(&r, 1, &h->idx[1], &h->n[1], &h->odd[1]) |
              mj_suit_load(&r, 2, &h->idx[2], &h->n[2], &h->odd[2]);
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
    int waiting = 3 * (sets - m) + 1, complete = waiting + 1;
    int ok = m <= sets && (size_rule == MJ_SIZE_WAITING ? total == waiting
                        : size_rule == MJ_SIZE_COMPLETE ? total == complete
                        : (total == waiting || total == complete));
    if (!ok) { err[1] = m; err[2] = total; return MJ_ERR_SIZE; }
    if (void_suit < -1 || void_suit > 2) { err[1] = void_suit; err[2] = 0; return MJ_ERR_VOID; }
    h->melds = melds;
    h->m = m;
    h->sets = sets;
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

/* Check visible counts (a copy: mj_copy27) against the hand: a kind cannot be seen more often
 * than it exists. */
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
