"""Plots of forecasts, deal statistics and self-play results (the ``plot`` extra: matplotlib).

The core depends on numpy alone: matplotlib is imported when a plot is drawn, and its absence
raises an ImportError that says how to install it. The result types call these functions from
their ``plot`` methods (:meth:`mjfast.Forecast.plot`, :meth:`mjfast.stats.ExactStats.plot`,
:meth:`mjfast.SelfPlayResult.plot`), and ``--plot FILE`` on ``mjfast analyze --draws``,
``mjfast stats`` and ``mjfast play`` saves them (:func:`save`).

Each function draws on the matplotlib Axes it is given, or on a new figure's, and returns what it
drew on, so a caller can add titles or save it::

    ax = mjfast.forecast("123m456m789m23p55p", draws=6).plot()
    ax.figure.savefig("forecast.png")
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from mjfast._deprecated import renamed
from mjfast.analysis import UNWINNABLE
from mjfast.errors import InvalidArgumentError, shown
from mjfast.tiles import format_tile

if TYPE_CHECKING:  # matplotlib is optional: only its types are named here
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


# What the plots read of the result types (mjfast.Forecast, mjfast.stats.ExactStats), which
# call them: named by shape, so this module imports none of them (no import cycle).
class _Curves(Protocol):
    @property
    def ready(self) -> np.ndarray: ...
    @property
    def win(self) -> np.ndarray: ...
    @property
    def draws(self) -> int: ...
    @property
    def objective(self) -> str: ...
    @property
    def exchanges(self) -> int | None: ...
    @property
    def best_discard(self) -> np.ndarray | int | None: ...
    @property
    def complete(self) -> bool: ...


class _Distribution(Protocol):
    @property
    def tiles(self) -> int: ...
    @property
    def wall(self) -> tuple[int, ...]: ...
    @property
    def total(self) -> int: ...
    @property
    def shanten(self) -> dict[int, int]: ...

__all__ = ["FORMATS", "check_path", "exact_stats", "forecast", "save", "selfplay",
           "shanten_distribution"]

FORMATS = (".svg", ".png")
"""The file types that :func:`save` and ``--plot FILE`` write, by suffix."""

_VOID, _FREE = "#4c72b0", "#dd8452"  # with / without the void rule, in every plot
_CURVES = 6  # discards of a 14-tile forecast drawn in colour (the best by P(win))


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - the plot extra is installed in CI
        raise ImportError("mjfast: plots need matplotlib: pip install 'mjfast[plot]'") from exc
    return plt


def _axes(ax: Axes | None) -> Axes:
    if ax is not None:
        return ax
    _, new = _pyplot().subplots(figsize=(8.5, 4.4), layout="constrained")
    return new


def forecast(f: _Curves, ax: Axes | None = None) -> Axes:
    """P(ready) (dashed) and P(win) (solid) by draw of a :class:`~mjfast.Forecast`; for a 14 -
    3m hand one pair of curves per legal discard (the best few in colour, the best first and
    drawn thicker)."""
    if f.win.ndim != (2 if f.complete else 1):
        raise InvalidArgumentError("plot: a batch forecast has one row per hand; plot one row, "
                                   "e.g. mjfast.forecast(hands[i], ...).plot()")
    ax = _axes(ax)
    t = np.arange(1, f.draws + 1)
    if not f.complete:
        ax.plot(t, f.ready, "--", color=_VOID, label="P(ready)")
        ax.plot(t, f.win, "-", color=_FREE, marker="o", ms=3, label="P(win)")
    else:
        best = int(np.asarray(f.best_discard))
        kinds = [d for d in range(27) if not np.isnan(f.win[d]).any()]
        kinds.sort(key=lambda d: (d != best, -float(f.win[d, -1]) if f.draws else 0.0, d))
        colors = _pyplot().get_cmap("tab10")
        for i, d in enumerate(kinds):
            # the best few in colour, the others (the same shape, lower) in grey
            shown_ = i < _CURVES
            color = colors(i) if shown_ else "#b0b0b0"
            label = (f"discard {format_tile(d)}" + (" (best)" if d == best else "") if shown_
                     else "other discards" if i == _CURVES else None)
            ax.plot(t, f.win[d], "-", lw=2.4 if d == best else 1.2, color=color, label=label,
                    zorder=3 if shown_ else 2)
            ax.plot(t, f.ready[d], "--", lw=0.8, color=color, zorder=3 if shown_ else 2)
    ax.set_xlabel("own draws")
    ax.set_ylabel("probability (P(win) solid, P(ready) dashed)")
    ax.set_ylim(0, 1.02)
    ax.set_xlim(0.5, max(f.draws, 1) + 0.5)
    ax.grid(alpha=0.3)
    objective = "P(win)" if f.objective == "win" else "expected value"
    budget = "off" if f.exchanges == 0 else "no budget" if f.exchanges is None else f.exchanges
    ax.set_title(f"forecast over {f.draws} draws (playing for {objective}, exchanges {budget})")
    ax.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.01, 0.5))
    return ax


def shanten_distribution(void: Mapping[int, float], free: Mapping[int, float], *,
                         exact: tuple[Mapping[int, float], Mapping[int, float]] | None = None,
                         title: str = "", ax: Axes | None = None) -> Axes:
    """Bars of the share of hands per shanten, with (缺一门) and without the void rule side by
    side; ``exact`` adds the exact shares as black ticks over sampled bars."""
    ax = _axes(ax)
    values = sorted(set(void) | set(free))
    x = np.arange(len(values))
    # English labels only: the default fonts have no CJK glyphs
    for shift, data, color, label in ((-0.2, void, _VOID, "void rule"),
                                      (0.2, free, _FREE, "no void rule")):
        ax.bar(x + shift, [data.get(s, 0.0) for s in values], width=0.4, color=color, label=label)
    if exact is not None:
        for shift, data in zip((-0.2, 0.2), exact):
            ax.scatter(x + shift, [data.get(s, 0.0) for s in values], marker="_", s=200,
                       color="black", zorder=3)
        ax.scatter([], [], marker="_", color="black", label="exact")
    ax.set_xticks(x, ["unwinnable" if s == UNWINNABLE else str(s) for s in values])
    ax.set_xlabel("shanten")
    ax.set_ylabel("share of hands")
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(title)
    ax.legend(fontsize="small")
    return ax


def exact_stats(void: _Distribution, free: _Distribution, ax: Axes | None = None) -> Axes:
    """The exact shanten distributions of the same deals with (``void``) and without (``free``)
    the void rule, as two :class:`~mjfast.stats.ExactStats`."""
    shares = [{s: n / x.total for s, n in x.shanten.items()} for x in (void, free)]
    return shanten_distribution(
        *shares, ax=ax,
        title=f"shanten of all {void.total:,} deals\nof {void.tiles} tiles from the "
              f"{sum(void.wall)}-tile wall")


@renamed(players="labels")
def selfplay(doc: Mapping[str, Any], fig: Figure | None = None,
             labels: Sequence[str] | None = None) -> Figure:
    """Three panels from a self-play summary (:func:`mjfast.table.selfplay.summary`): the win
    rate and the mean net per seat, each with its 95% interval, and the histogram of the fan of
    wins. ``labels`` names the seats (the bots played)."""
    if fig is None:
        fig = _pyplot().figure(figsize=(11, 3.8), layout="constrained")
    axes = fig.subplots(1, 3)
    seats = doc["seats"]
    ticks = [f"{p}\n{labels[p]}" if labels else str(p) for p in range(len(seats))]
    x = np.arange(len(seats))
    for ax, key, ylabel in ((axes[0], "win_rate", "win rate"),
                            (axes[1], "mean_net", "mean net per hand")):
        ax.bar(x, [s[key] for s in seats], yerr=[s[f"{key}_ci"] for s in seats], capsize=4,
               color=_VOID)
        ax.set_xticks(x, ticks)
        ax.set_xlabel("seat")
        ax.set_ylabel(ylabel)
        ax.grid(axis="y", alpha=0.3)
        ax.set_title(f"{ylabel} (95% interval)")
    axes[1].axhline(0, color="black", lw=0.8)
    hist = doc["fan_histogram"]
    fans = sorted(hist)
    total = sum(hist.values()) or 1
    axes[2].bar(np.arange(len(fans)), [hist[f] / total for f in fans], color=_FREE)
    axes[2].set_xticks(np.arange(len(fans)), [str(f) for f in fans])
    axes[2].set_xlabel("fan of the win")
    axes[2].set_ylabel("share of wins")
    axes[2].set_title(f"fan of {sum(hist.values()):,} wins")
    axes[2].grid(axis="y", alpha=0.3)
    fig.suptitle(f"self-play: {doc['hands']:,} hands")
    return fig


def save(drawing: Figure | Axes, path: str | Path) -> Path:
    """Write a figure (or the figure of an Axes) to ``path``, an SVG or PNG file by its suffix
    (InvalidArgumentError for another suffix, before anything is written)."""
    path = check_path(path)
    target: Any = drawing
    while not hasattr(target, "savefig"):  # an Axes (or a subfigure): up to its figure
        target = target.figure
    target.savefig(path)
    return path


def check_path(path: str | Path, what: str = "path") -> Path:
    """``path`` as a Path if its suffix is one of :data:`FORMATS`, else InvalidArgumentError
    naming ``what``."""
    if Path(path).suffix.lower() not in FORMATS:
        raise InvalidArgumentError(f"{what}: expected a file name ending in .svg or .png, got "
                                   f"{shown(str(path))}")
    return Path(path)
