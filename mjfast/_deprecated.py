"""Old keyword names that keep working for one minor release (CHANGELOG.md, deprecation policy).

:func:`renamed` maps a function's old keyword names to the new ones, with a
``DeprecationWarning`` that names the replacement; the signature (and so the type checker)
knows only the new names.

>>> import warnings
>>> @renamed(hands="n_hands")
... def f(n_hands: int) -> int:
...     return n_hands
>>> with warnings.catch_warnings(record=True) as w:
...     warnings.simplefilter("always")
...     f(hands=3), str(w[0].message)
(3, 'f(hands=...) is deprecated since 0.2: use n_hands=...')
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from mjfast.errors import InvalidArgumentError

__all__ = ["renamed"]

P = ParamSpec("P")
R = TypeVar("R")


def renamed(**old_to_new: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Accept each old keyword ``old`` as ``new`` (``old_to_new``), warning that it is
    deprecated; passing both is an error naming them."""

    def wrap(func: Callable[P, R]) -> Callable[P, R]:
        name = getattr(func, "__qualname__", "function")

        @functools.wraps(func)
        def inner(*args: P.args, **kwargs: P.kwargs) -> R:
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise InvalidArgumentError(f"{name}: {old}= is the old name of {new}=; "
                                                   "pass one of them")
                    warnings.warn(f"{name}({old}=...) is deprecated since 0.2: use {new}=...",
                                  DeprecationWarning, stacklevel=2)
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return inner

    return wrap
