"""tools/docs_typecheck.py finds the docs' Python examples (the mypy run itself is CI's)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("docs_typecheck", ROOT / "tools" / "docs_typecheck.py")
assert _spec is not None and _spec.loader is not None
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)

PAGE = '''# A page

```{doctest}
>>> x = 1
>>> for i in range(2):
...     x += i
>>> x
2
```

```sh
mjfast stats
```

```python
y: int = 3
```

````{doctest}
>>> z = [
...     1]
````
'''


def test_blocks_take_doctest_statements_and_python_fences_only():
    assert tool.blocks(PAGE) == ["x = 1\nfor i in range(2):\n    x += i\nx", "y: int = 3",
                                 "z = [\n    1]"]


def test_every_page_with_examples_becomes_one_module(tmp_path):
    files = tool.extract(tmp_path)
    names = {f.name for f in files}
    assert {"doc_README.py", "doc_docs_guide_table.py", "doc_docs_guide_rl.py"} <= names
    text = (tmp_path / "doc_docs_guide_table.py").read_text(encoding="utf-8")
    assert text.startswith("# examples of docs/guide/table.md\nimport numpy as np\nimport mjfast\n")
    for f in files:
        compile(f.read_text(encoding="utf-8"), str(f), "exec")  # valid Python, as mypy reads it
