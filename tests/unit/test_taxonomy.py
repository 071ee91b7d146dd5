"""Laws of kgmem's closed vocabularies: every table covers its enum, every seed term lands on a real
member, relation inverses are an involution, status transitions stay inside Status, and bad input
is refused with InvalidInput naming what is allowed."""

from __future__ import annotations

import math
import re
from enum import StrEnum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgmem import taxonomy as tx
from kgmem.core.memory_kind import classify_kind, classify_kind_with_reason
from kgmem.errors import InvalidInput
from kgmem.taxonomy import (
    category_tables,
    lifecycle_tables,
    parsing,
    relation_tables,
    seed_vocabulary,
)

ALL_ENUMS: tuple[type[StrEnum], ...] = (
    tx.Category,
    tx.Kind,
    tx.MemoryType,
    tx.Tier,
    tx.Status,
    tx.LifecycleState,
    tx.VerificationState,
    tx.PolicyClass,
    tx.EntityType,
    tx.RelationType,
    tx.MemoryRelation,
    tx.ConflictStrategy,
)


# --- vocabularies as the seeds name them --------------------------------------------------------


def test_category_is_seed_000_ten_merged_with_seed_003_eight_without_duplicates() -> None:
    seed_000 = {
        "fact",
        "preference",
        "correction",
        "entity",
        "decision",
        "relationship",
        "principle",
        "commitment",
        "moment",
        "skill",
    }
    seed_003 = {
        "identity",
        "preference",
        "relationship",
        "event",
        "activity",
        "goal",
        "context",
        "ephemeral",
    }
    values = [c.value for c in tx.Category]
    assert len(values) == len(set(values))
    assert set(values) == seed_000 | seed_003
    assert {c.value for c in seed_vocabulary.SEED_000_CATEGORIES} == seed_000
    assert {c.value for c in seed_vocabulary.SEED_003_CATEGORIES} == seed_003


def test_seed_vocabularies_are_complete() -> None:
    assert {t.value for t in tx.MemoryType} == {"fact", "procedure", "narrative"}
    assert {k.value for k in tx.Kind} == {"episode", "note"}
    assert {"working", "episodic", "semantic", "dormant"} <= {t.value for t in tx.Tier}
    assert {
        "active",
        "stale",
        "archived",
        "deleted",
        "superseded",
        "challenged",
        "invalidated",
        "merged",
    } == {s.value for s in tx.Status}
    assert {s.value for s in tx.LifecycleState} == {
        "candidate",
        "validated",
        "active",
        "stale",
        "archived",
    }
    assert {v.value for v in tx.VerificationState} == {
        "unverified",
        "user_confirmed",
        "system_inferred",
        "disputed",
    }
    assert {p.value for p in tx.PolicyClass} == {"ephemeral", "durable", "protected"}
    assert {e.value for e in tx.EntityType} == {
        "person",
        "organization",
        "location",
        "product",
        "concept",
        "event",
        "other",
    }
    assert {s.value for s in tx.ConflictStrategy} == {
        "keep_existing",
        "use_new",
        "merge",
        "ask",
        "temporal",
    }
    assert tx.DEFAULT_CONFLICT_STRATEGY is tx.ConflictStrategy.TEMPORAL


def test_relation_types_include_design_and_seed_003_list() -> None:
    listed = {
        "works_at", "manages", "reports_to", "friend_of", "lives_in", "parent_of", "child_of",
        "dating", "married_to", "member_of", "founded", "uses", "created", "collaborates_with",
        "mentors", "competitor_of", "partner_of", "client_of", "sibling_of", "knows",
    }  # fmt: skip
    assert len(listed) == 20
    assert set(listed) <= {r.value for r in tx.RelationType}


def test_memory_relations_cover_seed_004_and_design() -> None:
    assert {r.value for r in seed_vocabulary.SEED_004_MEMORY_RELATIONS} == {
        "supersedes",
        "contradicts",
        "causes",
        "elaborates",
        "same_entity",
        "related_to",
    }
    for needed in ("supersedes", "merged_into", "depends_on", "contradicts", "co_activated"):
        assert tx.MemoryRelation(needed)


# --- tables cover their enums -------------------------------------------------------------------


@pytest.mark.parametrize("category", list(tx.Category))
def test_every_category_has_positive_base_stability(category: tx.Category) -> None:
    days = lifecycle_tables.BASE_STABILITY_DAYS[category]
    assert isinstance(days, float)
    assert 0 < days < math.inf


