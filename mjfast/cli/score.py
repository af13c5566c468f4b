"""``mjfast score HAND --win TILE``: the fan of a win (:func:`mjfast.score`)."""

from __future__ import annotations

import argparse
from typing import Any

from mjfast._args import FLAG_NAMES, hand_sizes
from mjfast.scoring import FanResult, score
from mjfast.tiles import format_hand, format_tile

from .common import CLIError, fan_items, melds, parse_text, print_json, rules_of, void_name

__all__ = ["cmd_score"]


def cmd_score(args: argparse.Namespace) -> int:
    """The fan breakdown of a win."""
    style = args.style
    hand = parse_text(args.hand)
    held_melds = melds(args.meld)
    rules = rules_of(args.rules, args.option)
    win = args.win
    if int(hand.sum()) == hand_sizes(args.sets, len(held_melds))[0]:  # without the win tile: add it
        if hand[win] >= 4:
            raise CLIError(f"--win: {format_tile(win)} is already held 4 times")
        hand[win] += 1
    flags = {f: getattr(args, f) for f in FLAG_NAMES}
    res = score(hand, win_tile=win, melds=held_melds or None, void_suit=args.void, rules=rules,
                sets=args.sets, **flags)
    doc = {
        "hand": format_hand(hand, style), "win": format_tile(win, style),
        "melds": [str(m) for m in held_melds], "void_suit": void_name(args.void),
        "sets": args.sets, "rules": rules.name, "flags": [f for f, on in flags.items() if on],
        "is_win": res.is_win, "fan": res.fan, "raw_fan": res.raw_fan,
        "unit": rules.unit, "multiplier": res.multiplier, "items": fan_items(res.items, rules),
        "decomposition": None if res.decomposition is None else str(res.decomposition),
    }
    if args.json:
        print_json(doc)
    else:
        print("\n".join(_score_lines(doc, res)))
    return 0


def _score_lines(doc: dict[str, Any], res: FanResult) -> list[str]:
    head = (doc["hand"] + (f" + {' '.join(doc['melds'])}" if doc["melds"] else "")
            + f", win on {doc['win']}"
            + (f" ({', '.join(doc['flags'])})" if doc["flags"] else ""))
    if not res.is_win:
        return [f"{head}: not a win"]
    uncapped = "" if res.raw_fan == res.fan else f", {res.raw_fan} uncapped"
    unit = doc["unit"]  # 番, or 分 under the points model (a win pays the points, not 2^fan)
    lines = [head, f"{res.fan}{unit} (x{res.multiplier}{uncapped}, rules {doc['rules']})"]
    lines += [f"  {item['zh']} ({item['name']}) {item['fan']}" for item in doc["items"]]
    lines.append(f"reading: {res.decomposition}")
    return lines
