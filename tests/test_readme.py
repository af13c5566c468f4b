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
    at_scale = "import mjfast.dask" in BLOCKS[index]
    if at_scale:  # the "At scale" example needs the dask extra
        pytest.importorskip("dask.dataframe")
    exec(compile(BLOCKS[index], f"README.md block {index}", "exec"), {})
    out = capsys.readouterr().out
    if index == 0:
        assert "discard 9s: shanten 0, 8 tiles (1p 4p)" in out
        assert "1番 (x2): 平胡 0 + 根 1 | 123m 333m 456s 567s 99s" in out
    elif at_scale:
        assert out.splitlines()[:2] == ["((25000, 25000, 25000, 25000),) int8 (27,)", "[0, 146, 3517]"]
        assert out.splitlines()[-1].split() == ["1z", "-100", "-100"]
    else:
        assert "1 -> 3: 8, cha_da_jiao, 3 fan" in out
