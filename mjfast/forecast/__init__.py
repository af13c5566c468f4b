"""Forecasts (RULES.md section 9): exact ready / win probabilities per draw and the expected
value, per discard, under optimal play; 定缺 advice.

    >>> from mjfast.forecast import forecast
    >>> f = forecast("123m456m789m23p55p", draws=3)
    >>> f.ready.round(4).tolist(), f.win.round(4).tolist(), round(f.value, 4)
    ([1.0, 1.0, 1.0], [0.0842, 0.1613, 0.232], 0.4639)
"""

from .api import MAX_STATES, choose_void, forecast, payments
from .types import Forecast, VoidChoice

__all__ = ["MAX_STATES", "Forecast", "VoidChoice", "choose_void", "forecast", "payments"]
