"""Naming topics with an LLM (the topic naming), with the local names as the fallback.

Contract, pure: ``naming_batches`` splits the topics to name into the batches of 30;
``naming_prompt`` shows the LLM each topic of a batch by number — its top terms, a few member
texts (a parent: its children's names) — and ``NAMING_SCHEMA`` asks for one name per topic, in
order. ``parse_llm_names`` returns, per topic, the LLM's name when it is a usable one (a string of
1–60 characters on one line) and None otherwise, so a partly bad answer falls back topic by topic
to the local name (top terms). The runner names only topics it creates (kgmem names "dirty"
topics only); a name the LLM gave stays while the topic lives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kgmem.lifecycle.topics.rules import TopicPlan

BATCH = 30  # "naming batch 30" topics per LLM call
SAMPLES = 3  # member texts shown per topic
SAMPLE_CHARS = 120
MAX_NAME_CHARS = 60

NAMING_SYSTEM = """You name the topics of an agent's long-term memory for a table of contents.
For every numbered topic, give a short, specific name of 2 to 5 words that says what its memories
are about. Answer with exactly one name per topic, in the order given."""

NAMING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"names": {"type": "array", "items": {"type": "string"}}},
    "required": ["names"],
    "additionalProperties": False,
}


def naming_batches(topics: Sequence[TopicPlan]) -> list[list[TopicPlan]]:
    return [list(topics[i : i + BATCH]) for i in range(0, len(topics), BATCH)]


def naming_prompt(
    batch: Sequence[TopicPlan], texts: Mapping[str, str], names: Mapping[str, str]
) -> str:
    """``texts``: memory id → content; ``names``: topic id → the (local) name of each topic."""
    lines = []
    for i, t in enumerate(batch, start=1):
        lines.append(f"{i}. terms: {', '.join(t.terms) or '-'}")
        if t.children:
            lines.append("   subtopics: " + "; ".join(names.get(c, c) for c in t.children))
        else:
            for mid in t.members[:SAMPLES]:
                lines.append(f"   - {texts.get(mid, '')[:SAMPLE_CHARS]}")
    return "\n".join(lines)


def parse_llm_names(data: dict[str, Any], n: int) -> list[str | None]:
    raw = data.get("names")
    got = raw if isinstance(raw, list) else []
    out: list[str | None] = []
    for i in range(n):
        name = got[i] if i < len(got) else None
        if isinstance(name, str):
            name = " ".join(name.split()).strip(" \"'")
        ok = isinstance(name, str) and 0 < len(name) <= MAX_NAME_CHARS
        out.append(name if ok else None)
    return out
