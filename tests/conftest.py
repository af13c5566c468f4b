"""Shared test configuration: the hypothesis profile of every property test.

Every run draws the same examples (``derandomize``), keeps no example database, and sets no
deadline (the pure-Python references are slow by design); each test sets only its own
``max_examples``. ``pytest --hypothesis-profile=dev`` draws new examples on each run instead.
The strategies and hand helpers the tests share are in :mod:`tests.strategies`, the
differential harness in :mod:`tests.twins`.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

_SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                          suppress_health_check=_SLOW)
settings.register_profile("dev", deadline=None, suppress_health_check=_SLOW)
settings.load_profile("ci")
