/* mjfast once-only builds: an atomic state word per built thing (GCC/Clang __atomic builtins,
 * MSVC Interlocked*, else C11 stdatomic). The first caller moves it from NEW to BUILDING and
 * builds; the others yield until it reads READY or FAILED (a build that finds corrupt data); out
 * of memory returns it to NEW, so a later call tries again. No pthread, so no link flag.
 *
 * Plain C, no Python; used by mjfast_api.c (the tables, mj_init) and mjfast_columns.h (the
 * column records, built on the first call that needs them).
 */
#ifndef MJFAST_ONCE_H
#define MJFAST_ONCE_H

enum { MJ_STATE_NEW = 0, MJ_STATE_BUILDING = 1, MJ_STATE_READY = 2, MJ_STATE_FAILED = 3 };

#if defined(_MSC_VER) && !defined(__clang__)
#include <windows.h>
typedef volatile LONG mj_state_t;
static int mj_state_get(mj_state_t *p) { return (int)InterlockedCompareExchange(p, 0, 0); }
static int mj_state_claim(mj_state_t *p) {
    return InterlockedCompareExchange(p, MJ_STATE_BUILDING, MJ_STATE_NEW) == MJ_STATE_NEW;
}
static void mj_state_set(mj_state_t *p, int v) { InterlockedExchange(p, v); }
static void mj_yield(void) { SwitchToThread(); }
#elif defined(__GNUC__) || defined(__clang__)
#if defined(__unix__) || defined(__APPLE__)
#include <sched.h>
static void mj_yield(void) { sched_yield(); }
#else
static void mj_yield(void) {}
#endif
typedef int mj_state_t;
static int mj_state_get(mj_state_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static int mj_state_claim(mj_state_t *p) {
    int expected = MJ_STATE_NEW;
    return __atomic_compare_exchange_n(p, &expected, MJ_STATE_BUILDING, 0, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE);
}
static void mj_state_set(mj_state_t *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
#else
#include <stdatomic.h>
typedef atomic_int mj_state_t;
static int mj_state_get(mj_state_t *p) { return atomic_load(p); }
static int mj_state_claim(mj_state_t *p) {
    int expected = MJ_STATE_NEW;
    return atomic_compare_exchange_strong(p, &expected, MJ_STATE_BUILDING);
}
static void mj_state_set(mj_state_t *p, int v) { atomic_store(p, v); }
static void mj_yield(void) {}
#endif

/* Run build once: 0 when built (now or before), else fail, or nomem when build returned it
 * (then the next call tries again). build returns 0, nomem, or any other code for corrupt data. */
static int mj_once(mj_state_t *state, int (*build)(void), int nomem, int fail) {
    for (;;) {
        int s = mj_state_get(state);
        if (s == MJ_STATE_READY) return 0;
        if (s == MJ_STATE_FAILED) return fail;
        if (s == MJ_STATE_NEW && mj_state_claim(state)) {
            int rc = build();
            mj_state_set(state, rc == 0 ? MJ_STATE_READY : rc == nomem ? MJ_STATE_NEW : MJ_STATE_FAILED);
            return rc == 0 ? 0 : rc == nomem ? nomem : fail;
        }
        mj_yield(); /* another thread is building */
    }
}

#endif
