"""Random rule sets for the engine tests: every :class:`~mjfast.rules.Rules` field and the values
it is drawn from, in one table (:data:`FIELD_VALUES`), so that a new field slots in as one line
(``test_every_field_is_drawn`` fails until it does).

Values cover each field's range: small values most of the time (so that hands stay ordinary)
and now and then the extremes of the bounds of ``Rules`` (fan values up to ``MAX_FAN``, amounts
up to ``MAX_AMOUNT``, caps up to ``MAX_FAN``), which ``Rules`` then checks together (a set it
refuses, such as a reachable fan above ``MAX_FAN`` with no cap, is drawn again).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from mjfast.fans import BASE_PATTERNS
from mjfast.rules import MAX_AMOUNT, MAX_FAN, PRESETS, Rules
from mjfast.table.engine import MAX_TABLE_PLAYERS

Draw = Callable[[random.Random], Any]


def _fan(top: int = 3, off: float = 0.0) -> Draw:
    """0..top, MAX_FAN once in 40 draws; 0 (off) with probability *off*."""
    def draw(r: random.Random) -> int:
        if r.random() < off:
            return 0
        return MAX_FAN if r.random() < 0.025 else r.randint(0, top)
    return draw


def _amount(top: int) -> Draw:
    return lambda r: MAX_AMOUNT if r.random() < 0.025 else r.randint(0, top)


def _flag(r: random.Random) -> bool:
    return r.random() < 0.5


def _one_of(*values: Any) -> Draw:
    return lambda r: r.choice(values)


def _optional(draw: Draw, none: float) -> Draw:
    return lambda r: None if r.random() < none else draw(r)


def _base_fan(r: random.Random) -> dict[str, int]:
    return {f.name: _fan(8)(r) for f in BASE_PATTERNS if r.random() < 0.4}


FIELD_VALUES: dict[str, Draw] = {
    "name": _one_of(*PRESETS, "house"),
    "base_fan": _base_fan,
    "root_fan": _fan(2),
    "long_qi_dui_uses_root": _flag,
    "gang_shang_hua": _fan(2),
    "gang_shang_pao": _fan(2),
    "qiang_gang_hu": _fan(2),
    "self_draw": _one_of("add_base", "add_fan", "none"),
    "hai_di": _fan(2, off=0.5),
    "men_qing": _fan(2, off=0.5),
    "zhong_zhang": _fan(2, off=0.5),
    "qia_xin_wu": _fan(2, off=0.5),
    "zi_mei_dui": _fan(2, off=0.5),
    "yi_tiao_long": _fan(2, off=0.5),
    "jin_gou_diao": _flag,
    "cap": _optional(_fan(6), none=0.3),
    "exposed_kong": _amount(3),
    "jia_jia_you": _flag,
    "added_kong": _amount(3),
    "added_kong_immediate": _flag,
    "concealed_kong": _amount(3),
    "gang_shang_pao_kong": _one_of("transfer", "refund", "keep"),
    "qiang_gang_transfer": _flag,
    "hua_zhu": _optional(_amount(20), none=0.5),
    "cha_da_jiao": _one_of("max", "min"),
    "si_jiao": _flag,
    "fan_display_offset": _fan(1),
    "kong_refund": _flag,
    "guo_shui": _one_of("off", "fan", "tile"),
    "zui_hou_bi_hu": _flag,
    "model": _one_of("doubling", "points"),
    "cha_hua_zhu": _flag,
    "hua_zhu_one_suit": _flag,
    "shai_tai_yang": _flag,
    "dian_gang_hua": _flag,
    "xue_zhan": _flag,
    # At their defaults until the compiled engine plays them (cengine.check_played refuses
    # other values; the efficient player assumes a declared void suit).
    "jue_zhang": _one_of(0),
    "di_hu_on_discard": _one_of(False),
    "ding_que": _one_of(True),
}
"""Every Rules field -> a draw of one value from a ``random.Random``."""

SEATS = tuple(range(2, MAX_TABLE_PLAYERS + 1))
"""The table sizes the engines take."""


def random_rules(r: random.Random) -> Rules:
    """A rule set with every field drawn from :data:`FIELD_VALUES`; one ``Rules`` refuses, or
    whose 花猪 cannot be paid (查花猪 on with neither ``hua_zhu`` nor a cap), is drawn again."""
    while True:
        fields = {name: draw(r) for name, draw in FIELD_VALUES.items()}
        try:
            rules = Rules(**fields)
            if rules.cha_hua_zhu:
                rules.hua_zhu_amount()
        except ValueError:
            continue
        return rules
