#!/bin/sh
# Simulated cache misses per hand of mjfast's batch kernels on streamed hands (cachegrind; this
# VM has no hardware counters): run.sh [N] (default 200000 hands per kernel).
#
# D1 = 32 KiB 8-way, LL = 512 KiB 8-way (the L2 of one core here: the level the tables should fit),
# 64-byte lines. Counts are those of the kernel's functions only (not the dealing): instructions,
# data reads, D1 and LL read misses, LL write misses, per hand. The rows alone cost 27/64 = 0.42
# LL read misses per hand (and the 27-byte outputs of discards / effective 0.42 write misses).
set -eu
n=${1:-200000}
here=$(cd "$(dirname "$0")" && pwd)
src="$here/../../src"
work=$(mktemp -d)
make -s -C "$src" mjfast.c mjfast.h
cc -O3 -g -I "$src" "$here/kernels_cg.c" "$src/mjfast.c" -o "$work/kernels_cg"
for op in ${OPS:-shanten regular is_win waits waits_dealt discards effective}; do
    valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=524288,8,64 \
        --cachegrind-out-file="$work/cg.$op" "$work/kernels_cg" "$op" "$n" >/dev/null 2>&1
    cg_annotate "$work/cg.$op" | sed 's/([^)]*)//g' | awk -v n="$n" -v op="$op" '
        $NF ~ /(mjfast\.c|intrin\.h):mj_/ && $NF !~ /mj_init|mj_build|mj_unpack/ {
            for (i = 1; i <= 9; i++) { gsub(",", "", $i); s[i] += $i } }
        END { printf "%-9s Ir %6.1f  Dr %5.1f  D1mr %6.3f  LLmr %5.3f  LLmw %5.3f  per hand\n",
                     op, s[1] / n, s[4] / n, s[5] / n, s[6] / n, s[9] / n }'
done
rm -rf "$work"
