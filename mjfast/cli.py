"""The ``mjfast`` command line (also ``python -m mjfast``): a thin argparse front end.

Subcommands::

    mjfast analyze HAND      shanten per form, waits, effective tiles, discards, 大叫 value
    mjfast score HAND --win T   the fan of a win
    mjfast settle EVENTS.json   replay a Round event log: who pays whom
    mjfast stats             statistics of random dealt hands (vectorised, in chunks, threaded)
    mjfast batch IN OUT      shanten / waits / effective tiles / max fan of a file of hands
    mjfast bench             the benchmark set (mjfast._benchsuite), with ratios to peers

Every error prints one line, ``mjfast: error: ...``, on stderr and exits with status 2
(set ``MJFAST_TRACEBACK=1`` to see the traceback of a ValueError or OSError instead);
``--help`` on each subcommand shows an example. ``--json`` prints one JSON document on stdout.
Progress bars go to stderr, and only when it is a terminal.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import secrets
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Optional

import numpy as np

from . import analysis, efficiency
from ._benchsuite import rate_text
from .errors import InvalidHandError, TileParseError
from .tiles import Meld, format_hand, format_tile, melds_to_counts, parse_hand, parse_melds

__all__ = ["CLIError", "build_parser", "main"]

PROG = "mjfast"
STYLES = ("mpsz", "zh", "unicode")
VOID_NAMES = {"m": "m", "p": "p", "s": "s", "万": "m", "筒": "p", "饼": "p", "条": "s", "索": "s"}
EXIT_ERROR = 2


class CLIError(Exception):
    """An error reported as ``mjfast: error: <message>`` with exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``mjfast: error: ...``) instead of usage dumps."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CLIError(f"{message} (see '{self.prog} --help')")


# ----------------------------------------------------------------------------------------------
# Small helpers
# ----------------------------------------------------------------------------------------------

