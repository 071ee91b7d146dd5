"""kgmem's closed vocabularies and the per-value tables that go with them.

Every category, kind, type, tier, status, policy value, entity type, relation type and conflict
strategy that kgmem stores or accepts is a member of one of the ``StrEnum``s below; a string from
outside (user input, LLM output) becomes one only through :func:`parse_enum`, which raises
:class:`~kgmem.errors.InvalidInput` naming the allowed values. The Neo4j relationship types for
memory-to-memory edges come only from :data:`MEMORY_REL_TYPE`, so no free text ever reaches
Cypher as a type. The tables unify the five seed documents (``seeds/`` beside DESIGN.md: 000
Engram-TS, 001 engram-py, 002 engram-rs, 003 the Go/SQLite engine, 004 Cognitive Memory v9); each
table cites its seed, and :data:`SEED_VOCABULARY_MAP` says where every seed term landed. Pure data
and pure functions: no I/O, nothing happens at import beyond building these constants. Seed 000's
rules that classify a memory's kind from its text live in :mod:`kgmem.memory_kind`.
"""

from __future__ import annotations

import functools
import math
import re
from enum import StrEnum
from typing import TypeVar

from kgmem.errors import InvalidInput

_E = TypeVar("_E", bound=StrEnum)


# --- Categories ------------------------------------------------------------------------------


class Category(StrEnum):
    """What a memory is about: seed 000's ten extraction categories + seed 003's eight types."""

    # seed 000
    FACT = "fact"
    PREFERENCE = "preference"  # also seed 003
    CORRECTION = "correction"
    ENTITY = "entity"
    DECISION = "decision"
    RELATIONSHIP = "relationship"  # also seed 003
    PRINCIPLE = "principle"
    COMMITMENT = "commitment"
    MOMENT = "moment"
    SKILL = "skill"
    # seed 003 (preference and relationship are above)
    IDENTITY = "identity"
    EVENT = "event"
    ACTIVITY = "activity"
    GOAL = "goal"  # seed 003's code and site call it PLAN
    CONTEXT = "context"
    EPHEMERAL = "ephemeral"


# Each seed's own list, in the seed's order (for extraction prompts and the vocabulary map).
SEED_000_CATEGORIES: tuple[Category, ...] = (
    Category.FACT, Category.PREFERENCE, Category.CORRECTION, Category.ENTITY, Category.DECISION,
    Category.RELATIONSHIP, Category.PRINCIPLE, Category.COMMITMENT, Category.MOMENT, Category.SKILL,
)  # fmt: skip
SEED_003_CATEGORIES: tuple[Category, ...] = (
    Category.IDENTITY, Category.PREFERENCE, Category.RELATIONSHIP, Category.EVENT,
    Category.ACTIVITY, Category.GOAL, Category.CONTEXT, Category.EPHEMERAL,
)  # fmt: skip

# Days of base stability S in seed 003's retention(t) = exp(-t / S_eff),
# S_eff = S * (1 + ln(1 + access_count) * 0.5).
BASE_STABILITY_DAYS: dict[Category, float] = {
    # seed 003, verbatim
    Category.IDENTITY: 365.0,
    Category.PREFERENCE: 270.0,
    Category.RELATIONSHIP: 270.0,
    Category.EVENT: 120.0,
    Category.ACTIVITY: 90.0,
    Category.GOAL: 60.0,
    Category.CONTEXT: 21.0,
    Category.EPHEMERAL: 3.0,
    # seed-000-only categories, placed on seed 003's scale:
    # a correction must outlive whatever it corrects, identity facts included (seed 004: no decay).
    Category.CORRECTION: 365.0,
    # seed 004 puts entities in the no-decay class with preferences, so they get preference's value.
    Category.ENTITY: 270.0,
    # seed 004 decays facts by 0.005/day; an e-folding time of 1/0.005 days.
    Category.FACT: 200.0,
    # seeds 000 (protected), 001 (procedural layer, no half-life) and 002 (decision rationale goes
    # to Core) keep decisions; seed 004 lets them fade faster than facts. Decisions change by being
    # superseded rather than by fading, so: durable, a little below facts.
    Category.DECISION: 180.0,
    # rules and lessons: seed 000 protects them, seed 002 sends them to Core and decays procedural
    # knowledge slowest of all kinds, so they sit at the top of the scale with identity.
    Category.PRINCIPLE: 365.0,
    # a capability fades only slowly when unused; as durable as a preference.
    Category.SKILL: 270.0,
    # seed 000 keeps a resolved commitment for commitmentDecayDays (90) before removing it.
    Category.COMMITMENT: 90.0,
    # a notable moment is a dated occurrence, like seed 003's EVENT.
    Category.MOMENT: 120.0,
}

