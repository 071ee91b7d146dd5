"""kgmem's closed vocabularies: the ``StrEnum`` of every category, kind, type, tier, status, policy
value, entity type, relation type and conflict strategy that kgmem stores or accepts, with each
vocabulary's default member.

A string from outside (user input, LLM output) becomes a member only through
:func:`kgmem.taxonomy.parsing.parse_enum`, which raises :class:`~kgmem.errors.InvalidInput` naming
the allowed values. The tables that go with the vocabularies live beside this module, one noun each:
``category_tables`` (what a category implies: kind, type, policy class, protection),
``lifecycle_tables`` (stability days, tier decay, minimum retention, the legal status changes),
``relation_tables`` (relation inverses, memory-relation Cypher types and pruning priority),
``seed_vocabulary`` (where each seed term landed) and ``parsing`` (outside text to a member). They
unify the vocabularies of five earlier agent-memory engines, whose terms are accepted as
aliases (docs/vocabulary.md#aliases). Pure data and
pure functions: no I/O, nothing happens at import beyond building these constants. The rules
that classify a memory's kind from its text live in :mod:`kgmem.core.memory_kind`.
"""

from __future__ import annotations

from enum import StrEnum

# --- Categories ------------------------------------------------------------------------------


class Category(StrEnum):
    """What a memory is about: the ten extraction categories + the eight types."""

    # the extraction categories
    FACT = "fact"
    PREFERENCE = "preference"  # also
    CORRECTION = "correction"
    ENTITY = "entity"
    DECISION = "decision"
    RELATIONSHIP = "relationship"  # also
    PRINCIPLE = "principle"
    COMMITMENT = "commitment"
    MOMENT = "moment"
    SKILL = "skill"
    # the memory types with a base stability (preference and relationship are above)
    IDENTITY = "identity"
    EVENT = "event"
    ACTIVITY = "activity"
    GOAL = "goal"  # the code and site call it PLAN
    CONTEXT = "context"
    EPHEMERAL = "ephemeral"


# --- Memory kind (episode | note) ----------------------------------------------------


class Kind(StrEnum):
    """An episode keeps event fidelity; a note is a stable belief that may be revised."""

    EPISODE = "episode"
    NOTE = "note"


# --- Memory type (fact | procedure | narrative) --------------------------------------


class MemoryType(StrEnum):
    """The semantic type, orthogonal to tier; recall modes filter on it."""

    FACT = "fact"
    PROCEDURE = "procedure"
    NARRATIVE = "narrative"


# --- Tiers ------------------------------------------------------------------------------------


class Tier(StrEnum):
    """The four tiers plus the Core above semantic (see SEED_VOCABULARY_MAP)."""

    WORKING = "working"  # session-scoped, at most 9 items (docs/vocabulary.md)
    EPISODIC = "episodic"  # default for new captures (docs/vocabulary.md); the Buffer
    SEMANTIC = "semantic"  # proven knowledge (docs/vocabulary.md); the Working
    CORE = "core"  # long-term identity, entered only through the LLM gate (docs/vocabulary.md)
    DORMANT = "dormant"  # cold storage, reactivatable, frozen (docs/vocabulary.md); the cold


DEFAULT_TIER = Tier.EPISODIC


# --- Status and its transitions (docs/vocabulary.md) ------------------------------------------


class Status(StrEnum):
    """Storage lifecycle of a memory; every change is audited as a StatusChange."""

    ACTIVE = "active"
    CHALLENGED = "challenged"  # flagged for review (belief probing)
    STALE = "stale"  # retention < 0.3, deprioritised but retrievable
    SUPERSEDED = "superseded"  # replaced by a newer memory
    MERGED = "merged"  # content absorbed into another memory
    INVALIDATED = "invalidated"  # confirmed wrong
    ARCHIVED = "archived"  # out of default searches, reachable by id
    DELETED = "deleted"  # soft-deleted, purged after the retention period


DEFAULT_STATUS = Status.ACTIVE


# --- Lifecycle policy metadata --------------------------------------------------------


class LifecycleState(StrEnum):
    """Controls retrieval weighting/filtering, separate from the storage status."""

    CANDIDATE = "candidate"
    VALIDATED = "validated"
    ACTIVE = "active"
    STALE = "stale"
    ARCHIVED = "archived"


class VerificationState(StrEnum):
    """How far a memory has been confirmed; disputed is penalised in recall."""

    UNVERIFIED = "unverified"
    USER_CONFIRMED = "user_confirmed"
    SYSTEM_INFERRED = "system_inferred"
    DISPUTED = "disputed"


class PolicyClass(StrEnum):
    """How long a memory is meant to live."""

    EPHEMERAL = "ephemeral"
    DURABLE = "durable"
    PROTECTED = "protected"


# The fail-open value for a memory without valid lifecycle metadata.
DEFAULT_LIFECYCLE_STATE = LifecycleState.CANDIDATE
DEFAULT_VERIFICATION_STATE = VerificationState.UNVERIFIED


# --- Entities and their relations ----------------------------------------------------


class EntityType(StrEnum):
    """The seven entity types."""

    PERSON = "person"
    ORGANIZATION = "organization"
    LOCATION = "location"
    PRODUCT = "product"
    CONCEPT = "concept"
    EVENT = "event"
    OTHER = "other"


class RelationType(StrEnum):
    """Entity-to-entity relations, stored as the ``type`` property of ``:RELATED``."""

    # the twenty common relations
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
    # the extraction patterns also emit these
    COLLEAGUE_OF = "colleague_of"
    LOCATED_IN = "located_in"
    MENTORED_BY = "mentored_by"
    # the fallback when a relation is real but not in this list (keeps free text out of the type)
    RELATED_TO = "related_to"


# --- Memory-to-memory relations --------------------------------------------------------------


class MemoryRelation(StrEnum):
    """The six memory relations plus the lifecycle edges of docs/memory-model.md."""

    SUPERSEDES = "supersedes"
    CONTRADICTS = "contradicts"
    CAUSES = "causes"
    ELABORATES = "elaborates"
    SAME_ENTITY = "same_entity"
    RELATED_TO = "related_to"
    MERGED_INTO = "merged_into"  # loser -> survivor of a merge
    DEPENDS_ON = "depends_on"  # premise -> conclusion, for invalidation cascades
    CO_ACTIVATED = "co_activated"  # the Hebbian co-activation, carries {count}


# --- Conflict resolution -------------------------------------------------------------


class ConflictStrategy(StrEnum):
    """The five strategies for a new memory that contradicts a stored one."""

    KEEP_EXISTING = "keep_existing"
    USE_NEW = "use_new"
    MERGE = "merge"
    ASK = "ask"
    TEMPORAL = "temporal"


# Newer wins, with SUPERSEDES + valid_until on the old one: the bi-temporal "never delete,
# invalidate" rule.
DEFAULT_CONFLICT_STRATEGY = ConflictStrategy.TEMPORAL


# --- Why a turn gave no memory -----------------------------------------------------------------


class SkipReason(StrEnum):
    """Why the extractor found nothing to remember in a turn the observer filters kept (the
    filters' own reasons, "too_short", "code_heavy", ..., are recorded as they are)."""

    QUESTION = "question"  # it asked or requested something and stated nothing
    FILLER = "filler"  # a greeting, thanks, a reaction, or too little content to stand alone
    NO_WORDS = "no_words"  # punctuation, symbols or numbers without a word
    NO_STATEMENT = "no_statement"  # the engine (the LLM) returned no fact for it
