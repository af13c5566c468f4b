"""What the commands share: the error type, the progress bar, the argparse types and the
hand / meld / rules helpers.

The option types are the library's own checks (:mod:`mjfast._args`) under the option's name, so
the command line accepts the sets the Python API accepts and words a refusal the same way::

    mjfast: error: --workers: expected a positive int or -1 (every core), got 0
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import IO, TYPE_CHECKING, Any, TypeVar

import numpy as np

from mjfast._args import as_choice, as_int, as_rules, as_sets, as_tile, as_void, as_workers
from mjfast.analysis import UNWINNABLE
from mjfast.bench.report import rate_text
from mjfast.errors import TileParseError, shown
from mjfast.rules import Rules
from mjfast.tiles import SUITS, Meld, parse_hand, parse_melds

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "PROG",
    "CLIError",
    "Progress",
    "choice_type",
    "fan_items",
    "int_type",
    "is_terminal",
    "key_value",
    "melds",
    "option_message",
    "override_type",
    "parse_text",
    "print_json",
    "rules_of",
    "rules_type",
    "sets_type",
    "shanten_text",
    "tile_type",
    "void_name",
    "void_type",
    "workers_type",
]

PROG = "mjfast"

T = TypeVar("T")

# The library names an argument as the Python API spells it; the command line names the option.
_OPTION_OF = {"void_suit": "--void", "visible": "--visible", "melds": "--meld",
              "rules": "--rules", "workers": "--workers"}


class CLIError(Exception):
    """An error reported as ``mjfast: error: <message>`` with exit status 2."""


def option_message(message: str) -> str:
    """A library message with the argument it names renamed to its option: ``visible: ...`` ->
    ``--visible: ...``, ``melds[1]: ...`` -> ``--meld[1]: ...``."""
    name, sep, rest = message.partition(": ")
    base = name.partition("[")[0]
    if not sep or base not in _OPTION_OF:
        return message
    return f"{_OPTION_OF[base]}{name[len(base):]}: {rest}"


def is_terminal(stream: IO[str]) -> bool:
    """Whether progress may be drawn on ``stream``."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal.

    ``update(done)`` redraws at most ten times a second; ``close()`` erases the line.
    """

    def __init__(self, total: int | None, label: str, unit: str = "hands",
                 stream: IO[str] | None = None, enabled: bool | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.enabled = is_terminal(self.stream) if enabled is None else enabled
        self.total, self.label, self.unit = total, label, unit
        self.start = time.perf_counter()
        self._last = 0.0

    def update(self, done: int, force: bool = False) -> None:
        """Show ``done`` items processed (of ``total``)."""
        if not self.enabled:
            return
        now = time.perf_counter()
        if not force and now - self._last < 0.1:
            return
        self._last = now
        rate = done / max(now - self.start, 1e-9)
        if self.total:
            frac = min(1.0, done / self.total)
            bar = "#" * int(frac * 30)
            text = (f"\r{self.label} [{bar:<30}] {frac:6.1%} {done:,}/{self.total:,} {self.unit} "
                    f"{rate_text(rate)} {self.unit}/s")
        else:
            text = f"\r{self.label} {done:,} {self.unit} {rate_text(rate)} {self.unit}/s"
        self.stream.write(text)
        self.stream.flush()

    def close(self) -> None:
        """Erase the bar."""
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()


# ---------------------------------------------------------------------------- argparse types
# A type raises CLIError rather than ArgumentTypeError, so the message is the library's,
# after the option's name, without argparse's "argument X:" in front.

def _checked(check: Callable[[Any, str], T], option: str, value: object) -> T:
    try:
        return check(value, option)
    except ValueError as exc:  # InvalidArgumentError, TileParseError
        raise CLIError(str(exc)) from None


def _number(text: str) -> int | str:
    """The text as an int when it is one, for the checks that take ints."""
    try:
        return int(text)
    except ValueError:
        return text


def void_type(text: str) -> int | None:
    """``--void``: m/p/s, 万/筒/饼/条/索 or 0/1/2; -1 or ``none`` for none (then None)."""
    v = _checked(as_void, "--void", None if text.lower() == "none" else _number(text))
    return None if v < 0 else v


def exchanges_type(text: str) -> int | None:
    """``--exchanges``: a budget K >= 0, or ``none`` for no budget (None)."""
    if text.lower() == "none":
        return None
    return _checked(partial(as_int, minimum=0), "--exchanges", _number(text))


def sets_type(text: str) -> int:
    """``--sets``: 2, 3 or 4 (the sets of a complete hand)."""
    return _checked(as_sets, "--sets", _number(text))


def workers_type(text: str) -> int:
    """``--workers``: a positive int, or -1 for every core."""
    return _checked(as_workers, "--workers", _number(text))


def rules_type(text: str) -> Rules:
    """``--rules``: a preset name."""
    return _checked(as_rules, "--rules", text)


def tile_type(text: str) -> int:
    """``--win``: one tile, as a kind index."""
    return _checked(as_tile, "--win", text)


def int_type(option: str, minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An int option from ``minimum`` up (to ``maximum``) (``--hands``, ``--chunk``, ``--seed``,
    ``--draws``); ``1_000_000`` and ``1,000,000`` are read too."""
    def convert(text: str) -> int:
        return _checked(partial(as_int, minimum=minimum, maximum=maximum), option,
                        _number(text.replace("_", "").replace(",", "")))
    return convert


