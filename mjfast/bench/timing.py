"""Timing the benchmark cases: best of several repeats, as hands/s (or calls/s) and ratios."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .cases import CASES, SEED, Case, clear_cache, find_case
from .peers import PeerMismatchError, peer_api, peer_version

__all__ = ["Result", "run_case", "run_suite", "time_call"]


@dataclass
class Result:
    """The measurement of one case (``rate`` in ``unit``; ``ratio`` as :class:`Case` says)."""

    name: str
    title: str
    n: int
    seconds: float
    rate: float
    unit: str
    peer: str | None = None
    compare: str | None = None
    ratio: float | None = None
    skipped: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"name": self.name, "title": self.title, "n": self.n, "seconds": self.seconds,
                "rate": self.rate, "unit": self.unit, "peer": self.peer,
                "compare": self.compare, "ratio": self.ratio, "skipped": self.skipped,
                **({"extra": self.extra} if self.extra else {})}


def time_call(fn: Callable[..., Any], args: tuple[Any, ...] = (), *, repeats: int = 5) -> float:
    """Best wall time in seconds of ``fn(*args)`` over ``repeats`` runs (after one warm-up).

    The garbage collector is off while timing, as in :mod:`timeit`.

    >>> time_call(sum, ([1, 2, 3],), repeats=2) >= 0
    True
    """
    fn(*args)
    best = float("inf")
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        for _ in range(max(1, repeats)):
            t0 = time.perf_counter()
            fn(*args)
            best = min(best, time.perf_counter() - t0)
    finally:
        if gc_was_on:
            gc.enable()
    return best


def _skipped(case: Case, n: int, reason: str) -> Result:
    return Result(case.name, case.title, n, 0.0, 0.0, case.unit, case.peer, case.compare,
                  skipped=reason)


def run_case(case: Case, *, quick: bool = False, n: int | None = None, seed: int = SEED,
             repeats: int | None = None) -> Result:
    """Set up and time one case.

    A case that is unavailable, a peer that disagrees with mjfast, or a case that raises gives
    a Result with ``skipped`` saying why (the report lists it) instead of an exception.
    """
    n = case.sizes(quick) if n is None else int(n)
    reason = case.available()
    if reason:
        return _skipped(case, n, reason)
    reps = case.repeats if repeats is None else repeats
    if quick and repeats is None:
        reps = min(reps, 3)
    try:
        args = case.setup(n, seed)
        seconds = time_call(case.run, args, repeats=reps)
    except PeerMismatchError as exc:
        return _skipped(case, n, str(exc))
    except Exception as exc:
        return _skipped(case, n, f"failed: {type(exc).__name__}: {exc}")
    extra: dict[str, Any] = {}
    if case.peer:
        extra["api"] = peer_api(case.peer)
        extra["version"] = peer_version(case.peer)
    return Result(case.name, case.title, n, seconds, n / seconds if seconds > 0 else float("inf"),
                  case.unit, case.peer, case.compare, extra=extra)


def _fill_ratios(results: list[Result]) -> None:
    by_name = {r.name: r for r in results if not r.skipped}
    for r in results:
        base = by_name.get(r.compare) if r.compare else None
        if r.skipped or base is None or not r.rate or not base.rate:
            continue
        r.ratio = base.rate / r.rate if r.peer else r.rate / base.rate


def run_suite(*, quick: bool = False, names: Iterable[str] | None = None, seed: int = SEED,
              progress: Callable[[Case], None] | None = None) -> list[Result]:
    """Run the cases (all, or those in ``names``, plus the cases they compare with).

    ``progress(case)`` is called before each case. Ratios are filled in from the same run.
    """
    wanted = list(CASES) if names is None else [find_case(name) for name in names]
    chosen = {c.name for c in wanted} | {c.compare for c in wanted if c.compare}
    results = []
    try:
        for case in (c for c in CASES if c.name in chosen):
            if progress is not None:
                progress(case)
            results.append(run_case(case, quick=quick, seed=seed))
    finally:
        clear_cache()
    _fill_ratios(results)
    return results
