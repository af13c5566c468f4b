# Included first by _ext.pyx (the one extension module); its C declarations are _capi.pxd.
"""The C library (``mjfast.c``, the amalgamation) inside the package: importing the extension
builds its tables (``mj_init``), which every kernel of the extension then runs on, one copy per
process. :data:`CAPSULE` hands the public function table (``mj_capi_t`` of ``mjfast.h``) to the
code that ``from mjfast cimport capi`` compiles.
"""

from cpython.pycapsule cimport PyCapsule_New

from mjfast._core._capi cimport *

_rc = mj_init()
if _rc == MJ_E_NOMEM:
    raise MemoryError("mjfast: cannot allocate 8.7 MiB for the suit tables")
if _rc != 0:
    raise ImportError("mjfast: the built-in suit tables failed their check; rebuild the package")

ABI_VERSION = MJFAST_ABI_VERSION
"""``MJFAST_ABI_VERSION`` of the library in this build."""
CAPSULE = PyCapsule_New(<void *>mj_capi(), "mjfast.capi", NULL)
"""The ``mj_capi_t`` function table, named ``"mjfast.capi"``."""
