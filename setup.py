"""Build of the compiled core (setuptools + Cython); metadata lives in pyproject.toml."""

import os
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

ROOT = Path(__file__).parent
INCLUDE = Path("mjfast", "_core", "include")


def copy_headers() -> None:
    """Copy src/*.h and the C library's mjfast.c into the package (the wheel ships them for C
    code, mjfast.get_include(), and for code that cimports the .pxd files).

    A file whose bytes are unchanged is left alone, so its mtime does not force a rebuild.
    """
    target = ROOT / INCLUDE
    target.mkdir(exist_ok=True)
    sources = [*sorted((ROOT / "src").glob("*.h")), ROOT / "src" / "mjfast.c"]
    headers = {h.name: h.read_bytes() for h in sources}
    for stale in [*target.glob("*.h"), *target.glob("*.c")]:
        if stale.name not in headers:
            stale.unlink()
    for name, data in headers.items():
        copy = target / name
        if not copy.exists() or copy.read_bytes() != data:
            copy.write_bytes(data)


copy_headers()
# -O3 unless CFLAGS names a level of its own (tools/sanitize.sh builds with -O1): the extra
# arguments come last on the command line, so they would override it.
CFLAGS = os.environ.get("CFLAGS", "").split()
OPT = [] if any(f.startswith("-O") for f in CFLAGS) else ["-O3"]
# Python's own flags hold -g, which would put ~2.5 MB of DWARF into each extension of a wheel: the
# linker drops it (-S, in GNU and Apple ld alike) unless CFLAGS asks for -g itself (tools/sanitize.sh).
STRIP = [] if sys.platform == "win32" or "-g" in CFLAGS else ["-Wl,-S"]
# _capi links the C library (the amalgamation); the other extensions run the header kernels on
# its tables, so the process holds one copy of them.
LIBRARY = {"_capi": [str(Path("src", "mjfast.c"))]}
# Every header is a dependency: Cython sees the headers a .pyx names, not those they include
# (mjfast_kernels.h includes mjfast_probes.h), and an edit of either must rebuild.
HEADERS = sorted(str(h.relative_to(ROOT)) for h in (ROOT / "src").glob("*.h"))
extensions = [
    Extension(
        f"mjfast._core.{pyx.stem}",
        [str(pyx.relative_to(ROOT)), *LIBRARY.get(pyx.stem, [])],
        include_dirs=[str(INCLUDE)],
        extra_compile_args=OPT,
        extra_link_args=STRIP,
        depends=HEADERS,
    )
    for pyx in sorted((ROOT / "mjfast" / "_core").glob("*.pyx"))
]

# Parallel Cython and C compilation only when asked (.ci/run sets it to the machine's cores; a
# shared development machine builds one file at a time).
JOBS = int(os.environ.get("MJFAST_BUILD_JOBS", "1"))
setup(
    ext_modules=cythonize(
        extensions,
        build_dir="build/cython",
        compiler_directives={"language_level": "3"},
        nthreads=JOBS if JOBS > 1 else 0,
    ),
    options={"build_ext": {"parallel": JOBS}} if JOBS > 1 else {},
)
