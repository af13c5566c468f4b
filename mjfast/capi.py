"""Embedding mjfast below Python: the C library and the Cython API.

The package ships the C library as two files, ``mjfast.h`` and ``mjfast.c`` (the amalgamation
of ``src/``), in the folder :func:`get_include` returns (also printed by
``mjfast --include`` / ``python -m mjfast --include``): compile ``mjfast.c`` into a C program,
or use the library this package already loaded from Cython with ``from mjfast cimport capi``
(``mjfast/capi.pxd``), which calls it through :data:`CAPSULE` on the tables Python built.

>>> import os
>>> sorted(f for f in os.listdir(get_include()) if f.startswith("mjfast."))
['mjfast.c', 'mjfast.h']
"""

from __future__ import annotations

from pathlib import Path

from mjfast._core._capi import ABI_VERSION, CAPSULE

__all__ = ["ABI_VERSION", "CAPSULE", "get_include"]


def get_include() -> str:
    """The folder holding ``mjfast.h`` and ``mjfast.c`` in the installed package (compile C code
    with ``-I`` on it, or add it to a Cython extension's ``include_dirs``), like
    ``numpy.get_include()``."""
    return str(Path(__file__).resolve().parent / "_core" / "include")
