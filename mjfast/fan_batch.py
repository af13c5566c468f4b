"""The batch fan kernels under their old path: see :mod:`mjfast.scoring.batch`.

``fan_batch.max_fan`` keeps its contract (an int for one hand); :func:`mjfast.max_fan` gives a
:class:`~mjfast.scoring.MaxFan` for one hand.
"""

from mjfast.scoring.batch import INVALID_FAN, fan, max_fan
from mjfast.scoring.patterns import compile_rules

__all__ = ["INVALID_FAN", "compile_rules", "fan", "max_fan"]
