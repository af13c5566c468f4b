#!/bin/sh
# How much of a streamed batch kernel's time is memory and how much compute, on this machine:
# limit.sh [N] [CG_N] (default 10^7 hands timed, 200000 under cachegrind).
#
# 1. stream_limit.c times, one thread, on N distinct hands read once (thread CPU time, best of 3):
#    the kernel through the C library (mj_discards_n, mj_effective_n, mj_waits_n), a plain pass
#    reading the same input bytes and writing the same output bytes (the kernel's memory traffic
#    with no compute: the least time any kernel can take for it), and a pass that only reads the
#    input (the least the check pass of errors="raise" with out= can take).
# 2. run.sh counts per hand under cachegrind (same dealing): instructions, D1 / LL read misses.
#
# The share of the kernel's time that memory explains is at most read+wr / kernel ("share"); the
# rest is compute (the instructions at the core's rate). Bytes a row: discards reads 27 and writes
# 27, effective tiles reads 54 (hand and visible rows) and writes 27, waits reads 27 and writes 4;
# ordinary stores also read each output line first, which the plain pass does too. A public call
# with out= and errors="raise" (the benchmarks' *_stream cases) checks every row first: it costs
# about read + kernel; errors="coerce" (*_inplace_stream) about kernel.
set -eu
n=${1:-10000000}
cg_n=${2:-200000}
here=$(cd "$(dirname "$0")" && pwd)
src="$here/../../src"
work=$(mktemp -d)
make -s -C "$src" mjfast.c mjfast.h
cc -O3 -I "$src" "$here/stream_limit.c" "$src/mjfast.c" -o "$work/stream_limit"
echo "== time, ns a row ($n hands, one thread; load: $(cut -d' ' -f1-3 /proc/loadavg))"
"$work/stream_limit" "$n"
echo "== cachegrind, per hand ($cg_n hands; D1 32 KiB, LL 512 KiB)"
OPS="discards effective waits waits_dealt" sh "$here/run.sh" "$cg_n"
rm -rf "$work"
