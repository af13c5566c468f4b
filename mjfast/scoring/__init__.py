"""Fan (番) of a single hand: decompositions, the score of a win, and the 查大叫 value.

Everything here follows RULES.md sections 2, 4 and 8 under a :class:`~mjfast.rules.Rules`
object or a preset name (default: the ``chengdu`` preset). Hands are strings in tile notation
or 27 counts; melds are strings like ``"pung:5p"`` or :class:`~mjfast.tiles.Meld` objects.

>>> r = score("22244455577799m", win_tile="9m")
>>> r.fan, [(f.zh, n) for f, n in r.items], r.multiplier
(3, [('清对', 3)], 8)
>>> str(r.decomposition)
'222m 444m 555m 777m 99m'
>>> score("11224444557799m", win_tile="1m").items     # 清龙七对 uses one root up
((<Fan.QING_LONG_QI_DUI: 'qing_long_qi_dui'>, 5),)
>>> score("123m456p789s11155m", win_tile="5m").is_win  # three suits never win
False
>>> m = max_fan("1112345678999m")                       # 九莲: waits 1m-9m
>>> m.fan, m.best_wait, len(m.waits), m.payment
(3, 0, 9, 8)

Conventions where RULES.md leaves room (each is what the reference
:mod:`mjfast._ref.scoring` implements too):

- The fan is the maximum over every (reading, applicable base pattern) of base + extras; on
  equal totals the higher base fan names it, then the later :class:`~mjfast.rules.Fan`
  member, then the first reading in :func:`decompose` order. So 龙七对 / 清龙七对 (which use
  a root up) are only chosen when they are worth at least the plain pattern plus that root.
- ``items`` hold one ``(Fan.GEN, n * root_fan)`` entry for all roots; the base pattern's entry
  carries the display offset (``qq``: 平胡 is ``(PING_HU, 1)``); zero-valued extras are left
  out, the base pattern never is.
- ``after_kong``, ``tian_hu`` and ``di_hu`` imply a self-drawn win (so 自摸加番 adds to them).
  ``after_kong`` needs an own kong among the melds; ``tian_hu`` / ``di_hu`` need no melds and
  exclude the kong flags and ``last_tile``; ``robbing_kong`` needs the win tile held once
  (the robbed player has the other three). Violations raise ``ValueError``.
- 掐心五: the win tile is a 5 and the reading holds a 456 of its suit. 姊妹对: the reading holds
  two identical sequences (counted once). 一条龙: 123 + 456 + 789 of one suit. 金钩钓: four
  melds, every set of a short hand (``sets=3`` / ``2``) melded: the win is then always the
  single wait on the pair.
- :func:`max_fan` scores each wait as a discard win with no situational flag; ``WaitFan.dead``
  is reported whether or not ``rules.si_jiao`` is on.

The package: :mod:`.types` (result types, shared with the reference), :mod:`.readings` (per-suit
readings and their bits), :mod:`.inputs` (melds, sizes, situational flags), :mod:`.patterns`
(the base patterns and the per-Rules tables, also compiled for the C kernels), :mod:`.single`
(:func:`score`, :func:`decompose`, :func:`max_fan`), :mod:`.fast` (what their compiled fast
paths read) and :mod:`.batch` (the compiled :func:`fan` and the batch ``max_fan``).
"""

from mjfast.scoring.batch import fan
from mjfast.scoring.fast import bind_fast_paths
from mjfast.scoring.readings import (
                                     R_ALL_TRIPLETS,
                                     R_DRAGON,
                                     R_SEQ_456,
                                     R_TWIN_SEQ,
                                     R_YAO_JIU,
                                     SuitFeatures,
                                     suit_features,
)
from mjfast.scoring.single import decompose, max_fan, score
from mjfast.scoring.types import SEQ, TRIPLET, Decomposition, FanResult, MaxFan, WaitFan

bind_fast_paths()

__all__ = [
    "R_ALL_TRIPLETS",
    "R_DRAGON",
    "R_SEQ_456",
    "R_TWIN_SEQ",
    "R_YAO_JIU",
    "SEQ",
    "TRIPLET",
    "Decomposition",
    "FanResult",
    "MaxFan",
    "SuitFeatures",
    "WaitFan",
    "decompose",
    "fan",
    "max_fan",
    "score",
    "suit_features",
]
