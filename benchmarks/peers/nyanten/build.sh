#!/bin/sh
# Build the nyanten peer of mjfast.bench: build.sh NYANTEN_SRC [OUT_DIR]
#
# NYANTEN_SRC: a checkout of https://github.com/Cryolite/nyanten (header-only; for instance
# `git clone https://github.com/Cryolite/nyanten`). Writes OUT_DIR/libnyanten_batch.so (default
# build/peers) with the same optimisation level as mjfast's extensions (-O3, no -march), then
# `export MJFAST_NYANTEN_LIB=OUT_DIR/libnyanten_batch.so` makes the peer_nyanten cases run.
set -eu
src=$1
out=${2:-build/peers}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
${CXX:-g++} -std=c++17 -O3 -DNDEBUG -fPIC -shared -I "$src" "$here/nyanten_batch.cpp" \
    -o "$out/libnyanten_batch.so"
echo "export MJFAST_NYANTEN_LIB=$(cd "$out" && pwd)/libnyanten_batch.so"
