"""The test suite of mjfast: one folder per subsystem, shared helpers and the differential
harness (twins.py) at the top. A package, so that every module has a unique name
(``tests.core.test_core_api``) under ``--doctest-modules`` next to ``benchmarks/conftest.py``.
"""
