"""Forecasts (RULES.md section 9): exact ready / win probabilities per draw and the expected
value, per discard, under optimal play; 定缺 advice.

    >>> from mjfast.forecast import forecast
    >>> f = forecast("123m456m789m23p55p", draws=3)
    >>> [round(x, 4) for x in f.ready], round(f.value, 4)
    ([1.0, 1.0, 1.0], 0.4618)
"""

from .api import MAX_STATES, choose_void, forecast, payments
from .types import Forecast, Objective, VoidChoice

__all__ = ["MAX_STATES", "Forecast", "Objective", "VoidChoice", "choose_void", "forecast", "payments"]
