"""Entity resolution: decide, for each entity mention, which existing ``:Entity`` it names.

Pure. The orchestrator fetches candidates (by normalised name, alias, first token, fuzzy
fulltext, and entity-embedding neighbours) and this module decides, in a fixed order of
evidence: exact normalised name → known alias → organisation core name (suffixes such as
"Inc." or "Corporation" dropped) → a person's unique first name → fuzzy string match → embedding
similarity → a new entity. Each resolution says how it was made (``resolved_by``) and keeps the
surface form, so a wrong merge can be found and undone. Mentions resolved earlier in the same
batch are candidates for later ones, so one batch never creates two entities for one name.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from kgmem.core.text import first_token, normalize_name
from kgmem.records import EntityMention

FUZZY_MIN_RATIO = 0.88  # "Jon Smith" ~ "John Smith" (0.95); "Ana" vs "Anna" is left to aliases
EMBEDDING_MIN_SCORE = 0.93
_ORG_SUFFIX_RE = re.compile(
    r"\s+(inc|incorporated|corp|corporation|co|company|ltd|limited|llc|plc|gmbh|ag|sa|group)$"
)


@dataclass(frozen=True)
class KnownEntity:
    id: str
    name: str
    normalized_name: str
    type: str
    aliases_norm: tuple[str, ...] = ()

    @property
    def first_token(self) -> str:
        return first_token(self.normalized_name)


@dataclass(frozen=True)
class Resolution:
    """A mention's entity: existing (``is_new`` False) or to be created with ``entity_id``."""

    surface: str
    normalized_name: str
    entity_id: str
    name: str
    type: str
    resolved_by: str  # new | exact | alias | org_core | first_name | fuzzy | embedding
    is_new: bool


def org_core(normalized: str) -> str:
    previous = None
    core = normalized
    while previous != core:
        previous = core
        core = _ORG_SUFFIX_RE.sub("", core)
    return core


def _compatible(a: str, b: str) -> bool:
    # spaCy's labels are noisy between org/product/other, but a person is never a place.
    loose = {"organization", "product", "other", "concept", "event"}
    return a == b or (a in loose and b in loose)


def _match(
    norm: str, etype: str, known: Sequence[KnownEntity], vectors: Sequence[tuple[str, float]]
) -> tuple[KnownEntity, str] | None:
    for k in known:
        if k.normalized_name == norm:
            return k, "exact"
    for k in known:
        if norm in k.aliases_norm:
            return k, "alias"
    if etype != "person":
        core = org_core(norm)
        for k in known:
            if core and _compatible(etype, k.type) and org_core(k.normalized_name) == core:
                return k, "org_core"
    if etype == "person":
        tok = first_token(norm)
        people = [k for k in known if k.type == "person"]
        if " " not in norm:
            same = [k for k in people if k.first_token == norm]
            if len(same) == 1:
                return same[0], "first_name"
        else:
            single = [k for k in people if k.normalized_name == tok]
            if len(single) == 1:
                return single[0], "first_name"
    best: tuple[float, KnownEntity] | None = None
    for k in known:
        if not _compatible(etype, k.type) or min(len(norm), len(k.normalized_name)) < 4:
            continue
        ratio = difflib.SequenceMatcher(None, norm, k.normalized_name).ratio()
        if ratio >= FUZZY_MIN_RATIO and (best is None or (ratio, k.id) > (best[0], best[1].id)):
            best = (ratio, k)
    if best is not None:
        return best[1], "fuzzy"
    by_id = {k.id: k for k in known}
    for entity_id, score in sorted(vectors, key=lambda v: (-v[1], v[0])):
        k_match = by_id.get(entity_id)
        if k_match is not None and score >= EMBEDDING_MIN_SCORE and k_match.type == etype:
            return k_match, "embedding"
    return None


def resolve_mentions(
    mentions: Sequence[EntityMention],
    known: Sequence[KnownEntity],
    new_id: Callable[[], str],
    vectors: dict[str, Sequence[tuple[str, float]]] | None = None,
) -> list[Resolution]:
    """One resolution per distinct normalised mention, in first-seen order."""
    pool = list(known)
    out: dict[str, Resolution] = {}
    for mention in mentions:
        norm = normalize_name(mention.name)
        if not norm or norm in out:
            continue
        hit = _match(norm, mention.type, pool, (vectors or {}).get(norm, ()))
        if hit is not None:
            entity, how = hit
            out[norm] = Resolution(
                mention.name, norm, entity.id, entity.name, entity.type, how, is_new=False
            )
            if norm not in entity.aliases_norm and norm != entity.normalized_name:
                pool[pool.index(entity)] = replace(
                    entity, aliases_norm=(*entity.aliases_norm, norm)
                )
            continue
        res = Resolution(
            mention.name, norm, new_id(), mention.name, mention.type, "new", is_new=True
        )
        out[norm] = res
        pool.append(KnownEntity(res.entity_id, res.name, norm, res.type, (norm,)))
    return list(out.values())
