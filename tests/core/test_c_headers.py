"""The C library's sources are whole: every header of src/ compiles alone and src/mjfast_api.c
(the public API) and the generated amalgamation mjfast.c compile as they stand, in strict C99
with every warning an error, by each C compiler found (cc, and clang where installed).

One compiler process per compiler (``-fsyntax-only`` over all the files): a few seconds.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
FLAGS = ["-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
         # a header's static helpers are its users' to call
         "-Wno-unused-function"]
# cc is often gcc under another name: one run per compiler
COMPILERS = sorted({str(Path(path).resolve()) for name in ("cc", "gcc", "clang")
                    if (path := shutil.which(name))})


@pytest.mark.skipif(not COMPILERS, reason="no C compiler")
@pytest.mark.parametrize("compiler", COMPILERS)
def test_every_header_compiles_alone(compiler: str, tmp_path: Path) -> None:
    headers = sorted(SRC.glob("mjfast_*.h"))
    assert len(headers) > 10
    units = []
    for header in headers:
        unit = tmp_path / f"{header.stem}_alone.c"
        unit.write_text(f'#include "{header.name}"\n')
        units.append(unit)
    sources = [*units, SRC / "mjfast_api.c", SRC / "mjfast.c"]
    run = subprocess.run([compiler, *FLAGS, "-fsyntax-only", "-I", str(SRC), *map(str, sources)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
