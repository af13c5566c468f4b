"""The forecast parts of ``mjfast analyze`` (``--draws``, ``--void-advice``, ``--plans``): JSON
documents and text lines, with a small text chart of P(win) by draw. :func:`policy_of` reads the
policy options (``--exchanges``, ``--backward``, ``--flush``) for every command that forecasts."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mjfast.forecast import Forecast, choose_plan, choose_void
from mjfast.tiles import SUITS, Style, format_tile

from .common import CLIError

__all__ = ["chart", "forecast_docs", "forecast_lines", "plans_doc", "plans_lines", "policy_of",
           "void_advice_doc", "void_advice_lines"]

_BARS = " ▁▂▃▄▅▆▇█"


def chart(values: Any) -> str:
    """One character per draw, the bar height proportional to the probability (full = 1)."""
    return "".join(_BARS[min(8, math.ceil(float(v) * 8))] for v in values)


def horizons(draws: int) -> list[int]:
    """The few draw counts the text shows P(ready) and P(win) at."""
    return sorted({h for h in (min(3, draws), min(6, draws), (draws + 1) // 2, draws) if h > 0})


def policy_of(args: Any) -> dict[str, Any]:
    """The policy options of the command line as keyword arguments of the forecast."""
    if args.backward and args.exchanges is None:
        raise CLIError("--backward: backward moves need a budget (--exchanges K), not none")
    return {"exchanges": args.exchanges, "backward": args.backward, "flush": args.flush}


def _policy_text(doc: dict[str, Any]) -> str:
    budget = doc["exchanges"]
    text = "exchanges " + ("off" if budget == 0 else "no budget" if budget is None else f"{budget}")
    text += ", backward" if doc["backward"] else ""
    return text + (f", flush {doc['flush']}" if doc["flush"] else "")


def _one(ready: np.ndarray, win: np.ndarray, value: float) -> dict[str, Any]:
    return {"ready": [float(x) for x in ready], "win": [float(x) for x in win], "value": float(value)}


def forecast_docs(f: Forecast, style: Style) -> dict[str, Any]:
    """The forecast of a hand as JSON: the curves (per discard kind for 14 - 3m tiles) and the
    policy it was computed under."""
    doc: dict[str, Any] = {"draws": f.draws, "objective": f.objective, "exchanges": f.exchanges,
                           "backward": f.backward,
                           "flush": None if f.flush is None else SUITS[f.flush]}
    if not f.complete:
        doc.update(_one(f.ready, f.win, float(np.asarray(f.value))))
        return doc
    value = np.asarray(f.value)
    doc["best_discard"] = format_tile(int(np.asarray(f.best_discard)), style)
    doc["per_discard"] = {format_tile(d, style): _one(f.ready[d], f.win[d], value[d])
                          for d in range(27) if not np.isnan(value[d])}
    return doc


def _choice_doc(key: str, name: str, c: Any, style: Style) -> dict[str, Any]:
    """One ranked choice (a VoidChoice or a PlanChoice) as JSON, named by ``key``."""
    return {key: name, "score": c.score, "win": c.win, "value": c.value,
            "discard": None if c.discard is None else format_tile(c.discard, style),
            "win_by_draw": _win_curve(c.forecast, c.discard)}


def _choice_lines(title: str, names: list[str], docs: list[dict[str, Any]]) -> list[str]:
    out = [title]
    for name, a in zip(names, docs, strict=True):
        how = f", discard {a['discard']}" if a["discard"] else ""
        out.append(f"  {name}: P(win) {a['win']:.4f}, value {a['value']:.4f}{how} "
                   f"|{chart(a['win_by_draw'])}|")
    return out


def void_advice_doc(hand: np.ndarray, rules: Any, plan: dict[str, Any], style: Style,
                    sets: int = 4, visible: np.ndarray | None = None) -> list[dict[str, Any]]:
    """The void choices, best first (mjfast.forecast.choose_void)."""
    return [_choice_doc("suit", SUITS[c.suit], c, style)
            for c in choose_void(hand, rules=rules, sets=sets, visible=visible, **plan)]


def plans_doc(hand: np.ndarray, kw: dict[str, Any], visible: np.ndarray | None, rules: Any,
              plan: dict[str, Any], style: Style) -> list[dict[str, Any]]:
    """The plans (as it stands, a flush per suit it may keep), best first (choose_plan)."""
    if plan["flush"] is not None:
        raise CLIError("--plans: ranks the flush plans itself; drop --flush")
    policy = {k: v for k, v in plan.items() if k != "flush"}
    return [_choice_doc("plan", "as it stands" if c.flush is None else f"flush {SUITS[c.flush]}",
                        c, style)
            for c in choose_plan(hand, visible=visible, rules=rules, **policy, **kw)]


def plans_lines(plans: list[dict[str, Any]]) -> list[str]:
    return _choice_lines("plans (as it stands or 清一色), best first:",
                         [a["plan"] for a in plans], plans)


def _win_curve(f: Forecast, discard: int | None) -> list[float]:
    return [float(x) for x in (f.win[discard] if discard is not None else f.win)]


def _curve_text(doc: dict[str, Any], draws: int) -> str:
    cells = ", ".join(f"{h}: {doc['ready'][h - 1]:.3f}/{doc['win'][h - 1]:.3f}"
                      for h in horizons(draws))
    return f"P(ready)/P(win) by draw {cells or '-'}; value {doc['value']:.4f} |{chart(doc['win'])}|"


def forecast_lines(doc: dict[str, Any], rows: list[dict[str, Any]] | None) -> list[str]:
    """Text: the hand's curves (13 - 3m), or one line per discard in ``rows`` order."""
    head = f"forecast over {doc['draws']} draws (objective {doc['objective']}, {_policy_text(doc)}):"
    if rows is None:
        return [head, "  " + _curve_text(doc, doc["draws"])]
    out = [head + f" best discard {doc['best_discard']}"]
    for row in rows:
        per = doc["per_discard"].get(row["tile"])
        if per is None:
            out.append(f"  {row['tile']:<3} barred by the 定缺 rule")
        else:
            out.append(f"  {row['tile']:<3} sh {row['shanten']} eff {row['effective_count']:>2}  "
                       + _curve_text(per, doc["draws"]))
    return out


def void_advice_lines(advice: list[dict[str, Any]]) -> list[str]:
    return _choice_lines("void choice (定缺), best first:",
                         [f"void {a['suit']}" for a in advice], advice)
