"""Every citation of RULES.md in the repository resolves: "RULES.md 9", "RULES.md section 7",
"sections 4-6", "RULES.md 6.2" (item 2 of section 6's numbered list) must name a section (or a
numbered item) that RULES.md has. The code, docs and tests cite the rules by number, so a renumbered
or missing section must fail here, not mislead a reader."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEXT_SUFFIXES = {".py", ".pyx", ".pxd", ".pxi", ".pyi", ".h", ".c", ".md", ".rst", ".toml", ".txt",
                 ".cfg", ".sh", ""}
_NUMBER = r"\d+(?:\.\d+)?"
_LIST = rf"{_NUMBER}(?:\s*(?:-|–|,|and|or)\s*{_NUMBER})*"
# "RULES.md 9", "RULES.md, section 7", "RULES.md §3", and any "section(s) N" (the repository has
# no other numbered document).
CITATION = re.compile(
    rf"RULES\.md[,:]?\s*(?:§\s*|sections?\s+)?(?P<a>{_LIST})|\b[Ss]ections?\s+(?P<b>{_LIST})"
)


def rule_sections(text: str) -> dict[int, set[int]]:
    """Section number -> the numbers of its top-level numbered items ("1.", "2.", ...)."""
    sections: dict[int, set[int]] = {}
    current: set[int] | None = None
    for line in text.splitlines():
        heading = re.match(r"## (\d+)\. ", line)
        if heading:
            current = sections.setdefault(int(heading.group(1)), set())
        elif current is not None and (item := re.match(r"(\d+)\. ", line)):
            current.add(int(item.group(1)))
    return sections


def unresolved(cited: str, sections: dict[int, set[int]]) -> list[str]:
    """The numbers of a citation list ("4-6", "6.2 and 8") that RULES.md does not have; a range
    of sections names every section inside it."""
    parts = re.split(r"\s*(-|–|,|and|or)\s*", cited)
    numbers, seps = parts[::2], parts[1::2]
    cited_numbers = []
    for i, number in enumerate(numbers):
        if i and seps[i - 1] in "-–" and "." not in number + numbers[i - 1]:
            cited_numbers += [str(n) for n in range(int(numbers[i - 1]) + 1, int(number))]
        cited_numbers.append(number)
    bad = []
    for number in cited_numbers:
        major, _, minor = number.partition(".")
        if int(major) not in sections or (minor and int(minor) not in sections[int(major)]):
            bad.append(number)
    return bad


def repository_files() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout.split()
        files = [ROOT / name for name in listed]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an sdist)
        files = [p for p in ROOT.rglob("*") if p.is_file()
                 and not {"build", ".git", "dist"} & set(p.relative_to(ROOT).parts)]
    this = Path(__file__).resolve()   # its own examples of bad citations are meant to be bad
    return [p for p in files if p.suffix in TEXT_SUFFIXES and p.is_file() and p.resolve() != this]


def find_bad_citations(files: list[Path], sections: dict[int, set[int]], root: Path = ROOT
                       ) -> list[str]:
    bad = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for m in CITATION.finditer(text):
            cited = m.group("a") or m.group("b")
            missing = unresolved(cited, sections)
            if missing:
                line = text.count("\n", 0, m.start()) + 1
                bad.append(f"{path.relative_to(root)}:{line}: {m.group(0)!r} "
                           f"(no {', '.join(missing)} in RULES.md)")
    return bad


SECTIONS = rule_sections((ROOT / "RULES.md").read_text(encoding="utf-8"))


def test_rules_md_has_sections_1_to_10() -> None:
    assert sorted(SECTIONS) == list(range(1, 11))
    assert SECTIONS[6] == {1, 2, 3}   # 查花猪, 查大叫, the kong refund


def test_every_citation_resolves() -> None:
    files = repository_files()
    cited = sum(len(CITATION.findall(p.read_text(encoding="utf-8", errors="replace")))
                for p in files)
    assert len(files) > 100 and cited > 50   # the scan reads the repository's citations
    assert find_bad_citations(files, SECTIONS) == []


@pytest.mark.parametrize(("cited", "missing"), [
    ("9", []), ("6.2", []), ("4-7", []), ("6.2 and 8", []), ("2, 3", []),
    ("11", ["11"]), ("6.4", ["6.4"]), ("9-12", ["11", "12"]), ("7.1", ["7.1"]),
])
def test_resolver(cited: str, missing: list[str]) -> None:
    assert unresolved(cited, SECTIONS) == missing


def test_scan_finds_a_bad_citation(tmp_path: Path) -> None:
    # The file name is spliced in so that this test's own source cites no missing section.
    r = "RULES" + ".md"
    doc = tmp_path / "x.py"
    doc.write_text(f"# see {r} section 12 and {r} 6.2\n# sections 3-4, {r} 9.1\n")
    assert find_bad_citations([doc], SECTIONS, tmp_path) == [
        f"x.py:1: '{r} section 12' (no 12 in {r})",
        f"x.py:2: '{r} 9.1' (no 9.1 in {r})",
    ]
