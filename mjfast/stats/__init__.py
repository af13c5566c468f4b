"""Statistics of dealt hands: sampled at kernel speed, or exact over every deal.

- :func:`run_stats`: deal random hands and tally their shanten, ready rate, waits and effective
  tiles (the engine of ``mjfast stats``); :func:`chunk_hands` gives the hands it deals.
- :func:`exact`: the exact shanten distribution over all C(108, n) deals, as an
  :class:`ExactStats` of Python ints (``mjfast stats --exact``).
- :func:`compare`: a sample's rows against the exact values, with 99% intervals
  (:func:`binomial_interval`).
"""

from .check import LEVEL, binomial_interval, compare
from .exact import UNWINNABLE, Event, ExactStats, exact
from .sample import STATS_CHUNK, SampleStats, chunk_hands, run_stats

__all__ = [
    "LEVEL",
    "STATS_CHUNK",
    "UNWINNABLE",
    "Event",
    "ExactStats",
    "SampleStats",
    "binomial_interval",
    "chunk_hands",
    "compare",
    "exact",
    "run_stats",
]
