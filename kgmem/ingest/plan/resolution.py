"""Entity resolution for a batch against the graph: the stored entities a batch's mentions may
name (exact name, first token, fuzzy full-text, and name-embedding kNN), resolved in one pass by
``entities.resolve_mentions`` so the whole batch agrees on each name.

``resolve_entities`` reads the graph only; it returns, per candidate key, the resolved entities
(known or new, with fresh ids) in mention order, for the write plan.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from kgmem.core.text import escape_term, normalize_name
from kgmem.graph import repository
from kgmem.ingest.ingestor import Ingestor
from kgmem.ingest.link.entities import KnownEntity, resolve_mentions
from kgmem.ingest.plan.records import Candidate


async def resolve_entities(
    ing: Ingestor, ns: str, candidates: Sequence[Candidate], name_vecs: dict[str, list[float]]
) -> dict[int, list[Any]]:
    mentions = [m for c in candidates for m in c.fact.entities]
    names = sorted({normalize_name(m.name) for m in mentions} - {""})
    if not names:
        return {}
    rows = await repository.find_entity_candidates(
        ing.graph,
        namespace=ns,
        names=names,
        tokens=sorted({n.split(" ")[0] for n in names}),
        fuzzy=[_fuzzy(n) for n in names if len(n) >= 5],
    )
    vec_rows = await repository.search_entity_vector(
        ing.graph,
        namespace=ns,
        k=3,
        items=[{"key": n, "embedding": name_vecs[n]} for n in names if n in name_vecs],
    )
    known: dict[str, KnownEntity] = {}
    vectors: dict[str, Sequence[tuple[str, float]]] = {}
    for r in [*rows, *vec_rows]:
        e = r["entity"]
        known[e["id"]] = KnownEntity(
            e["id"], e["name"], e["normalized_name"], e["type"], tuple(e.get("aliases_norm") or ())
        )
        if "score" in r:
            vectors[r["key"]] = [*vectors.get(r["key"], ()), (e["id"], float(r["score"]))]
    ordered = sorted(known.values(), key=lambda k: k.id)
    out: dict[int, list[Any]] = {}
    # One resolution pass over the whole batch keeps it consistent across candidates.
    resolved = {
        r.normalized_name: r
        for r in resolve_mentions(mentions, ordered, lambda: str(uuid.uuid4()), vectors)
    }
    for c in candidates:
        out[c.key] = [
            resolved[n]
            for n in dict.fromkeys(normalize_name(m.name) for m in c.fact.entities)
            if n in resolved
        ]
    return out


def _fuzzy(name: str) -> str:
    return " AND ".join(f"{escape_term(t)}~1" for t in name.split() if t)
