"""Side by side: mjfast.forecast vs nekobean/mahjong-cpp's ExpectedScoreCalculator, same hands,
one run, one core each, interleaved (the figures quoted in the forecast issue). Not a pytest
benchmark: it needs the driver built by ``benchmarks/peers/mahjong-cpp/build.sh SRC`` (its header
says what to install); it times the policy classes (exchanges budgets,
``candidates="keep"``: phase A's ``mj_keep``; phase D: ``exchanges=1`` with and without
``backward=True`` against its defaults, ``exchanges=2`` against ``extra = 2``, with state counts).

    python benchmarks/forecast_vs_mcpp.py --driver BUILD/bin/mcpp_driver --work DIR [--rounds 5]
        [--phases ABCD] [--slow]

(with a Python where mjfast is installed). Writes DIR/results.json and prints a summary; the
benchmarks page shows phases A and D of ``docs/_data/forecast_mcpp.json``, a copy of it.

Hands: seeded 14-tile deals of m/p/s tiles only, no hand holding a kind four times (the two
engines' riichi-style shanten differ only there: mjfast's seven pairs counts a quad as two
pairs), grouped by riichi-style shanten 1/2/3 (mjfast.shanten(void_rule=False), checked equal to
mahjong-cpp's): set "mps" deals from all 108 tiles (three suits, so the Sichuan void rule
raises the shanten), set "two" from the 72 tiles of two suits picked per hand (the void rule
never bites). Both engines get the same hands; mjfast with void_suit=None.

Timing: per cell (set, shanten) and round, mjfast then each mahjong-cpp mode right after it, so
both see the same background load; hands/s per round; the table uses the best round and the
ratios the median of the per-round ratios. mahjong-cpp times only calc() inside the driver.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

import numpy as np

import mjfast
import mjfast._core._forecast as _cf
from mjfast.errors import InvalidArgumentError

SEED = 20261201
SIZES = {1: 200, 2: 50, 3: 10}
DRAWS = 18
SETS = ("two", "mps")


def deal(rng: np.random.Generator, n: int, two_suit: bool) -> np.ndarray:
    if not two_suit:
        t = np.argsort(rng.random((n, 108)), axis=1)[:, :14] // 4
    else:
        suits = np.array([[0, 1], [0, 2], [1, 2]])[rng.integers(0, 3, n)]
        t = np.argsort(rng.random((n, 72)), axis=1)[:, :14] // 4  # 18 kinds of two suits
        t = suits[np.arange(n)[:, None], t // 9] * 9 + t % 9
    h = np.zeros((n, 27), np.uint8)
    np.add.at(h, (np.arange(n)[:, None], t), 1)
    return h


def make_hands(work: str) -> tuple[dict, dict]:
    hands, info = {}, {}
    for name in SETS:
        rng = np.random.default_rng(SEED + (name == "two"))
        pool = deal(rng, 200_000, name == "two")
        s_r = mjfast.shanten(pool, void_rule=False)
        s_s = mjfast.shanten(pool, void_rule=True)
        quad = (pool == 4).any(1)
        for s, n in SIZES.items():
            idx = np.where((s_r == s) & ~quad)[0][:n]
            h = np.ascontiguousarray(pool[idx])
            hands[name, s] = h
            path = os.path.join(work, f"hands_{name}_{s}.txt")
            with open(path, "w") as f:
                for r, ss in zip(h, s_s[idx]):
                    f.write("".join(map(str, r)) + f" {name} riichi={s} sichuan={ss}\n")
            suits = (h.reshape(-1, 3, 9).sum(2) > 0).sum(1)
            info[f"{name}_{s}"] = {
                "n": int(len(h)),
                "sichuan_shanten": {int(k): int(v) for k, v in zip(*np.unique(s_s[idx], return_counts=True))},
                "suits_held": {int(k): int(v) for k, v in zip(*np.unique(suits, return_counts=True))},
                "legal_discards_mean": float((h > 0).sum(1).mean()),
            }
    return hands, info


def unlimited_stack() -> None:
    # mahjong-cpp builds its graph by mutual recursion; extra = 2 from 3-shanten overflows 8 MB
    resource.setrlimit(resource.RLIMIT_STACK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))


def mcpp(driver: str, work: str, name: str, s: int, tag: str, *args: str, limit: int | None = None,
         peak_rss: bool = False, timeout: float | None = None) -> dict:
    out = os.path.join(work, f"out_{name}_{s}_{tag}.txt")
    cmd = [driver, os.path.join(work, f"hands_{name}_{s}.txt"), out, *args]
    if limit is not None:
        cmd += ["--limit", str(limit)]
    rss_file = os.path.join(work, "rss.txt")
    if peak_rss:
        cmd = ["/usr/bin/time", "-f", "%M", "-o", rss_file, *cmd]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=unlimited_stack,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    if p.returncode != 0:
        return {"error": p.returncode, "stderr": p.stderr[-500:]}
    line = next(x for x in p.stdout.splitlines() if x.startswith("RESULT"))
    res = {}
    for kv in line.split()[1:]:
        k, v = kv.split("=")
        res[k] = float(v) if "." in v else int(v)
    if peak_rss:
        with open(rss_file) as f:
            res["peak_rss_mb"] = int(f.read().split()[-1]) / 1024
    res["out"] = out
    return res


def read_out(path: str) -> list[tuple[int, int, float, dict]]:
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            parts = line.split()
            wins = {int(a): float(b) for a, b in (x.split(":") for x in parts[4:])}
            rows.append((int(parts[1]), int(parts[2]), float(parts[3]), wins))
    return rows


def timed(fn, *a, **k) -> tuple[float, object]:
    t0 = time.perf_counter()
    r = fn(*a, **k)
    return time.perf_counter() - t0, r


def keeping_13(h: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[list[int]]]:
    """13-tile hands after each discard that keeps the riichi-style shanten (what mahjong-cpp's
    14-tile call reports with shanten-down off), one row per (hand, discard), and the discarded
    tile as ``visible`` (so the pool is the 14-tile call's: the curves equal its rows)."""
    s14 = mjfast.shanten(h, void_rule=False)
    rows, vis, kinds = [], [], []
    for i, r in enumerate(h):
        ks = []
        for d in np.nonzero(r)[0]:
            x = r.copy()
            x[d] -= 1
            if mjfast.shanten(x, void_rule=False) == s14[i]:
                rows.append(x)
                v = np.zeros(27, np.uint8)
                v[d] = 1
                vis.append(v)
                ks.append(int(d))
        kinds.append(ks)
    return (np.ascontiguousarray(np.array(rows, np.uint8)),
            np.ascontiguousarray(np.array(vis, np.uint8)), kinds)


def mj_states(h: np.ndarray, draws: int, exchanges: int | None,
              **kw: Any) -> tuple[list[int | None], list[int | None]]:
    """Graph states and buffer bytes per hand: the peaks of the engine's run_rows (one hand per
    call); None for a hand past a cap."""
    api = sys.modules["mjfast.forecast.api"]
    orig = api._forecast.run_rows
    seen: list[tuple[int, int]] = []

    def wrapped(*a):
        res = orig(*a)
        seen.append((int(res[4]), int(res[5])))
        return res

    _cf.run_rows = wrapped
    states: list[int | None] = []
    sizes: list[int | None] = []
    try:
        for r in h:
            seen.clear()
            try:
                mjfast.forecast(r, draws=draws, exchanges=exchanges, **kw)
                states.append(max(s for s, _ in seen))
                sizes.append(max(b for _, b in seen))
            except InvalidArgumentError:
                states.append(None)
                sizes.append(None)
    finally:
        _cf.run_rows = orig
    return states, sizes


def summary(xs: list[float]) -> dict:
    xs = [x for x in xs if x is not None]
    if not xs:
        return {}
    return {"mean": float(np.mean(xs)), "median": float(np.median(xs)), "max": float(max(xs))}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--rounds-ii", type=int, default=3)
    ap.add_argument("--slow", action="store_true", help="extra=2 on one 3-shanten hand (minutes, GBs)")
    ap.add_argument("--smoke", action="store_true", help="a few hands per cell, to test the script")
    ap.add_argument("--phases", default="ABCD", help="which phases to run (A: T = 18 table, "
                    "B: extra sweep, C: exchanges at small T, D: budgets at T = 18)")
    a = ap.parse_args()
    if a.smoke:
        SIZES.update({1: 6, 2: 3, 3: 2})
    os.makedirs(a.work, exist_ok=True)
    R = {"load_before": os.getloadavg(), "mjfast": mjfast.__version__, "argv": sys.argv}
    hands, R["hands"] = make_hands(a.work)
    cells = [(n, s) for n in SETS for s in SIZES]

    # shanten check: mahjong-cpp's tables (regenerated suits table) against mjfast's riichi-style
    for n, s in cells:
        r = mcpp(a.driver, a.work, n, s, "shanten", "--shanten-only", "1")
        got = np.loadtxt(r["out"], dtype=int, ndmin=2)[:, 1]
        R["hands"][f"{n}_{s}"]["mcpp_shanten_equal"] = bool((got == s).all())

    keep = {c: keeping_13(hands[c]) for c in cells}

    # ---- phase A: T = 18, interleaved rounds -------------------------------------------------
    A: dict = {f"{n}_{s}": {} for n, s in cells}
    for rnd in range(a.rounds if "A" in a.phases else 0):
        for n, s in cells:
            h, cell = hands[n, s], A[f"{n}_{s}"]
            mjfast.forecast(h[:2], draws=DRAWS, exchanges=0)  # warm-up
            dt, _ = timed(mjfast.forecast, h, draws=DRAWS, exchanges=0, workers=1)
            cell.setdefault("mj_full", []).append(len(h) / dt)
            k13, v13, _ = keep[n, s]
            dt, _ = timed(mjfast.forecast, k13, draws=DRAWS, exchanges=0, workers=1, visible=v13)
            cell.setdefault("mj_keep13", []).append(len(h) / dt)
            dt, _ = timed(mjfast.forecast, h, draws=DRAWS, candidates="keep", workers=1)
            cell.setdefault("mj_keep", []).append(len(h) / dt)
            for tag, args in (("i", ["--tegawari", "0", "--shanten-down", "0"]),
                              ("iall", ["--tegawari", "0", "--shanten-down", "0", "--all-discards", "1"]),
                              ("ii", ["--tegawari", "1", "--shanten-down", "1"])):
                if tag == "ii" and rnd >= a.rounds_ii:
                    continue
                r = mcpp(a.driver, a.work, n, s, tag, *args)
                cell.setdefault(f"mcpp_{tag}", []).append(r["hands_per_s"])
                cell[f"mcpp_{tag}_last"] = r
        print(f"round {rnd + 1}/{a.rounds} done", flush=True)
    R["load_after_A"] = os.getloadavg()

    # per-cell stats, ratios, states, value checks
    for n, s in (cells if "A" in a.phases else []):
        cell, h = A[f"{n}_{s}"], hands[n, s]
        for key in ("mj_full", "mj_keep", "mj_keep13", "mcpp_i", "mcpp_iall", "mcpp_ii"):
            v = cell[key]
            cell[key + "_best"] = max(v)
            cell[key + "_median"] = statistics.median(v)
        for num in ("mj_full", "mj_keep", "mj_keep13"):
            for den in ("mcpp_i", "mcpp_iall", "mcpp_ii"):
                m = min(len(cell[num]), len(cell[den]))
                rr = [cell[num][i] / cell[den][i] for i in range(m)]
                cell[f"ratio_{num}_over_{den}"] = {"median": statistics.median(rr), "min": min(rr),
                                                   "max": max(rr)}
        outs = {t: read_out(cell[f"mcpp_{t}_last"]["out"]) for t in ("i", "iall", "ii")}
        cell["mcpp_searched"] = {t: summary([o[1] for o in outs[t]]) for t in outs}
        cell["mcpp_slowest_ms"] = {t: max(o[2] for o in outs[t]) / 1000 for t in outs}
        cell["mcpp_discards_reported_mean"] = {t: float(np.mean([len(o[3]) for o in outs[t]])) for t in outs}
        # (i) native vs (i-all): the native 14-tile call reports only the keeping discards, and
        # its curves are >= the 13-tile calls' (the graph's return edges root - d -> root let a
        # non-best discard draw d back and switch), equal at the best discard
        worse, gain, best_diff, same_set = 0.0, 0.0, 0.0, True
        for (_, _, _, wi), (_, _, _, wa), ks in zip(outs["i"], outs["iall"], keep[n, s][2]):
            same_set &= sorted(wi) == ks
            worse = max(worse, max(wa[d] - v for d, v in wi.items()))
            gain = max(gain, max(v - wa[d] for d, v in wi.items()))
            best_diff = max(best_diff, abs(max(wi.values()) - max(wa[d] for d in wi)))
        cell["check_iall_minus_i_max"] = worse
        cell["check_i_minus_iall_max"] = gain
        cell["check_best_keeping_value_diff"] = best_diff
        cell["check_i_discards_are_keeping"] = same_set
        st, _ = mj_states(h, DRAWS, 0)
        cell["mj_states_noex"] = summary(st)
        # slowest hand for mjfast; whether mjfast's best discard is also optimal for mahjong-cpp
        # (within 1e-9; information only: the models differ, see the report)
        slow, agree, agree_all = 0.0, 0, 0
        f = mjfast.forecast(h, draws=DRAWS, exchanges=0)
        for i, r in enumerate(h):
            dt, _ = timed(mjfast.forecast, r, draws=DRAWS, exchanges=0)
            slow = max(slow, dt)
            w = f.win[i, :, -1]
            ks = keep[n, s][2][i]
            mj_best_keep = max(ks, key=lambda d: (w[d], -d))
            wi = outs["i"][i][3]
            agree += wi[mj_best_keep] >= max(wi.values()) - 1e-9
            wa = outs["iall"][i][3]
            agree_all += wa[int(np.nanargmax(w))] >= max(wa.values()) - 1e-9
        cell["mj_slowest_ms"] = slow * 1000
        k13, v13, kinds = keep[n, s]
        f13 = mjfast.forecast(k13, draws=DRAWS, exchanges=0, visible=v13)
        rows = [(i, d) for i, ks in enumerate(kinds) for d in ks]
        cell["check_keep13_vs_full_maxdiff"] = float(max(
            np.abs(f13.win[j] - f.win[i, d]).max() for j, (i, d) in enumerate(rows)))
        cell["keep13_rows"] = len(rows)
        cell["best_discard_agree_keep"] = agree / len(h)
        cell["best_discard_agree_all"] = agree_all / len(h)
        for key in [k for k in cell if k.endswith("_last")]:
            cell[key] = {k: v for k, v in cell[key].items() if k != "out"}
    R["A"] = A
    print(json.dumps({k: {kk: vv for kk, vv in v.items() if "best" in kk or "ratio" in kk}
                      for k, v in A.items()}, indent=1), flush=True)

    # ---- phase B: extra = 0, 1, 2 (tegawari and shanten-down on) -----------------------------
    B: dict = {}
    plan = [(1, 20, (0, 1, 2)), (2, 5, (0, 1, 2)), (3, 3, (0, 1))]
    if "B" not in a.phases:
        plan = []
        a.slow = False
    if a.smoke and plan:
        plan = [(1, 2, (0, 1, 2)), (2, 1, (0, 1)), (3, 1, (0,))]
    for n in SETS:
        for s, lim, extras in plan:
            for e in extras:
                r = mcpp(a.driver, a.work, n, s, f"e{e}", "--tegawari", "1", "--shanten-down", "1",
                         "--extra", str(e), limit=lim, peak_rss=True)
                B[f"{n}_{s}_extra{e}"] = {k: v for k, v in r.items() if k != "out"}
                if e == 0:  # extra = 0 never extends the search: the same curves as mode (i)
                    o0 = read_out(r["out"])
                    oi = read_out(mcpp(a.driver, a.work, n, s, "i", "--tegawari", "0",
                                       "--shanten-down", "0", limit=lim)["out"])
                    B[f"{n}_{s}_extra0"]["same_as_mode_i"] = all(
                        x[3] == y[3] and x[1] == y[1] for x, y in zip(o0, oi))
                print(n, s, e, B[f"{n}_{s}_extra{e}"], flush=True)
            hh = hands[n, s][:lim]
            dt, _ = timed(mjfast.forecast, hh, draws=DRAWS, exchanges=0, workers=1)
            B[f"{n}_{s}_mjfast_noex"] = {"n": lim, "hands_per_s": lim / dt}
    if a.slow:
        for n in SETS:
            r = mcpp(a.driver, a.work, n, 3, "e2", "--tegawari", "1", "--shanten-down", "1",
                     "--extra", "2", limit=1, peak_rss=True, timeout=900)
            B[f"{n}_3_extra2"] = {k: v for k, v in r.items() if k != "out"}
            print(n, 3, 2, B[f"{n}_3_extra2"], flush=True)
    R["B"] = B

    # ---- phase C: mjfast exchanges=None at T = 3..6 vs mahjong-cpp defaults at the same T -----
    C: dict = {}
    subsets = {3: None, 4: {1: 20, 2: 10, 3: 10}, 5: {1: 3, 2: 3, 3: 3}, 6: {1: 2, 2: 2, 3: 2}}
    if "C" not in a.phases:
        subsets = {}
    if a.smoke and subsets:
        subsets = {3: None, 4: {1: 2, 2: 1, 3: 1}}
    for T, sub in subsets.items():
        for n, s in cells:
            h = hands[n, s] if sub is None else hands[n, s][:sub[s]]
            ok, fail, tot, worst = 0, 0, 0.0, 0.0
            for r in h:
                try:
                    dt, _ = timed(mjfast.forecast, r, draws=T, exchanges=None)
                    ok += 1
                except InvalidArgumentError:
                    dt = 0.0
                    fail += 1
                tot += dt
                worst = max(worst, dt)
            cell = {"n": len(h), "ok": ok, "past_cap": fail,
                    "mj_hands_per_s": ok / tot if ok and tot > 0 else None, "mj_slowest_s": worst}
            if T <= 4 and ok == len(h):
                cell["mj_states"] = summary(mj_states(h[:min(len(h), 20)], T, None)[0])
            if T <= 5:
                r = mcpp(a.driver, a.work, n, s, f"ii_T{T}", "--tegawari", "1", "--shanten-down", "1",
                         "--t-max", str(T), limit=len(h))
                cell["mcpp_ii_hands_per_s"] = r["hands_per_s"]
                cell["mcpp_ii_mean_searched"] = r["mean_searched"]
                if cell["mj_hands_per_s"]:
                    cell["ratio_mj_ex_over_mcpp_ii"] = cell["mj_hands_per_s"] / r["hands_per_s"]
            C[f"T{T}_{n}_{s}"] = cell
            print(f"T={T}", n, s, cell, flush=True)
    R["C"] = C

    # ---- phase D: budgets at T = 18 vs mahjong-cpp's exchanges (extra = 1, 2) ----------------
    D: dict = {}
    # mahjong-cpp at extra = 2 from 3-shanten takes over a minute and GBs a hand (phase B,
    # --slow): that cell times mjfast alone
    budgets = [("b1", {"exchanges": 1}, "1", {1: 5, 2: 1, 3: 1}),
               ("b1back", {"exchanges": 1, "backward": True}, "1", {1: 5, 2: 1, 3: 1}),
               ("b2", {"exchanges": 2}, "2", {1: 2, 2: 1, 3: 5})]
    for tag, kw, extra, lims in (budgets if "D" in a.phases else []):
        for n in SETS:
            for s, lim in lims.items():
                h = hands[n, s][:lim]
                times = []
                for r in h:
                    try:
                        dt, _ = timed(mjfast.forecast, r, draws=DRAWS, **kw)
                        times.append(dt)
                    except InvalidArgumentError:
                        times.append(None)
                states, sizes = mj_states(h, DRAWS, **kw)
                ok = [t for t in times if t is not None]
                held = [b for b in sizes if b is not None]
                cell = {"n": lim, "mj_ok": len(ok), "mj_hands_per_s": len(ok) / sum(ok) if ok else None,
                        "mj_slowest_s": max(ok) if ok else None, "mj_states": summary(states),
                        "mj_peak_mib": max(held) / 2**20 if held else None, "mcpp": None}
                if not (extra == "2" and s == 3):
                    r = mcpp(a.driver, a.work, n, s, f"{tag}_e{extra}", "--tegawari", "1",
                             "--shanten-down", "1", "--extra", extra, limit=lim, peak_rss=True,
                             timeout=600)
                    cell["mcpp"] = {k: v for k, v in r.items() if k != "out"}
                    if ok and "hands_per_s" in r:
                        cell["ratio_mj_over_mcpp"] = cell["mj_hands_per_s"] / r["hands_per_s"]
                D[f"{tag}_{n}_{s}"] = cell
                print(tag, n, s, cell, flush=True)
    R["D"] = D
    R["load_after"] = os.getloadavg()
    with open(os.path.join(a.work, "results.json"), "w") as f:
        json.dump(R, f, indent=1, default=float)
    print("wrote", os.path.join(a.work, "results.json"))


if __name__ == "__main__":
    main()
