"""The summaries step's rules: entity profiles and category summaries, debounced.

Contract, pure over plain records. ``fingerprint`` condenses the set of memories a summary is
built from (their ids and content hashes, order-free) into a short digest; the runner stores it
with the summary and rebuilds only when the live memories behind it changed — the
debounce made exact, so an unchanged graph never pays for a rebuild and a second run writes
nothing. ``rank_sources`` orders the candidate memories by centrality (the PageRank the
centrality step wrote, normalised within the group), utility and importance; ``extractive``
takes whole sentences from the best of them, without repeats, up to a sentence and character
budget, and says whether it had to leave any out (in ``auto`` LLM mode only such a summary goes
to the LLM). ``SUMMARY_SYSTEM``/``SUMMARY_SCHEMA``/``summary_prompt``/``parse_llm_summary`` are
the same summary written by an LLM, which must keep every specific (names, numbers, dates) of the
sentences it was shown, else the local one is kept. ``category_summary_props`` is the memory a
category summary is stored as: the semantic-tier memory at importance 0.8, updated in
place, tagged so the core gate never promotes it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kgmem.core.synthesis import specifics, tokens
from kgmem.lifecycle.records import derived_memory_props

PROFILE_SENTENCES, PROFILE_CHARS = 5, 600
CATEGORY_SENTENCES, CATEGORY_CHARS = 8, 1200
SUMMARY_IMPORTANCE = 0.8  # "stored as a semantic-tier memory with importance 0.8"
CATEGORY_SUMMARY = "category_summary"  # Memory.synthesis of a category summary
SUMMARY_TAGS = ("category-summary", "auto-distilled")  # auto-distilled: never promoted to core
_SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=\S)")


@dataclass(frozen=True)
class SourceMemory:
    id: str
    content: str
    created_at: datetime
    centrality: float = 0.0
    utility: float = 0.5
    importance: float = 0.5


@dataclass(frozen=True)
class Extract:
    text: str
    sources: tuple[str, ...]  # ids of the memories the sentences came from, in order
    complete: bool  # every sentence of every source fitted


def keeps_specifics(originals: Iterable[str], text: str) -> bool:
    """Whether ``text`` still has every specific (name, number, date: ``synthesis.specifics``)
    of ``originals``, case-insensitively (a sentence-initial "Rolled" may become "rolled")."""
    have = {t.casefold() for t in tokens(text)}
    return all(t.casefold() in have for o in originals for t in specifics(o))


def fingerprint(signature: Iterable[str]) -> str:
    """A digest of ``id|content_hash`` strings, independent of their order."""
    return hashlib.sha1("\n".join(sorted(set(signature))).encode()).hexdigest()[:24]


def rank_sources(sources: Sequence[SourceMemory]) -> list[SourceMemory]:
    top = max((s.centrality for s in sources), default=0.0)

    def score(s: SourceMemory) -> float:
        central = s.centrality / top if top > 0 else 0.0
        return 0.5 * central + 0.3 * s.utility + 0.2 * s.importance

    return sorted(sources, key=lambda s: (-score(s), s.created_at, s.id))


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_RE.split(text.strip()) if s.strip()]


def extractive(sources: Sequence[SourceMemory], max_sentences: int, max_chars: int) -> Extract:
    """The best-ranked sources' sentences, whole, deduplicated, within both budgets."""
    picked: list[str] = []
    used: list[str] = []
    seen: set[str] = set()
    complete = True
    size = 0
    for s in rank_sources(sources):
        for sentence in sentences(s.content):
            key = sentence.casefold().rstrip(".!? ")
            if key in seen:
                continue
            cost = len(sentence) + (1 if picked else 0)
            if len(picked) >= max_sentences or size + cost > max_chars:
                complete = False
                continue
            seen.add(key)
            picked.append(sentence)
            size += cost
            if s.id not in used:
                used.append(s.id)
    return Extract(" ".join(picked), tuple(used), complete)


def category_content(category: str, total: int, text: str) -> str:
    return f"Summary of {total} {category} memories: {text}"


SUMMARY_SYSTEM = """You write the summary a long-term memory keeps about one subject.
Combine the given memories into a short summary of at most {chars} characters. Keep every
specific detail the summary mentions exactly: names, numbers, dates, versions. Do not invent
anything and do not generalise. Answer with the summary only."""

SUMMARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"summary": {"type": "string"}},
    "required": ["summary"],
    "additionalProperties": False,
}


def summary_prompt(subject: str, sources: Sequence[SourceMemory]) -> str:
    lines = [f"Subject: {subject}", "Memories:"]
    lines += [f"- {s.content}" for s in rank_sources(sources)]
    return "\n".join(lines)


def parse_llm_summary(data: dict[str, Any], extract: Extract, max_chars: int) -> str | None:
    """The LLM's summary if it fits the budget and keeps every specific of the local extract
    (the sentences that mattered most); None otherwise, and the local summary is kept."""
    text = data.get("summary")
    if not isinstance(text, str):
        return None
    text = " ".join(text.split())
    if not text or len(text) > max_chars:
        return None
    if not keeps_specifics([extract.text], text):
        return None
    return text


def category_summary_props(
    *,
    memory_id: str,
    category: str,
    memory_type: str,
    content: str,
    content_hash: str,
    embedding: list[float] | None,
    fingerprint: str,
    sources: Sequence[str],
    method: str,
    source_trust: float,
    now: datetime,
) -> dict[str, Any]:
    """A new category summary memory (semantic tier, importance 0.8)."""
    return derived_memory_props(
        memory_id=memory_id,
        content=content,
        content_hash=content_hash,
        category=category,
        memory_type=memory_type,
        importance=SUMMARY_IMPORTANCE,
        confidence=0.7,
        source="consolidation",
        source_trust=source_trust,
        tags=list(SUMMARY_TAGS),
        embedding=embedding,
        now=now,
        synthesis=CATEGORY_SUMMARY,
        summary_of=category,
        summary_fingerprint=fingerprint,
        summary_sources=list(sources),
        summary_method=method,
    )
