"""Where every seed's vocabulary landed: each seed's own lists in the seed's order and
:data:`SEED_VOCABULARY_MAP` from (seed, term) to the kgmem member(s) it denotes, so a seed term is
never guessed. Pure data; :mod:`kgmem.taxonomy.parsing` reads it for seed aliases and ``from_seed``.
"""

from __future__ import annotations

from enum import StrEnum

from kgmem.taxonomy import (
    Category,
    ConflictStrategy,
    EntityType,
    Kind,
    LifecycleState,
    MemoryRelation,
    MemoryType,
    PolicyClass,
    RelationType,
    Status,
    Tier,
    VerificationState,
)

# Each seed's own list, in the seed's order (for extraction prompts and the vocabulary map).
SEED_000_CATEGORIES: tuple[Category, ...] = (
    Category.FACT, Category.PREFERENCE, Category.CORRECTION, Category.ENTITY, Category.DECISION,
    Category.RELATIONSHIP, Category.PRINCIPLE, Category.COMMITMENT, Category.MOMENT, Category.SKILL,
)  # fmt: skip
SEED_003_CATEGORIES: tuple[Category, ...] = (
    Category.IDENTITY, Category.PREFERENCE, Category.RELATIONSHIP, Category.EVENT,
    Category.ACTIVITY, Category.GOAL, Category.CONTEXT, Category.EPHEMERAL,
)  # fmt: skip


# Members added by kgmem, not in the list of twenty.
_KGMEM_ONLY_RELATIONS = frozenset(
    {
        RelationType.COLLEAGUE_OF,
        RelationType.LOCATED_IN,
        RelationType.MENTORED_BY,
        RelationType.RELATED_TO,
    }
)


SEED_004_MEMORY_RELATIONS: tuple[MemoryRelation, ...] = (
    MemoryRelation.SUPERSEDES, MemoryRelation.CONTRADICTS, MemoryRelation.CAUSES,
    MemoryRelation.ELABORATES, MemoryRelation.SAME_ENTITY, MemoryRelation.RELATED_TO,
)  # fmt: skip


SEEDS: tuple[str, ...] = ("000", "001", "002", "003", "004")

# (seed, term as the seed spells it, lowercased) -> the kgmem member(s) it denotes, one per
# vocabulary the term belongs to in that seed (e.g. 003's "event" is a memory type and an entity
# type). Use from_seed() to pick the member of one vocabulary.
_SeedMap = dict[tuple[str, str], tuple[StrEnum, ...]]


def _verbatim(seed: str, *members: StrEnum) -> _SeedMap:
    """Entries for terms a seed spells and means exactly as kgmem does."""
    return {(seed, member.value): (member,) for member in members}


SEED_VOCABULARY_MAP: _SeedMap = {
    # extraction categories, memoryKind, status, lifecycle/verification/policy metadata
    **_verbatim("000", *SEED_000_CATEGORIES, *Kind, *VerificationState, *PolicyClass),
    **_verbatim("000", Status.SUPERSEDED, LifecycleState.CANDIDATE, LifecycleState.VALIDATED),
    **_verbatim("000", LifecycleState.STALE),  # a lifecycleState only has no stale status
    ("000", "active"): (Status.ACTIVE, LifecycleState.ACTIVE),
    ("000", "archived"): (Status.ARCHIVED, LifecycleState.ARCHIVED),
    ("000", "event"): (Category.EVENT,),  # kind-rule examples: "event, action, moment -> episode"
    ("000", "action"): (Category.ACTIVITY,),
    ("000", "hot"): (Tier.EPISODIC,),  # the live index every new memory enters
    ("000", "cold"): (Tier.DORMANT,),  # demoted, promotable back
    # layers, memory types, statuses
    **_verbatim("001", Tier.WORKING, Tier.EPISODIC, Tier.SEMANTIC, *MemoryType),
    **_verbatim("001", Status.ACTIVE, Status.CHALLENGED, Status.INVALIDATED, Status.MERGED),
    **_verbatim("001", Status.SUPERSEDED),
    ("001", "procedural"): (Tier.SEMANTIC, MemoryType.PROCEDURE),  # permanent how-to knowledge
    ("001", "codebase"): (Tier.SEMANTIC, MemoryType.FACT),  # permanent code knowledge
    # layers, kinds, the Core gate's whitelist
    ("002", "buffer"): (Tier.EPISODIC,),  # intake: decays, evictable
    ("002", "working"): (Tier.SEMANTIC,),  # promoted by consolidation, never deleted
    ("002", "core"): (Tier.CORE,),
    ("002", "semantic"): (MemoryType.FACT, Kind.NOTE),
    ("002", "episodic"): (MemoryType.NARRATIVE, Kind.EPISODE),
    ("002", "procedural"): (MemoryType.PROCEDURE, Kind.NOTE),
    ("002", "lesson"): (Category.PRINCIPLE,),
    ("002", "identity"): (Category.IDENTITY,),
    ("002", "constraint"): (Category.PRINCIPLE,),
    ("002", "decision_rationale"): (Category.DECISION,),
    # memory types, states, entity types, relation types, conflict strategies
    **_verbatim("003", *(c for c in SEED_003_CATEGORIES if c is not Category.EVENT)),
    **_verbatim("003", Status.ACTIVE, Status.STALE, Status.ARCHIVED, Status.DELETED),
    **_verbatim("003", *(e for e in EntityType if e is not EntityType.EVENT), *ConflictStrategy),
    **_verbatim("003", *(rt for rt in RelationType if rt not in _KGMEM_ONLY_RELATIONS)),
    ("003", "plan"): (Category.GOAL,),
    ("003", "event"): (Category.EVENT, EntityType.EVENT),
    # tiers, memory relations, formation categories, hot-tier state
    **_verbatim("004", Tier.WORKING, Tier.EPISODIC, Tier.SEMANTIC, Tier.DORMANT),
    **_verbatim("004", *SEED_004_MEMORY_RELATIONS, Status.ACTIVE, Status.SUPERSEDED),
    **_verbatim("004", Category.PREFERENCE, Category.FACT, Category.DECISION, Category.CORRECTION),
    **_verbatim("004", Category.ENTITY),
    ("004", "plan"): (Category.GOAL,),
}
