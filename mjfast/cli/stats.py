"""``mjfast stats``: statistics of random dealt hands next to their exact values, or (``--exact``)
the exact table over every deal. The engine is :mod:`mjfast.stats`."""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mjfast.bench.report import rate_text
from mjfast.stats import ExactStats, compare, exact, run_stats

from .common import CLIError, Progress, print_json, shanten_text, write_plot

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["cmd_stats"]


def cmd_stats(args: argparse.Namespace) -> int:
    """Statistics of random dealt hands, or the exact table (``--exact``)."""
    if not 1 <= args.tiles <= 14:
        raise CLIError(f"--tiles: expected an int from 1 to 14, got {args.tiles}")
    if args.exact:
        return _cmd_exact(args)
    if args.tiles not in (13, 14):
        raise CLIError(f"--tiles: expected 13 or 14 for random hands (1 to 14 with --exact), "
                       f"got {args.tiles}")
    progress = Progress(args.hands, "stats", "hands")
    try:
        doc = run_stats(args.hands, args.tiles, seed=args.seed, workers=args.workers,
                        progress=progress.update)
    finally:
        progress.close()
    void, free = exact(args.tiles), exact(args.tiles, void_rule=False)  # well under a second
    check = compare(doc, void, free)
    if args.plot is not None:
        write_plot(args.plot, lambda: _sample_plot(doc, void, free))
    if args.json:
        print_json({**doc, "exact": check})
    else:
        print("\n".join(_stats_lines(doc, check, void, free)))
    return 0


def _sample_plot(doc: Mapping[str, Any], void: ExactStats, free: ExactStats) -> Axes:
    """The sampled shanten distribution, the exact values marked (``--plot``)."""
    from mjfast.plot import shanten_distribution

    n = doc["hands"]
    sample = [{int(s): c / n for s, c in doc["shanten"][rule].items()}
              for rule in ("void_rule", "no_void_rule")]
    exact_shares = ({s: void.rate(s) for s in void.shanten}, {s: free.rate(s) for s in free.shanten})
    return shanten_distribution(*sample, exact=exact_shares,
                                title=f"shanten of {n:,} random {doc['tiles']}-tile hands "
                                      f"(seed {doc['seed']})")


def _mark(row: dict[str, Any]) -> str:
    return "in" if row["inside"] else "OUT"


def _one_in(p: float) -> str:
    return f", 1 in {1 / p:,.0f}" if p else ""


def _histogram_lines(doc: Mapping[str, Any], check: dict[str, Any], void: ExactStats,
                     free: ExactStats) -> list[str]:
    """The sampled histogram, each row with its exact probability and whether the sample lies
    inside the 99% interval around it ("in" / "OUT")."""
    n = doc["hands"]
    rows = check["shanten"]
    out = [f"{'shanten':>8}  {'void rule (缺一门)':>23} {'exact':>9} 99%  "
           f"{'no void rule':>22} {'exact':>9} 99%"]
    for s in sorted({int(k) for rule in rows.values() for k in rule}):
        cells = []
        for name in ("void_rule", "no_void_rule"):
            row = rows[name].get(str(s)) or {"count": 0, "probability": 0.0, "inside": True}
            c = row["count"]
            cells.append(f"{c:>12,} {c / n:>9.4%} {row['probability']:>9.4%} {_mark(row):<3}")
        out.append(f"{shanten_text(s):>8}  " + "  ".join(cells).rstrip())
    means = [(doc["mean_shanten"][name], st.mean_shanten())
             for name, st in (("void_rule", void), ("no_void_rule", free))]
    out.append(f"{'mean':>8}  " + "  ".join(
        f"{m:>22.3f} {'' if e is None else f'{float(e):.3f}':>9}    " for m, e in means).rstrip())
    return out


