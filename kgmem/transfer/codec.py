"""The property value codec: a Neo4j property value ↔ its JSON form, losslessly and typed.

Contract. Strings, integers, booleans, finite floats and lists of them are plain JSON; floats are
written with Python's shortest round-trip form, so embeddings come back bit for bit. Values JSON
has no type for are typed objects —
``{"$type": "datetime", "value": "2024-05-01T10:00:00.5+00:00"}``, and likewise
``localdatetime``, ``date``, ``time``, ``bytes`` (base64) and ``float`` (for nan and ±inf) — so
they come back as the same types. Temporal values keep microsecond precision, which is what kgmem
writes. Decoding raises ``InvalidInput`` naming ``where``; encoding a value no property can hold
raises ``KgmemError``. Pure.
"""

from __future__ import annotations

import base64
import math
from datetime import date, datetime, time
from typing import Any

from kgmem.errors import InvalidInput, KgmemError

_INT_RANGE = (-(2**63), 2**63 - 1)  # Neo4j integers are 64-bit


def encode_value(value: Any, where: str) -> Any:
    """A property value → its JSON form (typed objects for what JSON cannot say)."""
    if isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return {"$type": "float", "value": repr(value)}  # 'nan', 'inf', '-inf'
    if isinstance(value, datetime):  # before date: a datetime is a date
        kind = "localdatetime" if value.tzinfo is None else "datetime"
        return {"$type": kind, "value": value.isoformat()}
    if isinstance(value, date):
        return {"$type": "date", "value": value.isoformat()}
    if isinstance(value, time):
        return {"$type": "time", "value": value.isoformat()}
    if isinstance(value, bytes | bytearray):
        return {"$type": "bytes", "value": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, list | tuple):
        return [encode_value(v, where) for v in value]
    raise KgmemError(
        f"{where}: cannot export a {type(value).__name__} property value "
        "(supported: strings, numbers, booleans, temporal values, bytes and lists of them)"
    )


def decode_value(raw: Any, where: str) -> Any:
    """A JSON property value → the Python value to store; ``InvalidInput`` naming ``where``."""
    if isinstance(raw, list):
        items = [_decode_scalar(v, where) for v in raw]
        kinds = {_kind(v) for v in items}
        if kinds == {"int", "float"}:
            return [float(v) for v in items]  # a hand-edited vector may say 0 for 0.0
        if len(kinds) > 1:
            raise InvalidInput(
                f"{where}: a list property mixes {sorted(kinds)} (Neo4j lists hold one type)"
            )
        return items
    return _decode_scalar(raw, where)


def _decode_scalar(raw: Any, where: str) -> Any:
    if raw is None:
        raise InvalidInput(f"{where}: null is not a property value (leave the property out)")
    if isinstance(raw, bool | str | float):
        return raw
    if isinstance(raw, int):
        if not _INT_RANGE[0] <= raw <= _INT_RANGE[1]:
            raise InvalidInput(f"{where}: integer {raw} does not fit in 64 bits")
        return raw
    if isinstance(raw, list):
        raise InvalidInput(f"{where}: lists cannot be nested in a property value")
    if (
        not isinstance(raw, dict)
        or set(raw) != {"$type", "value"}
        or not isinstance(raw["value"], str)
    ):
        raise InvalidInput(
            f"{where}: a property value must be a JSON scalar, a list, or "
            '{"$type": ..., "value": "..."}'
        )
    kind, text = raw["$type"], raw["value"]
    try:
        if kind == "datetime":
            value = datetime.fromisoformat(text)
            if value.tzinfo is None:
                raise ValueError("a datetime needs a UTC offset (use localdatetime otherwise)")
            return value
        if kind == "localdatetime":
            value = datetime.fromisoformat(text)
            if value.tzinfo is not None:
                raise ValueError("a localdatetime has no UTC offset")
            return value
        if kind == "date":
            return date.fromisoformat(text)
        if kind == "time":
            return time.fromisoformat(text)
        if kind == "bytes":
            return base64.b64decode(text, validate=True)
        if kind == "float":
            number = float(text)
            if math.isfinite(number):
                raise ValueError("finite floats are plain JSON numbers")
            return number
    except ValueError as exc:
        raise InvalidInput(f"{where}: bad {kind} value {text!r} ({exc})") from None
    raise InvalidInput(
        f"{where}: unknown value type {kind!r} (datetime, localdatetime, date, time, bytes, float)"
    )


def _kind(value: Any) -> str:
    if isinstance(value, datetime):
        return "localdatetime" if value.tzinfo is None else "datetime"
    return type(value).__name__


def encode_props(props: dict[str, Any], where: str) -> dict[str, Any]:
    return {k: encode_value(props[k], f"{where}, property {k!r}") for k in sorted(props)}


def decode_props(raw: Any, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InvalidInput(f"{where}: 'props' must be a JSON object")
    return {str(k): decode_value(v, f"{where}, property {k!r}") for k, v in raw.items()}
