"""What a memory's category implies, one table per question: the kind it takes, its
default memory type, its policy class, and whether it is protected from archival (seed
000). Every table covers every :class:`~kgmem.taxonomy.Category`; pure data.
"""

from __future__ import annotations

from kgmem.taxonomy import Category, Kind, MemoryType, PolicyClass

# The factArchivalProtectedCategories default: never archived by the fact-archival rule.
PROTECTED_CATEGORIES: frozenset[Category] = frozenset(
    {Category.COMMITMENT, Category.PREFERENCE, Category.DECISION, Category.PRINCIPLE}
)
# The archival rule also skips corrections ("status is active and not a correction").
ARCHIVAL_EXEMPT_CATEGORIES: frozenset[Category] = PROTECTED_CATEGORIES | {Category.CORRECTION}


# Step 2 of the priority: the category decides, unless it is None (then later steps do).
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


# procedure = "how-to, playbooks, rules, decisions"; narrative = "session logs, raw
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


# The policy class a category implies: the protected categories are protected, the
# ephemeral category (docs/vocabulary.md) is ephemeral, everything else is durable.
DEFAULT_POLICY_CLASS: dict[Category, PolicyClass] = (
    dict.fromkeys(Category, PolicyClass.DURABLE)
    | dict.fromkeys(PROTECTED_CATEGORIES, PolicyClass.PROTECTED)
    | {Category.EPHEMERAL: PolicyClass.EPHEMERAL}
)
