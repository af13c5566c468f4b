"""Pages and figures generated from the code when the docs are built, so they cannot drift.

On ``builder-inited`` this writes into ``docs/_generated/`` (not in git), which pages include:

- ``cli.md``: the command-line reference, walked from :func:`mjfast.cli.parser.build_parser`
  (every subcommand's description, usage, options with their defaults, and examples);
- ``api.md``: the API reference, one section per module of :data:`API_MODULES`, listing each
  name of its ``__all__`` for autodoc (for a submodule, those the top level does not export);
- ``bench.md`` and ``bench.svg``: the table and chart of ``docs/_data/bench.json``, the output of
  ``mjfast bench --json``;
- ``forecast_mcpp.md``: the forecast against mahjong-cpp of ``docs/_data/forecast_mcpp.json``,
  the output of ``benchmarks/forecast_vs_mcpp.py``;
- ``players.md``: the duplicate results of ``docs/_data/players.json``, the output of
  ``benchmarks/duplicate_players.py``;
- ``*.svg``: the figures of :mod:`plots`, drawn by the library's own plot methods.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import sys
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

HERE = Path(__file__).resolve().parent
DOCS = HERE.parent
OUT = DOCS / "_generated"

API_MODULES = ("mjfast", "mjfast.errors", "mjfast.tiles", "mjfast.scoring", "mjfast.rules",
               "mjfast.settlement", "mjfast.forecast", "mjfast.stats", "mjfast.table",
               "mjfast.table.aec", "mjfast.plot", "mjfast.datagen", "mjfast.dask", "mjfast.capi")
FIGURES = ("forecast_14", "exact_14", "selfplay")


def _write(name: str, text: str) -> None:
    """Write only what changed, so Sphinx rebuilds only the pages that include it."""
    path = OUT / name
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


# -------------------------------------------------------------------------------- the CLI

def _escape(text: str) -> str:
    return "".join("\\" + c if c in "*_`[]<>|" else c for c in text)


def _options(parser: argparse.ArgumentParser) -> list[str]:
    """A definition list of the parser's arguments (MyST deflist)."""
    out = []
    for action in parser._actions:  # argparse keeps them nowhere public
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        if action.help == argparse.SUPPRESS:
            continue
        if action.option_strings:
            names = ", ".join(action.option_strings)
            if action.nargs != 0:
                metavar = action.metavar or action.dest.upper()
                names += f" {metavar if isinstance(metavar, str) else ' '.join(metavar)}"
        else:
            names = str(action.metavar or action.dest)
        text = (action.help or "").replace("%(default)s", str(action.default))
        if action.choices and not isinstance(action.choices, dict):
            text += f" Choices: {', '.join(map(str, action.choices))}."
        out += [f"`{names}`", f": {_escape(text) or '(no help)'}", ""]
    return out


def _fence(text: str) -> list[str]:
    return ["```text", text.rstrip(), "```", ""]


def cli_markdown() -> str:
    from mjfast.cli.parser import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    lines = ["### `mjfast`", "", _escape(parser.description or ""), "",
             *_fence(parser.format_usage()), *_options(parser), *_fence(parser.epilog or "")]
    for name, command in sub.choices.items():
        lines += [f"### `mjfast {name}`", ""]
        if command.description:
            lines += [_escape(p) + "\n" for p in command.description.split("\n\n")]
        lines += _fence(command.format_usage())
        lines += _options(command)
        if command.epilog:
            lines += _fence(command.epilog)
    return "\n".join(lines)


# -------------------------------------------------------------------------------- the API

def api_markdown() -> str:
    import mjfast

    lines = []
    for name in API_MODULES:
        module = importlib.import_module(name)
        skip = set() if name == "mjfast" else set(mjfast.__all__)
        parent, _, last = name.rpartition(".")
        # mjfast.forecast is also the function mjfast.forecast: index the module under one name
        clash = bool(parent) and getattr(importlib.import_module(parent), last) is not module
        lines += [f"## `{name}`", "", "```{eval-rst}", f".. automodule:: {name}",
                  "   :no-members:", *(["   :no-index:"] if clash else []), ""]
        for member in getattr(module, "__all__", []):
            if member in skip:
                continue
            obj = getattr(module, member)
            if inspect.isclass(obj):
                kind = "exception" if issubclass(obj, BaseException) else "class"
                lines += [f".. auto{kind}:: {name}.{member}", "   :members:", ""]
            elif callable(obj) and not hasattr(obj, "__origin__"):
                lines += [f".. autofunction:: {name}.{member}", ""]
            else:
                lines += _data(name, member, obj)
        lines += ["```", ""]
    return "\n".join(lines)


def _data(name: str, member: str, obj: object) -> list[str]:
    """A constant's entry, documented where its doc comment is (a re-exported constant has its
    docstring in the module that defines it; autodoc would show its type's docstring)."""
    from sphinx.pycode import ModuleAnalyzer

    homes = [name, *sorted(m for m in sys.modules if m.startswith(f"{name}.")
                           and getattr(sys.modules[m], member, None) is obj)]
    for home in homes:
        try:
            docs = ModuleAnalyzer.for_module(home).find_attr_docs()
        except Exception:  # a compiled module has no source to read
            continue
        if ("", member) in docs:
            return [f".. autodata:: {home}.{member}", "   :no-value:", ""]
    return [f".. py:data:: {name}.{member}", ""]


