"""Exception types raised by mjfast."""

from __future__ import annotations

__all__ = ["InvalidHandError", "TileParseError"]


class InvalidHandError(ValueError):
    """A hand (or a row of a batch) breaks the rules of RULES.md section 1.

    The message names where and why, e.g. ``hands[17]: tile 5p appears 5 times (max 4)``.
    """


class TileParseError(ValueError):
    """A tile string could not be parsed; the message names the position and the problem."""
