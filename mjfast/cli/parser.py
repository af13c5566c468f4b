"""The ``mjfast`` argument parser: one subparser per command, each with examples."""

from __future__ import annotations

import argparse
import re

from mjfast import __version__
from mjfast._args import ERRORS, FLAG_NAMES, FORMS, OBJECTIVES
from mjfast._notation import STYLES
from mjfast.forecast import MAX_DRAWS

from .analyze import cmd_analyze
from .batch import BATCH_CHUNK, WHAT, cmd_batch, what_type
from .batch_cluster import cmd_batch_cluster
from .batch_io import CHUNK_BYTES, LINE_MAX
from .bench import cmd_bench
from .common import (
    PROG,
    CLIError,
    add_plot,
    choice_type,
    exchanges_type,
    int_type,
    override_type,
    rules_type,
    sets_type,
    tile_type,
    void_type,
    workers_type,
)
from .play import add_play
from .rules import cmd_rules
from .score import cmd_score
from .settle import cmd_settle
from .stats import cmd_stats

__all__ = ["build_parser"]

_FMT = argparse.RawDescriptionHelpFormatter
_Subparsers = argparse._SubParsersAction  # the type of add_subparsers(): not public
_FLAG_HELP = {
    "self_drawn": "自摸: won on an own draw",
    "after_kong": "杠上花: on the replacement draw of an own kong",
    "after_kong_discard": "杠上炮: on a discard made right after the discarder's kong",
    "robbing_kong": "抢杠胡: robbing an added kong",
    "last_tile": "海底: on the last tile",
    "tian_hu": "天胡: dealer wins on the dealt hand",
    "di_hu": "地胡: non-dealer wins on the first draw (or, di_hu_on_discard, on a discard in "
             "the first go-round: leave --self-drawn off)",
    "jue_zhang": "绝张: on the last live copy of the tile (the other three visible)",
}
_VOID_HELP = ("the declared void suit (定缺): m, p or s (also 万, 筒/饼, 条/索, or 0, 1, 2; "
              "-1 or none for none)")


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``mjfast: error: ...``) instead of usage dumps."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CLIError(f"{_shorten(message)} (see '{self.prog} --help')")


# argparse shows the arguments it refuses in full ("invalid choice: '...'", "unrecognized
# arguments: ..."): a long one is cut, so the message stays one short line.
_LONG_QUOTED = re.compile(r"'([^']{40})([^']{20,})'")
_LONG_WORD = re.compile(r"(\S{40})(\S{20,})")


def _shorten(message: str) -> str:
    def cut(match: re.Match[str], quote: str) -> str:
        return f"{quote}{match[1]}...{quote} ({len(match[1]) + len(match[2])} characters)"
    message = _LONG_QUOTED.sub(lambda m: cut(m, "'"), message)
    return _LONG_WORD.sub(lambda m: cut(m, ""), message)


def _workers(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--workers", type=workers_type, default="-1", metavar="W",
                   help=f"{what} (-1 = all cores, the default)")


def _rules_options(p: argparse.ArgumentParser, rules_help: str, option_help: str) -> None:
    p.add_argument("--rules", type=rules_type, default="chengdu", metavar="PRESET",
                   help=rules_help)
    p.add_argument("--option", type=override_type, action="append", metavar="FIELD=VALUE",
                   help=option_help)


def _choice(p: argparse.ArgumentParser, option: str, choices: tuple[str, ...], default: str,
            what: str) -> None:
    """An option of a fixed set of words, checked like the library's argument of that name."""
    p.add_argument(option, type=choice_type(option, choices), default=default,
                   metavar="{" + ",".join(choices) + "}", help=what)


def _style(p: argparse.ArgumentParser, what: str) -> None:
    _choice(p, "--style", STYLES, "mpsz", what)


def _sets(p: argparse.ArgumentParser) -> None:
    p.add_argument("--sets", type=sets_type, default=4, metavar="N",
                   help="sets of a complete hand: 4 (default), 3 (5 players: 10 / 11 tiles) or "
                        "2 (6 players: 7 / 8 tiles); no seven pairs below 4")