# ------------------------------------------------------------------------------ benchmarks

def bench_markdown(source: str = "_data/bench.json", chart: str = "bench.svg") -> str:
    data: dict[str, Any] = json.loads((DOCS / source).read_text(encoding="utf-8"))
    results = [r for r in data["results"] if not r.get("skipped")]
    m = data["machine"]
    load = m.get("load_average")
    # the headline: the streaming cases (each row read once from memory), nyanten beside them
    stream = [r for r in results if r["name"].endswith("_stream")]
    lines = [f"From `{source}`: {m['cpus']} CPUs ({m['machine']}), Python {m['python']}, numpy "
             f"{m['numpy']}{', quick sizes' if data['quick'] else ''}"
             f"{'' if load is None else f', load average {load} at the start'}.", ""]
    if stream:
        lines += ["Streaming: every row read once from memory (the rate of a caller who streams "
                  "millions of hands), one core, the peer on the same hands in the same run:", "",
                  *_bench_table(stream), "",
                  "The other cases (kernels in cache: one batch of at most 10^6 hands, called again "
                  "and again):", ""]
    lines += _bench_table([r for r in results if r not in stream])
    skipped = [f"`{r['name']}` ({_escape(r['skipped'])})" for r in data["results"] if r.get("skipped")]
    if skipped:
        lines += ["", "Skipped in this run: " + ", ".join(skipped) + "."]
    _bench_chart(results, OUT / chart)
    lines += ["", f"```{{image}} /_generated/{chart}", ":alt: benchmark rates per case", "```", ""]
    return "\n".join(lines)


def _bench_table(results: list[dict[str, Any]]) -> list[str]:
    from mjfast.bench.report import rate_text

    lines = ["| case | what | n | rate | ratio |", "|---|---|---:|---:|---|"]
    for r in results:
        ratio = "" if r.get("ratio") is None else (
            f"mjfast x{r['ratio']:.1f}" if r.get("peer") else f"x{r['ratio']:.2f} vs {r['compare']}")
        lines.append(f"| `{r['name']}` | {_escape(r['title'])} | {r['n']:,} | "
                     f"{rate_text(r['rate'])} {r['unit']} | {ratio} |")
    return lines


def _bench_chart(results: list[dict[str, Any]], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 0.3 * len(results) + 1.2), layout="constrained")
    ax.barh([r["name"] for r in results][::-1], [r["rate"] for r in results][::-1],
            color=["#c44e52" if r.get("peer") else "#4c72b0" for r in results][::-1])
    ax.set_xscale("log")
    ax.set_xlabel("rate per second (log scale; peers in red)")
    ax.grid(axis="x", alpha=0.3)
    fig.savefig(out, metadata={"Date": None})  # no timestamp: the same data, the same file
    plt.close(fig)


# ------------------------------------------------------------------------- forecast vs mcpp

_SETS = {"two": "two suits", "mps": "three suits"}
_BUDGETS = {"b1": ("`exchanges=1`", "extra = 1"),
            "b1back": ("`exchanges=1, backward=True`", "extra = 1"),
            "b2": ("`exchanges=2`", "extra = 2")}