def _stats_lines(doc: Mapping[str, Any], check: dict[str, Any], void: ExactStats,
                 free: ExactStats) -> list[str]:
    n, tiles = doc["hands"], doc["tiles"]
    out = [f"{n:,} random {tiles}-tile hands from the 108-tile wall (seed {doc['seed']}, "
           f"{doc['workers']} worker{'s' if doc['workers'] != 1 else ''})", ""]
    out += _histogram_lines(doc, check, void, free)
    out.append("")
    ready_what = "ready (shanten 0)" if tiles == 13 else "ready after the best discard (shanten <= 0)"
    rr, er = doc["ready_rate"], check["ready_rate"]
    out.append(f"{ready_what}: {rr['void_rule']:.3%} (void rule; exact "
               f"{er['void_rule']['probability']:.3%}, {_mark(er['void_rule'])}), "
               f"{rr['no_void_rule']:.3%} (no void rule; exact "
               f"{er['no_void_rule']['probability']:.3%}, {_mark(er['no_void_rule'])})")
    if tiles == 14:
        c, cr, ec = doc["complete_hands"], doc["complete_rate"], check["complete_rate"]
        p, pf = ec["void_rule"]["probability"], ec["no_void_rule"]["probability"]
        out.append(f"天胡 (complete dealt hand, void rule): {c:,} = {cr['void_rule']:.4%}"
                   f"{_one_in(c / n)}; exact {p:.4%}{_one_in(p)} ({_mark(ec['void_rule'])}); "
                   f"no void rule: {cr['no_void_rule']:.4%} (exact {pf:.4%}, "
                   f"{_mark(ec['no_void_rule'])})")
    where = "" if tiles == 13 else " after the best discard"
    mw = doc["mean_waits"]
    out.append(f"mean waits of ready hands{where}: "
               + ("-" if mw is None else f"{mw:.3f} kinds") + f" ({doc['ready_hands']:,} hands)")
    me = doc["mean_effective"]
    out.append(f"mean effective tiles{where}: {me['kinds']:.3f} kinds, {me['tiles']:.3f} tiles left")
    out.append(f"throughput: {n:,} hands in {doc['seconds']:.2f} s = "
               f"{rate_text(doc['hands_per_s'] or 0)} hands/s")
    return out


# ------------------------------------------------------------------------------------ --exact

def _cmd_exact(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    void, free = exact(args.tiles), exact(args.tiles, void_rule=False)
    seconds = time.perf_counter() - t0
    if args.plot is not None:
        write_plot(args.plot, void.plot)
    if args.json:
        print_json({"tiles": args.tiles, "wall": sum(void.wall), "total": void.total,
                    "void_rule": void.to_dict(), "no_void_rule": free.to_dict(),
                    "seconds": seconds})
    else:
        print("\n".join(_exact_lines(void, free, seconds)))
    return 0


def _exact_lines(void: ExactStats, free: ExactStats, seconds: float) -> list[str]:
    n, total = void.tiles, void.total
    out = [f"exact: all {total:,} deals of {n} tile{'s' if n != 1 else ''} from the "
           f"{sum(void.wall)}-tile wall ({seconds:.2f} s)", ""]
    if n % 3 == 0:
        out.append("no shanten: no hand holds a multiple of 3 concealed tiles")
        return out
    out.append(f"{'shanten':>8}  {'void rule (缺一门)':>38}  {'no void rule':>39}")
    for s in sorted(set(void.shanten) | set(free.shanten)):
        cells = [f"{st.count(s):>24,} {st.rate(s):>10.6%}  {_one_in(st.rate(s))[2:]:<14}"
                 for st in (void, free)]
        out.append(f"{shanten_text(s):>8}  " + " ".join(cells).rstrip())
    means = [st.mean_shanten() for st in (void, free)]
    if None not in means:
        out.append(f"{'mean':>8}  " + " ".join(f"{float(m or 0):>35.4f}{'':>15}"
                                               for m in means).rstrip())
    out.append("")
    if n % 3 == 1:
        out.append(f"ready (shanten 0): {void.rate(0):.6%} (void rule), "
                   f"{free.rate(0):.6%} (no void rule)")
        return out
    out.append(f"ready after the best discard (shanten <= 0): "
               f"{void.rate('ready_after_discard'):.6%} (void rule), "
               f"{free.rate('ready_after_discard'):.6%} (no void rule)")
    what = "天胡 (complete dealt hand" if n == 14 else "complete (shanten -1"
    out.append(f"{what}, void rule): {void.wins:,} deals = {void.rate():.6%}{_one_in(void.rate())}; "
               f"no void rule: {free.wins:,} = {free.rate():.6%}{_one_in(free.rate())}")
    return out
