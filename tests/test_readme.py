"""The README's Python examples run as written (a README that rots misleads every new user)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(BLOCKS[index], f"README.md block {index}", "exec"), {})
    out = capsys.readouterr().out
    if index == 0:
        assert "discard 9s: shanten 0, 8 tiles (1p 4p)" in out
        assert "1番 (x2): 平胡 0 + 根 1 | 123m 333m 456s 567s 99s" in out
    elif "Round()" in BLOCKS[index]:
        assert "1 -> 3: 8, cha_da_jiao, 3 fan" in out
    else:  # the table: a hand played out, self-play, a batch of tables
        assert "net per seat" in out and "win" in out and "(8, 27) (8, 4) (8,)" in out
