"""Hardening of the compiled kernels (issue 15): one snapshot per row, allocation failures at
import, aligned table reads, ``out=`` overlapping an input.

The races and the allocation failures run in a subprocess, so a crash fails the test, not the run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import mjfast
from mjfast import datagen
from mjfast.errors import InvalidArgumentError
from mjfast.scoring import batch

ROOT = Path(__file__).resolve().parents[2]
UNDER_ASAN = "asan" in os.environ.get("LD_PRELOAD", "")

# Each case runs one kernel over a batch with workers=2 while a thread rewrites the batch's
# arrays (hands, melds, visible, voids, win tiles): one entry at a time, from its value to an
# invalid one (a count of 255, a void or win tile of 127) and back. So every version of a row
# is the original or an invalid row: each output row must be the original's answer or the
# sentinel of a bad row (errors="coerce"), or the call raises the error of a rewritten entry
# (the per-row void suits are checked before the kernel runs), whatever the timing.
RACE = textwrap.dedent(r"""
    import sys, threading, time
    import numpy as np
    import mjfast
    from mjfast import datagen
    from mjfast.rules import Rules
    from mjfast.scoring import batch

    N, SECONDS = int(sys.argv[1]), float(sys.argv[2])
    rng = np.random.default_rng(15)

    def pung_out(hands, keep=None):
        # in one row of 8 that has a triplet (other than kind keep), make it a pung meld (rows
        # with melds take the slower exact path)
        three = hands == 3
        if keep is not None:
            three[np.arange(len(hands)), keep] = False
        rows = np.nonzero(three.any(axis=1) & (rng.random(len(hands)) < 0.125))[0]
        kinds = three[rows].argmax(axis=1)
        melds = np.zeros_like(hands)
        hands[rows, kinds] = 0
        melds[rows, kinds] = 3
        return melds

    complete, win = datagen.complete_hands(N, seed=1, return_tile=True, seven_pairs=0.15)
    c_melds = pung_out(complete, win)
    wins = win.astype(np.int8)
    ready = datagen.ready_hands(N, seed=2)
    r_melds = pung_out(ready)
    seen = np.minimum(datagen.deal(N, 24, seed=3), 4 - ready - r_melds).astype(np.uint8)
    random14 = datagen.deal(N, 14, seed=4)
    voids = rng.integers(-1, 3, N).astype(np.int8)
    SI_JIAO = Rules(si_jiao=True)
    F = dict(workers=2, errors="coerce")
    CASES = {
        "shanten": (lambda h, v: mjfast.shanten(h, void_suit=v, **F), [random14, voids], -100),
        "shanten_melds": (lambda h, m: mjfast.shanten(h, melds=m, **F), [ready, r_melds], -100),
        "waits": (lambda h, m: mjfast.waits(h, melds=m, **F), [ready, r_melds], 0xFFFFFFFF),
        "discards": (lambda h, m: mjfast.discards(h, melds=m, **F), [complete, c_melds], -100),
        "effective_tiles": (lambda h, m, s: mjfast.effective_tiles(h, melds=m, visible=s, **F),
                            [ready, r_melds, seen], -100),
        "fan": (lambda h, m, w, v: batch.fan(h, w, melds=m, void_suit=v, **F),
                [complete, c_melds, wins, voids], -100),
        "max_fan": (lambda h, m, s: np.column_stack(batch.max_fan(
                        h, melds=m, visible=s, rules=SI_JIAO, best_wait=True, **F)),
                    [ready, r_melds, seen], -100),
    }

    def rewrite(arrays, stop):
        orig = [a.copy() for a in arrays]
        while not stop.is_set():
            for a, o in zip(arrays, orig):
                for t in range(27):  # a 1-D array: every 27th entry at a time
                    part, was = (a[t::27], o[t::27]) if a.ndim == 1 else (a[:, t], o[:, t])
                    part[:] = 127 if a.dtype == np.int8 else 255
                    part[:] = was

    failed = False
    for name, (run, arrays, sentinel) in CASES.items():
        if len(sys.argv) > 3 and name not in sys.argv[3:]:
            continue
        want = run(*arrays).reshape(N, -1)
        stop = threading.Event()
        writer = threading.Thread(target=rewrite, args=(arrays, stop))
        writer.start()
        bad_rows = calls = 0
        end = time.monotonic() + SECONDS
        try:
            while time.monotonic() < end:
                calls += 1
                try:
                    got = run(*arrays).reshape(N, -1)
                except ValueError as exc:  # a check before the kernel saw a rewritten entry
                    if not any(word in str(exc) for word in ("127", "255", "void_suit[")):
                        raise
                    bad_rows += 1
                    continue
                ok = (got == want).all(axis=1) | (got == np.array(sentinel).astype(got.dtype)).all(axis=1)
                bad_rows += int((~(got == want).all(axis=1)).sum())
                if not ok.all():
                    i = int(np.nonzero(~ok)[0][0])
                    print(f"{name}: row {i} gave {got[i].tolist()}, expected {want[i].tolist()} "
                          f"or the sentinel ({int((~ok).sum())} impossible rows)")
                    failed = True
                    break
        finally:
            stop.set()
            writer.join()
        print(f"{name}: {calls} calls, {bad_rows} rows seen mid-rewrite")
        if not bad_rows:  # the race never happened: the test proved nothing
            print(f"{name}: no row was ever seen mid-rewrite")
            failed = True
    sys.exit(1 if failed else 0)