def test_base_stability_matches_seed_003() -> None:
    expected = {
        "identity": 365,
        "preference": 270,
        "relationship": 270,
        "event": 120,
        "activity": 90,
        "goal": 60,
        "context": 21,
        "ephemeral": 3,
    }
    for name, days in expected.items():
        assert lifecycle_tables.BASE_STABILITY_DAYS[tx.Category(name)] == days


def test_per_category_tables_are_total() -> None:
    for table in (
        lifecycle_tables.BASE_STABILITY_DAYS,
        category_tables.KIND_BY_CATEGORY,
        category_tables.DEFAULT_MEMORY_TYPE,
        lifecycle_tables.MIN_RETENTION_DAYS,
        category_tables.DEFAULT_POLICY_CLASS,
    ):
        assert set(table) == set(tx.Category)
    assert set(lifecycle_tables.TIER_DECAY_MULTIPLIER) == set(tx.Tier)
    assert set(relation_tables.MEMORY_REL_PRUNE_PRIORITY) == set(tx.MemoryRelation)


def test_protected_categories_are_seed_000_defaults() -> None:
    assert {c.value for c in category_tables.PROTECTED_CATEGORIES} == {
        "commitment",
        "preference",
        "decision",
        "principle",
    }
    assert category_tables.PROTECTED_CATEGORIES < category_tables.ARCHIVAL_EXEMPT_CATEGORIES
    assert tx.Category.CORRECTION in category_tables.ARCHIVAL_EXEMPT_CATEGORIES


def test_seed_004_tier_decay_order() -> None:
    m = lifecycle_tables.TIER_DECAY_MULTIPLIER
    assert m[tx.Tier.WORKING] > m[tx.Tier.EPISODIC] > m[tx.Tier.SEMANTIC] > m[tx.Tier.DORMANT] == 0


# --- Cypher relationship types ------------------------------------------------------------------


def test_memory_rel_types_are_upper_snake_and_distinct() -> None:
    assert set(relation_tables.MEMORY_REL_TYPE) == set(tx.MemoryRelation)
    names = list(relation_tables.MEMORY_REL_TYPE.values())
    assert len(set(names)) == len(names)
    for rel, name in relation_tables.MEMORY_REL_TYPE.items():
        assert re.fullmatch(r"[A-Z][A-Z_]*[A-Z]", name), name
        assert name == rel.value.upper()
    assert not set(names) & relation_tables.STRUCTURAL_REL_TYPES


def test_memory_rel_types_match_design_section_3() -> None:
    design = {
        "SUPERSEDES",
        "CONTRADICTS",
        "CAUSES",
        "ELABORATES",
        "SAME_ENTITY",
        "RELATED_TO",
        "MERGED_INTO",
        "CO_ACTIVATED",
        "DEPENDS_ON",
    }
    assert set(relation_tables.MEMORY_REL_TYPE.values()) == design


def test_seed_004_never_prunes_supersedes_contradicts_causes() -> None:
    for rel in ("supersedes", "contradicts", "causes"):
        assert relation_tables.MEMORY_REL_PRUNE_PRIORITY[tx.MemoryRelation(rel)] is None
    p = relation_tables.MEMORY_REL_PRUNE_PRIORITY
    assert p[tx.MemoryRelation.ELABORATES] == 2
    assert p[tx.MemoryRelation.SAME_ENTITY] == 1
    assert p[tx.MemoryRelation.RELATED_TO] == 0


# --- relation inverses --------------------------------------------------------------------------


@given(st.sampled_from(list(tx.RelationType)))
def test_inverse_is_an_involution(rt: tx.RelationType) -> None:
    inv = relation_tables.inverse_of(rt)
    if inv is None:
        assert rt not in relation_tables.INVERSE
        assert rt not in relation_tables.INVERSE.values()
    else:
        assert relation_tables.inverse_of(inv) is rt


@given(st.sampled_from(list(tx.RelationType)))
def test_symmetric_relations_are_their_own_inverse(rt: tx.RelationType) -> None:
    assert (rt in relation_tables.SYMMETRIC_RELATIONS) == (relation_tables.inverse_of(rt) is rt)


