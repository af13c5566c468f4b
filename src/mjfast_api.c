/* The public C API of mjfast.h over the kernels (mjfast_batch.h, mjfast_fan.h), on the packed
 * tables of mjfast_tables.h and the preset rules of mjfast_presets.h. A whole translation unit;
 * tools/amalgamate.py joins it with the headers it includes into src/mjfast.c.
 *
 * Global state: the tables (built once by mj_init, mjfast_once.h) and nothing else; the column
 * records of discards / effective tiles are built on their first use (mjfast_columns.h).
 */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mjfast_batch.h"   /* the kernels and their tables (MJ), mj_job_t, mj_run */
#include "mjfast_fan.h"     /* mf_build, mf_job_t, mf_run */
#include "mjfast_kernel_build.h" /* mj_build_*: mj_init's kernel tables */
#include "mjfast_shared.h"  /* mj_shared_t */
#include "mjfast_tables.h"  /* mj_tables_lz, MJ_TABLES_HASH, MJ_N* */
#include "mjfast.h"         /* after the kernels: its macros repeat a few of their constants */
#include "mjfast_presets.h" /* mj_preset_names, mj_presets_lz, MJ_PRESETS_HASH */

static mj_state_t mj_state;
static mj_shared_t mj_shared_state;

/* Expand the packed tables. Token t < 128: t + 1 literal bytes follow; t >= 128: copy t - 125
 * bytes from `offset` (2 bytes, little-endian) back. -1 on any inconsistency. */
static int mj_unpack(const uint8_t *src, size_t n, uint8_t *dst, size_t size) {
    size_t i = 0, o = 0;
    while (i < n) {
        size_t t = src[i++];
        if (t < 128) {
            size_t len = t + 1;
            if (len > n - i || len > size - o) return -1;
            memcpy(dst + o, src + i, len);
            i += len;
            o += len;
        } else {
            if (n - i < 2) return -1;
            size_t len = t - 125, off = (size_t)src[i] | (size_t)src[i + 1] << 8;
            i += 2;
            if (off == 0 || off > o || len > size - o) return -1;
            for (size_t k = 0; k < len; k++, o++) dst[o] = dst[o - off];
        }
    }
    return o == size ? 0 : -1;
}

