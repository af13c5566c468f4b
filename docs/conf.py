"""Sphinx configuration of the mjfast documentation (docs/README.md says why Sphinx).

Build: ``sphinx-build -W --keep-going -b html docs docs/_build/html`` and run the examples with
``sphinx-build -W -b doctest docs docs/_build/doctest`` (CI does both).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import mjfast  # noqa: E402  (the installed, compiled package: autodoc reads its docstrings)

project = "mjfast"
author = "The mjfast developers"
copyright = "2026, The mjfast developers"
release = version = mjfast.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "mjfast_docs",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_generated"]  # _generated: included by the pages
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True  # Attributes as fields: no second entry beside autodoc's members
napoleon_custom_sections = [("Fields", "params_style")]  # mjfast.Rules lists its fields

# The docstrings' own examples run under pytest --doctest-modules; the doctest builder runs the
# pages' {doctest} blocks (set here so it does not run the docstrings a second time).
doctest_test_doctest_blocks = ""
doctest_global_setup = "import numpy as np\nimport mjfast"

# Command-line options stay as typed ("--draws", not an en dash).
smartquotes = False

html_theme = "furo"
html_title = f"mjfast {release}"
nitpicky = False
