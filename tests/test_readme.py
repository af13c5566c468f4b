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
    elif index == 1:
        assert "1 -> 3: 8, cha_da_jiao, 3 fan" in out
    elif index == 2:  # the points preset (the block asserts the page's sums itself)
        assert "\n龙七对 3 + 根/杠 2 = 5 分\n" in out
        assert "(Transfer(0 -> 1: 4, dian_pao, 4 fan),)" in out
    # later blocks check themselves with assert statements (the short hands)
