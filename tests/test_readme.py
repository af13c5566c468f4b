"""The README's Python examples run as written (a README that rots misleads every new user).

Each block is recognised by a line of its own code (not by its position, which moves as sections
are added) and its output checked; a block with no entry here must check itself with asserts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)

# (a line the block holds, what its output must hold)
EXPECTED: list[tuple[str, list[str]]] = [
    ('print(mjfast.advise("', ["discard 9s: shanten 0, 8 tiles (1p 4p)",
                               "1番 (x2): 平胡 0 + 根 1 | 123m 333m 456s 567s 99s"]),
    ("r = Round()", ["1 -> 3: 8, cha_da_jiao, 3 fan"]),
    ('r = Round("points")', ["\n龙七对 3 + 根/杠 2 = 5 分\n", "(Transfer(0 -> 1: 4, dian_pao, 4 fan),)"]),
    ("batch = TableBatch(8", ["net per seat", "(8, 27) (8, 4) (8,)"]),
    ("import mjfast.dask", ["((25000, 25000, 25000, 25000),) int8 (27,)\n[0, 146, 3517]\n"]),
]


def _expected(block: str) -> list[str] | None:
    found = [want for marker, want in EXPECTED if marker in block]
    assert len(found) <= 1, "a README block matches several entries of EXPECTED"
    return found[0] if found else None


def test_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 2
    for marker, _ in EXPECTED:  # every entry still finds its block
        assert any(marker in b for b in BLOCKS), marker


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    block = BLOCKS[index]
    if "import mjfast.dask" in block:  # the "At scale" example needs the dask extra
        pytest.importorskip("dask.dataframe")
    exec(compile(block, f"README.md block {index}", "exec"), {})
    out = capsys.readouterr().out
    want = _expected(block)
    if want is None:
        assert "assert " in block, "a README block with no expected output must assert itself"
    else:
        for text in want:
            assert text in out
