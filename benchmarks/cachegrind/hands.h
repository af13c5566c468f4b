/* The hands the C benchmark drivers deal (kernels_cg.c, stream_limit.c, ab.c): one generator,
 * so every driver and every run meets the same hands. Benchmark code, not part of the library. */
#ifndef MJ_BENCH_HANDS_H
#define MJ_BENCH_HANDS_H

#include <stdint.h>
#include <string.h>
#include <time.h>

static uint64_t bench_state = 0x9E3779B97F4A7C15ULL;

/* 0..n-1 (xorshift64*) */
static inline int next(int n) {
    bench_state ^= bench_state >> 12;
    bench_state ^= bench_state << 25;
    bench_state ^= bench_state >> 27;
    return (int)(((bench_state * 0x2545F4914F6CDD1DULL) >> 33) % (uint64_t)n);
}

/* Deal `tiles` from a 108-tile wall minus `used` (NULL: the full wall) into c, weighted by the
 * copies left. */
static inline void deal(uint8_t *c, const uint8_t *used, int tiles) {
    memset(c, 0, 27);
    for (int n = 0; n < tiles;) {
        int k = next(27), left = 4 - c[k] - (used ? used[k] : 0);
        if (left > 0 && next(4) < left) { c[k]++; n++; }
    }
}

/* A ready 13-tile hand: a complete hand of two suits (4 sets + a pair) less one random tile. */
static inline void ready(uint8_t *c) {
    for (;;) {
        memset(c, 0, 27);
        int suits[2] = {next(3), next(3)}, ok = 1;
        for (int s = 0; s < 5 && ok; s++) {
            int base = 9 * suits[next(2)], kind = next(3), r = next(9);
            if (s == 4) c[base + r] += 2;                       /* the pair */
            else if (kind == 0) c[base + r] += 3;               /* a pung */
            else if (r < 7) for (int i = 0; i < 3; i++) c[base + r + i]++; /* a chow */
            else ok = 0;
        }
        for (int t = 0; t < 27 && ok; t++) ok = c[t] <= 4;
        if (!ok) continue;
        int drop = next(14);
        for (int t = 0; t < 27; t++) {
            if (drop < c[t]) { c[t]--; return; }
            drop -= c[t];
        }
    }
}

/* This thread's CPU time in seconds. */
static inline double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif /* MJ_BENCH_HANDS_H */
