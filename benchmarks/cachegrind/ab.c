/* Same-process A/B of two builds of the C library on the same streamed hands: under a shared
 * machine's changing load, alternating the two in one process (A B B A ..., thread CPU time per
 * call) is the timing that resolves a few percent, where separate runs do not.
 *
 *   cc -O3 -shared -fPIC -I src src/mjfast.c -o /tmp/lib_b.so     (and lib_a.so from the base)
 *   cc -O2 benchmarks/cachegrind/ab.c -o /tmp/ab -ldl
 *   /tmp/ab /tmp/lib_a.so /tmp/lib_b.so shanten|discards|effective N ROUNDS
 *
 * Prints each build's best and mean ns a row, B/A, and whether the two outputs are the same
 * bytes. Run it both ways round (the build loaded second gets other pages). Hands as
 * hands.h deals them (effective: 20 more tiles of the wall visible; shanten: one byte out).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
typedef int (*init_t)(void);
typedef int64_t (*disc_t)(const uint8_t *, size_t, const uint8_t *, int, int, int8_t *); /* and shanten */
typedef int64_t (*eff_t)(const uint8_t *, size_t, const uint8_t *, int, int, const uint8_t *, int8_t *);
#include "hands.h" /* deal, now */

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: ab LIB_A LIB_B shanten|discards|effective N ROUNDS\n");
        return 2;
    }
    const char *op = argv[3]; long n = atol(argv[4]); int rounds = atoi(argv[5]);
    int eff = !strcmp(op, "effective"), sh = !strcmp(op, "shanten");
    void *lib[2]; disc_t d[2]; eff_t e[2];
    for (int k = 0; k < 2; k++) {
        lib[k] = dlopen(argv[1 + k], RTLD_NOW | RTLD_LOCAL);
        if (!lib[k]) { fprintf(stderr, "%s\n", dlerror()); return 2; }
        if (((init_t)dlsym(lib[k], "mj_init"))() != 0) return 2;
        d[k] = (disc_t)dlsym(lib[k], sh ? "mj_shanten_n" : "mj_discards_n"); e[k] = (eff_t)dlsym(lib[k], "mj_effective_n");
    }
    uint8_t *h = malloc(n * 27), *v = malloc(n * 27); int8_t *out = malloc(n * 27), *out2 = malloc(n * 27);
    for (long i = 0; i < n; i++) { deal(h + 27 * i, NULL, eff ? 13 : 14); if (eff) deal(v + 27 * i, h + 27 * i, 20); }
    memset(out, 0, n * 27); memset(out2, 0, n * 27);
    size_t out_row = sh ? 1 : 27;
    double best[2] = {1e9, 1e9}, sum[2] = {0, 0};
    for (int r = 0; r < rounds; r++) for (int k0 = 0; k0 < 2; k0++) {
        int k = (r & 1) ? 1 - k0 : k0; /* ABBA */
        int8_t *o = k ? out2 : out;
        double t0 = now();
        int64_t bad = eff ? e[k](h, n, NULL, -1, 0, v, o) : d[k](h, n, NULL, -1, 0, o);
        double t = now() - t0;
        if (bad != -1) return 1;
        if (t < best[k]) best[k] = t;
        sum[k] += t;
    }
    printf("%s: A min %.2f mean %.2f  B min %.2f mean %.2f ns/row  B/A min %.3f mean %.3f  same=%d\n", op,
           1e9 * best[0] / n, 1e9 * sum[0] / rounds / n, 1e9 * best[1] / n, 1e9 * sum[1] / rounds / n,
           best[1] / best[0], sum[1] / sum[0], !memcmp(out, out2, n * out_row));
    return 0;
}
