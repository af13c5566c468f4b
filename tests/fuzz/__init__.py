"""Fuzz suite: hostile values thrown at every public entry point (issue 15, "Keep it so").

Each test draws valid arguments for one entry point of ``mjfast.__all__`` (or ``mjfast.stats``,
or ``mjfast.cli.main``), replaces one or more of them with hostile values (wrong types, nan and
inf, bools, huge and negative ints, odd Unicode, arrays of every dtype, shape and memory layout,
objects whose ``__index__`` / ``__len__`` / ``__iter__`` raise, deeply nested JSON, ``out=``
arrays that are wrong or overlap the input) and checks one property
(:func:`tests.fuzz.hostile.outcome`): the call returns a value of its documented type, or
raises one of the documented errors (:class:`~mjfast.errors.InvalidArgumentError`,
:class:`~mjfast.errors.InvalidHandError`, :class:`~mjfast.errors.TileParseError`, or a plain
``ValueError`` where the docstring documents one) with a short message that names the argument;
never IndexError, KeyError, AttributeError, OverflowError, RecursionError, SystemError,
MemoryError, a bare TypeError, a hang or a crash; and a refused batch call leaves a caller's
``out=`` array as it was. The command line returns 2 with one line on stderr instead.

Surfaces: the kernels, scoring, settlement, rules, notation, stats, the CLI, the forecasts
(``test_fuzz_forecast.py``: hostile options, and the state, byte and work caps), the table
(``test_fuzz_table.py``: Table, its steps, TableBatch, self-play), the C library
(``test_fuzz_capi.py``: through the capsule of the loaded library, mutated rules blobs, hostile
counts, options, void suits and batch sizes; every result a documented value or an ``MJ_E_*``
code, and no fan of a blob that loads ever an error code) and Dask (``test_fuzz_dask.py``:
arrays, forecast and dataframes with hostile options and rows on the synchronous scheduler;
``errors="coerce"`` never aborts).

Example count: every test runs under :data:`tests.fuzz.hostile.FUZZ`, the suite's settings
profile: 100 examples per test by default (the whole suite takes about a minute on two
cores, as CI runs it with ``pytest tests``), or as many as the environment variable
``MJFAST_FUZZ_EXAMPLES`` asks for. A long run, with fresh examples on each run (the default
``ci`` profile draws the same ones every time)::

    MJFAST_FUZZ_EXAMPLES=5000 pytest tests/fuzz -q --hypothesis-profile=dev

``MJFAST_FUZZ_CALL_LIMIT`` (seconds, default 30) is how long one call may take before it
counts as a hang.

Defects found in code that other work is changing are pinned by strict xfail tests in
``test_known_defects.py`` (each a one-line reproducer); the fuzz tests tolerate exactly those
refusals (:data:`tests.fuzz.hostile.KNOWN`), so that a fix shows up as an XPASS to clean up.
"""
