"""The event log of a :class:`~mjfast.settlement.Round` as JSON: what ``Round.to_json`` writes
and ``Round.from_json`` replays.

A log is ``{"format": "mjfast.round", "version": 1, "rules": ..., "players": n, "dealer": d,
"events": [...]}``; ``rules`` is a :func:`mjfast.rules.rules_to_json` document and each event
holds the arguments of the ledger method it replays (``kong``, ``discard``, ``win`` or ``draw``)
under their names, except one key the format keeps: ``players`` holds the ``winners`` of a win
and the ``states`` of a draw.

Every problem with a log raises :class:`~mjfast.errors.InvalidArgumentError` (a ``ValueError``)
whose message names the event and the problem: a key of the log as the log spells it
(``from_json: events[3]: win: missing key 'hands'``), a value the ledger refuses as the ledger
does, by its argument (``from_json: events[3]: win: winners[1]: expected an int``, for the log's
``players[1]``).
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterable, Mapping
from contextlib import contextmanager
from typing import Any, NamedTuple

from mjfast._args import as_flag, as_int
from mjfast.errors import InvalidArgumentError, shown
from mjfast.rules import Rules, rules_from_json, rules_to_json

__all__ = ["FORMAT", "VERSION", "Log", "event_args", "log_field", "read_log", "write_log"]

FORMAT = "mjfast.round"
VERSION = 1

_FLAGS = ("robbing_kong", "after_kong", "after_kong_discard", "last_tile", "tian_hu", "di_hu",
          "jue_zhang")
# Event type -> (required keys, optional keys): the arguments of the ledger method it replays.
_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "kong": (("player", "tile", "kind"), ("from_player", "immediate")),
    "discard": (("player", "tile"), ()),
    "win": (("players", "tile", "hands"), ("from_player", "melds", "void_suit", *_FLAGS)),
    "draw": (("players",), ()),
}
# Log key -> the ledger method's argument, where they differ (the log keeps version 1's names).
_ARGUMENT = {"win": {"players": "winners"}, "draw": {"players": "states"}}
# What a hostile log can raise inside the ledger besides ValueError / TypeError: huge ints
# (OverflowError) and deeply nested values (RecursionError).
_BAD_LOG = (ValueError, TypeError, OverflowError, RecursionError)


class Log(NamedTuple):
    """A log as read: the rules (checked), the seats and dealer and events (not yet)."""

    rules: Rules
    players: Any
    dealer: Any
    events: list[Any]


def write_log(rules: Rules, players: int, dealer: int, events: Iterable[dict[str, Any]],
              **dumps_kwargs: Any) -> str:
    """The JSON text of a log (tiles in mpsz, Chinese kept as is); *dumps_kwargs* are the
    layout options of :func:`json.dumps`, checked (:func:`_dumps_options`)."""
    doc = {"format": FORMAT, "version": VERSION, "rules": rules_to_json(rules),
           "players": players, "dealer": dealer, "events": list(events)}
    return json.dumps(doc, ensure_ascii=False, **_dumps_options(dumps_kwargs))


_MAX_INDENT = 16


def _dumps_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The layout options of ``to_json``, checked: ``indent`` (None, 0 to 16 or a str of up to
    16 whitespace characters), ``sort_keys`` (a bool) and ``separators`` (a pair of strs: a
    comma and a colon, each with whitespace around it). Others could make the text invalid
    JSON, or huge (``indent=2**40``)."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        if key == "indent":
            if isinstance(value, str):
                if len(value) > _MAX_INDENT or value.strip():
                    raise InvalidArgumentError(f"to_json: indent: expected up to {_MAX_INDENT} "
                                               f"whitespace characters, got {shown(value)}")
            elif value is not None:
                value = as_int(value, "to_json: indent", minimum=0, maximum=_MAX_INDENT)
        elif key == "sort_keys":
            value = as_flag(value, "to_json: sort_keys")
        elif key == "separators":
            if not (isinstance(value, (tuple, list)) and len(value) == 2
                    and all(isinstance(v, str) and len(v) <= _MAX_INDENT for v in value)
                    and value[0].strip() == "," and value[1].strip() == ":"):
                raise InvalidArgumentError(f"to_json: separators: expected a pair such as "
                                           f"(', ', ': '), got {shown(value)}")
            value = tuple(value)
        else:
            raise InvalidArgumentError(f"to_json: unknown option {shown(key)} (the layout "
                                       f"options: indent, sort_keys, separators)")
        out[key] = value
    return out


def read_log(text: str | bytes | Mapping[str, Any]) -> Log:
    """The parts of a log, for the ledger to replay (JSON text or the parsed document)."""
    try:
        doc = json.loads(text) if isinstance(text, (str, bytes, bytearray)) else text
    except (ValueError, RecursionError) as exc:
        raise InvalidArgumentError(f"from_json: invalid JSON: {exc}") from None
    # Type checks first: a parsed document may hold arrays, which answer == elementwise.
    form = doc.get("format") if isinstance(doc, Mapping) else None
    if not isinstance(form, str) or form != FORMAT:
        raise InvalidArgumentError("from_json: not an mjfast round log")
    version = doc.get("version")
    if not isinstance(version, (int, float)) or version != VERSION:
        raise InvalidArgumentError(f"from_json: unsupported version {_excerpt(version)}")
    for key in ("rules", "players", "dealer", "events"):
        if key not in doc:
            raise InvalidArgumentError(f"from_json: missing key {key!r}")
    with log_field("rules"):
        rules = rules_from_json(doc["rules"])
    events = doc["events"]
    if not isinstance(events, list):
        raise InvalidArgumentError(f"from_json: events: expected a list, got "
                                   f"{type(events).__name__}")
    return Log(rules, doc["players"], doc["dealer"], events)


def _excerpt(value: object) -> str:
    """A logged value for a message: its repr, cut to 40 characters (a huge int by its size)."""
    if isinstance(value, (str, int, float)) or value is None:
        return shown(value)
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int past the digit limit inside, deep nesting
        return type(value).__name__
    return text if len(text) <= 40 else f"{text[:30]}... ({len(text)} characters)"


@contextmanager
def log_field(field: str | None) -> Generator[None, None, None]:
    """Turn any error of a bad log into one InvalidArgumentError naming the field
    (``from_json: FIELD: ...``; the field is not repeated when the message starts with it)."""
    try:
        yield
    except _BAD_LOG as exc:
        text = str(exc)
        if field is not None and not text.startswith(field):
            text = f"{field}: {text}"
        raise InvalidArgumentError(f"from_json: {text}") from exc


def event_args(event: object) -> tuple[str, dict[str, Any]]:
    """The type of a logged event and the arguments of the ledger method that replays it."""
    if not isinstance(event, Mapping):
        raise InvalidArgumentError(f"expected an object, got {type(event).__name__}")
    if "type" not in event:
        raise InvalidArgumentError("missing key 'type'")
    kind = event["type"]
    if not isinstance(kind, str) or kind not in _KEYS:
        raise InvalidArgumentError(f"unknown event type {_excerpt(kind)}")
    required, optional = _KEYS[kind]
    args = {k: v for k, v in event.items() if k != "type"}
    for key in required:
        if key not in args:
            raise InvalidArgumentError(f"{kind}: missing key {key!r}")
    for key in args:
        if key not in required and key not in optional:
            raise InvalidArgumentError(f"{kind}: unknown key {shown(key)}")
    names = _ARGUMENT.get(kind, {})
    return kind, {names.get(k, k): v for k, v in args.items()}
