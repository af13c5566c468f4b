"""``mjfast analyze HAND``: shanten per form, waits, effective tiles, discards, 大叫 value."""

from __future__ import annotations

import argparse
from typing import Any, get_args

import numpy as np

from mjfast import analysis, efficiency
from mjfast._args import hand_sizes
from mjfast._typing import Form
from mjfast.forecast import forecast
from mjfast.rules import Rules
from mjfast.scoring import MaxFan, max_fan
from mjfast.tiles import Style, format_hand, format_tile

from .common import (
    CLIError,
    fan_items,
    melds,
    parse_text,
    print_json,
    rules_of,
    shanten_text,
    void_name,
    write_plot,
)
from .forecast_text import (
    forecast_docs,
    forecast_lines,
    plans_doc,
    plans_lines,
    policy_of,
    void_advice_doc,
    void_advice_lines,
)

__all__ = ["cmd_analyze"]

_FORMS: tuple[Form, ...] = get_args(Form)  # shanten per form: all, regular, seven_pairs
VOID_DRAWS = 6
"""Draws the void advice looks ahead without ``--draws``."""
PLAN_DRAWS = 12
"""Draws ``--plans`` looks ahead without ``--draws`` (a flush takes a while to build)."""


def cmd_analyze(args: argparse.Namespace) -> int:
    """Shanten per form, waits, effective tiles; discards for 14 tiles; 大叫 for a ready hand."""
    style = args.style
    hand = parse_text(args.hand)
    held_melds = melds(args.meld)
    visible = parse_text(args.visible, "--visible") if args.visible else None
    rules = rules_of(args.rules, args.option)
    n, m = int(hand.sum()), len(held_melds)
    sizes = hand_sizes(args.sets, m)
    if n not in sizes or m > args.sets:
        short = "" if args.sets == 4 else f" (--sets {args.sets})"
        raise CLIError(f"HAND: {n} concealed tiles with {m} meld(s); expected "
                       f"{sizes[0]} or {sizes[1]}{short}")
    waiting = n == sizes[0]
    kw: dict[str, Any] = {"melds": held_melds or None, "void_suit": args.void, "sets": args.sets}
    sh: dict[str, int] = {f: int(analysis.shanten(hand, form=f, **kw)) for f in _FORMS}
    sh["no_void_rule"] = int(analysis.shanten(hand, melds=kw["melds"], void_rule=False,
                                              sets=args.sets))
    doc: dict[str, Any] = {
        "hand": format_hand(hand, style), "tiles": n, "sets": args.sets,
        "melds": [str(x) for x in held_melds],
        "void_suit": void_name(args.void),
        "visible": None if visible is None else format_hand(visible, style),
        "rules": rules.name, "unit": rules.unit, "shanten": sh,
    }
    plan = {"draws": args.draws, "objective": args.objective, **policy_of(args)}
    if args.plot is not None and args.draws is None:
        raise CLIError("--plot: draws the forecast's curves; give --draws T")
    if waiting:
        doc.update(_waiting(hand, visible, kw, rules, style, ready=sh["all"] == 0))
    else:
        doc["complete"] = sh["all"] == -1
        doc["discards"] = _discards(hand, visible, kw, rules, style, plan)
    if args.draws is not None:
        f = forecast(hand, visible=visible, rules=rules, **plan, **kw)
        doc["forecast"] = forecast_docs(f, style)
        if args.plot is not None:
            write_plot(args.plot, f.plot)
    if args.void_advice:
        if held_melds:
            raise CLIError("--void-advice: the void choice is for a dealt hand, without melds")
        if args.void is not None:
            raise CLIError("--void-advice ranks the three void suits; drop --void")
        doc["void_advice"] = void_advice_doc(hand, rules, {**plan, "draws": args.draws or VOID_DRAWS},
                                             style, args.sets, visible)
    if args.plans:
        doc["plans"] = plans_doc(hand, kw, visible, rules,
                                 {**plan, "draws": PLAN_DRAWS if args.draws is None else args.draws},
                                 style)
    if args.json:
        print_json(doc)
    else:
        lines = _analysis_lines(doc, waiting)
        if "forecast" in doc:
            lines += forecast_lines(doc["forecast"], None if waiting else doc["discards"])
        if "void_advice" in doc:
            lines += void_advice_lines(doc["void_advice"])
        if "plans" in doc:
            lines += plans_lines(doc["plans"])
        print("\n".join(lines))
    return 0