def _progress_enabled(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal.

    ``update(done)`` redraws at most ten times a second; ``close()`` erases the line.
    """

    def __init__(self, total: Optional[int], label: str, unit: str = "hands",
                 stream: Optional[IO[str]] = None, enabled: Optional[bool] = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.enabled = _progress_enabled(self.stream) if enabled is None else enabled
        self.total, self.label, self.unit = total, label, unit
        self.start = time.perf_counter()
        self._last = 0.0

    def update(self, done: int, force: bool = False) -> None:
        """Show ``done`` items processed (of ``total``)."""
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self._last < 0.1:
            return
        self._last = now
        rate = done / max(now - self.start, 1e-9)
        if self.total:
            frac = min(1.0, done / self.total)
            bar = "#" * int(frac * 30)
            text = (f"\r{self.label} [{bar:<30}] {frac:6.1%} {done:,}/{self.total:,} {self.unit} "
                    f"{rate_text(rate)} {self.unit}/s")
        else:
            text = f"\r{self.label} {done:,} {self.unit} {rate_text(rate)} {self.unit}/s"
        self.stream.write(text)
        self.stream.flush()

    def close(self) -> None:
        """Erase the bar."""
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _workers(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an int, got {value!r}") from None
    if n == -1:
        return os.cpu_count() or 1
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive count or -1 (all cores), got {n}")
    return n


def _positive(value: str) -> int:
    try:
        n = int(value.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive int, got {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive int, got {n}")
    return n


def _void(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    if value not in VOID_NAMES:
        raise CLIError(f"--void: expected m, p or s (or 万, 筒, 条), got {value!r}")
    return VOID_NAMES[value]


def _option_value(text: str) -> Any:
    if text.lower() in ("none", "null"):
        return None
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _rules(name: str, options: Optional[Sequence[str]]) -> Any:
    from .rules import Rules

    overrides = {}
    for item in options or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise CLIError(f"--option: expected FIELD=VALUE (e.g. cap=4), got {item!r}")
        overrides[key.strip()] = _option_value(value.strip())
    try:
        return Rules.preset(name, **overrides)
    except (TypeError, ValueError) as exc:
        raise CLIError(f"--rules/--option: {exc}") from None


def _melds(values: Optional[Sequence[str]]) -> tuple[Meld, ...]:
    if not values:
        return ()
    items: list[str] = []
    for v in values:  # "--meld pung:5p,kong:1m" or repeated --meld
        items.extend(x.strip() for x in v.split(",") if x.strip())
    try:
        return parse_melds(items)
    except (TileParseError, InvalidHandError, ValueError, TypeError) as exc:
        raise CLIError(f"--meld: {exc}") from None


def _hand(text: str, what: str = "HAND") -> np.ndarray:
    try:
        return parse_hand(text)
    except TileParseError as exc:
        raise CLIError(f"{what}: {exc}") from None


def _tiles(kinds: Sequence[int], style: str) -> list[str]:
    return [format_tile(int(k), style) for k in kinds]


def _shanten_text(s: int) -> str:
    return "unwinnable" if s == analysis.UNWINNABLE else str(s)


def _print_json(doc: Any) -> None:
    json.dump(doc, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def _fan_items(items: Sequence[tuple[Any, int]]) -> list[dict]:
    return [{"name": f.name.lower(), "zh": f.zh, "fan": int(n)} for f, n in items]


def _items_text(items: Sequence[tuple[Any, int]]) -> str:
    return " + ".join(f"{f.zh} {n}" for f, n in items)


# ----------------------------------------------------------------------------------------------
# analyze
# ----------------------------------------------------------------------------------------------

def cmd_analyze(args: argparse.Namespace) -> int:
    """Shanten per form, waits, effective tiles; discards for 14 tiles; 大叫 for a ready hand."""
    from . import scoring

    style = args.style
    hand = _hand(args.hand)
    melds = _melds(args.meld)
    void = _void(args.void)
    visible = _hand(args.visible, "--visible") if args.visible else None
    rules = _rules(args.rules, args.option)
    try:
        meld_counts = melds_to_counts(melds) if melds else np.zeros(27, np.uint8)
    except InvalidHandError as exc:
        raise CLIError(f"--meld: {exc}") from None
    n = int(hand.sum())
    waiting = n == 13 - 3 * len(melds)
    complete = n == 14 - 3 * len(melds)
    if not (waiting or complete):
        raise CLIError(f"HAND: {n} concealed tiles with {len(melds)} meld(s); expected "
                       f"{13 - 3 * len(melds)} or {14 - 3 * len(melds)}")
    kw = dict(melds=melds or None, void_suit=void)
    try:
        sh = {form: analysis.shanten(hand, form=form, **kw)
              for form in ("all", "regular", "seven_pairs")}
        sh["no_void_rule"] = analysis.shanten(hand, melds=melds or None, void_rule=False)
    except InvalidHandError as exc:
        raise CLIError(str(exc)) from None
    held = hand.astype(np.int64) + meld_counts
    seen = np.zeros(27, np.int64) if visible is None else visible.astype(np.int64)
    if visible is not None:
        over = np.nonzero(held + seen > 4)[0]
        if over.size:
            t = int(over[0])
            raise CLIError(f"--visible: tile {format_tile(t)} is held {int(held[t])} times and "
                           f"seen {int(seen[t])} times (max 4 in all)")
    doc: dict[str, Any] = {
        "hand": format_hand(hand, style), "tiles": n, "melds": [str(m) for m in melds],
        "void_suit": void, "visible": None if visible is None else format_hand(visible, style),
        "rules": rules.name, "shanten": sh,
    }
    try:
        if waiting:
            mask = analysis.waits(hand, **kw)
            doc["waits"] = [{"tile": format_tile(t, style), "left": max(0, 4 - int(held[t] + seen[t]))}
                            for t in analysis.mask_to_tiles(mask)]
            eff = efficiency.effective_tiles(hand, visible=visible, **kw)
            doc["effective"] = [{"tile": format_tile(t, style), "left": int(eff[t])}
                                for t in np.nonzero(eff >= 0)[0]]
            doc["effective_count"] = int(eff[eff > 0].sum())
            doc["da_jiao"] = None
            if sh["all"] == 0:
                mf = scoring.max_fan(hand, melds=melds or None, void_suit=void, visible=visible,
                                     rules=rules)
                doc["da_jiao"] = _max_fan_doc(mf, style)
        else:
            doc["complete"] = sh["all"] == -1
            ranked = efficiency.advise(hand, visible=visible, **kw)
            rows = []
            for d in ranked:
                row: dict[str, Any] = {
                    "tile": format_tile(d.tile, style), "shanten": d.shanten,
                    "effective_count": d.effective_count,
                    "effective": _tiles(d.effective, style), "da_jiao": None}
                if d.shanten == 0:
                    rest = hand.copy()
                    rest[d.tile] -= 1
                    seen_after = seen.copy()
                    seen_after[d.tile] += 1
                    mf = scoring.max_fan(rest, melds=melds or None, void_suit=void,
                                         visible=seen_after, rules=rules)
                    if mf.fan is not None:
                        row["da_jiao"] = {"fan": mf.fan, "payment": mf.payment,
                                          "best_wait": format_tile(mf.best_wait, style)}
                rows.append(row)
            doc["discards"] = rows
    except InvalidHandError as exc:
        raise CLIError(str(exc)) from None
    if args.json:
        _print_json(doc)
    else:
        _print_analysis(doc, waiting)
    return 0


def _max_fan_doc(mf: Any, style: str) -> Optional[dict]:
    if mf.fan is None and not mf.waits:
        return None
    return {
        "fan": mf.fan, "payment": mf.payment,
        "best_wait": None if mf.best_wait is None else format_tile(mf.best_wait, style),
        "waits": [{"tile": format_tile(w.tile, style), "fan": w.fan, "items": _fan_items(w.items),
                   "decomposition": str(w.decomposition), "dead": w.dead} for w in mf.waits],
    }


def _print_analysis(doc: dict, waiting: bool) -> None:
    sh = doc["shanten"]
    out = [f"hand: {doc['hand']} ({doc['tiles']} tiles)"
           + (f" + {' '.join(doc['melds'])}" if doc["melds"] else "")
           + (f", void {doc['void_suit']}" if doc["void_suit"] else "")
           + (f", visible {doc['visible']}" if doc["visible"] else "")]
    s = sh["all"]
    if s == -1:
        label = " (complete: 胡)"
    elif s == 0:
        label = " (ready: 下叫)" if waiting else " (ready after a discard)"
    else:
        label = ""
    out.append(f"shanten: {_shanten_text(s)}{label}; regular {_shanten_text(sh['regular'])}, "
               f"seven pairs {_shanten_text(sh['seven_pairs'])}, "
               f"without the void rule {_shanten_text(sh['no_void_rule'])}")
    if waiting:
        if doc["waits"]:
            waits = ", ".join(f"{w['tile']} ({w['left']} left)" for w in doc["waits"])
            out.append(f"waits: {waits}; {sum(w['left'] for w in doc['waits'])} tiles left")
        else:
            out.append("waits: none (not ready)")
        eff = " ".join(f"{e['tile']}:{e['left']}" for e in doc["effective"])
        out.append(f"effective tiles: {eff or 'none'} ({doc['effective_count']} tiles left)")
        dj = doc["da_jiao"]
        if dj is not None:
            if dj["fan"] is None:
                out.append("大叫: none (every wait is dead, 死叫)")
            else:
                out.append(f"大叫: {dj['fan']}番 on {dj['best_wait']} (pays {dj['payment']})")
            for w in dj["waits"]:
                dead = " (dead)" if w["dead"] else ""
                items = " + ".join(f"{i['zh']} {i['fan']}" for i in w["items"])
                out.append(f"  {w['tile']}: {w['fan']}番 {items}{dead} | {w['decomposition']}")
    else:
        out.append("discards (best first):")
        for d in doc["discards"]:
            eff = " ".join(d["effective"])
            line = (f"  {d['tile']:<3} shanten {_shanten_text(d['shanten'])}, "
                    f"{d['effective_count']} tiles ({eff or '-'})")
            if d["da_jiao"]:
                line += f"; 大叫 {d['da_jiao']['fan']}番 on {d['da_jiao']['best_wait']}"
            out.append(line)
    print("\n".join(out))


# ----------------------------------------------------------------------------------------------
# score
# ----------------------------------------------------------------------------------------------

_SCORE_FLAGS = ("self_drawn", "after_kong", "after_kong_discard", "robbing_kong", "last_tile",
                "tian_hu", "di_hu")


def cmd_score(args: argparse.Namespace) -> int:
    """The fan breakdown of a win (mjfast.scoring.score)."""
    from . import scoring
    from .tiles import parse_tile

    style = args.style
    hand = _hand(args.hand)
    melds = _melds(args.meld)
    void = _void(args.void)
    rules = _rules(args.rules, args.option)
    try:
        win = parse_tile(args.win)
    except TileParseError as exc:
        raise CLIError(f"--win: {exc}") from None
    if int(hand.sum()) == 13 - 3 * len(melds):  # the hand without the win tile: add it
        if hand[win] >= 4:
            raise CLIError(f"--win: {format_tile(win)} is already held 4 times")
        hand = hand.copy()
        hand[win] += 1
    flags = {f: getattr(args, f) for f in _SCORE_FLAGS}
    try:
        res = scoring.score(hand, win_tile=win, melds=melds or None, void_suit=void, rules=rules,
                            **flags)
    except (InvalidHandError, ValueError) as exc:
        raise CLIError(str(exc)) from None
    doc = {
        "hand": format_hand(hand, style), "win": format_tile(win, style),
        "melds": [str(m) for m in melds], "void_suit": void, "rules": rules.name,
        "flags": [f for f, on in flags.items() if on],
        "is_win": res.is_win, "fan": res.fan, "raw_fan": res.raw_fan,
        "multiplier": res.multiplier, "items": _fan_items(res.items),
        "decomposition": None if res.decomposition is None else str(res.decomposition),
    }
    if args.json:
        _print_json(doc)
        return 0
    head = f"{doc['hand']}" + (f" + {' '.join(doc['melds'])}" if melds else "") + \
        f", win on {doc['win']}" + (f" ({', '.join(doc['flags'])})" if doc["flags"] else "")
    if not res.is_win:
        print(f"{head}: not a win")
        return 0
    uncapped = "" if res.raw_fan == res.fan else f", {res.raw_fan} uncapped"
    lines = [head, f"{res.fan}番 (x{res.multiplier}{uncapped}, rules {rules.name})"]
    for f, n in res.items:
        lines.append(f"  {f.zh} ({f.name.lower()}) {n}")
    lines.append(f"reading: {res.decomposition}")
    print("\n".join(lines))
    return 0


# ----------------------------------------------------------------------------------------------
# settle
# ----------------------------------------------------------------------------------------------

def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CLIError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CLIError(f"{path}: is a directory, expected a file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CLIError(f"{path}: cannot read: {exc}") from None


def cmd_settle(args: argparse.Namespace) -> int:
    """Replay a Round event log and print the payments."""
    from .settlement import Round

    text = _read_text(args.events)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CLIError(f"{args.events}: invalid JSON at line {exc.lineno} column {exc.colno}: "
                       f"{exc.msg}") from None
    try:
        rnd = Round.from_json(doc)
    except (ValueError, TypeError, KeyError) as exc:
        raise CLIError(f"{args.events}: {exc}") from None
    events = rnd.events
    transfers = rnd.transfers
    net = [int(x) for x in rnd.net]
    matrix = [[int(x) for x in row] for row in rnd.matrix]
    if args.json:
        _print_json({
            "rules": rnd.rules.name, "players": rnd.players, "dealer": rnd.dealer,
            "events": len(events), "winners": list(rnd.winners), "is_over": rnd.is_over,
            "transfers": [{"payer": t.payer, "receiver": t.receiver, "amount": t.amount,
                           "reason": t.reason.value, "reason_zh": t.reason.zh, "fan": t.fan,
                           "event": t.event} for t in transfers],
            "net": net, "matrix": matrix})
        return 0
    lines = [f"rules {rnd.rules.name}, {rnd.players} players, dealer {rnd.dealer}, "
             f"{len(events)} events" + (f", winners in order: {list(rnd.winners)}"
                                        if rnd.winners else "")]
    for t in transfers:
        what = "" if t.event is None else f"event {t.event} ({events[t.event].get('type', '?')}): "
        fan = "" if t.fan is None else f", {t.fan}番"
        lines.append(f"  {what}player {t.payer} pays player {t.receiver} {t.amount} "
                     f"({t.reason.zh} {t.reason.value}{fan})")
    if not transfers:
        lines.append("  no payments")
    lines.append("who pays whom in total:")
    for i in range(rnd.players):
        for j in range(rnd.players):
            if matrix[i][j]:
                lines.append(f"  {i} -> {j}: {matrix[i][j]}")
    lines.append("net: " + "  ".join(f"player {i} {v:+d}" for i, v in enumerate(net)))
    print("\n".join(lines))
    return 0


# ----------------------------------------------------------------------------------------------
# stats
# ----------------------------------------------------------------------------------------------

STATS_CHUNK = 1 << 16
_HIST = 129  # shanten -1..127 -> bins 0..128


def _popcount32(a: np.ndarray) -> np.ndarray:
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(a)
    return np.unpackbits(a.astype("<u4").view(np.uint8).reshape(-1, 4), axis=1).sum(axis=1)


def _stats_chunk(n: int, tiles: int, seed: np.random.SeedSequence) -> dict[str, Any]:
    """Deal ``n`` hands and return the tallies of one chunk (sums, so chunks add up)."""
    from ._benchsuite import deal

    rng = np.random.Generator(np.random.PCG64(seed))
    hands = deal(n, tiles, seed=rng)
    s_void = analysis.shanten(hands)
    s_free = analysis.shanten(hands, void_rule=False)
    t: dict[str, Any] = {
        "void": np.bincount(s_void.astype(np.int64) + 1, minlength=_HIST),
        "free": np.bincount(s_free.astype(np.int64) + 1, minlength=_HIST),
    }
    if tiles == 13:
        ready = s_void == 0
        t["waits_sum"] = int(_popcount32(analysis.waits(hands[ready])).sum()) if ready.any() else 0
        t["waits_hands"] = int(ready.sum())
        eff = efficiency.effective_tiles(hands)
        t["eff_kinds"] = int((eff >= 0).sum())
        t["eff_copies"] = int(np.where(eff > 0, eff, 0).sum(dtype=np.int64))
        return t
    # 14 tiles: the best discard, ranked as mjfast.advise does (shanten, copies left, kind)
    after = efficiency.discards(hands)
    after = np.where(after == efficiency.NOT_HELD, np.int8(127), after)
    best = after.min(axis=1)
    rows, kinds = np.nonzero(after == best[:, None])
    m = rows.size
    rest = hands[rows]
    rest[np.arange(m), kinds] -= 1
    seen = np.zeros_like(rest)
    seen[np.arange(m), kinds] = 1  # the discarded copy is seen
    eff = efficiency.effective_tiles(rest, visible=seen)
    copies = np.where(eff > 0, eff, 0).sum(axis=1, dtype=np.int64)
    nkinds = (eff >= 0).sum(axis=1).astype(np.int64)
    key = copies * 1024 + (31 - kinds.astype(np.int64)) * 32 + nkinds
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    top = np.maximum.reduceat(key, starts)  # one group per row, in row order
    t["eff_copies"] = int((top // 1024).sum())
    t["eff_kinds"] = int((top % 32).sum())
    chosen = 31 - (top // 32) % 32
    ready = best <= 0
    t["waits_hands"] = int(ready.sum())
    if ready.any():
        r13 = hands[ready]
        r13[np.arange(r13.shape[0]), chosen[ready]] -= 1
        t["waits_sum"] = int(_popcount32(analysis.waits(r13)).sum())
    else:
        t["waits_sum"] = 0
    return t


def _hist_doc(hist: np.ndarray) -> dict[str, int]:
    return {str(i - 1): int(c) for i, c in enumerate(hist) if c}


def run_stats(hands: int, tiles: int = 14, seed: Optional[int] = None, workers: int = 1,
              progress: Optional[Progress] = None) -> dict[str, Any]:
    """Deal ``hands`` random hands in chunks of 65,536 (each chunk seeded from ``seed``, so the
    result does not depend on ``workers``) and return the statistics as a JSON-ready dict."""
    if tiles not in (13, 14):
        raise CLIError(f"--tiles: expected 13 or 14, got {tiles}")
    if seed is None:
        seed = secrets.randbits(32)
    bounds = [(i, min(hands, i + STATS_CHUNK)) for i in range(0, hands, STATS_CHUNK)]
    seeds = np.random.SeedSequence(seed).spawn(len(bounds))
    total: dict[str, Any] = {}
    done = 0
    t0 = time.perf_counter()

    def add(t: dict[str, Any]) -> None:
        for key, value in t.items():
            total[key] = total[key] + value if key in total else value

    jobs = list(zip(bounds, seeds))
    if workers <= 1:
        for (a, b), sq in jobs:
            add(_stats_chunk(b - a, tiles, sq))
            done += b - a
            if progress:
                progress.update(done)
    else:
        with cf.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mjfast-stats") as pool:
            futures = {pool.submit(_stats_chunk, b - a, tiles, sq): b - a for (a, b), sq in jobs}
            try:
                for fut in cf.as_completed(futures):
                    add(fut.result())
                    done += futures[fut]
                    if progress:
                        progress.update(done)
            except BaseException:
                for fut in futures:
                    fut.cancel()
                raise
    seconds = time.perf_counter() - t0
    if progress:
        progress.close()
    void, free = total["void"], total["free"]
    values = np.arange(_HIST) - 1

    def mean(h: np.ndarray) -> float:
        return float((h * values).sum() / max(1, h.sum()))

    def ready(h: np.ndarray) -> float:  # shanten -1 or 0 (14 tiles: ready after a discard)
        return float(h[:2].sum() / max(1, h.sum()))

    doc: dict[str, Any] = {
        "hands": hands, "tiles": tiles, "seed": seed, "workers": workers, "wall": 108,
        "shanten": {"void_rule": _hist_doc(void), "no_void_rule": _hist_doc(free)},
        "mean_shanten": {"void_rule": mean(void), "no_void_rule": mean(free)},
        "ready_rate": {"void_rule": ready(void), "no_void_rule": ready(free)},
        "complete_rate": ({"void_rule": float(void[0] / hands), "no_void_rule": float(free[0] / hands)}
                          if tiles == 14 else None),
        "complete_hands": int(void[0]) if tiles == 14 else None,
        "ready_hands": total["waits_hands"],
        "mean_waits": total["waits_sum"] / total["waits_hands"] if total["waits_hands"] else None,
        "mean_effective": {"kinds": total["eff_kinds"] / hands, "tiles": total["eff_copies"] / hands},
        "seconds": seconds, "hands_per_s": hands / seconds if seconds > 0 else None,
    }
    if tiles == 13:
        doc["ready_rate"] = {"void_rule": float(void[1] / hands), "no_void_rule": float(free[1] / hands)}
    return doc


def cmd_stats(args: argparse.Namespace) -> int:
    """Statistics of random dealt hands."""
    progress = Progress(args.hands, "stats", "hands")
    doc = run_stats(args.hands, args.tiles, args.seed, args.workers, progress)
    if args.json:
        _print_json(doc)
        return 0
    n, tiles = doc["hands"], doc["tiles"]
    void = {int(k): v for k, v in doc["shanten"]["void_rule"].items()}
    free = {int(k): v for k, v in doc["shanten"]["no_void_rule"].items()}
    out = [f"{n:,} random {tiles}-tile hands from the 108-tile wall (seed {doc['seed']}, "
           f"{doc['workers']} worker{'s' if doc['workers'] != 1 else ''})", "",
           f"{'shanten':>8}  {'void rule (缺一门)':>23}  {'no void rule':>22}"]
    for s in sorted(set(void) | set(free)):
        a, b = void.get(s, 0), free.get(s, 0)
        out.append(f"{_shanten_text(s):>8}  {a:>12,} {a / n:>9.4%}  {b:>12,} {b / n:>9.4%}")
    out.append(f"{'mean':>8}  {doc['mean_shanten']['void_rule']:>22.3f}  "
               f"{doc['mean_shanten']['no_void_rule']:>22.3f}")
    out.append("")
    ready_what = "ready (shanten 0)" if tiles == 13 else "ready after the best discard (shanten <= 0)"
    rr = doc["ready_rate"]
    out.append(f"{ready_what}: {rr['void_rule']:.3%} (void rule), {rr['no_void_rule']:.3%} "
               "(no void rule)")
    if tiles == 14:
        c = doc["complete_hands"]
        one_in = f", 1 in {n / c:,.0f}" if c else ""
        out.append(f"天胡 (complete dealt hand, void rule): {c:,} = {doc['complete_rate']['void_rule']:.4%}"
                   f"{one_in}; no void rule: {doc['complete_rate']['no_void_rule']:.4%}")
    where = "" if tiles == 13 else " after the best discard"
    mw = doc["mean_waits"]
    out.append(f"mean waits of ready hands{where}: "
               + ("-" if mw is None else f"{mw:.3f} kinds") + f" ({doc['ready_hands']:,} hands)")
    me = doc["mean_effective"]
    out.append(f"mean effective tiles{where}: {me['kinds']:.3f} kinds, {me['tiles']:.3f} tiles left")
    out.append(f"throughput: {n:,} hands in {doc['seconds']:.2f} s = "
               f"{rate_text(doc['hands_per_s'] or 0)} hands/s")
    print("\n".join(out))
    return 0


# ----------------------------------------------------------------------------------------------
# batch
# ----------------------------------------------------------------------------------------------

BATCH_CHUNK = 1 << 16
WHAT = ("shanten", "waits", "effective", "max_fan")
NOT_READY = -1
"""What the ``max_fan`` column holds for a hand that is not ready."""
_NPY_FIELDS = {"shanten": ("i1", ()), "waits": ("<u4", ()), "effective": ("i1", (27,)),
               "max_fan": ("<i2", ())}


class _Rows:
    """One chunk of input: counts, the input position of each row, and per-row parse errors."""

    def __init__(self, counts: np.ndarray, where: np.ndarray, errors: dict[int, str]):
        self.counts, self.where, self.errors = counts, where, errors


_ALLOWED = np.zeros(256, bool)
for _c in b"123456789mps \t\r\n\x0b\x0c":
    _ALLOWED[_c] = True
_SUIT = np.full(256, -1, np.int16)
_SUIT[ord("m")], _SUIT[ord("p")], _SUIT[ord("s")] = 0, 1, 2
_WS = b" \t\r\n\x0b\x0c"


def parse_lines(lines: Sequence[bytes]) -> tuple[np.ndarray, dict[int, str]]:
    """Parse hand strings (UTF-8 bytes, one per item) into (n, 27) uint8 counts.

    Lines of plain mpsz digits and suit letters are parsed at once with numpy; any other line
    (Chinese or Unicode tiles, or a mistake) goes through :func:`mjfast.parse_hand`, which gives
    the error message. Returns the counts (zero rows where parsing failed) and ``{index: message}``.

    >>> c, err = parse_lines([b"123m 55p", b"1z", "1筒".encode()])
    >>> format_hand(c[0]), format_hand(c[2]), err
    ('123m55p', '1p', {1: "position 1 of '1z': honour tiles (z) are not used in Sichuan mahjong (only m, p, s)"})
    """
    n = len(lines)
    counts = np.zeros((n, 27), np.uint8)
    errors: dict[int, str] = {}
    if n == 0:
        return counts, errors
    buf = b"\n".join(lines) + b"\n"
    a = np.frombuffer(buf, np.uint8)
    is_nl = a == 10
    line_of = np.cumsum(is_nl) - is_nl
    is_digit = (a >= 49) & (a <= 57)
    suit = _SUIT[a]
    is_suit = suit >= 0
    nxt_ok = np.zeros(a.size, bool)
    nxt_ok[:-1] = is_digit[1:] | is_suit[1:]
    prev_digit = np.zeros(a.size, bool)
    prev_digit[1:] = is_digit[:-1]
    bad = ~_ALLOWED[a] | (is_digit & ~nxt_ok) | (is_suit & ~prev_digit)
    slow = np.zeros(n, bool)
    slow[line_of[bad]] = True
    pos = np.where(is_suit, np.arange(a.size), a.size - 1)
    next_suit = np.minimum.accumulate(pos[::-1])[::-1]
    digits = np.flatnonzero(is_digit & ~slow[line_of])
    kind = suit[next_suit[digits]].astype(np.intp) * 9 + (a[digits].astype(np.intp) - 49)
    flat = np.bincount(line_of[digits] * 27 + kind, minlength=n * 27).reshape(n, 27)
    slow |= (flat > 4).any(axis=1)  # a fifth copy: let parse_hand word the error
    fast = ~slow
    counts[fast] = flat[fast]
    for i in np.flatnonzero(slow):
        raw = lines[i]
        try:
            counts[i] = parse_hand(raw.decode("utf-8"))
        except UnicodeDecodeError:
            errors[int(i)] = "not valid UTF-8 text"
        except TileParseError as exc:
            errors[int(i)] = str(exc)
    return counts, errors


def _text_rows(path: str, chunk: int) -> Iterator[_Rows]:
    """Hands from a text or CSV file, one per line; blank lines are skipped.

    In a ``.csv`` file the hand is the first field (quotes stripped) and a first row whose
    first field is ``hand`` is a header.
    """
    csv = path.lower().endswith(".csv")
    with open(path, "rb") as f:
        batch: list[bytes] = []
        where: list[int] = []
        first = True
        for lineno, line in enumerate(f, 1):
            if csv:
                line = line.split(b",", 1)[0].strip().strip(b'"').strip()
            else:
                line = line.strip(_WS)
            if not line:
                continue
            if first:
                first = False
                if csv and line.lower() == b"hand":
                    continue
            batch.append(line)
            where.append(lineno)
            if len(batch) == chunk:
                counts, errors = parse_lines(batch)
                yield _Rows(counts, np.array(where), errors)
                batch, where = [], []
        if batch:
            counts, errors = parse_lines(batch)
            yield _Rows(counts, np.array(where), errors)


def _count_text_rows(path: str) -> int:
    csv = path.lower().endswith(".csv")
    n = 0
    first = True
    with open(path, "rb") as f:
        for line in f:
            if csv:
                line = line.split(b",", 1)[0].strip().strip(b'"').strip()
            else:
                line = line.strip(_WS)
            if line:
                if first:
                    first = False
                    if csv and line.lower() == b"hand":
                        continue
                n += 1
    return n


def _open_npy(path: str) -> np.ndarray:
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except FileNotFoundError:
        raise CLIError(f"{path}: no such file") from None
    except (OSError, ValueError) as exc:
        raise CLIError(f"{path}: not a readable .npy array: {exc}") from None
    if not isinstance(arr, np.ndarray) or arr.ndim != 2 or arr.shape[1] != 27:
        raise CLIError(f"{path}: expected an (N, 27) array of tile counts, got shape "
                       f"{getattr(arr, 'shape', '?')}")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise CLIError(f"{path}: expected an integer dtype (uint8), got {arr.dtype}")
    return arr


def _npy_rows(arr: np.ndarray, chunk: int) -> Iterator[_Rows]:
    for start in range(0, arr.shape[0], chunk):
        block = np.asarray(arr[start:start + chunk])
        errors: dict[int, str] = {}
        if block.dtype != np.uint8:
            out_of_range = (block < 0) | (block > 4)
            for i in np.flatnonzero(out_of_range.any(axis=1)):
                k = int(np.flatnonzero(out_of_range[i])[0])
                errors[int(i)] = (f"tile {format_tile(k)} has count {int(block[i, k])} "
                                  "(must be 0..4)")
            block = np.where(out_of_range, 0, block)
        yield _Rows(np.ascontiguousarray(block, dtype=np.uint8),
                    np.arange(start, start + block.shape[0]), errors)


class _Computer:
    """Runs the requested kernels over one chunk with ``errors="coerce"`` and finds bad rows."""

    def __init__(self, what: Sequence[str], *, form: str, void_rule: bool, void: Optional[str],
                 workers: int, rules: Any) -> None:
        self.what, self.form, self.void_rule, self.void = what, form, void_rule, void
        self.workers, self.rules = workers, rules
        self.kw = dict(void_rule=void_rule, void_suit=void, workers=workers)

    def _call(self, name: str, hands: np.ndarray, errors: str = "coerce") -> Any:
        if name == "shanten":
            return analysis.shanten(hands, form=self.form, errors=errors, **self.kw)
        if name == "waits":
            return analysis.waits(hands, errors=errors, **self.kw)
        if name == "effective":
            return efficiency.effective_tiles(hands, form=self.form, errors=errors, **self.kw)
        raise KeyError(name)

    def compute(self, rows: _Rows, reasons: bool = True) -> tuple[dict[str, np.ndarray], dict[int, str]]:
        """The output columns and ``{row index in chunk: error}`` for every bad row.

        With ``reasons=False`` only the first bad row's error is worded (the others get "").
        """
        hands = rows.counts
        n = hands.shape[0]
        cols: dict[str, np.ndarray] = {}
        bad = np.zeros(n, bool)
        bad_by: dict[str, np.ndarray] = {}
        need_waits = "waits" in self.what or "max_fan" in self.what
        for name in ("shanten", "waits", "effective"):
            if name not in self.what and not (name == "waits" and need_waits):
                continue
            col = self._call(name, hands)
            if name == "shanten":
                b = col == analysis.INVALID_ROW
            elif name == "waits":
                b = col == analysis.INVALID_MASK
            else:
                b = col[:, 0] == analysis.INVALID_ROW
            bad_by[name] = b
            bad |= b
            cols[name] = col
        if "max_fan" in self.what:
            cols["max_fan"] = self._max_fan(hands, cols["waits"], bad_by["waits"])
            if "waits" not in self.what:
                del cols["waits"]
        errors = dict(rows.errors)
        for i in rows.errors:
            for name, col in cols.items():
                col[i] = analysis.INVALID_MASK if name == "waits" else analysis.INVALID_ROW
        first = min(errors) if errors else n
        for i in np.flatnonzero(bad):
            i = int(i)
            if i in errors:
                continue
            errors[i] = self._reason(hands[i:i + 1], bad_by, i) if reasons or i < first else ""
            first = min(first, i)
        return cols, errors

    def _max_fan(self, hands: np.ndarray, waits: np.ndarray, bad: np.ndarray) -> np.ndarray:
        """F per row (-1 not ready, INVALID_ROW bad): the batch kernel of ``mjfast.fan_batch``
        on the ready rows, or ``mjfast.scoring.max_fan`` per ready row where it is missing."""
        fan = np.full(hands.shape[0], NOT_READY, np.int16)
        fan[bad] = analysis.INVALID_ROW
        ready = np.flatnonzero((waits != 0) & ~bad)
        if not ready.size:
            return fan
        try:
            from .fan_batch import max_fan as batch_max_fan
        except ImportError:
            batch_max_fan = None
        if batch_max_fan is not None:
            fan[ready] = batch_max_fan(np.ascontiguousarray(hands[ready]), void_suit=self.void,
                                       rules=self.rules, workers=self.workers)
            return fan
        from .scoring import max_fan

        for i in ready:
            res = max_fan(hands[i], void_suit=self.void, rules=self.rules)
            if res.fan is not None:
                fan[i] = res.fan
        return fan

    def _reason(self, row: np.ndarray, bad_by: dict[str, np.ndarray], i: int) -> str:
        for name, b in bad_by.items():
            if b[i]:
                try:
                    self._call(name, row, errors="raise")
                except (InvalidHandError, ValueError) as exc:
                    msg = str(exc)
                    return msg.split(": ", 1)[1] if msg.startswith("hands[") else msg
        return "invalid hand"


class _NpyWriter:
    """A .npy written in place (``open_memmap``): one plain array for one quantity, else a
    structured array with one field per quantity."""

    def __init__(self, path: str, what: Sequence[str], n: int) -> None:
        self.what = list(what)
        if len(what) == 1:
            base, shape = _NPY_FIELDS[what[0]]
            dtype, full = np.dtype(base), (n,) + shape
        else:
            dtype, full = np.dtype([(w, *_NPY_FIELDS[w]) for w in what]), (n,)
        self.out = np.lib.format.open_memmap(path, mode="w+", dtype=dtype, shape=full)
        self.pos = 0

    def write(self, rows: _Rows, cols: dict[str, np.ndarray], errors: dict[int, str]) -> None:
        n = rows.counts.shape[0]
        sl = slice(self.pos, self.pos + n)
        if len(self.what) == 1:
            self.out[sl] = cols[self.what[0]]
        else:
            for w in self.what:
                self.out[w][sl] = cols[w]
        self.pos += n

    def close(self) -> None:
        self.out.flush()
        del self.out


class _TextWriter:
    """CSV (header + one row per hand) or JSON Lines; tiles in the chosen style."""

    def __init__(self, path: str, what: Sequence[str], pos_name: str, style: str,
                 jsonl: bool) -> None:
        self.what, self.pos_name, self.style, self.jsonl = list(what), pos_name, style, jsonl
        self.f = open(path, "w", encoding="utf-8", newline="")
        if not self.jsonl:
            self.f.write(",".join([pos_name, *self.what, "error"]) + "\n")
        self.names = [format_tile(k, style) for k in range(27)]

    def _waits(self, mask: int) -> list[str]:
        return [self.names[t] for t in range(27) if mask >> t & 1]

    def write(self, rows: _Rows, cols: dict[str, np.ndarray], errors: dict[int, str]) -> None:
        where = rows.where.tolist()
        lists = {w: cols[w].tolist() for w in self.what}
        out = []
        for i in range(len(where)):
            err = errors.get(i)
            rec: dict[str, Any] = {self.pos_name: where[i]}
            for w in self.what:
                v = lists[w][i]
                if err is not None:
                    v = None
                elif w == "waits":
                    v = self._waits(v)
                elif w == "effective":
                    v = {self.names[k]: c for k, c in enumerate(v) if c >= 0}
                elif w == "max_fan" and v == NOT_READY:
                    v = None
                rec[w] = v
            if self.jsonl:
                if err is not None:
                    rec["error"] = err
                out.append(json.dumps(rec, ensure_ascii=False))
            else:
                cells = [str(where[i])]
                for w in self.what:
                    v = rec[w]
                    if v is None:
                        cells.append("")
                    elif w == "waits":
                        cells.append(" ".join(v))
                    elif w == "effective":
                        cells.append(" ".join(f"{k}:{c}" for k, c in v.items()))
                    else:
                        cells.append(str(v))
                cells.append("" if err is None else '"' + err.replace('"', '""') + '"')
                out.append(",".join(cells))
        self.f.write("\n".join(out) + "\n" if out else "")

    def close(self) -> None:
        self.f.close()


def cmd_batch(args: argparse.Namespace) -> int:
    """Shanten / waits / effective tiles / max fan of every hand of a file."""
    what = [w.strip() for w in args.what.split(",") if w.strip()]
    unknown = [w for w in what if w not in WHAT]
    if not what or unknown:
        raise CLIError(f"--what: expected a comma list of {', '.join(WHAT)}, got {args.what!r}")
    what = list(dict.fromkeys(what))
    if "max_fan" in what and args.no_void_rule:
        raise CLIError("--what max_fan: the fan always applies the void rule; drop --no-void-rule")
    void = _void(args.void)
    if void and args.no_void_rule:
        raise CLIError("--void needs the void rule; drop --no-void-rule")
    rules = _rules(args.rules, args.option) if "max_fan" in what else None
    src, dst = args.input, args.output
    if not os.path.exists(src):
        raise CLIError(f"{src}: no such file")
    if os.path.isdir(src):
        raise CLIError(f"{src}: is a directory, expected a file")
    out_kind = Path(dst).suffix.lower()
    if out_kind not in (".npy", ".csv", ".jsonl"):
        raise CLIError(f"{dst}: the output must end in .npy, .csv or .jsonl")
    if os.path.abspath(src) == os.path.abspath(dst):
        raise CLIError(f"{dst}: the output would overwrite the input")
    is_npy = src.lower().endswith(".npy")
    if is_npy:
        arr = _open_npy(src)
        total = arr.shape[0]
        chunks = _npy_rows(arr, args.chunk)
        pos_name, where_text = "row", "row"
    else:
        try:
            total = _count_text_rows(src)
        except OSError as exc:
            raise CLIError(f"{src}: cannot read: {exc}") from None
        chunks = _text_rows(src, args.chunk)
        pos_name, where_text = "line", "line"
    part = dst + ".part"
    writer: Any
    try:
        writer = (_NpyWriter(part, what, total) if out_kind == ".npy"
                  else _TextWriter(part, what, pos_name, args.style, jsonl=out_kind == ".jsonl"))
    except OSError as exc:
        raise CLIError(f"{dst}: cannot write: {exc}") from None
    computer = _Computer(what, form=args.form, void_rule=not args.no_void_rule, void=void,
                         workers=args.workers, rules=rules)
    progress = Progress(total, "batch", "rows")
    done = bad_rows = 0
    first_bad: Optional[str] = None
    t0 = time.perf_counter()
    ok = False
    try:
        for rows in chunks:
            cols, errors = computer.compute(rows, reasons=out_kind != ".npy")
            if errors:
                i = min(errors)
                msg = f"{src}: {where_text} {int(rows.where[i])}: {errors[i]}"
                if args.errors == "raise":
                    raise CLIError(msg + " (use --errors coerce to mark bad rows and go on)")
                bad_rows += len(errors)
                first_bad = first_bad or msg
            writer.write(rows, cols, errors)
            done += rows.counts.shape[0]
            progress.update(done)
        ok = True
    except OSError as exc:
        raise CLIError(f"{src}: cannot read: {exc}") from None
    finally:
        progress.close()
        writer.close()
        if ok:
            os.replace(part, dst)
        else:
            try:
                os.remove(part)
            except OSError:
                pass
    seconds = time.perf_counter() - t0
    note = (f"; {bad_rows:,} bad row{'s' if bad_rows != 1 else ''} marked (first: {first_bad})"
            if bad_rows else "")
    print(f"{PROG}: batch: {done:,} rows -> {dst} in {seconds:.2f} s "
          f"({rate_text(done / max(seconds, 1e-9))} rows/s){note}", file=sys.stderr)
    return 0


# ----------------------------------------------------------------------------------------------
# bench
# ----------------------------------------------------------------------------------------------

def cmd_bench(args: argparse.Namespace) -> int:
    """Run the benchmark set and print hands/s with ratios to the installed peers."""
    if "OPENBLAS_NUM_THREADS" not in os.environ and not os.environ.get("MJFAST_BENCH_CHILD"):
        # numpy is loaded already: rerun with OpenBLAS pinned to one thread (KERNELS.md)
        import subprocess

        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MJFAST_BENCH_CHILD="1")
        return subprocess.call([sys.executable, "-m", "mjfast", *args.argv], env=env)
    from . import _benchsuite as bs

    names = None
    if args.case:
        names = []
        for pattern in args.case:
            matched = [c.name for c in bs.CASES if pattern in c.name]
            if not matched:
                raise CLIError(f"--case: no case matches {pattern!r}; cases: "
                               f"{', '.join(c.name for c in bs.CASES)}")
            names += [m for m in matched if m not in names]
    show = _progress_enabled(sys.stderr)

    def progress(case: Any) -> None:
        if show:
            sys.stderr.write(f"\r\033[Kbench: {case.name} ...")
            sys.stderr.flush()

    results = bs.run_suite(quick=args.quick, names=names, progress=progress)
    if show:
        sys.stderr.write("\r\033[K")
    info = bs.machine_info()
    if args.json:
        _print_json({"machine": info, "quick": args.quick, "results": [r.to_json() for r in results]})
    elif args.markdown:
        print(bs.format_markdown(results))
    else:
        print(f"mjfast bench{' --quick' if args.quick else ''}: {info['cpus']} CPUs, Python "
              f"{info['python']}, numpy {info['numpy']}, OPENBLAS_NUM_THREADS="
              f"{info['OPENBLAS_NUM_THREADS']}")
        print(bs.format_table(results))
    return 0


# ----------------------------------------------------------------------------------------------
# Parser
# ----------------------------------------------------------------------------------------------

def _add_hand_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--meld", action="append", metavar="KIND:TILE",
                   help="a declared meld: pung:5p, kong:1m (exposed), kong_added:3s, "
                        "kong_concealed:9p; repeat or separate with commas")
    p.add_argument("--void", metavar="SUIT", help="the declared void suit (定缺): m, p or s")
    p.add_argument("--rules", default="chengdu", metavar="PRESET",
                   help="rules preset: chengdu (default) or qq")
    p.add_argument("--option", action="append", metavar="FIELD=VALUE",
                   help="override a Rules field, e.g. cap=4, cap=none, self_draw=add_fan, "
                        "si_jiao=true (repeatable)")
    p.add_argument("--style", choices=STYLES, default="mpsz",
                   help="how tiles print: mpsz (5p, default), zh (5筒) or unicode")
    p.add_argument("--json", action="store_true", help="print one JSON document")


def build_parser() -> argparse.ArgumentParser:
    """The ``mjfast`` argument parser (one subparser per command)."""
    from . import __version__

    fmt = argparse.RawDescriptionHelpFormatter
    parser = _Parser(prog=PROG, formatter_class=fmt,
                     description="Sichuan mahjong (成都麻将, 血战到底) analysis: shanten, waits, "
                                 "effective tiles, fan, settlement, statistics and batch runs.",
                     epilog="examples:\n  mjfast analyze 123m456m789m11p23p\n"
                            "  mjfast score 22244455577799m --win 9m\n"
                            "  mjfast stats --hands 1000000 --workers 2\n"
                            "run 'mjfast COMMAND --help' for the options of a command.")
    parser.add_argument("--version", action="version", version=f"mjfast {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                parser_class=_Parser)

    p = sub.add_parser(
        "analyze", help="shanten, waits, effective tiles, discards and 大叫 of one hand",
        formatter_class=fmt,
        description="Analyse one hand: shanten per form (with and without the void rule); for "
                    "13 - 3m tiles the waits with copies left, the effective tiles and, when "
                    "ready, the 大叫 value (max fan) per wait; for 14 - 3m tiles the discards "
                    "ranked by shanten after and effective tiles left (mjfast.advise).",
        epilog="examples:\n  mjfast analyze 123m456m789m11p23p\n"
               "  mjfast analyze '123m 456m 789m 23p 55p 9s' --visible 4p --style zh\n"
               "  mjfast analyze 11223m55p --meld pung:3m --meld kong:9m --void s --json")
    p.add_argument("hand", metavar="HAND", help="concealed tiles: 123m456p, 123万456筒 or Unicode tiles")
    p.add_argument("--visible", metavar="TILES",
                   help="tiles seen outside the hand (discards, other melds): not left to draw")
    _add_hand_options(p)
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser(
        "score", help="the fan of a win", formatter_class=fmt,
        description="Score a win (mjfast.scoring.score): the fan items, the capped fan and "
                    "multiplier, and the reading that gives it. HAND is the concealed tiles "
                    "including the win tile (a hand one tile short gets the win tile added). "
                    "A hand that does not win prints 'not a win' (exit status 0).",
        epilog="examples:\n  mjfast score 22244455577799m --win 9m\n"
               "  mjfast score '123m 234m 678m 99m' --meld pung:5m --win 9m --self-drawn --rules qq\n"
               "  mjfast score 11m234m --meld kong_concealed:9m --meld pung:5m --meld pung:7m "
               "--win 1m --after-kong --json")
    p.add_argument("hand", metavar="HAND", help="concealed tiles including the win tile")
    p.add_argument("--win", required=True, metavar="TILE", help="the winning tile, e.g. 5p")
    p.add_argument("--self-drawn", action="store_true", help="自摸: won on an own draw")
    p.add_argument("--after-kong", action="store_true", help="杠上花: on the replacement draw of an own kong")
    p.add_argument("--after-kong-discard", action="store_true",
                   help="杠上炮: on a discard made right after the discarder's kong")
    p.add_argument("--robbing-kong", action="store_true", help="抢杠胡: robbing an added kong")
    p.add_argument("--last-tile", action="store_true", help="海底: on the last tile")
    p.add_argument("--tian-hu", action="store_true", help="天胡: dealer wins on the dealt hand")
    p.add_argument("--di-hu", action="store_true", help="地胡: non-dealer wins on the first draw")
    _add_hand_options(p)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser(
        "settle", help="replay a Round event log and print who pays whom", formatter_class=fmt,
        description="Replay a Round event log (the JSON of mjfast.settlement.Round.to_json; "
                    "'-' reads standard input) and print every payment, the totals per pair "
                    "and the net per player.",
        epilog="example:\n  mjfast settle round.json\n"
               "  python -c 'from mjfast.settlement import Round; r = Round(); "
               "r.kong(1, \"5s\", \"kong_concealed\"); print(r.to_json())' | mjfast settle - --json")
    p.add_argument("events", metavar="EVENTS.json", help="the event log ('-' for stdin)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=cmd_settle)

    p = sub.add_parser(
        "stats", help="statistics of random dealt hands", formatter_class=fmt,
        description="Deal N random hands from the 108-tile wall (vectorised numpy, seeded, in "
                    "chunks of 65,536 so memory stays bounded and the result does not depend on "
                    "--workers) and report the shanten distribution with and without the void "
                    "rule, the ready rate, the mean number of waits and of effective tiles "
                    "(for 14 tiles: after the best discard, ranked like mjfast.advise), the rate "
                    "of complete dealt hands (天胡) and the throughput.",
        epilog="examples:\n  mjfast stats --hands 1000000 --workers 2\n"
               "  mjfast stats --hands 100000 --tiles 13 --seed 7 --json")
    p.add_argument("--hands", type=_positive, default=100_000, metavar="N",
                   help="hands to deal (default 100,000)")
    p.add_argument("--tiles", type=int, choices=(13, 14), default=14,
                   help="tiles per hand: 14 (the dealer's hand, default) or 13")
    p.add_argument("--seed", type=int, default=None,
                   help="random seed (default: a fresh one, printed with the results)")
    p.add_argument("--workers", type=_workers, default="-1",
                   metavar="W", help="threads (-1 = all cores, the default)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser(
        "batch", help="shanten / waits / effective tiles / max fan of a file of hands",
        formatter_class=fmt,
        description="INPUT: an .npy (N, 27) integer array of tile counts (read with mmap), or a "
                    "text file with one hand string per line (.csv: the first field, with an "
                    "optional 'hand' header; blank lines are skipped). It is streamed in chunks, "
                    "so memory stays bounded.\n\n"
                    "OUTPUT by suffix:\n"
                    "  .npy   one quantity: a plain array - shanten (N,) int8, waits (N,) uint32 "
                    "27-bit masks,\n"
                    "         effective (N, 27) int8 (-1 = not effective, else copies left), "
                    "max_fan (N,) int16;\n"
                    "         several: a structured array with one field per quantity "
                    "(out['shanten'], ...).\n"
                    "         Rows follow the input rows (for text: the non-blank lines).\n"
                    "  .csv   a header, then one row per hand: line (or row), the quantities, "
                    "error;\n"
                    "         waits as tiles '1p 4p', effective as '1p:4 4p:3'.\n"
                    "  .jsonl one object per hand: {\"line\": 3, \"shanten\": 0, \"waits\": "
                    "[\"1p\", \"4p\"], ...}.\n\n"
                    "max_fan is the 大叫 fan (uncapped, display numbering) of a ready 13 - 3m "
                    "hand, -1 when not ready (empty/null in csv/jsonl).\n"
                    "A bad row stops the run with its line (or row) number; with --errors coerce "
                    "it is marked and the run goes on: INVALID_ROW = -100 in int8/int16 columns "
                    "(every effective entry), INVALID_MASK = 0xFFFFFFFF in waits, and the reason "
                    "in the csv/jsonl 'error' field.",
        epilog="examples:\n  mjfast batch hands.npy shanten.npy\n"
               "  mjfast batch hands.txt out.csv --what shanten,waits,max_fan\n"
               "  mjfast batch hands.npy out.npy --what shanten,waits,effective --errors coerce")
    p.add_argument("input", metavar="INPUT", help="hands: .npy (N, 27) counts, or text/CSV")
    p.add_argument("output", metavar="OUTPUT", help="results: .npy, .csv or .jsonl")
    p.add_argument("--what", default="shanten", metavar="LIST",
                   help=f"comma list of {', '.join(WHAT)} (default shanten)")
    p.add_argument("--form", choices=("all", "regular", "seven_pairs"), default="all",
                   help="shanten form for shanten and effective (default all)")
    p.add_argument("--no-void-rule", action="store_true",
                   help="drop the void rule (riichi-style numbers)")
    p.add_argument("--void", metavar="SUIT", help="declared void suit for every hand: m, p or s")
    p.add_argument("--errors", choices=("raise", "coerce"), default="raise",
                   help="stop at the first bad row (raise, default) or mark it and go on (coerce)")
    p.add_argument("--workers", type=_workers, default="-1",
                   metavar="W", help="kernel threads (-1 = all cores, the default)")
    p.add_argument("--chunk", type=_positive, default=BATCH_CHUNK, metavar="ROWS",
                   help=f"rows per chunk (default {BATCH_CHUNK:,})")
    p.add_argument("--rules", default="chengdu", metavar="PRESET", help="rules preset for max_fan")
    p.add_argument("--option", action="append", metavar="FIELD=VALUE",
                   help="override a Rules field for max_fan (repeatable)")
    p.add_argument("--style", choices=STYLES, default="mpsz", help="tile style in csv/jsonl")
    p.set_defaults(func=cmd_batch)

    p = sub.add_parser(
        "bench", help="run the benchmark set (hands/s, ratios to installed peers)",
        formatter_class=fmt,
        description="Time every public kernel on random hands from the 108-tile wall (the cases "
                    "of mjfast._benchsuite, shared with benchmarks/ and the README table) and "
                    "compare regular-form shanten (void rule off) with the peers that are "
                    "installed: riichienv, xiangting, mahjong (pip install 'mjfast[peers]'). "
                    "Each peer is checked against mjfast on its hands before it is timed. "
                    "Runs with OPENBLAS_NUM_THREADS=1.",
        epilog="examples:\n  mjfast bench --quick\n  mjfast bench --case shanten --case peer\n"
               "  mjfast bench --markdown > table.md")
    p.add_argument("--quick", action="store_true", help="small sizes (a few seconds)")
    p.add_argument("--case", action="append", metavar="NAME",
                   help="run only cases whose name contains NAME (repeatable)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON document")
    out.add_argument("--markdown", action="store_true", help="print the README table")
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 error, 130 interrupted)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        args.argv = argv
        return int(args.func(args) or 0)
    except CLIError as exc:
        return _fail(str(exc))
    except (TileParseError, InvalidHandError) as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        try:  # stdout went away (e.g. piped into head): exit quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 0
    except MemoryError:
        return _fail("out of memory (use smaller chunks: --chunk, or fewer --hands)")
    except (ValueError, OSError) as exc:  # a check of the library, or a file problem
        if os.environ.get("MJFAST_TRACEBACK"):
            raise
        return _fail(str(exc) or type(exc).__name__)


def _fail(message: str) -> int:
    message = " ".join(message.split())  # one line
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return EXIT_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
