/* Throughput of the C library on one core (README "Embedding"): mj_shanten per hand on random
 * 14-tile hands (full rules: every form, void rule on), the same hands as one mj_shanten_n batch,
 * and mj_max_fan per ready hand.
 *
 *     cc -O2 -I src examples/c/bench.c src/mjfast.c -o mjfast_bench && ./mjfast_bench
 */
/* clock_gettime is POSIX: ask for it under -std=c99 */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mjfast.h"

#define HANDS (1 << 20)

static uint64_t rng = 88172645463325252ULL;
static int next(int n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % (uint64_t)n);
}

/* A random deal of `tiles` from the 108-tile wall. */
static void deal(uint8_t *c, int tiles) {
    for (int k = 0; k < 27; k++) c[k] = 0;
    for (int n = 0; n < tiles;) {
        int k = next(27);
        if (c[k] < 4 && next(4) < 4 - c[k]) { c[k]++; n++; } /* weight by copies left */
    }
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void) {
    uint8_t *hands = malloc((size_t)HANDS * 27), *ready = malloc((size_t)HANDS * 27);
    int8_t *out = malloc(HANDS);
    if (!hands || !ready || !out || mj_init() != 0) return 1;
    for (int i = 0; i < HANDS; i++) deal(hands + 27 * i, 14);
    int nready = 0;
    while (nready < HANDS / 16) { /* ready hands: random 13-tile deals with shanten 0 */
        uint8_t *c = ready + 27 * nready;
        deal(c, 13);
        if (mj_shanten(c, NULL, -1, 0) == 0 && mj_waits(c, NULL, -1, 0)) nready++;
    }
    long sum = 0;
    /* full rules (every form, void rule), then what nyanten computes (regular form only) */
    const int options[2] = {0, MJ_FORM_REGULAR | MJ_NO_VOID_RULE};
    const char *names[2] = {"mj_shanten (full rules)", "mj_shanten (regular only)"};
    double best;
    for (int o = 0; o < 2; o++) {
        best = 1e9;
        for (int rep = 0; rep < 5; rep++) {
            double t = now();
            for (int i = 0; i < HANDS; i++) sum += mj_shanten(hands + 27 * i, NULL, -1, options[o]);
            t = now() - t;
            if (t < best) best = t;
        }
        printf("%-26s %7.1f M hands/s\n", names[o], HANDS / best / 1e6);
    }
    best = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double t = now();
        sum += mj_shanten_n(hands, HANDS, NULL, -1, 0, out);
        t = now() - t;
        if (t < best) best = t;
    }
    for (int i = 0; i < HANDS; i++) sum += out[i];
    printf("%-26s %7.1f M hands/s\n", "mj_shanten_n (full rules)", HANDS / best / 1e6);
    const mj_rules_t *rules = mj_rules_preset("chengdu");
    best = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double t = now();
        for (int i = 0; i < nready; i++)
            sum += mj_max_fan(rules, ready + 27 * i, NULL, NULL, -1, NULL, NULL);
        t = now() - t;
        if (t < best) best = t;
    }
    printf("%-26s %7.1f M hands/s\n", "mj_max_fan (ready hands)", nready / best / 1e6);
    printf("(checksum %ld)\n", sum);
    free(hands);
    free(ready);
    free(out);
    return 0;
}
