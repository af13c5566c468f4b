"""Forecasts (RULES.md section 9): exact ready / win probabilities per draw and the expected
value, per discard, under optimal play; 定缺 advice.

    >>> from mjfast.forecast import forecast
    >>> f = forecast("123m456m789m23p55p", draws=3)
    >>> f.ready.round(4).tolist(), f.win.round(4).tolist(), round(f.value, 4)
    ([1.0, 1.0, 1.0], [0.0842, 0.1613, 0.232], 0.4639)

Method (the C engine, ``src/mjfast_forecast.h``; README "Forecasts" has the benchmark table):

* State graph. Draws are i.i.d. (the pool is fixed), so a state is a 13-3m hand, keyed by its 27
  counts in base 5 in a per-call hash table (void-suit tiles, dead, held as a count). It is built
  breadth first from the start hands; a state of shanten s first reached after j draws is
  expanded only if s <= T - j. Expanding probes the 27 draws with the shanten kernels (meld-free
  hands: the void-class fast path, read as bit masks): winning draws fold into a win
  probability and expected payment, fifth copies (and, without exchanges, draws that do not
  lower the shanten) into one "stay" probability, the rest become edge groups of the allowed
  discards' successors.
* Pruning (exact). A state with t draws left and shanten >= t is worth 0 (a win needs shanten
  + 1 draws); states that cannot get ready in time are never expanded. On the frontier (shanten
  = draws left at the state's first depth) every successor is worth 0, so each draw keeps only
  the policy's pick, the lowest allowed discard, and only if it lowers the shanten; one draw
  short of it (with exchanges) only the first successor that keeps the shanten is kept.
  Without exchanges, under objective "win", a draw whose successors are all ready leaves keeps
  only the one with the highest win probability (the best at every t).
* Merging (exact). Without exchanges a ready leaf's values and curves depend only on its win,
  stay and payment probabilities, computed from counts of copies over the pool (equal counts,
  equal numbers to the bit): the leaves of one such class become one state (a 1-shanten hand's
  ~160 ready leaves fall into ~13), and one-successor groups that then share their successor
  become one group with the summed probability.
* Values. Without exchanges the graph is a DAG (a successor has a lower shanten, or the same and
  one void tile less): values go in that order, a successor's whole row of T values at once, a
  group's picks for every t together, and the independent states of one (shanten, void tiles)
  class in blocks whose recurrences run side by side (states no group lists get no row); with
  exchanges backward in t over all states.
* Reuse. The discards of a 14-3m hand share the pool, so one graph and one value pass serve
  all of them; each edge group's pick per draw count is stored once (none for one successor;
  groups with the same successors share one row) and the forward passes (the curves, one per
  discard) only follow them: without exchanges state by state in the DAG order, visiting the
  states the start's mass reaches (a bitset), each one's mass per draw in one row; with
  exchanges draw by draw. A 14-3m hand reached from
  several states is probed once (a per-row memo of its successor lists). Across a batch, the
  buffers of a thread are reused row after row; the graph itself is per hand.
* Memory. At most :data:`MAX_STATES` states per hand (past it: ``InvalidArgumentError``); the
  worst uncapped case measured (5-shanten, 27 draws, no exchanges) peaked at 135,000 states and
  152 MB.
"""

from .api import MAX_DRAWS, MAX_STATES, choose_void, forecast, payments
from .types import Forecast, VoidChoice

__all__ = ["MAX_DRAWS", "MAX_STATES", "Forecast", "VoidChoice", "choose_void", "forecast", "payments"]
