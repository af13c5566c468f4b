"""Which table sizes the settlement tests play: 5 and 6 players need short hands (3 and 2 sets
+ pair, RULES.md section 7), which reach the ledger through ``score(..., sets=)`` and
``max_fan(..., sets=)``; until the scorer takes ``sets=`` those sizes are left out."""

from __future__ import annotations

import inspect

from mjfast.scoring import max_fan, score

SHORT_HANDS: bool = all("sets" in inspect.signature(f).parameters for f in (score, max_fan))
"""The scorer takes ``sets=`` (short hands for 5 and 6 players)."""

TABLE_SIZES: list[int] = [4, 4, 4, 3, 2] + ([5, 6] if SHORT_HANDS else [])
"""Table sizes drawn by the random games (4 players most often)."""