# Seed 000's factArchivalProtectedCategories default: never archived by the fact-archival rule.
PROTECTED_CATEGORIES: frozenset[Category] = frozenset(
    {Category.COMMITMENT, Category.PREFERENCE, Category.DECISION, Category.PRINCIPLE}
)
# Seed 000's archival rule also skips corrections ("status is active and not a correction").
ARCHIVAL_EXEMPT_CATEGORIES: frozenset[Category] = PROTECTED_CATEGORIES | {Category.CORRECTION}

# Seed 004's category-based minimum retention in days (math.inf = permanent): strategic forgetting
# may not retire a memory younger than this. Categories seed 004 does not name take its "Other" row,
# except identity, which is the same who-the-user-is knowledge seed 004 keeps forever.
MIN_RETENTION_DAYS: dict[Category, float] = dict.fromkeys(Category, 7.0) | {
    Category.CORRECTION: math.inf,
    Category.PREFERENCE: math.inf,
    Category.ENTITY: math.inf,
    Category.IDENTITY: math.inf,
    Category.DECISION: 45.0,
    Category.FACT: 14.0,
}


# --- Memory kind (episode | note), seed 000 ----------------------------------------------------


class Kind(StrEnum):
    """Seed 000: an episode keeps event fidelity; a note is a stable belief that may be revised."""

    EPISODE = "episode"
    NOTE = "note"


# Step 2 of seed 000's priority: the category decides, unless it is None (then later steps do).
# Facts and entities can be either ("Ann moved to Oslo" vs "Ann lives in Oslo"), so they defer.
KIND_BY_CATEGORY: dict[Category, Kind | None] = {
    Category.PREFERENCE: Kind.NOTE,
    Category.DECISION: Kind.NOTE,
    Category.COMMITMENT: Kind.NOTE,
    Category.PRINCIPLE: Kind.NOTE,
    Category.CORRECTION: Kind.NOTE,
    Category.SKILL: Kind.NOTE,
    Category.IDENTITY: Kind.NOTE,
    Category.RELATIONSHIP: Kind.NOTE,
    Category.GOAL: Kind.NOTE,
    Category.MOMENT: Kind.EPISODE,
    Category.EVENT: Kind.EPISODE,
    Category.ACTIVITY: Kind.EPISODE,
    Category.CONTEXT: Kind.EPISODE,
    Category.EPHEMERAL: Kind.EPISODE,
    Category.FACT: None,
    Category.ENTITY: None,
}


# --- Memory type (fact | procedure | narrative), seed 001 --------------------------------------


class MemoryType(StrEnum):
    """Seed 001's semantic type, orthogonal to tier; recall modes filter on it."""

    FACT = "fact"
    PROCEDURE = "procedure"
    NARRATIVE = "narrative"


# Seed 001: procedure = "how-to, playbooks, rules, decisions"; narrative = "session logs, raw
# context, stories"; everything else is structured knowledge (fact). Extractors may override.
DEFAULT_MEMORY_TYPE: dict[Category, MemoryType] = dict.fromkeys(Category, MemoryType.FACT) | {
    Category.SKILL: MemoryType.PROCEDURE,
    Category.PRINCIPLE: MemoryType.PROCEDURE,
    Category.DECISION: MemoryType.PROCEDURE,
    Category.MOMENT: MemoryType.NARRATIVE,
    Category.EVENT: MemoryType.NARRATIVE,
    Category.ACTIVITY: MemoryType.NARRATIVE,
    Category.CONTEXT: MemoryType.NARRATIVE,
    Category.EPHEMERAL: MemoryType.NARRATIVE,
}


# --- Tiers ------------------------------------------------------------------------------------


class Tier(StrEnum):
    """Seed 004's four tiers plus seed 002's Core above semantic (see SEED_VOCABULARY_MAP)."""

    WORKING = "working"  # session-scoped, at most 9 items (seed 004)
    EPISODIC = "episodic"  # default for new captures (seed 004); seed 002's Buffer
    SEMANTIC = "semantic"  # proven knowledge (seed 004); seed 002's Working
    CORE = "core"  # long-term identity, entered only through the LLM gate (seed 002)
    DORMANT = "dormant"  # cold storage, reactivatable, frozen (seed 004); seed 000's cold


