"""Build of the compiled core (setuptools + Cython); metadata lives in pyproject.toml."""

import importlib.util
import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).parent
INCLUDE = Path("mjfast", "_core", "include")


def amalgamate() -> None:
    """Write the C library's amalgamation, src/mjfast.h + src/mjfast.c (tools/amalgamate.py:
    generated, so not in git; an sdist ships them). A file whose text is unchanged is left alone,
    so its mtime does not force a rebuild."""
    spec = importlib.util.spec_from_file_location("amalgamate", ROOT / "tools" / "amalgamate.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    for name, text in tool.build().items():
        path = ROOT / "src" / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)


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


amalgamate()
copy_headers()
CFLAGS = os.environ.get("CFLAGS", "").split()


class BuildExt(build_ext):
    """GCC-style flags only for the compilers that take them (gcc, clang: distutils' "unix"
    compiler; MSVC keeps its own defaults): -O3 unless CFLAGS names a level of its own
    (tools/sanitize.sh builds with -O1; the extra arguments come last on the command line, so
    they would override it; with GCC, _ext.pxd lowers the Cython glue to -Os, its hot paths in
    _glue*.h excepted), -fvisibility=hidden (the module exports PyInit__ext alone: C code
    reaches the library through mjfast.capi's capsule, and calls inside the module bind
    directly), and -Wl,-S: Python's own flags hold -g, which would put ~2.5 MB of DWARF into
    the extension of a wheel, so the linker drops it (GNU and Apple ld alike) unless CFLAGS asks
    for -g itself (tools/sanitize.sh)."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":
            opt = [] if any(f.startswith("-O") for f in CFLAGS) else ["-O3"]
            strip = [] if "-g" in CFLAGS else ["-Wl,-S"]
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, *opt, "-fvisibility=hidden"]
                ext.extra_link_args = [*ext.extra_link_args, *strip]
        super().build_extensions()


# One extension module (mjfast/_core/_ext.pyx, the areas as .pxi include files): the C library
# (mjfast.c) is one translation unit with the Cython glue, so the process holds one copy of the
# kernels and of their tables, and the Cython runtime is linked once. Every header and include
# file is a dependency: Cython sees the headers a .pyx names, not those they include.
DEPENDS = sorted(str(h.relative_to(ROOT)) for h in [
    *(ROOT / "src").glob("*.h"), ROOT / "src" / "mjfast.c",
    *(ROOT / "mjfast" / "_core").glob("*.pxi"), *(ROOT / "mjfast" / "_core").glob("*.pxd"),
    *(ROOT / "mjfast" / "_core").glob("*.h")])
extensions = [
    Extension(
        "mjfast._core._ext",
        [str(Path("mjfast", "_core", "_ext.pyx"))],
        include_dirs=[str(INCLUDE), str(Path("mjfast", "_core"))],  # _glue*.h
        depends=DEPENDS,
    )
]

# Parallel Cython and C compilation only when asked (.ci/run sets it to the machine's cores; a
# shared development machine builds one file at a time).
JOBS = int(os.environ.get("MJFAST_BUILD_JOBS", "1"))
setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=cythonize(
        extensions,
        build_dir="build/cython",
        # binding=False: the module's functions and methods are plain built-ins, not Cython's
        # function objects (a smaller module, about 25 KB of machine code less, and cheaper calls)
        compiler_directives={"language_level": "3", "binding": False},
        nthreads=JOBS if JOBS > 1 else 0,
    ),
    options={"build_ext": {"parallel": JOBS}} if JOBS > 1 else {},
)
