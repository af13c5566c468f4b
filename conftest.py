"""Doctests of the modules that need an optional extra are collected only where it is
installed (``pip install ".[dask]"``); their tests in tests/dask skip on their own."""

from __future__ import annotations

from importlib.util import find_spec

# module file -> the packages it imports at load time
_NEEDS = {
    "mjfast/dask.py": ("dask", "pandas", "pyarrow"),
    "mjfast/cli/batch_parquet.py": ("pyarrow",),
}

collect_ignore = [path for path, packages in _NEEDS.items()
                  if any(find_spec(p) is None for p in packages)]
