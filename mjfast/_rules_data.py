"""What a :class:`~mjfast.rules.Rules` may hold: the bounds of its values, the checks of its
fields, the named presets (RULES.md section 7) and the other names of fields (aliases).

Data and checks only, imported by :mod:`mjfast.rules` (which re-exports the public names).

>>> PRESETS
('chengdu', 'qq', 'points')
>>> _resolve_aliases({"ca_gua": True}, "Rules")
{'jia_jia_you': True}
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from mjfast.errors import InvalidArgumentError, shown
from mjfast.fans import BASE_PATTERNS, DEFAULT_BASE_FAN, POINTS_BASE_FAN, Fan

__all__ = ["ALIASES", "MAX_AMOUNT", "MAX_FAN", "PRESETS"]

MAX_FAN: int = 48
"""The bound on every fan value of a :class:`Rules` (each fan field and base fan) and on the
exponent of any multiplier ``2 ** min(fan, cap)``: a multiplier is at most ``2 ** 48``."""

MAX_AMOUNT: int = 2**48
"""The bound on every amount of a :class:`Rules` (kong payments, 花猪), in base stakes."""


PRESETS: tuple[str, ...] = ("chengdu", "qq", "points")
"""Names accepted by :meth:`Rules.preset`."""

_PRESET_FIELDS: dict[str, dict[str, Any]] = {
    "chengdu": {},
    # RULES.md section 7 `qq`: no 抢杠 fan (its page lists none).
    "qq": {
        "name": "qq",
        "fan_display_offset": 1,
        "exposed_kong": 1,
        "hua_zhu": 16,
        "cap": None,
        "self_draw": "none",
        "added_kong_immediate": False,   # 即时加杠 is the Chengdu pages' rule (RULES.md 7)
        "qiang_gang_hu": 0,
    },
    # RULES.md section 7 `points` (老成都, seed 000): additive points, roots +1 each (kongs
    # included), 杠上花 +2, 抢杠胡 +1; no kong payments (so no kong money to move on 杠上炮: "keep"),
    # no 花猪 penalty, 查叫 赔小, 点杠花 paid by the discarder alone; 过水不胡 and 最后四张必胡 on;
    # 地胡 also on a discard.
    "points": {
        "name": "points",
        "model": "points",
        "base_fan": POINTS_BASE_FAN,
        "long_qi_dui_uses_root": False,
        "gang_shang_hua": 2,
        "gang_shang_pao": 0,
        "qiang_gang_hu": 1,
        "self_draw": "none",
        "cap": None,
        "exposed_kong": 0,
        "added_kong": 0,
        "concealed_kong": 0,
        "added_kong_immediate": False,
        "gang_shang_pao_kong": "keep",
        "cha_hua_zhu": False,
        "cha_da_jiao": "min",
        "dian_gang_hua": True,
        "guo_shui": "fan",
        "zui_hou_bi_hu": True,
        "di_hu_on_discard": True,
    },
}

# Other names of a field, accepted wherever fields are named (RULES.md section 7: 擦挂 / 大小雨
# are 家家有 under the names other tables use).
ALIASES: Mapping[str, str] = MappingProxyType({"ca_gua": "jia_jia_you",
                                               "da_xiao_yu": "jia_jia_you"})

# The fields of Rules that take one of a few strings, and those strings.
_CHOICES: dict[str, tuple[str, ...]] = {
    "self_draw": ("add_base", "add_fan", "none"),
    "model": ("doubling", "points"),
    "gang_shang_pao_kong": ("transfer", "refund", "keep"),
    "cha_da_jiao": ("max", "min"),
    "guo_shui": ("off", "fan", "tile"),
}


def _normalise_base_fan(value: object) -> Mapping[Fan, int]:
    """Merge a (partial) mapping {Fan or its name: int} over the default table."""
    if not isinstance(value, Mapping):
        raise InvalidArgumentError(
            f"Rules.base_fan must be a mapping Fan -> int, got {type(value).__name__}"
        )
    table = dict(DEFAULT_BASE_FAN)
    for key, fan in value.items():
        if isinstance(key, str):
            try:
                key = Fan[key.upper()] if key.upper() in Fan.__members__ else Fan(key)
            except ValueError:
                raise InvalidArgumentError(f"Rules.base_fan: unknown fan {shown(key)}") from None
        if not isinstance(key, Fan):
            raise InvalidArgumentError(
                f"Rules.base_fan: keys must be Fan members, got {shown(key, with_type=True)}")
        if not key.is_base:
            raise InvalidArgumentError(
                f"Rules.base_fan: {key.name} ({key.zh}) is an extra, not a base pattern; "
                f"set its own option field instead"
            )
        table[key] = _fan(f"base_fan[{key.name}]", fan)
    return MappingProxyType({f: table[f] for f in BASE_PATTERNS})


def _check_int(name: str, value: object, *, minimum: int = 0, maximum: int | None = None,
               why: str = "") -> int:
    if isinstance(value, bool):
        raise InvalidArgumentError(f"Rules.{name} must be an int, got a bool ({value!r})")
    try:
        value = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidArgumentError(
            f"Rules.{name} must be an int, got {shown(value, with_type=True)}"
        ) from None
    if value < minimum:
        raise InvalidArgumentError(f"Rules.{name} must be >= {minimum}, got {shown(value)}")
    if maximum is not None and value > maximum:
        raise InvalidArgumentError(
            f"Rules.{name} must be an int from {minimum} to {maximum}{why}, got {shown(value)}"
        )
    return value


def _fan(name: str, value: object) -> int:
    return _check_int(name, value, maximum=MAX_FAN, why=" (fan values are bounded: payments "
                      "must fit int64 and fans the int16 batch output)")


def _choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    """Refuse a value of a string field that is not one of ``choices``."""
    if not isinstance(value, str) or value not in choices:
        listed = ", ".join(map(repr, choices[:-1])) + f" or {choices[-1]!r}"
        raise InvalidArgumentError(f"Rules.{name} must be {listed}, got {shown(value)}")


def _top_fan(r: Any) -> int:
    """The largest internal fan a hand can reach under the Rules *r*: the best base fan, four
    roots (no hand holds more) and every extra at once (an upper bound: not every pair
    combines)."""
    extras = (r.gang_shang_hua + r.gang_shang_pao + r.qiang_gang_hu + r.hai_di + r.men_qing
              + r.zhong_zhang + r.qia_xin_wu + r.zi_mei_dui + r.yi_tiao_long + r.jue_zhang
              + (r.self_draw == "add_fan"))
    return int(max(r.base_fan.values()) + 4 * r.root_fan + extras)


def _amount(name: str, value: object) -> int:
    return _check_int(name, value, maximum=MAX_AMOUNT, why=" (2**48: amounts are bounded so "
                      "that a round's payments fit int64)")


def _cap(name: str, value: object) -> int:
    return _check_int(name, value, maximum=_INT32_MAX, why=" (the int32 rules table)")


_INT32_MAX = 2**31 - 1


def _resolve_aliases(kwargs: Mapping[str, Any], where: str) -> dict[str, Any]:
    """*kwargs* with the :data:`ALIASES` of fields renamed to the fields (given both: refused)."""
    out: dict[str, Any] = {}
    for key, value in kwargs.items():
        name = ALIASES.get(key, key) if isinstance(key, str) else key
        if name in out:
            raise InvalidArgumentError(f"{where}: {name} given twice (as {key} and {name})")
        out[name] = value
    return out
