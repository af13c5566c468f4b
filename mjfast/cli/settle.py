"""``mjfast settle EVENTS.json``: replay a Round event log and print who pays whom."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mjfast.settlement import Round

from .common import CLIError, print_json

__all__ = ["cmd_settle"]


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


def _load(path: str) -> Round:
    try:
        doc = json.loads(_read_text(path))
    except json.JSONDecodeError as exc:
        raise CLIError(f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: "
                       f"{exc.msg}") from None
    except RecursionError:
        raise CLIError(f"{path}: invalid JSON: nested too deeply") from None
    except ValueError as exc:  # an int past Python's digit limit
        raise CLIError(f"{path}: invalid JSON: {exc}") from None
    try:
        return Round.from_json(doc)
    except (ValueError, TypeError, KeyError, OverflowError, RecursionError) as exc:
        raise CLIError(f"{path}: {exc}") from None


def cmd_settle(args: argparse.Namespace) -> int:
    """Replay a Round event log and print the payments."""
    rnd = _load(args.events)
    net = [int(x) for x in rnd.net]
    matrix = [[int(x) for x in row] for row in rnd.matrix]
    if args.json:
        print_json({
            "rules": rnd.rules.name, "players": rnd.players, "dealer": rnd.dealer,
            "events": len(rnd.events), "winners": list(rnd.winners), "is_over": rnd.is_over,
            "transfers": [{"payer": t.payer, "receiver": t.receiver, "amount": t.amount,
                           "reason": t.reason.value, "reason_zh": t.reason.zh, "fan": t.fan,
                           "event": t.event} for t in rnd.transfers],
            "net": net, "matrix": matrix})
    else:
        print("\n".join(_settle_lines(rnd, net, matrix)))
    return 0


def _settle_lines(rnd: Round, net: list[int], matrix: list[list[int]]) -> list[str]:
    events = rnd.events
    lines = [f"rules {rnd.rules.name}, {rnd.players} players, dealer {rnd.dealer}, "
             f"{len(events)} events" + (f", winners in order: {list(rnd.winners)}"
                                        if rnd.winners else "")]
    for t in rnd.transfers:
        what = "" if t.event is None else f"event {t.event} ({events[t.event].get('type', '?')}): "
        fan = "" if t.fan is None else f", {t.fan}{rnd.rules.unit}"
        lines.append(f"  {what}player {t.payer} pays player {t.receiver} {t.amount} "
                     f"({t.reason.zh} {t.reason.value}{fan})")
    if not rnd.transfers:
        lines.append("  no payments")
    lines.append("who pays whom in total:")
    lines += [f"  {i} -> {j}: {matrix[i][j]}" for i in range(rnd.players)
              for j in range(rnd.players) if matrix[i][j]]
    lines.append("net: " + "  ".join(f"player {i} {v:+d}" for i, v in enumerate(net)))
    return lines
