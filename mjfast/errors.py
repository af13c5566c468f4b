"""Exception types raised by mjfast.

- :class:`InvalidArgumentError`: an argument of the wrong type or outside its accepted set
  (a void suit of ``"x"``, ``workers=0``, a float array as a hand, a bool as a tile). It is both
  a ``ValueError`` and a ``TypeError``, so ``except`` clauses written for either keep working.
- :class:`InvalidHandError`: a hand (or a row of a batch) that breaks the rules of RULES.md
  section 1 (a fifth copy, a wrong number of tiles); the message names the row.
- :class:`TileParseError`: tile text that cannot be read; the message names the position.
"""

from __future__ import annotations

__all__ = ["InvalidArgumentError", "InvalidHandError", "TileParseError"]


class InvalidArgumentError(ValueError, TypeError):
    """An argument is of the wrong type or outside its accepted set; the message names it.

    >>> import mjfast
    >>> mjfast.shanten("123m456m789m11p23p", void_suit="x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    mjfast.errors.InvalidArgumentError: void_suit: expected None, -1, 0, 1, 2, 'm', ... got 'x'
    """


class InvalidHandError(ValueError):
    """A hand (or a row of a batch) breaks the rules of RULES.md section 1.

    The message names where and why, e.g. ``hands[17]: tile 5p appears 5 times (max 4)``.
    """


class TileParseError(ValueError):
    """A tile string could not be parsed; the message names the position and the problem."""
