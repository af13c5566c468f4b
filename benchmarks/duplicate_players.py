"""The forecast player against three ``efficient`` ones, duplicate 1-vs-3 (:func:`duplicate`),
under a preset, for the cases of the docs' players page (the default player and its ablations).
Not a pytest benchmark: 10^5 hands take minutes (hours with ``exchanges1``) on one core.

    PYTHONPATH=. python benchmarks/duplicate_players.py --rules points --walls 5000 --segments 5
    PYTHONPATH=. python benchmarks/duplicate_players.py --rules chengdu \
        --cases win,void_efficient --walls 5000

A run plays ``--segments`` segments of ``--walls`` walls, seeds ``--seed``, ``--seed`` + 1...,
each case of :data:`CASES` on every segment; each segment's hands are kept in ``--cache``
(``.npz``, not in git), so a run stopped between segments keeps what it finished and a later run
adds segments. Every cached case is then summarised over its segments into ``--out`` (default
``docs/_data/players.json``, from which the players page is generated): the walls, the mean net
per hand and its 95% half-width, the rates of :meth:`~mjfast.table.DuplicateResult.summary`, the
seconds it took and the load average around it, and for a case other than ``default`` the paired
difference against ``default`` on the same walls (hand i of a seed is the same wall in every
case, so the luck of the deal cancels twice) with its 95% half-width: run ``default`` on the
seeds of the other cases (``--cases exchanges1,default``) to pair them all. Two segments of one
seed (different ``--walls``) share their first walls; only the longer one counts.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

from mjfast import __version__
from mjfast.table import SelfPlayResult
from mjfast.table.duplicate import DuplicateResult, duplicate
from mjfast.table.forecast_player import ForecastPlayer

CASES: dict[str, dict[str, Any]] = {
    "default": {},
    "win": {"objective": "win"},
    "void_efficient": {"void_by_forecast": False},
    "exchanges1": {"exchanges": 1},
}
"""ForecastPlayer keywords per case (the rest at their defaults)."""

HERE = Path(__file__).resolve().parent


def _key(rules: str, case: str, seed: int, walls: int) -> str:
    return f"{rules}-{case}-{seed}-{walls}"


def run(rules: str, case: str, walls: int, seed: int, workers: int, cache: Path) -> None:
    """Play one segment (``walls`` walls of ``seed``) of a case; keep its hands in ``cache``."""
    player = ForecastPlayer(**CASES[case])
    load = os.getloadavg()[0]
    t = time.perf_counter()
    d = duplicate(walls, player, "efficient", rules=rules, seed=seed, workers=workers)
    seconds = time.perf_counter() - t
    summary: dict[str, Any] = dict(d.summary())
    summary.update(rules=rules, case=case, seed=seed, player=repr(player), seconds=round(seconds),
                   load=[round(load, 2), round(os.getloadavg()[0], 2)], mjfast=__version__)
    arrays = {f"{i}_{f.name}": getattr(r, f.name) for i, r in enumerate((*d.tested, d.baseline))
              for f in fields(r) if isinstance(getattr(r, f.name), np.ndarray)}
    cache.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(cache / f"{_key(rules, case, seed, walls)}.npz", per_wall=d.per_wall(),
                        summary=json.dumps(summary), **arrays)
    print(f"{rules} {case} seed {seed}: {summary['mean_net']:+.4f} +- "
          f"{summary['mean_net_ci']:.4f} per hand ({walls} walls, {seconds:.0f} s)", flush=True)


def _merged(segments: list[Any]) -> dict[str, Any]:
    """One case's summary over its segments (the walls of every seed)."""
    docs = [json.loads(str(g["summary"])) for g in segments]
    if len(segments) == 1:
        return docs[0]
    results = []
    for i in range(docs[0]["seats"] + 1):
        cols: dict[str, Any] = {f.name: np.concatenate([g[f"{i}_{f.name}"] for g in segments])
                for f in fields(SelfPlayResult) if f"{i}_{f.name}" in segments[0]}
        results.append(SelfPlayResult(**cols))
    out: dict[str, Any] = dict(DuplicateResult(tuple(results[:-1]), results[-1]).summary())
    out.update({k: docs[0][k] for k in ("rules", "case", "player", "mjfast")},
               seed=[d["seed"] for d in docs], seconds=sum(d["seconds"] for d in docs),
               load=[min(x for d in docs for x in d["load"]), max(x for d in docs for x in d["load"])])
    return out


def collect(cache: Path) -> list[dict[str, Any]]:
    """Every cached case's summary over its segments, with its paired difference against the
    ``default`` case on the same walls where those are cached (the first walls of a longer
    segment of the same seed are the same walls: hand i is dealt from ``(seed, i)``)."""
    by_seed: dict[tuple[str, str], dict[int, Any]] = {}
    for path in sorted(cache.glob("*.npz")):
        data = np.load(path)
        doc = json.loads(str(data["summary"]))
        seeds = by_seed.setdefault((doc["rules"], doc["case"]), {})
        # two segments of one seed share their first walls: keep the longer one only
        if doc["seed"] not in seeds or len(data["per_wall"]) > len(seeds[doc["seed"]]["per_wall"]):
            seeds[doc["seed"]] = data
    groups = {key: [seeds[k] for k in sorted(seeds)] for key, seeds in by_seed.items()}
    out = []
    for (rules, case), segments in groups.items():
        s = _merged(segments)
        base = {json.loads(str(g["summary"]))["seed"]: g["per_wall"]
                for g in groups.get((rules, "default"), [])}
        diffs = []
        for g in segments:
            b = base.get(json.loads(str(g["summary"]))["seed"])
            if b is not None:
                n = min(len(b), len(g["per_wall"]))
                diffs.append(g["per_wall"][:n] - b[:n])
        if case != "default" and diffs:
            x = np.concatenate(diffs)
            s.update(vs_default=float(x.mean()), vs_default_walls=len(x),
                     vs_default_ci=1.96 * float(x.std(ddof=1)) / float(np.sqrt(len(x))))
        out.append(s)
    return sorted(out, key=lambda s: (s["rules"], list(CASES).index(s["case"])))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="chengdu")
    ap.add_argument("--cases", default="default", help="comma-separated: " + ", ".join(CASES))
    ap.add_argument("--walls", type=int, default=5000,
                    help="walls per segment (hands = walls x seats)")
    ap.add_argument("--segments", type=int, default=1, help="segments: seeds SEED, SEED + 1...")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--cache", type=Path, default=HERE / ".players")
    ap.add_argument("--out", type=Path, default=HERE.parent / "docs" / "_data" / "players.json")
    args = ap.parse_args(argv)
    for seed in range(args.seed, args.seed + args.segments):
        for case in filter(None, args.cases.split(",")):
            run(args.rules, case, args.walls, seed, args.workers, args.cache)
    runs = collect(args.cache)
    args.out.write_text(json.dumps({"runs": runs}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
