"""Input checks shared by every entry point and pure stage: namespaces, content, limits, numbers.

Each function returns the cleaned value or raises ``InvalidInput`` with a message a user can act
on, naming the value it checked. They are pure and cheap, and run before any I/O so that bad
input never writes anything. ``check_text`` is the one text check of every surface (service,
CLI, files, GraphQL, SDK): besides blank and over-long text it refuses a lone surrogate (a
broken client's or an undecodable byte's trace, which no UTF-8 store can hold) and a C0 control
character other than tab, newline and carriage return (terminal escapes, NUL, form feed: noise
that corrupts display and search, never content). The number checks serve the pure stages,
whose inputs come from stored records and user settings: ``check_number`` refuses NaN, bools
and non-numbers (infinity passes: a dormant memory's stability is infinite), ``check_unit`` a
value outside [0, 1], ``check_count`` a negative or non-integer count, ``check_aware`` a naive
datetime.
"""

from __future__ import annotations

import math
import re
from datetime import datetime

from kgmem.errors import InvalidInput

NAMESPACE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")
MAX_CONTENT_CHARS = 8192
# What check_text refuses inside text: C0 controls but \t \n \r, and every surrogate code
# point (in a Python str a surrogate is always unpaired: a valid pair decodes to one character).
_BAD_CHAR_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")


def check_namespace(value: object) -> str:
    """A namespace is 1-64 characters of letters, digits, ``_ . -``, starting alphanumeric."""
    if not isinstance(value, str) or not NAMESPACE_RE.match(value):
        raise InvalidInput(
            f"namespace {value!r} is malformed: use 1-64 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit"
        )
    return value


def check_text(value: object, *, what: str = "text", limit: int = MAX_CONTENT_CHARS) -> str:
    """Text must be a non-blank string of at most ``limit`` characters; returns it stripped."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, got {type(value).__name__}")
    stripped = value.strip()
    if not stripped:
        raise InvalidInput(f"{what} is empty")
    if len(stripped) > limit:
        raise InvalidInput(f"{what} is {len(stripped)} characters; the limit is {limit}")
    bad = _BAD_CHAR_RE.search(stripped)
    if bad is not None:
        raise InvalidInput(_bad_char(what, bad.group(), bad.start()))
    return stripped


def _bad_char(what: str, char: str, at: int) -> str:
    code = f"U+{ord(char):04X}"
    if "\ud800" <= char <= "\udfff":
        return (
            f"{what} contains a lone surrogate ({code}) at character {at}: "
            "send valid Unicode (UTF-8)"
        )
    return (
        f"{what} contains the control character {code} at character {at}: "
        "only tab, newline and carriage return are allowed"
    )


def check_limit(value: object, *, low: int = 1, high: int = 100, what: str = "limit") -> int:
    """An integer in ``[low, high]``; bools are refused even though they are ints."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{what} must be an integer, got {type(value).__name__}")
    if not low <= value <= high:
        raise InvalidInput(f"{what} must be between {low} and {high}, got {value}")
    return value


def check_number(value: object, *, what: str, low: float = -math.inf) -> float:
    """A real number (not NaN, not a bool) at least ``low``, as a float; infinity passes."""
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise InvalidInput(f"{what} must be a number, got {value!r}")
    if value < low:
        raise InvalidInput(f"{what} must be at least {low}, got {value}")
    return float(value)


def check_unit(value: object, *, what: str) -> float:
    """A finite number in [0, 1] as a float; bools are refused."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInput(f"{what} must be a finite number in [0, 1], got {value!r}")
    if not 0.0 <= value <= 1.0:
        raise InvalidInput(f"{what} must be in [0, 1], got {value}")
    return float(value)


def check_count(value: object, *, what: str) -> int:
    """A non-negative integer; bools are refused."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidInput(f"{what} must be a non-negative integer, got {value!r}")
    return value


def check_aware(value: object, *, what: str) -> datetime:
    """A timezone-aware datetime, returned as it is."""
    # records.py promises timezone-aware UTC; naive and aware datetimes cannot be compared.
    if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
        raise InvalidInput(f"{what} must be a timezone-aware datetime, got {value!r}")
    return value
