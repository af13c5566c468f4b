/* Read hands in mpsz notation from stdin, one per line ("123m456p789s1122m", spaces allowed),
 * and print for each: shanten, the waits (13-tile hands: the tiles, "-" when not ready) and the
 * 大叫 fan under the chengdu preset ("-" when not ready). A line that is not a meld-free hand
 * prints "error". An optional argument sets the sets of a complete hand: 3 or 2 for the short
 * hands of the 5- and 6-player tables (10 / 11 or 7 / 8 tiles: MJ_SETS and mj_max_fan_ex).
 *
 *     cc -O2 -I "$(python -m mjfast --include)" examples/c/mjfast_example.c \
 *         "$(python -m mjfast --include)/mjfast.c" -o mjfast_example
 *     echo 123m456m789m11p23p | ./mjfast_example      # -> 0 1p4p 0
 *     echo 123m456m11p23p | ./mjfast_example 3        # -> 0 1p4p 0
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mjfast.h"

/* mpsz text to 27 counts: runs of digits 1-9, each run closed by its suit letter. 0 or -1. */
static int parse(const char *line, uint8_t counts[27]) {
    int pending[14], np = 0;
    memset(counts, 0, 27);
    for (const char *p = line; *p && *p != '\n'; p++) {
        if (*p >= '1' && *p <= '9') {
            if (np == 14) return -1;
            pending[np++] = *p - '1';
        } else if (*p == 'm' || *p == 'p' || *p == 's') {
            int suit = *p == 'm' ? 0 : *p == 'p' ? 1 : 2;
            if (np == 0) return -1;
            for (int i = 0; i < np; i++) counts[9 * suit + pending[i]]++;
            np = 0;
        } else if (*p != ' ' && *p != '\r' && *p != '\t') {
            return -1;
        }
    }
    return np == 0 ? 0 : -1;
}

int main(int argc, char **argv) {
    char line[256];
    int sets = argc > 1 ? atoi(argv[1]) : 4;
    if (sets < 2 || sets > 4) {
        fprintf(stderr, "usage: mjfast_example [SETS: 2, 3 or 4]\n");
        return 2;
    }
    int options = MJ_SETS(sets);
    if (mj_init() != 0) return 2;
    const mj_rules_t *rules = mj_rules_preset("chengdu");
    while (fgets(line, sizeof line, stdin)) {
        uint8_t c[27];
        int tiles = 0;
        if (parse(line, c) != 0) {
            puts("error");
            continue;
        }
        for (int k = 0; k < 27; k++) tiles += c[k];
        int s = mj_shanten(c, NULL, -1, options);
        if (s <= MJ_E_INVALID) {
            puts("error");
            continue;
        }
        printf("%d ", s);
        uint32_t w = tiles % 3 == 1 ? mj_waits(c, NULL, -1, options) : 0;
        if (w == 0 || w == MJ_INVALID_MASK) {
            printf("-");
        } else {
            for (int k = 0; k < 27; k++)
                if (w >> k & 1) printf("%d%c", k % 9 + 1, "mps"[k / 9]);
        }
        int fan = tiles % 3 == 1 ? mj_max_fan_ex(rules, c, NULL, NULL, -1, NULL, NULL, options)
                                 : -1;
        if (fan >= 0) printf(" %d\n", fan);
        else printf(" -\n");
    }
    return 0;
}