def _hand_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--meld", action="append", metavar="KIND:TILE",
                   help="a declared meld: pung:5p, kong:1m (exposed), kong_added:3s, "
                        "kong_concealed:9p; repeat or separate with commas")
    p.add_argument("--void", type=void_type, metavar="SUIT", help=_VOID_HELP)
    _sets(p)
    _rules_options(p, "rules preset: chengdu (default), qq or points",
                   "override a Rules field, e.g. cap=4, cap=none, self_draw=add_fan, "
                   "si_jiao=true (repeatable)")
    _style(p, "how tiles print: mpsz (5p, default), zh (5筒) or unicode")
    p.add_argument("--json", action="store_true", help="print one JSON document")


def _forecast_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--draws", type=int_type("--draws", 0, MAX_DRAWS), metavar="T",
                   help=f"forecast over T own draws (0-{MAX_DRAWS}, RULES.md 9): P(ready), P(win) "
                        "and the expected value per discard")
    _choice(p, "--objective", OBJECTIVES, "win",
            "what the forecast's play maximises: P(win) (default) or the expected value")
    p.add_argument("--exchanges", type=exchanges_type, default=0, metavar="K|none",
                   help="the forecast's budget of exchanges (手替わり: a discard that keeps the "
                        "shanten but changes the hand) over the run: 0 (default) keeps a draw only "
                        "when it lowers the shanten; none allows every exchange (its state graph "
                        "grows fast with --draws)")
    p.add_argument("--backward", action="store_true",
                   help="also allow backward moves (向聴戻し), each costing one exchange (needs a "
                        "budget K)")
    p.add_argument("--flush", type=void_type, metavar="SUIT",
                   help="play the 清一色 plan of SUIT (m/p/s): only its one-suit wins count")


def _add_analyze(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "analyze", help="shanten, waits, effective tiles, discards and 大叫 of one hand",
        formatter_class=_FMT,
        description="Analyse one hand: shanten per form (with and without the void rule); for "
                    "13 - 3m tiles the waits with copies left, the effective tiles and, when "
                    "ready, the 大叫 value (max fan) per wait; for 14 - 3m tiles the discards "
                    "ranked by shanten after and effective tiles left (mjfast.advise).",
        epilog="examples:\n  mjfast analyze 123m456m789m11p23p\n"
               "  mjfast analyze '123m 456m 789m 23p 55p 9s' --visible 4p --style zh\n"
               "  mjfast analyze 11223m55p --meld pung:3m --meld kong:9m --void s --json\n"
               "  mjfast analyze 123m456m11p23p --sets 3\n"
               "  mjfast analyze 123m456m789m2p55p9s1s --void s --draws 12 --objective value\n"
               "  mjfast analyze 1234567m123p1559s --void-advice --draws 6\n"
               "  mjfast analyze 1123456789m23p5s --void s --plans --draws 12 --objective value\n"
               "  mjfast analyze 123m456m78m23p55p9s --void s --draws 8 --exchanges 1 --backward\n"
               "  mjfast analyze 123m456m789m2p55p9s1s --void s --draws 12 --plot forecast.svg")
    p.add_argument("hand", metavar="HAND",
                   help="concealed tiles: 123m456p, 123万456筒 or Unicode tiles")
    p.add_argument("--visible", metavar="TILES",
                   help="tiles seen outside the hand (discards, other melds): not left to draw")
    _forecast_options(p)
    p.add_argument("--void-advice", action="store_true",
                   help="rank the three void suits (定缺) by the forecast (--draws, default 6)")
    p.add_argument("--plans", action="store_true",
                   help="rank the hand as it stands against a 清一色 in each suit it may keep, by "
                        "the forecast (--draws, default 12)")
    add_plot(p, "the forecast's P(ready) and P(win) curves (with --draws; per discard for 14 - 3m "
             "tiles)")
    _hand_options(p)
    p.set_defaults(func=cmd_analyze)


