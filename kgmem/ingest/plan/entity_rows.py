"""The entity rows of a write plan: entities, mentions and typed entity relations.

``plan_entities(plan, candidates, resolutions)`` adds to ``plan``, for every candidate that got a
memory (created, reinforced or updated), each resolved entity once per write (new entities keep
the surface form, known ones their stored name), one mention per memory and entity, and each
extracted relation whose two ends resolved to different entities, with the inferred reverse
edge for bidirectional relation types. Relations whose ends did not resolve are
dropped. Pure; appends to the plan, reads nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence

from kgmem.core.text import normalize_name
from kgmem.core.tunables import REINFORCE_DELTA
from kgmem.ingest.link.entities import Resolution
from kgmem.ingest.plan.records import Candidate, WritePlan
from kgmem.taxonomy import RelationType
from kgmem.taxonomy.parsing import parse_enum
from kgmem.taxonomy.relation_tables import inverse_of


def plan_entities(
    plan: WritePlan, candidates: Sequence[Candidate], resolutions: dict[int, list[Resolution]]
) -> None:
    seen_entities: set[tuple[str, str]] = set()
    for c in candidates:
        memory_id = plan.memory_ids.get(c.key)
        if memory_id is None:
            continue
        by_norm: dict[str, Resolution] = {}
        for r in resolutions.get(c.key, []):
            by_norm[r.normalized_name] = r
            if (r.entity_id, r.normalized_name) not in seen_entities:
                seen_entities.add((r.entity_id, r.normalized_name))
                plan.entities.append(
                    {
                        "id": r.entity_id,
                        "name": r.surface if r.is_new else r.name,
                        "normalized_name": r.normalized_name,
                        "type": r.type,
                        "first_token": r.normalized_name.split(" ", 1)[0],
                        "at": c.at,
                        "embedding": None,
                        "is_new": r.is_new,  # the write lock checks no one stored it meanwhile
                    }
                )
            plan.mentions.append(
                {
                    "memory_id": memory_id,
                    "entity_id": r.entity_id,
                    "confidence": c.fact.confidence,
                    "at": c.at,
                    "surface": r.surface,
                    "resolved_by": r.resolved_by,
                }
            )
        for rel in c.fact.relations:
            src = by_norm.get(normalize_name(rel.source))
            dst = by_norm.get(normalize_name(rel.target))
            if src is None or dst is None or src.entity_id == dst.entity_id:
                continue
            rtype = parse_enum(RelationType, rel.type, "relation type")
            base = {
                "confidence": rel.confidence,
                "at": c.at,
                "delta": REINFORCE_DELTA,
                "memory_id": memory_id,
            }
            plan.relations.append(
                {
                    **base,
                    "source_id": src.entity_id,
                    "target_id": dst.entity_id,
                    "type": str(rtype),
                    "inferred": False,
                }
            )
            inverse = inverse_of(rtype)
            if inverse is not None:  # bidirectional types infer their reverse edge
                plan.relations.append(
                    {
                        **base,
                        "source_id": dst.entity_id,
                        "target_id": src.entity_id,
                        "type": str(inverse),
                        "inferred": True,
                    }
                )
