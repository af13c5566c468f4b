"""Exception types raised by mjfast.

- :class:`InvalidArgumentError`: an argument of the wrong type or outside its accepted set
  (a void suit of ``"x"``, ``workers=0``, a float array as a hand, a bool as a tile). It is both
  a ``ValueError`` and a ``TypeError``, so ``except`` clauses written for either keep working.
- :class:`InvalidHandError`: a hand (or a row of a batch) that breaks the rules of RULES.md
  section 1 (a fifth copy, a wrong number of tiles); the message names the row.
- :class:`TileParseError`: tile text that cannot be read; the message names the position.
"""

from __future__ import annotations

__all__ = ["InvalidArgumentError", "InvalidHandError", "TileParseError", "shown"]


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


def shown(value: object, *, with_type: bool = False) -> str:
    """How an offending value appears in a message: short, whatever its size.

    Scalars (None, bools, numbers, strings) show their repr, cut to 40 characters (a huge int
    shows its size: its str() alone may fail); anything else shows its type. *with_type* puts
    the type before a scalar's repr.

    >>> shown("x"), shown(2**300), shown([1, 2]), shown(7, with_type=True)
    ("'x'", 'an int of 301 bits', 'list', 'int 7')
    """
    if hasattr(value, "item") and type(value).__module__ == "numpy" and getattr(value, "ndim", 1) == 0:
        value = value.item()
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an int of {value.bit_length()} bits"
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        text = repr(value)
        if len(text) > 40:
            text = f"{text[:30]}... ({len(text)} characters)"
        return f"{type(value).__name__} {text}" if with_type else text
    return type(value).__name__
