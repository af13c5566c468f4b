"""Plots (the plot extra): each plot renders to a file that is not empty, with the axes, labels
and data it promises; --plot FILE on analyze --draws, stats and play writes SVG or PNG and refuses
other names. What they look like was checked by eye (docs/ shows them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest

import mjfast
from mjfast import cli
from mjfast.errors import InvalidArgumentError
from mjfast.plot import save
from mjfast.stats import exact

matplotlib.use("Agg")  # files only (the test extra installs matplotlib)

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def _written(path: Path, kind: str) -> None:
    data = path.read_bytes()
    assert len(data) > 5000
    assert data.startswith(PNG) if kind == "png" else b"<svg" in data[:1000]


def test_forecast_13_tiles(tmp_path: Path) -> None:
    f = mjfast.forecast("123m456m789m23p55p", draws=5)
    ax = f.plot()
    assert ax.get_xlabel() == "own draws" and "P(win)" in ax.get_ylabel()
    ready, win = ax.get_lines()
    assert (ready.get_label(), win.get_label()) == ("P(ready)", "P(win)")
    assert np.array_equal(win.get_xdata(), np.arange(1, 6))
    assert np.allclose(win.get_ydata(), f.win)
    _written(save(ax, tmp_path / "f.png"), "png")


def test_forecast_14_tiles_one_curve_per_discard(tmp_path: Path) -> None:
    f = mjfast.forecast("123m456m789m2p55p9s1s", draws=6)
    fig, ax = plt.subplots()
    assert f.plot(ax) is ax  # draws on the given Axes
    legal = int((~np.isnan(f.value)).sum())
    assert len(ax.get_lines()) == 2 * legal  # P(win) and P(ready) per legal discard
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0] == f"discard {mjfast.format_tile(int(f.best_discard))} (best)"
    assert labels[-1] == "other discards"
    _written(save(fig, tmp_path / "f.svg"), "svg")


def test_forecast_batch_refused() -> None:
    f = mjfast.forecast(np.stack([mjfast.parse_hand("123m456m789m23p55p")] * 2), draws=2)
    with pytest.raises(InvalidArgumentError, match="one row per hand"):
        f.plot()


def test_exact_stats_with_and_without_void_rule(tmp_path: Path) -> None:
    st = exact(14, void_rule=False)  # either rule draws both
    ax = st.plot()
    assert ax.get_xlabel() == "shanten" and ax.get_ylabel() == "share of hands"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["-1", "0", "1", "2", "3", "4", "5"]
    void, free = ax.containers
    assert np.isclose(void.patches[4].get_height(), exact(14).rate(3))  # shanten 3, void rule
    assert np.isclose(free.patches[3].get_height(), st.rate(2))
    _written(save(ax, tmp_path / "e.png"), "png")


def test_selfplay_panels(tmp_path: Path) -> None:
    r = mjfast.selfplay(60, ("efficient", "random", "efficient"), seed=4)
    fig = r.plot(labels=("efficient", "random", "efficient"))
    win, net, fans = fig.axes
    assert [a.get_ylabel() for a in fig.axes] == ["win rate", "mean net per hand", "share of wins"]
    assert np.allclose([p.get_height() for p in win.patches], r.won.mean(axis=0))
    assert np.allclose([p.get_height() for p in net.patches], r.net.mean(axis=0))
    assert [t.get_text() for t in win.get_xticklabels()][1] == "1\nrandom"
    assert np.isclose(sum(p.get_height() for p in fans.patches), 1.0)
    _written(save(fig, tmp_path / "p.png"), "png")


def test_save_refuses_other_formats(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError, match=r"\.svg or \.png"):
        save(plt.figure(), tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("args", [
    ["analyze", "123m456m789m2p55p9s1s", "--void", "s", "--draws", "4"],
    ["stats", "--hands", "20000", "--seed", "3"],
    ["stats", "--exact", "--tiles", "13"],
    ["play", "--hands", "30", "--players", "efficient,random"],
])
@pytest.mark.parametrize("kind", ["svg", "png"])
def test_cli_plot(args: list[str], kind: str, tmp_path: Path,
                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"plot.{kind}"
    assert cli.main([*args, "--plot", str(out)]) == 0
    assert capsys.readouterr().out  # the text report still prints
    _written(out, kind)


def test_cli_plot_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--hands", "2", "--plot", str(tmp_path / "a.pdf")]) == 2
    assert "--plot: expected a file name ending in .svg or .png" in capsys.readouterr().err
    assert cli.main(["analyze", "123m456m789m2p55p9s1s", "--plot", str(tmp_path / "a.png")]) == 2
    assert "give --draws T" in capsys.readouterr().err
    assert cli.main(["stats", "--hands", "100", "--plot", str(tmp_path / "no" / "a.png")]) == 2
    assert "--plot: cannot write" in capsys.readouterr().err
