"""Query understanding before any channel runs (docs/recall.md): gate, intent, split, scope.

Contract: pure functions over the query text, no I/O, no model, no clock. ``should_skip`` is the
pre-retrieval gate and returns why a message needs no memory lookup (``"empty"``,
``"greeting"``, ``"acknowledgement"``, ``"slash_command"``, ``"single_word_ack"``) or None.
``classify_intent`` is the keyword-heuristic router (EN, plus the seed's TR cues) and
:data:`STRATEGIES` is the strategy table as data, each row naming the channels its primary
method searches (``HYBRID`` or ``GRAPH``); ``strategy_for`` picks the row, reading superseded
memories only for a temporal question about the past. ``decompose`` splits a compound query into
2-4 sub-queries (or returns ``[query]``); HyDE expansion lives in ``hyde.py``. ``should_expand`` is
the auto-expansion rule and ``recall_namespaces`` its "namespace plus default" scope.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import pairwise

from kgmem.core.text import word_set
from kgmem.recall.options import Channel
from kgmem.taxonomy import Category, MemoryRelation

# --- Pre-retrieval gate --------------------------------------------------------------


# kgmem names "hi, hello, merhaba, selam"; the rest are their everyday EN/TR siblings.
GREETINGS: frozenset[str] = word_set(
    """hi hello hey heya hiya yo howdy greetings gm merhaba merhabalar selam selamlar günaydın
    sa"""
) | frozenset(
    {
        "hi there", "hello there", "hey there", "good morning", "good afternoon", "good evening",
        "good night", "iyi akşamlar", "iyi geceler", "iyi günler", "hoş geldin",
        "selamün aleyküm", "selamun aleykum",
    }
)  # fmt: skip
# The confirmations ("ok", "sure", "tamam", "evet") and their siblings.
CONFIRMATIONS: frozenset[str] = word_set(
    """ok okay okey k kk sure yes yeah yep yup no nope nah alright fine done right correct
    tamam tamamdır evet hayır olur peki anladım"""
)
# The "single-word acknowledgements": thanks and reactions that ask for nothing.
ACK_WORDS: frozenset[str] = word_set(
    """thanks thank thx ty cheers cool nice great perfect awesome excellent lol haha hmm wow
    understood noted got teşekkürler teşekkür sağol sağ eyvallah tşk süper harika güzel"""
)
_ACK_FILLERS = word_set(
    "you it that sounds good makes sense will do very much a lot so please ol lütfen"
)
_SLASH_RE = re.compile(r"^/[A-Za-z][\w-]*(?:\s|$)")
_TOKEN_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)


def _tokens(text: str) -> list[str]:
    return _TOKEN_RE.findall(text.lower())


def should_skip(query: str) -> str | None:
    """Why ``query`` needs no memory lookup (the gate, applied before HyDE), or None."""
    text = query.strip()
    if not text:
        return "empty"
    if _SLASH_RE.match(text):
        return "slash_command"
    words = _tokens(text)
    if not words:  # only emoji or punctuation ("👍", "...", "?!")
        return "single_word_ack"
    joined = " ".join(words)
    # a greeting, optionally followed by one address word ("hi Ann", "selam millet")
    for n in (3, 2, 1):
        if len(words) in (n, n + 1) and " ".join(words[:n]) in GREETINGS:
            return "greeting"
    if len(words) == 1:
        if joined in CONFIRMATIONS:
            return "acknowledgement"
        return "single_word_ack" if joined in ACK_WORDS else None
    ack_vocabulary = CONFIRMATIONS | ACK_WORDS | _ACK_FILLERS
    if "?" not in text and len(words) <= 4 and all(w in ack_vocabulary for w in words):
        return "acknowledgement"  # "ok thanks", "sounds good", "got it, thank you"
    return None


# --- Intent router -------------------------------------------------------------------


class Intent(StrEnum):
    """The retrieval intents."""

    FACTUAL = "factual"
    TEMPORAL = "temporal"
    CAUSAL = "causal"
    ENTITY_PROFILE = "entity_profile"
    PREFERENCE = "preference"
    GENERAL = "general"


def cue(*patterns: str) -> re.Pattern[str]:
    """One case-insensitive pattern matching any of ``patterns`` as whole words."""
    return re.compile(r"\b(?:" + "|".join(patterns) + r")\b", re.IGNORECASE)


# Checked in this order: "why did I stop liking jazz" is causal, "when did I start running"
# temporal, "who is my favourite author" a preference; entity profiles beat plain lookups.
_INTENT_CUES: tuple[tuple[Intent, re.Pattern[str]], ...] = (
    (Intent.CAUSAL, cue(r"why", r"how come", r"because", r"reasons?", r"caused?", r"causes",
                         r"led to", r"lead to", r"due to", r"result(?:ed)? in", r"what made",
                         r"consequences?", r"effects? of", r"neden", r"niçin", r"niye", r"sebep")),
    (Intent.TEMPORAL, cue(r"when", r"what time", r"what date", r"which (?:day|year|month)",
                           r"how long ago", r"since when", r"timeline", r"history of",
                           r"used to", r"previously", r"before", r"after", r"ago", r"last (?:week|"
                           r"month|year|time)", r"first time", r"yesterday", r"recently",
                           r"earlier", r"in \d{4}", r"ne zaman", r"önce", r"sonra")),
    (Intent.PREFERENCE, cue(r"prefers?", r"preferred", r"favou?rites?", r"likes?", r"love",
                             r"loves", r"hates?", r"dislikes?", r"enjoys?", r"into", r"opinion",
                             r"rather", r"tercih\w*", r"sever", r"sevmez", r"favori")),
    (Intent.ENTITY_PROFILE, cue(r"who (?:is|was|are|were)", r"who's", r"tell me about",
                                 r"what do (?:you|we) know about", r"profile of", r"describe",
                                 r"kimdir", r"kim", r"hakkında")),
    (Intent.FACTUAL, cue(r"what", r"which", r"where", r"how (?:many|much|old|far|big)",
                          r"name of", r"(?:is|are|was|were|does|do|did|has|have|can) (?:i|my|"
                          r"the|he|she|they|we)", r"nedir", r"nerede", r"kaç", r"hangi")),
)  # fmt: skip


def classify_intent(query: str) -> Intent:
    """The keyword-heuristic intent; GENERAL when no cue fires."""
    for intent, pattern in _INTENT_CUES:
        if pattern.search(query):
            return intent
    return Intent.GENERAL


# The primary methods as channel sets. "Hybrid" is the vector and BM25 searches (over the
# memories and over the turns they came from); the graph methods add the entity channel and graph
# activation. Only the graph intents (causal, entity profile) run those two: on LoCoMo's full dev
# split (profile precise) this routing gives R@10 0.695 and multi-hop 0.495 against 0.687 / 0.479
# with all five channels for every question (a conversation's speakers are hubs whose thousands of
# mentions tie, so the entity list is mostly an id tie-break), and they were a third of a
# recall's CPU (benchmarks/RESULTS.md, LoCoMo section).
HYBRID = (Channel.VECTOR, Channel.FULLTEXT, Channel.EPISODE, Channel.CLAIM, Channel.PERIOD)
GRAPH = (*HYBRID, Channel.ENTITY, Channel.ACTIVATION)


@dataclass(frozen=True)
class Strategy:
    """One row of the retrieval strategy router.

    ``utility_boost`` is the share of the composite given to utility (the
    ``0.6 semantic + 0.2 utility + 0.2 importance``; see ``profiles.Profile.tuned``). ``sort`` is
    ``relevance``, ``valid_from_desc`` or ``utility_desc``; ``categories`` None means no filter;
    ``graph_hops`` is how far the entity/memory graph channel walks; ``relations`` the memory
    edges it follows (empty = every type). ``channels`` are the searches its primary method runs
    when a request names none.
    """

    intent: Intent
    primary: str  # hybrid | graph | entity_hub | hybrid_filter
    vector_weight: float
    fts_weight: float
    limit: int
    utility_boost: float
    sort: str
    include_superseded: bool = False
    include_expired: bool = False  # memories whose own validity ran out
    categories: frozenset[Category] | None = None
    graph_hops: int = 1
    relations: frozenset[MemoryRelation] = frozenset()
    channels: tuple[Channel, ...] = HYBRID


# The two router tables, merged. One hop is the entity channel's default walk;
# gives causal queries two hops over causes/elaborates. "Balanced defaults" for general keep the
# first table's utility boost of 0.2.
STRATEGIES: dict[Intent, Strategy] = {
    Intent.FACTUAL: Strategy(
        Intent.FACTUAL, "hybrid", 0.6, 0.4, 10, 0.2, "relevance", channels=HYBRID
    ),
    Intent.TEMPORAL: Strategy(
        Intent.TEMPORAL,
        "hybrid",
        0.4,
        0.6,
        15,
        0.0,
        "valid_from_desc",
        include_superseded=True,
        include_expired=True,
        channels=HYBRID,
    ),
    Intent.CAUSAL: Strategy(
        Intent.CAUSAL,
        "graph",
        0.3,
        0.3,
        20,
        0.0,
        "relevance",
        graph_hops=2,
        relations=frozenset({MemoryRelation.CAUSES, MemoryRelation.ELABORATES}),
        channels=GRAPH,
    ),
    Intent.ENTITY_PROFILE: Strategy(
        Intent.ENTITY_PROFILE, "entity_hub", 0.5, 0.5, 15, 0.3, "utility_desc", channels=GRAPH
    ),
    Intent.PREFERENCE: Strategy(
        Intent.PREFERENCE,
        "hybrid_filter",
        0.5,
        0.5,
        10,
        0.0,
        "utility_desc",
        categories=frozenset({Category.PREFERENCE, Category.CORRECTION}),
        channels=HYBRID,
    ),
    Intent.GENERAL: Strategy(
        Intent.GENERAL, "hybrid", 0.5, 0.5, 10, 0.2, "relevance", channels=HYBRID
    ),
}


# --- Multi-query decomposition --------------------------------------------------------

MAX_SUB_QUERIES = 4
_NAME = r"(?!I\b)[A-Z][\w'’-]*(?:\s+(?!and\b)[A-Z][\w'’-]*)*"
_ENTITY_RE = re.compile(r"(?<![\w'’-])" + _NAME)
_PAIR_RE = re.compile(rf"(?<![\w'’-])({_NAME})\s+and\s+({_NAME})")
_AND_ALSO_RE = re.compile(r"\s*(?:,|;)?\s*\band also\b\s*|\s*;\s*also\b\s*", re.IGNORECASE)
_CLAUSE_AND_RE = re.compile(r"\s*,?\s+and\s+(?=(?:what|which|who|where|when|why|how|is|are|does|"
                            r"do|did|was|were|has|have|can)\b)", re.IGNORECASE)  # fmt: skip


# A temporal question about the past ("when did", "used to", "before the move") reads history;
# one in the present ("What time does Leila go to bed?", "When is Mirela's birthday?") asks
# for what holds now, and a superseded value would answer it wrongly (recall answers the
# present). "When was Dmitri born?" asks for a date that holds now: the corrected one answers.
_UNTIL_BORN = r"(?!(?: [\w'’-]+){0,3} born\b)"
_PAST_RE = cue(r"did", r"was" + _UNTIL_BORN, r"were" + _UNTIL_BORN, r"had", r"used to",
               r"previously", r"before", r"ago", r"history of", r"timeline", r"first time",
               r"originally", r"at first", r"earlier", r"formerly", r"in the past",
               r"last (?:week|month|year|time)", r"yesterday", r"in \d{4}", r"since when",
               r"önce")  # fmt: skip


# A question about the conversation itself ("the order in which I brought up ...", "what did I
# tell you about ...", "across our conversations"): what was said, including what later changed.
_SAID_RE = cue(r"brought up", r"bring up", r"(?:I|we) (?:\w+ )?mentioned", r"did (?:I|we) mention",
               r"told you", r"did I tell you", r"(?:I|we) (?:\w+ )?(?:talked|spoke) about",
               r"(?:I|we) (?:\w+ )?discussed", r"did (?:I|we) discuss",
               r"(?:throughout|across|over|in) (?:all )?(?:of )?our"
               r" (?:conversations|chats|talks)")  # fmt: skip


def strategy_for(query: str) -> Strategy:
    """The router's row for ``query``: its intent's strategy, reading superseded memories only
    when a temporal question asks about the past (one in the present still reads memories whose
    own validity ran out: "When is Nate hosting a gaming party?") or a question asks what was
    said in the conversation (``_SAID_RE``), whatever its intent."""
    strategy = STRATEGIES[classify_intent(query)]
    if _SAID_RE.search(query):
        return replace(strategy, include_superseded=True, include_expired=True)
    if strategy.include_superseded and not _PAST_RE.search(query):
        return replace(strategy, include_superseded=False)
    return strategy


def _entities(text: str) -> set[str]:
    # the sentence-initial word is capitalised by grammar, not because it is a name
    return {m.group(0) for m in _ENTITY_RE.finditer(text) if m.start() > 0}


def _split_pairs(part: str) -> list[str]:
    """'Where do Ann and Bob work?' -> 'Where do Ann work?', 'Where do Bob work?'."""
    m = _PAIR_RE.search(part)
    if m is None or m.group(1) == m.group(2):
        return [part]
    return [part[: m.start()] + name + part[m.end() :] for name in (m.group(1), m.group(2))]


def _split_clauses(part: str) -> list[str]:
    """Split on 'and <question word>' only when each side names a different entity."""
    pieces = _CLAUSE_AND_RE.split(part)
    found = [_entities(" " + p) for p in pieces]  # leading space: any capital counts here
    if len(pieces) > 1 and all(found) and all(not (a & b) for a, b in pairwise(found)):
        return pieces
    return [part]


def decompose(query: str) -> list[str]:
    """The decomposition: 2-4 sub-queries for a compound query, else ``[query]``."""
    text = query.strip()
    parts = [text]
    if text.count("?") > 1:
        parts = [p.strip() + "?" for p in text.split("?") if p.strip()]
    parts = [p for part in parts for p in _AND_ALSO_RE.split(part) if p.strip()]
    parts = [p for part in parts for p in _split_clauses(part)]
    parts = [p for part in parts for p in _split_pairs(part)]
    unique: list[str] = []
    for part in (p.strip(" ,;") for p in parts):
        if len(_tokens(part)) >= 2 and part.lower() not in {u.lower() for u in unique}:
            unique.append(part)
    if len(unique) < 2:
        return [query]
    if len(unique) > MAX_SUB_QUERIES:  # keep everything, fold the tail into the last sub-query
        unique = [*unique[: MAX_SUB_QUERIES - 1], " ".join(unique[MAX_SUB_QUERIES - 1 :])]
    return unique


# --- Expansion and scope --------------------------------------------------------------

AUTO_EXPAND_THRESHOLD = 0.25  # expand and retry when the top relevance is below this


def should_expand(best_relevance: float | None) -> bool:
    """The auto-expansion: retry with expanded queries when nothing relevant came back."""
    return best_relevance is None or best_relevance < AUTO_EXPAND_THRESHOLD
