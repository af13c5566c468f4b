"""The ``mjfast`` command line (also ``python -m mjfast``): a thin argparse front end.

Subcommands, one module each::

    mjfast analyze HAND         shanten per form, waits, effective tiles, discards, 大叫 value
    mjfast score HAND --win T   the fan of a win
    mjfast settle EVENTS.json   replay a Round event log: who pays whom
    mjfast stats                statistics of random dealt hands (mjfast.stats)
    mjfast batch IN OUT         shanten / waits / effective tiles / max fan of a file of hands
    mjfast bench                the benchmark set (mjfast.bench), with ratios to peers
    mjfast rules [PRESET]       a rules preset's full table (--diff PRESET: what differs)

Options take what the Python API takes, checked by the same code (:mod:`mjfast._args`), and a
refusal is the library's message after the option's name. Every error prints one line,
``mjfast: error: ...``, on stderr and exits with status 2 (set ``MJFAST_TRACEBACK=1`` to see the
traceback of a ValueError or OSError instead); ``--help`` on each subcommand shows an example.
``--json`` prints one JSON document on stdout. Progress bars go to stderr, and only when it is
a terminal.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from mjfast.errors import InvalidHandError, TileParseError
from mjfast.stats import run_stats

from .batch_io import NOT_READY, parse_lines
from .common import PROG, CLIError, Progress, option_message
from .parser import build_parser

__all__ = ["NOT_READY", "CLIError", "Progress", "build_parser", "main", "parse_lines", "run_stats"]

EXIT_ERROR = 2
EXIT_INTERRUPTED = 130


def _fail(message: str) -> int:
    message = " ".join(message.split())  # one line
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return EXIT_ERROR


def _quiet_stdout() -> None:
    """Stdout went away (piped into ``head``): send what is left to /dev/null."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 error, 130 interrupted)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser().parse_args(argv)
        args.argv = argv
        return int(args.func(args) or 0)
    except CLIError as exc:
        return _fail(str(exc))
    except (TileParseError, InvalidHandError) as exc:  # bad input, not a bug: never a traceback
        return _fail(option_message(str(exc)))
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except MemoryError:
        return _fail("out of memory (use smaller chunks: --chunk, or fewer --hands)")
    except (ValueError, OSError) as exc:  # a check of the library, or a file problem
        if os.environ.get("MJFAST_TRACEBACK"):
            raise
        return _fail(option_message(str(exc)) or type(exc).__name__)
