# cython: language_level=3
"""The C library (``src/mjfast.c``, the amalgamation) inside the package, built once per process.

Importing this module builds the tables (``mj_init``). It hands them out twice: :data:`CAPSULE`,
the public function table (``mj_capi_t`` of ``mjfast.h``) that ``from mjfast cimport capi``
reaches, and :data:`SHARED`, the tables themselves (``mjfast_shared.h``), which ``_kernels``,
``_fan`` and ``_stats`` run their kernels on: one C core, one copy of the tables per process.
"""

from cpython.pycapsule cimport PyCapsule_New

cdef extern from "mjfast.h":
    ctypedef struct mj_capi_t:
        pass
    int MJFAST_ABI_VERSION
    int MJ_E_NOMEM
    int mj_init()
    const mj_capi_t *mj_capi()

_rc = mj_init()
if _rc == MJ_E_NOMEM:
    raise MemoryError("mjfast: cannot allocate 8.7 MiB for the suit tables")
if _rc != 0:
    raise ImportError("mjfast: the built-in suit tables failed their check; rebuild the package")

ABI_VERSION = MJFAST_ABI_VERSION
"""``MJFAST_ABI_VERSION`` of the library in this build."""
CAPSULE = PyCapsule_New(<void *>mj_capi(), "mjfast.capi", NULL)
"""The ``mj_capi_t`` function table, named ``"mjfast.capi"``."""
SHARED = PyCapsule_New(<void *>mj_shared(), "mjfast._core._capi.shared", NULL)
"""The tables (``mj_shared_t``), for the package's other extensions only."""