def test_known_inverses() -> None:
    r = tx.RelationType
    for symmetric in (r.FRIEND_OF, r.MARRIED_TO, r.SIBLING_OF, r.DATING, r.KNOWS):
        assert relation_tables.inverse_of(symmetric) is symmetric
    assert relation_tables.inverse_of(r.PARENT_OF) is r.CHILD_OF
    assert relation_tables.inverse_of(r.CHILD_OF) is r.PARENT_OF
    assert relation_tables.inverse_of(r.MANAGES) is r.REPORTS_TO
    assert relation_tables.inverse_of(r.WORKS_AT) is None
    assert relation_tables.inverse_of(r.USES) is None


# --- status transitions -------------------------------------------------------------------------


def test_transitions_table_is_closed_over_status() -> None:
    assert set(lifecycle_tables.ALLOWED_TRANSITIONS) == set(tx.Status)
    for old, targets in lifecycle_tables.ALLOWED_TRANSITIONS.items():
        assert isinstance(targets, frozenset)
        assert targets <= set(tx.Status)
        assert old not in targets


def test_seed_003_chain_is_allowed_and_deleted_is_terminal() -> None:
    s = tx.Status
    for old, new in ((s.ACTIVE, s.STALE), (s.STALE, s.ARCHIVED), (s.ARCHIVED, s.DELETED)):
        lifecycle_tables.check_transition(old, new)
    assert lifecycle_tables.ALLOWED_TRANSITIONS[s.DELETED] == frozenset()


def test_every_status_is_reachable_from_active() -> None:
    seen, frontier = {tx.Status.ACTIVE}, [tx.Status.ACTIVE]
    while frontier:
        for nxt in lifecycle_tables.ALLOWED_TRANSITIONS[frontier.pop()] - seen:
            seen.add(nxt)
            frontier.append(nxt)
    assert seen == set(tx.Status)


@given(st.sampled_from(list(tx.Status)), st.sampled_from(list(tx.Status)))
def test_check_transition_agrees_with_table(old: tx.Status, new: tx.Status) -> None:
    if new in lifecycle_tables.ALLOWED_TRANSITIONS[old]:
        lifecycle_tables.check_transition(old, new)
        assert lifecycle_tables.can_transition(old, new)
    else:
        with pytest.raises(InvalidInput) as err:
            lifecycle_tables.check_transition(old, new)
        assert old.value in err.value.message
        assert not lifecycle_tables.can_transition(old, new)


def test_disallowed_transition_message_lists_the_way_out() -> None:
    with pytest.raises(InvalidInput, match=r"cannot go from deleted to active.*none"):
        lifecycle_tables.check_transition(tx.Status.DELETED, tx.Status.ACTIVE)
    with pytest.raises(InvalidInput, match=r"merged to active.*archived, deleted"):
        lifecycle_tables.check_transition(tx.Status.MERGED, tx.Status.ACTIVE)


# --- kind classification (kgmem priority) ----------------------------------------------------


@pytest.mark.parametrize(
    ("category", "text", "tags", "kind", "rule"),
    [
        # 1. true temporal markers beat everything, even a note category
        ("decision", "Yesterday we decided to use Postgres", (), "episode", "temporal_marker"),
        ("preference", "Since last Tuesday she prefers tea", (), "episode", "temporal_marker"),
        ("fact", "The release went out on 2024-03-28", (), "episode", "temporal_marker"),
        ("fact", "He moved three weeks ago", (), "episode", "temporal_marker"),
        # 2. category
        ("preference", "User prefers dark mode", (), "note", "category"),
        ("commitment", "I will send the report tomorrow", (), "note", "category"),
        ("moment", "User was thrilled about the launch", (), "episode", "category"),
        # 3. tags, note tags winning
        ("fact", "Deployed the API", ("episode", "rule"), "note", "note_tag"),
        ("fact", "The API uses JWT", ("Meeting",), "episode", "episode_tag"),
        # 4. past-tense action verbs
        ("fact", "Ana deployed the new gateway", (), "episode", "past_tense_action"),
        # 5. note keywords
        ("entity", "Bob always reviews pull requests", (), "note", "note_keyword"),
        # 6. default
        ("fact", "The API uses JWT tokens", (), "episode", "default"),
    ],
)
def test_classify_kind_follows_seed_000_priority(
    category: str, text: str, tags: tuple[str, ...], kind: str, rule: str
) -> None:
    got = classify_kind_with_reason(tx.Category(category), text, tags)
    assert got == (tx.Kind(kind), rule)
    assert classify_kind(tx.Category(category), text, tags) is tx.Kind(kind)


