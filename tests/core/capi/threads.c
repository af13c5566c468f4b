/* Thread-safety check of the C library (tests/core/test_capi.py): two threads call mj_init at
 * once on a fresh process, then both run the same hands; each prints a digest of its results,
 * and a digest from one thread alone follows. All three must agree. */
#include <pthread.h>
#include <stdio.h>

#include "mjfast.h"

#define HANDS 20000

static uint64_t digest(void) {
    uint64_t h = 1469598103934665603ULL, x = 88172645463325252ULL;
    const mj_rules_t *rules = mj_rules_preset("chengdu");
    for (int i = 0; i < HANDS; i++) {
        uint8_t c[27] = {0};
        int tiles = 13 + (i & 1), n = 0;
        while (n < tiles) { /* xorshift64: a fixed sequence of hands */
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            int k = (int)(x % 27);
            if (c[k] < 4) { c[k]++; n++; }
        }
        int8_t eff[27];
        int64_t v = mj_shanten(c, NULL, -1, 0);
        v = v * 131 + (tiles == 13 ? (int64_t)mj_waits(c, NULL, -1, 0) : mj_is_win(c, NULL, -1, 0));
        v = v * 131 + (tiles == 13 ? mj_max_fan(rules, c, NULL, NULL, -1, NULL, NULL)
                                   : mj_discards(c, NULL, -1, 0, eff));
        if (tiles == 13) mj_effective(c, NULL, -1, 0, NULL, eff);
        for (int k = 0; k < 27; k++) v = v * 31 + eff[k];
        h = (h ^ (uint64_t)v) * 1099511628211ULL;
    }
    return h;
}

static void *run(void *arg) {
    uint64_t *out = (uint64_t *)arg;
    if (mj_init() != 0) return NULL;
    *out = digest();
    return NULL;
}

int main(void) {
    uint64_t a = 0, b = 0;
    pthread_t ta, tb;
    if (pthread_create(&ta, NULL, run, &a) || pthread_create(&tb, NULL, run, &b)) return 2;
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    printf("%llu %llu %llu\n", (unsigned long long)a, (unsigned long long)b,
           (unsigned long long)digest());
    return 0;
}