DEFAULT_TIER = Tier.EPISODIC

# Seed 004's PAHF multipliers on the base decay rate (higher = forgets faster; dormant is frozen).
# Core is not in seed 004; seed 002 never deletes Core, so it decays no faster than semantic.
TIER_DECAY_MULTIPLIER: dict[Tier, float] = {
    Tier.WORKING: 10.0,
    Tier.EPISODIC: 3.0,
    Tier.SEMANTIC: 1.0,
    Tier.CORE: 1.0,
    Tier.DORMANT: 0.0,
}


# --- Status and its transitions (seeds 000, 001, 003) ------------------------------------------


class Status(StrEnum):
    """Storage lifecycle of a memory; every change is audited as a StatusChange."""

    ACTIVE = "active"  # 000, 001, 003
    CHALLENGED = "challenged"  # 001: flagged for review (belief probing)
    STALE = "stale"  # 003: retention < 0.3, deprioritised but retrievable
    SUPERSEDED = "superseded"  # 000, 001: replaced by a newer memory
    MERGED = "merged"  # 001: content absorbed into another memory
    INVALIDATED = "invalidated"  # 001: confirmed wrong
    ARCHIVED = "archived"  # 000, 003: out of default searches, reachable by id
    DELETED = "deleted"  # 003: soft-deleted, purged after the retention period


DEFAULT_STATUS = Status.ACTIVE

# Seed 003's decay chain (active -> stale -> archived -> deleted) only moves forward by itself;
# the way back to ACTIVE exists for acts that carry new evidence: an access or rehearsal revives a
# stale memory (seeds 003/004), a probe that clears a challenge, a user correction or an `ask`
# resolution that reverses a supersede/invalidation, an explicit restore from the archive (seed 000
# keeps archived memories recallable; seed 004 reactivates cold ones). MERGED is final apart from
# archive/delete because its content now lives in the survivor. DELETED is terminal (purge follows).
_REPLACED = frozenset({Status.SUPERSEDED, Status.MERGED, Status.INVALIDATED})
ALLOWED_TRANSITIONS: dict[Status, frozenset[Status]] = {
    Status.ACTIVE: frozenset(
        {Status.CHALLENGED, Status.STALE, *_REPLACED, Status.ARCHIVED, Status.DELETED}
    ),
    Status.CHALLENGED: frozenset({Status.ACTIVE, *_REPLACED, Status.ARCHIVED, Status.DELETED}),
    Status.STALE: frozenset(
        {Status.ACTIVE, Status.CHALLENGED, *_REPLACED, Status.ARCHIVED, Status.DELETED}
    ),
    Status.SUPERSEDED: frozenset({Status.ACTIVE, Status.ARCHIVED, Status.DELETED}),
    Status.MERGED: frozenset({Status.ARCHIVED, Status.DELETED}),
    Status.INVALIDATED: frozenset({Status.ACTIVE, Status.ARCHIVED, Status.DELETED}),
    Status.ARCHIVED: frozenset({Status.ACTIVE, Status.DELETED}),
    Status.DELETED: frozenset(),
}


def can_transition(old: Status, new: Status) -> bool:
    """Whether ``old -> new`` is a legal status change (staying put is not a change)."""
    return new in ALLOWED_TRANSITIONS[old]


def check_transition(old: Status, new: Status) -> None:
    """Raise InvalidInput unless ``old -> new`` is in ALLOWED_TRANSITIONS."""
    if old == new:
        raise InvalidInput(f"memory is already {old.value}; nothing to change")
    if not can_transition(old, new):
        allowed = ", ".join(sorted(s.value for s in ALLOWED_TRANSITIONS[old])) or "none"
        raise InvalidInput(
            f"a memory cannot go from {old.value} to {new.value}; from {old.value} it can go to: "
            f"{allowed}"
        )


# --- Lifecycle policy metadata, seed 000 --------------------------------------------------------


class LifecycleState(StrEnum):
    """Seed 000: controls retrieval weighting/filtering, separate from the storage status."""

    CANDIDATE = "candidate"
    VALIDATED = "validated"
    ACTIVE = "active"
    STALE = "stale"
    ARCHIVED = "archived"


class VerificationState(StrEnum):
    """Seed 000: how far a memory has been confirmed; disputed is penalised in recall."""

    UNVERIFIED = "unverified"
    USER_CONFIRMED = "user_confirmed"
    SYSTEM_INFERRED = "system_inferred"
    DISPUTED = "disputed"


