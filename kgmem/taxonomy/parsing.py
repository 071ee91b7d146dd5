"""Outside text to a vocabulary member: :func:`parse_enum` forgives case, space and ``-``/``_`` and
accepts a seed's own term for a member, and raises :class:`~kgmem.errors.InvalidInput` listing the
allowed values otherwise; :func:`from_seed` picks the member a given seed's term maps onto. Pure,
with a small cache of parsed texts.
"""

from __future__ import annotations

import functools
import re
from enum import StrEnum
from typing import TypeVar

from kgmem.errors import InvalidInput
from kgmem.taxonomy.seed_vocabulary import SEED_VOCABULARY_MAP

_E = TypeVar("_E", bound=StrEnum)


def from_seed(seed: str, term: str, enum_cls: type[_E]) -> _E:
    """The ``enum_cls`` member that seed ``seed``'s term ``term`` maps onto."""
    for member in SEED_VOCABULARY_MAP.get((seed, term.strip().lower()), ()):
        if isinstance(member, enum_cls):
            return member
    raise InvalidInput(f"seed {seed} has no term {term!r} in kgmem's {enum_cls.__name__}")


def _build_aliases() -> dict[type[StrEnum], dict[str, StrEnum]]:
    """Seed terms that name exactly one member of a vocabulary and are not member values."""
    candidates: dict[type[StrEnum], dict[str, set[StrEnum]]] = {}
    for (_seed, term), members in SEED_VOCABULARY_MAP.items():
        for member in members:
            candidates.setdefault(type(member), {}).setdefault(term, set()).add(member)
    return {
        cls: {
            term: next(iter(found))
            for term, found in terms.items()
            if len(found) == 1 and term not in {member.value for member in cls}
        }
        for cls, terms in candidates.items()
    }


# e.g. Category: "plan" -> goal, "lesson" -> principle; Tier: "buffer" -> episodic. A term that
# two seeds map differently (002's "working" is semantic, 001's is working) is not an alias.
_ALIASES = _build_aliases()


def parse_enum(enum_cls: type[_E], value: object, what: str, *, aliases: bool = True) -> _E:
    """Turn outside input into a member of ``enum_cls`` or raise InvalidInput listing the values.

    Case, surrounding space and ``-``/space vs ``_`` are forgiven; with ``aliases`` a seed's own
    term for a member (see SEED_VOCABULARY_MAP) is accepted too. ``what`` names the field.
    """
    if isinstance(value, enum_cls):
        return value
    if isinstance(value, str):
        member: _E | None = _parse_text(enum_cls, value, aliases)
        if member is not None:
            return member
    allowed = ", ".join(member.value for member in enum_cls)
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, one of: {allowed}")
    raise InvalidInput(f"unknown {what} {value!r}; expected one of: {allowed}")


# Recall parses each candidate's category and tier a few times per request (stability, scoring);
# the vocabularies are fixed, so a text's member is remembered instead of re-normalised.
@functools.lru_cache(maxsize=4096)
def _parse_text(enum_cls: type[_E], value: str, aliases: bool) -> _E | None:
    key = re.sub(r"[\s\-]+", "_", value.strip().lower())
    try:
        return enum_cls(key)
    except ValueError:
        pass
    member = _ALIASES.get(enum_cls, {}).get(key) if aliases else None
    return member if isinstance(member, enum_cls) else None
