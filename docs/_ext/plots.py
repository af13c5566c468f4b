"""The figures of the docs, drawn at build time by the library's own plot methods on fixed
inputs (the ``mjfast-plot`` directive calls ``NAME(path)``)."""

from __future__ import annotations

from pathlib import Path

import mjfast
from mjfast.stats import exact


def forecast_14(path: Path) -> None:
    f = mjfast.forecast("123m456m789m2p55p9s1s", draws=12)
    f.plot().figure.savefig(path)


def exact_14(path: Path) -> None:
    exact(14).plot().figure.savefig(path)


def selfplay(path: Path) -> None:
    bots = ("efficient", "efficient", "random", "random")
    mjfast.selfplay(2000, bots, seed=0).plot(labels=bots).savefig(path)