class PolicyClass(StrEnum):
    """Seed 000: how long a memory is meant to live."""

    EPHEMERAL = "ephemeral"
    DURABLE = "durable"
    PROTECTED = "protected"


# Seed 000's fail-open value for a memory without valid lifecycle metadata.
DEFAULT_LIFECYCLE_STATE = LifecycleState.CANDIDATE
DEFAULT_VERIFICATION_STATE = VerificationState.UNVERIFIED

# The policy class a category implies: seed 000's protected categories are protected, the
# ephemeral category (seed 003) is ephemeral, everything else is durable.
DEFAULT_POLICY_CLASS: dict[Category, PolicyClass] = (
    dict.fromkeys(Category, PolicyClass.DURABLE)
    | dict.fromkeys(PROTECTED_CATEGORIES, PolicyClass.PROTECTED)
    | {Category.EPHEMERAL: PolicyClass.EPHEMERAL}
)


# --- Entities and their relations, seed 003 ----------------------------------------------------


class EntityType(StrEnum):
    """Seed 003's seven entity types."""

    PERSON = "person"
    ORGANIZATION = "organization"
    LOCATION = "location"
    PRODUCT = "product"
    CONCEPT = "concept"
    EVENT = "event"
    OTHER = "other"


class RelationType(StrEnum):
    """Entity-to-entity relations, stored as the ``type`` property of ``:RELATED``."""

    # seed 003's twenty
    WORKS_AT = "works_at"
    MANAGES = "manages"
    REPORTS_TO = "reports_to"
    FRIEND_OF = "friend_of"
    LIVES_IN = "lives_in"
    PARENT_OF = "parent_of"
    CHILD_OF = "child_of"
    DATING = "dating"
    MARRIED_TO = "married_to"
    MEMBER_OF = "member_of"
    FOUNDED = "founded"
    USES = "uses"
    CREATED = "created"
    COLLABORATES_WITH = "collaborates_with"
    MENTORS = "mentors"
    COMPETITOR_OF = "competitor_of"
    PARTNER_OF = "partner_of"
    CLIENT_OF = "client_of"
    SIBLING_OF = "sibling_of"
    KNOWS = "knows"
    # seed 003's extraction patterns also emit these
    COLLEAGUE_OF = "colleague_of"
    LOCATED_IN = "located_in"
    MENTORED_BY = "mentored_by"
    # the fallback when a relation is real but not in this list (keeps free text out of the type)
    RELATED_TO = "related_to"


# Members added by kgmem, not in seed 003's list of twenty.
_KGMEM_ONLY_RELATIONS = frozenset(
    {
        RelationType.COLLEAGUE_OF,
        RelationType.LOCATED_IN,
        RelationType.MENTORED_BY,
        RelationType.RELATED_TO,
    }
)

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
# Seed 003: "bidirectional relationships infer reverse edges". A symmetric type is its own inverse;
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


# --- Memory-to-memory relations --------------------------------------------------------------


class MemoryRelation(StrEnum):
    """Seed 004's six memory relations plus the lifecycle edges DESIGN §3 needs."""

    SUPERSEDES = "supersedes"
    CONTRADICTS = "contradicts"
    CAUSES = "causes"
    ELABORATES = "elaborates"
    SAME_ENTITY = "same_entity"
    RELATED_TO = "related_to"
    MERGED_INTO = "merged_into"  # seeds 001/002: loser -> survivor of a merge
    DEPENDS_ON = "depends_on"  # premise -> conclusion, for invalidation cascades
    CO_ACTIVATED = "co_activated"  # seed 004's Hebbian co-activation, carries {count}


SEED_004_MEMORY_RELATIONS: tuple[MemoryRelation, ...] = (
    MemoryRelation.SUPERSEDES, MemoryRelation.CONTRADICTS, MemoryRelation.CAUSES,
    MemoryRelation.ELABORATES, MemoryRelation.SAME_ENTITY, MemoryRelation.RELATED_TO,
)  # fmt: skip


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

# Seed 004's pruning (at 1000 relations, trim to 900): lowest priority goes first; None = never
# pruned. Seed 004 never prunes supersedes/contradicts/causes; merged_into and depends_on are
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

# DESIGN §3's fixed, non-memory-to-memory relationship types (entity relations ride on RELATED).
# SUBTOPIC_OF nests a topic in its parent (seed 002's topic tree): (child:Topic)->(parent:Topic).
# DERIVED_FROM is provenance: a memory from its episodes, or a status snapshot from its notes.
STRUCTURAL_REL_TYPES: frozenset[str] = frozenset(
    {"DERIVED_FROM", "MENTIONS", "RELATED", "IN_BOX", "IN_TRACE", "IN_TOPIC", "SUBTOPIC_OF"}
)