def forecast_mcpp_markdown(source: str = "_data/forecast_mcpp.json") -> str:
    """Phase A (18 draws, no exchanges: rates and ratios) and phase D (the exchange budgets
    against mahjong-cpp's exchanges: rates and state counts) of ``forecast_vs_mcpp.py``."""
    data: dict[str, Any] = json.loads((DOCS / source).read_text(encoding="utf-8"))
    lines = [f"From `{source}` (`benchmarks/forecast_vs_mcpp.py`, mjfast {data['mjfast']}): "
             f"{_escape(data['note'])}.", "",
             "18 draws, no exchanges, hands per second (best round; the ratios are the medians "
             "of the per-round ratios). mjfast evaluates every discard, or with "
             "`candidates=\"keep\"` those that keep the lowest shanten; mahjong-cpp's native "
             "call evaluates the discards that keep the riichi-style shanten, and with "
             "`all_discards` every discard:", "",
             "| hands | shanten | n | mjfast | mjfast `keep` | mahjong-cpp native "
             "| mahjong-cpp every discard | every discard, ratio | `keep` / native |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for key, c in data["A"].items():
        name, s = key.split("_")
        lines.append(f"| {_SETS[name]} | {s} | {data['hands'][key]['n']} | {c['mj_full_best']:,.0f} "
                     f"| {c['mj_keep_best']:,.0f} | {c['mcpp_i_best']:,.0f} "
                     f"| {c['mcpp_iall_best']:,.0f} "
                     f"| x{c['ratio_mj_full_over_mcpp_iall']['median']:.2f} "
                     f"| x{c['ratio_mj_keep_over_mcpp_i']['median']:.2f} |")
    lines += ["", "Exchange budgets at 18 draws against mahjong-cpp's exchanges (手変わり and "
              "向聴戻し on) at the same hands; mjfast's states and buffers are the peaks of one "
              "call, mahjong-cpp's states the hands it searched; a hand past a per-call cap is "
              "refused (`InvalidArgumentError`) and counted, not timed; mahjong-cpp at extra = 2 "
              "from 3-shanten (over a minute and GBs a hand) is not run:", "",
              "| mjfast | mahjong-cpp | hands | shanten | n | mjfast hands/s | slowest "
              "| past the cap | mjfast states (median) | peak buffers | mahjong-cpp hands/s "
              "| its states (mean) | its peak RSS |",
              "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for key, c in data["D"].items():
        tag, name, s = key.split("_")
        ours, theirs = _BUDGETS[tag]
        rate = "" if c["mj_hands_per_s"] is None else f"{c['mj_hands_per_s']:.3g}"
        slowest = "" if c["mj_slowest_s"] is None else f"{c['mj_slowest_s']:.2f} s"
        states = f"{c['mj_states']['median']:,.0f}" if c["mj_states"] else ""
        peak = "" if c.get("mj_peak_mib") is None else f"{c['mj_peak_mib']:,.0f} MiB"
        m = c["mcpp"]
        theirs_cells = (f"{m['hands_per_s']:.3g} | {m['mean_searched']:,.0f} "
                        f"| {m['peak_rss_mb']:,.0f} MB" if m else "not run | | ")
        lines.append(f"| {ours} | {theirs} | {_SETS[name]} | {s} | {c['n']} | {rate} | {slowest} "
                     f"| {c['n'] - c['mj_ok']} | {states} | {peak} | {theirs_cells} |")
    return "\n".join(lines + [""])


# -------------------------------------------------------------------------------- players

_CASES = {"default": "the default player", "win": "objective `win`",
          "void_efficient": "void by the `efficient` rule", "exchanges1": "`exchanges=1`"}


def _pm(x: float, ci: float) -> str:
    return f"{x:+.3f} ± {ci:.3f}"


def players_markdown(source: str = "_data/players.json") -> str:
    """The results table (the default player under each preset) and the ablation table."""
    runs: list[dict[str, Any]] = json.loads((DOCS / source).read_text(encoding="utf-8"))["runs"]
    lines = [f"From `{source}` (`benchmarks/duplicate_players.py`). Net: the forecast player's "
             "net per hand minus the `efficient` player's in the same seats on the same walls; "
             "the rates per hand played in the tested seat, forecast / efficient (the fan in "
             "the preset's display numbering):", "",
             "| rules | walls | hands | net per hand (95%) | win rate | mean fan of wins "
             "| deal-in | 花猪 | 查大叫 |", "|---|---:|---:|---:|---|---|---|---|---|"]
    for r in (r for r in runs if r["case"] == "default"):
        t, o = r["tested"], r["opponent"]
        cells = [f"{t[k]:.2%} / {o[k]:.2%}" for k in ("win_rate",)]
        cells.append(f"{t['mean_fan']:.3f} / {o['mean_fan']:.3f}")
        cells += [f"{t[k]:.2%} / {o[k]:.2%}" for k in ("dealt_in", "hua_zhu", "cha_da_jiao")]
        lines.append(f"| `{r['rules']}` | {r['hands']:,} | {r['hands'] * r['seats']:,} | "
                     f"{_pm(r['mean_net'], r['mean_net_ci'])} | " + " | ".join(cells) + " |")
    lines += ["", "Ablation: each variant of the player against three `efficient` ones, and "
              "against the default player on the same walls (paired, wall by wall):", "",
              "| rules | variant | walls | net per hand vs efficient (95%) | vs the default "
              "player (95%) |", "|---|---|---:|---:|---:|"]
    for r in runs:
        paired = (f"{_pm(r['vs_default'], r['vs_default_ci'])} ({r['vs_default_walls']:,} walls)"
                  if "vs_default" in r else "")
        lines.append(f"| `{r['rules']}` | {_CASES.get(r['case'], r['case'])} | {r['hands']:,} | "
                     f"{_pm(r['mean_net'], r['mean_net_ci'])} | {paired} |")
    loads = [x for r in runs for x in r["load"]]
    lines += ["", f"Played on a shared machine, one or two threads a run, under a load average "
              f"of {min(loads):.1f} to {max(loads):.1f}.", ""]
    return "\n".join(lines)


# ------------------------------------------------------------------------------------ setup

def generate(_app: Sphinx) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sys.path.insert(0, str(HERE))
    import plots

    OUT.mkdir(exist_ok=True)
    _write("cli.md", cli_markdown())
    _write("api.md", api_markdown())
    _write("bench.md", bench_markdown())
    _write("forecast_mcpp.md", forecast_mcpp_markdown())
    _write("players.md", players_markdown())
    for name in FIGURES:
        getattr(plots, name)(OUT / f"{name}.svg")
        plt.close("all")


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", generate)
    return {"parallel_read_safe": True, "version": "2"}
