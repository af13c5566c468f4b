# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The compiled core: one extension module, so one copy of the C code and of its tables per
process. Each area is a Cython include file, with its C declarations in the .pxd of its name and
its Python face in the .py of its name (``mjfast._core._kernels`` etc., typed by their .pyi):

- ``_capi.pxi``: the C library's tables (built on import) and its public function table;
- ``_rows.pxi``: the row checks and argument plumbing the areas share;
- ``_kernels.pxi``: shanten, waits, effective tiles and discards (``src/mjfast_batch.h``);
- ``_fan.pxi``: the fan kernels (``src/mjfast_fan.h``) and the single-hand fast paths;
- ``_stats.pxi``: the sampled and exact deal statistics (``src/mjfast_stats.h``, ``mjfast_exact.h``);
- ``_forecast.pxi``: the forecast engine (``src/mjfast_forecast.h``);
- ``_table.pxi``: the table engine (``src/mjfast_table_play.h``).
"""

include "_capi.pxi"
include "_rows.pxi"
include "_kernels.pxi"
include "_fan.pxi"
include "_stats.pxi"
include "_forecast.pxi"
include "_table.pxi"