# --- Conflict resolution, seed 003 -------------------------------------------------------------


class ConflictStrategy(StrEnum):
    """Seed 003's five strategies for a new memory that contradicts a stored one."""

    KEEP_EXISTING = "keep_existing"
    USE_NEW = "use_new"
    MERGE = "merge"
    ASK = "ask"
    TEMPORAL = "temporal"


# Newer wins, with SUPERSEDES + valid_until on the old one: the bi-temporal "never delete,
# invalidate" rule of seed 004.
DEFAULT_CONFLICT_STRATEGY = ConflictStrategy.TEMPORAL


# --- Where each seed's vocabulary landed ---------------------------------------------------------

SEEDS: tuple[str, ...] = ("000", "001", "002", "003", "004")

# (seed, term as the seed spells it, lowercased) -> the kgmem member(s) it denotes, one per
# vocabulary the term belongs to in that seed (e.g. 003's "event" is a memory type and an entity
# type). Use from_seed() to pick the member of one vocabulary.
_SeedMap = dict[tuple[str, str], tuple[StrEnum, ...]]


def _verbatim(seed: str, *members: StrEnum) -> _SeedMap:
    """Entries for terms a seed spells and means exactly as kgmem does."""
    return {(seed, member.value): (member,) for member in members}


SEED_VOCABULARY_MAP: _SeedMap = {
    # seed 000: extraction categories, memoryKind, status, lifecycle/verification/policy metadata
    **_verbatim("000", *SEED_000_CATEGORIES, *Kind, *VerificationState, *PolicyClass),
    **_verbatim("000", Status.SUPERSEDED, LifecycleState.CANDIDATE, LifecycleState.VALIDATED),
    **_verbatim("000", LifecycleState.STALE),  # a lifecycleState only; seed 000 has no stale status
    ("000", "active"): (Status.ACTIVE, LifecycleState.ACTIVE),
    ("000", "archived"): (Status.ARCHIVED, LifecycleState.ARCHIVED),
    ("000", "event"): (Category.EVENT,),  # kind-rule examples: "event, action, moment -> episode"
    ("000", "action"): (Category.ACTIVITY,),
    ("000", "hot"): (Tier.EPISODIC,),  # the live index every new memory enters
    ("000", "cold"): (Tier.DORMANT,),  # demoted, promotable back
    # seed 001: layers, memory types, statuses
    **_verbatim("001", Tier.WORKING, Tier.EPISODIC, Tier.SEMANTIC, *MemoryType),
    **_verbatim("001", Status.ACTIVE, Status.CHALLENGED, Status.INVALIDATED, Status.MERGED),
    **_verbatim("001", Status.SUPERSEDED),
    ("001", "procedural"): (Tier.SEMANTIC, MemoryType.PROCEDURE),  # permanent how-to knowledge
    ("001", "codebase"): (Tier.SEMANTIC, MemoryType.FACT),  # permanent code knowledge
    # seed 002: layers, kinds, the Core gate's whitelist
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
    # seed 003: memory types, states, entity types, relation types, conflict strategies
    **_verbatim("003", *(c for c in SEED_003_CATEGORIES if c is not Category.EVENT)),
    **_verbatim("003", Status.ACTIVE, Status.STALE, Status.ARCHIVED, Status.DELETED),
    **_verbatim("003", *(e for e in EntityType if e is not EntityType.EVENT), *ConflictStrategy),
    **_verbatim("003", *(rt for rt in RelationType if rt not in _KGMEM_ONLY_RELATIONS)),
    ("003", "plan"): (Category.GOAL,),
    ("003", "event"): (Category.EVENT, EntityType.EVENT),
    # seed 004: tiers, memory relations, formation categories, hot-tier state
    **_verbatim("004", Tier.WORKING, Tier.EPISODIC, Tier.SEMANTIC, Tier.DORMANT),
    **_verbatim("004", *SEED_004_MEMORY_RELATIONS, Status.ACTIVE, Status.SUPERSEDED),
    **_verbatim("004", Category.PREFERENCE, Category.FACT, Category.DECISION, Category.CORRECTION),
    **_verbatim("004", Category.ENTITY),
    ("004", "plan"): (Category.GOAL,),
}


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
