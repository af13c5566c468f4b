/* Read hands in mpsz notation from stdin, one per line ("123m456p789s1122m", spaces allowed),
 * and print for each: shanten, the waits (13-tile hands: the tiles, "-" when not ready) and the
 * 大叫 fan under the chengdu preset ("-" when not ready). A line that is not a meld-free hand
 * prints "error".
 *
 *     cc -O2 -I "$(python -m mjfast --include)" examples/c/mjfast_example.c \
 *         "$(python -m mjfast --include)/mjfast.c" -o mjfast_example
 *     echo 123m456m789m11p23p | ./mjfast_example      # -> 0 1p4p 0
 */
#include <stdio.h>
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

int main(void) {
    char line[256];
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
        int s = mj_shanten(c, NULL, -1, 0);
        if (s <= MJ_E_INVALID) {
            puts("error");
            continue;
        }
        printf("%d ", s);
        uint32_t w = tiles % 3 == 1 ? mj_waits(c, NULL, -1, 0) : 0;
        if (w == 0 || w == MJ_INVALID_MASK) {
            printf("-");
        } else {
            for (int k = 0; k < 27; k++)
                if (w >> k & 1) printf("%d%c", k % 9 + 1, "mps"[k / 9]);
        }
        int fan = tiles % 3 == 1 ? mj_max_fan(rules, c, NULL, NULL, -1, NULL, NULL) : -1;
        if (fan >= 0) printf(" %d\n", fan);
        else printf(" -\n");
    }
    return 0;
}