def _add_score(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "score", help="the fan of a win", formatter_class=_FMT,
        description="Score a win (mjfast.scoring.score): the fan items, the capped fan and "
                    "multiplier, and the reading that gives it. HAND is the concealed tiles "
                    "including the win tile (a hand one tile short gets the win tile added). "
                    "A hand that does not win prints 'not a win' (exit status 0).",
        epilog="examples:\n  mjfast score 22244455577799m --win 9m\n"
               "  mjfast score '123m 234m 678m 99m' --meld pung:5m --win 9m --self-drawn --rules qq\n"
               "  mjfast score 11m234m --meld kong_concealed:9m --meld pung:5m --meld pung:7m "
               "--win 1m --after-kong --json")
    p.add_argument("hand", metavar="HAND", help="concealed tiles including the win tile")
    p.add_argument("--win", type=tile_type, required=True, metavar="TILE",
                   help="the winning tile, e.g. 5p")
    for flag in FLAG_NAMES:
        p.add_argument("--" + flag.replace("_", "-"), action="store_true", help=_FLAG_HELP[flag])
    _hand_options(p)
    p.set_defaults(func=cmd_score)


def _add_settle(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "settle", help="replay a Round event log and print who pays whom", formatter_class=_FMT,
        description="Replay a Round event log (the JSON of mjfast.settlement.Round.to_json; "
                    "'-' reads standard input) and print every payment, the totals per pair "
                    "and the net per player.",
        epilog="example:\n  mjfast settle round.json\n"
               "  python -c 'from mjfast.settlement import Round; r = Round(); "
               "r.kong(1, \"5s\", \"kong_concealed\"); print(r.to_json())' | mjfast settle - --json")
    p.add_argument("events", metavar="EVENTS.json", help="the event log ('-' for stdin)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=cmd_settle)


def _add_stats(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "stats", help="statistics of random dealt hands, or exact over every deal",
        formatter_class=_FMT,
        description="Deal N random hands from the 108-tile wall (compiled and seeded, in chunks "
                    "of 65,536 with a generator each, so the result does not depend on "
                    "--workers) and report the shanten distribution with and without the void "
                    "rule, the ready rate, the mean number of waits and of effective tiles "
                    "(for 14 tiles: after the best discard, ranked like mjfast.advise), the rate "
                    "of complete dealt hands (天胡) and the throughput (mjfast.stats.run_stats). "
                    "Next to each sampled rate: its exact value over all deals and whether the "
                    "sample lies inside the 99% interval around it ('in' or 'OUT').\n\n"
                    "--exact: the exact shanten distribution over all C(108, n) deals of n = 1 "
                    "to 14 tiles, counted per suit without dealing (mjfast.stats.exact); "
                    "--hands, --seed and --workers do not apply.",
        epilog="examples:\n  mjfast stats --hands 10000000 --workers 2\n"
               "  mjfast stats --hands 100000 --tiles 13 --seed 7 --json\n"
               "  mjfast stats --exact\n  mjfast stats --exact --tiles 13 --json\n"
               "  mjfast stats --hands 1000000 --plot shanten.png")
    p.add_argument("--hands", type=int_type("--hands", 1), default=100_000, metavar="N",
                   help="hands to deal (default 100,000)")
    p.add_argument("--tiles", type=int_type("--tiles", 1), default=14, metavar="N",
                   help="tiles per hand: 14 (the dealer's hand, default) or 13; 1 to 14 with "
                        "--exact")
    p.add_argument("--seed", type=int_type("--seed", 0), default=None,
                   help="random seed (default: a fresh one, printed with the results)")
    _workers(p, "threads")
    p.add_argument("--exact", action="store_true",
                   help="the exact table over every deal instead of a sample")
    add_plot(p, "the shanten distribution with and without the void rule (the sample with the "
             "exact values marked, or the exact one)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=cmd_stats)


_BATCH_DESCRIPTION = (
    "INPUT: a file, a pipe or FIFO, or - for standard input, read once: an .npy (N, 27) integer "
    "array of tile counts (known by its name or its first bytes), or text with one hand string "
    "per line (.csv: the first field, with the csv module's quoting and an optional 'hand' "
    f"header; blank lines are skipped, a UTF-8 BOM is dropped, a line over {LINE_MAX:,} bytes is "
    f"a bad row), or .parquet: a string column 'hand' or 27 integer count columns c0..c26 "
    "(c0 = 1m .. c26 = 9s). It is streamed in chunks of at most --chunk rows and "
    f"{CHUNK_BYTES >> 20} MiB of text (Parquet: a record batch), so memory stays bounded.\n\n"
    "OUTPUT: a file (not -), written to OUTPUT.part and renamed to OUTPUT once complete; on an "
    "error (a full disk: 'cannot write OUTPUT: No space left on device') or Ctrl-C the .part is "
    "removed. By suffix:\n"
    "  .npy   one quantity: a plain array - shanten (N,) int8, waits (N,) uint32 27-bit masks,\n"
    "         effective (N, 27) int8 (-1 = not effective, else copies left), max_fan (N,) int16;\n"
    "         several: a structured array with one field per quantity (out['shanten'], ...).\n"
    "         Rows follow the input rows (for text: the non-blank lines).\n"
    "  .csv   a header, then one row per hand: line (or row), the quantities, error;\n"
    "         waits as tiles '1p 4p', effective as '1p:4 4p:3'.\n"
    "  .jsonl one object per hand: {\"line\": 3, \"shanten\": 0, \"waits\": [\"1p\", \"4p\"], ...}.\n"
    "  .parquet row (or line), then shanten int8, waits uint32, effective_c0..effective_c26 int8,\n"
    "         max_fan int16 (values as in .npy), error (string, null if the row is good).\n\n"
    "--dask ADDRESS: INPUT is a glob of shards ('data/*.parquet', quoted) and OUTPUT a directory; "
    "each shard is one task on a Dask cluster (local:N starts N worker processes here, or a "
    "scheduler such as tcp://scheduler:8786) and gives OUTPUT/<name>.parquet. Shards already "
    "written are skipped, so a rerun resumes; a shard whose worker dies is run again.\n\n"
    "max_fan is the 大叫 fan (uncapped, display numbering) of a ready 13 - 3m hand, -1 when not "
    "ready (empty/null in csv/jsonl).\n"
    "A bad row stops the run with its line (or row) number; with --errors coerce it is marked "
    "and the run goes on: INVALID_ROW = -100 in int8/int16 columns (every effective entry), "
    "INVALID_MASK = 0xFFFFFFFF in waits, and the reason in the csv/jsonl 'error' field.")


def _add_batch(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "batch", help="shanten / waits / effective tiles / max fan of a file of hands",
        formatter_class=_FMT, description=_BATCH_DESCRIPTION,
        epilog="examples:\n  mjfast batch hands.npy shanten.npy\n"
               "  mjfast batch hands.txt out.csv --what shanten,waits,max_fan\n"
               "  mjfast batch hands.npy out.npy --what shanten,waits,effective --errors coerce\n"
               "  cat hands.txt | mjfast batch - out.jsonl\n"
               "  mjfast batch hands.parquet out.parquet --what shanten,max_fan\n"
               "  mjfast batch 'shards/*.parquet' results/ --dask local:4\n"
               "  mjfast batch hands14.npy forecast.npz --what forecast --draws 12")
    p.add_argument("input", metavar="INPUT",
                   help="hands: .npy (N, 27) counts, text/CSV or .parquet (--dask: a glob)")
    p.add_argument("output", metavar="OUTPUT",
                   help="results: .npy, .csv, .jsonl or .parquet (--dask: a directory; "
                        "--what forecast: .npz)")
    p.add_argument("--what", type=what_type, default="shanten", metavar="LIST",
                   help=f"comma list of {', '.join(WHAT)} (default shanten)")
    _choice(p, "--form", FORMS, "all", "shanten form for shanten and effective (default all)")
    p.add_argument("--no-void-rule", action="store_true",
                   help="drop the void rule (riichi-style numbers)")
    p.add_argument("--void", type=void_type, metavar="SUIT", help=_VOID_HELP + ", every hand")
    _sets(p)
    _choice(p, "--errors", ERRORS, "raise",
            "stop at the first bad row (raise, default) or mark it and go on (coerce)")
    _workers(p, "kernel (and Parquet decoding) threads; with --dask one per shard")
    p.add_argument("--chunk", type=int_type("--chunk", 1), default=BATCH_CHUNK, metavar="ROWS",
                   help=f"rows per chunk at most (default {BATCH_CHUNK:,})")
    _rules_options(p, "rules preset for max_fan", "override a Rules field for max_fan (repeatable)")
    _style(p, "tile style in csv/jsonl")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run the shards of a glob on a Dask cluster: local:N or tcp://HOST:PORT")
    _forecast_options(p)
    _choice(p, "--candidates", ("all", "keep"), "all",
            "--what forecast of 14 - 3m hands: every legal discard (all, default) or only those "
            "that keep the lowest shanten (keep; the others NaN)")
    p.set_defaults(func=_cmd_batch)


def _cmd_batch(args: argparse.Namespace) -> int:
    """One file, or with --dask many shards on a cluster."""
    return cmd_batch_cluster(args) if args.dask else cmd_batch(args)


def _add_bench(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "bench", help="run the benchmark set (hands/s, ratios to installed peers)",
        formatter_class=_FMT,
        description="Time every public kernel on random hands from the 108-tile wall (the cases "
                    "of mjfast.bench, shared with benchmarks/ and the README table) and compare "
                    "regular-form shanten (void rule off) with the peers that are installed: "
                    "riichienv, xiangting, mahjong (pip install 'mjfast[peers]'). Each peer is "
                    "checked against mjfast on its hands before it is timed. "
                    "Runs with OPENBLAS_NUM_THREADS=1.",
        epilog="examples:\n  mjfast bench --quick\n  mjfast bench --case shanten --case peer\n"
               "  mjfast bench --markdown > table.md")
    p.add_argument("--quick", action="store_true", help="small sizes (a few seconds)")
    p.add_argument("--case", action="append", metavar="NAME",
                   help="run only the case NAME, or else the cases whose name contains NAME "
                        "(repeatable)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON document")
    out.add_argument("--markdown", action="store_true", help="print the README table")
    p.set_defaults(func=cmd_bench)


def _add_rules(sub: _Subparsers) -> None:
    p = sub.add_parser(
        "rules", help="a rules preset's full table, in Chinese and English",
        formatter_class=_FMT,
        description="Print a preset's table (mjfast.Rules): base patterns, extras, payments, "
                    "draw settlement and game-flow options, each with its Chinese and English "
                    "name, its Rules field and its value. --diff keeps only what differs.",
        epilog="examples:\n  mjfast rules\n  mjfast rules points --diff chengdu\n"
               "  mjfast rules qq --option cap=4 --json")
    p.add_argument("preset", nargs="?", type=rules_type, default="chengdu", metavar="PRESET",
                   help="chengdu (default), qq or points")
    p.add_argument("--diff", type=rules_type, metavar="PRESET",
                   help="only the rows whose value differs from this preset")
    p.add_argument("--option", type=override_type, action="append", metavar="FIELD=VALUE",
                   help="override a Rules field, e.g. cap=4 (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.set_defaults(func=cmd_rules)


def _include_dir() -> str:
    from mjfast.capi import get_include  # the compiled C API: only when a parser is built

    return get_include()


def build_parser() -> argparse.ArgumentParser:
    """The ``mjfast`` argument parser (one subparser per command)."""
    parser = _Parser(prog=PROG, formatter_class=_FMT,
                     description="Sichuan mahjong (成都麻将, 血战到底) analysis: shanten, waits, "
                                 "effective tiles, fan, settlement, statistics and batch runs.",
                     epilog="examples:\n  mjfast analyze 123m456m789m11p23p\n"
                            "  mjfast score 22244455577799m --win 9m\n"
                            "  mjfast stats --hands 1000000 --workers 2\n"
                            "run 'mjfast COMMAND --help' for the options of a command.")
    parser.add_argument("--version", action="version", version=f"mjfast {__version__}")
    parser.add_argument("--include", action="version", version=_include_dir(),
                        help="print the folder of mjfast.h and mjfast.c (the C library) and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                parser_class=_Parser)
    for add in (_add_analyze, _add_score, _add_settle, _add_stats, add_play, _add_batch,
                _add_bench, _add_rules):
        add(sub)
    return parser
