"""``mjfast play``: self-play N hands of 血战到底 with built-in players and report per-seat
statistics (the engine is :func:`mjfast.table.selfplay`)."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from mjfast.bench.report import rate_text
from mjfast.errors import InvalidArgumentError
from mjfast.table import MAX_TABLE_PLAYERS, PLAYERS
from mjfast.table.duplicate import duplicate
from mjfast.table.forecast_player import ForecastPlayer
from mjfast.table.players import Player
from mjfast.table.selfplay import selfplay, summary

from .common import (
    CLIError,
    add_plot,
    int_type,
    key_value,
    override_type,
    print_json,
    rules_of,
    rules_type,
    workers_type,
    write_plot,
)

__all__ = ["add_play", "cmd_play", "bots_type", "duplicate_type"]

_RATES = (("tian_hu", "天胡"), ("yi_pao_duo_xiang", "一炮多响"), ("hua_zhu", "花猪"),
          ("cha_da_jiao", "查大叫"), ("drawn", "流局"))


def forecast_option_type(text: str) -> tuple[str, Any]:
    """``--forecast PARAM=VALUE``: a ForecastPlayer parameter and its value."""
    return key_value(text, "--forecast", "objective=win")


def bots_type(text: str) -> tuple[str, ...]:
    """``--players``: 2 to 6 comma-separated built-in bot names."""
    names = tuple(x.strip() for x in text.split(","))
    if not 2 <= len(names) <= MAX_TABLE_PLAYERS:
        raise CLIError(f"--players: expected 2 to {MAX_TABLE_PLAYERS} names, got {len(names)}")
    for name in names:
        if name not in PLAYERS:
            raise CLIError(f"--players: expected names from {', '.join(PLAYERS)}, "
                           f"got {name!r}")
    return names


def duplicate_type(text: str) -> tuple[str, str]:
    """``--duplicate``: the tested player and the opponent, two built-in names."""
    names = bots_type(text) if "," in text else ()
    if len(names) != 2:
        raise CLIError(f"--duplicate: expected TESTED,OPPONENT (e.g. forecast,efficient), "
                       f"got {text!r}")
    return names[0], names[1]


def _bots(names: tuple[str, ...], options: list[tuple[str, Any]] | None) -> list[str | Player]:
    """The players, ``forecast`` built with the ``--forecast`` parameters."""
    if not options:
        return list(names)
    if "forecast" not in names:
        raise CLIError("--forecast: no forecast player is playing")
    try:
        player = ForecastPlayer(**dict(options))
    except (TypeError, InvalidArgumentError) as exc:
        raise CLIError(f"--forecast: {exc}") from None
    return [player if n == "forecast" else n for n in names]


def cmd_play(args: argparse.Namespace) -> int:
    """Self-play ``--hands`` hands and print the statistics (or ``--json``)."""
    rules = rules_of(args.rules, args.option)
    if args.duplicate is not None:
        return _cmd_duplicate(args, rules)
    start = time.perf_counter()
    result = selfplay(args.hands, _bots(args.bots, args.forecast), rules=rules, seed=args.seed,
                      workers=args.workers, logs=args.log is not None, session=args.session,
                      engine=args.engine)
    seconds = time.perf_counter() - start
    if args.log is not None:
        with open(args.log, "w", encoding="utf-8") as f:
            for log in result.logs or ():
                f.write(json.dumps(json.loads(log), ensure_ascii=False) + "\n")
    if args.plot is not None:
        write_plot(args.plot, lambda: result.plot(labels=args.bots))
    doc: dict[str, Any] = {**summary(result)}
    doc.update(players=list(args.bots), rules=rules.name, seed=args.seed,
               seconds=round(seconds, 3))
    if args.json:
        print_json(doc)
    else:
        print("\n".join(_lines(doc, seconds)))
    return 0


def _cmd_duplicate(args: argparse.Namespace, rules: Any) -> int:
    if args.log is not None:
        raise CLIError("--log: not with --duplicate")
    tested, opponent = _bots(args.duplicate, args.forecast)
    start = time.perf_counter()
    doc: dict[str, Any] = {**duplicate(args.hands, tested, opponent, rules=rules,
                                       seed=args.seed, workers=args.workers).summary()}
    seconds = time.perf_counter() - start
    doc.update(players=list(args.duplicate), rules=rules.name, seed=args.seed,
               seconds=round(seconds, 3))
    if args.json:
        print_json(doc)
        return 0
    t, o = args.duplicate
    out = [f"duplicate: {t} in each of {doc['seats']} seats against {o}, {doc['hands']:,} walls, "
           f"rules {doc['rules']}, seed {doc['seed']}: {seconds:.1f} s", "",
           f"mean net per hand, {t} - {o}: {doc['mean_net']:+.4f} ± {doc['mean_net_ci']:.4f} "
           "(95%)", "", f"{'per hand':<16}{t:>12}{o:>12}"]
    for key, name in (("mean_net", "mean net"), ("win_rate", "win rate"),
                      ("mean_fan", "mean fan of wins"), ("dealt_in", "deal-in rate"),
                      ("hua_zhu", "花猪 rate"), ("cha_da_jiao", "查大叫 rate")):
        cells = [doc[who][key] for who in ("tested", "opponent")]
        text = ["-" if c is None else f"{c:+.4f}" if key == "mean_net" else
                f"{c:.3f}" if key == "mean_fan" else f"{c:.2%}" for c in cells]
        out.append(f"{name:<16}{text[0]:>12}{text[1]:>12}")
    print("\n".join(out))
    return 0


def _lines(doc: dict[str, Any], seconds: float) -> list[str]:
    n = doc["hands"]
    out = [f"{n:,} hands, {len(doc['players'])} players, rules {doc['rules']}, seed "
           f"{doc['seed']}: {seconds:.1f} s ({rate_text(n / seconds if seconds else 0.0)} "
           "hands/s)", "",
           f"{'seat':<5}{'player':<11}{'win rate (95%)':>20}{'mean fan':>10}"
           f"{'mean net (95%)':>22}"]
    for p, (name, s) in enumerate(zip(doc["players"], doc["seats"])):
        fan = "-" if s["mean_fan"] is None else f"{s['mean_fan']:.2f}"
        out.append(f"{p:<5}{name:<11}{s['win_rate']:>11.1%} ± {s['win_rate_ci']:<6.1%}"
                   f"{fan:>10}{s['mean_net']:>+13.2f} ± {s['mean_net_ci']:<6.2f}")
    out += ["", "per hand: " + ", ".join(f"{zh} {doc['rates'][k]:.2%}" for k, zh in _RATES),
            "", "fan of wins:"]
    hist = doc["fan_histogram"]
    total = sum(hist.values()) or 1
    for fan, count in sorted(hist.items()):
        bar = "#" * max(1, round(40 * count / total)) if count else ""
        out.append(f"{fan:>4} {count / total:>7.2%} {bar}")
    if "sessions" in doc:
        ses = doc["sessions"]
        out += ["", f"{ses['count']:,} sessions of {ses['hands']} hands (the dealer passes on: "
                "first winner; 一炮多响: the discarder; 流局: stays):",
                f"{'seat':<5}{'player':<11}{'total per session (95%)':>26}{'hands dealt':>13}"]
        for p, (name, s) in enumerate(zip(doc["players"], ses["seats"])):
            out.append(f"{p:<5}{name:<11}{s['mean_net']:>+17.2f} ± {s['mean_net_ci']:<6.2f}"
                       f"{s['dealt']:>13,}")
    return out


def add_play(sub: Any) -> None:
    """Register ``mjfast play`` on the subcommand parsers of :func:`build_parser`."""
    p = sub.add_parser(
        "play", help="self-play hands of 血战到底 with built-in players",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play N complete hands of 血战到底 (RULES.md section 10) with built-in "
                    "players (random: uniform over the legal actions; efficient: the kernels' "
                    "shanten and discard ranking; forecast: the exact forecasts, "
                    "mjfast.table.forecast_player) and print per seat the win rate, the mean fan "
                    "of its wins and the mean net payment, with 95% intervals, the per-hand "
                    "rates of 天胡, 一炮多响, 花猪, 查大叫 and 流局, and the histogram of the fan "
                    "of wins (mjfast.table.selfplay). Hand i is dealt from (--seed, i): the "
                    "result does not depend on --workers. --duplicate A,B compares two players "
                    "on the same walls, A in each seat against B in the others (and B alone), "
                    "so the luck of the deal cancels: the mean net per hand with a 95% "
                    "interval, and the win, deal-in, 花猪 and 查大叫 rates and mean fan of each.",
        epilog="examples:\n  mjfast play --hands 10000 --players efficient,efficient,random,random\n"
               "  mjfast play --hands 1000 --players efficient,random --rules qq --json\n"
               "  mjfast play --hands 100 --log hands.jsonl\n"
               "  mjfast play --duplicate forecast,efficient --hands 100000 --workers 2\n"
               "  mjfast play --duplicate forecast,efficient --forecast objective=win\n"
               "  mjfast play --hands 2000 --players efficient,efficient,random,random "
               "--plot selfplay.png")
    p.add_argument("--hands", type=int_type("--hands", 1), default=1000, metavar="N",
                   help="hands to play (default 1,000)")
    p.add_argument("--players", type=bots_type, default=("efficient",) * 4,
                   metavar="P1,P2,...", dest="bots",
                   help="2 to 6 of random, efficient, forecast (default: four efficient "
                        "players; at 5 and 6 the short hands of RULES.md 7)")
    p.add_argument("--duplicate", type=duplicate_type, default=None, metavar="TESTED,OPPONENT",
                   help="duplicate comparison of two players at 4 seats (instead of --players)")
    p.add_argument("--forecast", type=forecast_option_type, action="append",
                   metavar="PARAM=VALUE",
                   help="a parameter of the forecast players (mjfast.table.forecast_player."
                        "ForecastPlayer), e.g. objective=win, void_by_forecast=false, draws=6 "
                        "(repeatable)")
    p.add_argument("--rules", type=rules_type, default="chengdu", metavar="PRESET",
                   help="the rules preset (default chengdu)")
    p.add_argument("--option", type=override_type, action="append", metavar="FIELD=VALUE",
                   help="override one Rules field, e.g. guo_shui=tile (repeatable)")
    p.add_argument("--seed", type=int_type("--seed", 0), default=0,
                   help="random seed (default 0)")
    p.add_argument("--session", type=int_type("--session", 1), default=1, metavar="K",
                   help="play sessions of K consecutive hands, the dealer passing on (the first "
                        "winner; after 一炮多响 the discarder; after a draw the same dealer), and "
                        "report per-session totals (default 1)")
    p.add_argument("--workers", type=workers_type, default="1", metavar="W",
                   help="threads of the C engine (-1 = all cores; default 1)")
    p.add_argument("--engine", choices=("c", "python"), default="c",
                   help="c: the compiled engine (default); python: the reference "
                        "mjfast.table.Table (forked processes)")
    p.add_argument("--log", metavar="OUT.jsonl", default=None,
                   help="write each hand's event log (Round.to_json, one per line)")
    add_plot(p, "the win rate and mean net per seat with 95% intervals and the fan histogram")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=cmd_play)
