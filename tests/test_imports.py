"""The package's import graph: every module imports alone, no module imports in a cycle, and
the pure-Python references import no fast code.

The static check reads each module's own imports (module level and inside functions alike: a
deferred import is still a dependency), resolves them to modules of the package, and looks for a
cycle; the dynamic check imports each module first thing in a fresh interpreter. The same
reading of ``mjfast/_ref/*.py`` keeps the oracles independent of what they test.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import mjfast

PACKAGE = Path(mjfast.__file__).parent


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """Modules of the package that *name* imports (a package's __init__ counts as the package)."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # "from pkg import mod" imports the submodule pkg.mod when there is one.
            targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in MODULES else stem
                       for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def _parents(name: str) -> set[str]:
    """Importing a.b.c runs the __init__ of a and a.b first: those are dependencies too, but the
    package's own __init__ re-exporting its children is not a cycle of the children."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def test_no_import_cycles() -> None:
    graph = {name: _imports(name, path) for name, path in MODULES.items()}
    # A module's parent packages run before it; edges into a parent from its own children are
    # the normal "package re-exports its modules" shape and not followed.
    for name in graph:
        graph[name] -= _parents(name)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


def test_graph_sees_imports() -> None:
    """The checker reads relative and absolute imports (so the cycle test can fail)."""
    assert "mjfast._notation" in _imports("mjfast.tiles", MODULES["mjfast.tiles"])
    assert "mjfast._args" in _imports("mjfast._validate", MODULES["mjfast._validate"])


# What a reference may use: notation, rules, errors, argument checks, type aliases and the
# result types it shares with the scorer; never a kernel, the scorer or the settlement code.
REF_MAY_IMPORT = {"mjfast.errors", "mjfast.rules", "mjfast.tiles", "mjfast._notation",
                  "mjfast._args", "mjfast._typing", "mjfast.scoring.types"}
REF_MODULES = sorted(n for n in MODULES if n == "mjfast._ref" or n.startswith("mjfast._ref."))


def _fast_imports(name: str, path: Path) -> list[str]:
    """The modules *name* imports that a reference may not."""
    return sorted(m for m in _imports(name, path)
                  if m not in REF_MAY_IMPORT and not m.startswith("mjfast._ref"))


@pytest.mark.parametrize("name", REF_MODULES)
def test_references_import_no_fast_code(name: str) -> None:
    assert not _fast_imports(name, MODULES[name]), f"{name} imports fast code"


def test_reference_check_sees_fast_imports(tmp_path: Path) -> None:
    """The check reads every import form (so it can fail); the scorer's types are allowed,
    the scorer is not."""
    assert REF_MODULES
    fake = tmp_path / "fake.py"
    fake.write_text("import mjfast\nfrom mjfast.scoring import score\nfrom .. import analysis\n"
                    "from mjfast.scoring.types import FanResult\nfrom . import core\n"
                    "def f():\n    from mjfast.settlement import Round\n")
    assert _fast_imports("mjfast._ref.fake", fake) == [
        "mjfast", "mjfast.analysis", "mjfast.scoring", "mjfast.settlement"]


# Modules of an optional extra (``.[dask]``, ``.[parquet]``) and what they import at load time.
OPTIONAL = {"mjfast.dask": ("dask", "pandas", "pyarrow"), "mjfast.cli.batch_parquet": ("pyarrow",)}


@pytest.mark.parametrize("name", sorted(n for n in MODULES if not n.endswith("__main__")))
def test_module_imports_alone(name: str) -> None:
    for package in OPTIONAL.get(name, ()):
        pytest.importorskip(package)
    proc = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