/* FNV-1a: the generator stores the hash of the raw tables, checked after unpacking. */
static uint32_t mj_fnv1a(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

static uint32_t mj_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A little-endian int32 (two's complement, with no implementation-defined conversion). */
static int32_t mj_le32s(const uint8_t *p) {
    uint32_t u = mj_le32(p);
    return u >= 0x80000000u ? (int32_t)(u - 0x80000000u) - INT32_MAX - 1 : (int32_t)u;
}

/* The preset rules, expanded from mjfast_presets.h by mj_build_tables (18 KB of zero-initialized
 * data instead of constants in the library's file). */
static mj_rules_t mj_presets[MJ_NPRESETS];

/* Unpack the presets into mj_presets and check their hash, then read each value's bytes as the
 * little-endian int32 they hold, in place. 0, or -1 on any inconsistency. */
static int mj_build_presets(void) {
    uint8_t *raw = (uint8_t *)mj_presets;
    if (sizeof mj_presets != MJ_PRESETS_RAW_SIZE ||
        mj_unpack(mj_presets_lz, sizeof mj_presets_lz, raw, MJ_PRESETS_RAW_SIZE) != 0 ||
        mj_fnv1a(raw, MJ_PRESETS_RAW_SIZE) != MJ_PRESETS_HASH)
        return -1;
    for (size_t i = 0; i < MJ_NPRESETS; i++)
        for (int k = 0; k < MJ_RULES_SIZE; k++)
            mj_presets[i].v[k] = mj_le32s((const uint8_t *)&mj_presets[i].v[k]);
    return 0;
}

/* Allocate and build the tables: unpack the shipped ones and point MJ at them (the layout of
 * tools/tablegen.py), expand the class and wait tables, build the fan suit table. 0, or
 * MJ_E_NOMEM (nothing is left allocated) / MJ_E_TABLES. */
static int mj_build_tables(void) {
    uint8_t *raw = (uint8_t *)malloc(MJ_TABLES_RAW_SIZE);
    /* the class tables with MJ_GUARD bytes of class 0 before index 0 (mjfast_kernels.h) */
    uint8_t *full_mem = (uint8_t *)calloc(MJ_GUARD + 1953125, 1);
    uint16_t *wmask = (uint16_t *)malloc(1953125 * sizeof(uint16_t));
    uint8_t *void_mem = (uint8_t *)calloc(MJ_GUARD + 1953125, 1);
    uint8_t *full = full_mem ? full_mem + MJ_GUARD : NULL;
    uint8_t *void_full = void_mem ? void_mem + MJ_GUARD : NULL;
    uint32_t *fan = (uint32_t *)malloc(MF_HASH_SIZE * sizeof(uint32_t));
    /* the headline shanten tables: void_pair, void_last, final_shanten */
    uint8_t *fast = (uint8_t *)malloc(2 * 65536 + (size_t)MJ_NPAIR * MJ_NCLASS);
    int rc = !raw || !full || !wmask || !void_full || !fan || !fast ? MJ_E_NOMEM : 0;
    if (rc == 0 && (mj_unpack(mj_tables_lz, sizeof mj_tables_lz, raw, MJ_TABLES_RAW_SIZE) != 0 ||
                    mj_fnv1a(raw, MJ_TABLES_RAW_SIZE) != MJ_TABLES_HASH || mj_build_presets() != 0))
        rc = MJ_E_TABLES;
    if (rc == 0) {
        const int nf = MJ_NCLASS;
        size_t off = 0;
        MJ.left = raw;
        off += 125;
        MJ.right = raw + off;
        off += 15625 * 2;
        MJ.lr = raw + off;
        off += (size_t)MJ_NLEFT * MJ_NRIGHT;
        MJ.n_right = MJ_NRIGHT;
        MJ.vec = (const int8_t *)(raw + off);
        off += (size_t)nf * 10;
        MJ.pair = raw + off;
        off += (size_t)nf * nf;
        MJ.two = (const int8_t *)(raw + off);
        off += (size_t)nf * nf;
        MJ.final = (const int8_t *)(raw + off);
        off += (size_t)MJ_NPAIR * nf;
        MJ.void_class = raw + off;
        off += (size_t)nf * 64;
        MJ.void_two = (const int8_t *)(raw + off);
        MJ.n_full = nf;
        mj_build_full(full);
        MJ.full = full;
        mj_build_wmask(wmask);
        MJ.wmask = wmask;
        if (mj_build_rank() != 0) rc = MJ_E_TABLES;
        mj_build_waits();
        uint32_t counts[256];
        mj_build_void_full(void_full, counts);
        MJ.void_full = void_full;
        if (mj_build_void_pair(fast, (int8_t *)fast + 65536, counts) < 0) rc = MJ_E_TABLES;
        MJ.void_pair = fast;
        MJ.void_last = (const int8_t *)fast + 65536;
        mj_build_final_shanten((int8_t *)fast + 2 * 65536, (size_t)MJ_NPAIR * nf);
        MJ.final_shanten = (const int8_t *)fast + 2 * 65536;
        MJ.isa = mj_isa_level();
        int complete = mf_build(fan);
        if (rc == 0) rc = complete == MF_NOMEM ? MJ_E_NOMEM : complete > 0 ? 0 : MJ_E_TABLES;
        mj_shared_state.tables = &MJ;
        mj_shared_state.fan_table = fan;
        mj_shared_state.complete_patterns = complete;
        mj_shared_state.raw = raw;
        mj_shared_state.raw_size = MJ_TABLES_RAW_SIZE;
    }
    if (rc != 0) {
        free(raw);
        free(full_mem);
        free(wmask);
        free(void_mem);
        free(fan);
        free(fast);
        memset(&MJ, 0, sizeof MJ);
    }
    return rc;
}

int mj_init(void) { return mj_once(&mj_state, mj_build_tables, MJ_E_NOMEM, MJ_E_TABLES); }

/* Every entry point starts with one of these: one acquire load once the tables are built. */
#define MJ_READY_OR_RETURN(fail)                                                                 \
    do {                                                                                         \
        if (MJ_UNLIKELY(mj_state_get(&mj_state) != MJ_STATE_READY) && mj_init() != 0)           \
            return (fail);                                                                       \
    } while (0)
#define MJ_READY_OR_RETURN_CODE()                                                                \
    do {                                                                                         \
        int init_rc = MJ_UNLIKELY(mj_state_get(&mj_state) != MJ_STATE_READY) ? mj_init() : 0;   \
        if (init_rc != 0) return init_rc;                                                        \
    } while (0)

const char *mj_version(void) { return MJFAST_VERSION; }

/* ---- options and errors ------------------------------------------------------------------ */

/* The sets of the MJ_SETS bits of options (0 means 4): 2..4, or MJ_E_OPTIONS. */
static int mj_sets(int options) {
    int sets = (options & MJ_SETS_MASK) >> MJ_SETS_SHIFT;
    if (sets == 0) return 4;
    return sets >= 2 && sets <= 4 ? sets : MJ_E_OPTIONS;
}

/* Check the options and the void suit; fill the kernels' form, void rule and sets. 0 or
 * MJ_E_*. */
static int mj_options(int options, int void_suit, int *form, int *void_rule, int *sets) {
    if (options & ~(MJ_FORM_REGULAR | MJ_FORM_SEVEN_PAIRS | MJ_NO_VOID_RULE | MJ_SETS_MASK))
        return MJ_E_OPTIONS;
    if ((*sets = mj_sets(options)) < 0) return MJ_E_OPTIONS;
    int f = options & (MJ_FORM_REGULAR | MJ_FORM_SEVEN_PAIRS);
    *form = f == MJ_FORM_REGULAR ? MJ_FORM_REGULAR : f == MJ_FORM_SEVEN_PAIRS ? MJ_FORM_SEVEN_PAIRS
                                                                           : MJ_FORM_ALL;
    *void_rule = !(options & MJ_NO_VOID_RULE);
    if (void_suit < -1 || void_suit > 2 || (!*void_rule && void_suit != -1)) return MJ_E_VOID;
    return 0;
}

/* The kernels' row codes (MJ_ERR_*, MF_ERR_*) as MJ_E_* codes. */
static int mj_error(int code) { return -100 - code; }

/* A job over rows [0, n) of contiguous rows (melds / visible: NULL or rows of their own). */
static void mj_job_set(mj_job_t *job, int op, const uint8_t *rows, const uint8_t *melds,
                       int void_suit, int form, int void_rule, int sets, const uint8_t *visible,
                       void *out, int coerce) {
    job->op = op;
    job->form = form;
    job->void_rule = void_rule;
    job->sets = sets;
    job->coerce = coerce;
    job->hands = rows;
    job->melds = melds;
    job->melds_stride = 27;
    job->voids = NULL;
    job->void_scalar = void_suit;
    job->visible = visible;
    job->visible_stride = 27;
    job->out = out;
    job->err[0] = job->err[1] = job->err[2] = 0;
}

/* One hand as a batch of one (the meld-free fast paths first): 0 or MJ_E_*. */
static int mj_one(int op, const uint8_t *counts, const uint8_t *melds, int void_suit,
                  int options, const uint8_t *visible, void *out) {
    int form, void_rule, sets, rc;
    if (!counts || !out) return MJ_E_NULL;
    if ((rc = mj_options(options, void_suit, &form, &void_rule, &sets)) != 0) return rc;
    mj_job_t job;
    mj_job_set(&job, op, counts, melds, void_suit, form, void_rule, sets, visible, out, 0);
    return mj_run(&job, 0, 1) < 0 ? 0 : mj_error(job.err[0]);
}

/* ---- one hand ---------------------------------------------------------------------------- */

/* The meld-free fast path, one instance per option combination (constants fold). 1 when it
 * wrote the result, 0 when the hand needs the general path (which reports any error). */
static MJ_ALWAYS_INLINE int mj_shanten_plain(const mj_job_t *job, int void_rule, int form) {
    if (void_rule) {
        if (form == MJ_FORM_ALL) return (int)mj_plain_shanten_as(job, 0, 1, 1, 1, 1);
        if (form == MJ_FORM_REGULAR) return (int)mj_plain_shanten_as(job, 0, 1, 1, 1, 0);
        return (int)mj_plain_shanten_as(job, 0, 1, 1, 0, 1);
    }
    if (form == MJ_FORM_ALL) return (int)mj_plain_shanten_as(job, 0, 1, 0, 1, 1);
    if (form == MJ_FORM_REGULAR) return (int)mj_plain_shanten_as(job, 0, 1, 0, 1, 0);
    return (int)mj_plain_shanten_as(job, 0, 1, 0, 0, 1);
}

/* Every case of mj_shanten but the hot one: apart (not inlined), so that the hot case keeps to
 * registers and saves only the few it uses. */
static MJ_NOINLINE int mj_shanten_general(const uint8_t *counts, const uint8_t *melds,
                                          int void_suit, int options) {
    MJ_READY_OR_RETURN_CODE();
    int8_t out = 0;
    if (!melds && counts) {
        int form, void_rule, sets;
        if (mj_options(options, void_suit, &form, &void_rule, &sets) == 0 && sets == 4) {
            mj_job_t job;
            mj_job_set(&job, MJ_OP_SHANTEN, counts, NULL, void_suit, form, void_rule, 4, NULL,
                       &out, 0);
            if (mj_shanten_plain(&job, void_rule, form)) return out;
        }
    }
    int rc = mj_one(MJ_OP_SHANTEN, counts, melds, void_suit, options, NULL, &out);
    return rc ? rc : out;
}

/* The hot cases of mj_shanten (tables built, no melds; the default options, or what nyanten
 * computes: MJ_FORM_REGULAR | MJ_NO_VOID_RULE, no void suit): the one-row fast path, else the
 * general one with what is known of the call, so that only counts and void_suit stay live. */
static MJ_ALWAYS_INLINE int mj_shanten_hot(const uint8_t *counts, int void_suit, int options,
                                           const int void_rule) {
    int v;
    if (MJ_LIKELY(mj_plain_row(counts, void_suit, &v, void_rule, 1, void_rule))) return v;
    return mj_shanten_general(counts, NULL, void_suit, options);
}

int mj_shanten(const uint8_t counts[27], const uint8_t melds[27], int void_suit, int options) {
    if (MJ_LIKELY(!melds && counts && mj_state_get(&mj_state) == MJ_STATE_READY)) {
        if (options == 0) return mj_shanten_hot(counts, void_suit, 0, 1);
        if (options == (MJ_FORM_REGULAR | MJ_NO_VOID_RULE) && void_suit == -1)
            return mj_shanten_hot(counts, -1, options, 0);
    }
    return mj_shanten_general(counts, melds, void_suit, options);
}

int mj_is_win(const uint8_t counts[27], const uint8_t melds[27], int void_suit, int options) {
    MJ_READY_OR_RETURN_CODE();
    uint8_t out = 0;
    int rc = mj_one(MJ_OP_IS_WIN, counts, melds, void_suit, options, NULL, &out);
    return rc ? rc : out;
}

uint32_t mj_waits(const uint8_t counts[27], const uint8_t melds[27], int void_suit, int options) {
    MJ_READY_OR_RETURN(MJ_INVALID_MASK);
    uint32_t out = 0;
    return mj_one(MJ_OP_WAITS, counts, melds, void_suit, options, NULL, &out) ? MJ_INVALID_MASK
                                                                               : out;
}

int mj_effective(const uint8_t counts[27], const uint8_t melds[27], int void_suit, int options,
                 const uint8_t visible[27], int8_t out[27]) {
    MJ_READY_OR_RETURN_CODE();
    return mj_one(MJ_OP_EFFECTIVE, counts, melds, void_suit, options, visible, out);
}

int mj_discards(const uint8_t counts[27], const uint8_t melds[27], int void_suit, int options,
                int8_t out[27]) {
    MJ_READY_OR_RETURN_CODE();
    return mj_one(MJ_OP_DISCARDS, counts, melds, void_suit, options, NULL, out);
}

/* ---- batches ----------------------------------------------------------------------------- */

/* The most rows a batch may hold: 27 bytes a row must stay addressable (a larger n cannot be
 * an array, and (int64_t)n would turn negative and compute nothing). */
#define MJ_MAX_ROWS ((size_t)PTRDIFF_MAX / 27)

static int64_t mj_many(int op, const uint8_t *rows, size_t n, const uint8_t *melds,
                       int void_suit, int options, const uint8_t *visible, void *out) {
    MJ_READY_OR_RETURN_CODE();
    int form, void_rule, sets, rc;
    if ((rc = mj_options(options, void_suit, &form, &void_rule, &sets)) != 0) return rc;
    if (n > MJ_MAX_ROWS) return MJ_E_RANGE;
    if (n == 0) return -1;
    if (!rows || !out) return MJ_E_NULL;
    mj_job_t job;
    mj_job_set(&job, op, rows, melds, void_suit, form, void_rule, sets, visible, out, 1);
    return mj_run(&job, 0, (int64_t)n);
}

int64_t mj_shanten_n(const uint8_t *rows, size_t n, const uint8_t *melds, int void_suit,
                     int options, int8_t *out) {
    return mj_many(MJ_OP_SHANTEN, rows, n, melds, void_suit, options, NULL, out);
}

int64_t mj_is_win_n(const uint8_t *rows, size_t n, const uint8_t *melds, int void_suit,
                    int options, uint8_t *out) {
    return mj_many(MJ_OP_IS_WIN, rows, n, melds, void_suit, options, NULL, out);
}

int64_t mj_waits_n(const uint8_t *rows, size_t n, const uint8_t *melds, int void_suit,
                   int options, uint32_t *out) {
    return mj_many(MJ_OP_WAITS, rows, n, melds, void_suit, options, NULL, out);
}

int64_t mj_effective_n(const uint8_t *rows, size_t n, const uint8_t *melds, int void_suit,
                       int options, const uint8_t *visible, int8_t *out) {
    return mj_many(MJ_OP_EFFECTIVE, rows, n, melds, void_suit, options, visible, out);
}

int64_t mj_discards_n(const uint8_t *rows, size_t n, const uint8_t *melds, int void_suit,
                      int options, int8_t *out) {
    return mj_many(MJ_OP_DISCARDS, rows, n, melds, void_suit, options, NULL, out);
}

/* ---- rules ------------------------------------------------------------------------------- */

/* The rules table of the kernels and of this header must agree. */
typedef char mj_rules_size_check[MJ_RULES_SIZE == MF_R_SIZE ? 1 : -1];

const mj_rules_t *mj_rules_preset(const char *name) {
    if (!name) return NULL;
    MJ_READY_OR_RETURN(NULL); /* mj_init expands the presets */
    for (size_t i = 0; i < MJ_NPRESETS; i++) {
        if (strcmp(name, mj_preset_names[i]) == 0) return &mj_presets[i];
    }
    return NULL;
}

/* Blob (mjfast.scoring.patterns.rules_blob): the 8 bytes "mjrules\0", format 1 and
 * MJ_RULES_SIZE as uint32 little-endian, then the int32 values little-endian. A value outside
 * the range compile_rules writes for its field (mf_rules_ok) is refused, so that every fan
 * result stays apart from the error codes. */
#define MJ_BLOB_HEADER 16
int mj_rules_from_bytes(mj_rules_t *rules, const void *data, size_t size) {
    const uint8_t *p = (const uint8_t *)data;
    if (!rules || !data) return MJ_E_NULL;
    if (size != MJ_BLOB_HEADER + 4 * (size_t)MJ_RULES_SIZE || memcmp(p, "mjrules", 8) != 0 ||
        mj_le32(p + 8) != 1 || mj_le32(p + 12) != MJ_RULES_SIZE)
        return MJ_E_RULES;
    mj_rules_t r;
    for (int i = 0; i < MJ_RULES_SIZE; i++) r.v[i] = mj_le32s(p + MJ_BLOB_HEADER + 4 * i);
    if (!mf_rules_ok(r.v)) return MJ_E_RULES;
    *rules = r;
    return 0;
}

/* ---- fan --------------------------------------------------------------------------------- */

static void mf_job_set(mf_job_t *job, const mj_rules_t *rules, const uint8_t *rows,
                       const uint8_t *melds, const uint8_t *concealed, int void_suit, int sets,
                       const uint8_t *visible, int16_t *out, int8_t *best, int coerce) {
    memset(job, 0, sizeof *job);
    job->sets = sets;
    job->coerce = coerce;
    job->hands = rows;
    job->melds = melds;
    job->melds_stride = 27;
    job->conc = concealed;
    job->conc_stride = 27;
    job->void_scalar = void_suit;
    job->visible = visible;
    job->visible_stride = 27;
    job->rules = rules->v;
    job->out = out;
    job->best = best;
}

/* The fan functions take only the MJ_SETS bits in options. */
static int mj_fan_sets(int options) {
    return options & ~MJ_SETS_MASK ? MJ_E_OPTIONS : mj_sets(options);
}

int mj_fan_ex(const mj_rules_t *rules, const uint8_t counts[27], const uint8_t melds[27],
              const uint8_t concealed[27], int void_suit, int win_tile, int flags, int options) {
    MJ_READY_OR_RETURN_CODE();
    if (!rules || !counts) return MJ_E_NULL;
    if (flags & ~255) return MJ_E_FLAGS;
    int sets = mj_fan_sets(options);
    if (sets < 0) return sets;
    mf_job_t job;
    int16_t out = 0;
    mf_job_set(&job, rules, counts, melds, concealed, void_suit, sets, NULL, &out, NULL, 0);
    job.win_scalar = win_tile;
    job.flag_scalar = flags;
    return mf_run(&job, MF_OP_FAN, 0, 1) >= 0 ? mj_error(job.err[0]) : out;
}

int mj_fan(const mj_rules_t *rules, const uint8_t counts[27], const uint8_t melds[27],
           const uint8_t concealed[27], int void_suit, int win_tile, int flags) {
    return mj_fan_ex(rules, counts, melds, concealed, void_suit, win_tile, flags, 0);
}

int mj_max_fan_ex(const mj_rules_t *rules, const uint8_t counts[27], const uint8_t melds[27],
                  const uint8_t concealed[27], int void_suit, const uint8_t visible[27],
                  int *best_wait, int options) {
    MJ_READY_OR_RETURN_CODE();
    if (!rules || !counts) return MJ_E_NULL;
    int sets = mj_fan_sets(options);
    if (sets < 0) return sets;
    mf_job_t job;
    int16_t out = 0;
    int8_t best = -1;
    mf_job_set(&job, rules, counts, melds, concealed, void_suit, sets, visible, &out, &best, 0);
    if (mf_run(&job, MF_OP_MAX_FAN, 0, 1) >= 0) return mj_error(job.err[0]);
    if (best_wait) *best_wait = best;
    return out;
}

int mj_max_fan(const mj_rules_t *rules, const uint8_t counts[27], const uint8_t melds[27],
               const uint8_t concealed[27], int void_suit, const uint8_t visible[27],
               int *best_wait) {
    return mj_max_fan_ex(rules, counts, melds, concealed, void_suit, visible, best_wait, 0);
}

int64_t mj_fan_n_ex(const mj_rules_t *rules, const uint8_t *rows, size_t n, const uint8_t *melds,
                    const uint8_t *concealed, int void_suit, const int8_t *win_tiles,
                    const uint8_t *flags, int16_t *out, int options) {
    MJ_READY_OR_RETURN_CODE();
    int sets = mj_fan_sets(options);
    if (sets < 0) return sets;
    if (n > MJ_MAX_ROWS) return MJ_E_RANGE;
    if (n == 0) return -1;
    if (!rules || !rows || !win_tiles || !out) return MJ_E_NULL;
    mf_job_t job;
    mf_job_set(&job, rules, rows, melds, concealed, void_suit, sets, NULL, out, NULL, 1);
    job.wins = win_tiles;
    job.flags = flags;
    return mf_run(&job, MF_OP_FAN, 0, (int64_t)n);
}

int64_t mj_fan_n(const mj_rules_t *rules, const uint8_t *rows, size_t n, const uint8_t *melds,
                 const uint8_t *concealed, int void_suit, const int8_t *win_tiles,
                 const uint8_t *flags, int16_t *out) {
    return mj_fan_n_ex(rules, rows, n, melds, concealed, void_suit, win_tiles, flags, out, 0);
}

int64_t mj_max_fan_n_ex(const mj_rules_t *rules, const uint8_t *rows, size_t n,
                        const uint8_t *melds, const uint8_t *concealed, int void_suit,
                        const uint8_t *visible, int16_t *out, int8_t *best_wait, int options) {
    MJ_READY_OR_RETURN_CODE();
    int sets = mj_fan_sets(options);
    if (sets < 0) return sets;
    if (n > MJ_MAX_ROWS) return MJ_E_RANGE;
    if (n == 0) return -1;
    if (!rules || !rows || !out) return MJ_E_NULL;
    mf_job_t job;
    mf_job_set(&job, rules, rows, melds, concealed, void_suit, sets, visible, out, best_wait, 1);
    return mf_run(&job, MF_OP_MAX_FAN, 0, (int64_t)n);
}

int64_t mj_max_fan_n(const mj_rules_t *rules, const uint8_t *rows, size_t n,
                     const uint8_t *melds, const uint8_t *concealed, int void_suit,
                     const uint8_t *visible, int16_t *out, int8_t *best_wait) {
    return mj_max_fan_n_ex(rules, rows, n, melds, concealed, void_suit, visible, out, best_wait,
                           0);
}

/* ---- the function table ------------------------------------------------------------------ */

static const mj_capi_t mj_capi_table = {
    MJFAST_ABI_VERSION, sizeof(mj_capi_t), mj_version, mj_shanten, mj_is_win, mj_waits,
    mj_effective, mj_discards, mj_shanten_n, mj_rules_preset, mj_rules_from_bytes, mj_fan,
    mj_max_fan, mj_fan_ex, mj_max_fan_ex,
};

const mj_capi_t *mj_capi(void) { return &mj_capi_table; }

const mj_shared_t *mj_shared(void) { return mj_init() == 0 ? &mj_shared_state : NULL; }
