# Included by _ext.pyx (the one extension module); its C declarations are _stats.pxd.
"""Compiled statistics: the sampled main job of ``src/mjfast_stats.h`` and the exact deal counts
of ``src/mjfast_exact.h``.

The C declarations live in ``_stats.pxd``; this part of ``_ext`` is the glue, and :mod:`mjfast.stats`
the Python face. The kernels run on the C library's tables (MJ, built by mj_init in _capi.pxi).
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t

from mjfast._core._stats cimport *

BINS = MS_BINS
"""Distance bins (shanten + 1) of :func:`run_chunk`'s histograms."""
EXACT_BINS = MX_BINS
"""Bins of :func:`exact_counts`: distance 0 .. EXACT_BINS - 2, then the hands that cannot win."""


cdef int _check_tiles(int tiles) except -1:
    if tiles != 13 and tiles != 14:
        raise ValueError(f"tiles: expected 13 or 14, got {tiles}")
    return 0


def run_chunk(uint64_t key, uint64_t chunk, int64_t hands, int tiles):
    """Deal ``hands`` hands of ``tiles`` tiles (chunk ``chunk`` of the run ``key``) and tally them,
    with the GIL released. Returns (void-rule histogram, no-void-rule histogram, effective kinds,
    effective copies, ready hands, their waiting kinds): histograms of :data:`BINS` counts by
    distance, the rest sums over the chunk."""
    cdef ms_tally_t t
    _check_tiles(tiles)
    if hands < 0:
        raise ValueError(f"hands: expected a non-negative count, got {hands}")
    with nogil:
        ms_run_chunk(key, chunk, hands, tiles, &t)
    return ([t.hist_void[i] for i in range(MS_BINS)], [t.hist_free[i] for i in range(MS_BINS)],
            t.eff_kinds, t.eff_copies, t.waits_hands, t.waits_sum)


def deal_rows(uint64_t key, uint64_t chunk, int tiles, uint8_t[:, ::1] out):
    """Write the hands chunk ``chunk`` of run ``key`` deals into ``out`` ((n, 27) uint8): the
    first n hands that :func:`run_chunk` tallies."""
    _check_tiles(tiles)
    if out.shape[1] != 27:
        raise ValueError(f"out: expected shape (n, 27), got (n, {out.shape[1]})")
    if out.shape[0]:
        with nogil:
            ms_deal_rows(key, chunk, out.shape[0], tiles, &out[0, 0])


def analyse_rows(const uint8_t[:, ::1] hands, int tiles, int32_t[:, ::1] out):
    """Per-hand results of meld-free hands of ``tiles`` tiles into ``out`` ((n, 6) int32): void-rule
    distance, no-void-rule distance, best discard (14 tiles; else -1), effective kinds, effective
    copies, waiting kinds when ready (else -1). Returns the first row that is not such a hand
    (rows from it on are not written), or -1."""
    cdef int64_t bad = -1
    _check_tiles(tiles)
    if hands.shape[1] != 27 or out.shape[0] != hands.shape[0] or out.shape[1] != 6:
        raise ValueError("analyse_rows takes hands (n, 27) and out (n, 6)")
    if hands.shape[0]:
        with nogil:
            bad = ms_analyse_rows(&hands[0, 0], hands.shape[0], tiles, &out[0, 0])
    return bad


def exact_counts(int tiles, const uint8_t[::1] copies, bint void_rule, int form):
    """Deals of ``tiles`` tiles (1-14, not a multiple of 3) from a wall with ``copies`` (27 counts
    0-4) of each kind, per distance: a list of :data:`EXACT_BINS` ints (the last: hands that
    cannot win). ``form``: 0 all, 1 regular, 2 seven pairs."""
    cdef uint64_t hist[16]  # MX_BINS
    cdef int rc
    if not 1 <= tiles <= MX_MAX_TILES or tiles % 3 == 0:
        raise ValueError(f"tiles: expected 1-14 and not a multiple of 3, got {tiles}")
    if copies.shape[0] != 27 or any(copies[i] > 4 for i in range(27)):
        raise ValueError("copies: expected 27 counts 0-4")
    if not 0 <= form <= 2:
        raise ValueError(f"form: expected 0, 1 or 2, got {form}")
    with nogil:
        rc = mx_exact(tiles, &copies[0], void_rule, form, hist)
    if rc != 0:
        raise MemoryError("mjfast: cannot allocate the exact statistics' suit keys")
    return [int(hist[i]) for i in range(MX_BINS)]
