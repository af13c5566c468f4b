"""The wheel: built from a copy of the source tree as a fresh clone has it, it ships the package
and its C interface (the headers, the .pxd and .pyi files, py.typed) and nothing of the
development tree (tools/ with the table generators, tests/, benchmarks/, src/).

One build for the module, in a temporary folder, so the in-place build is not touched. It
compiles at -O0 (about 20 s against 40 at -O3): these tests read what the wheel holds, and CI's
release step builds, installs and runs the optimised wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "mjfast"
CORE = PACKAGE / "_core"

# Build outputs and caches: a fresh clone has none of them (.gitignore).
SKIP_NAMES = {"build", "dist", ".git", "__pycache__", ".hypothesis", ".benchmarks",
              ".pytest_cache", ".mypy_cache", ".ruff_cache"}
SKIP_SUFFIXES = (".egg-info", ".so", ".pyd", ".whl")


def _skip(folder: str, names: list[str]) -> set[str]:
    skip = {n for n in names if n in SKIP_NAMES or n.endswith(SKIP_SUFFIXES)}
    if Path(folder) == CORE:
        skip.add("include")  # setup.py copies the headers there; the build must do it itself
    return skip


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[zipfile.ZipFile]:
    # --no-build-isolation builds with this environment's Cython, setuptools and wheel (the test
    # extra lists them)
    tmp = tmp_path_factory.mktemp("wheel")
    source, dist = tmp / "source", tmp / "dist"
    shutil.copytree(ROOT, source, ignore=_skip)
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "-q", "-w", str(dist)],
        capture_output=True, text=True, timeout=600, env={**os.environ, "CFLAGS": "-O0"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (built,) = dist.glob("mjfast-*.whl")
    with zipfile.ZipFile(built) as zf:
        yield zf


def _names(zf: zipfile.ZipFile) -> set[str]:
    return {n for n in zf.namelist() if not n.endswith("/")}


def test_headers_ship_byte_for_byte(wheel: zipfile.ZipFile) -> None:
    headers = {h.name: h.read_bytes()
               for h in [*(ROOT / "src").glob("*.h"), ROOT / "src" / "mjfast.c"]}
    assert headers, "no headers in src/"
    shipped = {n.rsplit("/", 1)[1] for n in _names(wheel) if n.startswith("mjfast/_core/include/")}
    assert shipped == set(headers)
    for name, data in headers.items():
        assert wheel.read(f"mjfast/_core/include/{name}") == data, name


def test_cython_interface_and_stubs_ship(wheel: zipfile.ZipFile) -> None:
    names = _names(wheel)
    assert "mjfast/py.typed" in names
    assert "mjfast/capi.pxd" in names  # from mjfast cimport capi
    extensions = sorted(CORE.glob("*.pyx"))
    assert extensions
    for pyx in extensions:
        stem = f"mjfast/_core/{pyx.stem}"
        assert f"{stem}.pxd" in names
        assert f"{stem}.pyi" in names
        assert any(f"{stem}{suffix}" in names for suffix in EXTENSION_SUFFIXES), stem


def test_every_module_ships(wheel: zipfile.ZipFile) -> None:
    source = {p.relative_to(ROOT).as_posix() for p in PACKAGE.rglob("*.py")
              if "__pycache__" not in p.parts}
    shipped = {n for n in _names(wheel) if n.endswith(".py")}
    assert shipped == source


def test_development_tree_stays_out(wheel: zipfile.ZipFile) -> None:
    names = _names(wheel)
    top = {n.split("/", 1)[0] for n in names}
    assert top == {"mjfast", *(n for n in top if n.endswith(".dist-info"))}
    for name in names:
        assert "tablegen" not in name and "fangen" not in name, name
        # no generated C: the one .c is the C library, shipped on purpose (mjfast.get_include())
        assert not name.endswith((".c", ".pyc")) or name == "mjfast/_core/include/mjfast.c", name


def test_console_script(wheel: zipfile.ZipFile) -> None:
    (entry_points,) = (n for n in _names(wheel) if n.endswith(".dist-info/entry_points.txt"))
    assert "mjfast = mjfast.cli:main" in wheel.read(entry_points).decode()


def _metadata(wheel: zipfile.ZipFile) -> str:
    (meta,) = (n for n in _names(wheel) if n.endswith(".dist-info/METADATA"))
    return wheel.read(meta).decode()


def test_one_version(wheel: zipfile.ZipFile) -> None:
    """mjfast/_version.py is the one source: the wheel's metadata and the C header carry it."""
    import mjfast

    assert f"\nVersion: {mjfast.__version__}\n" in _metadata(wheel)
    header = wheel.read("mjfast/_core/include/mjfast.h").decode()
    assert f'#define MJFAST_VERSION "{mjfast.__version__}"' in header


def test_metadata_for_an_index(wheel: zipfile.ZipFile) -> None:
    meta = _metadata(wheel)
    assert "License: MIT" in meta and "Requires-Python: >=3.11" in meta
    assert "Project-URL: Documentation, " in meta and "Project-URL: Source, " in meta
    assert "Description-Content-Type: text/markdown" in meta
    assert any(n.endswith(".dist-info/LICENSE") or "/licenses/LICENSE" in n for n in _names(wheel))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF sections")
def test_extensions_carry_no_debug_info(wheel: zipfile.ZipFile) -> None:
    extensions = [n for n in _names(wheel) if n.endswith(".so")]
    assert extensions
    for name in extensions:
        assert b".debug_info" not in wheel.read(name), name
