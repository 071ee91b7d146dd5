"""A recall request, validated: every option checked before any I/O.

``build_request`` turns a caller's query, namespace and options into a ``RecallRequest`` or raises
``InvalidInput`` naming the bad option (limit, profile, mode, categories, tiers, confidence floor,
``as_of``, channels, activation, unknown options; ``episode_hits`` says whether a matching turn
that no memory stands for may come back as an episode hit, on by default); the engine then
trusts every field. ``CHANNELS`` are the searches a request may name, ``ACTIVATIONS`` the ways
activation may spread. A request that names no channels has ``channels ==``: the engine
searches its intent's channels (the router, ``query.STRATEGIES``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from kgmem.core.time import as_utc
from kgmem.core.validation import check_limit, check_namespace, check_text
from kgmem.errors import InvalidInput
from kgmem.recall.profiles import get_mode, get_profile
from kgmem.taxonomy import Category, Tier
from kgmem.taxonomy.parsing import parse_enum

MAX_QUERY_CHARS = 2048
CHANNELS = ("vector", "fulltext", "episode", "claim", "entity", "activation")
ACTIVATIONS = ("spreading", "pagerank")


@dataclass(frozen=True)
class RecallRequest:
    query: str
    namespace: str
    limit: int = 10
    profile: str = "balanced"
    mode: str = "full_context"
    categories: frozenset[str] | None = None
    tiers: frozenset[str] | None = None
    min_confidence: float = 0.0
    as_of: datetime | None = None
    include_superseded: bool = False
    dry: bool = False
    channels: tuple[str, ...] = ()  # () = the intent's channels, resolved by the engine
    session_id: str | None = None
    activation: str = "spreading"  # spreading (Cypher, per query) | pagerank (GDS projection)
    episode_hits: bool = True  # a matching turn no memory stands for may come back itself


def build_request(query: object, namespace: object, **opts: Any) -> RecallRequest:
    """Validate every option before any I/O (typed errors for bad input)."""
    text = check_text(query, what="query", limit=MAX_QUERY_CHARS)
    ns = check_namespace(namespace)
    limit = check_limit(opts.pop("limit", 10), low=1, high=100)
    profile = get_profile(opts.pop("profile", None) or "balanced").name
    mode = get_mode(opts.pop("mode", None) or "full_context").name
    cats = opts.pop("categories", None)
    tiers = opts.pop("tiers", None)
    as_of = opts.pop("as_of", None)
    min_conf = opts.pop("min_confidence", 0.0)
    if (
        isinstance(min_conf, bool)
        or not isinstance(min_conf, int | float)
        or not 0 <= min_conf <= 1
    ):
        raise InvalidInput(f"min_confidence must be a number in [0, 1], got {min_conf!r}")
    channels = opts.pop("channels", None)
    if channels is None:
        channels = ()
    elif not isinstance(channels, list | tuple) or not all(isinstance(c, str) for c in channels):
        raise InvalidInput(f"channels must be a list of names from {list(CHANNELS)}")
    elif not channels or set(channels) - set(CHANNELS):
        raise InvalidInput(f"channels must be a non-empty subset of {list(CHANNELS)}")
    request = RecallRequest(
        query=text,
        namespace=ns,
        limit=limit,
        profile=profile,
        mode=mode,
        categories=frozenset(str(parse_enum(Category, c, "category")) for c in cats)
        if cats
        else None,
        tiers=frozenset(str(parse_enum(Tier, t, "tier")) for t in tiers) if tiers else None,
        min_confidence=float(min_conf),
        as_of=as_utc(as_of, "as_of") if as_of is not None else None,
        include_superseded=bool(opts.pop("include_superseded", False)),
        dry=bool(opts.pop("dry", False)),
        channels=tuple(dict.fromkeys(channels)),
        session_id=opts.pop("session_id", None),
        episode_hits=bool(opts.pop("episode_hits", True)),
    )
    activation = opts.pop("activation", None) or "spreading"
    if activation not in ACTIVATIONS:
        raise InvalidInput(f"activation must be one of {list(ACTIVATIONS)}, got {activation!r}")
    request = replace(request, activation=activation)
    if opts:
        raise InvalidInput(f"unknown recall options: {sorted(opts)}")
    return request
