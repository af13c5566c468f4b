"""A sample against the exact answer: does each sampled count fall inside its 99% interval?

:func:`compare` takes a :func:`mjfast.stats.run_stats` result and the exact statistics of the
same deal (:func:`mjfast.stats.exact`, with and without the void rule) and gives, per row, the
exact probability, the central 99% interval of the sampled count under it (a binomial count:
:func:`binomial_interval`) and whether the sample falls inside. At 99% one row in a hundred
falls outside by chance alone.

>>> binomial_interval(1000, 0.5)
(459, 541)
>>> binomial_interval(10**6, 0.0)
(0, 0)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from mjfast._args import as_int, as_real
from mjfast.errors import InvalidArgumentError

from .exact import ExactStats

__all__ = ["LEVEL", "binomial_interval", "compare"]

LEVEL = 0.99
"""The level of the intervals that :func:`compare` reports."""

_EXACT_VARIANCE = 1e4  # above this variance the normal approximation is exact to a count or so
_NEGLIGIBLE = 1e-18    # relative size of a probability term that no longer moves a tail
_MAX_N = 2**62         # counts of a sample (int64 tallies)


def _normal_quantile(q: float) -> float:
    """The standard normal quantile (bisection on erf: plenty fast for a few calls)."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 0.5 * math.erfc(-mid / math.sqrt(2)) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _tail_start(pmf: list[float], alpha: float) -> int:
    """How many terms from the far end of ``pmf`` (ordered from the far end towards the mode)
    sum to at most ``alpha``."""
    acc, k = 0.0, 0
    while k < len(pmf) and acc + pmf[k] <= alpha:
        acc += pmf[k]
        k += 1
    return k


def binomial_interval(n: int, p: float | Fraction, level: float = LEVEL) -> tuple[int, int]:
    """The central interval ``[lo, hi]`` of a Binomial(n, p) count at ``level``: at most
    (1 - level) / 2 of the probability lies below ``lo`` and at most as much above ``hi``.

    Exact (summed in log space around the mode) while the variance is below 10**4, the normal
    approximation with continuity correction beyond (where the two differ by about a count).
    """
    n = as_int(n, "n", minimum=0, maximum=_MAX_N)
    p = as_real(p, "p", minimum=0.0, maximum=1.0)
    level = as_real(level, "level", minimum=0.0, maximum=1.0, open_ends=True)
    if p <= 0.0:
        return 0, 0
    if p >= 1.0:
        return n, n
    alpha = (1.0 - level) / 2
    var = n * p * (1 - p)
    if var > _EXACT_VARIANCE:
        z, mean, sd = _normal_quantile(1 - alpha), n * p, math.sqrt(var)
        return max(0, math.ceil(mean - z * sd - 0.5)), min(n, math.floor(mean + z * sd + 0.5))
    mode = min(n, int((n + 1) * p))
    log_mode = (math.lgamma(n + 1) - math.lgamma(mode + 1) - math.lgamma(n - mode + 1)
                + mode * math.log(p) + (n - mode) * math.log1p(-p))
    below: list[float] = []  # pmf(mode - 1), pmf(mode - 2), ... relative to pmf(mode)
    term, k = 1.0, mode
    while k > 0 and term > _NEGLIGIBLE:
        term *= k * (1 - p) / ((n - k + 1) * p)
        below.append(term)
        k -= 1
    above: list[float] = []
    term, k = 1.0, mode
    while k < n and term > _NEGLIGIBLE:
        term *= (n - k) * p / ((k + 1) * (1 - p))
        above.append(term)
        k += 1
    scale = math.exp(log_mode)
    low = [x * scale for x in reversed(below)]  # from the far end (smallest k) up
    high = [x * scale for x in reversed(above)]  # from the far end (largest k) down
    lo = mode - len(below) + _tail_start(low, alpha)
    hi = mode + len(above) - _tail_start(high, alpha)
    return lo, hi


def _row(count: int, hands: int, probability: Fraction, level: float) -> dict[str, Any]:
    lo, hi = binomial_interval(hands, probability, level)
    return {"count": count, "probability": float(probability), "interval": [lo, hi],
            "inside": lo <= count <= hi}


def _sample_size(doc: object) -> tuple[int, int]:
    """The hands and tiles of a run_stats result, checking the fields compare() reads."""
    if not isinstance(doc, dict):
        raise InvalidArgumentError(
            f"doc: expected a run_stats result (a dict), got {type(doc).__name__}")
    missing = [k for k in ("hands", "tiles", "shanten") if k not in doc]
    if missing:
        raise InvalidArgumentError(f"doc: not a run_stats result (no {', '.join(missing)})")
    shanten = doc["shanten"]
    if not isinstance(shanten, dict) or not {"void_rule", "no_void_rule"} <= shanten.keys():
        raise InvalidArgumentError("doc: 'shanten' must hold the 'void_rule' and 'no_void_rule' "
                                   "histograms of a run_stats result")
    return (as_int(doc["hands"], "doc['hands']", minimum=1, maximum=_MAX_N),
            as_int(doc["tiles"], "doc['tiles']", minimum=13, maximum=14))


def compare(doc: Mapping[str, Any], void: ExactStats, free: ExactStats,
            level: float = LEVEL) -> dict[str, Any]:
    """Each sampled row of ``doc`` (a run_stats result) against the exact statistics ``void``
    (void rule) and ``free`` (no void rule) of the same number of tiles.

    Returns a JSON-ready dict: ``level``; ``shanten`` per rule (``void_rule``,
    ``no_void_rule``), keyed by shanten as text like the sample's histograms, for every shanten
    in the sample or the exact table; ``ready_rate`` and (14 tiles) ``complete_rate`` per rule;
    each row {count, probability, interval, inside}; and ``inside``: every row inside.
    """
    hands, tiles = _sample_size(doc)
    for name, st in (("void", void), ("free", free)):
        if not isinstance(st, ExactStats):
            raise InvalidArgumentError(
                f"{name}: expected an ExactStats (mjfast.stats.exact), got {type(st).__name__}")
    level = as_real(level, "level", minimum=0.0, maximum=1.0, open_ends=True)
    if void.tiles != tiles or free.tiles != tiles:
        raise InvalidArgumentError(f"compare: the exact statistics are of {void.tiles} tiles, the sample "
                         f"of {tiles}")
    out: dict[str, Any] = {"level": level, "shanten": {}, "ready_rate": {}, "complete_rate": None}
    rules = {"void_rule": void, "no_void_rule": free}
    for name, st in rules.items():
        sample = {int(s): c for s, c in doc["shanten"][name].items()}
        out["shanten"][name] = {
            str(s): _row(sample.get(s, 0), hands, st.probability(s), level)
            for s in sorted(set(sample) | set(st.shanten))}
        ready = [0] if tiles == 13 else [-1, 0]
        out["ready_rate"][name] = _row(sum(sample.get(s, 0) for s in ready), hands,
                                       sum((st.probability(s) for s in ready), Fraction(0)), level)
    if tiles == 14:
        out["complete_rate"] = {name: out["shanten"][name].get("-1") or
                                _row(0, hands, st.probability(-1), level)
                                for name, st in rules.items()}
    rows = [r for rule in out["shanten"].values() for r in rule.values()]
    rows += list(out["ready_rate"].values())
    out["inside"] = all(r["inside"] for r in rows)
    return out
