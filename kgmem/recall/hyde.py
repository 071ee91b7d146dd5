"""HyDE-style query expansion with no LLM: hypothetical memory statements from templates.

Contract: pure functions over the query text, no I/O, no model. ``classify_hyde_intent`` picks one
of the seven HyDE intents from keyword cues (EN, plus the seed's TR cues);
``hyde_variants`` fills that intent's templates (:data:`HYDE_TEMPLATES`) with the query's topic
and returns 2-3 statements shaped like a stored memory, which the recall engine embeds and
searches when a query's best relevance is too low (the auto-expansion).
"""

from __future__ import annotations

import re
from enum import StrEnum

from kgmem.core.text import word_set
from kgmem.recall.query import cue


class HydeIntent(StrEnum):
    """The seven HyDE intents (distinct from the router's intents)."""

    DEFINITION = "definition"
    HOWTO = "howto"
    REASONING = "reasoning"
    LOOKUP = "lookup"
    TECHNICAL = "technical"
    PREFERENCE = "preference"
    GENERAL = "general"


# EN and TR cues (the B7 added the Turkish ones), first match wins: a reason question stays
# one whatever it is about ("why did the deploy fail"), a preference beats a definition ("what is
# my favourite colour"), and technical beats how-to ("how do I fix this error").
_HYDE_CUES: tuple[tuple[HydeIntent, re.Pattern[str]], ...] = (
    (HydeIntent.REASONING, cue(r"why", r"how come", r"reason", r"neden", r"niye", r"niçin")),
    (HydeIntent.PREFERENCE, cue(r"prefers?", r"favou?rite", r"likes?", r"dislikes?", r"love",
                                 r"hates?", r"enjoys?", r"tercih\w*", r"sever", r"favori")),
    (HydeIntent.DEFINITION, cue(r"what is", r"what's", r"what are", r"define", r"definition",
                                 r"meaning of", r"what does .+ mean", r"nedir", r"ne demek")),
    (HydeIntent.LOOKUP, cue(r"where", r"which file", r"find", r"locate", r"nerede", r"nerde")),
    (HydeIntent.TECHNICAL, cue(r"debug\w*", r"errors?", r"bugs?", r"crash\w*", r"stack ?trace",
                                r"traceback", r"exception", r"fix", r"broken", r"not working",
                                r"config\w*", r"hata\w*", r"ayar\w*")),
    (HydeIntent.HOWTO, cue(r"how (?:do|can|should|to|would)", r"steps to", r"way to",
                            r"nasıl")),
)  # fmt: skip

HYDE_TEMPLATES: dict[HydeIntent, tuple[str, ...]] = {
    HydeIntent.DEFINITION: ("{t} is", "{t} refers to", "The meaning of {t} is"),
    HydeIntent.HOWTO: ("To {t}, the steps are", "The way to {t} is", "{t} is done by"),
    HydeIntent.REASONING: ("{t} because", "The reason for {t} is", "{t} was caused by"),
    HydeIntent.LOOKUP: ("{t} is located in", "{t} can be found at", "The location of {t} is"),
    HydeIntent.TECHNICAL: ("The fix for {t} was", "{t} was caused by",
                           "The configuration for {t} is"),
    HydeIntent.PREFERENCE: ("The user prefers {t}", "The user likes {t}",
                            "The user's favourite {t} is"),
    HydeIntent.GENERAL: ("{t}", "The user mentioned {t}", "Information about {t}"),
}  # fmt: skip

_LEAD_RE = re.compile(
    r"^(?:(?:what|which|who|whom|whose|where|when|why|how)(?:\s+(?:much|many|long|often|come|to|"
    r"is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|'s))*\s+)?"
    r"(?:(?:i|we|you|the user)\s+)?(?:define|explain|describe|tell me about)?\s*",
    re.IGNORECASE,
)
_TECH_LEAD_RE = re.compile(r"^(?:fix|debug|solve|resolve|configure|set up)\s+", re.IGNORECASE)
# Memories are stored in the third person ("The user prefers tea", the standalone
# rewriting), so hypothetical documents speak about "the user" too.
_PERSON_RE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:my|mine)\b", re.IGNORECASE), "the user's"),
    (re.compile(r"\b(?:I|me)\b"), "the user"),
)
_TR_QUESTION_RE = re.compile(r"\b(?:nedir|ne demek|nasıl|neden|niye|niçin|nerede|nerde|mi|mı)\b")
_PREFERENCE_NOISE = word_set(
    """what which who do does did i me my you like likes prefer prefers love loves enjoy enjoys
    favorite favourite kind sort type of is are the most best really"""
)


def classify_hyde_intent(query: str) -> HydeIntent:
    """Which of the HyDE templates fit ``query``; GENERAL when no cue fires."""
    for intent, pattern in _HYDE_CUES:
        if pattern.search(query):
            return intent
    return HydeIntent.GENERAL


def _topic(query: str, intent: HydeIntent) -> str:
    text = _TR_QUESTION_RE.sub(" ", query.strip().rstrip("?!. ").strip())
    if intent is HydeIntent.PREFERENCE:
        words = [w for w in text.split() if w.lower().strip(",.'’") not in _PREFERENCE_NOISE]
        text = " ".join(words)
    else:
        text = _TECH_LEAD_RE.sub("", _LEAD_RE.sub("", text, count=1), count=1)
    for pattern, replacement in _PERSON_RE:
        text = pattern.sub(replacement, text)
    text = re.sub(r"\s+", " ", text).strip(" ,")
    return text or query.strip()


def hyde_variants(query: str, intent: HydeIntent | None = None) -> list[str]:
    """The template HyDE: 2-3 hypothetical memory statements for ``query`` (no LLM).

    The caller embeds the query together with these and searches with their centroid.
    """
    chosen = intent if intent is not None else classify_hyde_intent(query)
    topic = _topic(query, chosen)
    variants: list[str] = []
    for template in HYDE_TEMPLATES[chosen]:
        text = template.format(t=topic).strip()
        if not text:  # a blank query leaves the bare "{t}" template empty
            continue
        text = text[0].upper() + text[1:]
        if text.lower() not in {v.lower() for v in variants} | {query.strip().lower()}:
            variants.append(text)
    return variants if len(variants) >= 2 else [*variants, f"The user mentioned {topic}"]
