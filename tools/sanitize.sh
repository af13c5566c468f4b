#!/usr/bin/env bash
# Sanitizer run: build the compiled core with AddressSanitizer + UndefinedBehaviorSanitizer and
# run the tests against that build; exit non-zero on any sanitizer report or test failure.
#
#   tools/sanitize.sh                                 # tests/ and the package doctests
#   tools/sanitize.sh tests/core tests/scoring -q -x  # other pytest arguments instead
#
# It builds in a copy of the working tree ($SAN_DIR, default /tmp/mjfast-san; tracked and
# untracked files, not what .gitignore lists), so the in-place build in the tree is left alone:
#
#   CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -g -O1 -fno-wrapv"
#   LDFLAGS="-fsanitize=address,undefined"  python setup.py build_ext --inplace
#
# (-fno-wrapv undoes Python's -fwrapv, so that signed overflow is reported too), then runs
# pytest there with the ASan runtime preloaded into the uninstrumented Python:
#
#   LD_PRELOAD=$(gcc -print-file-name=libasan.so)
#   ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:log_path=REPORTS/asan
#   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=REPORTS/ubsan
#   PYTHONPATH=$SAN_DIR python -m pytest -p no:randomly ARGS
#
# detect_leaks=0: Python leaks by design at exit. allocator_may_return_null=1: a failed malloc
# returns NULL as it does without ASan (tests of MemoryError). Reports go to files under
# $SAN_DIR/reports (one per process), so a report from a subprocess that a test starts (the CLI,
# the race tests) counts as well; they are printed at the end. PYTHONPATH makes those
# subprocesses import the sanitized copy too. With the ASan runtime preloaded, GCC's UBSan runtime
# ignores log_path, so a sitecustomize module (in $SAN_DIR/reports/site, also on PYTHONPATH)
# sets its report path in every Python process. Tests that cannot run under ASan skip themselves
# when LD_PRELOAD names libasan (address-space limits: ASan reserves terabytes).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SAN_DIR="${SAN_DIR:-/tmp/mjfast-san}"
PYTHON="${PYTHON:-python}"
SANITIZERS="-fsanitize=address,undefined"
if [ "$#" -eq 0 ]; then
    set -- tests mjfast -q -x
fi

case "$SAN_DIR" in
    "$ROOT" | "$ROOT"/* | / | "") echo "sanitize.sh: SAN_DIR must lie outside the tree" >&2; exit 2 ;;
esac
rm -rf "$SAN_DIR"
mkdir -p "$SAN_DIR/reports"
git -C "$ROOT" ls-files -z --cached --others --exclude-standard |
    tar -C "$ROOT" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$SAN_DIR" -xf -

echo "sanitize.sh: building in $SAN_DIR" >&2
(cd "$SAN_DIR" &&
    CFLAGS="$SANITIZERS -fno-omit-frame-pointer -g -O1 -fno-wrapv" LDFLAGS="$SANITIZERS" \
        "$PYTHON" setup.py -q build_ext --inplace >"$SAN_DIR/reports/build.log" 2>&1) ||
    { cat "$SAN_DIR/reports/build.log" >&2; exit 2; }
rm "$SAN_DIR/reports/build.log"

LIBASAN="$(gcc -print-file-name=libasan.so)"
LIBUBSAN="$(gcc -print-file-name=libubsan.so)"
for lib in "$LIBASAN" "$LIBUBSAN"; do
    [ -f "$lib" ] || { echo "sanitize.sh: no $lib (gcc -print-file-name)" >&2; exit 2; }
done
SITE="$SAN_DIR/reports/site"
mkdir -p "$SITE"
cat >"$SITE/sitecustomize.py" <<EOF
"""Written by tools/sanitize.sh: UBSan reports to files (its runtime ignores log_path here)."""
import ctypes

ctypes.CDLL("$LIBUBSAN").__sanitizer_set_report_path(b"$SAN_DIR/reports/ubsan")
EOF
# libstdc++ is preloaded after the ASan runtime so that ASan finds the real __cxa_throw: a C++
# extension loaded later (matplotlib's ft2font) throws while importing, and ASan aborts otherwise.
export LD_PRELOAD="$LIBASAN $(gcc -print-file-name=libstdc++.so)"
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1:log_path=$SAN_DIR/reports/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$SAN_DIR/reports/ubsan"
export PYTHONPATH="$SAN_DIR:$SITE"
export OPENBLAS_NUM_THREADS=1
cd "$SAN_DIR"

# Print the reports and exit 1 if there are any.
check_reports() {
    compgen -G "$SAN_DIR/reports/*san.*" >/dev/null || return 0
    echo >&2
    for report in "$SAN_DIR"/reports/*san.*; do
        echo "==== $report" >&2
        cat "$report" >&2
    done
    echo "sanitize.sh: sanitizer reports above" >&2
    exit 1
}

# the tests must see this copy, not the editable install
where="$("$PYTHON" -c "import mjfast; print(mjfast.__file__)")" || where=""
check_reports
case "$where" in
    "$SAN_DIR"/*) ;;
    *) echo "sanitize.sh: python does not import mjfast from $SAN_DIR (${where:-import failed})" >&2
       exit 2 ;;
esac

status=0
"$PYTHON" -m pytest -p no:randomly "$@" || status=$?
check_reports
[ "$status" -eq 0 ] && echo "sanitize.sh: clean" >&2
exit "$status"
