"""Build of the compiled core (setuptools + Cython); metadata lives in pyproject.toml."""

import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

ROOT = Path(__file__).parent
INCLUDE = Path("mjfast", "_core", "include")


def copy_headers() -> None:
    """Copy src/*.h into the package (the wheel ships them for code that cimports the .pxd).

    A file whose bytes are unchanged is left alone, so its mtime does not force a rebuild.
    """
    target = ROOT / INCLUDE
    target.mkdir(exist_ok=True)
    headers = {h.name: h.read_bytes() for h in sorted((ROOT / "src").glob("*.h"))}
    for stale in target.glob("*.h"):
        if stale.name not in headers:
            stale.unlink()
    for name, data in headers.items():
        copy = target / name
        if not copy.exists() or copy.read_bytes() != data:
            copy.write_bytes(data)


copy_headers()
# -O3 unless CFLAGS names a level of its own (tools/sanitize.sh builds with -O1): the extra
# arguments come last on the command line, so they would override it.
OPT = [] if any(f.startswith("-O") for f in os.environ.get("CFLAGS", "").split()) else ["-O3"]
extensions = [
    Extension(
        f"mjfast._core.{pyx.stem}",
        [str(pyx.relative_to(ROOT))],
        include_dirs=[str(INCLUDE)],
        extra_compile_args=OPT,
    )
    for pyx in sorted((ROOT / "mjfast" / "_core").glob("*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        build_dir="build/cython",
        compiler_directives={"language_level": "3"},
    )
)
