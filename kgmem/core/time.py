"""Timestamps as kgmem stores them: aware UTC datetimes.

Contract: :func:`as_utc` turns a datetime (naive is read as UTC) or an ISO-8601 string into an
aware UTC datetime and raises ``InvalidInput`` for anything else. Pure, no clock.
"""

from __future__ import annotations

from datetime import UTC, datetime

from kgmem.errors import InvalidInput


def as_utc(value: object, what: str = "at") -> datetime:
    """An aware UTC datetime from a datetime (naive = UTC) or an ISO-8601 string."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise InvalidInput(f"{what} is not an ISO-8601 timestamp: {value!r}") from None
    if not isinstance(value, datetime):
        raise InvalidInput(f"{what} must be a datetime or ISO-8601 string, got {value!r}")
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
