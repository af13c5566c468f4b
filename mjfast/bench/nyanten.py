"""nyanten (C++, header-only: https://github.com/Cryolite/nyanten) as a batch peer of the benchmarks.

nyanten computes the regular form only (riichi style, no void rule), which
``mjfast.shanten(h, form="regular", void_rule=False)`` must equal on 27-kind hands. It is
compiled by ``benchmarks/peers/nyanten/build.sh NYANTEN_SRC`` into a small shared library with
one batch entry point (a loop over the rows calling nyanten's regular-form function) and loaded
here with :mod:`ctypes` from ``$MJFAST_NYANTEN_LIB`` (default ``build/peers/libnyanten_batch.so``),
so that it runs in the same process on the same arrays as mjfast's kernels.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np

import mjfast

__all__ = ["LIB_ENV", "nyanten_available", "nyanten_shanten", "verify_nyanten"]

LIB_ENV = "MJFAST_NYANTEN_LIB"
"""The environment variable naming the built library."""

_DEFAULT = Path("build") / "peers" / "libnyanten_batch.so"


def _path() -> Path:
    return Path(os.environ.get(LIB_ENV) or _DEFAULT)


@cache
def _function() -> Callable[..., int]:
    lib = ctypes.CDLL(str(_path()))
    fn = lib.nyanten_shanten
    fn.restype = ctypes.c_int64
    fn.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p]
    return fn


def nyanten_available() -> str | None:
    """None when the nyanten library can be loaded, else why not."""
    try:
        _function()
    except OSError as exc:
        return (f"nyanten peer not built ({exc}); run benchmarks/peers/nyanten/build.sh "
                f"NYANTEN_SRC and set {LIB_ENV}")
    return None


def nyanten_shanten(hands: np.ndarray, out: np.ndarray) -> np.ndarray:
    """nyanten's regular-form shanten of every (n, 27) uint8 row into the (n,) int8 ``out``."""
    if hands.dtype != np.uint8 or hands.ndim != 2 or hands.shape[1] != 27 \
            or not hands.flags.c_contiguous:
        raise ValueError("hands: expected a C-contiguous (n, 27) uint8 array")
    if out.dtype != np.int8 or out.shape != (hands.shape[0],) or not out.flags.c_contiguous:
        raise ValueError("out: expected a C-contiguous (n,) int8 array")
    _function()(hands.ctypes.data, hands.shape[0], out.ctypes.data)
    return out


def verify_nyanten(hands: np.ndarray) -> int:
    """Check nyanten against ``mjfast.shanten(form="regular", void_rule=False)`` on ``hands``;
    return the number of hands checked (raises :class:`~mjfast.bench.PeerMismatchError`)."""
    from .peers import check_agreement

    hands = np.ascontiguousarray(hands, dtype=np.uint8)
    got = nyanten_shanten(hands, np.empty(len(hands), np.int8))
    return check_agreement("nyanten", hands, got,
                           np.asarray(mjfast.shanten(hands, form="regular", void_rule=False)))
