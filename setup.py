"""Build of the compiled core (setuptools + Cython); metadata lives in pyproject.toml."""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

ROOT = Path(__file__).parent
extensions = [
    Extension(
        f"mjfast._core.{pyx.stem}",
        [str(pyx.relative_to(ROOT))],
        include_dirs=["src"],
        extra_compile_args=["-O3"],
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
