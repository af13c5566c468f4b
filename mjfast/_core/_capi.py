"""The Python face of ``_capi.pxi``, one area of the compiled core's one extension module
(``mjfast._core._ext``); typed by ``_capi.pyi``."""

from mjfast._core._ext import (
    ABI_VERSION,
    CAPSULE,
)

__all__ = [
    "ABI_VERSION", "CAPSULE",
]
