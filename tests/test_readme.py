"""The README stays a README, and its example runs as written (a README that rots misleads every
new user).

The manual lives in docs/ (Sphinx + MyST): its examples are ``{doctest}`` blocks that CI runs
with ``sphinx-build -b doctest`` (.ci/run), so here we check only that no Python example there
escapes them. The README's own Python block runs here, its output checked.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TEXT = README.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, re.S)

# what the README's Python block prints
EXPECTED = ["discard 9s: shanten 0, 8 tiles (1p 4p)",
            "1番 (x2): 平胡 0 + 根 1 | 123m 333m 456s 567s 99s"]


def test_readme_is_short_and_no_progress_report() -> None:
    assert len(TEXT.splitlines()) <= 200
    for pattern in (r"\bissue \d+", r"\bMet\b", r"\bnot met\b", r"\btargets?\b"):
        assert not re.search(pattern, TEXT, re.I), pattern


def test_readme_first_block_is_the_two_commands() -> None:
    """.ci/run runs the first fenced block, one command a line: it must stay two commands."""
    first = re.search(r"```[a-z]*\n(.*?)```", TEXT, re.S)
    assert first is not None
    commands = first[1].strip().splitlines()
    assert len(commands) == 2
    assert commands[0].startswith("pip install . ") and commands[1].startswith("pip install -e ")


def test_readme_links_render_on_an_index() -> None:
    """An index (PyPI) shows the README without the repository: no relative links."""
    for target in re.findall(r"\]\(([^)]+)\)", TEXT):
        assert target.startswith(("https://", "#")), target


def test_readme_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    (block,) = BLOCKS
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    for text in EXPECTED:
        assert text in out


def test_docs_examples_are_doctests() -> None:
    """Every Python example of the docs is a {doctest} block (run by CI), never a plain one."""
    pages = sorted((ROOT / "docs").rglob("*.md"))
    assert len(pages) > 10
    doctests = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"```(python|py|pycon)\n", text), page
        doctests += text.count("```{doctest}")
    assert doctests >= 20


def test_speed_line_quotes_the_benchmark_file() -> None:
    """The README's streaming rates are those of docs/_data/bench.json (the benchmarks page)."""
    import json

    rates = {r["name"]: r["rate"] for r in json.loads(
        (ROOT / "docs" / "_data" / "bench.json").read_text(encoding="utf-8"))["results"]}
    line = " ".join(TEXT[TEXT.index("Speed, one core"):].split("\n\n")[0].split())
    quoted = [float(x) for x in re.findall(r"(?:at|reaches) ([\d.]+) M hands/s", line)]
    cases = ["shanten_stream", "shanten_regular_stream", "peer_nyanten_stream"]
    assert quoted == [round(rates[c] / 1e6, 1) for c in cases]