def choice_type(option: str, choices: Sequence[str]) -> Callable[[str], str]:
    """One of a fixed set of words (``--style``, ``--form``, ``--errors``)."""
    def convert(text: str) -> str:
        return _checked(partial(as_choice, choices=choices), option, text)
    return convert


def plot_type(text: str) -> str:
    """``--plot FILE``: an .svg or .png file name."""
    from mjfast.plot import check_path

    _checked(check_path, "--plot", text)
    return text


def add_plot(p: argparse.ArgumentParser, what: str) -> None:
    """The ``--plot FILE`` option of a command that draws ``what``."""
    p.add_argument("--plot", type=plot_type, metavar="FILE",
                   help=f"also draw {what} to FILE, an .svg or .png (needs matplotlib: the plot "
                        "extra)")


def write_plot(path: str, draw: Callable[[], Figure | Axes]) -> None:
    """Draw a figure (without a window) and write it to ``path`` (``--plot``)."""
    try:
        import matplotlib
    except ImportError:
        raise CLIError("--plot: needs matplotlib: pip install 'mjfast[plot]'") from None
    from mjfast.plot import save

    matplotlib.use("Agg")  # a file, never a window
    try:
        save(draw(), path)
    except OSError as exc:
        raise CLIError(f"--plot: cannot write {shown(path)}: {exc.strerror or exc}") from None


def _option_value(text: str) -> Any:
    if text.lower() in ("none", "null"):
        return None
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return _number(text)


def key_value(text: str, option: str, example: str) -> tuple[str, Any]:
    """``NAME=VALUE`` of ``option``: the name and the value (none, true/false, an int or text)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise CLIError(f"{option}: expected NAME=VALUE (e.g. {example}), got {shown(text)}")
    return key.strip(), _option_value(value.strip())


def override_type(text: str) -> tuple[str, Any]:
    """``--option FIELD=VALUE``: a Rules field and its value (none, true/false, an int or text)."""
    return key_value(text, "--option", "cap=4")


# ------------------------------------------------------------------------------- helpers

def rules_of(rules: Rules, overrides: Sequence[tuple[str, Any]] | None) -> Rules:
    """``--rules`` with the ``--option`` overrides applied."""
    if not overrides:
        return rules
    try:
        return rules.replace(**dict(overrides))
    except (TypeError, ValueError) as exc:
        raise CLIError(f"--option: {exc}") from None


def melds(values: Sequence[str] | None) -> tuple[Meld, ...]:
    """The ``--meld`` options: repeated, or separated by commas (``pung:5p,kong:1m``)."""
    if not values:
        return ()
    items = [x.strip() for v in values for x in v.split(",") if x.strip()]
    try:
        return parse_melds(items)
    except (TypeError, ValueError) as exc:
        raise CLIError(f"--meld: {exc}") from None


def parse_text(text: str, what: str = "HAND") -> np.ndarray:
    """Tiles given on the command line (``HAND``, ``--visible``) as 27 counts."""
    try:
        return parse_hand(text)
    except TileParseError as exc:
        raise CLIError(f"{what}: {exc}") from None


def void_name(void: int | None) -> str | None:
    """How a void suit prints: its letter."""
    return None if void is None else SUITS[void]


def shanten_text(s: int) -> str:
    return "unwinnable" if s == UNWINNABLE else str(s)


def print_json(doc: Any) -> None:
    json.dump(doc, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def fan_items(items: Sequence[tuple[Any, int]], rules: Rules | None = None) -> list[dict[str, Any]]:
    """Fan items ``(Fan, n)`` for JSON; under the ``points`` model with the points page's
    Chinese names (``Fan.points_zh``)."""
    points = rules is not None and rules.model == "points"
    return [{"name": f.name.lower(), "zh": f.points_zh if points else f.zh, "fan": int(n)}
            for f, n in items]
