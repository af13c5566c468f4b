"""Rule sets: the fan table, the options of RULES.md sections 4-7, and the named presets.

A :class:`Rules` object is plain, frozen data. Every option is a field a caller may override;
:meth:`Rules.preset` builds a named preset (``"chengdu"``, the default everywhere, ``"qq"`` or
``"points"``) with overrides::

    >>> from mjfast.rules import Fan, Rules
    >>> r = Rules.preset("chengdu", men_qing=1, cap=4)
    >>> r.cap, r.men_qing, r.base_fan[Fan.QING_DUI]
    (4, 1, 3)
    >>> Rules.preset("qq").fan_display_offset, Rules.preset("qq").cap
    (1, None)
    >>> Rules().multiplier(5)        # chengdu caps at 3 fan
    8
    >>> Fan.QING_YI_SE.zh, Fan.QING_YI_SE.is_base, Fan.GEN.is_base
    ('清一色', True, False)
    >>> p = Rules.preset("points")   # 老成都: additive points, never doubled, no cap
    >>> p.model, p.unit, p.base_fan[Fan.PING_HU], p.multiplier(5), p.gang_shang_hua
    ('points', '分', 1, 5, 2)

Two scoring models (``model``): ``"doubling"`` (RULES.md sections 4-5: a win pays
``base x 2 ** min(fan, cap)``) and ``"points"`` (RULES.md section 7, ``points``: the base pattern
and the extras are points, added, and a win pays ``base x points``, never doubled; a ``cap``,
when one is set, caps the points). Everything that prices a hand (:func:`~mjfast.scoring.score`,
:func:`~mjfast.scoring.max_fan`, the draw settlement, :class:`~mjfast.settlement.Round`) reads
the model through :meth:`Rules.multiplier`.

Fan values in a :class:`Rules` are *internal* fan: 平胡 is 0. The ``qq`` preset shows every fan
one higher (``fan_display_offset=1``, 平胡 = 1番) and pays the same amounts:
``multiplier(internal_fan) = 2 ** min(internal_fan, cap)``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from mjfast._rules_data import (
    _CHOICES,
    _PRESET_FIELDS,
    ALIASES,
    MAX_AMOUNT,
    MAX_FAN,
    PRESETS,
    _amount,
    _cap,
    _check_int,
    _choice,
    _fan,
    _normalise_base_fan,
    _resolve_aliases,
    _top_fan,
)
from mjfast.errors import InvalidArgumentError, shown
from mjfast.fans import BASE_PATTERNS, DEFAULT_BASE_FAN, Fan

__all__ = ["ALIASES", "BASE_PATTERNS", "MAX_AMOUNT", "MAX_FAN", "PRESETS", "Fan", "Rules",
           "rules_from_json", "rules_to_json"]


@dataclass(frozen=True)
class Rules:
    """Every option of RULES.md sections 4-7 (defaults = the ``chengdu`` preset).

    Fan fields are internal fan (平胡 = 0); an extra option set to 0 is off, otherwise it is
    the fan it adds. Amounts (kong payments, 花猪) are in units of the base stake.

    Fields:
        name: the preset name this was built from (informational).
        model: ``"doubling"`` (a win pays ``2 ** min(fan, cap)``) or ``"points"`` (the fan
            values are points, a win pays ``min(points, cap)``: never doubled).
        base_fan: read-only mapping base-pattern :class:`Fan` -> fan (a partial mapping
            passed in is merged over the RULES.md section 4 table).
        root_fan: fan per root (根).
        long_qi_dui_uses_root: 龙七对 / 清龙七对 use one root up (减1根).
        gang_shang_hua, gang_shang_pao, qiang_gang_hu: fan of 杠上花 / 杠上炮 / 抢杠胡.
        self_draw: ``"add_base"`` (自摸加底: one extra base per payer, settlement),
            ``"add_fan"`` (自摸加番: ``Fan.ZI_MO`` +1 fan) or ``"none"``.
        hai_di, men_qing, zhong_zhang, qia_xin_wu, zi_mei_dui, yi_tiao_long: options, 0 = off.
        jin_gou_diao: enable 金钩钓 (base 2) / 清金钩钓 (base 4).
        cap: fan cap (封顶) or None for no cap.
        exposed_kong, added_kong, concealed_kong: kong payments per payer (直杠 / 补杠 / 暗杠).
        added_kong_immediate: 即时加杠: an added kong earns its payments only when declared on
            the turn its fourth copy was drawn; a later one is legal and robbable but earns
            nothing (``Round.kong(..., immediate=False)``).
        jia_jia_you: on 直杠 every other player still in also pays 1 base. Other tables call it
            擦挂 or 大小雨: ``ca_gua=`` and ``da_xiao_yu=`` are accepted as its aliases.
        gang_shang_pao_kong: the income of the kong before a 杠上炮: ``"transfer"`` (呼叫转移:
            the discarder hands it to each winner), ``"refund"`` (back to those who paid it) or
            ``"keep"``.
        qiang_gang_transfer: 转雨 on 抢杠: the robbed added kong's income goes to the robber
            (each robber, like 呼叫转移) instead of being annulled.
        hua_zhu: what a 花猪 pays each player, None = ``2 ** cap`` (满格).
        cha_hua_zhu: 查花猪 at the draw (off in ``points``: a three-suit hand is then simply not
            ready, and pays the 大叫 like any hand that is not ready).
        hua_zhu_one_suit: the 花猪 exception: a player who only ever discarded tiles of one suit
            (``PlayerState.discarded_suits``, filled by :meth:`Round.discard
            <mjfast.settlement.Round.discard>`) is not a 花猪.
        cha_da_jiao: ``"max"`` (the 大叫, default) or ``"min"`` (赔小).
        si_jiao: 死叫 option: a wait whose copies are all visible does not count.
        fan_display_offset: added to every displayed fan (``qq``: 1).
        kong_refund: refund kong income of non-ready players at the draw.
        shai_tai_yang: 晒太阳: when all the other players have won, the last player still in, if
            not ready, refunds the kong income too (without it, no draw settlement runs then).
        dian_gang_hua: 点杠花: a 杠上花 on the replacement draw of an exposed kong (直杠) claimed
            from a discard is paid by that discarder alone, as a discard win.
        guo_shui: 过水不胡 (game flow, RULES.md section 10): ``"off"``; ``"fan"``: a player who
            passes a win on a discard may not win on a discard again before their own next
            draw, unless the new win is worth more; ``"tile"``: only the same tile is barred
            until then.
        zui_hou_bi_hu: 最后四张必胡 (game flow): a player who can win on one of the last four
            tiles of the wall (drawn, or discarded once fewer than four are left) must win.
        xue_zhan: 血战到底 (on); off = 普通场: the hand ends at the first win (every winner of that
            discard: 一炮多响) and the draw settlement runs only when nobody won.
        jue_zhang: 绝张 (fan option, 0 = off): the win is on the last live copy of its tile
            (the other three visible: discarded, melded or in the winner's hand).
        di_hu_on_discard: 地胡 also for a non-dealer's win on a discard in the first go-round
            before any claim (besides the win on the first own draw).
        ding_que: 定缺 (on): each player declares a void suit, and one dealt two suits only must
            declare the third; off = 不定张: no declaration, no discard is forced, a win still
            holds at most two suits.

    Bounds, so that every ledger holds its amounts exactly (int64), every fan fits the int16
    output of the batch kernels and no fan makes the scorer build a huge ``2 ** fan``: each fan
    value (base fans, ``root_fan``, the extras, ``fan_display_offset``) is 0 to :data:`MAX_FAN`
    (48), so no fan shown exceeds 16 x 48 + 1; each amount (kong payments, ``hua_zhu``) is 0
    to :data:`MAX_AMOUNT` (``2 ** 48``); and where the largest fan a hand can reach (the best
    base fan, four roots and every extra) exceeds :data:`MAX_FAN`, ``cap`` must be at most
    :data:`MAX_FAN` (any ``cap`` is at most ``2 ** 31 - 1``). A round (at most 27 kongs, 5
    winners and a draw, at a table of up to 6) then moves less than ``2 ** 57``: every ledger
    fits int64 with room.

    Unknown, ill-typed and out-of-range fields raise
    :class:`~mjfast.errors.InvalidArgumentError` (a ``TypeError`` and a ``ValueError``):

    >>> Rules(cap="3")
    Traceback (most recent call last):
        ...
    mjfast.errors.InvalidArgumentError: Rules.cap must be an int or None, got str '3'
    >>> Rules(concealed_kong=2**62)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    mjfast.errors.InvalidArgumentError: Rules.concealed_kong must be an int from 0 to 281474976710656 ...
    """

    name: str = "chengdu"
    base_fan: Mapping[Fan, int] = field(default_factory=lambda: DEFAULT_BASE_FAN)
    root_fan: int = 1
    long_qi_dui_uses_root: bool = True
    gang_shang_hua: int = 1
    gang_shang_pao: int = 1
    qiang_gang_hu: int = 1
    self_draw: Literal["add_base", "add_fan", "none"] = "add_base"
    hai_di: int = 0
    men_qing: int = 0
    zhong_zhang: int = 0
    qia_xin_wu: int = 0
    zi_mei_dui: int = 0
    yi_tiao_long: int = 0
    jin_gou_diao: bool = False
    cap: int | None = 3
    exposed_kong: int = 2
    jia_jia_you: bool = False
    added_kong: int = 1
    added_kong_immediate: bool = True
    concealed_kong: int = 2
    gang_shang_pao_kong: Literal["transfer", "refund", "keep"] = "transfer"
    qiang_gang_transfer: bool = False
    hua_zhu: int | None = None
    cha_da_jiao: Literal["max", "min"] = "max"
    si_jiao: bool = False
    fan_display_offset: int = 0
    kong_refund: bool = True
    guo_shui: Literal["off", "fan", "tile"] = "off"
    zui_hou_bi_hu: bool = False
    model: Literal["doubling", "points"] = "doubling"
    cha_hua_zhu: bool = True
    hua_zhu_one_suit: bool = False
    shai_tai_yang: bool = False
    dian_gang_hua: bool = False
    xue_zhan: bool = True
    jue_zhang: int = 0
    di_hu_on_discard: bool = False
    ding_que: bool = True

    _FAN_FIELDS: ClassVar[tuple[str, ...]] = (
        "root_fan", "gang_shang_hua", "gang_shang_pao", "qiang_gang_hu", "hai_di", "men_qing",
        "zhong_zhang", "qia_xin_wu", "zi_mei_dui", "yi_tiao_long", "fan_display_offset",
        "jue_zhang",
    )
    _AMOUNT_FIELDS: ClassVar[tuple[str, ...]] = ("exposed_kong", "added_kong", "concealed_kong")
    _BOOL_FIELDS: ClassVar[tuple[str, ...]] = (
        "long_qi_dui_uses_root", "jin_gou_diao", "jia_jia_you", "added_kong_immediate",
        "qiang_gang_transfer", "si_jiao", "kong_refund", "zui_hou_bi_hu", "cha_hua_zhu",
        "hua_zhu_one_suit", "shai_tai_yang", "dian_gang_hua", "xue_zhan", "di_hu_on_discard",
        "ding_que",
    )

    def __post_init__(self) -> None:
        setattr_ = object.__setattr__
        if not isinstance(self.name, str):
            raise InvalidArgumentError(f"Rules.name must be a str, got {type(self.name).__name__}")
        setattr_(self, "base_fan", _normalise_base_fan(self.base_fan))
        for name in self._FAN_FIELDS:
            setattr_(self, name, _fan(name, getattr(self, name)))
        for name in self._AMOUNT_FIELDS:
            setattr_(self, name, _amount(name, getattr(self, name)))
        for name in self._BOOL_FIELDS:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise InvalidArgumentError(
                    f"Rules.{name} must be a bool, got {shown(value, with_type=True)}"
                )
        for name, check in (("cap", _cap), ("hua_zhu", _amount)):
            value = getattr(self, name)
            if value is not None:
                if isinstance(value, (bool, str, float)):
                    raise InvalidArgumentError(
                        f"Rules.{name} must be an int or None, got {shown(value, with_type=True)}"
                    )
                setattr_(self, name, check(name, value))
        for name, choices in _CHOICES.items():
            _choice(name, getattr(self, name), choices)
        top = _top_fan(self)
        if top > MAX_FAN and (self.cap is None or self.cap > MAX_FAN):
            raise InvalidArgumentError(
                f"Rules.cap: a hand can reach {top} fan under these rules (the best base fan, "
                f"four roots and every extra), so the cap must be at most {MAX_FAN} (payments "
                f"of 2**fan must fit int64), got {shown(self.cap)}"
            )
        setattr_(self, "_hash", None)  # computed on first use (not a field)

    # base_fan is a mappingproxy (unhashable): hash by its items.
    def __hash__(self) -> int:
        h = self._hash  # type: ignore[attr-defined]
        if h is None:
            h = hash(tuple(
                tuple(self.base_fan.items()) if f.name == "base_fan" else getattr(self, f.name)
                for f in dataclasses.fields(self)
            ))
            object.__setattr__(self, "_hash", h)
        return h

    def __repr__(self) -> str:
        """Only the fields that differ from the defaults (the ``chengdu`` preset).

        >>> Rules.preset("qq")  # doctest: +NORMALIZE_WHITESPACE
        Rules(name='qq', qiang_gang_hu=0, self_draw='none', cap=None, exposed_kong=1,
              added_kong_immediate=False, hua_zhu=16, fan_display_offset=1)
        """
        parts = [f"name={self.name!r}"]
        for f in dataclasses.fields(self):
            if f.name == "name":
                continue
            value = getattr(self, f.name)
            if f.name == "base_fan":
                changed = {k.name: v for k, v in value.items() if DEFAULT_BASE_FAN[k] != v}
                if changed:
                    parts.append(f"base_fan={changed!r}")
            elif value != getattr(CHENGDU, f.name):
                parts.append(f"{f.name}={value!r}")
        return f"Rules({', '.join(parts)})"

    def __reduce__(self) -> tuple[Any, ...]:  # picklable despite the mappingproxy
        kwargs = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        kwargs["base_fan"] = dict(kwargs["base_fan"])
        return (_rules_from_kwargs, (kwargs,))

    @classmethod
    def preset(cls, name: str = "chengdu", /, **overrides: Any) -> Rules:
        """The named preset (one of :data:`PRESETS`) with fields overridden.

        *name* is positional, so ``name=`` may be overridden like any other field.

        >>> Rules.preset("qq", cap=5).cap
        5
        >>> Rules.preset("qq", fan=1)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        mjfast.errors.InvalidArgumentError: Rules.preset('qq'): unknown option 'fan'; valid options: ...
        """
        if not isinstance(name, str) or name not in _PRESET_FIELDS:
            raise InvalidArgumentError(
                f"unknown preset {shown(name)}; presets: {', '.join(map(repr, PRESETS))}"
            )
        valid = [f.name for f in dataclasses.fields(cls)]
        overrides = _resolve_aliases(overrides, f"Rules.preset({name!r})")
        for key in overrides:
            if key not in valid:
                raise InvalidArgumentError(
                    f"Rules.preset({name!r}): unknown option {shown(key)}; "
                    f"valid options: {', '.join(valid)}"
                )
        kwargs = dict(_PRESET_FIELDS[name])
        kwargs.update(overrides)
        return cls(**kwargs)

    def replace(self, **overrides: Any) -> Rules:
        """A copy with fields overridden (validated like the constructor).

        >>> Rules().replace(cap=None, hua_zhu=8).cap is None
        True
        """
        valid = [f.name for f in dataclasses.fields(self)]
        overrides = _resolve_aliases(overrides, "Rules.replace")
        for key in overrides:
            if key not in valid:
                raise InvalidArgumentError(
                    f"Rules.replace: unknown option {shown(key)}; valid options: {', '.join(valid)}"
                )
        return dataclasses.replace(self, **overrides)

    @property
    def unit(self) -> str:
        """The unit of the fan values: ``"番"`` (doubling model) or ``"分"`` (points)."""
        return "分" if self.model == "points" else "番"

    def multiplier(self, internal_fan: int) -> int:
        """Payment multiplier ``2 ** min(internal_fan, cap)`` (no cap: ``2 ** internal_fan``);
        under the ``points`` model ``min(points, cap)``: the points themselves, never doubled.

        *internal_fan* is internal numbering (平胡 = 0), also for ``qq``; with no cap (or one
        above :data:`MAX_FAN`) it is at most :data:`MAX_FAN`, like any fan a hand can reach.

        >>> Rules().multiplier(2), Rules().multiplier(7), Rules.preset("qq").multiplier(7)
        (4, 8, 128)
        >>> Rules.preset("points").multiplier(7), Rules.preset("points", cap=5).multiplier(7)
        (7, 5)
        """
        f = _check_int("multiplier(internal_fan)", internal_fan,
                       maximum=MAX_FAN if self.cap is None or self.cap > MAX_FAN else None,
                       why=f" when the cap is None or above {MAX_FAN}")
        if self.cap is not None and f > self.cap:
            f = self.cap
        return f if self.model == "points" else 1 << f

    def hua_zhu_amount(self) -> int:
        """What a 花猪 pays each other non-花猪 player still in, in base units.

        ``hua_zhu`` when set, else the full cap amount ``2 ** cap`` (满格).

        Raises:
            ValueError: neither ``hua_zhu`` nor ``cap`` is set (no cap means no 满格).

        >>> Rules().hua_zhu_amount(), Rules.preset("qq").hua_zhu_amount()
        (8, 16)
        """
        if self.hua_zhu is not None:
            return self.hua_zhu
        if self.cap is None:
            raise InvalidArgumentError(
                "Rules.hua_zhu_amount: with cap=None the 花猪 amount (满格 = 2**cap) is "
                "undefined; set hua_zhu explicitly"
            )
        if self.cap > MAX_FAN:
            raise InvalidArgumentError(
                f"Rules.hua_zhu_amount: with cap={shown(self.cap)} the 花猪 amount (满格 = "
                f"2**cap) is past the bound of amounts (2**{MAX_FAN}); set hua_zhu explicitly"
            )
        return 1 << self.cap

    def display_fan(self, internal_fan: int) -> int:
        """Internal fan (平胡 = 0) in this preset's display numbering.

        >>> Rules().display_fan(0), Rules.preset("qq").display_fan(0)
        (0, 1)
        """
        return _check_int("display_fan(internal_fan)", internal_fan) + self.fan_display_offset

    def to_bytes(self) -> bytes:
        """These rules compiled for the C library (``mj_rules_from_bytes`` in ``mjfast.h``), so
        that every override made in Python reaches C code.

        >>> blob = Rules.preset("qq", cap=5).to_bytes()
        >>> blob[:7], len(blob)
        (b'mjrules', 6260)
        """
        if _bytes_compiler is None:
            raise RuntimeError("Rules.to_bytes: mjfast.scoring.patterns is not imported")
        return _bytes_compiler(self)


# What Rules.to_bytes calls: mjfast.scoring.patterns installs it when imported (with the package,
# always); it compiles rules for the kernels and imports this module, so this one cannot import it.
_bytes_compiler: Callable[[Rules], bytes] | None = None


def set_bytes_compiler(compiler: Callable[[Rules], bytes]) -> None:
    """Install the compiler behind :meth:`Rules.to_bytes` (mjfast.scoring.patterns.rules_blob)."""
    global _bytes_compiler
    _bytes_compiler = compiler


def _rules_from_kwargs(kwargs: dict[str, Any]) -> Rules:
    return Rules(**kwargs)


def _checked_init(init: Any) -> Any:
    """Rules' dataclass __init__, refusing unknown fields as preset() and replace() do (with
    InvalidArgumentError, not the TypeError of a bad call), as the class docstring says."""
    names = [f.name for f in dataclasses.fields(Rules)]

    @functools.wraps(init)
    def __init__(self: Rules, *args: Any, **kwargs: Any) -> None:
        kwargs = _resolve_aliases(kwargs, "Rules")
        if len(args) > len(names):
            raise InvalidArgumentError(
                f"Rules: takes at most {len(names)} fields, got {len(args)} positional values")
        for key in kwargs:
            if key not in names:
                raise InvalidArgumentError(f"Rules: unknown option {shown(key)}; valid options: "
                                           f"{', '.join(names)}")
            if key in names[:len(args)]:
                raise InvalidArgumentError(f"Rules: {key} given twice (by position and by name)")
        init(self, *args, **kwargs)
    return __init__


Rules.__init__ = _checked_init(Rules.__init__)  # type: ignore[method-assign]


CHENGDU: Rules = Rules()
"""The default rules (the ``chengdu`` preset)."""


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """A JSON-ready document of *rules*: the preset it starts from and the fields it overrides.

    >>> rules_to_json(Rules.preset("qq", cap=5))
    {'preset': 'qq', 'overrides': {'cap': 5}}
    >>> rules_from_json(rules_to_json(Rules.preset("qq", cap=5))) == Rules.preset("qq", cap=5)
    True
    """
    preset = rules.name if rules.name in PRESETS else "chengdu"
    base = Rules.preset(preset)
    overrides: dict[str, Any] = {}
    for f in dataclasses.fields(rules):
        value, default = getattr(rules, f.name), getattr(base, f.name)
        if f.name == "base_fan":
            value = {fan.name: int(v) for fan, v in value.items()}
            default = {fan.name: int(v) for fan, v in default.items()}
        if value != default:
            overrides[f.name] = value
    return {"preset": preset, "overrides": overrides}


def rules_from_json(doc: Any) -> Rules:
    """The :class:`Rules` of a :func:`rules_to_json` document (or of a bare preset name)."""
    if isinstance(doc, str):
        return Rules.preset(doc)
    if not isinstance(doc, Mapping) or "preset" not in doc:
        raise InvalidArgumentError(
            f"rules: expected a preset name or an object with 'preset' and 'overrides', "
            f"got {type(doc).__name__}")
    overrides = doc.get("overrides", {})
    if not isinstance(overrides, Mapping):
        raise InvalidArgumentError(
            f"rules.overrides: expected an object, got {type(overrides).__name__}")
    overrides = dict(overrides)
    if "base_fan" in overrides:
        table = overrides["base_fan"]
        if not isinstance(table, Mapping):
            raise InvalidArgumentError(
                f"rules.overrides.base_fan: expected an object, got {type(table).__name__}")
        overrides["base_fan"] = {_fan_named(k): v for k, v in table.items()}
    return Rules.preset(doc["preset"], **overrides)


def _fan_named(name: object) -> Fan:
    if isinstance(name, str) and name in Fan.__members__:
        return Fan[name]
    raise InvalidArgumentError(f"rules.overrides.base_fan: unknown fan {shown(name)}")
