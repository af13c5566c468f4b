"""Every public entry point is fuzzed: a name added to ``mjfast.__all__`` or
``mjfast.stats.__all__`` fails here until a fuzz test covers it (or it is listed as exempt)."""

from __future__ import annotations

import importlib
import inspect

import pytest

import mjfast
from mjfast import stats

FUZZED = {
    "test_fuzz_kernels": ["shanten", "is_win", "waits", "effective_tiles", "discards", "advise",
                          "mask_to_tiles"],
    "test_fuzz_scoring": ["score", "decompose", "max_fan", "fan"],
    "test_fuzz_notation": ["parse_hand", "parse_tile", "parse_melds", "melds_to_counts",
                           "format_hand", "format_tile", "Meld"],
    "test_fuzz_rules": ["Rules"],
    "test_fuzz_forecast": ["forecast", "choose_void", "choose_plan"],
    "test_fuzz_settlement": ["PlayerState", "settle_draw", "Transfer", "Settlement", "Round"],
    "test_fuzz_round_json": ["Round"],
    "test_fuzz_table": ["Table", "TableBatch", "selfplay"],
    "test_fuzz_stats": ["run_stats", "chunk_hands", "exact", "ExactStats", "binomial_interval",
                        "compare"],
}
EXEMPT = {
    "Fan": "an enum: Fan(value) is Enum's own lookup",
    "MeldKind": "an enum: MeldKind(value) is Enum's own lookup",
    "Reason": "an enum: Reason(value) is Enum's own lookup",
    "Decomposition": "a result type the library builds",
    "FanResult": "a result type the library builds",
    "MaxFan": "a result type the library builds",
    "WaitFan": "a result type the library builds",
    "Discard": "a result type the library builds",
    "SelfPlayResult": "a result type the library builds",
    "Forecast": "a result type the library builds",
    "VoidChoice": "a result type the library builds",
    "PlanChoice": "a result type the library builds",
    "InvalidArgumentError": "an exception type",
    "InvalidHandError": "an exception type",
    "TileParseError": "an exception type",
    "get_include": "takes no argument",
}


def _public_callables() -> list[str]:
    names = [(mjfast, n) for n in mjfast.__all__] + [(stats, n) for n in stats.__all__]
    return [n for module, n in names if callable(getattr(module, n))
            and type(getattr(module, n)).__module__ != "typing"]  # not type aliases


@pytest.mark.parametrize("name", _public_callables())
def test_every_public_callable_is_fuzzed(name):
    covered = {n for names in FUZZED.values() for n in names}
    assert name in covered or name in EXEMPT, f"{name} is public but no fuzz test covers it"


@pytest.mark.parametrize("module", sorted(FUZZED))
def test_the_fuzz_modules_call_what_they_claim(module):
    source = inspect.getsource(importlib.import_module(f"tests.fuzz.{module}"))
    for name in FUZZED[module]:
        assert name in source, f"{module} does not mention {name}"
