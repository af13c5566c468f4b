"""Type-check the documentation's Python examples with ``mypy --strict``.

Every ``{doctest}`` block and every ```` ```python ```` block of ``docs/**/*.md`` and
``README.md`` becomes code (a doctest's ``>>>`` / ``...`` lines; the expected output left out),
one module per page, prefixed with what the docs' doctests get for free
(``doctest_global_setup`` in ``docs/conf.py``: ``numpy as np`` and ``mjfast``). Then
``mypy --strict`` checks them all; its exit status is this script's.

    python tools/docs_typecheck.py            # check (CI runs this)
    python tools/docs_typecheck.py --keep DIR # also leave the extracted modules in DIR
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRELUDE = "import numpy as np\nimport mjfast\n"
# strict, as a user's script would be checked; dask and pandas ship no (complete) types, so
# their calls and imports are taken as they are
CONFIG = """[mypy]
strict = True
python_version = 3.11
mypy_path = {root}
untyped_calls_exclude = dask
[mypy-dask.*,distributed.*,pandas.*,pyarrow.*]
ignore_missing_imports = True
[mypy-mjfast.*]
# mjfast's own code is checked by the project's configuration; here only what users see
ignore_errors = True
"""
_OPEN = re.compile(r"^(`{3,})\s*(\{doctest\}|python)\s*$")


def blocks(text: str) -> list[str]:
    """The Python code of each doctest / python fence of a Markdown page, in order."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _OPEN.match(lines[i])
        i += 1
        if not m:
            continue
        fence, kind = m.groups()
        body: list[str] = []
        while i < len(lines) and lines[i].rstrip() != fence:
            body.append(lines[i])
            i += 1
        i += 1
        if kind == "python" and not any(x.lstrip().startswith(">>>") for x in body):
            out.append("\n".join(body))
        else:
            out.append("\n".join(_doctest_source(body)))
    return out


def _doctest_source(body: list[str]) -> list[str]:
    """The statements of a doctest: ``>>> `` and ``... `` lines, the prompt cut off."""
    src = []
    for line in body:
        s = line.lstrip()
        indent = line[: len(line) - len(s)]
        for prompt in (">>> ", "... "):
            if s.startswith(prompt) or s == prompt.rstrip():
                src.append(indent + s[len(prompt):])
                break
    return src


def pages() -> list[Path]:
    docs = sorted(p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts)
    return [ROOT / "README.md", *docs]


def extract(out: Path) -> list[Path]:
    """Write one module per page with examples into ``out``; return their paths."""
    written = []
    for page in pages():
        code = blocks(page.read_text(encoding="utf-8"))
        if not code:
            continue
        name = "_".join(page.relative_to(ROOT).with_suffix("").parts).replace("-", "_")
        path = out / f"doc_{name}.py"
        path.write_text(f"# examples of {page.relative_to(ROOT)}\n{PRELUDE}\n"
                        + "\n\n".join(code) + "\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="write the extracted modules to DIR (kept)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        files = extract(out)
        config = Path(tmp) / "mypy.ini"
        config.write_text(CONFIG.format(root=ROOT), encoding="utf-8")
        cmd = [sys.executable, "-m", "mypy", "--config-file", str(config),
               "--cache-dir", str(ROOT / ".mypy_cache" / "docs"), *map(str, files)]
        return subprocess.run(cmd, cwd=out, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