""")


def _python(code: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_rows_rewritten_during_a_run_give_one_version_or_the_error() -> None:
    proc = _python(RACE, "100000", "2" if UNDER_ASAN else "0.6")
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr[-3000:]}"


# Imports what mjfast needs besides its compiled core, then caps the address space at the
# current size plus argv[1] KB and imports mjfast: it must work or raise an error, never crash.
# The package's bytecode is compiled first (into a private pycache prefix): CPython's compiler,
# run under the cap, may fail with errors of its own (a ValueError from the AST) that say
# nothing of mjfast.
OUT_OF_MEMORY = textwrap.dedent(r"""
    import atexit, compileall, resource, shutil, sys, tempfile, zlib
    import numpy

    sys.pycache_prefix = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, sys.pycache_prefix, True)
    compileall.compile_dir("mjfast", quiet=2)

    def vm_size():
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmSize:")) * 1024

    resource.setrlimit(resource.RLIMIT_AS, (vm_size() + int(sys.argv[1]) * 1024, resource.RLIM_INFINITY))
    try:
        import mjfast
    except (MemoryError, ImportError) as exc:
        print(type(exc).__name__, exc)
    else:
        print("imported")
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is enforced on Linux")
@pytest.mark.skipif(UNDER_ASAN, reason="ASan reserves far more address space than any cap here")
def test_import_out_of_memory_raises_memory_error() -> None:
    outcomes = {}
    # 1 MB steps (the window of the crash was 1.5 MB, so a step lands in it), then room enough
    # for every extension
    for extra_kb in [*range(0, 16384, 1024), 65536]:
        proc = _python(OUT_OF_MEMORY, str(extra_kb), timeout=60)
        assert proc.returncode == 0, (f"import under {extra_kb} KB more: exit {proc.returncode}\n"
                                      f"{proc.stdout}{proc.stderr[-2000:]}")
        outcomes[extra_kb] = proc.stdout.strip()
    # the sweep goes from too little memory for the tables to enough
    assert any(o.startswith("MemoryError mjfast: cannot allocate") for o in outcomes.values()), outcomes
    assert outcomes[max(outcomes)] == "imported", outcomes


# The shipped layout puts the uint16 table MJ.right at byte 125: expanding the tables must not
# load it through a misaligned pointer (undefined behaviour, a fault on strict-alignment CPUs).
ALIGNMENT = textwrap.dedent(r"""
    #include "mjfast_kernel_build.h"

    int main(void) {
        static _Alignas(16) uint8_t blob[125 + 2 * 15625 + 1];
        static uint8_t full[1953125];
        MJ.left = blob;
        MJ.right = (const void *)(blob + 125);
        MJ.lr = blob + 125 + 2 * 15625;
        MJ.n_right = 1;
        mj_build_full(full);
        return full[1953124];
    }
""")


def test_table_expansion_reads_no_misaligned_uint16(tmp_path: Path) -> None:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler")
    flags = ["-std=c11", "-O0", "-fsanitize=alignment", "-fno-sanitize-recover=all"]
    # the harness runs without the sanitizer settings of tools/sanitize.sh: it reports on stderr
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "UBSAN_OPTIONS")}
    probe = tmp_path / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    if subprocess.run([cc, *flags, str(probe), "-o", str(tmp_path / "probe")], env=env,
                      capture_output=True).returncode:
        pytest.skip("the compiler has no UBSan runtime")
    source = tmp_path / "harness.c"
    source.write_text(ALIGNMENT)
    build = subprocess.run([cc, *flags, "-I", str(ROOT / "src"), str(source), "-o",
                            str(tmp_path / "harness")], env=env, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(tmp_path / "harness")], env=env, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0 and "runtime error" not in run.stderr, run.stderr


