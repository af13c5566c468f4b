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
* Policy classes (:mod:`mjfast.forecast.policy`, RULES.md 9). With a budget of exchanges a
  state is the hand plus the exchanges spent; ordered by (exchanges left, shanten, dead tiles)
  the graph is a DAG but for the drawn tile going back (a self-loop, valued per t), so the
  values above hold; a state with no exchange left is one of the class without exchanges, with
  its reductions. ``exchanges=None`` (no budget) keys states by the hand alone and values them
  backward in t. The flush plan swaps the distance for the distance to a win of one suit and
  makes the other suits dead (held as a count, discarded first): the state space is one suit.
  Budgets multiply the states (a 1-shanten hand over 18 draws: about 3,400 at 0, 70,000 at 1,
  570,000 at 1 with backward moves, 690,000 at 2).
* Reuse. The discards of a 14-3m hand share the pool, so one graph and one value pass serve
  all of them; each edge group's pick per draw count is stored once (none for one successor;
  groups with the same successors share one row) and the forward passes (the curves, one per
  discard) only follow them: without exchanges state by state in the DAG order, visiting the
  states the start's mass reaches (a bitset), each one's mass per draw in one row; with
  exchanges draw by draw. A 14-3m hand reached from
  several states is probed once (a per-row memo of its successor lists). Across a batch, the
  buffers of a thread are reused row after row; the graph itself is per hand.
* Limits. At most :data:`MAX_STATES` states, :data:`MAX_BYTES` bytes of buffers (1.75 GiB, per
  worker thread; every buffer counted where it is allocated) and :data:`MAX_WORK` work per hand;
  past one: ``InvalidArgumentError`` naming the hand and what grew. The largest documented case
  (``exchanges=2``, 18 draws, a two-suit 3-shanten hand) takes up to 1.5 GiB, about 1 GB
  resident. Ctrl-C: the engine calls
  back every few milliseconds of work; on the main thread that checks Python's signals
  (KeyboardInterrupt from inside the row), and with ``workers`` the waiting main thread sets a
  flag the workers' rows stop at. So a long call stops within about a second.
"""

from .api import MAX_BYTES, MAX_DRAWS, MAX_STATES, MAX_WORK, choose_plan, choose_void, forecast, payments
from .policy import CANDIDATES, Policy, as_policy
from .types import Forecast, PlanChoice, VoidChoice

__all__ = ["CANDIDATES", "MAX_BYTES", "MAX_DRAWS", "MAX_STATES", "MAX_WORK", "Forecast", "PlanChoice",
           "Policy", "VoidChoice", "as_policy", "choose_plan", "choose_void", "forecast", "payments"]