def _waiting(hand: np.ndarray, visible: np.ndarray | None, kw: dict[str, Any], rules: Any,
             style: Style, *, ready: bool) -> dict[str, Any]:
    """Waits, effective tiles and, when ready, the 大叫 value of a 13 - 3m hand."""
    eff = efficiency.effective_tiles(hand, visible=visible, **kw)
    mask = int(analysis.waits(hand, **kw))
    return {
        # a wait is an effective tile of a ready hand: eff holds its copies left
        "waits": [{"tile": format_tile(t, style), "left": max(0, int(eff[t]))}
                  for t in analysis.mask_to_tiles(mask)],
        "effective": [{"tile": format_tile(int(t), style), "left": int(eff[t])}
                      for t in np.nonzero(eff >= 0)[0]],
        "effective_count": int(eff[eff > 0].sum()),
        "da_jiao": (_max_fan_doc(max_fan(hand, visible=visible, rules=rules, **kw), style,
                                 rules) if ready else None),
    }


def _discards(hand: np.ndarray, visible: np.ndarray | None, kw: dict[str, Any], rules: Any,
              style: Style, plan: dict[str, Any]) -> list[dict[str, Any]]:
    """The discards of a 14 - 3m hand in the order of :func:`mjfast.advise` (by the forecast
    with ``--draws``), each with the 大叫 value of the hand it leaves when that hand is ready."""
    seen = np.zeros(27, np.uint8) if visible is None else visible
    rows = []
    for d in efficiency.advise(hand, visible=visible, rules=rules, **plan, **kw):
        row: dict[str, Any] = {
            "tile": format_tile(d.tile, style), "shanten": d.shanten,
            "effective_count": d.effective_count,
            "effective": [format_tile(t, style) for t in d.effective], "da_jiao": None}
        if d.shanten == 0:
            rest, seen_after = hand.copy(), seen.copy()
            rest[d.tile] -= 1
            seen_after[d.tile] += 1  # the discarded copy is seen, as in advise
            mf = max_fan(rest, visible=seen_after, rules=rules, **kw)
            if mf.fan is not None and mf.best_wait is not None:
                row["da_jiao"] = {"fan": mf.fan, "payment": mf.payment,
                                  "best_wait": format_tile(mf.best_wait, style)}
        rows.append(row)
    return rows


def _max_fan_doc(mf: MaxFan, style: Style, rules: Rules) -> dict[str, Any] | None:
    if mf.fan is None and not mf.waits:
        return None
    return {
        "fan": mf.fan, "payment": mf.payment,
        "best_wait": None if mf.best_wait is None else format_tile(mf.best_wait, style),
        "waits": [{"tile": format_tile(w.tile, style), "fan": w.fan, "items": fan_items(w.items, rules),
                   "decomposition": str(w.decomposition), "dead": w.dead} for w in mf.waits],
    }


def _head(doc: dict[str, Any], waiting: bool) -> list[str]:
    sh = doc["shanten"]
    s = sh["all"]
    if s == -1:
        label = " (complete: 胡)"
    elif s == 0:
        label = " (ready: 下叫)" if waiting else " (ready after a discard)"
    else:
        label = ""
    return [f"hand: {doc['hand']} ({doc['tiles']} tiles)"
            + (f" + {' '.join(doc['melds'])}" if doc["melds"] else "")
            + (f", void {doc['void_suit']}" if doc["void_suit"] else "")
            + (f", visible {doc['visible']}" if doc["visible"] else ""),
            f"shanten: {shanten_text(s)}{label}; regular {shanten_text(sh['regular'])}, "
            f"seven pairs {shanten_text(sh['seven_pairs'])}, "
            f"without the void rule {shanten_text(sh['no_void_rule'])}"]


def _waiting_lines(doc: dict[str, Any]) -> list[str]:
    out = []
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
            out.append(f"大叫: {dj['fan']}{doc['unit']} on {dj['best_wait']} "
                       f"(pays {dj['payment']})")
        for w in dj["waits"]:
            dead = " (dead)" if w["dead"] else ""
            items = " + ".join(f"{i['zh']} {i['fan']}" for i in w["items"])
            out.append(f"  {w['tile']}: {w['fan']}{doc['unit']} {items}{dead} | "
                       f"{w['decomposition']}")
    return out


def _discard_lines(doc: dict[str, Any]) -> list[str]:
    out = ["discards (best first):"]
    for d in doc["discards"]:
        eff = " ".join(d["effective"])
        line = (f"  {d['tile']:<3} shanten {shanten_text(d['shanten'])}, "
                f"{d['effective_count']} tiles ({eff or '-'})")
        if d["da_jiao"]:
            line += f"; 大叫 {d['da_jiao']['fan']}{doc['unit']} on {d['da_jiao']['best_wait']}"
        out.append(line)
    return out


def _analysis_lines(doc: dict[str, Any], waiting: bool) -> list[str]:
    return _head(doc, waiting) + (_waiting_lines(doc) if waiting else _discard_lines(doc))