def test_out_overlapping_the_hands_is_refused() -> None:
    """The issue's case: each row's output would overwrite the next row before it is read."""
    big = datagen.ready_hands(1000, seed=1)
    with pytest.raises(InvalidArgumentError, match="^out: .*hands"):
        mjfast.effective_tiles(big[:-1], out=big[1:].view(np.int8))


N = 100


def _pung_free(tiles: int) -> tuple[np.ndarray, np.ndarray]:
    """N hands of *tiles* tiles and a pung meld of a kind each hand does not hold."""
    hands = datagen.deal(N, tiles, seed=7)
    melds = np.zeros_like(hands)
    melds[np.arange(N), hands.argmin(axis=1)] = 3
    return hands, melds


def _complete() -> np.ndarray:
    return datagen.complete_hands(N, seed=8)


# kernel / the input that shares out's memory: (its values, out's shape and dtype, the call)
OVERLAPS = {
    "shanten/hands": (_complete, ((N,), "int8"), lambda x, o: mjfast.shanten(x, out=o)),
    "discards/hands": (_complete, ((N, 27), "int8"), lambda x, o: mjfast.discards(x, out=o)),
    "waits/melds": (lambda: _pung_free(10)[1], ((N,), "uint32"),
                    lambda x, o: mjfast.waits(_pung_free(10)[0], melds=x, out=o)),
    "effective_tiles/visible": (
        lambda: np.zeros((N, 27), np.uint8), ((N, 27), "int8"),
        lambda x, o: mjfast.effective_tiles(datagen.ready_hands(N, seed=9), visible=x, out=o)),
    "is_win/void_suit": (lambda: np.full(N, -1, np.int8), ((N,), "bool"),
                         lambda x, o: mjfast.is_win(_complete(), void_suit=x, out=o)),
    "fan/win_tiles": (lambda: datagen.complete_hands(N, seed=8, return_tile=True)[1].astype(np.int8),
                      ((N,), "int16"), lambda x, o: batch.fan(_complete(), x, out=o)),
    "fan/melds": (lambda: _pung_free(11)[1], ((N,), "int16"),
                  lambda x, o: batch.fan(_pung_free(11)[0], _pung_free(11)[0].argmax(axis=1),
                                         melds=x, out=o)),
    "max_fan/visible": (lambda: np.zeros((N, 27), np.uint8), ((N,), "int16"),
                        lambda x, o: batch.max_fan(datagen.ready_hands(N, seed=9), visible=x,
                                                   out=o)),
}


def _carve(raw: np.ndarray, offset: int, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    return raw[offset:offset + size].view(dtype).reshape(shape)


@pytest.mark.parametrize("case", OVERLAPS)
def test_out_overlapping_an_input_is_refused(case: str) -> None:
    values, (out_shape, out_type), call = OVERLAPS[case]
    name = case.split("/")[1]
    x0 = values()
    for offset, overlaps in ((x0.nbytes - 8, True), (x0.nbytes, False)):
        raw = np.zeros(x0.nbytes + 32 * N, np.uint8)
        x = _carve(raw, 0, x0.shape, x0.dtype.str)
        x[...] = x0
        out = _carve(raw, offset, out_shape, out_type)
        if overlaps:  # out's first bytes are the input's last ones
            with pytest.raises(InvalidArgumentError, match=f"^out: .*{name}"):
                call(x, out)
        else:  # right after the input it is fine
            call(x, out)


@pytest.mark.parametrize("kernel", ["waits", "fan"])
def test_misaligned_out_is_refused(kernel: str) -> None:
    dtype = np.dtype(np.uint32 if kernel == "waits" else np.int16)
    raw = np.zeros(N * dtype.itemsize + 1, np.uint8)
    out = raw[1:].view(dtype)
    assert not out.flags.aligned
    with pytest.raises(ValueError, match="^out: .*aligned"):
        if kernel == "waits":
            mjfast.waits(datagen.ready_hands(N, seed=1), out=out)
        else:
            hands, win = datagen.complete_hands(N, seed=1, return_tile=True)
            batch.fan(hands, win, out=out)
