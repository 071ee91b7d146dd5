"""The memory-kind classification: is a memory an episode (an event) or a note (a belief)?

Contract. :func:`classify_kind_with_reason` applies the priority to a candidate's category,
text and tags — a true temporal marker in the text, then the category's kind
(:data:`kgmem.taxonomy.category_tables.KIND_BY_CATEGORY`), then note tags over episode tags, then
past-tense action verbs, then note keywords, else episode — and returns the kind with the rule that
decided it; :func:`classify_kind` returns the kind only. The marker and word lists are the.
Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kgmem.core.text import word_set
from kgmem.taxonomy import Category, Kind
from kgmem.taxonomy.category_tables import KIND_BY_CATEGORY

_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
# Step 1: "true" temporal markers anchor the text to a moment. Future markers are left out on
# purpose: "I'll send it tomorrow" is a commitment (a note) whose date becomes valid_until.
TEMPORAL_MARKERS: tuple[str, ...] = (
    r"\byesterday\b",
    r"\btoday\b",
    r"\btonight\b",
    r"\bthis (?:morning|afternoon|evening)\b",
    rf"\blast (?:{_WEEKDAYS}|night|week|weekend|month|year)\b",
    rf"\bon (?:{_WEEKDAYS})\b",
    r"\b(?:\d+|a|an|one|two|three|few|several) (?:minute|hour|day|week|month|year)s? ago\b",
    rf"\b(?:{_MONTHS}) \d{{1,2}}(?:st|nd|rd|th)?\b",
    r"\b\d{4}-\d{2}-\d{2}\b",
)


# Step 3: tag signals; note tags win over episode tags.
NOTE_TAGS = word_set(
    "note preference decision principle rule policy lesson constraint belief identity commitment"
)
EPISODE_TAGS = word_set("episode event moment action session log incident meeting")
# Step 4: past-tense action verbs report something that happened.
PAST_TENSE_ACTION_VERBS = word_set(
    """deployed merged fixed shipped released launched built wrote finished completed migrated
    upgraded installed refactored debugged resolved published signed bought visited attended met
    went moved started joined left won lost created closed opened"""
)
# Step 5: words that state a standing belief, rule or preference.
NOTE_SIGNAL_KEYWORDS = word_set(
    """prefers prefer always never must should usually likes loves hates dislikes believes
    favorite favourite rule policy"""
)
_TEMPORAL_RE = re.compile("|".join(TEMPORAL_MARKERS), re.IGNORECASE)
_WORD_RE = re.compile(r"[a-z']+")


def classify_kind_with_reason(
    category: Category, text: str = "", tags: Iterable[str] = ()
) -> tuple[Kind, str]:
    """The classification priority; returns the kind and the rule that decided it."""
    if _TEMPORAL_RE.search(text):
        return Kind.EPISODE, "temporal_marker"
    by_category = KIND_BY_CATEGORY[category]
    if by_category is not None:
        return by_category, "category"
    tag_set = {tag.strip().lower() for tag in tags}
    if tag_set & NOTE_TAGS:
        return Kind.NOTE, "note_tag"
    if tag_set & EPISODE_TAGS:
        return Kind.EPISODE, "episode_tag"
    words = set(_WORD_RE.findall(text.lower()))
    if words & PAST_TENSE_ACTION_VERBS:
        return Kind.EPISODE, "past_tense_action"
    if words & NOTE_SIGNAL_KEYWORDS:
        return Kind.NOTE, "note_keyword"
    return Kind.EPISODE, "default"


def classify_kind(category: Category, text: str = "", tags: Iterable[str] = ()) -> Kind:
    """The memory kind for a candidate, by the priority (temporal > category > tags >
    past-tense verbs > note keywords > episode)."""
    return classify_kind_with_reason(category, text, tags)[0]
