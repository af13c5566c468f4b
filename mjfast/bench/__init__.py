"""The benchmark suite of mjfast, as data plus functions.

One package serves ``mjfast bench`` (and the README table it prints with ``--markdown``) and the
pytest-benchmark files in ``benchmarks/``, so both measure the same cases on the same hands
(dealt by :mod:`mjfast.datagen`).

- :mod:`~mjfast.bench.cases`: :data:`CASES`, one :class:`Case` per measured call, mjfast's
  public kernels first (hot: batches that stay in cache; then group ``"stream"``: 10^7 distinct
  hands, each read once from memory), then the optional peers (``nyanten``, built from its C++
  source by ``benchmarks/peers/nyanten/build.sh``: :mod:`~mjfast.bench.nyanten`; ``xiangting``,
  ``riichienv``, ``mahjong``; each skipped when not available).
- :mod:`~mjfast.bench.peers`: the peers' calls, the conversions to their inputs and
  :func:`verify_peer`. Every peer is checked against mjfast on its sample (random and two-suit
  hands) before it is timed; a peer that disagrees is reported, not timed. The mjfast row the
  peers are compared with is ``shanten_regular``: regular form, void rule off, one worker, one
  batch call.
- :mod:`~mjfast.bench.timing`: :func:`run_case` / :func:`run_suite` time the cases (best of
  several repeats) and give :class:`Result` rows with hands/s (calls/s for per-hand APIs) and
  the ratios mjfast/peer.
- :mod:`~mjfast.bench.report`: :func:`format_table` / :func:`format_markdown` print them.

Set ``OPENBLAS_NUM_THREADS=1`` before numpy is imported when timing threads (``mjfast bench``
and ``benchmarks/conftest.py`` do): an idle OpenBLAS pool slows the kernel threads.

>>> [r.name for r in run_suite(quick=True, names=["is_win"])]
['is_win']
"""

from .cases import CASES, SEED, Case, clear_cache, find_case
from .peers import (
    PEERS,
    PeerMismatchError,
    kokushi_shanten,
    peer_api,
    peer_available,
    peer_call,
    peer_shanten,
    peer_version,
    riichi_seven_pairs_shanten,
    riichi_shanten,
    to_34_counts,
    to_136_ids,
    verify_peer,
)
from .report import format_markdown, format_table, machine_info, rate_text
from .timing import Result, run_case, run_suite, time_call

__all__ = [
    "CASES",
    "PEERS",
    "SEED",
    "Case",
    "PeerMismatchError",
    "Result",
    "clear_cache",
    "find_case",
    "format_markdown",
    "format_table",
    "kokushi_shanten",
    "machine_info",
    "peer_api",
    "peer_available",
    "peer_call",
    "peer_shanten",
    "peer_version",
    "rate_text",
    "riichi_seven_pairs_shanten",
    "riichi_shanten",
    "run_case",
    "run_suite",
    "time_call",
    "to_34_counts",
    "to_136_ids",
    "verify_peer",
]