@given(st.sampled_from(list(tx.Category)), st.text(max_size=200), st.lists(st.text(max_size=12)))
def test_classify_kind_is_total_and_pure(category: tx.Category, text: str, tags: list[str]) -> None:
    first = classify_kind(category, text, tags)
    assert isinstance(first, tx.Kind)
    assert classify_kind(category, text, tags) is first
    decided = category_tables.KIND_BY_CATEGORY[category]
    if decided is not None and first is not decided:
        assert classify_kind_with_reason(category, text, tags)[1] == "temporal_marker"


# --- seed vocabulary map ------------------------------------------------------------------------


def test_every_seed_term_resolves_to_real_members() -> None:
    for (seed, term), members in seed_vocabulary.SEED_VOCABULARY_MAP.items():
        assert seed in seed_vocabulary.SEEDS
        assert term == term.strip().lower()
        assert members, (seed, term)
        classes = [type(m) for m in members]
        assert len(classes) == len(set(classes)), f"{seed}/{term} is ambiguous within one enum"
        for member in members:
            assert type(member) in ALL_ENUMS
            assert type(member)(member.value) is member
            assert parsing.from_seed(seed, term, type(member)) is member


def test_every_seed_is_mapped() -> None:
    assert {seed for seed, _ in seed_vocabulary.SEED_VOCABULARY_MAP} == set(seed_vocabulary.SEEDS)


@pytest.mark.parametrize(
    ("seed", "term", "enum_cls", "expected"),
    [
        ("000", "moment", tx.Category, tx.Category.MOMENT),
        ("003", "goal", tx.Category, tx.Category.GOAL),
        ("003", "plan", tx.Category, tx.Category.GOAL),
        ("004", "plan", tx.Category, tx.Category.GOAL),
        ("001", "procedural", tx.MemoryType, tx.MemoryType.PROCEDURE),
        ("001", "procedural", tx.Tier, tx.Tier.SEMANTIC),
        ("002", "buffer", tx.Tier, tx.Tier.EPISODIC),
        ("002", "working", tx.Tier, tx.Tier.SEMANTIC),
        ("002", "core", tx.Tier, tx.Tier.CORE),
        ("000", "hot", tx.Tier, tx.Tier.EPISODIC),
        ("000", "cold", tx.Tier, tx.Tier.DORMANT),
        ("004", "dormant", tx.Tier, tx.Tier.DORMANT),
        ("003", "event", tx.Category, tx.Category.EVENT),
        ("003", "event", tx.EntityType, tx.EntityType.EVENT),
        ("000", "active", tx.LifecycleState, tx.LifecycleState.ACTIVE),
        ("001", "challenged", tx.Status, tx.Status.CHALLENGED),
        ("003", "keep_existing", tx.ConflictStrategy, tx.ConflictStrategy.KEEP_EXISTING),
        ("004", "same_entity", tx.MemoryRelation, tx.MemoryRelation.SAME_ENTITY),
    ],
)
def test_from_seed(seed: str, term: str, enum_cls: type[StrEnum], expected: StrEnum) -> None:
    assert parsing.from_seed(seed, term, enum_cls) is expected


def test_seed_vocabularies_are_fully_mapped() -> None:
    for c in seed_vocabulary.SEED_000_CATEGORIES:
        assert parsing.from_seed("000", c.value, tx.Category) is c
    for c in seed_vocabulary.SEED_003_CATEGORIES:
        assert parsing.from_seed("003", c.value, tx.Category) is c
    for e in tx.EntityType:
        assert parsing.from_seed("003", e.value, tx.EntityType) is e
    for s in ("active", "stale", "archived", "deleted"):
        assert parsing.from_seed("003", s, tx.Status) is tx.Status(s)
    for s in ("active", "challenged", "invalidated", "merged", "superseded"):
        assert parsing.from_seed("001", s, tx.Status) is tx.Status(s)
    for layer in ("working", "episodic", "semantic", "procedural", "codebase"):
        parsing.from_seed("001", layer, tx.Tier)
    for t in ("working", "episodic", "semantic", "dormant"):
        assert parsing.from_seed("004", t, tx.Tier) is tx.Tier(t)


