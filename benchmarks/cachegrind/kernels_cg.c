/* One batch kernel of the C library over N distinct hands, each read once (run.sh runs it under
 * cachegrind): kernels_cg OP N, OP one of shanten (full rules), regular (regular form, no void
 * rule), is_win, waits (ready 13-tile hands), waits_dealt (dealt 13-tile hands: most hold three
 * suits, not ready), discards (14 tiles), effective (13 tiles, 20 more tiles of the same wall
 * visible). The hands are dealt first; run.sh counts only the library's
 * mj_* functions, so the dealing does not count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mjfast.h"

#include "hands.h" /* next, deal, ready */

int main(int argc, char **argv) {
    if (argc < 3 || mj_init() != 0) return 2;
    const char *op = argv[1];
    const long n = atol(argv[2]);
    uint8_t *hands = malloc((size_t)n * 27), *visible = malloc((size_t)n * 27);
    int8_t *out = calloc((size_t)n, 27);
    uint32_t *masks = calloc((size_t)n, 4);
    if (n < 1 || !hands || !visible || !out || !masks) return 2;
    int tiles = !strcmp(op, "effective") || !strcmp(op, "waits_dealt") ? 13 : 14;
    for (long i = 0; i < n; i++) {
        if (!strcmp(op, "waits")) ready(hands + 27 * i);
        else deal(hands + 27 * i, NULL, tiles);
        if (!strcmp(op, "effective")) deal(visible + 27 * i, hands + 27 * i, 20);
    }
    int64_t bad;
    if (!strcmp(op, "shanten")) bad = mj_shanten_n(hands, n, NULL, -1, 0, out);
    else if (!strcmp(op, "regular"))
        bad = mj_shanten_n(hands, n, NULL, -1, MJ_FORM_REGULAR | MJ_NO_VOID_RULE, out);
    else if (!strcmp(op, "is_win")) bad = mj_is_win_n(hands, n, NULL, -1, 0, (uint8_t *)out);
    else if (!strcmp(op, "waits") || !strcmp(op, "waits_dealt")) bad = mj_waits_n(hands, n, NULL, -1, 0, masks);
    else if (!strcmp(op, "discards")) bad = mj_discards_n(hands, n, NULL, -1, 0, out);
    else if (!strcmp(op, "effective")) bad = mj_effective_n(hands, n, NULL, -1, 0, visible, out);
    else return 2;
    long sum = 0;
    for (long i = 0; i < n; i++) sum += out[i] + (long)masks[i];
    printf("%s: first bad row %lld, checksum %ld\n", op, (long long)bad, sum);
    return bad == -1 ? 0 : 1;
}
