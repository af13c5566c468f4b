"""``mjfast stats``: statistics of random dealt hands (the engine is :mod:`mjfast.stats`)."""

from __future__ import annotations

import argparse
from typing import Any

from mjfast.bench.report import rate_text
from mjfast.stats import run_stats

from .common import Progress, print_json, shanten_text

__all__ = ["cmd_stats"]


def cmd_stats(args: argparse.Namespace) -> int:
    """Statistics of random dealt hands."""
    progress = Progress(args.hands, "stats", "hands")
    try:
        doc = run_stats(args.hands, args.tiles, seed=args.seed, workers=args.workers,
                        progress=progress.update)
    finally:
        progress.close()
    if args.json:
        print_json(doc)
    else:
        print("\n".join(_stats_lines(doc)))
    return 0


def _histogram_lines(doc: dict[str, Any]) -> list[str]:
    n = doc["hands"]
    void = {int(k): v for k, v in doc["shanten"]["void_rule"].items()}
    free = {int(k): v for k, v in doc["shanten"]["no_void_rule"].items()}
    out = [f"{'shanten':>8}  {'void rule (缺一门)':>23}  {'no void rule':>22}"]
    for s in sorted(set(void) | set(free)):
        a, b = void.get(s, 0), free.get(s, 0)
        out.append(f"{shanten_text(s):>8}  {a:>12,} {a / n:>9.4%}  {b:>12,} {b / n:>9.4%}")
    out.append(f"{'mean':>8}  {doc['mean_shanten']['void_rule']:>22.3f}  "
               f"{doc['mean_shanten']['no_void_rule']:>22.3f}")
    return out


def _stats_lines(doc: dict[str, Any]) -> list[str]:
    n, tiles = doc["hands"], doc["tiles"]
    out = [f"{n:,} random {tiles}-tile hands from the 108-tile wall (seed {doc['seed']}, "
           f"{doc['workers']} worker{'s' if doc['workers'] != 1 else ''})", ""]
    out += _histogram_lines(doc)
    out.append("")
    ready_what = "ready (shanten 0)" if tiles == 13 else "ready after the best discard (shanten <= 0)"
    rr = doc["ready_rate"]
    out.append(f"{ready_what}: {rr['void_rule']:.3%} (void rule), {rr['no_void_rule']:.3%} "
               "(no void rule)")
    if tiles == 14:
        c = doc["complete_hands"]
        one_in = f", 1 in {n / c:,.0f}" if c else ""
        out.append(f"天胡 (complete dealt hand, void rule): {c:,} = "
                   f"{doc['complete_rate']['void_rule']:.4%}{one_in}; "
                   f"no void rule: {doc['complete_rate']['no_void_rule']:.4%}")
    where = "" if tiles == 13 else " after the best discard"
    mw = doc["mean_waits"]
    out.append(f"mean waits of ready hands{where}: "
               + ("-" if mw is None else f"{mw:.3f} kinds") + f" ({doc['ready_hands']:,} hands)")
    me = doc["mean_effective"]
    out.append(f"mean effective tiles{where}: {me['kinds']:.3f} kinds, {me['tiles']:.3f} tiles left")
    out.append(f"throughput: {n:,} hands in {doc['seconds']:.2f} s = "
               f"{rate_text(doc['hands_per_s'] or 0)} hands/s")
    return out
