/* How close mjfast's streamed batch kernels are to this machine's memory limit (limit.sh runs it):
 * stream_limit N: N distinct hands per kernel, each read once, one thread. Per kernel it times
 * (thread CPU time, best of 3 passes over the same N rows, which do not fit in any cache at the
 * default N) the kernel itself through the C library, a plain pass that reads the same input rows
 * and writes the same output bytes (out = hand + visible, byte by byte, in the 16-byte pieces the
 * kernels store), and a pass that only reads the input rows (what the check pass of
 * errors="raise" with out= costs at least). Prints ns per row and the bytes moved per row.
 *
 * Hands (hands.h, as kernels_cg.c deals them): discards 14 dealt tiles, effective 13
 * with 20 more tiles of the same wall visible, waits ready 13-tile hands (waits_dealt: dealt ones).
 * share: read+wr / kernel, the most of the kernel's time that its memory traffic can explain.
 */
#include <emmintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mjfast.h"

#include "hands.h" /* next, deal, ready, now */

/* out = hand (+ visible): 27 bytes a row as two overlapping 16-byte loads and stores. */
static void plain_copy(const uint8_t *h, const uint8_t *v, uint8_t *out, long n, int width) {
    for (long i = 0; i < n; i++, h += 27, out += width) {
        __m128i lo = _mm_loadu_si128((const __m128i *)h), hi = _mm_loadu_si128((const __m128i *)(h + 11));
        if (v) {
            lo = _mm_add_epi8(lo, _mm_loadu_si128((const __m128i *)(v + 27 * i)));
            hi = _mm_add_epi8(hi, _mm_loadu_si128((const __m128i *)(v + 27 * i + 11)));
        }
        if (width == 27) {
            _mm_storeu_si128((__m128i *)out, lo);
            _mm_storeu_si128((__m128i *)(out + 11), hi);
        } else { /* waits: a 4-byte mask a row */
            int w = _mm_cvtsi128_si32(_mm_xor_si128(lo, hi));
            memcpy(out, &w, 4);
        }
    }
}

/* Read the rows only: their byte sums (so that nothing is left out). */
static uint64_t plain_read(const uint8_t *h, const uint8_t *v, long n) {
    __m128i acc = _mm_setzero_si128();
    for (long i = 0; i < n; i++, h += 27) {
        __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)h), _mm_loadu_si128((const __m128i *)(h + 11)));
        if (v)
            x = _mm_xor_si128(x, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(v + 27 * i)),
                                               _mm_loadu_si128((const __m128i *)(v + 27 * i + 11))));
        acc = _mm_add_epi64(acc, _mm_sad_epu8(x, _mm_setzero_si128()));
    }
    return (uint64_t)_mm_cvtsi128_si64(acc);
}

int main(int argc, char **argv) {
    const long n = argc > 1 ? atol(argv[1]) : 4000000;
    const char *only = argc > 2 ? argv[2] : NULL;
    if (n < 1 || mj_init() != 0) return 2;
    /* 16 bytes of slack: the plain passes read 16 bytes at offset 11 of the last row */
    uint8_t *hands = malloc((size_t)n * 27 + 16), *visible = malloc((size_t)n * 27 + 16);
    int8_t *out = malloc((size_t)n * 27 + 16);
    if (!hands || !visible || !out) return 2;
    memset(out, 0, (size_t)n * 27 + 16); /* the pages exist before any timing */
    printf("%-11s %8s %8s %8s %6s %9s %9s\n", "ns a row:", "kernel", "read+wr", "read", "share", "GB/s r+w", "bytes r/w");
    const char *ops[4] = {"discards", "effective", "waits", "waits_dealt"};
    for (int k = 0; k < 4; k++) {
        const char *op = ops[k];
        if (only && strcmp(only, op)) continue;
        int eff = k == 1, width = k >= 2 ? 4 : 27, in = eff ? 54 : 27;
        memset(hands + (size_t)n * 27, 0, 16);
        memset(visible + (size_t)n * 27, 0, 16);
        for (long i = 0; i < n; i++) {
            if (k == 2) ready(hands + 27 * i);
            else deal(hands + 27 * i, NULL, k == 0 ? 14 : 13);
            if (eff) deal(visible + 27 * i, hands + 27 * i, 20);
        }
        double best[3] = {1e9, 1e9, 1e9};
        volatile uint64_t sink = 0;
        for (int rep = 0; rep < 3; rep++) {
            double t0 = now();
            int64_t bad = k == 0 ? mj_discards_n(hands, (size_t)n, NULL, -1, 0, out)
                        : k == 1 ? mj_effective_n(hands, (size_t)n, NULL, -1, 0, visible, out)
                                 : mj_waits_n(hands, (size_t)n, NULL, -1, 0, (uint32_t *)out);
            double t1 = now();
            plain_copy(hands, eff ? visible : NULL, (uint8_t *)out, n, width);
            double t2 = now();
            sink += plain_read(hands, eff ? visible : NULL, n);
            double t3 = now();
            if (bad != -1) return 1;
            double t[3] = {t1 - t0, t2 - t1, t3 - t2};
            for (int j = 0; j < 3; j++) best[j] = t[j] < best[j] ? t[j] : best[j];
        }
        printf("%-11s %8.2f %8.2f %8.2f %6.2f %9.1f %5d/%d\n", op, 1e9 * best[0] / n, 1e9 * best[1] / n,
               1e9 * best[2] / n, best[1] / best[0], (double)(in + width) * n / best[1] / 1e9, in, width);
    }
    free(hands);
    free(visible);
    free(out);
    return 0;
}