def test_from_seed_rejects_a_term_outside_that_vocabulary() -> None:
    with pytest.raises(InvalidInput, match="no term 'stale'"):
        parsing.from_seed("000", "stale", tx.Status)  # a lifecycle state, not a status
    with pytest.raises(InvalidInput):
        parsing.from_seed("003", "nonsense", tx.Category)


# --- parse_enum ---------------------------------------------------------------------------------


@pytest.mark.parametrize("enum_cls", ALL_ENUMS)
def test_parse_enum_round_trips_every_member(enum_cls: type[StrEnum]) -> None:
    for member in enum_cls:
        assert parsing.parse_enum(enum_cls, member, "x") is member
        assert parsing.parse_enum(enum_cls, member.value, "x") is member
        shouted = f"  {member.value.upper().replace('_', '-')} "
        assert parsing.parse_enum(enum_cls, shouted, "x") is member


@given(st.sampled_from(ALL_ENUMS), st.text(max_size=30))
def test_parse_enum_rejects_unknown_values_with_invalid_input(
    enum_cls: type[StrEnum], raw: str
) -> None:
    key = re.sub(r"[\s\-]+", "_", raw.strip().lower())
    try:
        member = parsing.parse_enum(enum_cls, raw, "field")
    except InvalidInput as err:
        assert key not in {m.value for m in enum_cls}
        assert "field" in err.message
        for allowed in enum_cls:
            assert allowed.value in err.message
    else:
        assert isinstance(member, enum_cls)


def _parse_enum_uncached(enum_cls: type[StrEnum], raw: str, aliases: bool) -> StrEnum | None:
    """parse_enum's rule written out without its cache: the reference it must always equal."""
    key = re.sub(r"[\s\-]+", "_", raw.strip().lower())
    if key in {m.value for m in enum_cls}:
        return enum_cls(key)
    member = parsing._ALIASES.get(enum_cls, {}).get(key) if aliases else None
    return member if isinstance(member, enum_cls) else None


_SPELLINGS = st.sampled_from(
    [m.value for e in ALL_ENUMS for m in e] + [t for a in parsing._ALIASES.values() for t in a]
).flatmap(
    lambda v: st.sampled_from([v, v.upper(), f" {v} ", v.replace("_", "-"), v.replace("_", " ")])
)


@given(st.sampled_from(ALL_ENUMS), st.one_of(_SPELLINGS, st.text(max_size=12)), st.booleans())
def test_parse_enum_cached_equals_the_uncached_rule(
    enum_cls: type[StrEnum], raw: str, aliases: bool
) -> None:
    expected = _parse_enum_uncached(enum_cls, raw, aliases)
    for _ in range(2):  # the second call is served from the cache
        if expected is None:
            with pytest.raises(InvalidInput, match="unknown field"):
                parsing.parse_enum(enum_cls, raw, "field", aliases=aliases)
        else:
            assert parsing.parse_enum(enum_cls, raw, "field", aliases=aliases) is expected


def test_parse_enum_rejects_unknown_category_and_strategy() -> None:
    with pytest.raises(InvalidInput, match=r"unknown category 'hobby'.*fact, preference"):
        parsing.parse_enum(tx.Category, "hobby", "category")
    with pytest.raises(InvalidInput, match="keep_existing, use_new, merge, ask, temporal"):
        parsing.parse_enum(tx.ConflictStrategy, "newest", "conflict strategy")
    with pytest.raises(InvalidInput, match="must be a string"):
        parsing.parse_enum(tx.Tier, 3, "tier")
    with pytest.raises(InvalidInput):
        parsing.parse_enum(tx.Tier, None, "tier")


def test_parse_enum_accepts_seed_aliases_unless_told_not_to() -> None:
    assert parsing.parse_enum(tx.Category, "plan", "category") is tx.Category.GOAL
    assert parsing.parse_enum(tx.Category, "Lesson", "category") is tx.Category.PRINCIPLE
    assert parsing.parse_enum(tx.Tier, "buffer", "tier") is tx.Tier.EPISODIC
    assert parsing.parse_enum(tx.MemoryType, "procedural", "type") is tx.MemoryType.PROCEDURE
    # a member value always wins over an alias ("working" means different tiers in 001 and 002)
    assert parsing.parse_enum(tx.Tier, "working", "tier") is tx.Tier.WORKING
    with pytest.raises(InvalidInput):
        parsing.parse_enum(tx.Category, "plan", "category", aliases=False)
