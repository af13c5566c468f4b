"""The event log of a :class:`~mjfast.settlement.Round` as JSON: what ``Round.to_json`` writes
and ``Round.from_json`` replays.

A log is ``{"format": "mjfast.round", "version": 1, "rules": ..., "players": n, "dealer": d,
"events": [...]}``; ``rules`` is a :func:`mjfast.rules.rules_to_json` document and each event
holds the arguments of the ledger method it replays (``kong``, ``win`` or ``draw``). Every
problem with a log raises :class:`~mjfast.errors.InvalidArgumentError` (a ``ValueError``) whose
message names the field: ``from_json: events[3]: win: missing key 'hands'``.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterable, Mapping
from contextlib import contextmanager
from typing import Any, NamedTuple

from mjfast.errors import InvalidArgumentError
from mjfast.rules import Rules, rules_from_json, rules_to_json

__all__ = ["FORMAT", "VERSION", "Log", "event_args", "log_field", "read_log", "write_log"]

FORMAT = "mjfast.round"
VERSION = 1

_FLAGS = ("robbing_kong", "after_kong", "after_kong_discard", "last_tile", "tian_hu", "di_hu")
# Event type -> (required keys, optional keys): the arguments of the ledger method it replays.
_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "kong": (("player", "tile", "kind"), ("from_player",)),
    "win": (("players", "tile", "hands"), ("from_player", "melds", "void_suit", *_FLAGS)),
    "draw": (("players",), ()),
}
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
    """The JSON text of a log (tiles in mpsz, Chinese kept as is)."""
    doc = {"format": FORMAT, "version": VERSION, "rules": rules_to_json(rules),
           "players": players, "dealer": dealer, "events": list(events)}
    return json.dumps(doc, ensure_ascii=False, **dumps_kwargs)


def read_log(text: str | bytes | Mapping[str, Any]) -> Log:
    """The parts of a log, for the ledger to replay (JSON text or the parsed document)."""
    try:
        doc = json.loads(text) if isinstance(text, (str, bytes, bytearray)) else text
    except (ValueError, RecursionError) as exc:
        raise InvalidArgumentError(f"from_json: invalid JSON: {exc}") from None
    if not isinstance(doc, Mapping) or doc.get("format") != FORMAT:
        raise InvalidArgumentError("from_json: not an mjfast round log")
    if doc.get("version") != VERSION:
        raise InvalidArgumentError(f"from_json: unsupported version {doc.get('version')!r}")
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
        raise InvalidArgumentError(f"unknown event type {kind!r}")
    required, optional = _KEYS[kind]
    args = {k: v for k, v in event.items() if k != "type"}
    for key in required:
        if key not in args:
            raise InvalidArgumentError(f"{kind}: missing key {key!r}")
    for key in args:
        if key not in required and key not in optional:
            raise InvalidArgumentError(f"{kind}: unknown key {key!r}")
    return kind, args
