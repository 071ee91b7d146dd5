"""The tables over relation types: which entity relation holds the other way round (the
reverse-edge inference), the only Neo4j relationship types code may use for memory-to-memory edges,
which of those are symmetric, which may be pruned first, and kgmem's fixed structural
types. No free text ever reaches Cypher as a type; pure data and one pure lookup.
"""

from __future__ import annotations

from kgmem.taxonomy import MemoryRelation, RelationType

_SYMMETRIC_RELATIONS = (
    RelationType.FRIEND_OF,
    RelationType.DATING,
    RelationType.MARRIED_TO,
    RelationType.SIBLING_OF,
    RelationType.KNOWS,
    RelationType.COLLABORATES_WITH,
    RelationType.COMPETITOR_OF,
    RelationType.PARTNER_OF,
    RelationType.COLLEAGUE_OF,
    RelationType.RELATED_TO,
)
_INVERSE_PAIRS = (
    (RelationType.PARENT_OF, RelationType.CHILD_OF),
    (RelationType.MANAGES, RelationType.REPORTS_TO),
    (RelationType.MENTORS, RelationType.MENTORED_BY),
)
# "bidirectional relationships infer reverse edges". A symmetric type is its own inverse;
# a directed type with a named converse maps to it. Types absent here (works_at, uses, ...) have no
# reverse edge to infer.
INVERSE: dict[RelationType, RelationType] = (
    {rt: rt for rt in _SYMMETRIC_RELATIONS}
    | {a: b for a, b in _INVERSE_PAIRS}
    | {b: a for a, b in _INVERSE_PAIRS}
)
SYMMETRIC_RELATIONS: frozenset[RelationType] = frozenset(_SYMMETRIC_RELATIONS)


def inverse_of(rt: RelationType) -> RelationType | None:
    """The relation that holds in the other direction, or None if nothing can be inferred."""
    return INVERSE.get(rt)


# The only relationship types code may interpolate into Cypher for memory-to-memory edges.
MEMORY_REL_TYPE: dict[MemoryRelation, str] = {rel: rel.value.upper() for rel in MemoryRelation}

# Edges that mean the same thing read either way; store one, match undirected.
SYMMETRIC_MEMORY_RELATIONS: frozenset[MemoryRelation] = frozenset(
    {
        MemoryRelation.CONTRADICTS,
        MemoryRelation.SAME_ENTITY,
        MemoryRelation.RELATED_TO,
        MemoryRelation.CO_ACTIVATED,
    }
)

# The pruning (at 1000 relations, trim to 900): lowest priority goes first; None = never
# pruned. kgmem never prunes supersedes/contradicts/causes; merged_into and depends_on are
# provenance and invalidation paths, so they are kept too. Co-activation is as loose as related_to.
MEMORY_REL_PRUNE_PRIORITY: dict[MemoryRelation, int | None] = {
    MemoryRelation.SUPERSEDES: None,
    MemoryRelation.CONTRADICTS: None,
    MemoryRelation.CAUSES: None,
    MemoryRelation.MERGED_INTO: None,
    MemoryRelation.DEPENDS_ON: None,
    MemoryRelation.ELABORATES: 2,
    MemoryRelation.SAME_ENTITY: 1,
    MemoryRelation.RELATED_TO: 0,
    MemoryRelation.CO_ACTIVATED: 0,
}

# kgmem's fixed, non-memory-to-memory relationship types (entity relations ride on RELATED).
# SUBTOPIC_OF nests a topic in its parent (the topic tree): (child:Topic)->(parent:Topic).
# DERIVED_FROM is provenance: a memory from its episodes, or a status snapshot from its notes.
STRUCTURAL_REL_TYPES: frozenset[str] = frozenset(
    {"DERIVED_FROM", "MENTIONS", "RELATED", "IN_BOX", "IN_TRACE", "IN_TOPIC", "SUBTOPIC_OF"}
)
