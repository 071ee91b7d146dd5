"""Recall options, typed: what a caller may ask of a recall beyond the query and the namespace.

Contract. ``RecallOptions`` is a frozen record whose choices are enums (``ProfileName``,
``ModeName``, ``Channel``, ``Activation``: ``StrEnum``s, so they compare and serialise as the
strings the interfaces accept). ``RecallOptions.parse`` is the one place outside input becomes a
record: it takes the keyword options every interface speaks (``RecallChoices``; GraphQL, MCP, the
CLI and the SDK pass strings), forgives case, ``-`` and spaces in names, and raises
``InvalidOption`` naming the bad option before anything runs; ``options_of`` picks a call's record
(given, or parsed from its keywords). Past ``parse`` nothing re-checks: the
engine trusts every field. ``channels == ()`` means the intent's channels (the router, resolved by
the engine); ``episode_hits`` says whether a matching turn no memory stands for may come back as an
episode hit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TypedDict, TypeVar

from kgmem.core.time import as_utc
from kgmem.core.validation import check_limit
from kgmem.errors import InvalidInput, InvalidOption
from kgmem.taxonomy import Category, Tier
from kgmem.taxonomy.parsing import parse_enum


class ProfileName(StrEnum):
    """The ranking profiles (``recall.profiles.PROFILES`` holds one per name)."""

    BALANCED = "balanced"
    RECENT = "recent"
    IMPORTANT = "important"
    DEEP = "deep"
    BROAD = "broad"
    PRECISE = "precise"


class ModeName(StrEnum):
    """The recall modes: which memory types a recall includes (``recall.profiles.MODES``)."""

    FACTS_ONLY = "facts_only"
    FACTS_PLUS_RULES = "facts_plus_rules"
    FULL_CONTEXT = "full_context"


class Channel(StrEnum):
    """The searches a recall may run."""

    VECTOR = "vector"
    FULLTEXT = "fulltext"
    EPISODE = "episode"
    CLAIM = "claim"
    PERIOD = "period"
    ENTITY = "entity"
    ACTIVATION = "activation"


class Activation(StrEnum):
    """How activation spreads from the first hits: Cypher per query, or GDS PageRank on the
    namespace's maintained projection."""

    SPREADING = "spreading"
    PAGERANK = "pagerank"


class RecallChoices(TypedDict, total=False):
    """The keyword options of a recall as callers send them (names or enum members)."""

    limit: int
    profile: str | None
    mode: str | None
    categories: Iterable[str] | None
    tiers: Iterable[str] | None
    min_confidence: float
    as_of: datetime | str | None
    include_superseded: bool
    dry: bool
    channels: Sequence[str] | None
    session_id: str | None
    activation: str | None
    episode_hits: bool


_E = TypeVar("_E", bound=StrEnum)


def _choose(enum_cls: type[_E], value: object, option: str, what: str) -> _E:
    try:
        return parse_enum(enum_cls, value, what, aliases=False)
    except InvalidInput as exc:
        raise InvalidOption(option, exc.message, tuple(enum_cls)) from None


@dataclass(frozen=True, kw_only=True)
class RecallOptions:
    limit: int = 10
    profile: ProfileName = ProfileName.BALANCED
    mode: ModeName = ModeName.FULL_CONTEXT
    categories: frozenset[Category] | None = None
    tiers: frozenset[Tier] | None = None
    min_confidence: float = 0.0
    as_of: datetime | None = None
    include_superseded: bool = False
    dry: bool = False
    channels: tuple[Channel, ...] = ()  # () = the intent's channels, resolved by the engine
    session_id: str | None = None
    activation: Activation = Activation.SPREADING
    episode_hits: bool = True  # a matching turn no memory stands for may come back itself

    @classmethod
    def parse(cls, **choices: object) -> RecallOptions:
        """The record for ``choices`` (see ``RecallChoices``); ``InvalidOption`` names the first
        bad one, unknown option names included."""
        unknown = set(choices) - set(RecallChoices.__annotations__)
        if unknown:
            raise InvalidOption("options", f"unknown recall options: {sorted(unknown)}")
        return _parse(**choices)


def options_of(options: RecallOptions | None, choices: RecallChoices) -> RecallOptions:
    """The record a call asked for: the one it gave, or its keyword options parsed; both at
    once is an error (which should win would be a guess)."""
    if options is None:
        return RecallOptions.parse(**choices)
    if choices:
        raise InvalidOption(
            "options",
            "give recall options as a RecallOptions record or as keywords, not both: "
            f"{sorted(choices)}",
        )
    return options


def _parse(
    *,
    limit: object = 10,
    profile: object = None,
    mode: object = None,
    categories: object = None,
    tiers: object = None,
    min_confidence: object = 0.0,
    as_of: object = None,
    include_superseded: object = False,
    dry: object = False,
    channels: object = None,
    session_id: object = None,
    activation: object = None,
    episode_hits: object = True,
) -> RecallOptions:
    try:
        count = check_limit(limit, low=1, high=100)
    except InvalidInput as exc:
        raise InvalidOption("limit", exc.message) from None
    if (
        isinstance(min_confidence, bool)
        or not isinstance(min_confidence, int | float)
        or not 0 <= min_confidence <= 1
    ):
        raise InvalidOption(
            "min_confidence", f"min_confidence must be a number in [0, 1], got {min_confidence!r}"
        )
    return RecallOptions(
        limit=count,
        profile=_choose(ProfileName, profile or "balanced", "profile", "ranking profile"),
        mode=_choose(ModeName, mode or "full_context", "mode", "recall mode"),
        categories=_members(Category, categories, "categories", "category"),
        tiers=_members(Tier, tiers, "tiers", "tier"),
        min_confidence=float(min_confidence),
        as_of=_instant(as_of),
        include_superseded=bool(include_superseded),
        dry=bool(dry),
        channels=_channels(channels),
        session_id=None if session_id is None else str(session_id),
        activation=_choose(Activation, activation or "spreading", "activation", "activation"),
        episode_hits=bool(episode_hits),
    )


def _members(enum_cls: type[_E], values: object, option: str, what: str) -> frozenset[_E] | None:
    if not values:  # None or empty: no filter
        return None
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise InvalidOption(option, f"{option} must be a list of names", tuple(enum_cls))
    try:
        return frozenset(parse_enum(enum_cls, v, what) for v in values)
    except InvalidInput as exc:
        raise InvalidOption(option, exc.message, tuple(enum_cls)) from None


def _instant(value: object) -> datetime | None:
    if value is None:
        return None
    try:
        return as_utc(value, "as_of")
    except InvalidInput as exc:
        raise InvalidOption("as_of", exc.message) from None


def _channels(value: object) -> tuple[Channel, ...]:
    if value is None:
        return ()
    allowed = [str(c) for c in Channel]
    if not isinstance(value, list | tuple) or not all(isinstance(c, str) for c in value):
        raise InvalidOption("channels", f"channels must be a list of names from {allowed}")
    if not value or set(value) - set(allowed):
        raise InvalidOption("channels", f"channels must be a non-empty subset of {allowed}")
    return tuple(Channel(c) for c in dict.fromkeys(value))
