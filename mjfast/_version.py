"""The package version: its one source. pyproject.toml reads it (``dynamic = ["version"]``), and
tools/amalgamate.py writes it into the C header as ``MJFAST_VERSION``."""

__version__ = "0.1.0"
